"""What the public pages made of a tournament revision, kept on disk so that it outlives a restart
(issue 39): the first standings page after a restart read back, not worked out again (the
standings of 2,000 players, their seating and the page's rows are most of a second).

Kept in the data folder (settings.PUBLIC_PAGE_STORE, by default DATA_DIR/public-pages), one
folder per database, tournament and revision, one JSON file per page part (`hall.once`'s key):
plain text, numbers and bytes (as base64), read back as they were written, never code (no
pickle: a file someone put there can at worst show a wrong page, not run anything).

What a part is kept by must never let another database's data be served:

- the database: its engine, name, host and port (another data folder's database, or the
  PostgreSQL server the desk was pointed at instead);
- the tournament: its id and the moment it was created, to the microsecond (a restored
  tournament file is a new tournament, created anew; a tournament of another desk's database
  copied in its place has its own moment);
- the revision, which every change bumps (tournament.changes.touch);
- the code that drew it (`_code`): a desk updated while it was down draws its pages anew.

And every change forgets the tournament's folder at once (`forget`, a receiver of
tournament_changed, in whatever process makes the change: the desk's server, a command such as
`restore`), so the store only ever holds revisions no change has followed. A database put back
from a backup while the desk was down goes back to an older revision of the same tournament, of
the same data; the revisions it then makes anew each forget the folder before anything of
theirs is kept.

At most the newest revision each tournament has is kept (an older one's files are removed when
a newer one's are written) and RENDERED_MAX parts of it (public.hall): the store stays small.
Nothing here is needed: a part not found, unreadable or of another shape is made again.
"""

import base64
import functools
import hashlib
import json
import os
import shutil
import tempfile
import threading
from importlib import metadata
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Tournament


def folder() -> Path | None:
    """The store's folder, None when off (the tests turn it off but where they try it)."""
    if not hasattr(settings, "PUBLIC_PAGE_STORE"):
        return Path(settings.DATA_DIR) / "public-pages"
    found = settings.PUBLIC_PAGE_STORE
    return Path(found) if found else None


def _database() -> str:
    """The database's identity: its engine, name, host and port."""
    s = connection.settings_dict
    named = "\0".join(str(s.get(k) or "") for k in ("ENGINE", "NAME", "HOST", "PORT"))
    return hashlib.blake2b(named.encode(), digest_size=8).hexdigest()


_SKIPPED = {".git", ".venv", "__pycache__", "node_modules", "data", "tests", "benchmarks"}
_DRAWN_FROM = {".py", ".html", ".mo", ".js", ".css"}


@functools.cache
def _code() -> str:
    """The code that draws the pages, as a digest of its files' names, sizes and times (the
    Python, the templates, the compiled translations, the scripts and styles, the static
    files' manifest) and of the packages (requirements.txt, the versions installed): a desk
    updated while it was down draws its pages anew, never serving a page of the code before
    (with its old scripts' names). Worked out once per process."""
    base = Path(settings.BASE_DIR)
    data = Path(settings.DATA_DIR).resolve()
    found = []
    for top, folders, files in os.walk(base):
        here = Path(top)
        folders[:] = sorted(
            f
            for f in folders
            if f not in _SKIPPED
            and f != "staticfiles"
            and not f.startswith(".")
            and (here / f).resolve() != data
        )
        for name in sorted(files):
            if Path(name).suffix in _DRAWN_FROM:
                try:
                    st = (here / name).stat()
                except OSError:
                    continue
                found.append(f"{(here / name).relative_to(base)}:{st.st_size}:{st.st_mtime_ns}")
    manifest = base / "staticfiles" / "staticfiles.json"
    if manifest.is_file():
        found.append(hashlib.blake2b(manifest.read_bytes(), digest_size=16).hexdigest())
    # The packages draw the pages too (django-tables2's templates, Django's translations): the
    # versions requirements.txt pins and those installed (a desk upgraded while it was down).
    for pinned in sorted(base.glob("requirements*.txt")):
        try:
            found.append(hashlib.blake2b(pinned.read_bytes(), digest_size=16).hexdigest())
        except OSError:
            continue
    found += sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    return hashlib.blake2b("\n".join(found).encode(), digest_size=8).hexdigest()


