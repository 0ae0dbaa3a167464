"""Desk pages: director and desk users, each view with its own role mixin."""

from django.urls import path

from scoring import views as scoring
from scoring import views_referee as ref
from seating import views as seating
from seating import views_plan as plans

from . import views_appeals as appeals
from . import views_backups as backup
from . import views_clock as clock
from . import views_desk as v
from . import views_print as pdf

app_name = "desk"
T = "<slug:slug>/"
S = T + "s/<int:number>/"
urlpatterns = [
    path("", v.Home.as_view(), name="home"),
    path("new/", v.TournamentCreate.as_view(), name="tournament_add"),
    path("import/", v.ImportFile.as_view(), name="import_file"),
    path(T, v.Dashboard.as_view(), name="tournament"),
    path(T + "edit/", v.TournamentEdit.as_view(), name="tournament_edit"),
    path(T + "rules/", v.RulesEdit.as_view(), name="rules"),
    path(T + "export/", v.ExportFile.as_view(), name="export_file"),
    path(T + "backups/", backup.BackupList.as_view(), name="backups"),
    path(T + "backups/<str:name>", backup.BackupDownload.as_view(), name="backup_download"),
    path(T + "backups/<str:name>/restore/", backup.BackupRestore.as_view(), name="backup_restore"),
    path(T + "players/", v.PlayerList.as_view(), name="players"),
    path(T + "players/add/", v.PlayerEdit.as_view(), name="player_add"),
    path(T + "players/<int:pk>/", v.PlayerEdit.as_view(), name="player_edit"),
    path(T + "players/import/", v.PlayerImport.as_view(), name="player_import"),
    path(T + "checkin/", v.CheckIn.as_view(), name="checkin"),
    path(T + "checkin/<int:pk>/", v.CheckInToggle.as_view(), name="checkin_toggle"),
    path(T + "sessions/add/", v.SessionAdd.as_view(), name="session_add"),
    path(T + "plans/", plans.PlanList.as_view(), name="plans"),
    path(T + "plans/<int:pk>/", plans.PlanDetail.as_view(), name="plan"),
    path(T + "plans/<int:pk>/status/", plans.PlanStatus.as_view(), name="plan_status"),
    path(T + "plans/<int:pk>/apply/", plans.PlanApply.as_view(), name="plan_apply"),
    path(S, seating.SessionDetail.as_view(), name="session"),
    path(S + "draw/", seating.SessionDraw.as_view(), name="session_draw"),
    path(S + "swiss/", seating.SessionSwiss.as_view(), name="session_swiss"),
    path(S + "seats/", seating.SeatChange.as_view(), name="seat_change"),
    path(S + "print/", seating.SeatingPrint.as_view(), name="seating_print"),
    path(S + "tables/add/", seating.TableAdd.as_view(), name="table_add"),
    path(S + "t/<int:table>/delete/", seating.TableDelete.as_view(), name="table_delete"),
    path(S + "t/<int:table>/", scoring.ResultEntry.as_view(), name="result"),
    path(S + "t/<int:table>/confirm/", scoring.ResultConfirm.as_view(), name="result_confirm"),
    path(S + "end/", ref.SessionEnd.as_view(), name="session_end"),
    path(S + "clock/", clock.ClockDesk.as_view(), name="clock"),
    path(S + "clock/control/", clock.ClockControl.as_view(), name="clock_control"),
    path(S + "clock/reset/", clock.ClockReset.as_view(), name="clock_reset"),
    path(S + "protocols.pdf", pdf.ProtocolsPdf.as_view(), name="protocols_pdf"),
    path(S + "seating.pdf", pdf.SeatingPdf.as_view(), name="seating_pdf"),
    path(T + "standings.pdf", pdf.StandingsPdf.as_view(), name="standings_pdf"),
    path(T + "appeals.pdf", pdf.AppealsPdf.as_view(), name="appeals_pdf"),
    path(T + "workbook.xlsx", pdf.WorkbookXlsx.as_view(), name="workbook"),
    path(T + "ema-results.xlsx", pdf.EmaResultsXlsx.as_view(), name="ema_results"),
    # the referee's pages
    path(T + "referee/", ref.RefereeHome.as_view(), name="referee"),
    path(S + "referee/t/<int:table>/", ref.RefereeTable.as_view(), name="referee_table"),
    path(S + "penalties/add/", ref.PenaltyAdd.as_view(), name="penalty_add"),
    path(S + "substitute/", ref.SubstituteView.as_view(), name="substitute"),
    path(S + "three-handed/", ref.ThreeHanded.as_view(), name="three_handed"),
    path(S + "incidents/add/", ref.IncidentAdd.as_view(), name="incident_add"),
    path(T + "players/<int:pk>/disqualify/", ref.Disqualify.as_view(), name="disqualify"),
    path(T + "log/", ref.RefereeLog.as_view(), name="referee_log"),
    path(T + "penalties/<int:pk>/void/", ref.PenaltyVoid.as_view(), name="penalty_void"),
    path(T + "incidents/<int:pk>/void/", ref.IncidentVoid.as_view(), name="incident_void"),
    path(T + "appeals/", appeals.AppealList.as_view(), name="appeals"),
    path(T + "appeals/new/", appeals.AppealAdd.as_view(), name="appeal_add"),
    path(T + "appeals/<int:pk>/", appeals.AppealDetail.as_view(), name="appeal"),
]
