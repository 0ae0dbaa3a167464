"""Backups: the tournament file (docs/formats.md) written after every change.

Every write that changes what a tournament shows calls `touch()`, and `touch()` schedules a
backup for when its transaction commits: confirmed results, seating, penalties, appeals,
check-in, the clock. A background thread writes them one at a time, so the desk never waits
for a file; changes that arrive while one is waiting are folded into it, and a tournament gets
at most one file every `DESK_BACKUP_INTERVAL` seconds (5), the last change always included
(the file is written after the change, never skipped). Each backup is
written to a temporary file and renamed, so a crash never leaves half a file.

The folder keeps the newest `DESK_BACKUPS_KEEP` files, and the newest one of every session
(the file name carries the last seated session), so the state after each session survives any
number of later changes. A write that fails (a full disk, a read-only folder) removes its
temporary file; one left by a write that was killed is removed by the next pruning once it is
TEMPORARY_STALE_SECONDS old.

A club rating's file (archive.club_file) is backed up by the same writer on every
club.changes.club_changed, into `club.<slug>/` (a dot no slug has, so no tournament's folder can
be a club's), its files named by the time alone and the newest `DESK_BACKUPS_KEEP` kept. The
writer's jobs are keyed (kind, id): ("tournament", 3), ("club", 1).
"""

import atexit
import logging
import os
import queue
import re
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from archive.club_file import export_club
from archive.tournament_file import (
    Change,
    changes,
    create_tournament,
    dumps,
    export_tournament,
    import_tournament,
    parse,
    prepare_import,
)
from club.models import Club
from core.errors import ActionRefused
from referee.models import Appeal, Incident
from scoring.models import Penalty
from scoring.selectors import last_started, seating
from tournament.changes import touch
from tournament.grants import give_again, grants_of
from tournament.models import Restore, Tournament

log = logging.getLogger(__name__)

# A club's files carry no session (-sNN): read as session 0.
NAME = re.compile(r"^(\d{8}-\d{6}-\d{6})(?:-s(\d+))?(?:-([a-z-]+))?\.json$")
TOURNAMENT, CLUB = "tournament", "club"
BEFORE_RESTORE = "before-restore"
MANUAL = "manual"
# A file is written as ".NAME.tmp" and renamed. One older than this was left by a write that
# was killed (a write takes well under a second): pruning removes it.
TEMPORARY_PREFIX, TEMPORARY_SUFFIX = ".", ".tmp"
TEMPORARY_STALE_SECONDS = 600


def folder_of(slug: str) -> Path:
    base = Path(getattr(settings, "DESK_BACKUP_DIR", settings.DATA_DIR / "backups"))
    return base / slug


def club_folder_of(slug: str) -> Path:
    return folder_of(f"club.{slug}")


def keep() -> int:
    return int(getattr(settings, "DESK_BACKUPS_KEEP", 50))


@dataclass(frozen=True)
class Backup:
    name: str
    path: Path
    made_at: datetime
    session: int
    tag: str
    size: int


def _parse_name(path: Path) -> Backup | None:
    match = NAME.match(path.name)
    if not match:
        return None
    stamp, session, tag = match.groups()
    made = datetime.strptime(stamp, "%Y%m%d-%H%M%S-%f").replace(tzinfo=UTC)
    try:
        size = path.stat().st_size
    except OSError:
        return None
    return Backup(path.name, path, made, int(session or 0), tag or "", size)


def listing(slug: str) -> list[Backup]:
    """The tournament's backups, newest first."""
    return _listing(folder_of(slug))


def club_listing(slug: str) -> list[Backup]:
    """The club rating's backups, newest first."""
    return _listing(club_folder_of(slug))


def _listing(folder: Path) -> list[Backup]:
    if not folder.is_dir():
        return []
    found = (_parse_name(p) for p in folder.iterdir())
    return sorted((b for b in found if b), key=lambda b: b.name, reverse=True)


def find(slug: str, name: str) -> Backup:
    """One backup by its file name; only names the folder listing has (no paths)."""
    for backup in listing(slug):
        if backup.name == name:
            return backup
    raise ActionRefused(_("There is no backup named %(name)s.") % {"name": name}, field="backup")


def prune(slug: str) -> list[str]:
    return _prune(folder_of(slug))


def _stale_temporaries(folder: Path) -> list[Path]:
    """Temporary files older than TEMPORARY_STALE_SECONDS: left by a write that was killed
    (a write in progress is younger, and is left alone)."""
    if not folder.is_dir():
        return []
    limit = time.time() - TEMPORARY_STALE_SECONDS
    stale = []
    for path in folder.iterdir():
        if not (path.name.startswith(TEMPORARY_PREFIX) and path.name.endswith(TEMPORARY_SUFFIX)):
            continue
        try:
            if path.stat().st_mtime < limit:
                stale.append(path)
        except OSError:
            continue  # renamed or removed meanwhile
    return stale


