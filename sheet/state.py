"""What the table page knows of its table: one JSON document, read when the page is built and
each time the page asks again (sheet/views.py)."""

from django.utils.translation import gettext as _

from mahjong.hands import HandError
from scoring.models import Hand, HandConfirmation, Result
from scoring.selectors import last_hand
from scoring.services import may_send
from seating.models import WINDS, Table
from seating.selectors import winds_pending
from tournament import timekeeping as tk


def _hand(hand: Hand, confirmed: list) -> dict:
    return {
        "number": hand.number,
        "version": hand.version,
        "data": hand.data,
        "confirmed": confirmed,
        "via": hand.via,
        "device": hand.device,
        "at": int(hand.recorded_at.timestamp() * 1000),
    }


def lock_message(table: Table, result: Result | None) -> str:
    """Why the table's hands can no longer change, or ""."""
    if table.session.tournament.finished:
        return _("The tournament is finished: the sheet is closed.")
    if result is not None and result.status == Result.Status.CONFIRMED:
        return _("The desk has confirmed the table's result: the sheet is closed.")
    return ""


def _sendable(table: Table, hands: list[Hand]) -> bool:
    try:
        return may_send(table, hands)
    except HandError:  # hands a rule change no longer lets hold: nothing to send
        return False


def table_state(table: Table, clock: bool = True) -> dict:
    """The table's seats, its current hands with who confirmed each, the earlier versions with
    why they were corrected, whether the sheet is closed, the session's clock and the table's
    last hand by it."""
    tournament = table.session.tournament
    rules = tournament.rule_set()
    hands = list(table.hands.order_by("number", "version"))
    confirmed = {}
    for hand_id, wind in HandConfirmation.objects.filter(hand__table=table).values_list(
        "hand_id", "wind"
    ):
        confirmed.setdefault(hand_id, []).append(wind)
    current = [h for h in hands if h.superseded_at is None]
    result = table.results.exclude(status=Result.Status.SUPERSEDED).order_by("-version").first()
    # A change the page sends changes no clock: its answer leaves the clock out (the page keeps
    # the one it has), which spares the busiest request two queries.
    status = tk.status(tournament, table.session.number) if clock else None
    return {
        "tournament": tournament.name,
        "session": table.session.number,
        "table": table.number,
        "game": rules.game,
        "end_rule": rules.end_of_session,
        "seats": [
            {"wind": wind, "name": name, "player": player}
            for wind, name, player in sorted(
                table.seats.values_list("wind", "player__name", "player_id"),
                key=lambda s: WINDS.index(s[0]),
            )
        ],
        # the first step at a table that draws its winds: who drew East, South, …
        "winds_pending": winds_pending(table),
        "hands": [_hand(h, sorted(confirmed.get(h.pk, []))) for h in current],
        "history": [
            {
                **_hand(h, []),
                "reason": h.reason,
                "undone": not any(c.number == h.number and c.version > h.version for c in hands),
            }
            for h in hands
            if h.superseded_at is not None
        ],
        "locked": lock_message(table, result),
        # the desk's send rule for these hands: the page shows "Send the result to the desk"
        # from it (offline, from the last state it had)
        "sendable": _sendable(table, current),
        "result": None if result is None else {"status": result.status, "version": result.version},
        "clock": None
        if status is None
        else {
            key: status.get(key)
            for key in ("session", "state", "remaining", "warning_at", "server_time", "title")
        },
        "last_hand": None
        if status is None
        else last_hand(rules, status, [h.recorded_at for h in current]),
        "revision": tournament.revision,
    }
