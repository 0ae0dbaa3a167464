from django.apps import AppConfig


class PublicConfig(AppConfig):
    """Visitors' pages and their page cache. No models."""

    name = "public"

    def ready(self):
        from club.changes import club_changed
        from public import cache
        from tournament.changes import tournament_changed

        tournament_changed.connect(cache.tournament_changed, dispatch_uid="public-cache")
        club_changed.connect(cache.club_changed, dispatch_uid="public-club-cache")
        from public import stored

        tournament_changed.connect(stored.tournament_changed, dispatch_uid="public-stored")
        # A tournament deleted (a restore, the federation server's mirror, a standby's take over
        # delete it and create the file's anew, with another id): its parts can never be read
        # again, and would stay on disk for good.
        from django.db.models.signals import post_delete

        from tournament.models import Tournament

        post_delete.connect(
            stored.tournament_deleted, sender=Tournament, dispatch_uid="public-stored-deleted"
        )
        stored.start()
