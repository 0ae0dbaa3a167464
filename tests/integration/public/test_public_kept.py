"""What the public pages make of a revision, kept on disk across a restart (public.stored), and
the hall's parts kept by what they are made of (public.hall, issue 39): every kind of write shows
on the very next request, a write that changes nothing public finds the parts kept, and nothing
kept is ever served for another tournament, revision or database."""

import json
import os

import pytest
from django.core.cache import cache
from django.test import Client

from public import hall as public_hall
from public import stored
from referee.services import record_penalty, substitute
from scoring import selectors
from scoring.services import record_hand
from scoring.services.finish import finish_tournament
from tests.support import factories as f
from tests.support.hands import RIICHI_HANDS
from tournament.changes import touch
from tournament.models import Player, Tournament
from tournament.sessions import start_clock

pytestmark = pytest.mark.django_db

SCORES = [40000, 35000, 25000, 20000]


@pytest.fixture
def store(settings, tmp_path):
    """The store on, in the test's own folder."""
    settings.PUBLIC_PAGE_STORE = tmp_path / "public-pages"
    return settings.PUBLIC_PAGE_STORE


@pytest.fixture
def staff():
    return f.staff()


def restart():
    """What a restart forgets: everything this process keeps (core.kept lives as long as the
    cache's tokens, the page cache in the cache). The store on disk stays."""
    cache.clear()


def page(t, path="") -> str:
    response = Client().get(f"/t/{t.slug}/{path}")
    assert response.status_code == 200
    return response.content.decode()


def feed(t) -> dict:
    return json.loads(page(t, "standings.json"))


def total(t, key):
    return next(r["total"] for r in feed(t)["standings"] if r["player"]["key"] == key)


def both(t, check):
    """`check()` holds on the very next request, and again after a restart (from the store)."""
    check()
    restart()
    check()


def test_the_first_page_after_a_restart_is_read_from_the_store(store, staff, monkeypatch):
    t = f.tournament(slug="stored")
    f.play(f.seat_session(t).tables.get(number=1), SCORES, staff["desk1"], staff["desk2"])
    first = page(t)
    assert any(store.rglob("*.json"))
    restart()

    def never(*args, **kwargs):
        raise AssertionError("worked out again after the restart")

    monkeypatch.setattr(selectors, "public_standings", never)
    monkeypatch.setattr(public_hall.selectors, "public_standings", never)
    assert page(t) == first
    monkeypatch.undo()
    assert page(t, "standings.json")  # (a part not stored yet is made from the hall's parts)


def test_a_stored_part_is_never_served_for_another_revision_tournament_or_database(store, staff):
    t = f.tournament(slug="mine")
    session = f.seat_session(t)
    page(t)
    f.play(session.tables.get(number=1), SCORES, staff["desk1"], staff["desk2"])
    restart()
    assert "40,000" in page(t)  # the new revision: made, not the old one read back
    # A tournament file restored in its place is a new tournament (deleted and created, with
    # its own id and moment), and the change forgets every part kept of the old one.
    t.refresh_from_db()
    assert [p.name for p in store.rglob(f"{t.pk}-*/*")] == [str(t.revision)]
    touch(t.pk)
    assert not list(store.rglob(f"{t.pk}-*"))
    # The same id and revision in another database (a tournament created at another moment,
    # as in a desk's database copied over this one while the desk was down): not found.
    page(t)
    t.refresh_from_db()
    place = stored.place(t)
    assert place.read(("standings", "en", "")) is not None
    Tournament.objects.filter(pk=t.pk).update(created_at=t.created_at.replace(year=2001))
    assert stored.place(t).read(("standings", "en", "")) is None


def test_a_stored_part_is_never_served_to_other_code(store, monkeypatch):
    """A desk updated while it was down draws its pages anew (other templates, scripts)."""
    t = f.tournament(slug="updated")
    page(t)
    assert stored.place(t).read(("standings", "en", "")) is not None
    monkeypatch.setattr(stored, "_code", lambda: "another-version")
    assert stored.place(t).read(("standings", "en", "")) is None


