"""The seating charts for the wall as a PDF: the tables with their four winds, then every
name → table, wind, in type as large as the pages allow.
"""

from functools import cache
from operator import itemgetter
from typing import NamedTuple

from django.utils.translation import gettext as _
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import PageBreak, Paragraph, Table, TableStyle

from core.collation import collated
from printing.language import in_print_language
from printing.pdf import fit
from printing.pdf.kit import (
    BOLD,
    FONT,
    GRID,
    INK,
    PAD,
    SHADE,
    build_pdf,
    cell_label,
    escape,
    footer_text,
    paragraph_styles,
    seated_tables,
    tournament_header,
)
from seating.models import WINDS, Wind

# Read on the wall from two or three metres: names at least CHART_SMALLEST points, as large as
# the page allows up to CHART_LARGEST. More tables than a page holds at the smallest size go on
# more pages.
CHART_SMALLEST, CHART_LARGEST = 20, 40
CHART_MARGIN = 12 * mm
CHART_GAP = 5 * mm


class ChartSizes(NamedTuple):
    """The name sizes chosen for the seating chart by table and the list by name, in points."""

    tables: float
    names: float


def _chart_frame():
    """Width and height inside the page's frame (SimpleDocTemplate pads its frame by 6 pt)."""
    return A4[0] - 2 * CHART_MARGIN - 12, A4[1] - 2 * CHART_MARGIN - 4 * mm - 12


def _para(markup, font, size, align=TA_LEFT, color=INK):
    style = ParagraphStyle(
        "chart", fontName=font, fontSize=size, leading=size * 1.15, alignment=align,
        textColor=color,
    )  # fmt: skip
    return Paragraph(markup, style)


@in_print_language
def seating_pdf(session) -> bytes:
    """For the wall: the tables with their four winds, then every name → table, wind."""
    story, _sizes = seating_story(session)
    subtitle = _("Session %(number)s — seating") % {"number": session.number}
    return build_pdf(
        story,
        title=subtitle,
        footer=footer_text(session.tournament, subtitle),
        margins=CHART_MARGIN,
    )


def seating_story(session) -> tuple[list, ChartSizes]:
    """The charts' flowables (in the active language) and the sizes their names are set in."""
    tournament = session.tournament
    styles = paragraph_styles()
    width, height = _chart_frame()
    tables = [
        (number, _chart_order(seats, tournament.language))
        for number, seats in seated_tables(session)
    ]
    subtitle = _("Session %(number)s — seating") % {"number": session.number}
    head = tournament_header(tournament, subtitle, styles)
    if any(s["winds_pending"] for _n, seats in tables for s in seats):
        head.append(
            _para(escape(_("The winds are left to the tiles drawn at each table.")), FONT, 10)
        )
    room = height - sum(f.wrap(width, height)[1] for f in head)
    by_table, table_size = _by_table(tables, width, room)
    story = [*head, by_table, PageBreak()]
    find = _("Session %(number)s — find your table") % {"number": session.number}
    head = tournament_header(tournament, find, styles)
    room = height - sum(f.wrap(width, height)[1] for f in head)
    names = collated(
        ((s["player__name"], number, _wind_label(s)) for number, seats in tables for s in seats),
        tournament.language,
        itemgetter(0),
    )
    pages, name_size = _by_name(names, width, room)
    for index, page in enumerate(pages):
        story += [PageBreak()] if index else []
        story += [*tournament_header(tournament, find, styles), page]
    return story, ChartSizes(table_size, name_size)


def _wind_label(seat) -> str:
    """A seat's wind on the charts: none while the table's winds are still to be drawn there."""
    return "" if seat["winds_pending"] else str(Wind(seat["wind"]).label)


def _chart_order(seats, language):
    """A table's seats as the charts list them: by wind, or by name while its winds are still
    to be drawn at the table (the draw's order would read as winds)."""
    if any(s["winds_pending"] for s in seats):
        return collated(seats, language, itemgetter("player__name"))
    return seats


