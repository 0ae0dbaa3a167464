"""The words of the table page, in the reader's language: the page's script gets them as one
JSON object (its keys are what the page's script, static/sheet/*.js, reads)."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mahjong.rulesets import RULE_FIELDS


def labels() -> dict:
    return {
        "winds": {"E": _("E"), "S": _("S"), "W": _("W"), "N": _("N")},
        "wind_names": {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")},
        "results": {
            "ron": _("Ron"),
            "tsumo": _("Tsumo"),
            "draw": _("Draw"),
            "abortive": _("Abortive draw"),
            "chombo": _("Chombo"),
            "nagashi": _("Nagashi"),
        },
        "result": _("Result of the hand"),
        "from": _("From (discarded the tile)"),
        "winners": _("Winners"),
        "winner": _("Winner"),
        "chombo_by": _("Chombo by"),
        "nagashi_by": _("Nagashi by"),
        "tenpai": _("Tenpai"),
        "riichi": _("Riichi"),
        # 000 §3.3.12: a riichi whose declaring discard is won on does not stand.
        "riichi_dealt_in": _(
            "%(wind)s declared riichi and dealt in: was it the riichi discard itself? Then the "
            "riichi does not stand and its 1,000 goes back (000 §3.3.12)."
        ),
        "riichi_dealt_yes": _("Yes: the riichi does not stand"),
        "riichi_dealt_no": _("No: riichi was declared earlier"),
        "riichi_left_out": _("%(wind)s's riichi is left out: it does not stand."),
        # 000 §3.3.6, 001 §8: the seat responsible for a yakuman (wins[].pao), offered on a
        # yakuman where the rule set's pao_hands has some; the hands it has by their names there
        "pao": _("Pao: who is responsible for %(wind)s's yakuman"),
        "pao_hands": {
            value: _(label) for value, label in RULE_FIELDS["pao_hands"].choices if value != "none"
        },
        "pao_hint": _(
            "Only for %(hands)s; otherwise leave it empty. The responsible player pays the whole "
            "hand on a tsumo, half of it on a ron (the discarder pays the other half and the "
            "counters)."
        ),
        "pao_said": _("%(value)s, pao: %(seat)s"),
        # 001 §2.18: a tsumo on the replacement tile of an open kan (kan_from), where the rule
        # set's open_kan_rinshan is kan_giver
        "kan_from": _("Won on the replacement tile after an open kan: who gave the kan tile"),
        "kan_from_hint": _(
            "Only then; otherwise leave it empty. That player pays the whole hand, as a ron on "
            "their discard (001 §2.18)."
        ),
        "kan_from_said": _("paid by %(seat)s, who gave the kan tile"),
        "han_names": {
            5: _("mangan"),
            6: _("haneman"),
            8: _("baiman"),
            11: _("sanbaiman"),
            13: _("kazoe"),
        },
        "han_label": _("han and fu"),
        "limits": _("Limit hands"),
        "reload": _(
            "The desk refused this page's changes: reload the page (what waits here stays)."
        ),
        "yakuman": _("yakuman"),
        "double_yakuman": _("double yakuman"),
        "han": _("han"),
        "fu": _("fu"),
        "count_fans": _("Count the fans (appendix 1)"),
        # 002 §2.7.4 (4): what a waiting hand at an exhausted wall is valued without.
        "waiting_fans_note": _(
            "The most valuable hand waited for, without win on replacement, discard after "
            "kong, robbing the kong and sea bottom (§2.7.4 (4))."
        ),
        "fans_names": {
            "kong": _("kong, each"),
            "four": _("four of a kind, each"),
            "pungs": _("all pungs"),
            "golden": _("golden wait"),
            "pure": _("pure suit"),
            "pairs": _("seven pairs"),
            "replacement": _("win on replacement"),
            "after_kong": _("discard after kong"),
            "robbing": _("robbing the kong"),
            "sea": _("sea bottom"),
        },
        "fans": _("Fans"),
        "n_fans": _("fans: %(n)s"),
        "add_events": _(
            "Add what happened in the hand, in order; then, if the wall ran out, "
            "each other player's state."
        ),
        "remove": _("Remove"),
        "events": {
            "hu": _("Hu"),
            "kong": _("Kong"),
            "false_hu": _("False hu"),
            "dead": _("Dead hand"),
        },
        "kong_kind": _("Kind of kong"),
        "kongs": {
            "open": _("Open kong"),
            "concealed": _("Concealed kong"),
            "added": _("Added kong"),
            "added_hand": _("Added kong from the hand"),
        },
        "by": _("By"),
        "self_draw": _("self-drawn"),
        "robbing_kong": _("robbing a kong"),
        "after_kong": _("discard after a kong"),
        "false_waiting": _("the false hand was waiting"),
        # 002 §2.8.4 (3): only when the false claim was on a kong's discard or robbed a kong
        "false_from": _("On a discard after a kong or robbing a kong: whose"),
        "pig_win": _("pig (a tile of the forbidden suit)"),
        "add_event": _("Add to the hand"),
        "wall_ran_out": _("The wall ran out"),
        "ends": {
            "waiting": _("waiting"),
            "not_waiting": _("not waiting"),
            "pig": _("pig"),
            "pig_passive": _("passive pig"),
        },
        "no_events": _("nothing happened"),
        "before_saving": _("This hand, before saving: change and score"),
        "table_word": pgettext("riichi sticks", "table"),
        "why": {
            "ron": _("ron"),
            "tsumo": _("tsumo"),
            "counters": _("counters"),
            "riichi": _("riichi stick"),
            "sticks": _("sticks on the table"),
            "noten": _("noten payment"),
            "chombo": _("chombo"),
            "nagashi": _("nagashi"),
            "pao": _("pao (responsibility)"),
            "kan_from": _("win on the replacement tile of their kan"),
            "kong": _("kong"),
            "refund": _("kong points back"),
            "hu": _("hu"),
            "self_draw": _("self-drawn hu"),
            "waiting": _("waiting hand"),
            "pig": _("pig"),
            "false_hu": _("false hu"),
        },
        "hand_n": _("Hand %(n)s"),
        "correcting": _("Correcting hand %(n)s"),
        "save": _("Save the hand"),
        "save_correction": _("Save the correction"),
        "reason": _("Reason"),
        "cancel": _("Cancel"),
        "clear": _("Clear"),
        "sending": _("Sending…"),
        "offline": _("No network: the sheet keeps recording on this device."),
        "offline_waiting": _("No network. Changes waiting on this device: %(n)s."),
        "waiting": _("Changes waiting to be sent: %(n)s."),
        "saved_all": _("Everything is at the desk."),
        # the players' confirmations are what still waits (issue 37): the line says so
        "saved_unconfirmed": _(
            "Everything is at the desk. Hands waiting for the players' confirmation: %(n)s."
        ),
        "desk_error": _(
            "The desk answered with an error: trying again. Changes waiting on this device: %(n)s."
        ),
        "refused_status": _("The desk refused this change (error %(n)s)."),
        "dealer": _("dealer"),
        "round": _("%(wind)s %(n)s"),
        "counters": _("counters: %(n)s"),
        "sticks": _("riichi sticks on the table: %(n)s"),
        "game_over": _("The game is over."),
        "last_hand": _("Last hand of the session."),
        "session_over": _("The session's time is over."),
        "conflict": _(
            "Hand %(n)s was recorded by another device meanwhile, and differently. Which is it?"
        ),
        "theirs": _("The table has"),
        "mine": _("This device has"),
        "keep_theirs": _("Keep the table's"),
        "mine_next": _("Mine is the next hand"),
        "mine_replaces": _("Mine is right: replace it"),
        "conflict_reason": _("Two devices recorded this hand; the players kept this one."),
        "discard": _("Discard this change"),
        "hand": _("Hand"),
        "confirmed": _("Confirmed by"),
        "not_sent": _("not sent yet"),
        "pending": _("waits for confirmation"),
        "correct": _("Correct"),
        "undo": _("Undo"),
        "undo_ask": _("Undo hand %(n)s?"),
        "undone_at_table": _("Undone at the table."),
        "confirm_as": _("Confirm hand %(n)s as %(wind)s"),
        "no_hands": _("No hand recorded yet."),
        "result_draft": _("The table's result is at the desk, waiting for its confirmation."),
        "result_confirmed": _("The desk has confirmed the table's result."),
        "send": _("Send the result to the desk"),
        "send_ask": _("Send the hands' final scores to the desk as the table's result?"),
        "corrections": _("Corrections (%(n)s)"),
        "undone": _("undone"),
        "corrected": _("corrected"),
        "this_device": _("This device is"),
        "shared": _("shared by the table"),
        "draw_title": _("Who drew which wind"),
        "draw_help": _(
            "The winds are drawn at the table: record who drew each wind before the first hand."
        ),
        "who_drew": _("Who drew %(wind)s"),
        "record_winds": _("Record the winds"),
    }
