"""Downloads for the director's pages: PDF protocols, seating, standings, appeals log and the
quick-start for each role; the XLSX workbook and the EMA results sheet; a club rating's table,
games and workbook."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views import View

from club.grants import enter_club
from club.models import Club, Season
from club.selectors import current_season
from core.addresses import hall_address
from core.roles import ClubRequired, DeskRequired, TournamentStaffRequired
from printing.pdf.appeals import appeals_pdf
from printing.pdf.club import games_pdf, rating_pdf
from printing.pdf.protocols import protocols_pdf
from printing.pdf.quick_start import quick_start_pdf
from printing.pdf.seating import seating_pdf
from printing.pdf.standings import standings_pdf
from printing.xlsx.club import club_workbook_bytes
from printing.xlsx.ema import ema_results_bytes
from printing.xlsx.tournament import workbook_bytes
from tournament.mixins import SessionMixin, TournamentMixin


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class ProtocolsPdf(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        filled = request.GET.get("filled") == "1"
        name = f"{slug}-s{number}-protocols{'-filled' if filled else ''}.pdf"
        # the table cards' QR codes lead to the desk as the phones reach it
        address = hall_address(request)
        return _pdf(protocols_pdf(self.session, filled=filled, address=address), name)


class QuickStartPdf(DeskRequired, TournamentMixin, View):
    """The quick-start for the desk users, the referees and the players (issue 37), at the
    desk's address as the phones reach it; the players' page opens the table code's page."""

    def get(self, request, slug):
        pdf = quick_start_pdf(self.tournament, hall_address(request))
        return _pdf(pdf, f"{slug}-quick-start.pdf")


class SessionQuickStartPdf(DeskRequired, SessionMixin, View):
    """The quick-start with a players' page per table of the session, its QR code and code."""

    def get(self, request, slug, number):
        pdf = quick_start_pdf(self.tournament, hall_address(request), session=self.session)
        return _pdf(pdf, f"{slug}-s{number}-quick-start.pdf")


class SeatingPdf(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        return _pdf(seating_pdf(self.session), f"{slug}-s{number}-seating.pdf")


class StandingsPdf(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _pdf(standings_pdf(self.tournament), f"{slug}-standings.pdf")


class AppealsPdf(TournamentStaffRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _pdf(appeals_pdf(self.tournament), f"{slug}-appeals.pdf")


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class WorkbookXlsx(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _xlsx(workbook_bytes(self.tournament), f"{slug}.xlsx")


class EmaResultsXlsx(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _xlsx(ema_results_bytes(self.tournament), f"{slug}-ema-results.xlsx")


# --- a club rating ---------------------------------------------------------------------------


class ClubExport(ClubRequired, View):
    """A club rating's file. `?season=<pk>` a season of this club, `?season=all` all time;
    without it the rating files show the season of today (in the club's zone), else all time,
    and the games file shows every game. A season of another club, or none, is not found."""

    whole_by_default = False

    def season(self) -> Season | None:
        # looked up after the role check (dispatch), so a refusal says nothing of what exists
        self.club = get_object_or_404(Club, slug=self.kwargs["club"])
        enter_club(self, self.request, self.club)  # its officers' and the director's (issue 34)
        chosen = self.request.GET.get("season", "")
        if chosen == "all" or (not chosen and self.whole_by_default):
            return None
        if not chosen:
            with self.club.printing():
                return current_season(self.club, timezone.localdate())
        if not (chosen.isascii() and chosen.isdigit() and len(chosen) <= 18):
            raise Http404
        return get_object_or_404(Season, club=self.club, pk=int(chosen))

    def name(self, what: str, season: Season | None) -> str:
        return f"{self.club.slug}-{what}-{season.pk if season else 'all'}"


class ClubRatingPdf(ClubExport):
    def get(self, request, club):
        season = self.season()
        return _pdf(rating_pdf(self.club, season), self.name("rating", season) + ".pdf")


class ClubGamesPdf(ClubExport):
    whole_by_default = True

    def get(self, request, club):
        season = self.season()
        return _pdf(games_pdf(self.club, season), self.name("games", season) + ".pdf")


class ClubXlsx(ClubExport):
    def get(self, request, club):
        season = self.season()
        return _xlsx(club_workbook_bytes(self.club, season), self.name("rating", season) + ".xlsx")