def _prune(folder: Path) -> list[str]:
    """Delete the backups that are neither among the newest N nor the newest of a session, and
    temporary files a killed write left behind."""
    removed = []
    for path in _stale_temporaries(folder):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            continue
        removed.append(path.name)
    backups = _listing(folder)
    kept = {b.name for b in backups[: keep()]}
    newest_of_session = {}
    for b in backups:  # newest first: the first seen of each session is its newest
        newest_of_session.setdefault(b.session, b.name)
    kept |= set(newest_of_session.values())
    # A restore's safety copy stays until the director deletes it by hand.
    kept |= {b.name for b in backups if b.tag == BEFORE_RESTORE}
    for b in backups:
        if b.name not in kept:
            b.path.unlink(missing_ok=True)
            removed.append(b.name)
    return removed


def _current_session(tournament) -> int:
    """The newest session whose play has begun, before any the first seated (0 before any
    seating): a backup is kept per session by it, so the end of each session is kept even when
    one plan seats several at once."""
    return last_started(tournament) or min(seating(tournament), default=0)


def write_backup(tournament: Tournament, tag: str = "") -> Backup:
    """Write the tournament file now; returns the new backup. Safe to call from any thread."""
    with transaction.atomic():
        # Writers bump the tournament's revision in their own transaction, so holding its row
        # (SQLite's IMMEDIATE transaction holds the whole database) keeps them out until the
        # file has been read in full: a backup is always one consistent state.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        text = dumps(export_tournament(tournament))
        session = _current_session(tournament)
    backup = _write(folder_of(tournament.slug), f"-s{session:02d}{'-' + tag if tag else ''}", text)
    _failures.pop((TOURNAMENT, tournament.pk), None)
    return backup


def write_club_backup(club: Club) -> Backup:
    """Write the club rating's file now (archive.club_file); returns the new backup."""
    with transaction.atomic():
        # As write_backup: holding the club's row keeps its writers out until the file is read.
        club = Club.objects.select_for_update().get(pk=club.pk)
        text = dumps(export_club(club))
    backup = _write(club_folder_of(club.slug), "", text)
    _failures.pop((CLUB, club.pk), None)
    return backup


def _write(folder: Path, suffix: str, text: str) -> Backup:
    """Write one file into the folder, named by the time (UTC) and `suffix`, by a temporary
    file renamed (a crash never leaves half a file); then prune the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = timezone.now().astimezone(UTC).strftime("%Y%m%d-%H%M%S-%f")
    name = f"{stamp}{suffix}.json"
    path = folder / name
    temporary = folder / f"{TEMPORARY_PREFIX}{name}{TEMPORARY_SUFFIX}"
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        # A full disk or a folder that became read-only: the half-written file goes, so failed
        # writes do not pile up (issue 34); the failure itself is the caller's to report.
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            log.warning("could not remove the temporary backup %s", temporary)
        raise
    _prune(folder)
    return _parse_name(path)


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
    connection = transaction.get_connection()
    for _savepoints, waiting, _robust in connection.run_on_commit:
        if getattr(waiting, "backup_of", None) == key:
            return

    def run():
        _submit(key)

    run.backup_of = key
    transaction.on_commit(run)


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed."""
    schedule(tournament_id)


def club_changed(sender, club_id, **kwargs) -> None:
    """Receiver of club.changes.club_changed."""
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


def read(slug: str, name: str) -> bytes:
    return find(slug, name).path.read_bytes()


def _existing(incoming: dict) -> Tournament | None:
    """The tournament the file would replace: the one with the file's slug."""
    slug = (incoming.get("tournament") or {}).get("slug")
    return Tournament.objects.filter(slug=slug).first() if slug else None


def _prepare(content, user=None):
    """(the parsed file, the tournament it replaces or None, the checked import or None, what
    it changes). The changes are those of the tables the restore creates (the reader's plan),
    not of the file as written: a table with hands and no scores becomes a result unless it is
    in play (status playing), and the page says so."""
    incoming = parse(content)
    existing = _existing(incoming)
    if existing is None:
        return incoming, None, None, []
    # The file is read and checked (outside any transaction) before anything is shown or
    # swapped: a file the restore would refuse is refused here, naming its first problem.
    ready = prepare_import(incoming, user=user, replacing=existing)
    found = changes(export_tournament(existing), incoming, ready.plan.sessions)
    return incoming, existing, ready, found


