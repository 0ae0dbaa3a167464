"""Printed paper as A4 PDFs (reportlab): table protocols, seating charts, standings, appeals log.

The text is set in Fira Sans (OFL), embedded in every file from the `fontpkg-fira-sans` package
the set-up installs, so Cyrillic and Polish names (Юлія Ґудзь, Łukasz Żółć) print on any
machine. Every function returns the PDF as bytes; the data comes from the same feed as the
public pages, so a printed total is the published total.
"""

import functools
import io
from functools import cache
from operator import itemgetter

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fontpkg_fira_sans import ROOT as FIRA
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from core.collation import collated
from core.tables import fmt
from scoring import selectors
from scoring.selectors import penalties_with_worth
from seating.models import WINDS, Wind
from tournament import timekeeping
from tournament.models import Appeal, Player

FONT, BOLD = "FiraSans", "FiraSans-Bold"
INK = colors.HexColor("#1d2430")
GRID = colors.HexColor("#8a94a3")
SHADE = colors.HexColor("#eef1f4")


@cache
def _in_print_language(build):
    """Build the printout in its tournament's language (Tournament.language)."""

    @functools.wraps(build)
    def wrapper(subject, *args, **kwargs):
        with getattr(subject, "tournament", subject).printing():
            return build(subject, *args, **kwargs)

    return wrapper


def _fonts():
    pdfmetrics.registerFont(TTFont(FONT, str(FIRA / "files" / "FiraSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FIRA / "files" / "FiraSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)
    return True


def _styles():
    _fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=9, leading=11, textColor=INK)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9),
        "title": ParagraphStyle("title", parent=base, fontName=BOLD, fontSize=15, leading=18),
        "h2": ParagraphStyle("h2", parent=base, fontName=BOLD, fontSize=12, leading=15),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10),
        "big": ParagraphStyle("big", parent=base, fontSize=12.5, leading=15),
    }


# Direction embeddings, overrides and isolates. ReportLab lays text out in the order it is
# typed and draws these as empty boxes; left in, an override would reach past its name in a
# reader that applies them when copying the text out.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def _esc(text) -> str:
    text = str(text).translate(_BIDI_CONTROLS)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _NumberedCanvas(pdfcanvas.Canvas):
    """Draws "page n of m" and the document's footer line once the page count is known."""

    footer = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages = []

    def showPage(self):
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            width, _height = self._pagesize
            self.setFont(FONT, 7.5)
            self.setFillColor(GRID)
            self.drawString(12 * mm, 7 * mm, self.footer)
            self.drawRightString(
                width - 12 * mm,
                7 * mm,
                _("Page %(page)s of %(pages)s") % {"page": self._pageNumber, "pages": total},
            )
            super().showPage()
        super().save()


def _build(story, *, title, footer, pagesize=A4, margins=12 * mm) -> bytes:
    _fonts()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margins,
        rightMargin=margins,
        topMargin=margins,
        bottomMargin=margins + 4 * mm,
        title=title,
        author=_("Mahjong Tournament Desk"),
    )
    canvas_class = type("Canvas", (_NumberedCanvas,), {"footer": footer})
    doc.build(story, canvasmaker=canvas_class)
    return buffer.getvalue()


def _when(moment) -> str:
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _today() -> str:
    return date_format(timezone.localdate(), "DATE_FORMAT")


def _header(tournament, subtitle, styles):
    rules = tournament.rule_set()
    meta = " · ".join(
        part
        for part in (
            date_format(tournament.start_date, "DATE_FORMAT") if tournament.start_date else "",
            tournament.venue,
            _(rules.name),
        )
        if part
    )
    return [
        Paragraph(_esc(tournament.name), styles["title"]),
        Paragraph(
            f"<b>{_esc(subtitle)}</b>" + (f" · {_esc(meta)}" if meta else ""), styles["base"]
        ),
        Spacer(1, 4 * mm),
    ]


def _footer(tournament, what) -> str:
    return _("%(tournament)s · %(what)s · printed %(date)s") % {
        "tournament": tournament.name,
        "what": what,
        "date": _today(),
    }


def _table_style(header_rows=1, extra=()):
    return TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, 8.5),
            ("FONT", (0, 0), (-1, header_rows - 1), BOLD, 8.5),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            *extra,
        ]
    )


