"""The table's own link: what a phone at the table needs to record the table's hands.

A link is unguessable and a short code is typed in a few seconds. Both are keyed hashes of the
table's place in the tournament (slug, session, table) under the desk's secret
(`seating.codes`), so a table restored from the tournament file on the same desk keeps the link
printed on its card, and nobody can make one up without the secret. A desk with another secret
(another laptop) gives other links: print the cards again there.

The link is never stored. The short code is (`Table.code`, indexed), so that a typed code is one
lookup however many tables are in play; a desk whose secret is not the one the stored codes were
made under makes them all again before it looks one up.
"""

import hmac

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse

from seating.codes import CODE_LENGTH, place_code, place_key, secret_mark
from seating.models import Table, TableCodes
from tournament.models import Session


def _place(table: Table) -> tuple[str, int, int]:
    return table.session.tournament.slug, table.session.number, table.number


def table_key(table: Table) -> str:
    """The secret part of the table's link (22 characters, about 108 bits)."""
    return place_key(*_place(table))


def table_code(table: Table) -> str:
    """The short code typed on the sheet's start page: eight characters, shown as ABCD-EFGH."""
    return place_code(*_place(table))


def table_path(table: Table) -> str:
    """The table page's path (the link printed as the QR code, after the desk's address); the
    page is settings.TABLE_PAGE_URL's."""
    slug, session, number = _place(table)
    return reverse(
        settings.TABLE_PAGE_URL,
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


def refresh_codes() -> bool:
    """Make every table's stored code again when the desk's secret is not the one they were
    made under (a database brought from another laptop, a new secret file); True if it did.
    Not a change to any tournament: the codes are not in the tournament file nor in history."""
    mark = secret_mark()
    if TableCodes.objects.filter(secret_mark=mark).exists():
        return False
    try:
        with transaction.atomic():
            tables = list(Table.objects.select_related("session__tournament"))
            for table in tables:
                table.fill_code()
            Table.objects.bulk_update(tables, ["code"], batch_size=500)
            TableCodes.objects.update_or_create(pk=1, defaults={"secret_mark": mark})
    except IntegrityError:  # two first codes at once: the other made the same codes
        return False
    return True


def place_changed(sender, instance, created=False, update_fields=None, **kwargs):
    """A tournament or session saved (post_save): its tables' stored codes made again where
    its slug or number changed them; nothing when the save left the place as it was."""
    if created or (update_fields is not None and not {"slug", "number"} & set(update_fields)):
        return
    if isinstance(instance, Session):
        tables = Table.objects.filter(session=instance)
    else:
        tables = Table.objects.filter(session__tournament=instance)
    changed = []
    for table in tables.select_related("session__tournament"):
        code = table.code
        table.fill_code()
        if table.code != code:
            changed.append(table)
    Table.objects.bulk_update(changed, ["code"], batch_size=500)


def table_for_code(code: str) -> Table | None:
    """The table of a typed short code, among the tables of unfinished tournaments' sessions:
    one indexed lookup, however many tables are in play."""
    code = normal_code(code)
    if len(code) != CODE_LENGTH + 1:
        return None
    refresh_codes()
    tables = (
        Table.objects.select_related("session__tournament")
        .filter(code=code, session__tournament__finished_at__isnull=True)
        .order_by()
    )
    for table in tables:  # one, but for a collision of two places' codes (1 in 31**8)
        if hmac.compare_digest(table_code(table), code):
            return table
    return None
