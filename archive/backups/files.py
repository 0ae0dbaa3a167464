"""The backups folder: where a tournament's (or a club's) files go, what they are named, the
listing, pruning and the writing of one file (by a temporary file renamed, so a crash never
leaves half a file)."""

import logging
import os
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused

log = logging.getLogger(__name__)

# A club's files carry no session (-sNN): read as session 0.
NAME = re.compile(r"^(\d{8}-\d{6}-\d{6})(?:-s(\d+))?(?:-([a-z-]+))?\.json$")
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


def write_file(folder: Path, suffix: str, text: str) -> Backup:
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


def read(slug: str, name: str) -> bytes:
    return find(slug, name).path.read_bytes()