# --- table protocols ---------------------------------------------------------------------------


def _seats(session):
    """Table number -> seat dicts in wind order (selectors.session_seating, cached per revision)."""
    return sorted(selectors.session_seating(session.tournament, session.number).items())


def _end_rule(rules) -> str:
    texts = timekeeping.rule_texts(rules)
    if rules.end_of_session == "one_more_hand":
        return _("At the signal (%(minutes)s minutes before the end): %(warning)s %(time_up)s") % {
            "minutes": rules.warning_minutes,
            "warning": texts["warning"],
            "time_up": _("At time up: %(text)s") % {"text": texts["time_up"]},
        }
    return _("With %(minutes)s minutes left the head referee announces it. %(time_up)s") % {
        "minutes": rules.warning_minutes,
        "time_up": texts["time_up"],
    }


@_in_print_language
def protocols_pdf(session, filled: bool = False) -> bytes:
    """One page per table: the seats and a grid for the hands, to be written on at the table.

    `filled`: also print each confirmed result's final scores and chombo (for the archive).
    """
    tournament = session.tournament
    rules = tournament.rule_set()
    styles = _styles()
    riichi = rules.game == "riichi"
    confirmed = selectors.confirmed_scores(session.tournament, session.number) if filled else {}
    story = []
    tables = _seats(session)
    for index, (number, seats) in enumerate(tables):
        if index:
            story.append(PageBreak())
        story.extend(_protocol_page(session, number, seats, rules, riichi, confirmed, styles))
    if not tables:
        story.append(Paragraph(_("This session has no tables yet."), styles["base"]))
    return _build(
        story,
        title=_("Table protocols, session %(number)s") % {"number": session.number},
        footer=_footer(tournament, _("Session %(number)s") % {"number": session.number}),
        pagesize=landscape(A4),
        margins=10 * mm,
    )


