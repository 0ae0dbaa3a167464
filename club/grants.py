"""Which club ratings a club officer keeps (issue 34): the grants' reads and writes. The group
says the user is an officer (core.roles); an OfficerGrant says of which clubs. The officer who
creates a club rating is given it (club.services.save_club). Giving puts the user in the club
officer group too; taking back deletes the grant and leaves the group. Grants are not part of
the club file and not shown on the public pages: they do not touch_club()."""

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club, OfficerGrant
from core.errors import ActionRefused
from core.roles import CLUB_OFFICER, RoleRequiredMixin, is_club_officer, is_director


def officer_roles(user, club) -> set[str]:
    """{CLUB_OFFICER} when `user` is given `club`, else nothing (one query)."""
    if not user.is_authenticated:
        return set()
    return {CLUB_OFFICER} if OfficerGrant.objects.filter(user=user, club=club).exists() else set()


def clubs_of(user):
    """The club ratings the user may open: every one for the director; else those given."""
    if is_director(user):
        return Club.objects.all()
    if not is_club_officer(user):
        return Club.objects.none()
    return Club.objects.filter(grants__user=user).distinct()


@transaction.atomic
def give_club(user, club: Club, by) -> OfficerGrant:
    """Make `user` an officer of `club` (and put them in the group). Again changes nothing."""
    if not user.is_active:
        raise ActionRefused(_("This user is deactivated: activate them first."))
    if is_director(user):
        raise ActionRefused(_("A director keeps every club rating; no role is needed."))
    user.groups.add(Group.objects.get_or_create(name=CLUB_OFFICER)[0])
    grant = OfficerGrant.objects.filter(user=user, club=club).first()
    if grant is None:
        grant = OfficerGrant(user=user, club=club, granted_by=by)
        grant._history_user = by  # simple-history's "who", also outside a request
        grant.save()
    return grant


def give_creator(club: Club, user) -> None:
    """Inside save_club's transaction: a club officer who creates a club rating keeps it."""
    if user is not None and user.is_authenticated and not is_director(user):
        if is_club_officer(user):
            grant = OfficerGrant(user=user, club=club, granted_by=user)
            grant._history_user = user
            grant.save()


@transaction.atomic
def take_club(grant: OfficerGrant, by) -> None:
    """Take one club back from an officer; the history keeps who gave and who took it."""
    grant._history_user = by
    grant.delete()


def enter_club(view, request, club: Club) -> None:
    """A club page's check (issue 34): a ClubRequired view lets in the director and the
    officers given this club; any other officer gets 403 (core.roles.RoleRequiredMixin)."""
    if isinstance(view, RoleRequiredMixin):
        view.enter_event(request, lambda: officer_roles(request.user, club))
