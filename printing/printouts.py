"""Printed paper as A4 PDFs (reportlab): table protocols, seating charts, standings, appeals log.

The text is set in Fira Sans (OFL), embedded in every file from the `fontpkg-fira-sans` package
the set-up installs, so Cyrillic and Polish names (Юлія Ґудзь, Łukasz Żółć) print on any
machine. Every function returns the PDF as bytes; the data comes from the same feed as the
public pages, so a printed total is the published total.
"""

import functools
import io
import itertools
from functools import cache
from operator import itemgetter
from typing import NamedTuple

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from fontpkg_fira_sans import ROOT as FIRA
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    Flowable,
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
from printing import fit
from referee.models import Appeal
from scoring import selectors
from scoring.hand_text import hand_text, seat_letter, seats_text
from scoring.hands import HandError, play
from scoring.selectors import penalties_with_worth
from seating.keys import table_code, table_path
from seating.models import WINDS, Wind
from tournament import timekeeping
from tournament.models import Player

FONT, BOLD = "FiraSans", "FiraSans-Bold"
INK = colors.HexColor("#1d2430")
GRID = colors.HexColor("#8a94a3")
SHADE = colors.HexColor("#eef1f4")

BLANK_LINE = "&nbsp;"  # a name to be written in by hand


@cache
def _in_print_language(build):
    """Build the printout in its tournament's language (Tournament.language)."""

    @functools.wraps(build)
    def wrapper(subject, *args, **kwargs):
        with getattr(subject, "tournament", subject).printing():
            return build(subject, *args, **kwargs)

    return wrapper


@cache
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

PAD = 3  # left and right padding of the protocol's and the standings' cells
SMALLEST = 6  # a label shrinks to this size before it wraps


def _label(text, width, font=BOLD, size=8.5, align=TA_CENTER):
    """A cell's label at the largest size up to `size` at which it takes one line of `width`
    points (the cell less its padding), else at SMALLEST, wrapped between its words."""
    fitted = fit.size_to_fit(text, width, font, size, SMALLEST) or SMALLEST
    style = ParagraphStyle(
        "label", fontName=font, fontSize=fitted, leading=fitted * 1.15, alignment=align,
        textColor=INK,
    )  # fmt: skip
    return Paragraph(_esc(text), style)


def _name(name, width, size, smallest, font=BOLD):
    """A name's markup at `size`, smaller (down to `smallest`) when a word of it would not fit
    `width`; a hyphenated word breaks after its hyphen."""
    widest = fit.widest_part(name, font, 1)
    if widest > 0:
        size = max(smallest, min(size, int(width / widest / fit.STEP) * fit.STEP))
    markup = fit.breaking_markup(_esc(name), width, font, size)
    return f"<font name={font} size={size}>{markup}</font>", size


def _seats(session):
    """Table number -> seat dicts in wind order (selectors.session_seating, cached per revision)."""
    return sorted(selectors.session_seating(session.tournament, session.number).items())


def _end_rule(rules) -> str:
    texts = timekeeping.rule_texts(rules)
    if rules.end_of_session == "one_more_hand":
        return ngettext(
            "At the signal (%(minutes)s minute before the end): %(warning)s %(time_up)s",
            "At the signal (%(minutes)s minutes before the end): %(warning)s %(time_up)s",
            rules.warning_minutes,
        ) % {
            "minutes": rules.warning_minutes,
            "warning": texts["warning"],
            "time_up": _("At time up: %(text)s") % {"text": texts["time_up"]},
        }
    return ngettext(
        "With %(minutes)s minute left the head referee announces it. %(time_up)s",
        "With %(minutes)s minutes left the head referee announces it. %(time_up)s",
        rules.warning_minutes,
    ) % {
        "minutes": rules.warning_minutes,
        "time_up": texts["time_up"],
    }


PROTOCOL_PAGE = landscape(A4)
PROTOCOL_MARGIN = 10 * mm


@_in_print_language
def protocols_pdf(session, filled: bool = False, address: str | None = None) -> bytes:
    """One page per table: the seats and a grid for the hands, to be written on at the table,
    with the table's card (QR code of its page at `address`, the desk's address, short code).

    `filled`: also print each confirmed result as the standings count it (for the archive),
    and the hands a table recorded, one row each with the running totals.
    """
    tournament = session.tournament
    return _build(
        protocol_story(session, filled, address),
        title=_("Table protocols, session %(number)s") % {"number": session.number},
        footer=_footer(tournament, _("Session %(number)s") % {"number": session.number}),
        pagesize=PROTOCOL_PAGE,
        margins=PROTOCOL_MARGIN,
    )


