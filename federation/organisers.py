"""Who is an organiser on the federation server: a member of the group "organisers" (or a
superuser). An organiser makes and revokes publishing keys for their own tournaments and clubs."""

from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import AccessMixin
from django.contrib.auth.models import Group
from django.db import transaction

ORGANISERS = "organisers"


def is_organiser(user) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or user.groups.filter(name=ORGANISERS).exists()


@transaction.atomic
def make_organiser(username: str, password: str | None = None):
    """The user `username` (made if there is none) in the organisers' group; `password` set
    when given. Returns (user, made)."""
    User = get_user_model()
    user, made = User._default_manager.get_or_create(username=username)
    if password:
        user.set_password(password)
    elif made:
        user.set_unusable_password()
    if not user.is_active:
        user.is_active = True
    user.save()
    group, _created = Group.objects.get_or_create(name=ORGANISERS)
    user.groups.add(group)
    return user, made


class OrganiserRequired(AccessMixin):
    """Anonymous visitors go to the login page; a user who is not an organiser gets 403."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not is_organiser(request.user):
            self.raise_exception = True
            return self.handle_no_permission()
        return super().dispatch(request, *args, **kwargs)
