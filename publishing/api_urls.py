"""The standby desk's one address at the root: what the main desk sends it (publishing.standby).
The hall's alone: the federation server does not serve it (config/urls_hosted.py)."""

from django.urls import path

from . import views

app_name = "standby_api"

urlpatterns = [
    path("api/standby/", views.receive, name="receive"),
]
