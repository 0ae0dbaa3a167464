"""Issue 22, "big imports do not stall the hall": importing a 20,000-player tournament file held
SQLite's write lock from its first line to its last (23.6 s in the finding), so a result save
or a check-in made meanwhile waited out the 20 s busy timeout and failed with "database is
locked".

The import now reads and checks the whole file before its write transaction, and writes in
bulk in one short one. Here one thread imports such a file while, at another tournament, a
desk user saves a result as the importer reads the file (the importer waits until that save
is done: with the reading inside the transaction, as before, the save fails after the busy
timeout) and checks a player in as the importer writes (that one waits for the commit).

Every thread has its own connection, as the server's workers do. On SQLite they share a file
database set up as the hall's (WAL, the 20 s busy timeout, IMMEDIATE transactions): the
suite's own test database is in memory, where a connection that meets a lock fails at once
instead of waiting, which is not how the hall runs. On PostgreSQL they use the test database;
PostgreSQL locks rows, not the whole database, so there the desk never waited for an import,
and the test checks that the import and the desk's writes at another tournament go together.
"""

import sqlite3
import threading
from contextlib import closing

import pytest
from django.db import connection, connections

from archive.tournament_file import dumps, import_tournament
from archive.tournament_file.reader import Reader
from scoring.models import Result
from seating.models import Table
from tests.support import factories as f
from tournament.changes import tournament_changed
from tournament.models import Player, Tournament
from tournament.services import set_checked_in

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 20_000
TABLES = 10  # one session of ten tables, each confirmed, besides the players
WAIT = 60  # seconds any thread waits for another before the test gives up


@pytest.fixture
def hall_database(tmp_path, monkeypatch):
    """On SQLite, new threads connect to a file copy of the migrated test database,
    with the hall's connection options; the test's own connection stays on the in-memory one.
    """
    if connection.vendor != "sqlite":
        return
    path = tmp_path / "hall.sqlite3"
    connection.ensure_connection()
    with closing(sqlite3.connect(path)) as target:
        connection.connection.backup(target)
    monkeypatch.setitem(
        connections.settings, "default", {**connections.settings["default"], "NAME": str(path)}
    )


class Worker(threading.Thread):
    """A thread with its own database connection, closed when it is done; `result` or `error`."""

    def __init__(self, work, name):
        super().__init__(name=name, daemon=True)
        self.work, self.result, self.error = work, None, None

    def run(self):
        try:
            self.result = self.work()
        except BaseException as e:  # reported by the test, not lost in the thread
            self.error = e
        finally:
            connection.close()

    def outcome(self):
        self.join(WAIT * 2)
        assert not self.is_alive(), f"{self.name} did not finish"
        if self.error is not None:
            raise AssertionError(f"{self.name} failed: {self.error!r}") from self.error
        return self.result


def run(work, name="setup"):
    worker = Worker(work, name)
    worker.start()
    return worker.outcome()


def big_file() -> bytes:
    players = [
        {"key": f"p{i:05d}", "name": f"Player {i:05d}", "ema_id": f"{i:08d}", "country": "PL"}
        for i in range(PLAYERS)
    ]
    tables = [
        {
            "number": n + 1,
            "seats": [
                {"wind": w, "player": f"p{4 * n + k:05d}", "score": s}
                for k, (w, s) in enumerate(zip("ESWN", (45300, 30100, 25000, 19600), strict=True))
            ],
        }
        for n in range(TABLES)
    ]
    data = {
        "format": "mahjong-tournament",
        "version": 1,
        "tournament": {"name": "Big Open", "slug": "big-open", "ruleset": "ema-2012"},
        "players": players,
        "sessions": [{"number": 1, "tables": tables}],
        "penalties": [],
        "appeals": [],
    }
    return dumps(data).encode("utf-8")


@pytest.mark.long(16)
def test_a_big_import_lets_the_desk_save_results_and_check_in_meanwhile(hall_database, monkeypatch):
    def setup():
        if connection.vendor == "sqlite":  # the threads' database is the hall's, not the test's
            with connection.cursor() as cursor:
                assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        staff = f.staff()
        hall = f.tournament(slug="hall-open")
        f.seat_session(hall)
        return staff, hall

    staff, hall = run(setup)
    content = big_file()
    reading, saved = threading.Event(), threading.Event()
    read_players = Reader.read_players

    def read_players_then_let_the_desk_save(self, items):
        # The importer stops halfway through reading the file until the desk's save is done:
        # that save is made while the import runs, however fast the machine is.
        read_players(self, items)
        reading.set()
        saved.wait(WAIT)

    monkeypatch.setattr(Reader, "read_players", read_players_then_let_the_desk_save)

    def save_a_result():
        reading.wait(WAIT)
        try:
            table = Table.objects.get(session__tournament=hall, number=1)
            return f.play(table, [45300, 30100, 25000, 19600], staff["desk1"], staff["desk2"])
        finally:
            saved.set()

    importer = Worker(lambda: import_tournament(content, user=staff["director"]), "importer")
    checked_in = []

    def check_in_while_the_import_writes(sender, tournament_id, **kwargs):
        # touch() sends this inside the importer's write transaction.
        if threading.current_thread() is importer and not checked_in:
            player = Player.objects.get(tournament=hall, key="p05")
            checked_in.append(Worker(lambda: set_checked_in(player, True), "check-in"))
            checked_in[0].start()

    tournament_changed.connect(check_in_while_the_import_writes, dispatch_uid="test-big-import")
    desk = Worker(save_a_result, "result save")
    try:
        desk.start()
        importer.start()
        for worker in (desk, importer):
            worker.join(WAIT * 2)
    finally:
        tournament_changed.disconnect(dispatch_uid="test-big-import")
    desk.outcome()
    imported = importer.outcome()
    assert len(checked_in) == 1
    assert checked_in[0].outcome().checked_in

    def imported_rows():
        t = Tournament.objects.get(slug="big-open")
        return (
            t.pk,
            t.players.count(),
            Result.objects.filter(table__session__tournament=t, status="confirmed").count(),
            Player.objects.get(tournament=hall, key="p05").checked_in,
            Result.objects.get(table__session__tournament=hall).status,
        )

    assert run(imported_rows) == (imported.pk, PLAYERS, TABLES, True, Result.Status.CONFIRMED)
