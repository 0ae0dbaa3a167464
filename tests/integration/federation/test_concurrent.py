"""Two files of one mirror at once (docs/features/federation.md "The mirror"): the Mirror row is
locked (select_for_update) and the revision checked again under the lock, so the newer always
wins and the older is stored first or refused (409), never over the newer. On PostgreSQL the
two are sent from two threads at once; SQLite takes one writer at a time (and its test database
is not shared between threads), so there they come one after the other, in both orders."""

import threading

import pytest
from django.db import connection

from archive.tournament_file import export_tournament
from federation.keys import key_text, make_key
from federation.models import Mirror
from tests.support import factories as f
from tests.support.federation import packed, send
from tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_newer_of_two_files_sent_at_once_wins():
    people = f.staff()
    t = f.tournament(slug="hall-open")
    for name in ("desk1", "desk2"):
        f.grant(people[name], t)
    session = f.seat_session(t)
    f.play(session.tables.first(), [45000, 35000, 25000, 15000], people["desk1"], people["desk2"])
    key = make_key(f.user("org"), "tournament", "world-open")
    text, body = key_text(key), packed(export_tournament(t))
    assert send(text, "tournament", 1, body).status_code == 200
    for older, newer in ((2, 3), (4, 5), (6, 7)):
        start = threading.Barrier(2)
        answers = {}

        def hall(revision, start=start, answers=answers):
            try:
                start.wait()
                answers[revision] = send(text, "tournament", revision, body).status_code
            finally:
                connection.close()

        if connection.vendor == "postgresql":
            threads = [threading.Thread(target=hall, args=(r,)) for r in (older, newer)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert answers[newer] == 200 and answers[older] in (200, 409), answers
        else:
            first, second = (older, newer) if older % 4 == 2 else (newer, older)
            for revision in (first, second):
                answers[revision] = send(text, "tournament", revision, body).status_code
            assert answers == {first: 200, second: 200 if second == newer else 409}, answers
        assert Mirror.objects.get(slug="world-open").revision == newer
        assert Tournament.objects.filter(slug="world-open").count() == 1
