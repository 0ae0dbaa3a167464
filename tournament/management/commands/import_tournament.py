"""Create a tournament from a tournament file (formats/README.md, version 1), or nothing."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.tournament_file import TournamentFileError, import_tournament


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
        acting = None
        if user:
            User = get_user_model()
            try:
                acting = User._default_manager.get_by_natural_key(user)
            except User.DoesNotExist as e:
                raise CommandError(_("No user named %(user)s.") % {"user": user}) from e
        if file == "-":
            import sys

            content = sys.stdin.buffer.read()
        else:
            try:
                content = Path(file).read_bytes()
            except OSError as e:
                raise CommandError(
                    _("Cannot read %(file)s: %(problem)s") % {"file": file, "problem": e}
                ) from e
        try:
            tournament = import_tournament(content, user=acting)
        except TournamentFileError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(tournament.slug)