def _largest_chart_size(names, name_width, pages) -> float:
    """The largest size, at least CHART_SMALLEST, at which no word of a name is cut and the
    chart takes no more pages (pages(size)) than at CHART_SMALLEST: it fills its pages. A word
    too long for its column even at CHART_SMALLEST keeps the chart at that size, and breaks."""
    whole = fit.largest(
        lambda s: all(fit.widest_part(n, FONT, s) <= name_width(s) for n in names),
        CHART_SMALLEST,
        CHART_LARGEST,
    )
    # laid out once a size: the search below asks again at CHART_SMALLEST (as a float, the
    # search's half-point steps: the cache would take the int 20 for another key than 20.0)
    pages = cache(pages)
    least = pages(float(CHART_SMALLEST))
    found = fit.largest(lambda s: pages(s) <= least, CHART_SMALLEST, whole or CHART_SMALLEST)
    return found or CHART_SMALLEST


def _page_count(heights, first, rest) -> int:
    """Pages that rows of these heights take, `first` points on the first page and `rest` on
    each after it (a row taller than a page takes one to itself)."""
    pages, room = 1, first
    for h in heights:
        if h > room and room < (first if pages == 1 else rest):
            pages, room = pages + 1, rest
        room -= h
    return pages


def _by_table(tables, width, room):
    """A card per table, two across: the table's number down its left side (the word "Table"
    over it), then each wind and name; no row of its own for the number, so twenty names fit
    down an A4 page in 20 pt."""
    card = (width - CHART_GAP) / 2
    winds = [str(Wind(w).label) for w in WINDS]
    word = _("Table")
    last = str(max((n for n, _seats in tables), default=0))

    def number_width(size):
        return (
            max(stringWidth(word, BOLD, 0.5 * size), stringWidth(last, BOLD, 1.6 * size)) + 2 * PAD
        )

    def wind_width(size):
        return max(stringWidth(w, BOLD, 0.5 * size) for w in winds) + 2 * PAD + 1

    def name_width(size):
        return card - number_width(size) - wind_width(size) - 2 * PAD

    def chart(size):
        cards = []
        widths = [number_width(size), wind_width(size)]
        widths.append(card - sum(widths))
        for number, seats in tables:
            rows = []
            for k, s in enumerate(seats):
                name = fit.breaking_markup(escape(s["player__name"]), name_width(size), FONT, size)
                label = ""
                if k == 0:
                    label = _para(
                        f"<font size={0.5 * size}>{escape(word)}</font><br/>{number}",
                        BOLD,
                        1.6 * size,
                        align=TA_CENTER,
                    )
                rows.append(
                    [
                        label,
                        _para(escape(_wind_label(s)), BOLD, 0.5 * size, color=GRID),
                        _para(name, FONT, size),
                    ]
                )
            one = Table(rows, colWidths=widths)
            one.setStyle(
                TableStyle(
                    [
                        ("SPAN", (0, 0), (0, -1)),
                        ("BACKGROUND", (0, 0), (0, -1), SHADE),
                        ("BOX", (0, 0), (-1, -1), 0.8, INK),
                        ("LINEAFTER", (0, 0), (0, -1), 0.8, INK),
                        ("LINEBELOW", (1, 0), (-1, -2), 0.4, GRID),
                        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                        ("TOPPADDING", (0, 0), (-1, -1), 0.08 * size),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.18 * size),
                    ]
                )
            )
            cards.append(one)
        rows = [cards[i : i + 2] for i in range(0, len(cards), 2)]
        rows = [[pair[0], "", pair[1] if len(pair) > 1 else ""] for pair in rows] or [["", "", ""]]
        grid = Table(rows, colWidths=[card, CHART_GAP, card])
        grid.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), CHART_GAP / 2),
                ]
            )
        )
        return grid

    names = [s["player__name"] for _n, seats in tables for s in seats]

    def pages(size):
        grid = chart(size)
        grid.wrap(width, room)
        return _page_count(grid._rowHeights, room, _chart_frame()[1])

    size = _largest_chart_size(names, name_width, pages)
    return chart(size), size


