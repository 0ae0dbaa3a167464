"""The session clock through its real URLs and the real database: the desk's controls, the table
board, the projector page and the JSON status the hall reads.

000 §5.8 (EMA, Ukrainian): "Найчастіше сесії розраховуються за 90 хвилин ... чіткий звуковий
сигнал, що означає, коли залишається 15 хвилин до кінця сесії. Після звукового сигналу, поточна
роздача закінчується, а потім грається ще одна роздача ... Після закінчення 90 хвилин звуковий
сигнал не звучить".
002 §2.4.4 (SBR, Russian): "Когда до конца сессии остаётся 15 минут, главный судья оповещает об
этом всех игроков. Каждая сессия играется с доигрыванием ... если гонг, обозначающий конец сессии,
звучит уже после этого момента, сдача считается начатой."
"""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.support import factories as f
from tournament.models import ClockEvent, Session

pytestmark = pytest.mark.django_db


def desk_url(t, name, number=1):
    return reverse(f"desk:{name}", kwargs={"slug": t.slug, "number": number})


def status(t, session=None):
    query = f"?session={session}" if session else ""
    response = Client().get(f"/t/{t.slug}/clock.json{query}")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    return response.json()


def control(client, t, action, number=1, **data):
    return client.post(desk_url(t, "clock_control", number), {"action": action, **data})


def backdate(session, minutes):
    """Move the clock's start into the past, as if it had been running that long."""
    event = ClockEvent.objects.get(session=session, kind="start")
    event.at -= timedelta(minutes=minutes)
    event.save()
    cache.clear()


@pytest.fixture
def ema():
    staff = f.staff()
    t = f.tournament(players=12)
    f.seat_session(t)
    return t, staff


def test_the_desk_starts_the_clock_and_everyone_reads_the_same_state(ema):
    t, staff = ema
    assert status(t)["state"] == "waiting"
    desk = f.login(staff["desk1"])
    response = control(desk, t, "start")
    assert response.status_code == 302
    event = ClockEvent.objects.get()
    assert (event.kind, event.by, event.session.number) == ("start", staff["desk1"], 1)
    data = status(t)
    assert data["state"] == "running" and data["session"] == 1 and data["counting"]
    # 000 §5.8: 90 minutes, the warning 15 minutes before the end
    assert data["length"] == 90 * 60 and data["warning_at"] == 15 * 60
    assert 90 * 60 - 5 < data["remaining"] <= 90 * 60
    assert abs(data["server_time"] - timezone.now().timestamp() * 1000) < 5000
    # a server restart loses the cache, not the clock: it is rebuilt from the database
    cache.clear()
    again = status(t)
    assert again["state"] == "running"
    assert again["started_at"] == data["started_at"]


def test_pause_resume_and_minutes_for_all_or_one_table(ema):
    t, staff = ema
    desk = f.login(staff["desk2"])
    control(desk, t, "start")
    control(desk, t, "pause")
    assert status(t)["state"] == "paused"
    assert status(t)["counting"] is False
    control(desk, t, "resume")
    control(desk, t, "adjust", minutes="5")
    control(desk, t, "adjust", minutes="-2")
    control(desk, t, "adjust", minutes="4", table="3")
    data = status(t)
    assert data["state"] == "running"
    assert data["length"] == 93 * 60
    assert data["extra"] == [{"table": 3, "seconds": 240, "label": "Table 3"}]
    kinds = list(ClockEvent.objects.values_list("kind", "seconds", "table", "by__username"))
    assert kinds == [
        ("start", 0, None, "desk2"),
        ("pause", 0, None, "desk2"),
        ("resume", 0, None, "desk2"),
        ("adjust", 300, None, "desk2"),
        ("adjust", -120, None, "desk2"),
        ("adjust", 240, 3, "desk2"),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"minutes": "5", "table": "9"}, "table: Session 1 has no table 9."),
        ({"minutes": "abc"}, "minutes: Enter a number."),
        ({"minutes": "0"}, "minutes: Enter the minutes to add or remove."),
        ({"minutes": "500"}, "minutes: At most 180 minutes at a time."),
        ({"minutes": "5", "table": "1.5"}, "table: Enter a table number."),
    ],
)
def test_bad_adjustments_are_refused_by_field_and_change_nothing(ema, data, message):
    t, staff = ema
    desk = f.login(staff["desk1"])
    control(desk, t, "start")
    response = control(desk, t, "adjust", **data)
    page = desk.get(response["Location"]).content.decode()
    assert message in page
    assert ClockEvent.objects.count() == 1


