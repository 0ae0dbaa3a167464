"""The views' tournament and session, looked up once from the address (every audience). A staff
page (a RoleRequiredMixin view) lets in only the users given a role on that tournament (issue 34):
see core.roles."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from core.roles import RoleRequiredMixin
from tournament.grants import granted_roles
from tournament.models import Session
from tournament.selectors import page_tournament


class TournamentMixin:
    def dispatch(self, request, *args, **kwargs):
        # read once a request: the time-zone middleware has read it already
        self.tournament = page_tournament(request, kwargs["slug"])
        if self.tournament is None:
            raise Http404(_("No such tournament on the desk."))
        if isinstance(self, RoleRequiredMixin):
            self.enter_event(request, lambda: granted_roles(request.user, self.tournament))
        return super().dispatch(request, *args, **kwargs)


class SessionMixin(TournamentMixin):
    def dispatch(self, request, *args, **kwargs):
        self.session = get_object_or_404(
            Session.objects.select_related("tournament"),
            tournament__slug=kwargs["slug"],
            number=kwargs["number"],
        )
        return super().dispatch(request, *args, **kwargs)
