"""Who may do what. Checked on the server by the view mixins below, never only in templates.

director: everything. desk: result entry and confirmation, check-in, seating print.
referee: penalties, substitutions, incidents and appeals, never results. head referee: a referee
who also decides appeals and accepts late ones. club officer: a club rating's members, evenings
and games (issue 25); the people on the desk. public: no login, read-only pages.

A group says what a user does; since issue 34 a grant says where: desk users, referees and head
referees are given their tournaments (tournament.models.StaffGrant), club officers their club
ratings (club.models.OfficerGrant). The page of a tournament or club checks the grant for the
one in its address (`RoleRequiredMixin.enter_event`, called by tournament.mixins and the club
pages' mixin); from there on the request's roles are the ones held on that event. The director
(the group, or a superuser) needs no grant. Single confirmation, merging and splitting people
and the users page are the director's alone.
"""

from django.contrib.auth.mixins import AccessMixin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

DIRECTOR = "director"
DESK = "desk"
REFEREE = "referee"
HEAD_REFEREE = "head referee"
CLUB_OFFICER = "club officer"
GROUPS = (DIRECTOR, DESK, REFEREE, HEAD_REFEREE, CLUB_OFFICER)
TOURNAMENT_ROLES = (DESK, REFEREE, HEAD_REFEREE)  # given per tournament; CLUB_OFFICER per club
# The groups' names as the pages show them (the groups themselves keep the English names).
ROLE_NAMES = {
    DIRECTOR: _("director"),
    DESK: _("desk"),
    REFEREE: _("referee"),
    HEAD_REFEREE: _("head referee"),
    CLUB_OFFICER: _("club officer"),
}


def ensure_groups(**kwargs):
    for name in GROUPS:
        Group.objects.get_or_create(name=name)


def user_roles(user) -> set[str]:
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return set(GROUPS)
    cached = getattr(user, "_desk_roles", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._desk_roles = cached
    return cached


def is_director(user) -> bool:
    return DIRECTOR in user_roles(user)


def is_desk(user) -> bool:
    return bool(user_roles(user) & {DIRECTOR, DESK})


def is_referee(user) -> bool:
    return bool(user_roles(user) & {DIRECTOR, REFEREE, HEAD_REFEREE})


def is_head_referee(user) -> bool:
    return bool(user_roles(user) & {DIRECTOR, HEAD_REFEREE})


def is_club_officer(user) -> bool:
    return bool(user_roles(user) & {DIRECTOR, CLUB_OFFICER})


class RoleRequiredMixin(AccessMixin):
    """Anonymous users go to the login page; logged-in users without the role get 403."""

    allowed = ()

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not (user_roles(request.user) & set(self.allowed)):
            self.raise_exception = True
            return self.handle_no_permission()
        return super().dispatch(request, *args, **kwargs)

    def enter_event(self, request, granted):
        """The tournament or club of the address is known: `granted()` gives the roles the user
        is given on it. The director passes; anyone else keeps only those of their roles for
        the rest of the request (the page, its template, the services it calls), and without
        one the view allows is refused with 403."""
        user = request.user
        if is_director(user):
            return
        roles = user_roles(user) & set(granted())
        user._desk_roles = roles
        if not roles & set(self.allowed):
            raise PermissionDenied


class DirectorRequired(RoleRequiredMixin):
    allowed = (DIRECTOR,)


class DeskRequired(RoleRequiredMixin):
    allowed = (DIRECTOR, DESK)


class RefereeRequired(RoleRequiredMixin):
    allowed = (DIRECTOR, REFEREE, HEAD_REFEREE)


class ClubRequired(RoleRequiredMixin):
    allowed = (DIRECTOR, CLUB_OFFICER)


class StaffRequired(RoleRequiredMixin):
    """Anyone with a desk role: the desk home lists each one's way in."""

    allowed = (DIRECTOR, DESK, REFEREE, HEAD_REFEREE, CLUB_OFFICER)


class TournamentStaffRequired(RoleRequiredMixin):
    """A tournament's staff (not a club officer, whose role is a club rating's): the clock's
    table board, the appeals log."""

    allowed = (DIRECTOR, DESK, REFEREE, HEAD_REFEREE)
