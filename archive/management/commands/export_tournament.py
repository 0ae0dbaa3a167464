"""Write a tournament as a tournament file (docs/formats.md, version 1)."""

from archive.tournament_file import dumps, export_tournament
from tournament.commands import TournamentCommand, write_output


class Command(TournamentCommand):
    help = "Write a tournament as a tournament file (JSON, UTF-8) to stdout or a file."

    def add_tournament_arguments(self, parser):
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")

    def handle_tournament(self, tournament, output=None, **options):
        text = dumps(export_tournament(tournament))
        if output:
            write_output(output, text)
        else:
            self.stdout.write(text, ending="")
