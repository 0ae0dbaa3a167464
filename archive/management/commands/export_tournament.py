"""Write a tournament as a tournament file (formats/README.md, version 1)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.tournament_file import dumps, export_tournament
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament as a tournament file (JSON, UTF-8) to stdout or a file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")

    def handle(self, *args, slug, output=None, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as e:
            raise CommandError(_("No tournament with the slug %(slug)s.") % {"slug": slug}) from e
        text = dumps(export_tournament(tournament))
        if output:
            try:
                Path(output).write_text(text, encoding="utf-8", newline="\n")
            except OSError as e:
                raise CommandError(
                    _("Cannot write %(file)s: %(problem)s") % {"file": output, "problem": e}
                ) from e
        else:
            self.stdout.write(text, ending="")
