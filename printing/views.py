"""Downloads for the director's pages: PDF protocols, seating, standings and appeals log; the
XLSX workbook and the EMA results sheet."""

from django.http import HttpResponse
from django.http.request import split_domain_port
from django.views import View

from core.management.commands.serve import lan_address
from core.roles import DeskRequired, StaffRequired
from printing import printouts
from printing.workbook import ema_results_bytes, workbook_bytes
from tournament.mixins import SessionMixin, TournamentMixin


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def hall_address(request) -> str:
    """The desk's address for the phones in the hall: as this request reached it, unless that
    is the laptop's own loopback (a director browsing http://localhost:8000, which no phone
    can open); then the LAN address `serve` announces, on the same port."""
    domain, port = split_domain_port(request.get_host())
    if domain in ("localhost", "[::1]") or domain.startswith("127."):
        return f"{request.scheme}://{lan_address()}" + (f":{port}" if port else "")
    return request.build_absolute_uri("/").rstrip("/")


class ProtocolsPdf(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        filled = request.GET.get("filled") == "1"
        name = f"{slug}-s{number}-protocols{'-filled' if filled else ''}.pdf"
        # the table cards' QR codes lead to the desk as the phones reach it
        address = hall_address(request)
        return _pdf(printouts.protocols_pdf(self.session, filled=filled, address=address), name)


class SeatingPdf(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        return _pdf(printouts.seating_pdf(self.session), f"{slug}-s{number}-seating.pdf")


class StandingsPdf(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _pdf(printouts.standings_pdf(self.tournament), f"{slug}-standings.pdf")


class AppealsPdf(StaffRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _pdf(printouts.appeals_pdf(self.tournament), f"{slug}-appeals.pdf")


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
