from django.apps import AppConfig


class PublishingConfig(AppConfig):
    """The hall's side of the federation server (issue 38): where a tournament or a club rating
    is published, the public-only file of its newest state, and the background sender that
    keeps it on disk while the hall's internet is down."""

    name = "publishing"
