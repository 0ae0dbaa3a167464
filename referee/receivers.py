"""What the referee's room does when something it keeps records of changes elsewhere."""

from django.utils.translation import gettext as _

from core.errors import ActionRefused
from referee.models import Appeal


def refuse_reopen(sender, session, **kwargs):
    """Receiver of tournament.changes.reopen_asked: once an appeal has been filed against the
    session, its play stays over (the appeal window ran from its end)."""
    if Appeal.objects.filter(session=session).exists():
        raise ActionRefused(_("An appeal has been filed since: play stays over."))
