from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """The tournament file, backups and restore: pages and commands. No models."""

    name = "archive"

    def ready(self):
        from archive import backups
        from tournament.changes import tournament_changed

        tournament_changed.connect(backups.tournament_changed, dispatch_uid="backups")
