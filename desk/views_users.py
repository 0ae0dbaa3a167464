"""The users page (issue 34): the director adds users, gives and takes their roles on each
tournament and club rating, makes directors, deactivates accounts. The director's alone (the
group, not only a superuser), translated, without the admin. Every write is one service of
core.users, tournament.grants or club.grants."""

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import View

from club.grants import give_club, take_club
from core.errors import ActionRefused
from core.roles import DIRECTOR, DirectorRequired, user_roles
from core.users import add_user, new_password, set_active, set_director
from core.views import act, refuse, show_refusal
from desk.forms_users import (
    GiveClubForm,
    GiveRoleForm,
    SwitchForm,
    TakeClubForm,
    TakeRoleForm,
    UserAddForm,
)
from desk.tables_users import ClubRolesTable, TournamentRolesTable, UsersTable
from tournament.grants import give_role, take_role


class UserList(DirectorRequired, View):
    def get(self, request):
        users = User.objects.prefetch_related("groups").annotate(
            n_tournaments=Count("tournament_grants__tournament", distinct=True),
            n_clubs=Count("club_grants", distinct=True),
        )
        table = UsersTable(users.order_by("-is_active", "username"))
        return render(request, "desk/users.html", {"table": table, "form": UserAddForm()})


class UserAdd(DirectorRequired, View):
    def _render(self, request, form, status=200):
        return render(request, "desk/user_add.html", {"form": form}, status=status)

    def get(self, request):
        return self._render(request, UserAddForm())

    def post(self, request):
        form = UserAddForm(request.POST)
        if form.is_valid():
            try:
                user, made = add_user(form.cleaned_data["username"], form.cleaned_data["password"])
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(
                    request,
                    _("User %(name)s added: give them their tournaments or clubs below.")
                    % {"name": user.get_username()},
                )
                # The made password is on this answer only: never stored, never shown again.
                return _user_page(request, user, password=made)
        return self._render(request, form, status=400)


def _user_page(request, user, password=None):
    """The user's page; `password` a made one, shown on this answer only (kept by no cache)."""
    grants = user.tournament_grants.select_related("tournament", "granted_by")
    clubs = user.club_grants.select_related("club", "granted_by")
    context = {
        "shown": user,
        "shown_roles": sorted(user_roles(user)),
        "shown_director": DIRECTOR in user_roles(user),
        "password": password,
        "tournaments": TournamentRolesTable(grants.order_by("tournament__name", "role")),
        "clubs": ClubRolesTable(clubs.order_by("club__name")),
        "give_role": GiveRoleForm(),
        "give_club": GiveClubForm(),
    }
    response = render(request, "desk/user.html", context)
    if password:
        add_never_cache_headers(response)
    return response


class UserDetail(DirectorRequired, View):
    """GET: the user's roles. POST `action`: give_role, take_role, give_club, take_club,
    active, director, password."""

    def get(self, request, pk):
        return _user_page(request, get_object_or_404(User, pk=pk))

    def post(self, request, pk):
        user = get_object_or_404(User, pk=pk)
        here = reverse("desk:user", kwargs={"pk": pk})
        action = request.POST.get("action", "")
        name = {"name": user.get_username()}
        if action == "give_role":
            form = GiveRoleForm(request.POST)
            if not form.is_valid():
                return refuse(request, form, here)
            t, role = form.cleaned_data["tournament"], form.cleaned_data["role"]
            return act(
                request,
                here,
                lambda: give_role(user, t, role, request.user),
                lambda g: (
                    _("%(tournament)s: %(name)s has the role %(role)s.")
                    % {**name, "role": g.get_role_display(), "tournament": t.name}
                ),
            )
        if action == "take_role":
            form = TakeRoleForm(request.POST, user=user)
            if not form.is_valid():
                return refuse(request, form, here)
            grant = form.cleaned_data["grant"]
            return act(
                request,
                here,
                lambda: take_role(grant, request.user),
                lambda _result: (
                    _("%(tournament)s: the role %(role)s is taken back from %(name)s.")
                    % {
                        **name,
                        "role": grant.get_role_display(),
                        "tournament": grant.tournament.name,
                    }
                ),
            )
        if action == "give_club":
            form = GiveClubForm(request.POST)
            if not form.is_valid():
                return refuse(request, form, here)
            club = form.cleaned_data["club"]
            return act(
                request,
                here,
                lambda: give_club(user, club, request.user),
                lambda _grant: (
                    _("%(name)s is an officer of %(club)s.") % {**name, "club": club.name}
                ),
            )
        if action == "take_club":
            form = TakeClubForm(request.POST, user=user)
            if not form.is_valid():
                return refuse(request, form, here)
            grant = form.cleaned_data["grant"]
            return act(
                request,
                here,
                lambda: take_club(grant, request.user),
                lambda _result: (
                    _("%(name)s is no longer an officer of %(club)s.")
                    % {**name, "club": grant.club.name}
                ),
            )
        if action in ("active", "director"):
            on = SwitchForm(request.POST)
            on.is_valid()
            value = bool(on.cleaned_data.get("on"))
            if action == "active":
                done = _("%(name)s can log in again.") if value else _("%(name)s is deactivated.")
                write = set_active
            else:
                done = (
                    _("%(name)s is a director.")
                    if value
                    else _("%(name)s is no longer a director.")
                )
                write = set_director
            return act(
                request, here, lambda: write(user, value, request.user), lambda _u: done % name
            )
        if action == "password":
            if not user.is_active:
                messages.error(request, _("This user is deactivated: activate them first."))
                return redirect(here)
            password = new_password(user)
            messages.success(request, _("A new password for %(name)s.") % name)
            return _user_page(request, user, password=password)
        messages.error(request, _("Choose what to change."))
        return redirect(here)
