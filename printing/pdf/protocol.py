"""A table's protocol page: the seats and a grid for the hands, to be written on at the table,
or filled with the session's penalties and the confirmed result as the standings count it.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from core.collation import collated
from core.tables import fmt
from printing.pdf.kit import (
    BOLD,
    FONT,
    INK,
    PAD,
    SHADE,
    cell_label,
    escape,
    name_markup,
    paragraph_styles,
    table_style,
    today_text,
)
from scoring import selectors
from seating.models import Wind
from tournament import timekeeping

BLANK_LINE = "&nbsp;"  # a name to be written in by hand


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


class Protocol:
    """One table's protocol page: the grid's rows are measured so the page holds them all."""

    card = None  # the table's card (TableCard) on a blank protocol

    def __init__(self, session, number, seats, rules, scores, counted, penalties=None):
        self.session, self.number, self.seats, self.rules = session, number, seats, rules
        self.scores, self.counted = scores, counted
        # filled: player key -> the session's penalties that count (scoring.selectors
        # PenaltyWorth, each with its amount in its unit); None: a blank protocol, written in
        self.penalties = penalties
        self.riichi = rules.game == "riichi"
        self.styles = paragraph_styles()
        self.width = PROTOCOL_PAGE[0] - 2 * PROTOCOL_MARGIN - 12  # the frame's own padding
        self.height = PROTOCOL_PAGE[1] - 2 * PROTOCOL_MARGIN - 4 * mm - 12

    def closing_labels(self):
        riichi = self.riichi
        labels = [_("Final score") if riichi else _("Final GP")]
        if riichi:
            labels.append(_("Chombo"))
        labels.append(_("Penalties"))
        if self.counted:
            labels += self.counted_labels()
        return labels

    def counted_labels(self):
        """The labels of a counted line's figures, in the game's words: riichi's uma and
        penalty in the result unit; Sichuan's session GP "с учётом штрафов", which give the
        places (002 §2.7.5 (1), §2.8.4 item 5), then its TP (§2.1.5) and a TP penalty."""
        if self.riichi:
            return [_("Place"), _("Uma"), _("Penalty"), _("Result")]
        return [_("GP after penalties"), _("Place"), _("TP"), _("TP penalty"), _("Result")]

    def counted_values(self, line):
        """A counted line's figures, as the standings have them (scoring.selectors)."""
        if self.riichi:
            return (line.place, line.uma, line.penalty, line.result)
        return (line.game_points, line.place, line.uma, line.penalty, line.result)

    def penalty_cell(self, seat):
        """The seat's penalties of the session, a line each with its amount in its unit and
        when it counts; nothing on a blank protocol (the referee writes them in)."""
        listed = self.own_penalties(seat["player__key"])
        if not listed:
            return ""
        style = ParagraphStyle(
            "penalty", fontName=FONT, fontSize=7, leading=8, alignment=TA_CENTER, textColor=INK
        )
        return [Paragraph(escape(w.summary), style) for w in listed]

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
        name, _size = name_markup(seat["player__name"], width, 10.5, 7)
        if seat.get("winds_pending"):
            # the winds are drawn at the table: each player writes their name under the wind
            # they drew (the heading lists the table's players)
            name = BLANK_LINE
        who = f"<font size=7.5>{escape(Wind(seat['wind']).label)}</font><br/>{name}"
        ema = seat.get("player__ema_id") or ""
        if ema:
            who += f"<br/><font size=7.5>EMA {escape(ema)}</font>"
        if line is not None and line.replaces is not None:
            note = _("substitute for %(name)s") % {"name": line.replaces.name}
            who += f"<br/><font name={BOLD} size=7.5>{escape(note)}</font>"
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
            closing.append([cell_label(text, span_width, size=size, align=TA_LEFT)])
            closing[-1] += [""] * (len(lead_w) - 1)
        values = [[] for _label_ in labels]
        for seat in seats:
            wind = seat["wind"]
            score, count = self.scores.get(wind, (None, None))
            values[0] += ["", fmt(score) if score is not None else ""]
            if riichi:
                chombo = str(count) if count else ("0" if score is not None else "")
                values[1] += ["", chombo]
            at = 2 if riichi else 1
            values[at] += [self.penalty_cell(seat), ""]
            line = lines[wind].line if wind in lines else None
            if self.counted:
                count = len(labels) - at - 1
                shown = self.counted_values(line) if line else ("",) * count
                for k, value in enumerate(shown):
                    values[at + 1 + k] += [fmt(value) if value != "" else "", ""]
        for row, cells in zip(closing, values, strict=True):
            row += cells + [""] * tail_count
        return closing

    def heading_rows(self, lead_text, lead_w, per, tail_text, tail_w, lines):
        """The grid's two heading rows: the lead labels, each seat's player over its ± and Σ
        columns, the tail labels."""
        inner = lambda w: w - 2 * PAD  # noqa: E731
        lead = [cell_label(t, inner(w)) for t, w in zip(lead_text, lead_w, strict=True)]
        tail = [cell_label(t, inner(w)) for t, w in zip(tail_text, tail_w, strict=True)]
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
        # the penalties and the counted lines (place, uma, penalty, result) take both columns
        # of each player
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
        if any(self.own_penalties(seat["player__key"]) for seat in self.seats):
            heights[2 + hands + (2 if riichi else 1)] = None  # as many lines as they take
        grid = Table(rows, colWidths=widths, rowHeights=heights, repeatRows=0)
        grid.setStyle(table_style(2, style))
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
                    # the line's figures but the place (a replaced player has none); Sichuan's
                    # fixed line is "0 ТО и 0 ИО" (002 §2.8.4 item 5)
                    shown = list(zip(self.counted_labels(), self.counted_values(own), strict=True))
                    del shown[0 if self.riichi else 1]
                    parts = [f"{escape(label)} {fmt(value)}" for label, value in shown]
                    parts += [escape(w.summary) for w in self.own_penalties(tl.replaces.key)]
                    notes.append(
                        f"<b>{escape(tl.replaces.name)}</b> ({escape(replaced)}): "
                        + " · ".join(parts)
                    )
        return [Paragraph(n, styles["base"]) for n in notes]

    def own_penalties(self, key):
        """The player's penalties of the session that count (none on a blank protocol)."""
        return self.penalties.get(key, ()) if self.penalties else ()

    def signatures(self):
        winds = [Wind(s["wind"]).label for s in self.seats] + [_("Referee")]
        col = self.width / len(winds)
        gap = 4 * mm
        cells = [cell_label(f"{w}:", col - gap, font=FONT, size=9, align=TA_LEFT) for w in winds]
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
            escape(
                _("%(tournament)s — session %(session)s — table %(table)s")
                % {"tournament": tournament.name, "session": self.session.number,
                   "table": self.number}
            ),
            styles["title"],
        )  # fmt: skip
        meta = Paragraph(
            escape(
                " · ".join(
                    (
                        _("Date: %(date)s") % {"date": today_text()},
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
            lines.append(Paragraph(escape(text), styles["base"]))
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
            Paragraph(escape(_end_rule(self.rules)), styles["small"]),
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
