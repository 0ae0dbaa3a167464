from contextlib import contextmanager

import pytest
from django.db import connection

from publishing import sender
from tests.support import factories as f
from tests.support import publish_stub

SECRET = "0123456789abcdef0123456789abcdef01234567"
KEY = f"7.{SECRET}"


@pytest.fixture(autouse=True)
def _spool(settings, tmp_path):
    """The sender's files go to the test's own folder, and it remembers no other test's jobs."""
    settings.DESK_PUBLISH_DIR = tmp_path / "publishing"
    sender.SENDER.jobs.clear()
    sender.SENDER.changed_ids.clear()
    yield
    sender.SENDER.jobs.clear()
    sender.SENDER.changed_ids.clear()


@pytest.fixture
def stub():
    server = publish_stub.start({"7": SECRET})
    yield server
    publish_stub.stop(server)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` runs what waits for the commit of the writes in it, as the hall's
    server does when they commit. What earlier writes of the test left waiting (never run: the
    test's transaction is rolled back) is dropped first: the sender, as the backup writer, adds
    one callback per transaction and would take those for its own."""

    @contextmanager
    def run():
        connection.run_on_commit.clear()
        with django_capture_on_commit_callbacks(execute=True):
            yield

    return run


@pytest.fixture
def people():
    return f.staff()


@pytest.fixture
def t(people):
    """A tournament of 8 players at "open", session 1 seated."""
    t = f.tournament(players=8, slug="open")
    f.seat_session(t)
    return t