def test_the_store_reads_back_only_what_it_wrote(store, tmp_path):
    t = f.tournament(slug="format")
    place = stored.place(t)
    place.write("text", "<b>")
    place.write("kept", ("<b>", True, b"\x00gz", [1, None, 2.5]))
    place.write("object", object())  # not a kind the store writes: kept in memory only
    assert place.read("text") == "<b>"
    assert place.read("kept") == ("<b>", True, b"\x00gz", [1, None, 2.5])
    assert place.read("object") is None
    for path in place.folder.iterdir():
        path.write_text('{"key": "\'text\'", "value": {"pickle": "gASV"}}')
    assert place.read("text") is None  # another shape: made again, never run


def test_a_confirmed_result_and_a_correction_show_on_the_next_request(store, staff):
    t = f.tournament(slug="results")
    table = f.seat_session(t).tables.get(number=1)
    page(t)
    f.play(table, SCORES, staff["desk1"], staff["desk2"])
    both(t, lambda: ("40,000" in page(t) and total(t, "p01")) or pytest.fail("not shown"))
    first = total(t, "p01")
    f.play(table, [20000, 35000, 25000, 40000], staff["desk1"], staff["desk2"])  # a correction
    both(t, lambda: total(t, "p01") != first or pytest.fail("correction not shown"))


def test_a_penalty_shows_on_the_next_request(store, staff):
    t = f.tournament(slug="penalty")
    session = f.seat_session(t)
    f.play(session.tables.get(number=1), SCORES, staff["desk1"], staff["desk2"])
    before = total(t, "p01")
    page(t)
    record_penalty(session, t.players.get(key="p01"), "late", staff["referee"], minutes=4)
    both(t, lambda: total(t, "p01") != before or pytest.fail("penalty not shown"))


def test_a_substitution_shows_on_the_next_request(store, staff):
    t = f.tournament(slug="subs")
    Player.objects.create(tournament=t, key="s01", name="Sub Stitute", substitute=True)
    session = f.seat_session(t)
    assert "registered, but not seated" in page(t, "find/?q=Sub")
    substitute(
        session, t.players.get(key="p01"), t.players.get(key="s01"), "start", staff["director"]
    )
    both(t, lambda: "not seated" not in page(t, "find/?q=Sub") or pytest.fail("not seated"))
    f.play(session.tables.get(number=1), SCORES, staff["desk1"], staff["desk2"])
    both(t, lambda: "Sub Stitute" in page(t) or pytest.fail("substitute not in the standings"))


def test_a_hand_shows_on_the_next_request(store, staff):
    t = f.tournament(slug="hand")
    table = f.seat_session(t).tables.get(number=1)
    page(t)
    assert json.loads(page(t, "statistics.json"))["players"] == {}
    record_hand(table, RIICHI_HANDS[0], staff["desk1"])

    def shown():
        assert json.loads(page(t, "statistics.json"))["players"]
        assert "Largest hand" in page(t) or "Most wins" in page(t)

    both(t, shown)


def test_a_released_session_and_the_finish_show_on_the_next_request(store, staff):
    t = f.tournament(slug="release", release_by_session=True)
    one, two = f.seat_session(t).tables.order_by("number")
    f.play(one, SCORES, staff["desk1"], staff["desk2"])
    assert "40,000" not in page(t)  # table 2 still plays: session 1 is not released
    f.play(two, SCORES, staff["desk1"], staff["desk2"])
    both(t, lambda: "40,000" in page(t) or pytest.fail("release not shown"))
    finish_tournament(t, staff["director"])
    both(t, lambda: "Final standings" in page(t) or pytest.fail("finish not shown"))


