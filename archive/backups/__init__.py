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

The package by job: `files` (the folder: names, listing, pruning, writing one file), `writer`
(a backup now, and the background thread after every change), `restoring` (a file put in the
tournament's place) and `restore_rows` (what a restore changes, in words). Callers use the names
published here.
"""

from .files import (
    BEFORE_RESTORE,
    MANUAL,
    TEMPORARY_STALE_SECONDS,
    Backup,
    club_folder_of,
    club_listing,
    find,
    folder_of,
    keep,
    listing,
    prune,
    read,
)
from .restore_rows import PREVIEW_PER_KIND, WHAT, describe, preview_row, preview_rows
from .restoring import preview, restore
from .writer import (
    CLUB,
    TOURNAMENT,
    Failure,
    back_up_now,
    club_changed,
    failure,
    interval,
    schedule,
    tournament_changed,
    wait_for_backups,
    write_backup,
    write_club_backup,
)

__all__ = [
    "BEFORE_RESTORE",
    "CLUB",
    "MANUAL",
    "PREVIEW_PER_KIND",
    "TEMPORARY_STALE_SECONDS",
    "TOURNAMENT",
    "WHAT",
    "Backup",
    "Failure",
    "back_up_now",
    "club_changed",
    "club_folder_of",
    "club_listing",
    "describe",
    "failure",
    "find",
    "folder_of",
    "interval",
    "keep",
    "listing",
    "preview",
    "preview_row",
    "preview_rows",
    "prune",
    "read",
    "restore",
    "schedule",
    "tournament_changed",
    "wait_for_backups",
    "write_backup",
    "write_club_backup",
]
