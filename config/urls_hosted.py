"""The federation server's URLs (DESK_HOSTED=1, issue 38): the mirrored tournaments' and club
ratings' public pages and feeds at the root, /t/ and /r/ (the hall's own, public.urls), the
organisers' /federation/ and the halls' /api/publish/ (federation.urls), the login and the
admin. Never the desk, the referee's pages, the table pages, the archive or the printouts: a
mirror is read-only, and what is played is entered in the hall."""

from django.urls import include, path

from config.urls import site

urlpatterns = [
    *site,
    path("", include("federation.urls")),
    path("", include("public.urls")),
]