def test_a_write_that_changes_nothing_public_finds_the_hall_parts_kept(staff):
    """A hand at a table of a session the public does not see yet (results released by
    session), then the clock: new revisions, the same standings and statistics objects."""
    t = f.tournament(slug="quiet", release_by_session=True)
    one = f.seat_session(t).tables.get(number=1)
    f.play(one, SCORES, staff["desk1"], staff["desk2"])  # session 1 still open (table 2)
    page(t)

    def parts():
        tournament = Tournament.objects.get(pk=t.pk)
        hall = public_hall.tournament_hall(tournament)
        return tournament.revision, hall.standings, hall.hands

    revision, standings, hands = parts()
    record_hand(t.sessions.get().tables.get(number=2), RIICHI_HANDS[0], staff["desk1"])
    start_clock(t.sessions.get(), staff["director"])
    now, standings_now, hands_now = parts()
    assert now > revision
    assert standings_now is standings and hands_now is hands
    # ... while a write that may change them (the players or the seating) makes them anew.
    touch(t.pk)
    _, standings_then, hands_then = parts()
    assert standings_then is not standings and hands_then is not hands


def test_a_hand_undone_while_the_statistics_were_worked_out_is_not_shown(staff, monkeypatch):
    """The hand statistics are kept by a digest of the current hands read before they are
    worked out; a hand recorded in between (another thread's, simulated here) is counted in
    what is kept under the digest of the hands before it. Undone, the current hands are those
    of that digest again: the next statistics.json and standings page must not count it."""
    from scoring.selectors import statistics as statistics_selectors
    from scoring.services import undo_last_hand

    t = f.tournament(slug="undone")
    table = f.seat_session(t).tables.get(number=1)
    read = statistics_selectors.current_hands
    recorded = []

    def meanwhile(tournament):
        if not recorded:  # a hand saved between the digest's query and the hands' read
            recorded.append(record_hand(table, RIICHI_HANDS[0], staff["desk1"]))
        return read(tournament)

    monkeypatch.setattr(statistics_selectors, "current_hands", meanwhile)
    page(t, "statistics.json")
    monkeypatch.setattr(statistics_selectors, "current_hands", read)
    assert recorded
    undo_last_hand(table, staff["desk1"], "by mistake")
    assert json.loads(page(t, "statistics.json"))["players"] == {}
    assert "Largest hand" not in page(t) and "Most wins" not in page(t)


def test_a_replaced_or_deleted_tournament_leaves_nothing_in_the_store(store, staff):
    """A restore (and the federation server's mirror of a hall's file, and a standby's take
    over: archive.backups.restoring.replace_tournament) deletes the tournament and creates the
    file's anew, with another id: the old one's parts can never be read again, and must go, or
    the store grows by a revision's pages at every file the federation server stores."""
    from archive.backups.restoring import restore
    from archive.tournament_file import dumps, export_tournament

    t = f.tournament(slug="replaced")
    f.play(f.seat_session(t).tables.get(number=1), SCORES, staff["desk1"], staff["desk2"])
    page(t)
    assert list(store.glob(f"*/*/{t.pk}-*"))
    new, _record = restore(dumps(export_tournament(t)), staff["director"])
    assert new.pk != t.pk
    assert "40,000" in page(new)
    assert not list(store.glob(f"*/*/{t.pk}-*")), "the replaced tournament's parts are kept"
    new.delete()
    assert not list(store.glob(f"*/*/{new.pk}-*")), "a deleted tournament's parts are kept"


def test_a_desk_whose_packages_changed_while_it_was_down_draws_its_pages_anew(settings, tmp_path):
    """The pages are drawn by the installed packages too (django-tables2's table templates,
    Django's own translations): requirements.txt pins them, so a desk updated to other
    versions while it was down (`pip install -r requirements.txt`) must not read back pages the
    packages before drew."""
    base = tmp_path / "desk"
    (base / "public").mkdir(parents=True)
    (base / "public" / "views.py").write_text("# the code\n")
    (base / "requirements.txt").write_text("django-tables2==2.7.0\n")
    settings.BASE_DIR, settings.DATA_DIR = base, base / "data"
    stored._code.cache_clear()
    try:
        before = stored._code()
        stat = (base / "requirements.txt").stat()
        (base / "requirements.txt").write_text("django-tables2==2.7.5\n")
        os.utime(base / "requirements.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns))
        stored._code.cache_clear()
        assert stored._code() != before
    finally:
        stored._code.cache_clear()