def protocol_story(session, filled: bool = False, address: str | None = None) -> list:
    """The protocols' flowables, a page per table (in the active language). A blank protocol
    carries the table's card (its QR code for `address`, the desk's address, and short code);
    a filled one prints the table's recorded hands, when it has them, over as many pages as
    they need."""
    tournament = session.tournament
    rules = tournament.rule_set()
    styles = _styles()
    story = []
    tables = _seats(session)
    confirmed = selectors.confirmed_scores(tournament, session.number) if filled else {}
    # the lines as the standings count them (selectors.table_lines, as the desk's and the
    # players' pages read them), every table's at once
    counted = selectors.session_lines(tournament, session.number) if confirmed else {}
    places = {table.number: table for table in session.tables.all()}
    for table in places.values():
        table.session = session  # the link's slug and session without a query per table
    played = selectors.current_hands(tournament) if filled else {}
    for index, (number, seats) in enumerate(tables):
        if index:
            story.append(PageBreak())
        lines = counted.get(number, []) if number in confirmed else []
        scores = confirmed.get(number, {})
        table = places.get(number)
        hands = played.get(table.pk) if table is not None else None
        page = None
        if hands:
            try:
                page = _HandsProtocol(session, number, seats, rules, scores, lines, hands)
            except HandError:
                page = None  # hands the rules no longer hold: the protocol as without them
        if page is None:
            page = _Protocol(session, number, seats, rules, scores, lines)
            if not filled and table is not None:
                page.card = _Card(table, address)
        story.extend(page.flowables(styles))
    if not tables:
        story.append(Paragraph(_("This session has no tables yet."), styles["base"]))
    return story


