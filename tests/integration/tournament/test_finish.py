"""Finishing the tournament and releasing results by session (issue 23), through the real URLs:
the public pages, the feed and the desk, with the public page cache in front as in the hall."""

import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from referee.models import Appeal
from scoring.models import Penalty, Result
from seating.models import Table
from tests.support import factories as f
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

SCORES = {1: [40000, 35000, 25000, 20000], 2: [20000, 25000, 35000, 40000]}


@pytest.fixture
def staff():
    return f.staff()


def result_url(t, session, table, action=""):
    return f"/desk/{t.slug}/s/{session}/t/{table}/{action}"


def enter_and_confirm(staff, t, session, table, scores=None):
    """desk1 enters the table's result on the result page, desk2 confirms it."""
    data = {"base_version": 0}
    for wind, score in zip("ESWN", scores or SCORES[table], strict=True):
        data[f"score_{wind}"] = score
        data[f"chombo_{wind}"] = 0
    assert f.login(staff["desk1"]).post(result_url(t, session, table), data).status_code == 302
    desk2 = f.login(staff["desk2"])
    confirm = desk2.post(result_url(t, session, table, "confirm/"), {"version": 1})
    assert confirm.status_code == 302
    assert Result.objects.filter(
        table__session__number=session, table__number=table, status=Result.Status.CONFIRMED
    ).exists()


def feed(t):
    response = Client().get(f"/t/{t.slug}/standings.json")
    assert response.status_code == 200
    return json.loads(response.content)


def public_lines(t, key):
    row = next(r for r in feed(t)["standings"] if r["player"]["key"] == key)
    return {line["session"]: line for line in row["sessions"]}, row["total"]


def session_rows(page: str) -> int:
    """The lines of a player page's table of sessions (after the top of the standings, issue
    39, and its link to the whole standings)."""
    return len(re.findall(r'<tr class="(?:even|odd)"', page.split('<p class="whole">', 1)[-1]))


def pdf_text(client, t) -> str:
    response = client.get(reverse("printing:standings_pdf", args=[t.slug]))
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.content))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def edit_form(t, **changes):
    data = {
        "name": t.name,
        "slug": t.slug,
        "planned_sessions": t.planned_sessions,
        "fee": "0",
        "scope": t.scope,
        "keep_apart": "",
        "language": "en",
        "time_zone": t.time_zone,
    }
    data.update(changes)
    return data


def two_sessions(staff, release=True):
    """8 players; session 1 confirmed at both tables; session 2 seated, release set on the
    tournament's edit page."""
    t = f.tournament(players=8)
    director = f.login(staff["director"])
    if release:
        response = director.post(f"/desk/{t.slug}/edit/", edit_form(t, release_by_session="on"))
        assert response.status_code == 302
        t.refresh_from_db()
        assert t.release_by_session
    f.seat_session(t, 1)
    f.seat_session(t, 2)
    enter_and_confirm(staff, t, 1, 1)
    enter_and_confirm(staff, t, 1, 2)
    return t


# --- release by session -----------------------------------------------------------------------


def test_release_is_off_by_default_and_a_confirmed_table_shows_at_once(staff):
    t = two_sessions(staff, release=False)
    assert not Tournament._meta.get_field("release_by_session").default
    enter_and_confirm(staff, t, 2, 1)
    lines, _total = public_lines(t, "p01")
    assert set(lines) == {1, 2}  # session 2's table 2 is still open: no matter


