"""A club's seasons: a new one, its dates, closing and reopening it."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from club.models import Season
from club.services import close_season, save_season
from core.errors import ActionRefused
from core.forms import AskedForm
from core.roles import ClubRequired
from core.views import act, ask_first, show_refusal
from desk.club.forms import SeasonForm
from desk.club.mixins import ClubMixin


class SeasonEdit(ClubRequired, ClubMixin, View):
    def _season(self, pk):
        return get_object_or_404(Season, club=self.club, pk=pk) if pk else None

    def _render(self, request, form, season, status=200):
        title = _("Edit season") if season else _("New season")
        context = {"form": form, "title": title, "club": self.club}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request, club, pk=None):
        season = self._season(pk)
        initial = {}
        if season:
            initial = {"name": season.name, "start": season.start, "end": season.end}
        return self._render(request, SeasonForm(initial=initial), season)

    def post(self, request, club, pk=None):
        season = self._season(pk)
        form = SeasonForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                save_season(
                    self.club, season, data["name"], data["start"], data["end"], request.user
                )
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Season saved."))
                return redirect("desk:club", club=club)
        return self._render(request, form, season, status=400)


class SeasonClose(ClubRequired, ClubMixin, View):
    """Close a season (its games then change only with the override) or reopen it, once asked."""

    def post(self, request, club, pk):
        season = get_object_or_404(Season, club=self.club, pk=pk)
        closing = not season.closed
        if not AskedForm(request.POST).confirmed():
            if closing:
                question = _("Close the season “%(name)s”?") % {"name": season.name}
            else:
                question = _("Reopen the season “%(name)s”?") % {"name": season.name}
            return ask_first(request, question, ("next",), self.here(), club=self.club)
        return act(
            request,
            self.here(),
            lambda: close_season(season, request.user, close=closing),
            lambda s: (
                (_("Season “%(name)s” closed.") if s.closed else _("Season “%(name)s” reopened."))
                % {"name": s.name}
            ),
        )
