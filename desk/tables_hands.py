"""The typed hands checked at the desk: each hand's change per seat and the running totals."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.tables import FixedTable, fmt
from mahjong.hands.notation import write
from seating.models import Wind


def _signed(value) -> str:
    return ("+" if value > 0 else "") + fmt(value)


NUM = {"td": {"class": "num"}, "th": {"class": "num"}, "tf": {"class": "num"}}


class SeatColumn(tables.Column):
    """One seat: the hand's change over the running total."""

    attrs = NUM

    def render(self, value):
        change, total = value
        return format_html(
            '<span class="change">{}</span><br><b>{}</b>', _signed(change), fmt(total)
        )


class HandsCheckTable(FixedTable):
    number = tables.Column(verbose_name=_("Hand"), attrs=NUM)
    round = tables.Column(verbose_name=_("Round"), default="")
    dealer = tables.Column(verbose_name=_("Dealer"))
    counters = tables.Column(verbose_name=_("Counters"), attrs=NUM, default="")
    sticks = tables.Column(verbose_name=_("Sticks"), attrs=NUM, default="")
    hand = tables.Column(
        verbose_name=_("As read"), attrs={"td": {"class": "hand-line"}}, footer=_("Final")
    )

    class Meta(FixedTable.Meta):
        attrs = {"class": "hands-check"}


def hands_check_table(lines, outcome, seats) -> HandsCheckTable:
    """`lines`: notation.Line of each hand; `outcome`: mahjong.hands.play's; `seats`: the
    table's seats in order. The footer row carries the final scores (riichi: the sticks left
    given as the rule set says)."""
    game = outcome.game
    riichi = hasattr(game, "sticks_left")
    rows = []
    for i, line in enumerate(lines):
        row = {"number": i + 1, "hand": write(line.hand)}
        if riichi:
            played = game.hands[i]
            row["round"] = Wind(played.round_wind).label
            row["dealer"] = Wind(played.dealer).label
            row["counters"], row["sticks"] = played.counters, played.sticks
            changes, totals = played.deltas, played.scores
        else:
            row["dealer"] = Wind(game.dealers[i]).label
            changes, totals = game.hands[i].points, game.totals[i]
        for seat in seats:
            row[seat.wind] = (changes[seat.wind], totals[seat.wind])
        rows.append(row)
    extra = [
        (
            seat.wind,
            SeatColumn(
                verbose_name=format_html("{}<br>{}", Wind(seat.wind).label, seat.player.name),
                footer=fmt(outcome.scores[seat.wind]),
            ),
        )
        for seat in seats
    ]
    riichi_only = () if riichi else ("round", "counters", "sticks")
    return HandsCheckTable(rows, extra_columns=extra, exclude=riichi_only)
