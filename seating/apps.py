from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeatingConfig(AppConfig):
    name = "seating"
    verbose_name = _("Seating")

    def ready(self):
        from django.db.models.signals import post_save

        from seating import keys
        from tournament.models import Session, Tournament

        # A tournament's slug or a session's number is part of its tables' place: their
        # stored short codes follow (seating.keys.place_changed).
        post_save.connect(keys.place_changed, sender=Tournament, dispatch_uid="codes-tournament")
        post_save.connect(keys.place_changed, sender=Session, dispatch_uid="codes-session")
