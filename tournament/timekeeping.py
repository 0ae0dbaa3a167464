"""The session clock in the database: one function per action, and the status the hall sees.
Play's start and end (starting the clock, "Play has ended" and taking it back) are
tournament.sessions', which calls the clock's end and reopening here.

Each action appends a ClockEvent (kind, moment, who) inside a transaction; nothing is ever
changed or deleted, so the clock's history is its record. The remaining time is computed by the
pure mahjong.clock from those events, so every screen, a reload and a restarted server agree.
"""

from dataclasses import replace
from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.errors import ActionRefused
from core.numbers import largest
from mahjong import clock
from tournament.changes import touch
from tournament.models import ClockEvent, Session

MAX_ADJUST_MINUTES = 180

REFUSALS = {
    "unknown": gettext_lazy("Unknown clock action."),
    "ended": gettext_lazy("This session has ended."),
    "started": gettext_lazy("The clock has already started."),
    "not_running": gettext_lazy("The clock is not running."),
    "not_paused": gettext_lazy("The clock is not paused."),
    "not_started": gettext_lazy("The clock has not started."),
    "not_ended": gettext_lazy("The clock has not ended."),
}

STATE_LABELS = {
    clock.WAITING: gettext_lazy("waiting to start"),
    clock.RUNNING: gettext_lazy("playing"),
    clock.PAUSED: gettext_lazy("paused"),
    clock.WARNING: gettext_lazy("warning given"),
    clock.TIME_UP: gettext_lazy("time up"),
    clock.ENDED: gettext_lazy("session ended"),
}


def rule_texts(rules) -> dict[str, str]:
    """What the players are told in each state, by the rule set (docs/rules.md §1 and §3)."""
    if rules.end_of_session == "one_more_hand":  # EMA 000 §5.8
        warning = _(
            "Finish the current hand and play one more. A hand has started when the dice are "
            "rolled."
        )
        time_up = _("No new hands; finish the hand in play.")
        waiting = _("You may build the walls; do not roll the dice before the start signal.")
    else:  # SBR 002 §2.4.4
        warning = _("The end is near: at the end signal the hand in progress is played out.")
        time_up = _("Time is up: play out the hand in progress and record it.")
        waiting = _("Take your seats; play starts at the signal.")
    return {
        clock.WAITING: waiting,
        clock.RUNNING: "",
        clock.PAUSED: _("The clock is stopped: wait for the referee's signal to go on."),
        clock.WARNING: warning,
        clock.TIME_UP: time_up,
        clock.ENDED: _("The session has ended. Hand in your score sheets."),
    }


def events_of(session: Session) -> list[clock.Event]:
    return [
        clock.Event(e.kind, e.at, e.seconds, e.table)
        for e in ClockEvent.objects.filter(session=session).order_by("at", "id")
    ]


def as_shown(state: clock.ClockState, ended_at) -> clock.ClockState:
    """Play declared over on the session page ends the clock as shown, started or not."""
    if ended_at is not None and state.state != clock.ENDED:
        return replace(state, state=clock.ENDED)
    return state


def state(session: Session, now=None, table=None) -> clock.ClockState:
    length, warning = session.clock_seconds()
    return clock.state_at(length, warning, events_of(session), now or timezone.now(), table)


def append_event(session: Session, kind: str, user, seconds: int = 0, table: int | None = None):
    """Check the new event against the clock's history and store it; refuse with a reason."""
    session = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
    now = timezone.now()
    event = clock.Event(kind, now, seconds, table)
    try:
        clock.check(events_of(session) + [event])
    except clock.ClockError as e:
        raise ActionRefused(str(REFUSALS.get(e.code, REFUSALS["unknown"]))) from e
    ClockEvent.objects.create(
        session=session, kind=kind, at=now, seconds=seconds, table=table, by=user
    )
    touch(session.tournament_id, seating=False)
    return session


@transaction.atomic
def pause_clock(session: Session, user) -> Session:
    return append_event(session, clock.PAUSE, user)


@transaction.atomic
def resume_clock(session: Session, user) -> Session:
    return append_event(session, clock.RESUME, user)


@transaction.atomic
def adjust_clock(session: Session, user, minutes, table: int | None = None) -> Session:
    """Add minutes (negative: remove) for every table, or extra time for one table."""
    try:
        minutes = float(minutes)
    except (TypeError, ValueError) as e:
        raise ActionRefused(_("Enter the minutes as a number."), "minutes") from e
    # Bounded before counting the seconds: 1e308 minutes are no seconds a float can hold.
    if not abs(minutes) <= MAX_ADJUST_MINUTES:
        raise ActionRefused(
            ngettext(
                "At most %(max)s minute at a time.",
                "At most %(max)s minutes at a time.",
                MAX_ADJUST_MINUTES,
            )
            % {"max": MAX_ADJUST_MINUTES},
            "minutes",
        )
    seconds = round(minutes * 60)
    if seconds == 0:
        raise ActionRefused(_("Enter the minutes to add or remove."), "minutes")
    if table is not None and not session.tables.filter(number=table).exists():
        raise ActionRefused(
            _("Session %(session)s has no table %(table)s.")
            % {"session": session.number, "table": table},
            "table",
        )
    return append_event(session, clock.ADJUST, user, seconds, table)


