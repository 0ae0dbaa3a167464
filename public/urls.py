"""Public pages: no login, read-only. Tournaments under /t/, club ratings under /r/."""

from django.urls import path

from public import views as v
from public import views_clock as clock
from public import views_club as club

app_name = "public"
urlpatterns = [
    path("", v.home, name="home"),
    path("t/<slug:slug>/", v.standings, name="standings"),
    path("t/<slug:slug>/standings.json", v.standings_json, name="feed"),
    path("t/<slug:slug>/statistics.json", v.statistics_json, name="statistics"),
    path("t/<slug:slug>/find/", v.find_table, name="find"),
    path("t/<slug:slug>/clock/", clock.projector, name="clock"),
    path("t/<slug:slug>/clock.json", clock.clock_json, name="clock_json"),
    path("t/<slug:slug>/p/<str:key>/", v.player, name="player"),
    # A club rating (issue 25): its table, a person's games, the games, the feed.
    path("r/<slug:slug>/", club.rating, name="club_rating"),
    path("r/<slug:slug>/p/<int:person>/", club.person, name="club_person"),
    path("r/<slug:slug>/games/", club.games, name="club_games"),
    path("r/<slug:slug>/rating.json", club.feed, name="club_feed"),
]
