"""Write a backup of one or every tournament now, or list the backups there are."""

from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from archive import backups
from core.errors import ActionRefused
from tournament.commands import tournaments, write_output


class Command(BaseCommand):
    help = (
        "Write the tournament file of each tournament (or the ones named) into the backups "
        "folder now and print where; --list shows the backups instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="SLUG")
        parser.add_argument(
            "-o", "--output", metavar="FILE", help="also copy the backup there (one tournament)"
        )
        parser.add_argument("--list", action="store_true", help="list the backups, newest first")

    def handle(self, *args, slugs, output=None, list=False, **options):
        chosen = tournaments(slugs)
        if output and len(chosen) != 1:
            raise CommandError(_("--output needs exactly one tournament."))
        for tournament in chosen:
            if list:
                for b in backups.listing(tournament.slug):
                    made = timezone.localtime(b.made_at).strftime("%Y-%m-%d %H:%M:%S")
                    self.stdout.write(
                        f"{b.path}  {made}  "
                        + _("session %(n)s") % {"n": b.session}
                        + f"  {filesizeformat(b.size)}  {b.tag}"
                    )
                continue
            try:
                made = backups.back_up_now(tournament)
            except ActionRefused as e:
                raise CommandError(e.message) from e
            self.stdout.write(str(made.path))
            if output:
                write_output(output, made.path)
                self.stdout.write(output)
