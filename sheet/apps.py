from django.apps import AppConfig


class SheetConfig(AppConfig):
    """The table's own score sheet: the page the players at a table reach by its link or short
    code, no account. No models."""

    name = "sheet"

    def ready(self):
        from django.db.models.signals import post_delete

        from sheet import state
        from tournament.changes import tables_changed
        from tournament.models import Tournament

        # a table's state is kept by its revision: a write marks the tables it changed
        tables_changed.connect(state.tables_changed, dispatch_uid="sheet-state")
        post_delete.connect(state.tournament_deleted, sender=Tournament, dispatch_uid="sheet")
