"""Print a tournament's paper as an A4 PDF: protocols, seating, standings or the appeals log."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from printing import printouts
from tournament.models import Tournament

NEEDS_SESSION = ("protocols", "seating")


class Command(BaseCommand):
    help = "Write table protocols, seating charts, standings or the appeals log as a PDF."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument(
            "--what", required=True, choices=("protocols", "seating", "standings", "appeals")
        )
        parser.add_argument("--session", type=int, metavar="N", help="protocols and seating")
        parser.add_argument(
            "--filled", action="store_true", help="protocols with the confirmed results"
        )
        parser.add_argument("-o", "--output", metavar="FILE.pdf", required=True)

    def handle(self, *args, slug, what, session=None, filled=False, output, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as e:
            raise CommandError(_("No tournament with the slug %(slug)s.") % {"slug": slug}) from e
        if what in NEEDS_SESSION:
            if session is None:
                raise CommandError(_("--session: say which session to print."))
            found = tournament.sessions.filter(number=session).first()
            if found is None:
                raise CommandError(
                    _("--session: %(slug)s has no session %(number)s.")
                    % {"slug": slug, "number": session}
                )
            found.tournament = tournament
            pdf = (
                printouts.protocols_pdf(found, filled=filled)
                if what == "protocols"
                else printouts.seating_pdf(found)
            )
        elif what == "standings":
            pdf = printouts.standings_pdf(tournament)
        else:
            pdf = printouts.appeals_pdf(tournament)
        try:
            Path(output).write_bytes(pdf)
        except OSError as e:
            raise CommandError(
                _("Cannot write %(file)s: %(problem)s") % {"file": output, "problem": e}
            ) from e
        self.stdout.write(_("Wrote %(file)s.") % {"file": output})
