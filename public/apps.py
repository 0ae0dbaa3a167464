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
        stored.start()
