"""What a hall's desk sends a federation server (or a standby desk), and how both sides sign it.

A publishing key is `<id>.<secret>`: the id travels in `KEY`, the secret never does. Each
request carries the kind of what it publishes (`tournament` or `club`) and the sender's
publishing revision (a number that only grows), and is signed over both and the body's digest
with HMAC-SHA256: a body cannot be replayed under another revision, kind or key. The body is
the gzip-compressed JSON file (docs/formats.md), or empty for a heartbeat ("I am here, and
this is my newest revision").
"""

import hashlib
import hmac

KEY = "X-Desk-Key"
KIND = "X-Desk-Kind"
REVISION = "X-Desk-Revision"
SIGNATURE = "X-Desk-Signature"
# The hall's time of the change the file holds (ISO 8601 with offset): the mirror's "updated".
CHANGED_AT = "X-Desk-Changed-At"

KINDS = ("tournament", "club")


def split_key(key: str) -> tuple[str, str]:
    """(id, secret) of a key as the federation server shows it; ValueError if it is not one."""
    key_id, dot, secret = key.strip().partition(".")
    if not dot or not key_id or not secret:
        raise ValueError(key)
    return key_id, secret


def signature(secret: str, kind: str, revision: int, body: bytes) -> str:
    message = f"{kind}\n{revision}\n".encode() + hashlib.sha256(body).digest()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signed_by(secret: str, kind: str, revision: int, body: bytes, given: str) -> bool:
    return hmac.compare_digest(signature(secret, kind, revision, body), given or "")
