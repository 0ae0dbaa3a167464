from django.apps import AppConfig


class RefereeConfig(AppConfig):
    """The referee's pages and writes: penalties, substitutes, incidents, appeals. No models:
    penalties are scoring's, incidents and appeals the tournament's."""

    name = "referee"
