"""What the table page knows of its table: one JSON document, read when the page is built and
each time the page asks again (sheet/views.py).

The document is kept per table revision (`kept_state`): built once, it answers every phone of
the table until a write changes what it shows, and a phone that holds it is answered 304 with
no body. A table's revision is two marks in the cache, the tournament's and the table's, each
made anew by `tournament.changes.tables_changed` (every touch() marks the tournament's, or only
the tables it names; touch_tables() the tables' alone), now and once the write commits. What
the clock does by itself (the warning, the time up, a table's extra time) is built again at
its moment, and at least every SECONDS_KEPT seconds; the ETag is a digest of the document
(but the clock's moving parts), so a state built again the same keeps its tag.
"""

import hashlib
import json
import threading
import time
import uuid
from collections import OrderedDict
from typing import NamedTuple

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.translation import gettext as _

from mahjong.hands import HandError
from scoring.models import Hand, HandConfirmation, Result
from scoring.selectors import last_hand
from scoring.services import may_send
from seating.models import WINDS, Table
from seating.selectors import winds_pending
from tournament import timekeeping as tk

# What the page reads of the clock; the last two change every moment the clock runs.
CLOCK = ("session", "state", "remaining", "warning_at", "server_time", "title")
MOVING = ("remaining", "server_time")


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


def _clock(status: dict | None) -> dict | None:
    """The part of the session's clock (tournament.timekeeping.status) the page reads."""
    if status is None:
        return None
    return {key: status.get(key) for key in CLOCK}


def table_state(table: Table, clock: bool = True) -> dict:
    """The table's seats, its current hands with who confirmed each, the earlier versions with
    why they were corrected, whether the sheet is closed, the session's clock and the table's
    last hand by it."""
    tournament = table.session.tournament
    # A change the page sends changes no clock: its answer leaves the clock out (the page keeps
    # the one it has), which spares the busiest request two queries.
    return _state(table, tk.status(tournament, table.session.number) if clock else None)


def _state(table: Table, status: dict | None) -> dict:
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
        "clock": _clock(status),
        "last_hand": None
        if status is None
        else last_hand(rules, status, [h.recorded_at for h in current]),
        "revision": tournament.revision,
    }


# --- the state kept per table revision -------------------------------------------------------

MARK = "sheet-mark:"
# A state built while the clock runs is built again after this many seconds even if no moment
# of the clock comes sooner: what the clock decides (the send rule, the last hand) is never
# older than this, whatever moment was missed.
SECONDS_KEPT = 30
KEPT = 1000  # tables' states kept at once in this process (a 2,000-player hall has 500 tables)


class Kept(NamedTuple):
    """A table's state as kept: `tag` (its ETag, quoted), `body` (its JSON but the clock, a
    whole object), `until` (time.time() from which it is built again: the clock's next moment)."""

    tag: str
    body: str
    until: float


_kept: OrderedDict = OrderedDict()  # (table id, marks) -> Kept, oldest first
# The table at a link's place (slug, session, table) -> (table id, tournament id), as the
# last state built found it: a refresh finds its kept state without asking the database. Ids
# are never used twice, and a table made anew (a new seating) or a tournament deleted changes
# the tournament's mark, so a place that names another table now finds nothing kept.
_places: OrderedDict = OrderedDict()
_lock = threading.Lock()


def tables_changed(sender, tournament_id, tables=None, **kwargs) -> None:
    """Receiver of tournament.changes.tables_changed (connected in sheet.apps): the tables'
    marks (or the tournament's, `tables` None) made anew now and once the write commits (a
    request that read the new mark before the commit and kept the old state under it is then
    passed by)."""
    if tables is None:
        keys = [f"{MARK}t{tournament_id}"]
    else:
        keys = [f"{MARK}{pk}" for pk in tables]

    def mark():
        cache.set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)

    mark()
    transaction.on_commit(mark)


