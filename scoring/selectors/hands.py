"""The tables' hands: a table's current hands and what they give, each session's score sheets
as the hall sees them (the board, the projector, the table page), the clock's last hand, the
corrections the referee sees and the projector's top tables."""

from collections import Counter, defaultdict
from operator import attrgetter
from typing import NamedTuple

from django.utils.translation import gettext as _

from core.errors import rule_message
from mahjong.hands import HandError, Outcome, play
from scoring.models import Hand, HandConfirmation
from scoring.selectors.ranking import standings_order
from seating.models import WINDS, Seat, Table


def current_hands(tournament) -> dict[int, list[dict]]:
    """Table id → the hand objects of its current hands (a superseded version or an undone
    hand left out), in the order they were played: what the tournament file carries. One
    query for the whole tournament."""
    out = defaultdict(list)
    rows = (
        Hand.objects.filter(table__session__tournament=tournament, superseded_at__isnull=True)
        .order_by("table_id", "number")
        .values_list("table_id", "data")
    )
    for table_id, data in rows:
        out[table_id].append(data)
    return dict(out)


def table_hands(table) -> list[Hand]:
    """One table's current hands, in the order they were played."""
    return list(table.hands.filter(superseded_at__isnull=True).order_by("number"))


def hands_outcome(table, hands: list | None = None) -> Outcome:
    """What the table's hands give (scores per wind, chombo per wind for riichi, the game hand
    by hand) under its tournament's rule set, with the table's winds: its current hands, or
    the hand objects `hands` a service is about to keep. mahjong.hands.HandError names the
    first hand that does not hold."""
    rules = table.session.tournament.rule_set()
    winds = sorted(table.seats.values_list("wind", flat=True), key=WINDS.index)
    if hands is None:
        hands = [hand.data for hand in table_hands(table)]
    return play(rules, hands, winds)


def hands_entries(table: Table, hands: list[Hand]) -> dict:
    """wind → (score, chombo) of what the hands give: the result the table sends the desk."""
    outcome = hands_outcome(table, [h.data for h in hands])
    chombo = outcome.chombo or {}
    return {wind: (score, chombo.get(wind, 0)) for wind, score in outcome.scores.items()}


class Sheet(NamedTuple):
    """A table's score sheet as the hall sees it (the board, the projector, the table page)."""

    table: int  # the table's number
    hands: int  # current hands recorded
    scores: dict  # wind → score after the hands; {} before the first hand
    over: bool  # riichi: the game is over (end of South; Furiten also below zero)
    last_hand: int | None  # the number of the table's last hand by the clock, once known
    pending: int  # hands some player has not confirmed yet
    problem: str  # the hands no longer hold (a rule change refused that), else ""


def last_hand(rules, status: dict, recorded: list) -> int | None:
    """The number of a table's last hand of the session by the clock's end rule (rule set's
    `end_of_session`): EMA 000 §5.8, after the warning the hand in progress and one more; SBR
    002 §2.4.4, at the end signal the hand in progress. `status` is the session's clock
    (tournament.timekeeping.status), `recorded` the times the table's hands were recorded.
    None while the clock has not got there."""
    remaining = status.get("remaining")
    if not status.get("session") or remaining is None:
        return None
    one_more = rules.end_of_session == "one_more_hand"
    threshold = status["warning_at"] if one_more else 0
    if remaining > threshold:
        return None
    moment = status["server_time"] / 1000 - (threshold - remaining)
    before = sum(1 for at in recorded if at.timestamp() <= moment)
    return before + (2 if one_more else 1)


def session_sheets(session, status: dict | None = None) -> dict[int, Sheet]:
    """Table number → its Sheet, for every table of the session that recorded hands: two
    queries for the session, whatever its size. `status`: the session's clock, for the last
    hand."""
    rules = session.tournament.rule_set()
    rows = (
        Hand.objects.filter(table__session=session, superseded_at__isnull=True)
        .order_by("table__number", "number")
        .values_list("pk", "table__number", "data", "recorded_at")
    )
    hands = defaultdict(list)
    for pk, table, data, at in rows:
        hands[table].append((pk, data, at))
    winds = defaultdict(list)
    for table, wind in Seat.objects.filter(session=session).values_list("table__number", "wind"):
        winds[table].append(wind)
    confirmed = Counter(
        HandConfirmation.objects.filter(
            hand__table__session=session, hand__superseded_at__isnull=True
        ).values_list("hand_id", flat=True)
    )
    out = {}
    for table, played in hands.items():
        seats = sorted(winds[table], key=WINDS.index)
        pending = sum(1 for pk, _d, _a in played if confirmed[pk] < len(seats))
        at_end = last_hand(rules, status or {}, [at for _p, _d, at in played])
        try:
            outcome = play(rules, [data for _p, data, _a in played], seats)
        except HandError as e:
            out[table] = Sheet(table, len(played), {}, False, at_end, pending, rule_message(e))
            continue
        over = bool(getattr(outcome.game, "over", False))
        out[table] = Sheet(table, len(played), outcome.scores, over, at_end, pending, "")
    return out


def hand_changes(table) -> list[dict]:
    """Every hand of the table that was corrected or undone, with who recorded it and who
    changed it, when and why, oldest first: what the referee sees of a table's sheet."""
    hands = list(table.hands.select_related("recorded_by", "superseded_by").order_by("number"))
    later = {(h.number, h.version) for h in hands}
    out = []
    for hand in sorted(hands, key=attrgetter("number", "version")):
        if hand.superseded_at is None:
            continue
        out.append(
            {
                "number": hand.number,
                "version": hand.version,
                "data": hand.data,
                "change": _("corrected")
                if (hand.number, hand.version + 1) in later
                else _("undone"),
                "recorded": _who(hand.recorded_by, hand.via, hand.device),
                "recorded_at": hand.recorded_at,
                "changed_at": hand.superseded_at,
                "changed": _who(hand.superseded_by, hand.via, ""),
                "reason": hand.reason,
            }
        )
    return out


def _who(user, via, device) -> str:
    if user is not None:
        return user.get_username()
    if device:
        return _("the table page (%(wind)s's device)") % {"wind": device}
    return _("the table page")


def leading_tables(session, status: dict, count: int) -> list[dict]:
    """The `count` tables of the session where the tournament's leaders play (by the best
    standings place among each table's players; by table number before any result), with the
    scores their hands give now: what the projector shows of the hall's top tables."""
    order = standings_order(session.tournament) or []
    rank = {key: i for i, key in enumerate(order)}
    seats = defaultdict(list)
    for table, wind, key, name in Seat.objects.filter(session=session).values_list(
        "table__number", "wind", "player__key", "player__name"
    ):
        seats[table].append((wind, key, name))
    sheets = session_sheets(session, status)

    def lead(table):
        return (min(rank.get(key, len(rank)) for _w, key, _n in seats[table]), table)

    out = []
    for table in sorted(seats, key=lead)[:count]:
        sheet = sheets.get(table)
        out.append(
            {
                "table": table,
                "label": _("Table %(table)s") % {"table": table},
                "hands": sheet.hands if sheet else 0,
                "last": bool(sheet and sheet.last_hand and sheet.hands + 1 >= sheet.last_hand),
                "over": bool(sheet and sheet.over),
                "seats": [
                    {
                        "wind": wind,
                        "name": name,
                        "score": sheet.scores.get(wind) if sheet else None,
                    }
                    for wind, _key, name in sorted(seats[table], key=lambda s: WINDS.index(s[0]))
                ],
            }
        )
    return out
