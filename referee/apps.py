from django.apps import AppConfig


class RefereeConfig(AppConfig):
    """The referee's pages and writes: penalties, substitutes, incidents, appeals. Incidents
    and appeals are its models (penalties are scoring's)."""

    name = "referee"

    def ready(self):
        from referee import receivers
        from tournament.changes import reopen_asked

        reopen_asked.connect(receivers.refuse_reopen, dispatch_uid="referee-refuse-reopen")
