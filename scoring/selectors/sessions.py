"""Which session it is now, which are on, over or started, and which the public may see: the
one answer every page, the backups and the feed give."""

from typing import NamedTuple

from core.kept import per_revision
from mahjong.table import is_awarded
from scoring.models import Penalty, Result
from scoring.selectors.snapshot import seating, snapshot
from tournament.models import ClockEvent, Session


def session_on(tournament, number) -> bool:
    """A session is on while some of its played tables have no confirmed result."""
    if number is None:
        return False
    snap = snapshot(tournament)
    rules = tournament.rule_set()
    return any(
        snap["table_ids"][(number, t)] not in snap["confirmed"]
        and not is_awarded(rules, len(seats))
        for t, seats in snap["seating"].get(number, {}).items()
    )


class Now(NamedTuple):
    """Which session it is now: its number (None before any seating) and why: "playing" (being
    played), "next" (the next to be played) or "last" (the last one played; all are over)."""

    number: int | None
    state: str


def session_now(tournament) -> Now:
    """The one answer to "which session is it now" that every page gives (phones, projector,
    the top bar's clock, the desk, the backups): the session being played, else the next one
    to be played, else the last one played.

    Being played: not over, and started (its clock started, or a result entered). The next: the
    first seated session that is not over. A plan that seats sessions 1–4 at once still sends
    everyone to session 1 until it is played.
    """
    return per_revision("now", tournament, lambda: _session_now(tournament))


def _session_now(tournament) -> Now:
    seated = sorted(seating(tournament))
    if not seated:
        now = Now(None, "")
    else:
        ended = set(
            Session.objects.filter(tournament=tournament, ended_at__isnull=False).values_list(
                "number", flat=True
            )
        )
        open_ = [n for n in seated if n not in ended and session_on(tournament, n)]
        started = started_sessions(tournament)
        playing = [n for n in open_ if n in started]
        if playing:
            now = Now(playing[0], "playing")
        elif open_:
            now = Now(open_[0], "next")
        else:
            now = Now(seated[-1], "last")
    return now


def started_sessions(tournament) -> set[int]:
    """Numbers of the sessions whose clock was started, or with a result or a penalty."""
    clocks = ClockEvent.objects.filter(session__tournament=tournament).values_list(
        "session__number", flat=True
    )
    # Every version of every table's result: the database says which sessions, not each row.
    results = (
        Result.objects.filter(table__session__tournament=tournament)
        .values_list("table__session__number", flat=True)
        .order_by()  # Result's own ordering would go into the DISTINCT
        .distinct()
    )
    penalties = Penalty.objects.filter(session__tournament=tournament).values_list(
        "session__number", flat=True
    )
    return set(clocks) | set(results) | set(penalties)


def last_started(tournament) -> int | None:
    """The newest session whose play has begun: whose state a backup holds (a plan that seats
    sessions 1–4 at once has begun none of them)."""
    return max(started_sessions(tournament), default=None)


def session_over(tournament, number) -> bool:
    """Play of a seated session is over: ended by the desk, or every played table confirmed."""
    if number is None:
        return False
    if Session.objects.filter(
        tournament=tournament, number=number, ended_at__isnull=False
    ).exists():
        return True
    return number in seating(tournament) and not session_on(tournament, number)


def released_sessions(tournament) -> set[int] | None:
    """The one answer to "whose results may the public see": None for every session (the
    usual), or, when the tournament releases results by session, the numbers of the seated
    sessions whose every played table is confirmed (an awarded table needs no result). A
    session with one table still open shows nothing of itself, penalties included, so nobody
    at a late table plays to standings they can already see. Desk and referee pages never ask:
    they show everything."""
    if not tournament.release_by_session:
        return None
    return {number for number in seating(tournament) if not session_on(tournament, number)}
