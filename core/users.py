"""The desk's user accounts (issue 34): the director adds users, gives them a password (typed or
made here and shown once), makes or unmakes directors and deactivates them, on the desk's users
page (desk.views_users), not in the admin. Which tournaments and clubs a user works on are their
rooms' grants (tournament.grants, club.grants)."""

import secrets

from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from core.roles import DIRECTOR

# A made password: letters and digits that cannot be read one for another (no 0/O, 1/l/I).
ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MADE_LENGTH = 12


def made_password() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(MADE_LENGTH))


def _checked_password(password: str, user=None) -> None:
    try:
        validate_password(password, user)
    except ValidationError as e:
        raise ActionRefused(" ".join(e.messages), field="password") from e


@transaction.atomic
def add_user(username: str, password: str | None) -> tuple[User, str | None]:
    """A new active user without a role. No password given: one is made and returned, to be
    shown once (it is stored hashed only); a given one is checked and not returned."""
    username = (username or "").strip()
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as e:
        raise ActionRefused(" ".join(e.messages), field="username") from e
    if not username or len(username) > User._meta.get_field("username").max_length:
        raise ActionRefused(_("Give a user name of 1 to 150 characters."), field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise ActionRefused(_("A user of this name exists."), field="username")
    made = None
    if not password:
        password = made = made_password()
    _checked_password(password, User(username=username))
    user = User.objects.create_user(username, password=password)
    return user, made


@transaction.atomic
def new_password(user: User) -> str:
    """A made password replaces the user's; returned to be shown once."""
    password = made_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


@transaction.atomic
def set_active(user: User, active: bool, by) -> User:
    """Deactivate (the user can no longer log in; their records and grants stay) or activate."""
    if not active and user.pk == by.pk:
        raise ActionRefused(_("You cannot deactivate yourself."))
    if not active and user.is_superuser:
        raise ActionRefused(_("The desk's first director (a superuser) stays active."))
    user.is_active = active
    user.save(update_fields=["is_active"])
    return user


@transaction.atomic
def set_director(user: User, director: bool, by) -> User:
    """Put the user in the director group (every tournament and club, this page) or take them
    out of it; nobody takes it from themselves, so the desk keeps a director."""
    group = Group.objects.get_or_create(name=DIRECTOR)[0]
    if director:
        if not user.is_active:
            raise ActionRefused(_("This user is deactivated: activate them first."))
        user.groups.add(group)
    else:
        if user.pk == by.pk:
            raise ActionRefused(_("You cannot take the director's role from yourself."))
        if user.is_superuser:
            raise ActionRefused(_("A superuser is a director whatever their groups."))
        user.groups.remove(group)
    user.__dict__.pop("_desk_roles", None)
    return user
