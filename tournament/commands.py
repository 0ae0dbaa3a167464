"""What the desk's commands share about users."""

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils.translation import gettext as _


def acting_user(username: str | None):
    """The user a command acts for (`--user`), None when not given; a clear error if unknown."""
    if not username:
        return None
    User = get_user_model()
    try:
        return User._default_manager.get_by_natural_key(username)
    except User.DoesNotExist as e:
        raise CommandError(_("No user named %(user)s.") % {"user": username}) from e