class _Protocol:
    """One table's protocol page: the grid's rows are measured so the page holds them all."""

    card = None  # the table's card (_Card) on a blank protocol

    def __init__(self, session, number, seats, rules, scores, counted):
        self.session, self.number, self.seats, self.rules = session, number, seats, rules
        self.scores, self.counted = scores, counted
        self.riichi = rules.game == "riichi"
        self.styles = _styles()
        self.width = PROTOCOL_PAGE[0] - 2 * PROTOCOL_MARGIN - 12  # the frame's own padding
        self.height = PROTOCOL_PAGE[1] - 2 * PROTOCOL_MARGIN - 4 * mm - 12

    def closing_labels(self):
        riichi = self.riichi
        labels = [_("Final score") if riichi else _("Final GP")]
        if riichi:
            labels.append(_("Chombo"))
        if self.counted:
            labels += [_("Place"), _("Uma / TP"), _("Penalty"), _("Result")]
        return labels

    def columns(self):
        """(lead widths, width of each ± and Σ column, tail widths)."""
        if self.riichi:
            lead, tail = [14 * mm, 16 * mm, 30 * mm], [16 * mm, 16 * mm]
        else:
            # the closing rows' labels take the lead column: as wide as the longest needs
            need = max(stringWidth(t, BOLD, 9) for t in self.closing_labels()) + 2 * PAD + 1
            lead, tail = [min(max(16 * mm, need), 42 * mm)], []
        per = (self.width - sum(lead) - sum(tail)) / (2 * len(self.seats))
        return lead, per, tail

    def player_cell(self, seat, line, width, styles):
        name, _size = _name(seat["player__name"], width, 10.5, 7)
        if seat.get("winds_pending"):
            # the winds are drawn at the table: each player writes their name under the wind
            # they drew (the heading lists the table's players)
            name = BLANK_LINE
        who = f"<font size=7.5>{_esc(Wind(seat['wind']).label)}</font><br/>{name}"
        ema = seat.get("player__ema_id") or ""
        if ema:
            who += f"<br/><font size=7.5>EMA {_esc(ema)}</font>"
        if line is not None and line.replaces is not None:
            note = _("substitute for %(name)s") % {"name": line.replaces.name}
            who += f"<br/><font name={BOLD} size=7.5>{_esc(note)}</font>"
        return Paragraph(who, styles["cell"])

    def closing_rows(self, lead_w, tail_count, lines):
        """The rows under the hands: final score (and chombo), and the counted lines when the
        result is confirmed; each label across the lead columns, each value in a seat's Σ."""
        riichi, seats = self.riichi, self.seats
        labels = self.closing_labels()
        closing = []
        span_width = sum(lead_w) - 2 * PAD
        for k, text in enumerate(labels):
            size = 10 if k == 0 else 8.5
            closing.append([_label(text, span_width, size=size, align=TA_LEFT)])
            closing[-1] += [""] * (len(lead_w) - 1)
        values = [[] for _label_ in labels]
        for seat in seats:
            wind = seat["wind"]
            score, count = self.scores.get(wind, (None, None))
            values[0] += ["", fmt(score) if score is not None else ""]
            if riichi:
                chombo = str(count) if count else ("0" if score is not None else "")
                values[1] += ["", chombo]
            line = lines[wind].line if wind in lines else None
            at = 2 if riichi else 1
            if self.counted:
                shown = (line.place, line.uma, line.penalty, line.result) if line else ("",) * 4
                for k, value in enumerate(shown):
                    values[at + k] += [fmt(value) if value != "" else "", ""]
        for row, cells in zip(closing, values, strict=True):
            row += cells + [""] * tail_count
        return closing

    def heading_rows(self, lead_text, lead_w, per, tail_text, tail_w, lines):
        """The grid's two heading rows: the lead labels, each seat's player over its ± and Σ
        columns, the tail labels."""
        inner = lambda w: w - 2 * PAD  # noqa: E731
        lead = [_label(t, inner(w)) for t, w in zip(lead_text, lead_w, strict=True)]
        tail = [_label(t, inner(w)) for t, w in zip(tail_text, tail_w, strict=True)]
        row1, row2 = list(lead), [""] * len(lead)
        for seat in self.seats:
            counted = lines.get(seat["wind"])
            row1 += [self.player_cell(seat, counted, inner(2 * per), self.styles), ""]
            row2 += ["±", "Σ"]
        row1 += tail
        row2 += [""] * len(tail)
        return [row1, row2]

    def grid_style(self, leads, tails, first_closing, last):
        """The grid's rules, spans and shading: `leads` and `tails` columns around the seats',
        the hands' rows from 2 to `first_closing` − 1, the closing rows to `last`."""
        riichi, seats = self.riichi, self.seats
        first_player = leads
        style = [("SPAN", (i, 0), (i, 1)) for i in range(leads)]
        style += [("SPAN", (first_player + 2 * k, 0), (first_player + 2 * k + 1, 0))
                  for k in range(len(seats))]  # fmt: skip
        style += [("SPAN", (first_player + 2 * len(seats) + i, 0),
                   (first_player + 2 * len(seats) + i, 1)) for i in range(tails)]  # fmt: skip
        # the closing rows' labels take the width of the leading columns (a page of hands
        # that a later page closes has none)
        style += [("SPAN", (0, r), (leads - 1, r)) for r in range(first_closing, last + 1)]
        # the counted lines (place, uma, penalty, result) take both columns of each player
        counted_from = first_closing + (2 if riichi else 1)
        style += [
            ("SPAN", (first_player + 2 * k, r), (first_player + 2 * k + 1, r))
            for r in range(counted_from, last + 1)
            for k in range(len(seats))
        ]
        style += [
            ("LEFTPADDING", (0, 0), (-1, -1), PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
            ("FONT", (0, 0), (-1, 1), BOLD, 8.5),
            ("BACKGROUND", (0, 0), (-1, 1), SHADE),
            ("ALIGN", (0, 1), (-1, -1), "CENTER"),
            ("ROWBACKGROUNDS", (0, 2), (-1, first_closing - 1), [colors.white, "#f7f8fa"]),
            # the running total column of each player is ruled heavier
            *[
                (
                    "LINEAFTER",
                    (first_player + 2 * k + 1, 0),
                    (first_player + 2 * k + 1, -1),
                    1.1,
                    INK,
                )
                for k in range(len(seats))
            ],  # fmt: skip
            ("LINEAFTER", (leads - 1, 0), (leads - 1, -1), 1.1, INK),
        ]
        if first_closing <= last:
            style += [
                ("FONT", (0, first_closing), (-1, last), BOLD, 10),
                ("BACKGROUND", (0, first_closing), (-1, last), SHADE),
            ]
        return style

    def grid(self, hand_height):
        riichi = self.riichi
        lead_w, per, tail_w = self.columns()
        lead_text = [_("Hand"), _("Dealer"), _("Result")] if riichi else [_("Hand")]
        tail_text = [_("Honba"), _("Riichi")] if riichi else []
        lines = {tl.line.wind: tl for tl in self.counted}
        head = self.heading_rows(lead_text, lead_w, per, tail_text, tail_w, lines)
        hands = 16 if riichi else 22
        body = [[str(i)] + [""] * (len(head[0]) - 1) for i in range(1, hands + 1)]
        closing = self.closing_rows(lead_w, len(tail_w), lines)
        rows = [*head, *body, *closing]
        widths = lead_w + [per] * (2 * len(self.seats)) + tail_w
        style = self.grid_style(len(lead_w), len(tail_w), 2 + hands, len(rows) - 1)
        closing_height = 17 if self.counted else 19
        heights = [None, 12] + [hand_height] * hands + [closing_height] * len(closing)
        grid = Table(rows, colWidths=widths, rowHeights=heights, repeatRows=0)
        grid.setStyle(_table_style(2, style))
        return grid, hands

    def replaced_note(self, styles):
        """The replaced players' own lines (000 §5.7, 002 §2.8.4): not at the table, but
        counted for the session; the desk's table page lists them the same way."""
        tournament = self.session.tournament
        notes = []
        for tl in self.counted:
            if tl.replaces is None:
                continue
            row = selectors.standings_row(tournament, tl.replaces.key)
            for own in row.sessions if row else ():
                if own.session == self.session.number and own.replaced:
                    replaced = _("replaced by %(name)s") % {"name": tl.player.name}
                    parts = [
                        f"{_esc(label)} {fmt(value)}"
                        for label, value in (
                            (_("Uma / TP"), own.uma),
                            (_("Penalty"), own.penalty),
                            (_("Result"), own.result),
                        )
                    ]
                    notes.append(
                        f"<b>{_esc(tl.replaces.name)}</b> ({_esc(replaced)}): " + " · ".join(parts)
                    )
        return [Paragraph(n, styles["base"]) for n in notes]

    def signatures(self):
        winds = [Wind(s["wind"]).label for s in self.seats] + [_("Referee")]
        col = self.width / len(winds)
        gap = 4 * mm
        cells = [_label(f"{w}:", col - gap, font=FONT, size=9, align=TA_LEFT) for w in winds]
        table = Table([cells], colWidths=[col] * len(winds), rowHeights=[22])
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), gap),
                    *[("LINEBELOW", (i, 0), (i, 0), 0.6, INK) for i in range(len(winds))],
                ]
            )
        )
        return table

    def heading(self, styles):
        """The title and the table's meta line; on a blank protocol the table's card beside
        them (its QR code and short code, how to reach the table page)."""
        tournament, rules = self.session.tournament, self.rules
        title = Paragraph(
            _esc(
                _("%(tournament)s — session %(session)s — table %(table)s")
                % {"tournament": tournament.name, "session": self.session.number,
                   "table": self.number}
            ),
            styles["title"],
        )  # fmt: skip
        meta = Paragraph(
            _esc(
                " · ".join(
                    (
                        _("Date: %(date)s") % {"date": _today()},
                        _(rules.name),
                        _("Start %(points)s") % {"points": fmt(rules.start_points)}
                        if self.riichi
                        else _("Game points (GP) per hand"),
                    )
                )
            ),
            styles["base"],
        )
        lines = [title, meta]
        if any(seat.get("winds_pending") for seat in self.seats):
            names = collated((seat["player__name"] for seat in self.seats), tournament.language)
            text = _("Winds drawn at the table; players: %(names)s") % {"names": ", ".join(names)}
            lines.append(Paragraph(_esc(text), styles["base"]))
        if self.card is None:
            return lines
        return [self.card.flowable(lines, self.width, styles)]

    def ending(self, styles):
        """What follows the grid: the replaced players' lines, the signatures, the end rule."""
        return [
            Spacer(1, 3 * mm),
            *self.replaced_note(styles),
            Spacer(1, 1.5 * mm),
            Paragraph(_("Signatures"), styles["small"]),
            self.signatures(),
            Spacer(1, 1.5 * mm),
            Paragraph(_esc(_end_rule(self.rules)), styles["small"]),
        ]

    def flowables(self, styles):
        head, rest = self.heading(styles), self.ending(styles)
        # The hand rows take what the page has left, up to their usual height.
        usual = 19.5 if self.riichi else 16
        grid, hands = self.grid(usual)
        taken = sum(f.wrap(self.width, self.height)[1] for f in [*head, *rest])
        taken += 2 * mm + grid.wrap(self.width, self.height)[1] - hands * usual
        height = min(usual, (self.height - taken - 2) / hands)
        if height < usual:
            grid, hands = self.grid(height)
        return [*head, Spacer(1, 2 * mm), grid, *rest]