def tournament_deleted(sender, instance, **kwargs) -> None:
    """Receiver of the tournament's post_delete (sheet.apps): its mark goes, so nothing kept
    of its tables is found by their places again (a new tournament may take the slug)."""
    cache.delete(f"{MARK}t{instance.pk}")


def _marks(table: Table) -> tuple | None:
    """The table's revision: its tournament's mark and its own, made if missing (after a
    restart, or forgotten by the cache); None when the cache keeps neither."""
    keys = (f"{MARK}t{table.session.tournament_id}", f"{MARK}{table.pk}")
    found = cache.get_many(keys)
    if len(found) < len(keys):
        for key in keys:
            if key not in found:
                cache.add(key, uuid.uuid4().hex, timeout=None)
        found = cache.get_many(keys)  # another request's, if it came first
        if len(found) < len(keys):
            return None
    return tuple(found[key] for key in keys)


def _until(status: dict, number: int, now: float) -> float:
    """When the state is built again: the clock's next moment that changes what it shows
    while it counts (the warning, the time up, this table's own time up), at the latest
    SECONDS_KEPT from now."""
    until = now + SECONDS_KEPT
    remaining = status.get("remaining")
    if status.get("counting") and remaining is not None:
        extra = sum(e["seconds"] for e in status.get("extra", ()) if e["table"] == number)
        for left in (remaining - (status.get("warning_at") or 0), remaining, remaining + extra):
            if left > 0:
                until = min(until, now + left)
    return until


def _build(table: Table) -> Kept:
    status = tk.status(table.session.tournament, table.session.number)
    state = _state(table, status)
    clock = state.pop("clock")
    body = json.dumps(state, cls=DjangoJSONEncoder)
    still = {} if clock is None else {k: v for k, v in clock.items() if k not in MOVING}
    digest = hashlib.blake2b(
        (body + json.dumps(still, cls=DjangoJSONEncoder, sort_keys=True)).encode(),
        digest_size=12,
    ).hexdigest()
    return Kept(f'"{digest}"', body, _until(status, table.number, time.time()))


def kept_state(table: Table) -> Kept:
    """The table's state kept for its revision, built if this process has none (or the clock
    has come to its next moment)."""
    marks = _marks(table)
    key = None if marks is None else (table.pk, *marks)
    if key is not None:
        found = _found(key)
        if found is not None:
            return found
    built = _build(table)
    if key is not None:
        place = (table.session.tournament.slug, table.session.number, table.number)
        with _lock:
            _kept[key] = built
            _kept.move_to_end(key)
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
            _places[place] = (table.pk, table.session.tournament_id)
            _places.move_to_end(place)
            while len(_places) > KEPT:
                _places.popitem(last=False)
    return built


def _found(key: tuple) -> Kept | None:
    with _lock:
        found = _kept.get(key)
        if found is None or time.time() >= found.until:
            return None
        _kept.move_to_end(key)
        return found


def kept_at(slug: str, session: int, number: int) -> Kept | None:
    """The state kept for the table at this place of its tournament (a link's), found without
    the database; None when this process keeps none for its revision (then `kept_state`). The
    link's key is the caller's to check."""
    ids = _places.get((slug, session, number))
    if ids is None:
        return None
    table, tournament = ids
    keys = (f"{MARK}t{tournament}", f"{MARK}{table}")
    found = cache.get_many(keys)
    if len(found) < len(keys):
        return None
    return _found((table, *(found[key] for key in keys)))


def with_clock(kept: Kept, table: Table) -> str:
    """The kept state as the page reads it: with the session's clock as it is now."""
    status = tk.status(table.session.tournament, table.session.number)
    clock = json.dumps(_clock(status), cls=DjangoJSONEncoder)
    return kept.body[:-1] + ', "clock": ' + clock + "}"


def without_clock(kept: Kept) -> str:
    """The kept state as the answer to a change gives it: no clock (the page keeps its own)."""
    return kept.body[:-1] + ', "clock": null}'
