"""The hall's publishing pages, under /desk/ (mounted before desk.urls, whose addresses they do
not take: /desk/club/<club>/ is a club's dashboard, also for a club whose slug is "publish")."""

from django.urls import path, re_path

from . import views

app_name = "publishing"

urlpatterns = [
    path("standby/", views.StandbyPage.as_view(), name="standby"),
    path("club/<slug:club>/publish/", views.ClubPublish.as_view(), name="club"),
    re_path(
        r"^(?!club/)(?P<slug>[-a-zA-Z0-9_]+)/publish/$",
        views.TournamentPublish.as_view(),
        name="tournament",
    ),
]