def _by_name(names, width, room):
    """Every name → table, wind in two columns a page, the first column read down first; the
    pages (each a flowable) and the size of the names."""
    column = (width - CHART_GAP) / 2
    winds = [str(Wind(w).label) for w in WINDS]
    last = str(max((n for _name, n, _w in names), default=0))
    # no Wind column while no table has drawn its winds (winds drawn at the table)
    shown = not names or any(w for _name, _n, w in names)

    def widths(size):
        table = max(stringWidth(last, BOLD, size), 8 * mm) + 2 * PAD
        if not shown:
            return column - table, table
        wind = max(stringWidth(w, FONT, 0.55 * size) for w in winds) + 2 * PAD
        return column - table - wind, table, wind

    def header(size):
        texts = (_("Name"), _("Table"), _("Wind"))
        return [
            cell_label(text, w - 2 * PAD, size=max(9, 0.5 * size), align=TA_LEFT)
            for text, w in zip(texts, widths(size), strict=False)
        ]

    def rows(size):
        name_w = widths(size)[0] - 2 * PAD
        cells = len(widths(size))
        out = []
        for name, number, wind in names:
            markup = fit.breaking_markup(escape(name), name_w, FONT, size)
            para = _para(markup, FONT, size)
            h = max(para.wrap(name_w, room)[1], size * 1.15) + 0.3 * size
            out.append(([para, str(number), wind][:cells], h))
        return out

    def head_height(size):
        return (
            max(
                p.wrap(w - 2 * PAD, room)[1]
                for p, w in zip(header(size), widths(size), strict=True)
            )
            + 6
        )

    @cache
    def columns(size):
        """The rows split into columns no taller than the page's room: greedy, or when all
        fit in two, balanced between the two."""
        laid = rows(size)
        capacity = room - head_height(size)
        heights = [h for _cells, h in laid]
        total = sum(heights)
        if total <= 2 * capacity:
            best = None
            ahead = 0
            for k in range(len(laid) + 1):
                left, right = ahead, total - ahead
                if left <= capacity and right <= capacity:
                    worst = max(left, right)
                    if best is None or worst < best[0]:
                        best = (worst, k)
                if k < len(laid):
                    ahead += heights[k]
            if best is not None:
                return [laid[: best[1]], laid[best[1] :]]
        out, current, used = [], [], 0
        for cells, h in laid:
            if current and used + h > capacity:
                out.append(current)
                current, used = [], 0
            current.append((cells, h))
            used += h
        return [*out, current]

    def column_table(size, part):
        rows_ = [header(size)] + [cells for cells, _h in part]
        heights = [head_height(size)] + [h for _cells, h in part]
        table = Table(rows_, colWidths=list(widths(size)), rowHeights=heights)
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (1, 1), (1, -1), BOLD, size),
                    *([("FONT", (2, 1), (2, -1), FONT, 0.55 * size)] if shown else []),
                    ("ALIGN", (1, 0), (1, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                    ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0.15 * size),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.4, GRID),
                    ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ]
            )
        )
        return table

    size = _largest_chart_size(
        [n for n, _t, _w in names],
        lambda s: widths(s)[0] - 2 * PAD,
        lambda s: (len(columns(s)) + 1) // 2,
    )
    parts = columns(size)
    pages = []
    for i in range(0, len(parts), 2):
        left = column_table(size, parts[i])
        right = column_table(size, parts[i + 1]) if i + 1 < len(parts) else ""
        page = Table([[left, "", right]], colWidths=[column, CHART_GAP, column])
        page.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        pages.append(page)
    return pages, size
