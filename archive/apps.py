from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """The tournament file, the club rating's file, backups and restore: pages and commands.
    No models."""

    name = "archive"

    def ready(self):
        from archive import backups
        from club.changes import club_changed
        from tournament.changes import tournament_changed

        tournament_changed.connect(backups.tournament_changed, dispatch_uid="backups")
        club_changed.connect(backups.club_changed, dispatch_uid="club-backups")