def test_a_session_shows_publicly_only_once_every_table_is_confirmed(staff):
    t = two_sessions(staff)
    visitor = Client()
    assert "1 session played" in visitor.get(f"/t/{t.slug}/").content.decode()
    enter_and_confirm(staff, t, 2, 1)
    # A penalty of session 2 at the open table is session 2's result too.
    referee = f.login(staff["referee"])
    p05 = t.players.get(key="p05")
    response = referee.post(
        reverse("referee:penalty_add", args=[t.slug, 2]),
        {"player": p05.pk, "kind": "late", "minutes": 4, "confirm": "1"},
    )
    assert response.status_code == 302 and Penalty.objects.filter(player=p05).exists()

    # Public: standings page (the same visitor, whose pages the cache keeps), feed, player
    # pages, find my table: session 2 is not there yet.
    page = visitor.get(f"/t/{t.slug}/").content.decode()
    assert "1 session played" in page
    assert "a session's results show once every table of it is confirmed" in page
    data = feed(t)
    assert data["sessions_played"] == 1 and data["final"] is False
    lines, total_p01 = public_lines(t, "p01")
    assert set(lines) == {1}
    lines, total_p05 = public_lines(t, "p05")
    assert set(lines) == {1} and lines[1]["penalty"] == 0
    player_page = visitor.get(f"/t/{t.slug}/p/p01/").content.decode()
    assert session_rows(player_page) == 1 and "Total 40,000" in player_page
    assert "Session 2: table 1, East" in player_page  # where they sit is no result
    assert visitor.get(f"/t/{t.slug}/find/?q=Player 01").status_code == 200
    # ... and the projector shows no results in any case.
    assert visitor.get(f"/t/{t.slug}/clock/").status_code == 200

    # The desk sees everything: the table's outcome and the standings PDF.
    desk = f.login(staff["desk1"])
    outcome = desk.get(result_url(t, 2, 1))
    assert "Counted result" in outcome.content.decode()
    assert [row["uma"] for row in outcome.context["outcome"].data] == [30000, 10000, -10000, -30000]
    assert "Standings after 2 of 4 sessions" in pdf_text(f.login(staff["director"]), t)

    # The last table is confirmed: session 2 shows on the very next request.
    enter_and_confirm(staff, t, 2, 2)
    page = visitor.get(f"/t/{t.slug}/").content.decode()
    assert "2 sessions played" in page
    lines, total = public_lines(t, "p01")
    assert set(lines) == {1, 2} and (total_p01, total) == (40000, 80000)
    lines, total = public_lines(t, "p05")
    assert lines[2]["penalty"] == -4000 and total == total_p05 - 40000 - 4000
    player_page = visitor.get(f"/t/{t.slug}/p/p01/").content.decode()
    assert session_rows(player_page) == 2 and "Total 80,000" in player_page


def test_the_released_sessions_are_decided_in_one_selector():
    from scoring import selectors

    staff = f.staff()
    t = two_sessions(staff)
    t.refresh_from_db()
    assert selectors.released_sessions(t) == {1}
    enter_and_confirm(staff, t, 2, 1)
    t.refresh_from_db()
    assert selectors.released_sessions(t) == {1}
    assert selectors.public_standings(t).sessions_played == 1
    assert selectors.standings(t).sessions_played == 2  # the desk's: everything
    t.release_by_session = False
    assert selectors.released_sessions(t) is None


# --- finish -----------------------------------------------------------------------------------


def test_only_the_director_finishes(staff):
    t = two_sessions(staff, release=False)
    assert f.login(staff["desk1"]).get(f"/desk/{t.slug}/finish/").status_code == 403
    assert f.login(staff["desk1"]).post(f"/desk/{t.slug}/finish/").status_code == 403
    assert f.login(staff["referee"]).post(f"/desk/{t.slug}/reopen/").status_code == 403
    t.refresh_from_db()
    assert not t.finished


def test_finish_is_refused_while_a_table_of_a_played_session_has_no_confirmed_result(staff):
    t = two_sessions(staff, release=False)
    enter_and_confirm(staff, t, 2, 1)
    data = {"base_version": 0}
    for wind, score in zip("ESWN", SCORES[2], strict=True):
        data[f"score_{wind}"], data[f"chombo_{wind}"] = score, 0
    f.login(staff["desk1"]).post(result_url(t, 2, 2), data)  # a draft, not confirmed
    director = f.login(staff["director"])
    dashboard = director.get(f"/desk/{t.slug}/").content.decode()
    assert 'id="finish-link"' in dashboard and "Finish the tournament" in dashboard
    page = director.get(f"/desk/{t.slug}/finish/").content.decode()
    assert "Session 2, table 2" in page and "entered, waiting for confirmation" in page
    assert 'id="finish"' not in page  # no button while a table is open
    assert 'id="not-ended"' in page  # sessions 1 and 2 were played but never ended
    response = director.post(f"/desk/{t.slug}/finish/")
    assert response.status_code == 200
    assert "1 table of a played session has no confirmed result: session 2 table 2." in (
        response.content.decode()
    )
    t.refresh_from_db()
    assert not t.finished and t.finished_by is None