def preview(content) -> tuple[dict, Tournament | None, list]:
    """The parsed file, the tournament it would replace (None: it would be created) and what
    restoring it would change there. Raises TournamentFileError for a file that is not one, or
    that the restore would refuse."""
    incoming, existing, _ready, found = _prepare(content)
    return incoming, existing, found


def restore(content, user, backup_name: str = "") -> tuple[Tournament, Restore | None]:
    """Replace the tournament of the file's slug with the file, or create it if there is none.

    The current state is first written as a "before-restore" backup, so a restore can itself be
    undone; the swap is one transaction (a bad file changes nothing), and the restore is logged.
    """
    incoming, existing, ready, changes = _prepare(content, user)
    if existing is None:
        return import_tournament(incoming, user=user), None
    # The file is read and checked before the swap's transaction, which then only writes.
    before = write_backup(existing, tag=BEFORE_RESTORE)
    try:
        with transaction.atomic():
            kept = grants_of(existing)  # who works on it stays so (issue 34)
            Tournament.objects.select_for_update().get(pk=existing.pk).delete()
            tournament = create_tournament(ready)
            give_again(tournament, kept, user)
            record = Restore.objects.create(
                slug=tournament.slug,
                backup=backup_name or _("an uploaded file"),
                before=before.name,
                changes=len(changes),
                restored_by=user,
                restored_at=timezone.now(),
            )
            touch(tournament.pk)
    except BaseException:
        # Nothing was restored, so there is nothing to undo: no before-restore copy is kept
        # (they are kept until deleted by hand, and each failed try would leave one).
        before.path.unlink(missing_ok=True)
        raise
    return tournament, record


# --- what a restore changes, as the director reads it (the restore page and `manage.py restore`)

WHAT = {
    "tournament": gettext_lazy("Tournament"),
    "player": gettext_lazy("Player"),
    "session": gettext_lazy("Session"),
    "table": gettext_lazy("Table"),
    "seating": gettext_lazy("Seating"),
    "result": gettext_lazy("Result"),
    "hands": gettext_lazy("Hands"),
    "confirmations": gettext_lazy("Confirmations of hands"),
    "penalty": gettext_lazy("Penalty"),
    "incident": gettext_lazy("Incident"),
    "appeal": gettext_lazy("Appeal"),
}
# How many changes of one kind the restore page lists before "and N more".
PREVIEW_PER_KIND = 20
TEXT_SHOWN = 60  # characters of a note or an appeal's subject shown


def _short(value) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1] + "…"


def _place(values) -> str:
    return _("session %(session)s, table %(table)s") % values


def _record_text(kind: str, record: dict) -> str:
    """A penalty, incident or appeal in a few words: "p03 Anna Nowak, session 2, late arrival,
    5 min"."""
    parts = []
    who = record.get("appellant" if kind == "appeal" else "player")
    if who is not None:
        parts.append(f"{who} {record.get('name') or ''}".strip())
    if record.get("session") is not None:
        parts.append(_("session %(n)s") % {"n": record["session"]})
    if record.get("table") is not None:
        parts.append(_("table %(n)s") % {"n": record["table"]})
    if kind == "penalty" and record.get("kind"):
        parts.append(str(dict(Penalty.Kind.choices).get(record["kind"], record["kind"])))
    elif kind == "incident" and record.get("kind"):
        parts.append(str(dict(Incident.Kind.choices).get(record["kind"], record["kind"])))
    if record.get("minutes") is not None:
        parts.append(_("%(n)s min") % {"n": record["minutes"]})
    if record.get("amount") is not None:
        parts.append(str(record["amount"]))
    if kind == "appeal" and record.get("status"):
        parts.append(str(dict(Appeal.Status.choices).get(record["status"], record["status"])))
    for name in ("subject", "note", "text"):
        if record.get(name):
            parts.append(f"“{_short(record[name])}”")
    if record.get("substitute"):
        parts.append(_("substitute %(key)s") % {"key": record["substitute"]})
    return ", ".join(parts)


def _fields_text(values: dict) -> str:
    return "; ".join(
        f"{name}: {'–' if value in (None, '') else _short(value)}" for name, value in values.items()
    )


def _versions(values) -> str:
    now, then = values.get("version_now"), values.get("version_then")
    if now == then:
        return ""
    return _("version %(now)s here, version %(then)s in the file") % {
        "now": now if now is not None else "–",
        "then": then if then is not None else "–",
    }


def _scores(text, draft) -> str:
    return _("%(scores)s (draft)") % {"scores": text} if draft else text


def _hand_count(n) -> str:
    return ngettext("%(n)d hand", "%(n)d hands", n) % {"n": n}


def _confirmation_count(n) -> str:
    return ngettext("%(n)d confirmation", "%(n)d confirmations", n) % {"n": n}


