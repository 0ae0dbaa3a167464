"""URLs split by audience: public pages at the root and /t/, the desk under /desk/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.views_language import switch_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", switch_language, name="language"),
    path("desk/", include("tournament.urls_desk")),
    path("", include("tournament.urls_public")),
]