def test_finish_freezes_the_results_says_final_and_reopens(staff):
    t = two_sessions(staff, release=False)
    f.seat_session(t, 3)  # seated, never played: listed, not in the way
    appellant = t.players.get(key="p02")
    Appeal.objects.create(
        tournament=t,
        session=t.sessions.get(number=1),
        appellant=appellant,
        subject="ruling on a late call",
        filed_at="2026-02-17T12:20:00+00:00",
    )
    visitor = Client()
    before = visitor.get(f"/t/{t.slug}/").content.decode()
    assert "Final standings" not in before
    director = f.login(staff["director"])
    page = director.get(f"/desk/{t.slug}/finish/").content.decode()
    assert 'id="unplayed"' in page and 'id="appeals"' in page and "ruling on a late call" in page
    assert "Finish the tournament anyway" in page
    response = director.post(f"/desk/{t.slug}/finish/", follow=True)
    assert "The tournament is finished: the standings are final." in response.content.decode()
    assert 'id="finished"' in response.content.decode()
    t.refresh_from_db()
    assert t.finished and t.finished_by == staff["director"]
    assert t.history.filter(finished_at__isnull=False, finished_by=staff["director"]).exists()

    # The public pages say so at once (their cache is per revision), the feed too.
    page = visitor.get(f"/t/{t.slug}/").content.decode()
    assert "<title>Test Open — Final standings</title>" in page
    assert 'id="final"' in page and 'data-live="0"' in page
    assert "Final standings" in visitor.get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "Final standings" in visitor.get(f"/t/{t.slug}/find/").content.decode()
    assert feed(t)["final"] is True
    assert "Final standings" in pdf_text(director, t)

    # Results, penalties, seating and rules are refused with the same clear message.
    refusal = "The tournament is finished: its results are final."
    correction = {"base_version": 1, "note": "swapped"}
    for wind, score in zip("ESWN", SCORES[2], strict=True):
        correction[f"score_{wind}"], correction[f"chombo_{wind}"] = score, 0
    response = f.login(staff["desk1"]).post(result_url(t, 1, 1), correction, follow=True)
    assert refusal in response.content.decode()
    assert Result.objects.filter(table__session__number=1, table__number=1).count() == 1
    p04 = t.players.get(key="p04")
    response = f.login(staff["referee"]).post(
        reverse("referee:penalty_add", args=[t.slug, 1]),
        {"player": p04.pk, "kind": "late", "minutes": 4, "confirm": "1"},
        follow=True,
    )
    assert refusal in response.content.decode()
    assert not Penalty.objects.exists()
    response = director.post(reverse("desk:table_delete", args=[t.slug, 3, 1]), follow=True)
    assert refusal in response.content.decode()
    assert Table.objects.filter(session__number=3).count() == 2
    response = director.post(
        f"/desk/{t.slug}/rules/", {"ruleset": "furiten-club", "reason": "wrong preset"}
    )
    assert refusal in response.content.decode()
    t.refresh_from_db()
    assert t.ruleset == "ema-2012"
    response = director.post(f"/desk/{t.slug}/sessions/add/", follow=True)
    assert refusal in response.content.decode() and t.sessions.count() == 3

    # Reopening needs a reason, and keeps it with who and when.
    response = director.post(f"/desk/{t.slug}/reopen/", {"reason": "  "})
    assert "Give the reason for reopening the tournament." in response.content.decode()
    t.refresh_from_db()
    assert t.finished
    response = director.post(
        f"/desk/{t.slug}/reopen/", {"reason": "appeal upheld after the ceremony"}, follow=True
    )
    assert "The tournament is open again." in response.content.decode()
    assert "appeal upheld after the ceremony" in response.content.decode()
    t.refresh_from_db()
    assert not t.finished and t.reopened_by == staff["director"]
    assert t.reopen_reason == "appeal upheld after the ceremony" and t.reopened_at
    assert t.history.filter(reopen_reason="appeal upheld after the ceremony").exists()
    assert "Final standings" not in visitor.get(f"/t/{t.slug}/").content.decode()
    assert feed(t)["final"] is False
    response = f.login(staff["referee"]).post(
        reverse("referee:penalty_add", args=[t.slug, 1]),
        {"player": p04.pk, "kind": "late", "minutes": 4, "confirm": "1"},
    )
    assert response.status_code == 302 and Penalty.objects.count() == 1