# --- the table's card and its recorded hands on the protocol (issue 24) ---------------------

QR_SIZE = 24 * mm  # read by a phone held over the table: over half a millimetre a module
CODE_SIZE = 24  # the short code, typed from across the table


class TableQr(Flowable):
    """The table page's link as a QR code, `size` points square with the four modules of quiet
    zone the standard asks for. Reportlab's own QR widget encodes it (level M); its dark modules
    are drawn here as one filled path, since the widget's drawing, a shape per module, took
    about 30 ms a table (3 s for a hall of 100 tables)."""

    BORDER = 4

    def __init__(self, link: str, size: float = QR_SIZE):
        super().__init__()
        self.value, self.width, self.height = link, size, size
        widget = QrCodeWidget(link, barLevel="M")
        widget.qr.make()
        self.modules = [[bool(dark) for dark in row] for row in widget.qr.modules]

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        box = self.width / (len(self.modules) + 2 * self.BORDER)
        path = self.canv.beginPath()
        for r, row in enumerate(self.modules):
            top = self.height - (r + self.BORDER + 1) * box
            c = 0
            for dark, run in itertools.groupby(row):
                count = len(list(run))
                if dark:
                    path.rect((c + self.BORDER) * box, top, count * box, box)
                c += count
        self.canv.setFillColor(colors.black)
        self.canv.drawPath(path, stroke=0, fill=1)


