"""Write a tournament as an Excel workbook, or its EMA results sheet (printing.workbook)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from printing.workbook import ema_results_bytes, workbook_bytes
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament as one Excel workbook (standings, sessions, players, penalties, "
        "appeals), or with --ema the EMA results sheet."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument(
            "-o", "--output", metavar="FILE", required=True, help="the .xlsx file to write"
        )
        parser.add_argument(
            "--ema", action="store_true", help="write the EMA results sheet instead"
        )

    def handle(self, *args, slug, output, ema=False, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as e:
            raise CommandError(_("No tournament with the slug %(slug)s.") % {"slug": slug}) from e
        data = ema_results_bytes(tournament) if ema else workbook_bytes(tournament)
        try:
            Path(output).write_bytes(data)
        except OSError as e:
            raise CommandError(
                _("Cannot write %(file)s: %(problem)s") % {"file": output, "problem": e}
            ) from e
        self.stdout.write(_("Wrote %(file)s.") % {"file": output})
