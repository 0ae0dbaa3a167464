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

        # The standby's accounts file (publishing.accounts): users, their groups, their grants,
        # where the desk publishes, the people registry and who of it each player and member is.
        from django.contrib.auth import get_user_model
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from club.models import Member, OfficerGrant
        from people.models import Person
        from publishing.models import Publication
        from tournament.models import Player, StaffGrant

        User = get_user_model()
        for model in (User, StaffGrant, OfficerGrant, Publication, Person, Player, Member):
            for signal in (post_save, post_delete):
                signal.connect(
                    sender.accounts_changed,
                    sender=model,
                    dispatch_uid=f"standby-accounts-{signal is post_save}-{model.__name__}",
                )
        m2m_changed.connect(
            sender.accounts_changed, sender=User.groups.through, dispatch_uid="standby-groups"
        )
