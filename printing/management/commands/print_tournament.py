"""Print a tournament's paper as an A4 PDF: protocols, seating, standings, the appeals log or
the quick-start for each role."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from printing.pdf.appeals import appeals_pdf
from printing.pdf.protocols import protocols_pdf
from printing.pdf.quick_start import quick_start_pdf
from printing.pdf.seating import seating_pdf
from printing.pdf.standings import standings_pdf
from tournament.commands import TournamentCommand, write_output

NEEDS_SESSION = ("protocols", "seating")


class Command(TournamentCommand):
    help = (
        "Write table protocols, seating charts, standings, the appeals log or the quick-start "
        "as a PDF."
    )

    def add_tournament_arguments(self, parser):
        parser.add_argument(
            "--what",
            required=True,
            choices=("protocols", "seating", "standings", "appeals", "quick-start"),
        )
        parser.add_argument(
            "--session",
            type=int,
            metavar="N",
            help="protocols and seating; quick-start: a players' page per table of session N",
        )
        parser.add_argument(
            "--filled", action="store_true", help="protocols with the confirmed results"
        )
        parser.add_argument(
            "--address",
            metavar="URL",
            help="protocols: the desk's address the tables' QR codes lead to "
            "(http://192.168.1.20:8000); without it the cards carry the short code only; "
            "quick-start: the desk's address its pages give (required)",
        )
        parser.add_argument("-o", "--output", metavar="FILE.pdf", required=True)

    def handle_tournament(
        self, tournament, *, what, session=None, filled=False, address=None, output, **options
    ):
        if what == "quick-start":
            if not address:
                raise CommandError(
                    _("--address: say the desk's address the phones use (%(example)s).")
                    % {"example": "http://192.168.1.20:8000"}
                )
            found = None
            if session is not None:
                found = self.find_session(tournament, session)
            pdf = quick_start_pdf(tournament, address, session=found)
        elif what in NEEDS_SESSION:
            if session is None:
                raise CommandError(_("--session: say which session to print."))
            found = self.find_session(tournament, session)
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

    def find_session(self, tournament, number):
        found = tournament.sessions.filter(number=number).first()
        if found is None:
            raise CommandError(
                _("--session: %(slug)s has no session %(number)s.")
                % {"slug": tournament.slug, "number": number}
            )
        found.tournament = tournament
        return found
