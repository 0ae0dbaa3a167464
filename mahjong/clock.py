"""Session clock arithmetic from recorded events (stdlib only).

The database keeps what the desk did — start, pause, resume, minutes added or removed (for all
tables or one), end — each with its moment; the remaining time at any instant is computed from
them, so a reload, a second screen or a restarted server all show the same second.
docs/rules.md §1 (000 §5.8: 90 minutes, a signal 15 minutes before the end) and §3 (002 §2.4.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

START = "start"
PAUSE = "pause"
RESUME = "resume"
ADJUST = "adjust"  # seconds added (negative: removed), for all tables or one table
END = "end"
RESET = "reset"  # back to waiting: a false start; what came before no longer counts
REOPEN = "reopen"  # the end taken back at once (a mistaken tap): as if it had not happened
KINDS = (START, PAUSE, RESUME, ADJUST, END, RESET, REOPEN)

WAITING = "waiting"
RUNNING = "running"
PAUSED = "paused"
WARNING = "warning"  # running, and the warning has been given
TIME_UP = "time_up"
ENDED = "ended"


class ClockError(ValueError):
    """An event that makes no sense in the clock's state (pause while paused, …).

    `code` names the problem for the desk's translated message: unknown, ended, started,
    not_running, not_paused, not_started.
    """

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


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


def since_reset(events: list[Event]) -> list[Event]:
    """The events after the last reset: only they count."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == RESET:
            return events[i + 1 :]
    return list(events)


def check(events: list[Event]) -> None:
    """Raise ClockError at the first event that cannot follow the ones before it."""
    started = paused = ended = False
    for e in events:
        if e.kind not in KINDS:
            raise ClockError("unknown")
        if e.kind == RESET:
            if not started:
                raise ClockError("not_started")
            started = paused = ended = False
            continue
        if e.kind == REOPEN:
            if not ended:
                raise ClockError("not_ended")
            ended = False
            continue
        if ended:
            raise ClockError("ended")
        if e.kind == START:
            if started:
                raise ClockError("started")
            started = True
        elif e.kind == PAUSE:
            if not started or paused:
                raise ClockError("not_running")
            paused = True
        elif e.kind == RESUME:
            if not paused:
                raise ClockError("not_paused")
            paused = False
        elif e.kind == END:
            if not started:
                raise ClockError("not_started")
            ended = True


def state_at(
    planned_seconds: int,
    warning_seconds: int,
    events: list[Event],
    now: datetime,
    table: int | None = None,
) -> ClockState:
    """The clock at `now` for the whole session (or `table`, with its extra time).

    Events must be in time order; those after `now` are ignored, and so is everything before
    the last reset. Adjustments change the length whether the clock runs or not; a pause stops
    the elapsed time.
    """
    check(events)
    events = since_reset([e for e in events if e.at <= now])
    elapsed = 0.0
    length = float(planned_seconds)
    running_since = None
    started_at = None
    paused = ended = False
    before_end = (None, 0.0)  # running since, and the time END added: what REOPEN puts back
    for e in events:
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
            added = (e.at - running_since).total_seconds() if running_since is not None else 0.0
            before_end = (running_since, added)
            elapsed += added
            running_since, ended = None, True
        elif e.kind == REOPEN:
            running_since, ended = before_end[0], False
            elapsed -= before_end[1]
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


def extra_time(events: list[Event]) -> dict[int, int]:
    """Table number -> seconds given to that table alone (since the last reset), non-zero only."""
    extra: dict[int, int] = {}
    for e in since_reset(events):
        if e.kind == ADJUST and e.table is not None:
            extra[e.table] = extra.get(e.table, 0) + e.seconds
    return {t: s for t, s in sorted(extra.items()) if s}


def mmss(seconds: float) -> str:
    """Remaining time as the clock shows it: 1:05:00, 14:59, 0:00, −2:10 past time up.

    Rounded up while time remains, so 0:00 appears exactly at time up (as on the projector).
    """
    total = int(abs(seconds) + (0 if seconds < 0 else 0.999))
    sign = "\u2212" if seconds < 0 and total else ""
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"
