"""The desk's printouts and workbooks, under /desk/ beside the pages that link to them."""

from django.urls import path

from printing import views as v

app_name = "printing"
T = "<slug:slug>/"
S = T + "s/<int:number>/"
# A club rating's files: three segments, where a tournament's (T) are two or under "s/".
C = "club/<slug:club>/"
urlpatterns = [
    path(S + "protocols.pdf", v.ProtocolsPdf.as_view(), name="protocols_pdf"),
    path(S + "quick-start.pdf", v.SessionQuickStartPdf.as_view(), name="session_quick_start"),
    path(S + "seating.pdf", v.SeatingPdf.as_view(), name="seating_pdf"),
    path(T + "standings.pdf", v.StandingsPdf.as_view(), name="standings_pdf"),
    path(T + "appeals.pdf", v.AppealsPdf.as_view(), name="appeals_pdf"),
    path(T + "quick-start.pdf", v.QuickStartPdf.as_view(), name="quick_start"),
    path(T + "workbook.xlsx", v.WorkbookXlsx.as_view(), name="workbook"),
    path(T + "ema-results.xlsx", v.EmaResultsXlsx.as_view(), name="ema_results"),
    path(C + "rating.pdf", v.ClubRatingPdf.as_view(), name="club_rating_pdf"),
    path(C + "games.pdf", v.ClubGamesPdf.as_view(), name="club_games_pdf"),
    path(C + "rating.xlsx", v.ClubXlsx.as_view(), name="club_xlsx"),
]
