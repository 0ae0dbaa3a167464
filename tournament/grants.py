"""Who works on which tournament (issue 34): the grants' reads and writes. A group says what a
user does (core.roles); a StaffGrant says on which tournament. Giving a role puts the user in
its group too; taking it back deletes the grant and leaves the group (the user keeps the role on
their other tournaments). Grants are not part of the tournament file and not shown on the public
pages: they do not touch() the tournament."""

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from core.roles import TOURNAMENT_ROLES, is_director, user_roles
from tournament.models import StaffGrant, Tournament


def granted_roles(user, tournament) -> set[str]:
    """The roles `user` is given on `tournament` (one query)."""
    if not user.is_authenticated:
        return set()
    return set(
        StaffGrant.objects.filter(user=user, tournament=tournament).values_list("role", flat=True)
    )


def tournaments_of(user, roles=TOURNAMENT_ROLES):
    """The tournaments the user may open with one of `roles`: every one for the director; else
    those given to them with a role they also hold."""
    if is_director(user):
        return Tournament.objects.all()
    held = user_roles(user) & set(roles)
    return Tournament.objects.filter(grants__user=user, grants__role__in=held).distinct()


def _with_history_user(grant, by):
    grant._history_user = by  # simple-history's "who", also outside a request
    return grant


@transaction.atomic
def give_role(user, tournament: Tournament, role: str, by) -> StaffGrant:
    """Give `user` the role on `tournament` (and its group). Giving it again changes nothing."""
    if role not in TOURNAMENT_ROLES:
        raise ActionRefused(_("Choose the desk, referee or head referee role."), field="role")
    if not user.is_active:
        raise ActionRefused(_("This user is deactivated: activate them first."))
    if is_director(user):
        raise ActionRefused(_("A director works on every tournament; no role is needed."))
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    grant = StaffGrant.objects.filter(user=user, tournament=tournament, role=role).first()
    if grant is None:
        grant = _with_history_user(
            StaffGrant(user=user, tournament=tournament, role=role, granted_by=by), by
        )
        grant.save()
    return grant


@transaction.atomic
def take_role(grant: StaffGrant, by) -> None:
    """Take one role on one tournament back; the history keeps who gave and who took it."""
    _with_history_user(grant, by).delete()


def grants_of(tournament: Tournament) -> list[dict]:
    """The tournament's grants as values, to be given again to the same tournament restored
    from a file (a restore deletes the tournament's rows and creates them again)."""
    return list(
        StaffGrant.objects.filter(tournament=tournament).values(
            "user_id", "role", "granted_by_id", "granted_at"
        )
    )


def give_again(tournament: Tournament, kept: list[dict], by) -> None:
    """Inside the restore's transaction: the grants `grants_of` kept, on the new rows."""
    for values in kept:
        grant = StaffGrant(tournament=tournament, **values)
        _with_history_user(grant, by).save()
        if grant.granted_at != values["granted_at"]:  # auto_now_add: keep the first giving
            StaffGrant.objects.filter(pk=grant.pk).update(granted_at=values["granted_at"])
