"""The table's own link: what a phone at the table needs to record the table's hands.

A link is unguessable and a short code is typed in a few seconds; neither is stored. Both are
keyed hashes of the table's place in the tournament (slug, session, table) under the desk's
secret, so a table restored from the tournament file on the same desk keeps the link printed on
its card, and nobody can make one up without the secret. A desk with another secret (another
laptop) gives other links: print the cards again there.
"""

import hashlib
import hmac

from django.conf import settings
from django.urls import reverse

from seating.models import Table

# Thirty-one letters and digits nobody misreads on paper (no 0/O, 1/I/L).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
KEY_LENGTH = 22


def _digest(purpose: str, slug: str, session: int, table: int) -> bytes:
    message = f"{purpose}:{slug}:{session}:{table}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()


def _letters(digest: bytes, length: int) -> str:
    n = int.from_bytes(digest, "big")
    out = []
    for _i in range(length):
        n, r = divmod(n, len(ALPHABET))
        out.append(ALPHABET[r])
    return "".join(out)


def _place(table: Table) -> tuple[str, int, int]:
    return table.session.tournament.slug, table.session.number, table.number


def table_key(table: Table) -> str:
    """The secret part of the table's link (22 characters, about 108 bits)."""
    return _letters(_digest("table-sheet", *_place(table)), KEY_LENGTH).lower()


def table_code(table: Table) -> str:
    """The short code typed on the sheet's start page: eight characters, shown as ABCD-EFGH."""
    code = _letters(_digest("table-code", *_place(table)), CODE_LENGTH)
    return f"{code[:4]}-{code[4:]}"


def table_path(table: Table) -> str:
    """The table page's path (the link printed as the QR code, after the desk's address)."""
    slug, session, number = _place(table)
    return reverse(
        "sheet:table",
        kwargs={"slug": slug, "number": session, "table": number, "key": table_key(table)},
    )


def normal_code(text: str) -> str:
    """A typed code as the desk prints it: case, spaces and dashes do not matter."""
    text = "".join(ch for ch in text.upper() if ch.isalnum())
    return f"{text[:4]}-{text[4:]}" if len(text) == CODE_LENGTH else text


def table_for_key(slug: str, session: int, number: int, key: str) -> Table | None:
    """The table the link names, if the key is its key; None otherwise (compared in constant
    time)."""
    table = (
        Table.objects.select_related("session__tournament")
        .filter(session__tournament__slug=slug, session__number=session, number=number)
        .first()
    )
    if table is None or not hmac.compare_digest(table_key(table), key):
        return None
    return table


def table_for_code(code: str) -> Table | None:
    """The table of a typed short code, among the tables of unfinished tournaments' sessions
    (a few hundred keyed hashes at most)."""
    code = normal_code(code)
    if len(code) != CODE_LENGTH + 1:
        return None
    tables = Table.objects.select_related("session__tournament").filter(
        session__tournament__finished_at__isnull=True
    )
    for table in tables:
        if hmac.compare_digest(table_code(table), code):
            return table
    return None
