from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self):
        from core.roles import ensure_groups

        # Sent for apps with models only: the groups come with the tournament's tables.
        post_migrate.connect(ensure_groups, sender=self)
