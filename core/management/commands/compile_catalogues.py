"""Compile the translation catalogues, locale/<lang>/LC_MESSAGES/django.po -> django.mo.

Run by the set-up (scripts/setup) so a fresh clone has every language with no manual step. Pure
Python (Babel), unlike Django's compilemessages, which needs GNU gettext on the machine.
"""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogues():
    for folder in settings.LOCALE_PATHS:
        yield from sorted(Path(folder).glob("*/LC_MESSAGES/*.po"))


def compile_catalogue(po: Path) -> Path:
    """Write the .mo beside `po` (through a temporary file, so a reader never sees half)."""
    with po.open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    if catalog.locale is None:  # the header's Language is empty: the folder names it
        catalog.locale = po.parent.parent.name
    mo = po.with_suffix(".mo")
    partial = mo.with_suffix(".mo.tmp")
    with partial.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)
    partial.replace(mo)
    return mo


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po to .mo) without GNU gettext."

    def handle(self, *args, **options):
        for po in catalogues():
            mo = compile_catalogue(po)
            if options["verbosity"] > 1:
                self.stdout.write(f"{mo}")