class _Card:
    """The table's card at the head of its blank protocol: the QR code of the table page's link,
    the short code, and one line for a phone that does not scan. `address` is the desk's
    address as the request reached it ("http://192.168.1.20:8000"); without one (a command
    printing with no --address) the QR code is left out and the line names the path only."""

    def __init__(self, table, address: str | None):
        self.code = table_code(table)
        base = address.rstrip("/") if address else None
        self.link = base + table_path(table) if base else None
        self.entry = base + reverse("sheet:code") if base else None

    def line(self) -> str:
        if self.entry:
            return _(
                "Record this table's hands on a phone: scan the QR code, or open %(address)s "
                "and type the table code."
            ) % {"address": self.entry}
        return _(
            "Record this table's hands on a phone: open the desk's address followed by %(path)s "
            "and type the table code."
        ) % {"path": reverse("sheet:code")}

    def flowable(self, beside: list, width: float, styles) -> Table:
        """The card on the right of `beside` (the protocol's title and meta)."""
        code_w = max(stringWidth(self.code, BOLD, CODE_SIZE), 30 * mm) + 2 * PAD + 2
        qr_w = QR_SIZE if self.link else 0
        left_w = width - code_w - qr_w - 3 * mm
        label = ParagraphStyle(
            "code-label", parent=styles["small"], alignment=TA_CENTER, textColor=GRID
        )
        big = ParagraphStyle(
            "code", parent=styles["base"], fontName=BOLD, fontSize=CODE_SIZE,
            leading=CODE_SIZE * 1.1, alignment=TA_CENTER,
        )  # fmt: skip
        code = [Paragraph(_esc(_("Table code")), label), Paragraph(_esc(self.code), big)]
        left = [*beside, Spacer(1, 1.5 * mm), Paragraph(_esc(self.line()), styles["base"])]
        cells, widths = [left, "", code], [left_w, 3 * mm, code_w]
        if self.link:
            cells.append(TableQr(self.link))
            widths.append(qr_w)
        card = Table([cells], colWidths=widths)
        card.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                    ("BOX", (2, 0), (2, 0), 0.8, INK),
                    ("TOPPADDING", (2, 0), (2, 0), 3),
                    ("BOTTOMPADDING", (2, 0), (2, 0), 5),
                ]
            )
        )
        return card


def _signed(value) -> str:
    """A hand's change for one seat: "+5,200", "-5,200"; nothing when it is nought."""
    if not value:
        return ""
    return ("+" if value > 0 else "") + fmt(value)


