"""A table's protocol filled from its recorded hands (issue 24): a row per hand, over as many
pages as the hands need.
"""

from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table

from core.tables import fmt
from mahjong.hands import play
from printing.pdf import fit
from printing.pdf.kit import BOLD, PAD, escape, table_style
from printing.pdf.protocol import Protocol
from scoring.hand_text import hand_text, seat_letter, seats_text
from seating.models import WINDS


def _signed(value) -> str:
    """A hand's change for one seat: "+5,200", "-5,200"; nothing when it is nought."""
    if not value:
        return ""
    return ("+" if value > 0 else "") + fmt(value)


class HandsProtocol(Protocol):
    """A table's protocol filled from its recorded hands: a row per hand (who dealt, what
    happened in words, the riichi declared, each seat's change and running total), then the
    final scores and the signatures; over as many pages as the hands need, the players'
    heading repeated on each."""

    def __init__(self, session, number, seats, rules, scores, counted, hands, penalties=None):
        super().__init__(session, number, seats, rules, scores, counted, penalties)
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
            words = Paragraph(escape(hand_text(data)), cell)
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
            return [Spacer(1, 1.5 * mm), Paragraph(escape(text), styles["small"])]
        return []

    def continued(self, styles):
        return Paragraph(
            escape(
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
        grid.setStyle(table_style(2, style))
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
