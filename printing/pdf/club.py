"""A club rating's paper (issue 25): the rating table and every game as A4 PDFs.

Everything is read through club.selectors (`rating`, `rated_games`), the same rows the club's
pages and feed show, so a printed rating is the published rating. Each file is made in the
club's language and time zone (Club.printing()); the type and the label fitting are the
tournament printouts' own (pdf.kit).
"""

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Spacer, Table

from club import selectors
from core.tables import fmt
from mahjong.rating import RATING_DECIMALS
from printing.language import in_print_language
from printing.pdf.kit import (
    BOLD,
    FONT,
    GRID,
    PAD,
    build_pdf,
    cell_label,
    escape,
    footer_text,
    name_markup,
    paragraph_styles,
    table_style,
)
from seating.models import Wind

SIZE, SMALLEST_NAME = 8.5, 6.5
WIDTH = A4[0] - 24 * mm  # the page less its margins (kit.build_pdf)


# --- what every file says the same way -------------------------------------------------------


def period(season) -> str:
    """The table's period: the season's name and dates, or all time."""
    if season is None:
        return _("All time")
    start = date_format(season.start, "SHORT_DATE_FORMAT")
    end = date_format(season.end, "SHORT_DATE_FORMAT")
    return f"{season.name} ({start} – {end})"


def points_text(value) -> str:
    """Rating points as 001 §13 writes them: signed, to one decimal ("+19.0", "-29.0")."""
    text = number_format(value, decimal_pos=RATING_DECIMALS, force_grouping=True)
    return ("+" + text) if value > 0 else text


def _day(value) -> str:
    return date_format(value, "SHORT_DATE_FORMAT") if value else ""


def _share(value) -> str:
    return f"{number_format(round(value * 100))}%"


def _header(club, subtitle, season, styles):
    meta = " · ".join(
        [
            period(season),
            _(club.rule_set().name),
            _("printed %(date)s") % {"date": date_format(timezone.localdate(), "DATE_FORMAT")},
        ]
    )
    return [
        Paragraph(escape(club.name), styles["title"]),
        Paragraph(f"<b>{escape(subtitle)}</b> · {escape(meta)}", styles["base"]),
        Spacer(1, 4 * mm),
    ]


def _column(texts, head, font=FONT, size=SIZE, least=8 * mm):
    """A column as wide as its widest figure or its heading (which may shrink to fit it)."""
    widest = max((stringWidth(t, font, size) for t in texts), default=0)
    heading = min(stringWidth(head, BOLD, SIZE), 2.2 * max(widest, least))
    return max(widest, heading, least) + 2 * PAD + 1  # a point to spare: no wrap at the edge


# --- the rating table ------------------------------------------------------------------------


@in_print_language
def rating_pdf(club, season=None) -> bytes:
    """The rating table of a season (or of all time): rank, name, rating, games, average place,
    share of first places, last game; the players below the minimum of games under their own
    heading."""
    styles = paragraph_styles()
    data = selectors.rating(club, season)
    subtitle = _("Rating table")
    story = _header(club, subtitle, season, styles)
    rows = data.table.rows + data.table.unranked
    texts = {
        "rank": [str(r.rank) for r in data.table.rows],
        "rating": [points_text(r.rating) for r in rows],
        "games": [fmt(r.games) for r in rows],
        "place": [number_format(r.average_place, decimal_pos=2) for r in rows],
        "share": [_share(r.first_share) for r in rows],
        "last": [_day(r.last_played) for r in rows],
    }
    heads = {
        "rank": _("Rank"),
        "rating": _("Rating"),
        "games": _("Games"),
        "place": _("Average place"),
        "share": _("First places"),
        "last": _("Last game"),
    }
    widths = {
        key: _column(texts[key], heads[key], font=BOLD if key == "rating" else FONT)
        for key in heads
    }
    widths["name"] = WIDTH - sum(widths.values())
    order = ["rank", "name", "rating", "games", "place", "share", "last"]
    heads["name"] = _("Name")
    colwidths = [widths[k] for k in order]
    if data.table.rows:
        story.append(_rating_table(data.table.rows, order, heads, colwidths, styles))
    elif data.table.unranked:
        story.append(Paragraph(escape(data.empty_text), styles["base"]))
    else:
        story.append(Paragraph(escape(_("No rated games in this period.")), styles["base"]))
    if data.table.unranked:
        heading = ngettext(
            "Not ranked: fewer than %(n)s rated game",
            "Not ranked: fewer than %(n)s rated games",
            data.table.min_games,
        ) % {"n": data.table.min_games}
        story += [Spacer(1, 5 * mm), Paragraph(escape(heading), styles["h2"]), Spacer(1, 2 * mm)]
        story.append(_rating_table(data.table.unranked, order, heads, colwidths, styles))
    story += [
        Spacer(1, 3 * mm),
        Paragraph(
            escape(
                ngettext(
                    "%(n)s rated game in this period.",
                    "%(n)s rated games in this period.",
                    data.games,
                )
                % {"n": fmt(data.games)}
            ),  # fmt: skip
            styles["small"],
        ),
    ]
    footer = footer_text(club, f"{subtitle} · {period(season)}")
    return build_pdf(story, title=f"{club.name} · {subtitle}", footer=footer)


