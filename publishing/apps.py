from django.apps import AppConfig


class PublishingConfig(AppConfig):
    """The hall's side of the federation server (issue 38): where a tournament or a club rating
    is published, the public-only file of its newest state, and the background sender that
    keeps it on disk while the hall's internet is down."""

    name = "publishing"

    def ready(self):
        from django.core.signals import request_started

        from club.changes import club_changed
        from publishing import sender
        from tournament.changes import tournament_changed

        tournament_changed.connect(sender.tournament_changed, dispatch_uid="publishing")
        club_changed.connect(sender.club_changed, dispatch_uid="club-publishing")
        request_started.connect(sender.server_started, dispatch_uid="publishing-start")