def _protocol_page(session, number, seats, rules, riichi, confirmed, styles):
    tournament = session.tournament
    winds = [s["wind"] for s in seats]
    title = Paragraph(
        _esc(
            _("%(tournament)s — session %(session)s — table %(table)s")
            % {"tournament": tournament.name, "session": session.number, "table": number}
        ),
        styles["title"],
    )
    meta = Paragraph(
        _esc(
            " · ".join(
                (
                    _("Date: %(date)s") % {"date": _today()},
                    _(rules.name),
                    _("Start %(points)s") % {"points": fmt(rules.start_points)}
                    if riichi
                    else _("Game points (GP) per hand"),
                )
            )
        ),
        styles["base"],
    )
    # Header cells: per player "East — name (EMA id)", spanning the ± and Σ columns.
    lead = [_("Hand"), _("Dealer"), _("Result")] if riichi else [_("Hand")]
    tail = [_("Honba"), _("Riichi")] if riichi else []
    players = []
    for seat in seats:
        ema = seat.get("player__ema_id") or ""
        who = (
            f"<font size=7.5>{_esc(Wind(seat['wind']).label)}</font><br/>"
            f"<font name={BOLD} size=10.5>{_esc(seat['player__name'])}</font>"
        )
        if ema:
            who += f"<br/><font size=7.5>EMA {_esc(ema)}</font>"
        players.append(Paragraph(who, styles["cell"]))
    row1 = list(lead)
    row2 = [""] * len(lead)
    for cell in players:
        row1 += [cell, ""]
        row2 += ["±", "Σ"]
    row1 += tail
    row2 += [""] * len(tail)
    hands = 16 if riichi else 22
    body = [[str(i)] + [""] * (len(row1) - 1) for i in range(1, hands + 1)]
    final_label = _("Final score") if riichi else _("Final GP")
    final = [final_label] + [""] * (len(lead) - 1)
    chombo = [_("Chombo")] + [""] * (len(lead) - 1)
    result = confirmed.get(number, {})
    for wind in winds:
        score, count = result.get(wind, (None, None))
        final += ["", fmt(score) if score is not None else ""]
        chombo += ["", str(count) if count else ("0" if score is not None else "")]
    final += [""] * len(tail)
    chombo += [""] * len(tail)
    rows = [row1, row2, *body, final]
    if riichi:
        rows.append(chombo)
    lead_widths = [14 * mm, 16 * mm, 30 * mm] if riichi else [16 * mm]
    tail_widths = [16 * mm, 16 * mm] if riichi else []
    free = landscape(A4)[0] - 20 * mm - sum(lead_widths) - sum(tail_widths)
    per = free / (2 * len(seats))
    widths = lead_widths + [per] * (2 * len(seats)) + tail_widths
    style = [("SPAN", (i, 0), (i, 1)) for i in range(len(lead))] + [
        ("SPAN", (len(lead) + 2 * k, 0), (len(lead) + 2 * k + 1, 0)) for k in range(len(seats))
    ]
    style += [("SPAN", (len(lead) + 2 * len(seats) + i, 0), (len(lead) + 2 * len(seats) + i, 1))
              for i in range(len(tail))]  # fmt: skip
    last = len(rows) - 1
    # the closing rows' labels take the width of the leading columns
    style += [("SPAN", (0, r), (len(lead) - 1, r)) for r in range(2 + hands, last + 1)]
    style += [("ALIGN", (0, 2 + hands), (0, last), "LEFT")]
    style += [
        ("FONT", (0, 0), (-1, 1), BOLD, 8.5),
        ("BACKGROUND", (0, 0), (-1, 1), SHADE),
        ("ALIGN", (0, 1), (-1, -1), "CENTER"),
        ("FONT", (0, last - (1 if riichi else 0)), (-1, last), BOLD, 10),
        ("BACKGROUND", (0, last - (1 if riichi else 0)), (-1, last), SHADE),
        ("ROWBACKGROUNDS", (0, 2), (-1, last - (2 if riichi else 1)), [colors.white, "#f7f8fa"]),
        # the running total column of each player is ruled heavier
        *[
            ("LINEAFTER", (len(lead) + 2 * k + 1, 0), (len(lead) + 2 * k + 1, -1), 1.1, INK)
            for k in range(len(seats))
        ],
        ("LINEAFTER", (len(lead) - 1, 0), (len(lead) - 1, -1), 1.1, INK),
    ]
    heights = [None, 12] + [19.5 if riichi else 16] * hands + [19] * (2 if riichi else 1)
    grid = Table(rows, colWidths=widths, rowHeights=heights, repeatRows=0)
    grid.setStyle(_table_style(2, style))
    signatures = Table(
        [
            [f"{Wind(w).label}: ____________________" for w in winds]
            + [_("Referee: ____________________")]
        ],
        colWidths=[(landscape(A4)[0] - 20 * mm) / (len(winds) + 1)] * (len(winds) + 1),
    )
    signatures.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9)]))
    reminder = Paragraph(_esc(_end_rule(rules)), styles["small"])
    return [
        title,
        meta,
        Spacer(1, 2 * mm),
        grid,
        Spacer(1, 3 * mm),
        Paragraph(_("Signatures"), styles["small"]),
        signatures,
        Spacer(1, 1.5 * mm),
        reminder,
    ]


# --- seating charts --------------------------------------------------------------------------


