"""A recorded hand in words, as the paper and the workbook print it: "Ron from W: S 3 han 40 fu",
"W concealed kong; Hu from E: S 2 fans; Wall exhausted: E waiting (1 fan), W active pig".

One place for these words, so the filled protocol, the workbook and any page that lists hands
say the same thing. The hand is the tournament file's hand object (docs/formats.md,
"Hands"), checked already (mahjong.hands); seats are named by their one-letter wind, itself
translatable, since the printouts head each seat's column with its wind.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

SEP = "; "


def seat_letter(wind: str) -> str:
    """The seat's wind in one letter, as a hand's words name it."""
    letters = {
        "E": pgettext("wind, one letter", "E"),
        "S": pgettext("wind, one letter", "S"),
        "W": pgettext("wind, one letter", "W"),
        "N": pgettext("wind, one letter", "N"),
    }
    return letters.get(wind, str(wind))


def seats_text(winds) -> str:
    """Seats as a short list: "E, N"; the empty list is "–"."""
    return ", ".join(seat_letter(w) for w in winds) or "–"


def hand_text(hand: dict) -> str:
    """What happened in the hand, in words; riichi when it has a `result`, else Sichuan.
    Riichi declarations are left to `seats_text(hand["riichi"])`, a column of their own."""
    if "result" in hand:
        return _riichi(hand)
    return _sichuan(hand)


# --- riichi ----------------------------------------------------------------------------------


def _riichi_win(win: dict) -> str:
    seat = seat_letter(win.get("seat"))
    yakuman = win.get("yakuman")
    if yakuman:
        value = _("double yakuman") if yakuman == 2 else _("yakuman")
    elif win.get("fu") is not None:
        value = _("%(han)s han %(fu)s fu") % {"han": win.get("han"), "fu": win["fu"]}
    else:
        value = _("%(han)s han") % {"han": win.get("han")}
    if win.get("pao"):
        # the seat responsible for the yakuman (000 §3.3.6, 001 §8)
        value = _("%(value)s, pao: %(seat)s") % {"value": value, "seat": seat_letter(win["pao"])}
    return f"{seat} {value}"


def _riichi(hand: dict) -> str:
    result = hand["result"]
    wins = ", ".join(_riichi_win(w) for w in hand.get("wins", []))
    if result == "ron":
        return _("Ron from %(seat)s: %(wins)s") % {
            "seat": seat_letter(hand.get("from")),
            "wins": wins,
        }
    if result == "tsumo":
        text = _("Tsumo: %(wins)s") % {"wins": wins}
        if hand.get("kan_from"):
            # the replacement tile of an open kan: its tile's giver pays (001 §2.18)
            text += SEP + _("paid by %(seat)s, who gave the kan tile") % {
                "seat": seat_letter(hand["kan_from"])
            }
        return text
    if result == "draw":
        if hand.get("tenpai"):
            return _("Exhaustive draw, tenpai: %(seats)s") % {"seats": seats_text(hand["tenpai"])}
        return _("Exhaustive draw, all noten")
    if result == "abortive":
        return _("Abortive draw")
    if result == "chombo":
        return _("Chombo: %(seat)s") % {"seat": seat_letter(hand.get("seat"))}
    if result == "nagashi":
        text = _("Nagashi mangan: %(seat)s") % {"seat": seat_letter(hand.get("seat"))}
        if hand.get("tenpai"):
            text += SEP + _("tenpai: %(seats)s") % {"seats": seats_text(hand["tenpai"])}
        return text
    return str(result)


# --- Sichuan ---------------------------------------------------------------------------------


def _fans(fans) -> str:
    return ngettext("%(fans)s fan", "%(fans)s fans", fans or 0) % {"fans": fans}


def _hu_wins(event: dict) -> str:
    return ", ".join(
        f"{seat_letter(w.get('seat'))} {_fans(w.get('fans'))}"
        + (f" ({_('pig')})" if w.get("pig") else "")  # 002 §2.5.8 (3)
        for w in event["hu"]
    )


def _kong(event: dict) -> str:
    seat = seat_letter(event.get("seat"))
    kind = event["kong"]
    if kind == "open":
        return _("%(seat)s open kong from %(discarder)s") % {
            "seat": seat,
            "discarder": seat_letter(event.get("from")),
        }
    if kind == "concealed":
        return _("%(seat)s concealed kong") % {"seat": seat}
    if event.get("from_hand"):
        return _("%(seat)s added kong, tile from the hand") % {"seat": seat}
    return _("%(seat)s added kong") % {"seat": seat}


def _hu(event: dict) -> str:
    wins = _hu_wins(event)
    discarder = seat_letter(event.get("from"))
    if event.get("self_draw"):
        return _("Self-drawn hu: %(wins)s") % {"wins": wins}
    if event.get("robbing_kong"):
        return _("Hu robbing %(seat)s's kong: %(wins)s") % {"seat": discarder, "wins": wins}
    if event.get("after_kong"):
        return _("Hu on %(seat)s's discard after a kong: %(wins)s") % {
            "seat": discarder,
            "wins": wins,
        }
    return _("Hu from %(seat)s: %(wins)s") % {"seat": discarder, "wins": wins}


def _event(event: dict) -> str:
    if "kong" in event:
        return _kong(event)
    if "hu" in event:
        return _hu(event)
    if "dead" in event:
        return _("Dead hand: %(seat)s") % {"seat": seat_letter(event.get("dead"))}
    seat = seat_letter(event.get("false_hu"))
    if event.get("waiting"):
        text = _("False hu: %(seat)s (waiting)") % {"seat": seat}
    else:
        text = _("False hu: %(seat)s (not waiting)") % {"seat": seat}
    discarder = {"seat": seat_letter(event.get("from"))}
    if event.get("robbing_kong"):  # 002 §2.8.4 (3)
        return text + ", " + _("robbing %(seat)s's kong") % discarder
    if event.get("after_kong"):
        return text + ", " + _("on %(seat)s's discard after a kong") % discarder
    if "from" in event:
        return text + ", " + _("on %(seat)s's discard") % discarder
    return text


def _state(wind: str, state) -> str:
    seat = seat_letter(wind)
    if isinstance(state, dict):
        fans = _fans(state.get("waiting"))
        return _("%(seat)s waiting (%(fans)s)") % {"seat": seat, "fans": fans}
    words = {
        "not_waiting": _("%(seat)s not waiting"),
        "pig": _("%(seat)s active pig"),
        "pig_passive": _("%(seat)s passive pig"),
    }
    return words[state] % {"seat": seat}


def _sichuan(hand: dict) -> str:
    parts = [_event(e) for e in hand.get("events", [])]
    exhausted = hand.get("exhausted")
    if exhausted is not None:
        order = [w for w in "ESWN" if w in exhausted]
        states = ", ".join(_state(w, exhausted[w]) for w in order)
        if states:
            parts.append(_("Wall exhausted: %(states)s") % {"states": states})
        else:
            parts.append(_("Wall exhausted"))
    return SEP.join(parts)
