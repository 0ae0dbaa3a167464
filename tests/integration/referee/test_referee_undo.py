"""Issue 23, "confusing on the day": a penalty tap and "Play has ended" ask first and can be
taken back a moment later by the one who tapped; a void penalty keeps its amount, struck
through; the check-in list marks substitutes and keeps its sort links out of the Tab order.
Through the real URLs and the real database."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.undo import UNDO_SECONDS
from mahjong import clock
from referee.appeals import file_appeal
from referee.services import record_penalty
from scoring.models import Penalty
from tests.support import factories as f
from tournament.models import ClockEvent, Player, Session
from tournament.sessions import start_clock
from tournament.timekeeping import state

pytestmark = pytest.mark.django_db


def url(t, name, **kw):
    return reverse(name, kwargs={"slug": t.slug, **kw})


@pytest.fixture
def hall():
    staff = f.staff()
    staff["other"] = f.user("ref2", "referee")
    t = f.tournament(players=4)
    f.seat_session(t)
    return t, staff


def table_page(client, t):
    return client.get(url(t, "referee:table", number=1, table=1)).content.decode()


def test_a_penalty_tap_asks_first_and_saves_only_when_confirmed(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p02")
    here = url(t, "referee:table", number=1, table=1) + f"#p{player.pk}"
    data = {"player": player.pk, "kind": "late", "minutes": 5, "next": here}
    asked = referee.post(url(t, "referee:penalty_add", number=1), data)
    body = asked.content.decode()
    assert asked.status_code == 200 and not Penalty.objects.exists()
    assert "Confirm: late arrival · 5 min · -5,000 points (before placement) for Player 02?" in body
    # The confirm page posts the same fields again, with confirm on; Cancel goes back.
    assert re.search(r'name="minutes" value="5"', body)
    assert 'name="confirm" value="1"' in body
    assert f'href="{here}"' in body
    saved = referee.post(url(t, "referee:penalty_add", number=1), {**data, "confirm": "1"})
    assert saved.status_code == 302 and saved["Location"] == here
    assert Penalty.objects.get().minutes == 5


def test_an_invalid_tap_is_refused_at_once_without_asking(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p02")
    response = referee.post(
        url(t, "referee:penalty_add", number=1), {"player": player.pk, "kind": "late"}
    )
    assert response.status_code == 302 and not Penalty.objects.exists()


def test_the_saved_message_is_on_the_players_card_with_an_undo(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p03")
    here = url(t, "referee:table", number=1, table=1) + f"#p{player.pk}"
    data = {"player": player.pk, "kind": "late", "minutes": 2, "confirm": "1", "next": here}
    body = referee.post(url(t, "referee:penalty_add", number=1), data, follow=True).content.decode()
    card = body[body.index(f'id="p{player.pk}"') :]
    card = card[: card.index("</section>")]
    assert "Saved: late arrival for Player 03" in card and 'role="status"' in card
    penalty = Penalty.objects.get()
    assert url(t, "referee:penalty_undo", pk=penalty.pk) in card
    # Not at the top of the page as well.
    assert body.count("Saved: late arrival") == 1
    # Another referee sees the penalty, without an Undo.
    other = table_page(f.login(staff["other"]), t)
    assert "2 min" in other and url(t, "referee:penalty_undo", pk=penalty.pk) not in other


def test_undo_voids_the_penalty_as_undone_and_keeps_it(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p01")
    session = t.sessions.get()
    penalty = record_penalty(session, player, "late", staff["referee"], minutes=4)
    body = referee.post(
        url(t, "referee:penalty_undo", pk=penalty.pk),
        {"next": url(t, "referee:table", number=1, table=1)},
        follow=True,
    ).content.decode()
    penalty.refresh_from_db()
    assert penalty.is_void and penalty.void_reason == "undone by ref"
    assert penalty.voided_by == staff["referee"]
    assert "Undone: late arrival for Player 01 is void; it stays in the log." in body
    assert penalty.history.count() == 2  # recorded, then voided: both kept
    assert Penalty.objects.count() == 1
    # Undone once is done: no second undo.
    again = referee.post(url(t, "referee:penalty_undo", pk=penalty.pk), follow=True)
    assert "already void" in again.content.decode()


def test_only_the_one_who_recorded_it_undoes_it_and_only_shortly_after(hall):
    t, staff = hall
    session = t.sessions.get()
    player = t.players.get(key="p01")
    penalty = record_penalty(session, player, "late", staff["referee"], minutes=4)
    for who in ("other", "director"):
        f.login(staff[who]).post(url(t, "referee:penalty_undo", pk=penalty.pk))
        penalty.refresh_from_db()
        assert not penalty.is_void
    late = timezone.now() - timedelta(seconds=UNDO_SECONDS + 1)
    Penalty.objects.filter(pk=penalty.pk).update(recorded_at=late)
    referee = f.login(staff["referee"])
    assert url(t, "referee:penalty_undo", pk=penalty.pk) not in table_page(referee, t)
    body = referee.post(url(t, "referee:penalty_undo", pk=penalty.pk), follow=True)
    assert "Too late to undo" in body.content.decode()
    penalty.refresh_from_db()
    assert not penalty.is_void


def test_a_void_penalty_shows_its_amount_struck_through(hall):
    t, staff = hall
    session = t.sessions.get()
    player = t.players.get(key="p01")
    penalty = record_penalty(session, player, "late", staff["referee"], minutes=4)
    director = f.login(staff["director"])
    director.post(url(t, "referee:penalty_void", pk=penalty.pk), {"reason": "clock was wrong"})
    # in its unit (issue 36): 000 §5.6, −1,000 points a minute
    struck = '<del class="void-worth"><span class="sr-only">void: </span>-4,000 points (before'
    log = director.get(url(t, "referee:log") + "?void=1").content.decode()
    assert struck in log
    assert struck in table_page(director, t)


def test_a_void_minor_violation_shows_what_its_place_on_the_scale_cost(staff=None):
    staff = f.staff()
    t = f.tournament("sbr-2025", players=4)
    session = f.seat_session(t)
    player = t.players.get(key="p01")
    first = record_penalty(session, player, "minor", staff["referee"])
    record_penalty(session, player, "minor", staff["referee"])
    director = f.login(staff["director"])
    director.post(url(t, "referee:penalty_void", pk=first.pk), {"reason": "wrong player"})
    log = director.get(url(t, "referee:log") + "?void=1").content.decode()
    # SBR's scale: the first minor violation costs 0; the void first one is struck at 0, the
    # live second one now takes the first place (0) too.
    assert re.search(r'<del class="void-worth"><span class="sr-only">void: </span>0 GP \(', log)


# --- "Play has ended" --------------------------------------------------------------------------


def end(client, t, **extra):
    return client.post(url(t, "desk:session_end", number=1), extra, follow=True)


def test_play_has_ended_asks_first(hall):
    t, staff = hall
    desk = f.login(staff["desk1"])
    body = end(desk, t).content.decode()
    assert "Confirm: play has ended in session 1?" in body
    assert Session.objects.get().ended_at is None
    end(desk, t, confirm="1")
    assert Session.objects.get().ended_at is not None


def test_the_one_who_ended_play_undoes_it_and_the_clock_goes_on(hall):
    t, staff = hall
    session = t.sessions.get()
    start_clock(session, staff["desk1"])
    desk = f.login(staff["desk1"])
    body = end(desk, t, confirm="1").content.decode()
    assert 'id="session-reopen"' in body
    assert state(session).state == clock.ENDED
    # Another desk user sees no undo, and cannot.
    other = f.login(staff["desk2"])
    assert 'id="session-reopen"' not in other.get(url(t, "desk:session", number=1)).content.decode()
    end_undo = url(t, "desk:session_reopen", number=1)
    other.post(end_undo)
    assert Session.objects.get().ended_at is not None
    body = desk.post(end_undo, follow=True).content.decode()
    assert "Undone: play goes on" in body
    session.refresh_from_db()
    assert session.ended_at is None
    assert state(session).state == clock.RUNNING
    kinds = list(ClockEvent.objects.values_list("kind", flat=True).order_by("at", "id"))
    assert kinds == ["start", "end", "reopen"]  # the history keeps the mistake
    assert session.history.filter(ended_at__isnull=False).exists()


def test_play_stays_over_once_an_appeal_is_filed_or_the_moment_has_passed(hall):
    t, staff = hall
    desk = f.login(staff["desk1"])
    end(desk, t, confirm="1")
    session = Session.objects.get()
    file_appeal(session, t.players.get(key="p01"), "x", staff["referee"], text="y")
    body = desk.post(url(t, "desk:session_reopen", number=1), follow=True).content.decode()
    assert "An appeal has been filed since" in body
    assert Session.objects.get().ended_at is not None

    t2 = f.tournament(players=4, slug="second")
    f.seat_session(t2)
    end(desk, t2, confirm="1")
    s2 = t2.sessions.get()
    Session.objects.filter(pk=s2.pk).update(
        ended_at=s2.ended_at - timedelta(seconds=UNDO_SECONDS + 1)
    )
    s2.history.update(ended_at=s2.ended_at - timedelta(seconds=UNDO_SECONDS + 1))
    page = desk.get(url(t2, "desk:session", number=1)).content.decode()
    assert 'id="session-reopen"' not in page
    desk.post(url(t2, "desk:session_reopen", number=1))
    assert Session.objects.get(pk=s2.pk).ended_at is not None


# --- check-in ----------------------------------------------------------------------------------


def test_checkin_marks_substitutes_with_text_and_sorts_after_the_buttons(hall):
    t, staff = hall
    Player.objects.create(tournament=t, key="s01", name="Sub Stitute", substitute=True)
    body = f.login(staff["desk1"]).get(url(t, "desk:checkin")).content.decode()
    row = body[body.index("Sub Stitute") :]
    assert row.index('<span class="badge">substitute</span>') < row.index("</tr>")
    assert body.count('class="badge"') == 1
    # The header's sort links are out of the Tab order; the same links follow the table.
    head = body[body.index("<thead") : body.index("</thead>")]
    assert head.count('tabindex="-1"') == head.count("<a ") == 3
    after = body[body.index("</table>") :]
    assert "Sort by:" in after and after.count("sort=") >= 3
