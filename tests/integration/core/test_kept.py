"""core.kept: values worked out once per revision and shared as they are (issue 26)."""

import threading
import time

import pytest
from django.core.cache import cache

from core.kept import kept, per_revision
from scoring import selectors
from tests.support import factories as f
from tournament.changes import touch
from tournament.models import Tournament
from tournament.services import save_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]


class Owner:
    def __init__(self, pk, revision):
        self.pk, self.revision = pk, revision


def test_built_once_per_revision_and_shared_as_it_is():
    built = []

    def build():
        built.append(1)
        return {"value": len(built)}

    first = per_revision("test", Owner(1, 7), build)
    assert per_revision("test", Owner(1, 7), build) is first  # no copy, no second build
    assert kept("test", "Owner", 1, 7) is first
    assert per_revision("test", Owner(1, 8), build) == {"value": 2}  # a new revision
    assert per_revision("other", Owner(1, 7), build) == {"value": 3}  # another kind
    assert len(built) == 3


def test_clearing_the_cache_forgets_what_was_kept():
    """A test's rolled-back tournament, or a restored one, may come back with the same pk and
    revision: after cache.clear() it must not be answered from the old one's value."""
    per_revision("test", Owner(2, 1), lambda: "old")
    cache.clear()
    assert kept("test", "Owner", 2, 1) is None
    assert per_revision("test", Owner(2, 1), lambda: "new") == "new"


def test_threads_asking_at_once_wait_for_one_build():
    built, started = [], threading.Event()

    def build():
        built.append(1)
        started.set()
        time.sleep(0.2)
        return "standings"

    got = []
    threads = [
        threading.Thread(target=lambda: got.append(per_revision("slow", Owner(3, 1), build)))
        for _ in range(4)
    ]
    threads[0].start()
    started.wait(5)
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert got == ["standings"] * 4 and built == [1]


def test_the_standings_are_read_once_per_revision():
    """One snapshot and one standings per revision, whoever asks; a revision that changes
    nothing the standings are made of keeps them (issue 39: they are kept by what they are made
    of), and a confirmation (which bumps the revision) gives new ones."""
    people = f.staff()
    t = f.tournament(players=8)
    first = f.seat_session(t, 1).tables.order_by("number").first()
    t.refresh_from_db()
    assert selectors.standings(t) is selectors.standings(t)
    assert selectors.seating(t) is selectors.seating(t)
    before = selectors.standings(t)
    touch(t.pk, seating=False)  # a write that changes nothing they are made of (the clock)
    t.refresh_from_db()
    assert selectors.standings(t) is before
    f.play(first, [40000, 30000, 30000, 20000], people["desk1"], people["desk2"])
    t.refresh_from_db()
    assert selectors.standings(t) is not before
    assert selectors.standings(t).sessions_played == 1


def test_a_confirmation_reads_the_scores_again_but_not_the_seating():
    """A result leaves the players and seats as they were (touch(..., seating=False)): the
    seating read for the previous revision serves the next, the scores are new. A change to
    the seats (touch()'s default) reads them again."""
    people = f.staff()
    t = f.tournament(players=8)
    session = f.seat_session(t, 1)
    first, second = session.tables.order_by("number")
    t.refresh_from_db()
    seating, players = selectors.seating(t), selectors.player_rows(t)

    f.play(first, [40000, 30000, 30000, 20000], people["desk1"], people["desk2"])
    t.refresh_from_db()
    assert selectors.seating(t) is seating and selectors.player_rows(t) is players
    assert selectors.confirmed_scores(t, 1) == {
        1: {"E": (40000, 0), "S": (30000, 0), "W": (30000, 0), "N": (20000, 0)}
    }

    touch(t.pk)  # what every write that may move a seat or rename a player calls
    t.refresh_from_db()
    assert selectors.seating(t) is not seating and selectors.player_rows(t) is not players
    assert selectors.seating(t) == seating


def test_a_tournament_saved_whole_never_writes_its_revisions_back():
    """The settings form saves a tournament read before a confirmation landed: its old
    revision numbers must not come back, or the next revision would be answered from the
    values kept for an older one (the seating, with winds shown that are not drawn yet)."""
    people = f.staff()
    t = f.tournament(players=8)
    first = f.seat_session(t, 1).tables.order_by("number").first()
    form_copy = Tournament.objects.get(pk=t.pk)  # the director opens the settings form
    f.play(first, [40000, 30000, 30000, 20000], people["desk1"], people["desk2"])
    landed = Tournament.objects.get(pk=t.pk)
    assert landed.revision > form_copy.revision

    form_copy.name = "Renamed Open"
    save_tournament(form_copy)
    saved = Tournament.objects.get(pk=t.pk)
    assert saved.name == "Renamed Open"
    assert saved.revision == landed.revision + 1
    assert saved.seating_revision == landed.seating_revision + 1