def _rating_table(rows, order, heads, colwidths, styles):
    name_w = colwidths[order.index("name")] - 2 * PAD
    out = [
        [cell_label(heads[k], w - 2 * PAD, align=TA_LEFT if k == "name" else TA_CENTER)
         for k, w in zip(order, colwidths, strict=True)]
    ]  # fmt: skip
    for row in rows:
        name, _size = name_markup(row.person.name, name_w, SIZE, SMALLEST_NAME, font=FONT)
        out.append(
            [
                str(row.rank) if row.rank is not None else "–",
                Paragraph(name, styles["cell"]),
                points_text(row.rating),
                fmt(row.games),
                number_format(row.average_place, decimal_pos=2),
                _share(row.first_share),
                _day(row.last_played),
            ]
        )
    table = Table(out, colWidths=colwidths, repeatRows=1)
    table.setStyle(
        table_style(
            1,
            [
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                ("ALIGN", (0, 1), (0, -1), "CENTER"),
                ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
                ("FONT", (2, 1), (2, -1), BOLD, SIZE),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, "#f7f8fa"]),
            ],
        )
    )
    return table


# --- every game ------------------------------------------------------------------------------


@in_print_language
def games_pdf(club, season=None) -> bytes:
    """Every confirmed game in the order played (of a season, or all): date, table, version,
    and a line per seat (wind, name, score, chombo, place, rating points). A game's four lines
    stay on one page; the heading repeats on every page."""
    styles = paragraph_styles()
    games = selectors.rated_games(club, season, newest_first=False)
    subtitle = _("Rated games")
    story = _header(club, subtitle, season, styles)
    if not games:
        story.append(Paragraph(escape(_("No rated games in this period.")), styles["base"]))
        return build_pdf(
            story, title=f"{club.name} · {subtitle}", footer=footer_text(club, subtitle)
        )
    lines = [line for g in games for line in g.lines]
    heads = [
        _("Date"), _("Table"), _("Version"), _("Wind"), _("Name"),
        _("Score"), _("Chombo"), _("Place"), _("Points"),
    ]  # fmt: skip
    texts = [
        [_day(g.played_on) for g in games],
        [str(g.number) for g in games],
        [str(g.version) for g in games],
        [str(Wind(w).label) for w in Wind.values],
        None,
        [fmt(line.score) for line in lines],
        [str(line.chombo) for line in lines],
        [str(line.place) for line in lines],
        [points_text(line.points) for line in lines],
    ]
    widths = [
        _column(t, h, font=BOLD if i == 8 else FONT, least=6 * mm) if t is not None else 0
        for i, (t, h) in enumerate(zip(texts, heads, strict=True))
    ]
    widths[4] = WIDTH - sum(widths)
    name_w = widths[4] - 2 * PAD
    out = [
        [cell_label(h, w - 2 * PAD, align=TA_LEFT if i == 4 else TA_CENTER)
         for i, (h, w) in enumerate(zip(heads, widths, strict=True))]
    ]  # fmt: skip
    commands = [
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("ALIGN", (0, 1), (3, -1), "CENTER"),
        ("ALIGN", (5, 1), (-1, -1), "RIGHT"),
        ("ALIGN", (6, 1), (7, -1), "CENTER"),
        ("FONT", (8, 1), (8, -1), BOLD, SIZE),
        ("VALIGN", (0, 1), (2, -1), "TOP"),
    ]
    first = 1
    for n, game in enumerate(games):
        last = first + len(game.lines) - 1
        for i, line in enumerate(game.lines):
            name, _size = name_markup(line.person.name, name_w, SIZE, SMALLEST_NAME, font=FONT)
            head = [_day(game.played_on), str(game.number), str(game.version)] if i == 0 else [
                "", "", ""
            ]  # fmt: skip
            out.append(
                [
                    *head,
                    str(Wind(line.wind).label),
                    Paragraph(name, styles["cell"]),
                    fmt(line.score),
                    str(line.chombo) if line.chombo else "",
                    str(line.place),
                    points_text(line.points),
                ]
            )
        # A game is one block: its date, table and version span its lines, which keeps the
        # four lines together when the table breaks across pages.
        commands += [("SPAN", (c, first), (c, last)) for c in (0, 1, 2)]
        commands.append(("LINEABOVE", (0, first), (-1, first), 1.2, GRID))
        if n % 2:
            commands.append(("BACKGROUND", (0, first), (-1, last), "#f7f8fa"))
        first = last + 1
    table = Table(out, colWidths=widths, repeatRows=1)
    table.setStyle(table_style(1, commands))
    story.append(table)
    footer = footer_text(club, f"{subtitle} · {period(season)}")
    return build_pdf(story, title=f"{club.name} · {subtitle}", footer=footer)
