"""The federation server's URLs (DESK_HOSTED=1, issue 38): the mirrored tournaments' and club
ratings' public pages and feeds at the root, /t/ and /r/ (the hall's own, public.urls), the
organisers' /federation/ and the halls' /api/publish/ (federation.urls), the login and the
admin. Never the desk, the referee's pages, the table pages, the archive or the printouts: a
mirror is read-only, and what is played is entered in the hall."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from core.language import switch_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", switch_language, name="language"),
    # Browsers and tools that ask for /favicon.ico without reading the page's icon link.
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("desk/favicon.svg"), permanent=True),
        name="favicon",
    ),
    path("", include("federation.urls")),
    path("", include("public.urls")),
]
