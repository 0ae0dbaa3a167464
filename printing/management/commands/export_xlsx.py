"""Write a tournament as an Excel workbook (printing.xlsx.tournament), or its EMA results sheet
(printing.xlsx.ema)."""

from django.utils.translation import gettext as _

from printing.xlsx.ema import ema_results_bytes
from printing.xlsx.tournament import workbook_bytes
from tournament.commands import TournamentCommand, write_output


class Command(TournamentCommand):
    help = (
        "Write a tournament as one Excel workbook (standings, sessions, players, penalties, "
        "appeals), or with --ema the EMA results sheet."
    )

    def add_tournament_arguments(self, parser):
        parser.add_argument(
            "-o", "--output", metavar="FILE", required=True, help="the .xlsx file to write"
        )
        parser.add_argument(
            "--ema", action="store_true", help="write the EMA results sheet instead"
        )

    def handle_tournament(self, tournament, output, ema=False, **options):
        write_output(output, ema_results_bytes(tournament) if ema else workbook_bytes(tournament))
        self.stdout.write(_("Wrote %(file)s.") % {"file": output})