@_in_print_language
def seating_pdf(session) -> bytes:
    """For the wall: the tables with their four winds, then every name → table, wind."""
    tournament = session.tournament
    styles = _styles()
    subtitle = _("Session %(number)s — seating") % {"number": session.number}
    story = _header(tournament, subtitle, styles)
    tables = _seats(session)
    rows = [[_("Table"), *[Wind(w).label for w in WINDS]]]
    for number, seats in tables:
        by_wind = {s["wind"]: s["player__name"] for s in seats}
        rows.append(
            [str(number), *[Paragraph(_esc(by_wind.get(w, "—")), styles["big"]) for w in WINDS]]
        )
    width = A4[0] - 24 * mm
    chart = Table(rows, colWidths=[18 * mm] + [(width - 18 * mm) / 4] * 4, repeatRows=1)
    chart.setStyle(
        _table_style(
            1,
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 12),
                ("FONT", (0, 1), (-1, -1), FONT, 12),
                ("FONT", (0, 1), (0, -1), BOLD, 16),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
            ],
        )
    )
    story.append(chart)
    story.append(PageBreak())
    find = _("Session %(number)s — find your table") % {"number": session.number}
    story.extend(_header(tournament, find, styles))
    names = collated(
        (
            (s["player__name"], number, Wind(s["wind"]).label)
            for number, seats in tables
            for s in seats
        ),
        tournament.language,
        itemgetter(0),
    )
    half = (len(names) + 1) // 2
    rows = [[_("Name"), _("Table"), _("Wind"), "", _("Name"), _("Table"), _("Wind")]]
    for i in range(half):
        left = names[i]
        right = names[i + half] if i + half < len(names) else ("", "", "")
        rows.append(
            [
                Paragraph(_esc(left[0]), styles["big"]),
                str(left[1]),
                left[2],
                "",
                Paragraph(_esc(right[0]), styles["big"]),
                str(right[1]),
                right[2],
            ]
        )
    col = (width - 6 * mm) / 2
    by_name = Table(
        rows,
        colWidths=[col - 38 * mm, 16 * mm, 22 * mm, 6 * mm, col - 38 * mm, 16 * mm, 22 * mm],
        repeatRows=1,
    )
    by_name.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 13),
                ("FONT", (0, 0), (-1, 0), BOLD, 11),
                ("FONT", (1, 1), (1, -1), BOLD, 15),
                ("FONT", (5, 1), (5, -1), BOLD, 15),
                ("ALIGN", (1, 0), (1, -1), "CENTER"),
                ("ALIGN", (5, 0), (5, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (2, -1), 0.4, GRID),
                ("LINEBELOW", (4, 0), (6, -1), 0.4, GRID),
                ("BACKGROUND", (0, 0), (2, 0), SHADE),
                ("BACKGROUND", (4, 0), (6, 0), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 3.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3.5),
            ]
        )
    )
    story.append(by_name)
    return _build(story, title=subtitle, footer=_footer(tournament, subtitle))


# --- standings -------------------------------------------------------------------------------


@_in_print_language
def standings_pdf(tournament) -> bytes:
    """The standings with a column per session (and the teams when there are any)."""
    styles = _styles()
    data = selectors.standings(tournament)
    rules = tournament.rule_set()
    sessions = max(tournament.planned_sessions, data.sessions_played)
    tiebreak = rules.tiebreak == "game_points"
    subtitle = _("Standings after %(n)s of %(total)s sessions") % {
        "n": data.sessions_played,
        "total": sessions,
    }
    if tournament.finished:
        subtitle = _("Final standings")
    story = _header(tournament, subtitle, styles)
    head = [_("Rank"), _("Player"), _("EMA id")]
    head += [str(n) for n in range(1, sessions + 1)]
    head += [_("Total")] + ([_("GP")] if tiebreak else [])
    rows = [head]
    for row in data.rows:
        by_session = {line.session: line for line in row.sessions}
        name = row.player.name
        if row.player.status in ("disqualified", "withdrawn"):
            name += f" ({Player.Status(row.player.status).label})"
        rows.append(
            [
                str(row.rank) if row.rank is not None else "",
                Paragraph(_esc(name), styles["cell"]),
                row.player.ema_id,
                *[
                    fmt(by_session[n].result) if n in by_session else ""
                    for n in range(1, sessions + 1)
                ],
                fmt(row.total),
                *([fmt(row.tiebreak)] if tiebreak else []),
            ]
        )
    pagesize = landscape(A4) if sessions > 6 else A4
    width = pagesize[0] - 24 * mm
    fixed = 12 * mm + 22 * mm + 20 * mm * (1 + tiebreak)
    session_width = min(18 * mm, (width - fixed - 45 * mm) / max(1, sessions))
    name_width = width - fixed - session_width * sessions
    widths = [12 * mm, name_width, 22 * mm] + [session_width] * sessions
    widths += [20 * mm] * (1 + tiebreak)
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(
        _table_style(
            1,
            [
                ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("FONT", (3 + sessions, 1), (3 + sessions, -1), BOLD, 8.5),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, "#f7f8fa"]),
            ],
        )
    )
    story.append(table)
    if data.teams:
        names = {r.player.key: r.player.name for r in data.rows}
        rows = [[_("Rank"), _("Team"), _("Members"), _("Total")]]
        for team in data.teams:
            members = ", ".join(names.get(k, k) for k in team.members)
            rows.append(
                [
                    str(team.rank),
                    Paragraph(_esc(team.team), styles["cell"]),
                    Paragraph(_esc(members), styles["cell"]),
                    fmt(team.total),
                ]
            )
        teams = Table(rows, colWidths=[12 * mm, 45 * mm, width - 82 * mm, 25 * mm], repeatRows=1)
        teams.setStyle(_table_style(1, [("ALIGN", (3, 0), (3, -1), "RIGHT")]))
        story += [Spacer(1, 6 * mm), KeepTogether([Paragraph(_("Teams"), styles["h2"]), teams])]
    return _build(
        story,
        title=subtitle,
        footer=_footer(tournament, _("Final standings") if tournament.finished else _("Standings")),
        pagesize=pagesize,
    )


