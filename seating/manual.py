"""Changing a session's seating by hand: swap two players, or move one to an empty seat.

Both show their warnings before they are made (repeat meeting, keep-apart clash, wind
imbalance) and refuse to touch a session with results unless the director says so, with a
reason that stays in the seating history.
"""

from itertools import combinations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from seating.algorithms.quality import meetings
from seating.algorithms.winds import wind_counts
from seating.models import WINDS, Seat, SeatingChange, Table, Wind
from seating.selectors import keep_apart_values, session_rounds
from seating.services import has_results, record
from tournament.changes import touch
from tournament.services import refuse_if_finished


def _names(session):
    return dict(session.tournament.players.values_list("key", "name"))


def _swapped(tables, a, b):
    out = []
    for table in tables:
        out.append([b if p == a else a if p == b else p for p in table])
    return out


def _moved(tables, key, target_index, wind):
    """Tables with `key` taken out of its seat and put at table `target_index`, seat `wind`;
    seats are lists of length four with None for an empty seat."""
    out = [[p if p != key else None for p in table] for table in tables]
    out[target_index][WINDS.index(wind)] = key
    return out


def _padded(session):
    """This session's tables as four seats each (None where empty), and their numbers."""
    numbers, tables = [], []
    for table in session.tables.prefetch_related("seats__player"):
        seats = [None] * 4
        for seat in table.seats.all():
            seats[WINDS.index(seat.wind)] = seat.player.key
        numbers.append(table.number)
        tables.append(seats)
    return numbers, tables


def warnings(session, proposed, moved: set) -> list[str]:
    """What is wrong with the proposed tables (four seats each, None for empty) for the moved
    players: opponents met in other sessions, keep-apart mates, winds out of balance."""
    by_number = session_rounds(session.tournament)
    others = [t for n, t in by_number.items() if n != session.number]
    met = {}  # pair → the other sessions where it sits together
    for number, tables in by_number.items():
        if number != session.number:
            for pair in meetings([tables]):
                met.setdefault(pair, []).append(number)
    names = _names(session)
    apart = keep_apart_values(session.tournament, session.tournament.keep_apart)
    found = []
    seated = [[p for p in table if p is not None] for table in proposed]
    for table in seated:
        if not moved & set(table):
            continue
        for a, b in combinations(sorted(table), 2):
            if a not in moved and b not in moved:
                continue
            numbers = met.get((a, b)) if len(table) >= 3 else None
            if numbers:
                found.append(
                    ngettext(
                        "%(a)s and %(b)s also sit together in session %(numbers)s.",
                        "%(a)s and %(b)s also sit together in sessions %(numbers)s.",
                        len(numbers),
                    )
                    % {
                        "a": names.get(a, a),
                        "b": names.get(b, b),
                        "numbers": ", ".join(map(str, numbers)),
                    }
                )
            if apart.get(a) and apart.get(a) == apart.get(b):
                found.append(
                    _("%(a)s and %(b)s share a %(field)s (%(value)s).")
                    % {
                        "a": names.get(a, a),
                        "b": names.get(b, b),
                        "field": session.tournament.get_keep_apart_display(),
                        "value": apart[a],
                    }
                )
    # winds: every other session, plus this one as proposed (games only)
    counts = wind_counts(others)
    for table in proposed:
        if sum(p is not None for p in table) >= 3:
            for w, key in enumerate(table):
                if key is not None:
                    counts.setdefault(key, [0, 0, 0, 0])[w] += 1
    for key in sorted(moved):
        c = counts.get(key)
        if c and max(c) - min(c) > 1:
            found.append(
                _("%(name)s would sit East %(e)d, South %(s)d, West %(w)d, North %(n)d times.")
                % {"name": names.get(key, key), "e": c[0], "s": c[1], "w": c[2], "n": c[3]}
            )
    return found


def swap_warnings(session, a: str, b: str) -> list[str]:
    _numbers, tables = _padded(session)
    return warnings(session, _swapped(tables, a, b), {a, b})


def move_warnings(session, key: str, table_number: int, wind: str) -> list[str]:
    numbers, tables = _padded(session)
    if table_number not in numbers:
        return []
    return warnings(session, _moved(tables, key, numbers.index(table_number), wind), {key})


def _check_played(session, override: bool, reason: str):
    refuse_if_finished(session.tournament_id)
    played = has_results(session)
    if played and not override:
        raise ActionRefused(
            _(
                "This session has results: changing its seating needs the director's "
                "explicit confirmation and a reason."
            ),
            field="override",
        )
    if played and not reason.strip():
        raise ActionRefused(
            _("Reason: say why the seating of a played session changes."), field="reason"
        )
    return played


def _seat(session, key) -> Seat:
    seat = (
        Seat.objects.select_for_update()
        .select_related("table", "player")
        .filter(session=session, player__key=key)
        .first()
    )
    if seat is None:
        raise ActionRefused(_("%(key)s is not seated in this session.") % {"key": key})
    return seat


@transaction.atomic
def swap_players(session, a: str, b: str, user=None, reason="", override=False):
    """Two players change seats (table and wind); a swap at one table changes winds only."""
    if a == b:
        raise ActionRefused(_("Choose two different players."), field="b")
    played = _check_played(session, override, reason)
    first, second = _seat(session, a), _seat(session, b)
    first_place = (first.table, first.wind)
    second_place = (second.table, second.wind)
    # a free seat label for the moment between the two moves: (table, wind) is unique
    first.wind = "X"
    first.save(update_fields=["wind"])
    second.table, second.wind = first_place
    second.save(update_fields=["table", "wind"])
    first.table, first.wind = second_place
    first.save(update_fields=["table", "wind"])
    record(
        session,
        SeatingChange.Kind.SWAP,
        _("%(a)s (table %(ta)d %(wa)s) ⇄ %(b)s (table %(tb)d %(wb)s)")
        % {
            "a": first.player.name,
            "ta": first_place[0].number,
            "wa": Wind(first_place[1]).label,
            "b": second.player.name,
            "tb": second_place[0].number,
            "wb": Wind(second_place[1]).label,
        },
        user,
        reason,
        played,
    )
    touch(session.tournament_id)


@transaction.atomic
def move_player(
    session, key: str, table_number: int, wind: str, user=None, reason="", override=False
):
    """A player moves to an empty seat of another (or the same) table of the session."""
    if wind not in WINDS:
        raise ActionRefused(_("Wind: choose East, South, West or North."), field="wind")
    played = _check_played(session, override, reason)
    seat = _seat(session, key)
    table = Table.objects.filter(session=session, number=table_number).first()
    if table is None:
        raise ActionRefused(
            _("Table: there is no table %(n)d.") % {"n": table_number}, field="table"
        )
    if table.seats.filter(wind=wind).exists():
        raise ActionRefused(
            _("Wind: that seat is taken; swap the two players instead."), field="wind"
        )
    before = (seat.table.number, Wind(seat.wind).label)
    seat.table, seat.wind = table, wind
    seat.save(update_fields=["table", "wind"])
    record(
        session,
        SeatingChange.Kind.MOVE,
        _("%(name)s: table %(t1)d %(w1)s → table %(t2)d %(w2)s")
        % {
            "name": seat.player.name,
            "t1": before[0],
            "w1": before[1],
            "t2": table.number,
            "w2": Wind(wind).label,
        },
        user,
        reason,
        played,
    )
    touch(session.tournament_id)
