"""Session clock arithmetic from recorded events (stdlib only).

The database keeps what the desk did — start, pause, resume, minutes added or removed (for all
tables or one), end — each with its moment; the remaining time at any instant is computed from
them, so a reload, a second screen or a restarted server all show the same second.
RULES.md §1 (000 §5.8: 90 minutes, a signal 15 minutes before the end) and §3 (002 §2.4.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

START = "start"
PAUSE = "pause"
RESUME = "resume"
ADJUST = "adjust"  # seconds added (negative: removed), for all tables or one table
END = "end"
KINDS = (START, PAUSE, RESUME, ADJUST, END)

WAITING = "waiting"
RUNNING = "running"
PAUSED = "paused"
WARNING = "warning"  # running, and the warning has been given
TIME_UP = "time_up"
ENDED = "ended"


class ClockError(ValueError):
    """An event that makes no sense in the clock's state (pause while paused, …)."""


@dataclass(frozen=True)
class Event:
    kind: str
    at: datetime
    seconds: int = 0  # ADJUST only
    table: int | None = None  # ADJUST only: extra time for one table


@dataclass(frozen=True)
class ClockState:
    state: str
    remaining: float  # seconds; negative past time up
    elapsed: float  # seconds the clock has run
    length: float  # planned length plus adjustments, for this table if one was asked
    warning_at: float  # remaining seconds at which the warning is given
    started_at: datetime | None
    paused: bool


def check(events: list[Event]) -> None:
    """Raise ClockError at the first event that cannot follow the ones before it."""
    started = paused = ended = False
    for e in events:
        if e.kind not in KINDS:
            raise ClockError(f"unknown clock event {e.kind!r}")
        if ended:
            raise ClockError("the session has ended")
        if e.kind == START:
            if started:
                raise ClockError("the clock has already started")
            started = True
        elif e.kind == PAUSE:
            if not started or paused:
                raise ClockError("the clock is not running")
            paused = True
        elif e.kind == RESUME:
            if not paused:
                raise ClockError("the clock is not paused")
            paused = False
        elif e.kind == END:
            if not started:
                raise ClockError("the clock has not started")
            ended = True


def state_at(
    planned_seconds: int,
    warning_seconds: int,
    events: list[Event],
    now: datetime,
    table: int | None = None,
) -> ClockState:
    """The clock at `now` for the whole session (or `table`, with its extra time).

    Events must be in time order; those after `now` are ignored. Adjustments change the
    length whether the clock runs or not; a pause stops the elapsed time.
    """
    check(events)
    elapsed = 0.0
    length = float(planned_seconds)
    running_since = None
    started_at = None
    paused = ended = False
    for e in events:
        if e.at > now:
            break
        if e.kind == START:
            started_at = running_since = e.at
        elif e.kind == PAUSE:
            elapsed += (e.at - running_since).total_seconds()
            running_since, paused = None, True
        elif e.kind == RESUME:
            running_since, paused = e.at, False
        elif e.kind == ADJUST:
            if e.table is None or e.table == table:
                length += e.seconds
        elif e.kind == END:
            if running_since is not None:
                elapsed += (e.at - running_since).total_seconds()
            running_since, ended = None, True
    if running_since is not None:
        elapsed += (now - running_since).total_seconds()
    remaining = length - elapsed
    if ended:
        state = ENDED
    elif started_at is None:
        state = WAITING
    elif remaining <= 0:
        state = TIME_UP
    elif paused:
        state = PAUSED
    elif remaining <= warning_seconds:
        state = WARNING
    else:
        state = RUNNING
    return ClockState(state, remaining, elapsed, length, float(warning_seconds), started_at, paused)
