"""Public pages: no login, read-only."""

from django.urls import path

from public import views as v
from public import views_clock as clock

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
]
