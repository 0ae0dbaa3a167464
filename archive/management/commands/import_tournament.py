"""Create a tournament from a tournament file (docs/formats.md, version 1), or nothing."""

from django.core.management.base import BaseCommand, CommandError

from archive.tournament_file import TournamentFileError, import_tournament
from tournament.commands import acting_user, read_input


class Command(BaseCommand):
    help = (
        "Create a tournament from a tournament file and print its slug. "
        "A file with a problem is refused whole: nothing is created."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the tournament file (JSON, UTF-8); - reads stdin")
        parser.add_argument(
            "--user",
            metavar="USERNAME",
            help="record this desk user as the one who entered results without a history",
        )

    def handle(self, *args, file, user=None, **options):
        acting = acting_user(user)
        content = read_input(file)
        try:
            tournament = import_tournament(content, user=acting)
        except TournamentFileError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(tournament.slug)
