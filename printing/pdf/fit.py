"""Measuring type for the printouts (reportlab's font metrics, nothing of Django): the size at
which a label fits its cell, a name that breaks after its hyphens, and the largest size at which
a chart still fits its page. Measured with stringWidth, never guessed from a count of letters,
so a label that runs longer in Ukrainian than in English still stays inside its cell."""

import re

from reportlab.pdfbase.pdfmetrics import stringWidth

STEP = 0.5  # sizes are searched in half points


def parts(text: str) -> list[str]:
    """The pieces a line may break between: words, and the halves of a hyphenated word (the
    hyphen kept on the first)."""
    return [p for p in re.split(r"\s+|(?<=-)", str(text)) if p]


def widest_part(text: str, font: str, size: float) -> float:
    return max((stringWidth(p, font, size) for p in parts(text)), default=0.0)


def size_to_fit(text: str, width: float, font: str, size: float, smallest: float) -> float | None:
    """The largest size from `size` down to `smallest` at which `text` takes one line of at most
    `width` points, or None when even `smallest` is too wide."""
    at_one = stringWidth(str(text), font, 1)
    if at_one <= 0:
        return size
    fitting = width / at_one
    if fitting >= size:
        return size
    fitting = int(fitting / STEP) * STEP
    return fitting if fitting >= smallest else None


def largest(fits, low: float, high: float) -> float | None:
    """The largest size in [low, high] (half-point steps) for which fits(size) holds, assuming it
    holds for every size below one for which it holds; None if it fails at `low`."""
    lo, hi = round(low / STEP), round(high / STEP)
    if hi < lo or not fits(lo * STEP):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid * STEP):
            lo = mid
        else:
            hi = mid - 1
    return lo * STEP


def breaking_markup(escaped: str, width: float, font: str, size: float) -> str:
    """Paragraph markup of an escaped name whose hyphenated words wider than `width` break after
    their hyphens (ReportLab would otherwise cut the word at any letter: "Shevch / enko")."""

    def word(match):
        text = match.group(0)
        if "-" in text and stringWidth(text, font, size) > width:
            return text.replace("-", "-<br/>")
        return text

    return re.sub(r"\S+", word, escaped)


def row_pages(heights, first: float, rest: float, tail: float) -> list[tuple[int, int]]:
    """Rows of these heights split into pages, as (start, stop) ranges in order: the first page
    holds `first` points of rows, each page after it `rest`, and the last page must also hold
    `tail` points after its rows (the totals and signatures that close a table). When the tail
    does not fit under the last rows, up to three of them go over with it (at least one row
    stays behind), so the closing lines never stand alone on a page when rows can keep them
    company; a page holds at least one row however tall."""
    heights = list(heights)
    pages, start, room, used = [], 0, first, 0.0
    for i, h in enumerate(heights):
        if i > start and used + h > room:
            pages.append((start, i))
            start, room, used = i, rest, 0.0
        used += h
    end = len(heights)
    if used + tail <= room:
        return [*pages, (start, end)]
    carried = min(3, end - start - 1)
    while carried > 0 and sum(heights[end - carried :]) + tail > rest:
        carried -= 1
    return [*pages, (start, end - carried), (end - carried, end)]
