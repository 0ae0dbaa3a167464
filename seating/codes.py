"""The keyed hashes behind a table's link and short code, from the table's place alone.

Kept apart from `seating.keys` (which reads tables) so that the Table model computes its own
stored code with the same function that prints it: `place_code` is the one place a short code
is made.
"""

import hashlib
import hmac

from django.conf import settings

# Thirty-one letters and digits nobody misreads on paper (no 0/O, 1/I/L).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
KEY_LENGTH = 22


def digest(purpose: str, slug: str, session: int, table: int) -> bytes:
    message = f"{purpose}:{slug}:{session}:{table}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()


def letters(value: bytes, length: int) -> str:
    n = int.from_bytes(value, "big")
    out = []
    for _i in range(length):
        n, r = divmod(n, len(ALPHABET))
        out.append(ALPHABET[r])
    return "".join(out)


def place_code(slug: str, session: int, table: int) -> str:
    """The short code of the table at this place: eight characters, shown as ABCD-EFGH."""
    code = letters(digest("table-code", slug, session, table), CODE_LENGTH)
    return f"{code[:4]}-{code[4:]}"


def place_key(slug: str, session: int, table: int) -> str:
    """The secret part of the table's link (22 characters, about 108 bits)."""
    return letters(digest("table-sheet", slug, session, table), KEY_LENGTH).lower()


def secret_mark() -> str:
    """Which secret the stored codes were made under: a keyed hash that names the secret
    without telling it (the secret itself is never stored)."""
    return hmac.new(settings.SECRET_KEY.encode(), b"table-codes", hashlib.sha256).hexdigest()[:32]