@transaction.atomic
def reset_clock(session: Session, user) -> Session:
    """Back to waiting after a false start; the events stay in the history."""
    if session.ended_at is not None:
        raise ActionRefused(_("This session has ended."))
    return append_event(session, clock.RESET, user)


def end_clock(session: Session, user) -> None:
    """Stop a started clock for good (called when the desk records that play has ended)."""
    s = clock.state_at(0, 0, events_of(session), timezone.now())
    if s.started_at is not None and s.state != clock.ENDED:
        append_event(session, clock.END, user)


def reopen_clock(session: Session, user) -> None:
    """Take back the end of play just recorded: a clock its END stopped goes on as if it had
    not stopped (called when the one who declared play over undoes it)."""
    last = ClockEvent.objects.filter(session=session).order_by("at", "id").last()
    if last is not None and last.kind == clock.END:
        append_event(session, clock.REOPEN, user)


@transaction.atomic
def set_clock_length(session: Session, user, minutes: int, warning_minutes: int) -> Session:
    """The planned length and warning of this session, in place of the rule set's."""
    session = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
    if minutes is None or minutes < 1:
        raise ActionRefused(_("The session must last at least one minute."), "minutes")
    longest = largest(Session._meta.get_field("length_seconds")) // 60
    if minutes > longest:
        raise ActionRefused(
            ngettext(
                "A session lasts at most %(max)d minute.",
                "A session lasts at most %(max)d minutes.",
                longest,
            )
            % {"max": longest},
            "minutes",
        )
    if warning_minutes is None or warning_minutes < 0:
        raise ActionRefused(_("The warning cannot be negative."), "warning_minutes")
    if warning_minutes >= minutes:
        raise ActionRefused(
            _("The warning must come before the end of the session."), "warning_minutes"
        )
    session.length_seconds = minutes * 60
    session.warning_seconds = warning_minutes * 60
    session._history_user = user  # django-simple-history: who changed it
    session.save(update_fields=["length_seconds", "warning_seconds"])
    touch(session.tournament_id, seating=False)
    return session


# --- what the hall sees ----------------------------------------------------------------------


def _cached_clock(tournament, number) -> dict | None:
    """The session, its plan and its events: a few queries, cached per tournament revision."""
    key = f"clock:{tournament.pk}:{tournament.revision}:{number}"
    data = cache.get(key)
    if data is not None:
        return data or None
    session = Session.objects.filter(tournament=tournament, number=number).first()
    if session is None:
        cache.set(key, {})
        return None
    session.tournament = tournament
    length, warning = session.clock_seconds()
    data = {
        "number": session.number,
        "ended_at": session.ended_at,
        "length": length,
        "warning": warning,
        "events": events_of(session),
    }
    cache.set(key, data)
    return data


def status(tournament, number, now=None, over=False) -> dict:
    """The clock of session `number` (None: no session) as the public pages and the projector
    read it (JSON-ready). `over`: the session's play is over (every table confirmed), so its
    clock shows ended even if nobody used it."""
    now = now or timezone.now()
    rules = tournament.rule_set()
    base = {
        "server_time": int(now.timestamp() * 1000),
        "tournament": tournament.name,
        "revision": tournament.revision,
        "labels": {k: str(v) for k, v in STATE_LABELS.items()},
        "signals": {
            "start": rules.start_signal,
            "warning": True,
            "time_up": rules.time_up_signal,
        },
    }
    data = _cached_clock(tournament, number)
    if data is None:
        return {**base, "texts": rule_texts(rules), "session": None, "state": None}
    base["texts"] = rule_texts(rules)
    s = clock.state_at(data["length"], data["warning"], data["events"], now)
    s = as_shown(s, data["ended_at"] or (now if over else None))
    state_name = s.state
    seating_until = None
    if state_name == clock.WAITING:
        seating_until = -1  # while waiting the seating is always shown
    elif s.started_at is not None and rules.seating_display_minutes:
        seating_until = int(
            (s.started_at + timedelta(minutes=rules.seating_display_minutes)).timestamp() * 1000
        )
    return {
        **base,
        "session": data["number"],
        "title": _("Session %(number)s") % {"number": data["number"]},
        "state": state_name,
        "remaining": round(s.remaining, 3),
        "length": s.length,
        "warning_at": s.warning_at,
        "counting": state_name in (clock.RUNNING, clock.WARNING, clock.TIME_UP),
        "started_at": int(s.started_at.timestamp() * 1000) if s.started_at else None,
        "seating_until": seating_until,
        "extra": [
            {"table": t, "seconds": sec, "label": _("Table %(table)s") % {"table": t}}
            for t, sec in clock.extra_time(data["events"]).items()
        ],
    }
