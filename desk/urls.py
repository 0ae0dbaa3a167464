"""Desk pages: the director and desk users, each view with its own role mixin."""

from django.urls import path

from desk import views as v
from desk import views_clock as clock
from desk import views_finish as finish
from desk import views_hands as hands
from desk import views_people as people
from desk import views_plans as plans
from desk import views_results as results
from desk import views_seating as seating
from desk import views_users as users
from desk.club import clubs, evenings, games, members, rating, seasons

app_name = "desk"
T = "<slug:slug>/"
S = T + "s/<int:number>/"
C = "club/<slug:club>/"
E = C + "evening/<str:day>/"
urlpatterns = [
    path("", v.Home.as_view(), name="home"),
    path("new/", v.TournamentCreate.as_view(), name="tournament_add"),
    # Before the tournament's own addresses: no tournament may be called "people"
    # (tournament.models.RESERVED_SLUGS).
    path("people/", people.PeopleList.as_view(), name="people"),
    path("people/add/", people.PersonAdd.as_view(), name="person_add"),
    path("people/<int:pk>/", people.PersonDetail.as_view(), name="person"),
    path("people/<int:pk>/merge/", people.PersonMerge.as_view(), name="person_merge"),
    path("people/changes/<int:pk>/split/", people.PersonSplit.as_view(), name="person_split"),
    # The users and their roles (issue 34): the director's; "users" is no tournament's slug.
    path("users/", users.UserList.as_view(), name="users"),
    path("users/add/", users.UserAdd.as_view(), name="user_add"),
    path("users/<int:pk>/", users.UserDetail.as_view(), name="user"),
    # Club ratings (issue 25): before the tournaments' <slug:slug>/ patterns.
    path("club/", clubs.ClubList.as_view(), name="clubs"),
    path("club/new/", clubs.ClubCreate.as_view(), name="club_add"),
    path(C, clubs.ClubDashboard.as_view(), name="club"),
    path(C + "edit/", clubs.ClubEdit.as_view(), name="club_edit"),
    path(C + "seasons/add/", seasons.SeasonEdit.as_view(), name="club_season_add"),
    path(C + "seasons/<int:pk>/", seasons.SeasonEdit.as_view(), name="club_season_edit"),
    path(C + "seasons/<int:pk>/close/", seasons.SeasonClose.as_view(), name="club_season_close"),
    path(C + "members/", members.Members.as_view(), name="club_members"),
    path(C + "members/new/", members.MemberNew.as_view(), name="club_member_new"),
    path(C + "members/<int:pk>/", members.MemberDetail.as_view(), name="club_member"),
    path(C + "members/<int:pk>/active/", members.MemberActive.as_view(), name="club_member_active"),
    path(C + "evening/", evenings.EveningToday.as_view(), name="club_evening_today"),
    path(E, evenings.EveningPage.as_view(), name="club_evening"),
    path(E + "checkin/<int:pk>/", evenings.EveningCheckIn.as_view(), name="club_checkin"),
    path(E + "draw/", evenings.EveningDraw.as_view(), name="club_draw"),
    path(C + "games/", games.Games.as_view(), name="club_games"),
    path(C + "games/add/", games.GameAdd.as_view(), name="club_game_add"),
    path(C + "games/<int:pk>/", games.GameDetail.as_view(), name="club_game"),
    path(C + "games/<int:pk>/confirm/", games.GameConfirm.as_view(), name="club_game_confirm"),
    path(C + "games/<int:pk>/void/", games.GameVoid.as_view(), name="club_game_void"),
    path(C + "rating/", rating.RatingPage.as_view(), name="club_rating"),
    path(T, v.Dashboard.as_view(), name="tournament"),
    path(T + "edit/", v.TournamentEdit.as_view(), name="tournament_edit"),
    path(T + "rules/", v.RulesEdit.as_view(), name="rules"),
    path(T + "finish/", finish.Finish.as_view(), name="finish"),
    path(T + "reopen/", finish.Reopen.as_view(), name="reopen"),
    path(T + "players/", v.PlayerList.as_view(), name="players"),
    path(T + "players/add/", v.PlayerEdit.as_view(), name="player_add"),
    path(T + "players/<int:pk>/", v.PlayerEdit.as_view(), name="player_edit"),
    path(T + "players/import/", v.PlayerImport.as_view(), name="player_import"),
    path(T + "people/", people.PeopleMatches.as_view(), name="people_matches"),
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
    path(S + "t/<int:table>/", results.ResultEntry.as_view(), name="result"),
    path(S + "t/<int:table>/confirm/", results.ResultConfirm.as_view(), name="result_confirm"),
    path(S + "t/<int:table>/hands/", hands.HandsEntry.as_view(), name="hands"),
    path(S + "t/<int:table>/winds/", results.TableWinds.as_view(), name="table_winds"),
    path(S + "end/", results.SessionEnd.as_view(), name="session_end"),
    path(S + "end/undo/", results.SessionReopen.as_view(), name="session_reopen"),
    path(S + "clock/", clock.ClockDesk.as_view(), name="clock"),
    path(S + "clock/control/", clock.ClockControl.as_view(), name="clock_control"),
    path(S + "clock/reset/", clock.ClockReset.as_view(), name="clock_reset"),
]
