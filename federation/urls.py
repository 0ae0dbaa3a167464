"""The federation server's own addresses: /federation/ (organisers and their keys),
/api/publish/ (what halls send) and /api/heard/ (when a mirror last heard from its hall). The
mirrored tournaments' pages are public.urls'."""

from django.urls import path

from . import views as v

app_name = "federation"

urlpatterns = [
    path("api/publish/", v.publish, name="publish"),
    path("api/heard/<str:kind>/<slug:slug>/", v.heard, name="heard"),
    path("federation/", v.KeyList.as_view(), name="keys"),
    path("federation/new/", v.KeyNew.as_view(), name="key_new"),
    path("federation/<int:pk>/revoke/", v.KeyRevoke.as_view(), name="key_revoke"),
]
