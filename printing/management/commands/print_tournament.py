"""Print a tournament's paper as an A4 PDF: protocols, seating, standings or the appeals log."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from printing.pdf.appeals import appeals_pdf
from printing.pdf.protocols import protocols_pdf
from printing.pdf.seating import seating_pdf
from printing.pdf.standings import standings_pdf
from tournament.commands import TournamentCommand, write_output

NEEDS_SESSION = ("protocols", "seating")


class Command(TournamentCommand):
    help = "Write table protocols, seating charts, standings or the appeals log as a PDF."

    def add_tournament_arguments(self, parser):
        parser.add_argument(
            "--what", required=True, choices=("protocols", "seating", "standings", "appeals")
        )
        parser.add_argument("--session", type=int, metavar="N", help="protocols and seating")
        parser.add_argument(
            "--filled", action="store_true", help="protocols with the confirmed results"
        )
        parser.add_argument(
            "--address",
            metavar="URL",
            help="protocols: the desk's address the tables' QR codes lead to "
            "(http://192.168.1.20:8000); without it the cards carry the short code only",
        )
        parser.add_argument("-o", "--output", metavar="FILE.pdf", required=True)

    def handle_tournament(
        self, tournament, *, what, session=None, filled=False, address=None, output, **options
    ):
        if what in NEEDS_SESSION:
            if session is None:
                raise CommandError(_("--session: say which session to print."))
            found = tournament.sessions.filter(number=session).first()
            if found is None:
                raise CommandError(
                    _("--session: %(slug)s has no session %(number)s.")
                    % {"slug": tournament.slug, "number": session}
                )
            found.tournament = tournament
            pdf = (
                protocols_pdf(found, filled=filled, address=address)
                if what == "protocols"
                else seating_pdf(found)
            )
        elif what == "standings":
            pdf = standings_pdf(tournament)
        else:
            pdf = appeals_pdf(tournament)
        write_output(output, pdf)
        self.stdout.write(_("Wrote %(file)s.") % {"file": output})
