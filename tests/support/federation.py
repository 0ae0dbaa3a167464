"""What the federation server's tests share: a hall's request (docs/features/federation.md: signed,
gzipped), sent through the real /api/publish/ address."""

import gzip
import json

from django.test import Client

from archive.tournament_file import dumps
from core import signed

CHANGED_AT = "2026-11-28T14:05:09+01:00"


def packed(data) -> bytes:
    """The gzip of a file (a dict: written as the desk writes it)."""
    text = data if isinstance(data, (bytes, str)) else dumps(data)
    return gzip.compress(text.encode() if isinstance(text, str) else text)


def send(
    key: str,
    kind: str,
    revision,
    body: bytes = b"",
    *,
    changed_at=CHANGED_AT,
    secret: str | None = None,
    client: Client | None = None,
):
    """POST body (already gzipped, or b"" for a heartbeat) as a hall would, signed with the
    key's secret (or `secret`); the JSON answer is at `.json()`."""
    key_id, key_secret = signed.split_key(key)
    signature = signed.signature(secret or key_secret, kind, int(revision), body)
    headers = {
        signed.KEY: key_id,
        signed.KIND: kind,
        signed.REVISION: str(revision),
        signed.SIGNATURE: signature,
        signed.CHANGED_AT: changed_at,
    }
    if body:
        headers["Content-Encoding"] = "gzip"
    return (client or Client()).post(
        "/api/publish/", data=body, content_type="application/json", headers=headers
    )


def answer(response) -> tuple[int, dict]:
    return response.status_code, json.loads(response.content)