def test_actions_that_do_not_fit_the_state_are_refused(ema):
    t, staff = ema
    desk = f.login(staff["desk1"])
    response = control(desk, t, "pause")
    assert "The clock is not running." in desk.get(response["Location"]).content.decode()
    control(desk, t, "start")
    response = control(desk, t, "start")
    assert "The clock has already started." in desk.get(response["Location"]).content.decode()
    response = control(desk, t, "resume")
    assert "The clock is not paused." in desk.get(response["Location"]).content.decode()
    assert ClockEvent.objects.count() == 1


def test_an_unseated_session_cannot_start(ema):
    t, staff = ema
    Session.objects.create(tournament=t, number=2)
    desk = f.login(staff["desk1"])
    response = control(desk, t, "start", number=2)
    assert (
        "Seat the session before starting its clock."
        in desk.get(response["Location"]).content.decode()
    )
    assert not ClockEvent.objects.exists()


def test_the_planned_length_is_set_per_session_and_kept_in_the_history(ema):
    t, staff = ema
    desk = f.login(staff["desk1"])
    control(desk, t, "length", minutes="75", warning_minutes="10")
    session = t.sessions.get()
    assert (session.length_seconds, session.warning_seconds) == (75 * 60, 10 * 60)
    assert session.history.first().history_user == staff["desk1"]
    data = status(t)
    assert (data["length"], data["warning_at"]) == (75 * 60, 10 * 60)
    response = control(desk, t, "length", minutes="30", warning_minutes="30")
    assert (
        "warning: The warning must come before the end of the session."
        in desk.get(response["Location"]).content.decode()
    )
    session.refresh_from_db()
    assert session.length_seconds == 75 * 60


def test_play_has_ended_stops_the_clock_and_the_hall_moves_to_the_next_session(ema):
    t, staff = ema
    f.seat_session(t, number=2)
    desk = f.login(staff["desk1"])
    control(desk, t, "start")
    assert status(t)["session"] == 1
    response = desk.post(
        desk_url(t, "session_end"), {"next": desk_url(t, "clock"), "confirm": "1"}, follow=False
    )
    assert response["Location"] == desk_url(t, "clock")
    assert list(ClockEvent.objects.values_list("kind", flat=True)) == ["start", "end"]
    assert status(t, session=1)["state"] == "ended"
    # the projector and the phones now follow session 2, waiting for its start
    data = status(t)
    assert (data["session"], data["state"]) == (2, "waiting")
    assert data["seating_until"] == -1  # the seating shows until play starts


def test_a_false_start_is_reset_by_the_director_only(ema):
    t, staff = ema
    desk = f.login(staff["desk1"])
    control(desk, t, "start")
    response = desk.post(desk_url(t, "clock_reset"))
    assert response.status_code == 403
    director = f.login(staff["director"])
    director.post(desk_url(t, "clock_reset"))
    assert status(t)["state"] == "waiting"
    assert list(ClockEvent.objects.values_list("kind", flat=True)) == ["start", "reset"]


def test_the_referee_sees_the_board_but_no_controls(ema):
    t, staff = ema
    page = f.login(staff["referee"]).get(desk_url(t, "clock")).content.decode()
    assert 'id="board"' in page and "Player 01" in page
    assert 'id="clock-start"' not in page
    page = f.login(staff["desk1"]).get(desk_url(t, "clock")).content.decode()
    assert 'id="clock-start"' in page


