"""The workbook's sheets of recorded hands (mahjong.hands.stats): every hand in play order,
and each player's statistics.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from printing.xlsx.kit import INT, PERCENT, SCORE, Sheet
from seating.models import WINDS, Wind


def _result_label(result) -> str:
    labels = {
        "ron": _("ron"),
        "tsumo": _("tsumo"),
        "draw": _("exhaustive draw"),
        "abortive": _("abortive draw"),
        "chombo": _("chombo"),
        "nagashi": _("nagashi mangan"),
        "hu": _("ended by hu"),
        "exhausted": _("wall exhausted"),
    }
    return str(labels[result])


def _win_value(value) -> str:
    """A riichi win as the sheet counted it: "3 han 40 fu", "5 han", "yakuman"."""
    if "yakuman" in value:
        return _("double yakuman") if value["yakuman"] == 2 else _("yakuman")
    if "fu" in value:
        return _("%(han)s han %(fu)s fu") % value
    return _("%(han)s han") % value


def hands_sheet(hands) -> Sheet:
    """One row per hand in play order, with the seats' changes and running totals."""
    sichuan = hands.game == "sichuan"
    columns = [
        (_("Session"), INT),
        (_("Table"), INT),
        (_("Hand"), INT),
        (_("Dealer"), None),
        (_("Result"), None),
        (_("Winners"), None),
        (_("Paid by"), None),  # riichi: the ron's discarder, the chombo's player
        (_("Fans") if sichuan else _("Han / fu"), None),
    ]
    if not sichuan:
        columns.append((_("Riichi"), None))
    for wind in WINDS:
        label = Wind(wind).label
        columns += [
            (str(label), None),
            (_("%(wind)s ±") % {"wind": label}, SCORE),
            (_("%(wind)s total") % {"wind": label}, SCORE),
        ]
    sheet = Sheet(_("Hands"), columns, freeze="D2")
    for line in hands.lines:

        def name(wind, line=line):
            return hands.players[line.players[wind]].name

        winners = []
        for wind in line.winners:
            if sichuan and wind in line.self_drawn:
                winners.append(_("%(name)s (self-draw)") % {"name": name(wind)})
            else:
                winners.append(name(wind))
        if sichuan:
            values = ", ".join(str(fans) for fans in line.values)
        else:
            values = "; ".join(_win_value(v) for v in line.values)
        row = [
            line.session,
            line.table,
            line.number,
            name(line.dealer),
            _result_label(line.result),
            ", ".join(winners) or None,
            ", ".join(name(w) for w in line.payers) or None,
            values or None,
        ]
        if not sichuan:
            row.append(", ".join(name(w) for w in line.riichi) or None)
        for wind in WINDS:
            if wind in line.players:
                row += [name(wind), line.deltas[wind], line.totals[wind]]
            else:  # a three-player Sichuan table has no North
                row += [None, None, None]
        sheet.add(row)
    return sheet


def hand_stats_sheet(hands) -> Sheet:
    """One row per player who played a recorded hand, in name order."""
    if hands.game == "sichuan":
        fields = [
            ("hands", _("Hands played"), INT),
            ("hu", _("Hu"), INT),
            ("self_draw_share", _("Self-draw share"), PERCENT),
            ("kong_points", _("Kong points"), INT),
            ("pigs", _("Pigs"), INT),
            ("false_hu", _("False hu"), INT),
            ("dead", _("Dead hands"), INT),  # 002 §2.8.3
            ("deal_ins", _("Deal-ins"), INT),
        ]
    else:
        fields = [
            ("hands", _("Hands played"), INT),
            ("wins", _("Wins"), INT),
            ("deal_ins", _("Deal-ins"), INT),
            ("riichi", _("Riichi declared"), INT),
            ("riichi_won", _("Riichi won"), INT),
            ("average_win", _("Average win"), INT),
            ("tsumo_share", _("Tsumo share"), PERCENT),
            ("chombo", _("Chombo"), INT),
        ]
    columns = [(_("Player"), None)] + [(heading, kind) for _f, heading, kind in fields]
    sheet = Sheet(_("Player statistics"), columns, freeze="B2")
    for row in hands.rows:
        sheet.add([row.player.name] + [getattr(row.stats, f) for f, _h, _k in fields])
    return sheet