# --- the tournament file ----------------------------------------------------------------------


def test_the_file_carries_the_release_setting_and_the_finish(staff):
    t = two_sessions(staff)
    director = f.login(staff["director"])
    assert director.post(f"/desk/{t.slug}/finish/").status_code == 302
    assert director.post(f"/desk/{t.slug}/reopen/", {"reason": "typo in a name"}).status_code == (
        302
    )
    assert director.post(f"/desk/{t.slug}/finish/").status_code == 302
    t.refresh_from_db()
    response = director.get(f"/desk/{t.slug}/export/")
    data = json.loads(response.content)
    head = data["tournament"]
    assert head["release_by_session"] is True
    assert head["finished_by"] == "dir" and head["finished_at"]
    assert head["reopened_by"] == "dir" and head["reopen_reason"] == "typo in a name"
    before = feed(t)
    t.delete()
    upload = io.BytesIO(response.content)
    upload.name = "test-open.json"
    assert director.post("/desk/import/", {"file": upload}).status_code == 302
    restored = Tournament.objects.get()
    assert restored.release_by_session and restored.finished
    assert restored.finished_by == staff["director"]
    assert restored.finished_at == t.finished_at
    assert restored.reopened_by == staff["director"]
    assert restored.reopen_reason == "typo in a name"
    assert feed(restored) == before
    # Still finished after the trip: a result is refused (an imported tournament is nobody's
    # until the director gives it: roles are per tournament).
    f.grant(staff["desk1"], restored)
    response = f.login(staff["desk1"]).post(
        result_url(restored, 2, 1),
        {"base_version": 0, **{f"score_{w}": s for w, s in zip("ESWN", SCORES[1], strict=True)}},
        follow=True,
    )
    assert "The tournament is finished" in response.content.decode()


def test_a_file_without_the_keys_is_open_and_shows_every_result(staff):
    t = two_sessions(staff, release=False)
    data = json.loads(f.login(staff["director"]).get(f"/desk/{t.slug}/export/").content)
    assert data["tournament"]["release_by_session"] is False
    assert "finished_at" not in data["tournament"]
    for key in ("release_by_session",):
        del data["tournament"][key]
    t.delete()
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "old.json"
    assert f.login(staff["director"]).post("/desk/import/", {"file": upload}).status_code == 302
    restored = Tournament.objects.get()
    assert not restored.release_by_session and not restored.finished


def test_an_appeal_upheld_against_a_penalty_waits_for_the_reopening(staff):
    t = two_sessions(staff, release=False)
    p03 = t.players.get(key="p03")
    referee = f.login(staff["referee"])
    referee.post(
        reverse("referee:penalty_add", args=[t.slug, 1]),
        {"player": p03.pk, "kind": "late", "minutes": 4, "confirm": "1"},
    )
    penalty = Penalty.objects.get()
    appeal = Appeal.objects.create(
        tournament=t,
        session=penalty.session,
        appellant=p03,
        penalty=penalty,
        subject="late by the clock on the wall",
        filed_at="2026-02-17T12:20:00+00:00",
    )
    director = f.login(staff["director"])
    assert director.post(f"/desk/{t.slug}/finish/").status_code == 302
    decision = {"status": "upheld", "decided_by": "head referee", "decision": "the clock was fast"}
    page = director.post(reverse("referee:appeal", args=[t.slug, appeal.pk]), decision, follow=True)
    assert "The tournament is finished: its results are final." in page.content.decode()
    appeal.refresh_from_db()
    penalty.refresh_from_db()
    assert appeal.status == Appeal.Status.FILED and not penalty.is_void
    director.post(f"/desk/{t.slug}/reopen/", {"reason": "the appeal is upheld"})
    director.post(reverse("referee:appeal", args=[t.slug, appeal.pk]), decision)
    appeal.refresh_from_db()
    penalty.refresh_from_db()
    assert appeal.status == Appeal.Status.UPHELD and penalty.is_void
