from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """PDFs and workbooks, their pages and commands. No models."""

    name = "printing"