def start() -> None:
    """At the start (public.apps): the code's digest worked out in the background, not by the
    first page after a restart (a few tens of milliseconds of reading the folders)."""
    if folder() is not None:
        threading.Thread(target=_code, name="public-pages-code", daemon=True).start()


def _tournament_folder(root: Path, pk, created) -> Path:
    return root / _database() / _code() / f"{int(pk)}-{created:%Y%m%d%H%M%S%f}"


def _part_name(key) -> str:
    return hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest() + ".json"


# --- the format: JSON with each value's kind named -------------------------------------------


class _NotKept(Exception):
    """A value of a kind the store does not write: it is kept in memory only."""


def _encode(value):
    if value is None or isinstance(value, bool | int | float):
        return {"v": value}
    if isinstance(value, SafeString):
        return {"safe": str(value)}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, bytes):
        return {"bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, tuple | list):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {kind: [_encode(v) for v in value]}
    raise _NotKept


def _decode(data):
    (kind, value), *more = data.items()
    if more:
        raise ValueError("one kind per value")
    if kind == "v" and (value is None or isinstance(value, bool | int | float)):
        return value
    if kind in ("safe", "str") and isinstance(value, str):
        return mark_safe(value) if kind == "safe" else value
    if kind == "bytes" and isinstance(value, str):
        return base64.b64decode(value, validate=True)
    if kind in ("tuple", "list") and isinstance(value, list):
        items = [_decode(v) for v in value]
        return tuple(items) if kind == "tuple" else items
    raise ValueError(f"not a kept value: {kind}")


# --- reading, writing, forgetting -------------------------------------------------------------


class Place:
    """Where one tournament revision's parts are kept, or None (`place`)."""

    def __init__(self, tournament_folder: Path, revision: int):
        self.tournament_folder = tournament_folder
        self.folder = tournament_folder / str(int(revision))
        self.revision = int(revision)

    def read(self, key):
        """The part kept under `key`, or None."""
        path = self.folder / _part_name(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") != repr(key):  # (a digest's collision, however unlikely)
                return None
            return _decode(data["value"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def write(self, key, value) -> None:
        """Keep `value` under `key`, unless it is of a kind not kept or a newer revision is kept
        already (this request straddled a change); older revisions' files go."""
        try:
            data = json.dumps({"key": repr(key), "value": _encode(value)}, ensure_ascii=False)
        except _NotKept:
            return
        try:
            revisions = _revisions(self.tournament_folder)
            if any(r > self.revision for r in revisions):
                return
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            made, temporary = tempfile.mkstemp(dir=self.folder, prefix=".part-")
            with os.fdopen(made, "w", encoding="utf-8") as out:  # 0600: the desk's user alone
                out.write(data)
            os.replace(temporary, self.folder / _part_name(key))
            for r in revisions:
                if r < self.revision:
                    shutil.rmtree(self.tournament_folder / str(r), ignore_errors=True)
        except (
            OSError
        ):  # a full or read-only disk costs the next restart's first page, nothing else
            return


def _revisions(tournament_folder: Path) -> list[int]:
    try:
        return [int(p.name) for p in tournament_folder.iterdir() if p.name.isdigit()]
    except OSError:
        return []


def place(tournament) -> Place | None:
    """Where `tournament`'s parts of its revision are kept; None when the store is off or the
    tournament is gone. One query (the moment it was created)."""
    root = folder()
    if root is None:
        return None
    created = Tournament.objects.filter(pk=tournament.pk).values_list("created_at", flat=True)
    created = created.first()
    if created is None:
        return None
    return Place(_tournament_folder(root, tournament.pk, created), tournament.revision)


def forget(pk) -> None:
    """Every kept part of the tournament `pk`, whatever its revision and database, removed."""
    root = folder()
    if root is None or not root.is_dir():
        return
    for found in root.glob(f"*/*/{int(pk)}-*"):
        shutil.rmtree(found, ignore_errors=True)


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed: a revision no change has followed is
    all the store may hold (see the module's docstring)."""
    forget(tournament_id)


def tournament_deleted(sender, instance, **kwargs) -> None:
    """Receiver of post_delete for Tournament: a deleted tournament's parts, removed (whatever
    replaces it has another id, so nothing would ever read or remove them)."""
    forget(instance.pk)
