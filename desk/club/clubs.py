"""The club ratings, a new one, a club's settings and its dashboard."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from club.grants import clubs_of
from club.models import Club
from club.selectors import club_counts, drafts, seasons
from club.services import save_club
from core.errors import ActionRefused
from core.roles import ClubRequired
from core.views import show_refusal
from desk.club.forms import ClubForm
from desk.club.mixins import ClubMixin
from desk.club.tables import ClubsTable, GameStatesTable, SeasonsTable


class ClubList(ClubRequired, View):
    def get(self, request):
        table = ClubsTable(clubs_of(request.user))
        return render(request, "desk/club/list.html", {"table": table})


class ClubCreate(ClubRequired, View):
    def _render(self, request, form, status=200):
        context = {"form": form, "title": _("New club rating")}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request):
        return self._render(request, ClubForm(user=request.user))

    def post(self, request):
        form = ClubForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                club = save_club(None, form.data_for_service(), request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Club rating created."))
                return redirect("desk:club", club=club.slug)
        return self._render(request, form, status=400)


class ClubEdit(ClubRequired, ClubMixin, View):
    def _render(self, request, form, status=200):
        stored = Club.objects.get(pk=self.club.pk)
        context = {"form": form, "title": _("Club settings"), "club": stored}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request, club):
        return self._render(request, ClubForm(club=self.club, user=request.user))

    def post(self, request, club):
        form = ClubForm(request.POST, club=self.club, user=request.user)
        if form.is_valid():
            try:
                saved = save_club(self.club, form.data_for_service(), request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Club settings saved; the rating is recomputed."))
                return redirect("desk:club", club=saved.slug)
        return self._render(request, form, status=400)


class ClubDashboard(ClubRequired, ClubMixin, View):
    def get(self, request, club):
        c = self.club
        waiting = drafts(c)
        all_seasons = seasons(c)
        for season in all_seasons:
            season.club = c  # the table's links, without a query a row
        context = {
            "club": c,
            "counts": club_counts(c),
            "seasons": SeasonsTable(all_seasons),
            "drafts": GameStatesTable(waiting),
            "n_drafts": len(waiting),
            "today": self.today(),
            "rules": c.rule_set(),
        }
        return render(request, "desk/club/dashboard.html", context)
