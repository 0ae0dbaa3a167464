"""Result entry, confirmation, corrections and concurrent saves, through the real URLs."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from scoring.models import Result
from tests.support import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return f.staff()


@pytest.fixture
def riichi(staff):
    t = f.tournament()
    f.seat_session(t)
    return t


def client(user):
    c = Client()
    c.force_login(user)
    return c


def url(t, table=1, action=""):
    return f"/desk/{t.slug}/s/1/t/{table}/{action}"


def form(scores, base=0, chombo=(0, 0, 0, 0), **extra):
    data = {"base_version": base, **extra}
    for wind, score, c in zip("ESWN", scores, chombo, strict=True):
        data[f"score_{wind}"] = score
        data[f"chombo_{wind}"] = c
    return data


def test_valid_entry_is_a_draft_that_does_not_count_yet(riichi, staff):
    r = client(staff["desk1"]).post(url(riichi), form([40000, 35000, 25000, 20000]))
    assert r.status_code == 302
    result = Result.objects.get()
    assert (result.version, result.status, result.entered_by) == (1, "draft", staff["desk1"])
    feed = Client().get(f"/t/{riichi.slug}/standings.json").json()
    assert all(row["sessions"] == [] for row in feed["standings"])


@pytest.mark.parametrize(
    "scores, message",
    [
        # docs/rules.md §1: "Scores are multiples of 100."
        (
            [40050, 34950, 25000, 20000],
            "East (Player 01): The score 40,050 is not a multiple of 100.",
        ),
        # docs/rules.md §1: "a table's four final scores therefore sum to 120,000."
        (
            [40000, 35000, 25000, 10000],
            "The scores add up to 110,000, 10,000 too few: they must add up to 120,000.",
        ),
        (["", 35000, 25000, 20000], "East — Player 01: the score is missing."),
        ([40000, "abc", 25000, 20000], "South — Player 02: write a whole number."),
    ],
)
def test_bad_entry_names_the_seat_and_saves_nothing(riichi, staff, scores, message):
    r = client(staff["desk1"]).post(url(riichi), form(scores))
    assert r.status_code == 400
    assert message in r.content.decode()
    assert Result.objects.count() == 0


def test_negative_chombo_is_refused(riichi, staff):
    r = client(staff["desk1"]).post(
        url(riichi), form([40000, 35000, 25000, 20000], chombo=(0, -1, 0, 0))
    )
    assert r.status_code == 400
    assert "South — Player 02: chombo cannot be negative." in r.content.decode()
    assert Result.objects.count() == 0


def test_sichuan_game_points_must_sum_to_zero(staff):
    t = f.tournament("sbr-2025", slug="sbr")
    f.seat_session(t)
    desk = client(staff["desk1"])
    bad = {"base_version": 0, "score_E": 10, "score_S": -5, "score_W": 0, "score_N": 0}
    r = desk.post(url(t), bad)
    assert r.status_code == 400
    assert "The scores add up to 5, 5 too many: they must add up to 0." in r.content.decode()
    good = {**bad, "score_N": -5}
    assert desk.post(url(t), good).status_code == 302
    assert Result.objects.get().status == "draft"


def test_the_person_who_entered_cannot_confirm(riichi, staff):
    desk1 = client(staff["desk1"])
    desk1.post(url(riichi), form([40000, 35000, 25000, 20000]))
    page = desk1.get(url(riichi)).content.decode()
    assert 'id="confirm"' not in page
    r = desk1.post(url(riichi, action="confirm/"), {"version": 1}, follow=True)
    assert "a second desk user must confirm it" in r.content.decode()
    assert Result.objects.get().status == "draft"

    desk2 = client(staff["desk2"])
    assert 'id="confirm"' in desk2.get(url(riichi)).content.decode()
    desk2.post(url(riichi, action="confirm/"), {"version": 1})
    result = Result.objects.get()
    assert (result.status, result.confirmed_by) == ("confirmed", staff["desk2"])
    feed = Client().get(f"/t/{riichi.slug}/standings.json").json()
    assert feed["standings"][0]["player"]["key"] == "p01"
    assert feed["standings"][0]["total"] == 40000 - 30000 + 30000


def test_single_person_confirmation_when_the_tournament_allows_it(riichi, staff):
    riichi.single_confirmation = True
    riichi.save()
    desk1 = client(staff["desk1"])
    desk1.post(url(riichi), form([40000, 35000, 25000, 20000]))
    desk1.post(url(riichi, action="confirm/"), {"version": 1})
    assert Result.objects.get().status == "confirmed"


def test_the_draft_sent_back_unchanged_by_the_second_user_confirms_it(riichi, staff):
    """Issue 23 (3): the second desk user opened the drafted table (values prefilled) and
    pressed Enter through it: an identical version 2 by them replaced the draft, and only the
    first user could confirm it. Sent back unchanged, the draft is confirmed; sent back by the
    one who entered it, nothing is saved; changed, it is a new version, and the page says so."""
    desk1, desk2 = client(staff["desk1"]), client(staff["desk2"])
    desk1.post(url(riichi), form([40000, 35000, 25000, 20000]))
    again = desk1.post(url(riichi), form([40000, 35000, 25000, 20000], base=1), follow=True)
    assert "nothing changed since version 1" in again.content.decode()
    page = desk2.post(url(riichi), form([40000, 35000, 25000, 20000], base=1), follow=True)
    assert "Table 1 confirmed." in page.content.decode()
    result = Result.objects.get()
    assert (result.version, result.status, result.entered_by, result.confirmed_by) == (
        1,
        "confirmed",
        staff["desk1"],
        staff["desk2"],
    )
    changed = desk2.post(url(riichi), form([40000, 35000, 20000, 25000], base=1), follow=True)
    assert "your changes are saved as a draft, version 2" in changed.content.decode()
    assert Result.objects.get(version=2).status == "draft"


def test_a_correction_is_a_new_version_and_the_old_one_stays(riichi, staff):
    desk1, desk2 = client(staff["desk1"]), client(staff["desk2"])
    desk1.post(url(riichi), form([40000, 35000, 25000, 20000]))
    desk2.post(url(riichi, action="confirm/"), {"version": 1})
    # The correction is a draft: the confirmed version keeps counting until it is confirmed.
    desk2.post(url(riichi), form([20000, 35000, 25000, 40000], base=1, note="E and N swapped"))
    feed = Client().get(f"/t/{riichi.slug}/standings.json").json()
    assert feed["standings"][0]["player"]["key"] == "p01"
    desk1.post(url(riichi, action="confirm/"), {"version": 2})
    statuses = list(Result.objects.order_by("version").values_list("version", "status"))
    assert statuses == [(1, "superseded"), (2, "confirmed")]
    feed = Client().get(f"/t/{riichi.slug}/standings.json").json()
    assert feed["standings"][0]["player"]["key"] == "p04"
    page = desk1.get(url(riichi)).content.decode()
    assert "40000 / 35000 / 25000 / 20000" in page  # version 1 still shown
    assert "E and N swapped" in page
    assert "desk1" in page and "desk2" in page


def test_second_save_from_a_stale_form_is_refused(riichi, staff):
    desk1, desk2 = client(staff["desk1"]), client(staff["desk2"])
    # Both desks opened the empty table (base version 0); desk1 saves first.
    assert desk1.post(url(riichi), form([40000, 35000, 25000, 20000])).status_code == 302
    r = desk2.post(url(riichi), form([30000, 30000, 30000, 30000]))
    assert r.status_code == 409
    assert "This table was changed by desk1 at" in r.content.decode()
    assert "reload the page" in r.content.decode()
    assert Result.objects.count() == 1
    kept = dict(Result.objects.get().scores.values_list("wind", "score"))
    assert kept == {"E": 40000, "S": 35000, "W": 25000, "N": 20000}


def test_confirming_a_version_that_was_replaced_is_refused(riichi, staff):
    desk1, desk2 = client(staff["desk1"]), client(staff["desk2"])
    desk1.post(url(riichi), form([40000, 35000, 25000, 20000]))
    desk1.post(url(riichi), form([41000, 34000, 25000, 20000], base=1))
    r = desk2.post(url(riichi, action="confirm/"), {"version": 1}, follow=True)
    assert "This table was changed by desk1" in r.content.decode()
    assert not Result.objects.filter(status="confirmed").exists()


def test_database_allows_one_confirmed_result_per_table(riichi, staff):
    table = riichi.sessions.get().tables.get(number=1)
    now = timezone.now()
    Result.objects.create(table=table, version=1, status="confirmed", entered_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, version=2, status="confirmed", entered_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, version=1, status="draft", entered_at=now)


def test_public_standings_update_when_a_result_is_confirmed(riichi, staff):
    public = Client()
    assert "Player 01" in public.get(f"/t/{riichi.slug}/").content.decode()
    before = public.get(f"/t/{riichi.slug}/standings.json").json()
    assert before["sessions_played"] == 0
    f.play(
        riichi.sessions.get().tables.get(number=1),
        [25000, 45000, 30000, 20000],
        staff["desk1"],
        staff["desk2"],
    )
    after = public.get(f"/t/{riichi.slug}/standings.json").json()
    assert after["sessions_played"] == 1
    assert after["standings"][0]["player"]["name"] == "Player 02"
    assert after["standings"][0]["total"] == 45000


@pytest.mark.parametrize("version", ["", "one", "-1", "1.5", "99999999999999999999"])
def test_confirming_needs_a_version_number(riichi, staff, version):
    client(staff["desk1"]).post(url(riichi), form([40000, 35000, 25000, 20000]))
    r = client(staff["desk2"]).post(url(riichi, action="confirm/"), {"version": version})
    assert r.status_code == 400 and "Version: a whole number is required." in r.content.decode()
    assert Result.objects.get().status == "draft"
