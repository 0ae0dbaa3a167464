"""The sender's files on disk: the newest public file of each publication, gzip-compressed, and
beside it its publishing revision, when the hall made the change it holds and the digest of the
JSON it was made of. They outlive the desk's process: a restart sends what waited.

    DATA_DIR/publishing/<kind>-<slug>.json.gz    the body exactly as sent
    DATA_DIR/publishing/<kind>-<slug>.meta.json  {"revision", "changed_at", "digest", "body"}

The standby's stream is spooled alike under DATA_DIR/publishing/standby/, and a standby desk
keeps what it received the same way under DATA_DIR/standby/<key id>/ (publishing.standby): each
function takes the folder (`where`), the federation server's by default.

Each is written to a temporary file and renamed (a crash never leaves half a file); the body
first, so a crash between the two leaves a meta whose `body` digest no longer matches, which
reads as nothing spooled (the next build writes both again)."""

import gzip
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True)
class Spooled:
    revision: int
    changed_at: str  # ISO 8601 with offset
    digest: str  # sha256 of the JSON text the body packs
    body: bytes  # gzip of the JSON text


def folder() -> Path:
    return Path(getattr(settings, "DESK_PUBLISH_DIR", None) or settings.DATA_DIR / "publishing")


def _paths(kind: str, slug: str, where: Path | None) -> tuple[Path, Path]:
    base = (where or folder()) / f"{kind}-{slug}"
    return base.with_name(base.name + ".json.gz"), base.with_name(base.name + ".meta.json")


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def pack(text: str) -> bytes:
    """The body of the JSON text: gzip, with no time in its header (the same text, the same
    bytes)."""
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


def _write(path: Path, content: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        # Readable by the desk's user alone, like the database and the secret key: the
        # standby's stream holds the accounts file.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(descriptor, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write(kind: str, slug: str, spooled: Spooled, where: Path | None = None) -> None:
    body_path, meta_path = _paths(kind, slug, where)
    body_path.parent.mkdir(parents=True, exist_ok=True)
    if not body_path.exists() or body_path.read_bytes() != spooled.body:
        _write(body_path, spooled.body)
    meta = {
        "revision": spooled.revision,
        "changed_at": spooled.changed_at,
        "digest": spooled.digest,
        "body": hashlib.sha256(spooled.body).hexdigest(),
    }
    _write(meta_path, json.dumps(meta).encode())


def read(kind: str, slug: str, where: Path | None = None) -> Spooled | None:
    """What is spooled for the publication, or None (nothing, or a pair a crash broke)."""
    body_path, meta_path = _paths(kind, slug, where)
    try:
        meta = json.loads(meta_path.read_text())
        body = body_path.read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("body") != hashlib.sha256(body).hexdigest():
        return None
    try:
        return Spooled(int(meta["revision"]), str(meta["changed_at"]), str(meta["digest"]), body)
    except (KeyError, TypeError, ValueError):
        return None


def spooled_keys(where: Path | None = None) -> list[tuple[str, str]]:
    """(kind, slug) of every publication with a file on disk."""
    found = []
    for path in sorted((where or folder()).glob("*.meta.json")):
        kind, dash, slug = path.name.removesuffix(".meta.json").partition("-")
        if dash:
            found.append((kind, slug))
    return found


def revision_on_disk(kind: str, slug: str, where: Path | None = None) -> int:
    """The revision the meta file names, even when its body does not match (a crash between
    the two writes): the next revision is made above it, never the same one again. 0 when
    there is none."""
    _body, meta_path = _paths(kind, slug, where)
    try:
        return int(json.loads(meta_path.read_text())["revision"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0
