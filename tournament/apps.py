from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import tables_speed
        from .roles import ensure_groups

        post_migrate.connect(ensure_groups, sender=self)
        tables_speed.install()
