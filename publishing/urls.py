"""The hall's publishing pages, under /desk/ (mounted before desk.urls, whose addresses they do
not take)."""

from django.urls import path  # noqa: F401

app_name = "publishing"

urlpatterns: list = []