class _HandsProtocol(_Protocol):
    """A table's protocol filled from its recorded hands: a row per hand (who dealt, what
    happened in words, the riichi declared, each seat's change and running total), then the
    final scores and the signatures; over as many pages as the hands need, the players'
    heading repeated on each."""

    def __init__(self, session, number, seats, rules, scores, counted, hands):
        super().__init__(session, number, seats, rules, scores, counted)
        self.hands = hands
        winds = [s["wind"] for s in seats]
        self.outcome = play(rules, hands, winds)  # HandError: the plain protocol is printed
        if not scores:  # no confirmed result yet: what the hands give
            chombo = self.outcome.chombo or {}
            self.scores = {w: (self.outcome.scores[w], chombo.get(w, 0)) for w in winds}

    def columns(self):
        """(lead widths, width of each ± and Σ column, tail widths): the words take what the
        seats' figures leave."""
        seats = len(self.seats)
        # the hand's number column as wide as its label needs at 7 pt ("Роздача")
        number = max(10 * mm, stringWidth(_("Hand"), BOLD, 7) + 2 * PAD + 1)
        if self.riichi:
            lead, per, tail = [number, 16 * mm], 18 * mm, [13 * mm, 16 * mm]
        else:
            lead, per, tail = [number, 13 * mm], (17 if seats == 4 else 19) * mm, []
        words = self.width - sum(lead) - sum(tail) - 2 * seats * per
        return [*lead, words], per, tail

    def hand_rows(self, styles):
        cell = ParagraphStyle("hand", parent=styles["cell"], fontSize=8, leading=9.5)
        winds = [s["wind"] for s in self.seats]
        game = self.outcome.game
        rows = []
        for i, data in enumerate(self.hands):
            words = Paragraph(_esc(hand_text(data)), cell)
            if self.riichi:
                hand = game.hands[i]
                number = WINDS.index(hand.dealer) + 1
                dealer = f"{seat_letter(hand.dealer)} ({seat_letter(hand.round_wind)}{number})"
                deltas, totals = hand.deltas, hand.scores
            else:
                dealer = seat_letter(game.dealers[i])
                deltas, totals = game.hands[i].points, game.totals[i]
            row = [str(i + 1), dealer, words]
            for wind in winds:
                row += [_signed(deltas[wind]), fmt(totals[wind])]
            if self.riichi:
                hand = game.hands[i]
                row += [str(hand.counters) if hand.counters else "", seats_text(data["riichi"])]
                if not data["riichi"]:
                    row[-1] = ""
            rows.append(row)
        return rows

    def notes(self, styles):
        game = self.outcome.game
        if self.riichi and game.sticks_left:
            text = _("Riichi sticks left on the table at the end: %(count)s") % {
                "count": game.sticks_left
            }
            return [Spacer(1, 1.5 * mm), Paragraph(_esc(text), styles["small"])]
        return []

    def continued(self, styles):
        return Paragraph(
            _esc(
                _("%(tournament)s — session %(session)s — table %(table)s (continued)")
                % {"tournament": self.session.tournament.name, "session": self.session.number,
                   "table": self.number}
            ),
            styles["h2"],
        )  # fmt: skip

    def grid_part(self, heading, body, closing, widths):
        rows = [*heading, *body, *closing]
        leads, tails = 3, len(widths) - 3 - 2 * len(self.seats)
        first_closing = 2 + len(body)
        style = self.grid_style(leads, tails, first_closing, len(rows) - 1)
        sums = [leads + 2 * k + 1 for k in range(len(self.seats))]
        style += [
            ("ALIGN", (2, 2), (2, first_closing - 1), "LEFT"),
            ("ALIGN", (leads, 2), (leads + 2 * len(self.seats) - 1, first_closing - 1), "RIGHT"),
            *[("FONT", (c, 2), (c, first_closing - 1), BOLD, 8.5) for c in sums],
        ]
        grid = Table(rows, colWidths=widths, repeatRows=0)
        grid.setStyle(_table_style(2, style))
        return grid

    def flowables(self, styles):
        lead_w, per, tail_w = self.columns()
        widths = lead_w + [per] * (2 * len(self.seats)) + tail_w
        lead_text = [_("Hand"), _("Dealer"), _("Result")]
        tail_text = [_("Honba"), _("Riichi")] if self.riichi else []
        lines = {tl.line.wind: tl for tl in self.counted}
        heading = self.heading_rows(lead_text, lead_w, per, tail_text, tail_w, lines)
        body = self.hand_rows(styles)
        closing = self.closing_rows(lead_w, len(tail_w), lines)
        whole = self.grid_part(heading, body, closing, widths)
        whole.wrap(self.width, 10**7)  # measured whole: a long table stops at the height given
        heights = whole._rowHeights
        heading_h, body_h = sum(heights[:2]), heights[2 : 2 + len(body)]
        closing_h = sum(heights[2 + len(body) :])
        head = self.heading(styles)
        rest = [*self.notes(styles), *self.ending(styles)]
        caption = self.continued(styles)
        measure = lambda items: sum(f.wrap(self.width, self.height)[1] for f in items)  # noqa: E731
        room = self.height - heading_h - 2 * mm - 2  # the rows' room on a page below its heading
        pages = fit.row_pages(
            body_h, room - measure(head), room - measure([caption]), closing_h + measure(rest)
        )
        story = []
        for k, (start, stop) in enumerate(pages):
            last = k == len(pages) - 1
            story += [*head] if k == 0 else [PageBreak(), caption]
            story.append(Spacer(1, 2 * mm))
            story.append(self.grid_part(heading, body[start:stop], closing if last else [], widths))
        return [*story, *rest]


# --- seating charts --------------------------------------------------------------------------

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


@_in_print_language
def seating_pdf(session) -> bytes:
    """For the wall: the tables with their four winds, then every name → table, wind."""
    story, _sizes = seating_story(session)
    subtitle = _("Session %(number)s — seating") % {"number": session.number}
    return _build(
        story, title=subtitle, footer=_footer(session.tournament, subtitle), margins=CHART_MARGIN
    )


