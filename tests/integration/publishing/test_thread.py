"""The sender's own thread, as on the hall's server: a change commits, the thread reads its
snapshot (core.snapshot) and sends.

The test database is SQLite in memory with a shared cache, where a reader holds its tables
against every writer (unlike the hall's file in WAL mode): each change here is one transaction,
and the test reads the database only once the thread is stopped."""

import time

import pytest
from django.db import transaction

from publishing import sender
from publishing.models import Publication
from publishing.services import set_publication
from tests.support import factories as f

from .conftest import KEY

pytestmark = pytest.mark.django_db(transaction=True)


def until(check, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def threaded(settings):
    settings.PUBLISH_THREAD = True
    yield
    sender.SENDER.stop()


def test_the_thread_sends_each_committed_change(threaded, stub):
    people = f.staff()
    t = f.tournament(players=8, slug="open")
    session = f.seat_session(t)
    set_publication("tournament", t.slug, stub.url, KEY, True, None)  # commits: the thread goes
    assert until(lambda: stub.have.get("7") == 1)
    with transaction.atomic():  # a confirmation, committed once
        f.play(
            session.tables.get(number=1),
            [40000, 35000, 25000, 20000],
            people["desk1"],
            people["desk2"],
        )
    assert until(lambda: stub.have.get("7") == 2)
    assert sender.SENDER.thread.is_alive()
    sender.SENDER.stop()
    publication = Publication.objects.get()
    assert (publication.revision, publication.sent_revision) == (2, 2)
    tables = stub.uploads[-1].data["sessions"][0]["tables"]
    assert ["score" in table["seats"][0] for table in tables] == [True, False]