def _in_play(hands) -> str:
    """A table with no result: in play with its hands, or not played yet."""
    if not hands:
        return ""
    return _("in play, %(hands)s, no result") % {"hands": _hand_count(hands)}


def preview_row(change: Change) -> dict:
    """One change as a row of the restore page's table: what (the kind of thing), which record,
    how it differs, and its value here now and in the file."""
    v = dict(change.values)
    only_here, only_file = _("only here: the restore removes it"), _("only in the file")
    code = change.code
    if code == "tournament":
        return {
            "what": "tournament",
            "record": v["field"],
            "change": _("changed"),
            "here": _short(v["now"]),
            "file": _short(v["then"]),
        }
    if code in ("player_added", "player_removed", "player_changed"):
        row = {"what": "player", "record": f"{v['key']} {v.get('name') or ''}".strip()}
        if code == "player_changed":
            return {
                **row,
                "change": ", ".join(v["fields"]),
                "here": _fields_text(v["now"]),
                "file": _fields_text(v["then"]),
            }
        return {**row, "change": only_file if code == "player_added" else only_here}
    if code in ("session_added", "session_removed"):
        return {
            "what": "session",
            "record": _("session %(n)s") % {"n": v["session"]},
            "change": only_file if code == "session_added" else only_here,
        }
    if code in ("table_added", "table_removed"):
        hands = _hand_count(v["hands"]) if v.get("hands") else ""
        return {
            "what": "table",
            "record": _place(v),
            "change": only_file if code == "table_added" else only_here,
            "here": hands if code == "table_removed" else "",
            "file": hands if code == "table_added" else "",
        }
    if code == "hands_changed":
        return {
            "what": "hands",
            "record": _place(v),
            "change": ngettext(
                "the first %(n)d hand is the same",
                "the first %(n)d hands are the same",
                v["same"],
            )
            % {"n": v["same"]}
            if v["same"]
            else _("differ from the first hand"),
            "here": _hand_count(v["now"]),
            "file": _hand_count(v["then"]),
        }
    if code == "seating_changed":
        return {
            "what": "seating",
            "record": _place(v),
            "change": ", ".join(v["winds"]),
            "here": _fields_text(v["now"]),
            "file": _fields_text(v["then"]),
        }
    if code == "confirmations_changed":
        return {
            "what": "confirmations",
            "record": _place(v),
            "change": _("who confirmed which hand"),
            "here": _confirmation_count(v["now"]),
            "file": _confirmation_count(v["then"]),
        }
    if code in ("result_added", "result_removed", "result_changed"):
        change = _versions(v) or {"result_added": only_file, "result_removed": only_here}.get(
            code, _("scores")
        )
        return {
            "what": "result",
            "record": _place(v),
            "change": change,
            "here": _scores(v["now"], v.get("draft_now"))
            if "now" in v
            else _in_play(v.get("hands_now")),
            "file": _scores(v["then"], v.get("draft_then"))
            if "then" in v
            else _in_play(v.get("hands_then")),
        }
    if code in ("record_added", "record_removed", "record_changed"):
        row = {"what": v["kind"], "record": _record_text(v["kind"], v["record"])}
        if code == "record_changed":
            return {
                **row,
                "change": ", ".join(v["fields"]),
                "here": _fields_text(v["now"]),
                "file": _fields_text(v["then"]),
            }
        return {**row, "change": only_file if code == "record_added" else only_here}
    return {"what": code, "record": _short(v)}


def preview_rows(changes: list, per_kind: int | None = None) -> list[dict]:
    """The restore page's rows: the changes grouped by what they change, at most `per_kind`
    (PREVIEW_PER_KIND) of each, then one row saying how many more there are."""
    per_kind = PREVIEW_PER_KIND if per_kind is None else per_kind
    groups = {}
    for change in changes:
        row = preview_row(change)
        groups.setdefault(row["what"], []).append(row)
    rows = []
    for what, group in groups.items():
        for row in group[:per_kind]:
            rows.append({"here": "", "file": "", **row, "what": WHAT.get(what, what)})
        if len(group) > per_kind:
            more = len(group) - per_kind
            rows.append(
                {
                    "what": WHAT.get(what, what),
                    "record": ngettext("and %(n)d more", "and %(n)d more", more) % {"n": more},
                    "change": "",
                    "here": "",
                    "file": "",
                    "more": True,
                }
            )
    return rows


def describe(change: Change) -> str:
    """One change as a line for `manage.py restore`."""
    row = {"here": "", "file": "", **preview_row(change)}
    text = f"{WHAT.get(row['what'], row['what'])}: {row['record']} — {row['change']}"
    if row["here"] or row["file"]:
        text += f" ({row['here'] or '–'} → {row['file'] or '–'})"
    return text
