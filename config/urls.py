"""URLs mounted by audience: visitors at the root and /t/, the desk, its printouts and its
archive under /desk/, the referee under /referee/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from core.language import switch_language
from referee.urls import moved as referee_moved

# What the hall's desk and the federation server (config/urls_hosted.py) both serve.
site = [
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
]

urlpatterns = [
    *site,
    # archive first: its "import/" would otherwise read as a tournament's address.
    path("desk/", include("archive.urls")),
    path("desk/", include("publishing.urls")),
    path("desk/", include("printing.urls")),
    path("desk/", include("desk.urls")),
    path("desk/", include(referee_moved)),
    path("referee/", include("referee.urls")),
    path("", include("federation.urls")),
    path("", include("publishing.api_urls")),
    path("", include("sheet.urls")),
    path("", include("public.urls")),
]
