"""The federation server's own addresses: /federation/ (organisers and their keys) and
/api/publish/ (what halls send). The mirrored tournaments' pages are public.urls'."""

from django.urls import path  # noqa: F401

app_name = "federation"

urlpatterns: list = []
