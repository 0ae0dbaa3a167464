"""Session clock arithmetic (mahjong.clock), pure and fast.

000 §5.8: 'Usually 90 minutes. A clear signal 15 minutes before the end' (docs/rules.md §1);
002 §2.4.4: 'Когда до конца сессии остаётся 15 минут, главный судья оповещает об этом'.
"""

from datetime import UTC, datetime, timedelta

import pytest

from mahjong.clock import (
    ADJUST,
    END,
    PAUSE,
    REOPEN,
    RESET,
    RESUME,
    START,
    ClockError,
    Event,
    check,
    extra_time,
    mmss,
    state_at,
)

T0 = datetime(2026, 2, 17, 10, 0, tzinfo=UTC)
EMA = (90 * 60, 15 * 60)


def at(minutes=0, seconds=0):
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def test_waiting_before_the_start():
    s = state_at(*EMA, [], at(5))
    assert (s.state, s.remaining, s.elapsed) == ("waiting", 5400, 0)


def test_ema_90_minutes_with_the_warning_15_before_the_end():
    events = [Event(START, at())]
    assert state_at(*EMA, events, at(74, 59)).state == "running"
    assert state_at(*EMA, events, at(75)).state == "warning"
    assert state_at(*EMA, events, at(75)).remaining == 15 * 60
    assert state_at(*EMA, events, at(90)).state == "time_up"
    assert state_at(*EMA, events, at(92)).remaining == -120


def test_a_pause_stops_the_time_and_a_restart_sees_the_same_second():
    events = [Event(START, at()), Event(PAUSE, at(30)), Event(RESUME, at(40))]
    assert state_at(*EMA, events[:2], at(35)).state == "paused"
    assert state_at(*EMA, events[:2], at(35)).remaining == 60 * 60
    s = state_at(*EMA, events, at(50))
    assert (s.state, s.elapsed, s.remaining) == ("running", 40 * 60, 50 * 60)
    # the same events read again later (a reload, another screen) give the same answer
    assert state_at(*EMA, list(events), at(50)) == s


def test_minutes_added_for_all_and_extra_time_for_one_table():
    events = [
        Event(START, at()),
        Event(ADJUST, at(10), seconds=5 * 60),
        Event(ADJUST, at(20), seconds=-2 * 60),
        Event(ADJUST, at(80), seconds=4 * 60, table=7),
    ]
    assert state_at(*EMA, events, at(30)).length == 93 * 60
    assert state_at(*EMA, events, at(93)).state == "time_up"
    table7 = state_at(*EMA, events, at(93), table=7)
    assert (table7.state, table7.remaining) == ("warning", 4 * 60)
    assert state_at(*EMA, events, at(93), table=3).remaining == 0


def test_end_freezes_the_clock():
    events = [Event(START, at()), Event(END, at(60))]
    s = state_at(*EMA, events, at(100))
    assert (s.state, s.elapsed, s.remaining) == ("ended", 3600, 1800)


def test_a_reopened_end_is_as_if_it_had_not_happened():
    """An end taken back at once: a running clock kept running, a paused one stays paused."""
    events = [Event(START, at()), Event(END, at(60)), Event(REOPEN, at(61))]
    s = state_at(*EMA, events, at(70))
    assert (s.state, s.elapsed, s.remaining) == ("running", 70 * 60, 20 * 60)
    paused = [Event(START, at()), Event(PAUSE, at(50)), Event(END, at(60)), Event(REOPEN, at(61))]
    s = state_at(*EMA, paused, at(70))
    assert (s.state, s.elapsed) == ("paused", 50 * 60)
    ended_again = events + [Event(END, at(80))]
    assert state_at(*EMA, ended_again, at(90)).elapsed == 80 * 60


def test_only_an_end_can_be_reopened():
    with pytest.raises(ClockError):
        check([Event(START, at()), Event(REOPEN, at(1))])
    with pytest.raises(ClockError):
        check([Event(START, at()), Event(END, at(1)), Event(REOPEN, at(2)), Event(REOPEN, at(3))])


def test_events_after_now_are_ignored():
    events = [Event(START, at()), Event(PAUSE, at(30))]
    assert state_at(*EMA, events, at(20)).state == "running"


def test_sbr_session_length_is_the_rule_sets():
    s = state_at(60 * 60, 15 * 60, [Event(START, at())], at(45))
    assert (s.state, s.remaining) == ("warning", 15 * 60)


@pytest.mark.parametrize(
    "events",
    [
        [Event(PAUSE, at())],
        [Event(START, at()), Event(START, at(1))],
        [Event(START, at()), Event(RESUME, at(1))],
        [Event(START, at()), Event(PAUSE, at(1)), Event(PAUSE, at(2))],
        [Event(END, at())],
        [Event(START, at()), Event(END, at(1)), Event(ADJUST, at(2), seconds=60)],
        [Event("explode", at())],
        [Event(RESET, at())],
    ],
)
def test_events_that_cannot_follow_are_refused(events):
    with pytest.raises(ClockError):
        state_at(*EMA, events, at(10))


def test_a_reset_after_a_false_start_forgets_everything_before_it():
    events = [
        Event(START, at()),
        Event(ADJUST, at(1), seconds=600),
        Event(ADJUST, at(1), seconds=120, table=4),
        Event(RESET, at(2)),
    ]
    s = state_at(*EMA, events, at(5))
    assert (s.state, s.remaining, s.length, s.started_at) == ("waiting", 5400, 5400, None)
    assert extra_time(events) == {}
    restarted = events + [Event(START, at(10))]
    s = state_at(*EMA, restarted, at(85))
    assert (s.state, s.remaining, s.started_at) == ("warning", 15 * 60, at(10))


def test_an_ended_session_can_be_reset_and_started_again():
    events = [Event(START, at()), Event(END, at(3)), Event(RESET, at(4)), Event(START, at(5))]
    assert state_at(*EMA, events, at(6)).state == "running"


def test_extra_time_per_table_adds_up_and_drops_zero():
    events = [
        Event(START, at()),
        Event(ADJUST, at(80), seconds=300, table=7),
        Event(ADJUST, at(81), seconds=120, table=2),
        Event(ADJUST, at(82), seconds=-120, table=2),
        Event(ADJUST, at(83), seconds=60, table=7),
        Event(ADJUST, at(84), seconds=600),
    ]
    assert extra_time(events) == {7: 360}


def test_a_paused_clock_inside_the_warning_shows_paused_and_past_zero_time_up():
    events = [Event(START, at()), Event(PAUSE, at(80))]
    s = state_at(*EMA, events, at(85))
    assert (s.state, s.remaining, s.paused) == ("paused", 10 * 60, True)
    s = state_at(*EMA, [Event(START, at()), Event(PAUSE, at(95))], at(99))
    assert (s.state, s.remaining) == ("time_up", -5 * 60)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (5400, "1:30:00"),
        (899.3, "15:00"),
        (899.0, "14:59"),
        (0.2, "0:01"),
        (0, "0:00"),
        (-0.4, "0:00"),
        (-130, "\u22122:10"),
        (3725, "1:02:05"),
    ],
)
def test_remaining_time_is_shown_rounded_up_and_negative_past_time_up(seconds, shown):
    assert mmss(seconds) == shown