def seating_story(session) -> tuple[list, ChartSizes]:
    """The charts' flowables (in the active language) and the sizes their names are set in."""
    tournament = session.tournament
    styles = _styles()
    width, height = _chart_frame()
    tables = [
        (number, _chart_order(seats, tournament.language)) for number, seats in _seats(session)
    ]
    subtitle = _("Session %(number)s — seating") % {"number": session.number}
    head = _header(tournament, subtitle, styles)
    if any(s["winds_pending"] for _n, seats in tables for s in seats):
        head.append(
            _para(_esc(_("The winds are left to the tiles drawn at each table.")), FONT, 10)
        )
    room = height - sum(f.wrap(width, height)[1] for f in head)
    by_table, table_size = _by_table(tables, width, room)
    story = [*head, by_table, PageBreak()]
    find = _("Session %(number)s — find your table") % {"number": session.number}
    head = _header(tournament, find, styles)
    room = height - sum(f.wrap(width, height)[1] for f in head)
    names = collated(
        ((s["player__name"], number, _wind_label(s)) for number, seats in tables for s in seats),
        tournament.language,
        itemgetter(0),
    )
    pages, name_size = _by_name(names, width, room)
    for index, page in enumerate(pages):
        story += [PageBreak()] if index else []
        story += [*_header(tournament, find, styles), page]
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
    least = pages(CHART_SMALLEST)
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
                name = fit.breaking_markup(_esc(s["player__name"]), name_width(size), FONT, size)
                label = ""
                if k == 0:
                    label = _para(
                        f"<font size={0.5 * size}>{_esc(word)}</font><br/>{number}",
                        BOLD,
                        1.6 * size,
                        align=TA_CENTER,
                    )
                rows.append(
                    [
                        label,
                        _para(_esc(_wind_label(s)), BOLD, 0.5 * size, color=GRID),
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
            _label(text, w - 2 * PAD, size=max(9, 0.5 * size), align=TA_LEFT)
            for text, w in zip(texts, widths(size), strict=False)
        ]

    def rows(size):
        name_w = widths(size)[0] - 2 * PAD
        cells = len(widths(size))
        out = []
        for name, number, wind in names:
            markup = fit.breaking_markup(_esc(name), name_w, FONT, size)
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


# --- standings -------------------------------------------------------------------------------

STANDINGS_SIZE, STANDINGS_SMALLEST = 8.5, 6.5
REPLACED_MARK = "†"


@_in_print_language
def standings_pdf(tournament) -> bytes:
    """The standings with a column per session (and the teams when there are any)."""
    story, pagesize, subtitle = standings_story(tournament)
    footer = _footer(tournament, _("Final standings") if tournament.finished else _("Standings"))
    return _build(story, title=subtitle, footer=footer, pagesize=pagesize)


def _session_blocks(sessions, width, fixed, need) -> tuple[list[range], float]:
    """The sessions' columns in as few blocks (tables one under another) as fit `width`, and
    the type size of their figures: shrunk to STANDINGS_SMALLEST before a block is added."""
    blocks = 1
    while True:
        per_block = -(-sessions // blocks)
        room = width - fixed
        for size in (STANDINGS_SIZE, 7.5, STANDINGS_SMALLEST):
            if per_block * need(size) <= room or per_block <= 1:
                ranges = [range(b + 1, min(b + per_block, sessions) + 1)
                          for b in range(0, sessions, per_block)]  # fmt: skip
                return ranges, size
        blocks += 1


def standings_story(tournament) -> tuple[list, tuple, str]:
    """The standings' flowables (in the active language), their page size and title."""
    styles = _styles()
    data = selectors.standings(tournament)
    rules = tournament.rule_set()
    sessions = max(tournament.planned_sessions, data.sessions_played, 1)
    tiebreak = rules.tiebreak == "game_points"
    subtitle = ngettext(
        "Standings after %(n)s of %(total)s session",
        "Standings after %(n)s of %(total)s sessions",
        sessions,
    ) % {
        "n": data.sessions_played,
        "total": sessions,
    }
    if tournament.finished:
        subtitle = _("Final standings")
    pagesize = landscape(A4) if sessions > 4 else A4
    width = pagesize[0] - 24 * mm - 12
    story = _header(tournament, subtitle, styles)
    rows = data.rows + data.substitutes
    figures = [
        fmt(line.result) + (f" {REPLACED_MARK}" if line.replaced else "")
        for row in rows
        for line in row.sessions
    ] + [fmt(row.total) for row in rows]

    def need(size):
        widest = max((stringWidth(f, FONT, size) for f in figures), default=0)
        return max(widest, stringWidth(str(sessions), BOLD, size)) + 2 * PAD + 1

    def label_width(text, size=STANDINGS_SIZE, floor=0):
        return max(stringWidth(text, BOLD, size), floor) + 2 * PAD

    rank_w = max(label_width(_("Rank")), 10 * mm)
    country_w = max(label_width(_("Country")), stringWidth("WWW", FONT, 8.5) + 2 * PAD)
    ema_w = max(stringWidth("00000000", FONT, 8.5) + 2 * PAD, label_width(_("EMA id")))
    total_w = max(need(STANDINGS_SIZE), label_width(_("Total")))
    gp_w = max(need(STANDINGS_SIZE), label_width(_("GP"))) if tiebreak else 0
    names_least = 70 * mm  # the player's name and club share what is left, at least this
    fixed = rank_w + country_w + ema_w + total_w + gp_w + names_least
    blocks, size = _session_blocks(sessions, width, fixed, need)
    session_w = need(size)
    for index, block in enumerate(blocks):
        rest = width - (fixed - names_least) - session_w * len(block)
        name_w, club_w = rest * 0.58, rest * 0.42
        story += [Spacer(1, 4 * mm)] if index else []
        story.append(
            _standings_table(
                data.rows, block, [rank_w, name_w, country_w, club_w, ema_w], session_w,
                [total_w] + ([gp_w] if tiebreak else []), size, styles,
            )
        )  # fmt: skip
    if any(line.replaced for row in data.rows for line in row.sessions):
        story.append(Spacer(1, 2 * mm))
        story.append(
            Paragraph(
                _esc(f"{REPLACED_MARK} " + _("replaced by a substitute in that session")),
                styles["small"],
            )
        )
    if data.substitutes:
        story += [Spacer(1, 4 * mm), Paragraph(_("Substitutes"), styles["h2"])]
        keys = {row.player.key: row.player.name for row in data.rows + data.substitutes}
        for index, block in enumerate(blocks):
            rest = width - (fixed - names_least) - session_w * len(block)
            name_w, club_w = rest * 0.58, rest * 0.42
            story += [Spacer(1, 4 * mm)] if index else []
            story.append(
                _standings_table(
                    data.substitutes, block, [0, name_w, country_w, club_w, ema_w], session_w,
                    [total_w] + ([gp_w] if tiebreak else []), size, styles, replaced=keys,
                )
            )  # fmt: skip
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
    return story, pagesize, subtitle


def _standings_table(rows, block, lead_w, session_w, tail_w, size, styles, replaced=None):
    """One block of the standings: rank, player, country, club, EMA id, the block's sessions,
    total (and GP). `replaced`: the substitutes' table (no rank), with whom each replaced."""
    ranked = replaced is None
    skip = 0 if ranked else 1  # the substitutes have no rank: the column is left out
    lead_w = lead_w[skip:]
    inner = [w - 2 * PAD for w in lead_w]
    head_text = [_("Rank"), _("Player"), _("Country"), _("Club"), _("EMA id")][skip:]
    head = [_label(t, w, size=STANDINGS_SIZE, align=TA_LEFT)
            for t, w in zip(head_text, inner, strict=True)]  # fmt: skip
    head += [_label(str(n), session_w - 2 * PAD, size=size) for n in block]
    tails = [_("Total")] + ([_("GP")] if len(tail_w) > 1 else [])
    head += [_label(t, w - 2 * PAD) for t, w in zip(tails, tail_w, strict=True)]
    name_at = 1 - skip
    out = [head]
    for row in rows:
        by_session = {line.session: line for line in row.sessions}
        name, _size = _name(row.player.name, inner[name_at], 8.5, 6.5, font=FONT)
        if row.player.status in ("disqualified", "withdrawn"):
            name += f" ({_esc(Player.Status(row.player.status).label)})"
        if not ranked:
            notes = [
                _("session %(session)s: substitute for %(name)s")
                % {"session": line.session, "name": replaced.get(line.replaces, line.replaces)}
                for line in row.sessions
                if line.replaces
            ]
            name += "".join(f"<br/><font size=7>{_esc(n)}</font>" for n in notes)
        cells = [str(row.rank) if row.rank is not None else ""][skip:]
        cells += [
            Paragraph(name, styles["cell"]),
            _label(row.player.country, inner[name_at + 1], font=FONT, size=8.5, align=TA_LEFT),
            Paragraph(_esc(row.player.club), styles["small"]),
            row.player.ema_id,
        ]
        for n in block:
            line = by_session.get(n)
            cell = ""
            if line is not None:
                cell = fmt(line.result) + (f" {REPLACED_MARK}" if line.replaced else "")
            cells.append(cell)
        cells.append(fmt(row.total))
        if len(tail_w) > 1:
            cells.append(fmt(row.tiebreak))
        out.append(cells)
    first = len(lead_w)
    total = first + len(block)
    table = Table(out, colWidths=[*lead_w, *[session_w] * len(block), *tail_w], repeatRows=1)
    table.setStyle(
        _table_style(
            1,
            [
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                ("FONT", (first, 1), (-1, -1), FONT, size),
                ("FONT", (total, 1), (total, -1), BOLD, STANDINGS_SIZE),
                ("FONT", (total + 1, 1), (-1, -1), FONT, STANDINGS_SIZE),
                ("ALIGN", (first, 0), (-1, -1), "RIGHT"),
                ("ALIGN", (0, 0), (0, -1), "CENTER" if ranked else "LEFT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, "#f7f8fa"]),
            ],
        )
    )
    return table


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