def test_the_board_shows_each_table_and_highlights_play_after_time_up(ema):
    t, staff = ema
    tables = list(t.sessions.get().tables.order_by("number"))
    f.play(tables[0], [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    f.play(tables[1], [30000, 30000, 30000, 30000], staff["desk1"], None)
    desk = f.login(staff["desk1"])
    control(desk, t, "start")
    control(desk, t, "adjust", minutes="10", table="3")
    page = desk.get(desk_url(t, "clock")).content.decode()
    states = re.findall(r'<tr class="[^"]*" data-state="(\w+)">', page)
    assert states == ["confirmed", "finished", "playing"]
    assert "+10 min" in page
    backdate(t.sessions.get(), 91)  # one minute past time up; table 3 has 9 minutes left
    partial = desk.get(desk_url(t, "clock") + "?partial=1").content.decode()
    assert "<b>1</b> playing" in partial and "<b>1</b> confirmed" in partial
    assert "<b>1</b> finished" in partial
    assert "overtime" not in re.findall(r"<tr[^>]*>", partial)[1]  # table 3 has extra time
    control(desk, t, "adjust", minutes="-10", table="3")
    partial = desk.get(desk_url(t, "clock") + "?partial=1").content.decode()
    assert '<tr class="overtime even" data-state="playing">' in partial
    assert "table still playing after time up" in partial


def test_ema_rule_texts_and_signals_quote_000_5_8(ema):
    t, _staff = ema
    data = status(t)
    texts = data["texts"]
    assert texts["warning"] == (
        "Finish the current hand and play one more. A hand has started when the dice are rolled."
    )
    assert texts["time_up"] == "No new hands; finish the hand in play."
    assert texts["waiting"] == (
        "You may build the walls; do not roll the dice before the start signal."
    )
    # "Після закінчення 90 хвилин звуковий сигнал не звучить": no bell at time up
    assert data["signals"] == {"start": True, "warning": True, "time_up": False}


def test_sbr_rule_texts_and_signals_quote_002_2_4_4():
    t = f.tournament("sbr-2025", players=8, slug="sbr")
    f.seat_session(t)
    data = status(t)
    assert data["length"] == 60 * 60 and data["warning_at"] == 15 * 60
    assert data["texts"]["time_up"] == "Time is up: play out the hand in progress and record it."
    assert data["texts"]["warning"] == (
        "The end is near: at the end signal the hand in progress is played out."
    )
    assert data["signals"]["time_up"] is True  # the gong ends the session


def test_a_director_can_turn_the_time_up_bell_on_for_ema(ema):
    t, _staff = ema
    t.rules = {"time_up_signal": True, "seating_display_minutes": 0}
    t.save()
    data = status(t)
    assert data["signals"]["time_up"] is True


def test_the_projector_page_is_public_and_shows_the_seating_while_waiting(ema):
    t, _staff = ema
    response = Client().get(f"/t/{t.slug}/clock/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Session 1" in page and "Find your table" in page
    assert "Player 05" in page and "Test bell" in page
    assert 'id="clock-data"' in page


def test_the_seating_shows_for_the_rule_sets_minutes_after_the_start(ema):
    t, staff = ema
    control(f.login(staff["desk1"]), t, "start")
    data = status(t)
    assert data["seating_until"] == data["started_at"] + 10 * 60 * 1000
    t.rules = {"seating_display_minutes": 0}
    t.save()
    assert status(t)["seating_until"] is None


def test_public_pages_carry_the_small_clock(ema):
    t, _staff = ema
    for path in (f"/t/{t.slug}/", f"/t/{t.slug}/find/", f"/t/{t.slug}/p/p01/"):
        page = Client().get(path).content.decode()
        assert f'data-clock="/t/{t.slug}/clock.json"' in page, path


def test_no_session_yet_gives_an_empty_status():
    t = f.tournament(slug="empty")
    data = status(t)
    assert data["session"] is None and data["state"] is None
    assert Client().get(f"/t/{t.slug}/clock/").status_code == 200


def test_play_ended_without_a_clock_shows_ended_on_the_desk_and_in_the_hall(ema):
    t, staff = ema
    desk = f.login(staff["desk1"])
    desk.post(desk_url(t, "session_end"), {"confirm": "1"})
    assert not ClockEvent.objects.exists()
    assert status(t, session=1)["state"] == "ended"
    page = desk.get(desk_url(t, "clock")).content.decode()
    assert 'data-state="ended"' in page and 'id="clock-start"' not in page


def test_the_clock_form_names_the_field_and_reads_a_comma_and_a_minus(ema):
    t, staff = ema
    desk = f.login(staff["desk1"])
    response = control(desk, t, "explode")
    assert "action: Unknown clock action." in desk.get(response["Location"]).content.decode()
    response = control(desk, t, "length", minutes="75.5", warning_minutes="10")
    assert "minutes: Enter whole minutes." in desk.get(response["Location"]).content.decode()
    assert not ClockEvent.objects.exists()
    control(desk, t, "start")
    response = control(desk, t, "adjust", minutes="\u22121,5")
    assert "All tables: \u22121.5 min." in desk.get(response["Location"]).content.decode()
    assert ClockEvent.objects.count() == 2
