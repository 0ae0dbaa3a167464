from django.apps import AppConfig


class SheetConfig(AppConfig):
    """The table's own score sheet: the page the players at a table reach by its link or short
    code, no account. No models."""

    name = "sheet"
