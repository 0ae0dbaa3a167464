from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("Club ratings")

    def ready(self):
        from club import receivers
        from people.changes import merge_asked, people_changed

        people_changed.connect(receivers.people_changed, dispatch_uid="club-people-changed")
        merge_asked.connect(receivers.refuse_merge, dispatch_uid="club-refuse-merge")