# --- appeals and penalties -------------------------------------------------------------------


@_in_print_language
def appeals_pdf(tournament) -> bytes:
    """The appeals log and the penalties (void ones listed apart), for the organiser's file."""
    styles = _styles()
    subtitle = _("Appeals log and penalties")
    story = _header(tournament, subtitle, styles)
    width = A4[0] - 24 * mm
    story.append(Paragraph(_("Appeals"), styles["h2"]))
    rows = [[_("No."), _("Session"), _("Filed"), _("Appellant"), _("Appeal"), _("Decision")]]
    appeals = Appeal.objects.filter(tournament=tournament).select_related(
        "session", "appellant", "table"
    )
    for n, appeal in enumerate(appeals.order_by("filed_at", "pk"), start=1):
        what = f"<b>{_esc(appeal.subject)}</b>"
        if appeal.text:
            what += f"<br/>{_esc(appeal.text)}"
        decision = f"<b>{_esc(appeal.get_status_display())}</b>"
        if appeal.decision:
            decision += f"<br/>{_esc(appeal.decision)}"
        rows.append(
            [
                str(n),
                str(appeal.session.number),
                Paragraph(_esc(_when(appeal.filed_at)), styles["cell"]),
                Paragraph(_esc(appeal.appellant.name), styles["cell"]),
                Paragraph(what, styles["cell"]),
                Paragraph(decision, styles["cell"]),
            ]
        )
    if len(rows) == 1:
        story.append(Paragraph(_("No appeals."), styles["base"]))
    else:
        log = Table(
            rows,
            colWidths=[9 * mm, 14 * mm, 27 * mm, 32 * mm, (width - 82 * mm) * 0.55,
                       (width - 82 * mm) * 0.45],
            repeatRows=1,
            splitInRow=1,  # an appeal's text may be longer than a page
        )  # fmt: skip
        log.setStyle(_table_style(1, [("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(log)
    story += [Spacer(1, 6 * mm), Paragraph(_("Penalties"), styles["h2"])]
    rows = [[_("Session"), _("Table"), _("Player"), _("Penalty"), _("Recorded"), _("Void")]]
    # By session, each in the order recorded.
    listed = sorted(penalties_with_worth(tournament), key=lambda w: w.penalty.session.number)
    for w in listed:
        penalty = w.penalty
        who = penalty.recorded_by.get_username() if penalty.recorded_by else ""
        what = penalty.get_kind_display()
        if penalty.minutes:
            what += " · " + _("%(minutes)s min") % {"minutes": penalty.minutes}
        if w.worth is not None:
            what += " · " + w.text
        void = ""
        if penalty.is_void:
            void = _("void: %(reason)s") % {"reason": penalty.void_reason}
        rows.append(
            [
                str(penalty.session.number),
                str(penalty.table.number) if penalty.table else "",
                Paragraph(_esc(penalty.player.name), styles["cell"]),
                Paragraph(_esc(what), styles["cell"]),
                Paragraph(_esc(f"{_when(penalty.recorded_at)} {who}"), styles["cell"]),
                Paragraph(_esc(void), styles["cell"]),
            ]
        )
    if len(rows) == 1:
        story.append(Paragraph(_("No penalties."), styles["base"]))
    else:
        log = Table(
            rows,
            colWidths=[14 * mm, 12 * mm, 38 * mm, width - 134 * mm, 40 * mm, 30 * mm],
            repeatRows=1,
            splitInRow=1,
        )
        log.setStyle(_table_style(1, [("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(log)
    return _build(story, title=subtitle, footer=_footer(tournament, subtitle))
