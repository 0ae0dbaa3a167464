"""What a hall's desk sends a federation server (or a standby desk), and how both sides sign it.

A publishing key is `<id>.<secret>`: the id travels in `KEY`, the secret never does. Each
request carries the kind of what it publishes (`tournament` or `club`) and the sender's
publishing revision (a number that only grows), and is signed over both and the body's digest
with HMAC-SHA256: a body cannot be replayed under another revision, kind or key. The body is
the gzip-compressed JSON file (docs/formats.md), or empty for a heartbeat ("I am here, and
this is my newest revision").

A standby desk's stream (publishing.standby) carries the whole desk: every tournament's and
club's full file, the accounts and the secret the table links are keyed by. Its bodies are
sealed as well as signed (`seal`), so that the hall's Wi-Fi never carries them in the clear.
"""

import base64
import hashlib
import hmac
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken

KEY = "X-Desk-Key"
KIND = "X-Desk-Kind"
REVISION = "X-Desk-Revision"
SIGNATURE = "X-Desk-Signature"
# The hall's time of the change the file holds (ISO 8601 with offset): the mirror's "updated".
CHANGED_AT = "X-Desk-Changed-At"
# The standby's stream alone: which tournament or club (a federation key names its own).
SLUG = "X-Desk-Slug"

KINDS = ("tournament", "club")
# The largest revision a receiver stores (PositiveBigIntegerField's, on every database).
MAX_REVISION = 2**63 - 1


@dataclass
class Answer:
    """A receiver's answer (the federation server's /api/publish/, a standby's /api/standby/):
    the status and the JSON body, which says `have` but for a key that is not one."""

    status: int
    body: dict


def revision_number(text) -> int | None:
    """The revision header's whole number from 0 to MAX_REVISION, or None."""
    try:
        number = int(text)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number <= MAX_REVISION else None


def split_key(key: str) -> tuple[str, str]:
    """(id, secret) of a key as the federation server shows it; ValueError if it is not one."""
    key_id, dot, secret = key.strip().partition(".")
    if not dot or not key_id or not secret:
        raise ValueError(key)
    return key_id, secret


def standby_kind(kind: str, slug: str) -> str:
    """What a standby's request signs as its kind: the kind and the slug (`tournament:spring`),
    so a body cannot be replayed under another tournament's name."""
    return f"{kind}:{slug}"


def signature(secret: str, kind: str, revision: int, body: bytes) -> str:
    message = f"{kind}\n{revision}\n".encode() + hashlib.sha256(body).digest()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signed_by(secret: str, kind: str, revision: int, body: bytes, given: str) -> bool:
    return hmac.compare_digest(signature(secret, kind, revision, body), given or "")


def _fernet(secret: str) -> Fernet:
    # Fernet wants 32 bytes in URL-safe base64; the pairing key's secret is any string.
    digest = hashlib.sha256(b"desk-standby-seal\n" + secret.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(secret: str, body: bytes) -> bytes:
    """The body encrypted and authenticated under the pairing key's secret: Fernet (AES-128-CBC
    with HMAC-SHA256, from the `cryptography` package)."""
    return _fernet(secret).encrypt(body)


def unseal(secret: str, sealed: bytes) -> bytes:
    """The body `seal` sealed; ValueError if it was sealed under another secret or changed."""
    try:
        return _fernet(secret).decrypt(sealed)
    except InvalidToken as e:
        raise ValueError("not sealed with this key") from e
