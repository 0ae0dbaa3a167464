from django.apps import AppConfig


class DeskConfig(AppConfig):
    """The director's and desk users' pages. No models."""

    name = "desk"
