"""The backup writer: a tournament's (or a club's) file written now, and the background thread
that writes one after every committed change (`schedule`, the receivers of `tournament_changed`
and `club_changed`), at most one file per `DESK_BACKUP_INTERVAL`, with the last automatic backup
that failed kept for the dashboard."""

import atexit
import logging
import queue
import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.club_file import export_club
from archive.tournament_file import dumps, export_tournament
from club.models import Club
from core.commits import once_on_commit
from core.errors import ActionRefused
from core.snapshot import snapshot
from scoring.selectors import last_started, seating
from tournament.models import Tournament

from .files import MANUAL, Backup, club_folder_of, folder_of, write_file

log = logging.getLogger(__name__)

TOURNAMENT, CLUB = "tournament", "club"


def _current_session(tournament) -> int:
    """The newest session whose play has begun, before any the first seated (0 before any
    seating): a backup is kept per session by it, so the end of each session is kept even when
    one plan seats several at once."""
    return last_started(tournament) or min(seating(tournament), default=0)


def write_backup(tournament: Tournament, tag: str = "") -> Backup:
    """Write the tournament file now; returns the new backup. Safe to call from any thread."""
    with snapshot():
        # One consistent state read without holding the desk's writers (core.snapshot): at
        # 2,000 players reading the file takes a second, and holding the rows meanwhile (SQLite's
        # IMMEDIATE transaction holds the whole database) made every hand saved then wait.
        tournament = Tournament.objects.get(pk=tournament.pk)
        text = dumps(export_tournament(tournament))
        session = _current_session(tournament)
    backup = write_file(
        folder_of(tournament.slug), f"-s{session:02d}{'-' + tag if tag else ''}", text
    )
    _failures.pop((TOURNAMENT, tournament.pk), None)
    return backup


def write_club_backup(club: Club) -> Backup:
    """Write the club rating's file now (archive.club_file); returns the new backup."""
    with snapshot():  # as write_backup: one state, the writers not held
        club = Club.objects.get(pk=club.pk)
        text = dumps(export_club(club))
    backup = write_file(club_folder_of(club.slug), "", text)
    _failures.pop((CLUB, club.pk), None)
    return backup


# The background writer: one thread, one queue, at most one waiting job per tournament or club
# (a job is its key: (TOURNAMENT, id) or (CLUB, id)).
_queue: "queue.Queue[tuple[str, int]]" = queue.Queue()
_waiting: set[tuple[str, int]] = set()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def schedule(pk: int, kind: str = TOURNAMENT) -> None:
    """Back the tournament (or the club, kind CLUB) up once the current transaction has
    committed (once, however many writes in it touched it)."""
    key = (kind, pk)
    once_on_commit(("backup", *key), lambda: _submit(key))


def on_change() -> bool:
    """Whether every change is backed up (settings.DESK_BACKUP_ON_CHANGE): in the hall, yes;
    on the federation server, whose mirrors are the halls' copies, not by default."""
    return getattr(settings, "DESK_BACKUP_ON_CHANGE", True)


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed."""
    if on_change():
        schedule(tournament_id)


def club_changed(sender, club_id, **kwargs) -> None:
    """Receiver of club.changes.club_changed."""
    if on_change():
        schedule(club_id, CLUB)


def _submit(key: tuple[str, int]) -> None:
    global _thread
    if not getattr(settings, "BACKUP_THREAD", True):
        _backup(key)
        return
    with _lock:
        if key in _waiting:
            return  # the waiting job will read this change too
        _waiting.add(key)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_work, name="desk-backups", daemon=True)
            _thread.start()
            # A command that changed something (import, seat) exits only when its backup is out.
            atexit.register(wait_for_backups)
    _queue.put(key)


@dataclass(frozen=True)
class Failure:
    at: datetime
    reason: str


# (kind, id) -> the last automatic backup that failed, until one succeeds. Kept in the
# server's memory: the thread that writes the backups is the server's, and so is the dashboard
# that shows it; a failure of `manage.py backup` is the command's own error.
_failures: dict[tuple[str, int], Failure] = {}


def back_up_now(tournament: Tournament) -> Backup:
    """A backup asked for by hand (the Backups page, `manage.py backup`); a folder that cannot
    take it is refused with the reason, and kept as the last failure until one succeeds."""
    try:
        return write_backup(tournament, tag=MANUAL)
    except OSError as e:
        _failures[(TOURNAMENT, tournament.pk)] = Failure(timezone.now(), str(e))
        raise ActionRefused(_("The backup failed: %(problem)s") % {"problem": e}) from e


def failure(tournament_id: int) -> Failure | None:
    """The last backup of the tournament failed (when and why), or None."""
    return _failures.get((TOURNAMENT, tournament_id))


def _backup(key: tuple[str, int]) -> None:
    """One automatic backup; a failure is logged and kept for the dashboard, never raised: the
    change it backs up is committed, and the next change tries again."""
    kind, pk = key
    try:
        if kind == CLUB:
            club = Club.objects.filter(pk=pk).first()
            if club is not None:
                write_club_backup(club)
        else:
            tournament = Tournament.objects.filter(pk=pk).first()
            if tournament is not None:
                write_backup(tournament)
    except Exception as e:  # a full disk, a folder gone: the director must see it
        log.exception("Backup of %s %s failed", kind, pk)
        _failures[key] = Failure(timezone.now(), str(e) or type(e).__name__)


def interval() -> float:
    return float(getattr(settings, "DESK_BACKUP_INTERVAL", 5))


_last: dict[tuple[str, int], float] = {}  # job key -> time.monotonic() of its last backup


def _work() -> None:
    while True:
        key = _queue.get()
        # At most one file per interval: changes made meanwhile join this one, which waits
        # (a busy session end confirms a table every few seconds; each file costs CPU).
        wait = _last.get(key, -1e9) + interval() - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        with _lock:
            _waiting.discard(key)
        _last[key] = time.monotonic()
        try:
            close_old_connections()
            _backup(key)
        finally:
            # Hold no connection between files: nothing idles on the server (or keeps a test
            # database from being dropped).
            connections.close_all()
            _queue.task_done()


def wait_for_backups() -> None:
    """Block until every scheduled backup is written (tests, the backup command)."""
    _queue.join()
