"""Finishing the tournament: the director's confirmation page, the finish and the reopening."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from core.errors import ActionRefused
from core.roles import DirectorRequired
from core.views import show_refusal
from desk.forms import ReopenForm
from referee.selectors import open_appeals
from scoring.selectors import unfinished
from scoring.services import finish_tournament, reopen_tournament
from tournament.mixins import TournamentMixin


def _page(request, tournament, reopen=None, refusal=None):
    """What is still open (the open appeals among it), and the button; once finished, who
    finished it and the reopening."""
    context = {
        "tournament": tournament,
        "open": None if tournament.finished else unfinished(tournament),
        "appeals": None if tournament.finished else open_appeals(tournament),
        "reopen": reopen or ReopenForm(),
        "refusal": refusal,
    }
    return render(request, "desk/finish.html", context)


class Finish(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug):
        return _page(request, self.tournament)

    def post(self, request, slug):
        try:
            finish_tournament(self.tournament, request.user)
        except ActionRefused as e:
            self.tournament.refresh_from_db()
            return _page(request, self.tournament, refusal=e.message)
        messages.success(request, _("The tournament is finished: the standings are final."))
        return redirect("desk:tournament", slug=slug)


class Reopen(DirectorRequired, TournamentMixin, View):
    def post(self, request, slug):
        form = ReopenForm(request.POST)
        if form.is_valid():
            try:
                reopen_tournament(self.tournament, request.user, form.cleaned_data["reason"])
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("The tournament is open again."))
                return redirect("desk:tournament", slug=slug)
        self.tournament.refresh_from_db()
        return _page(request, self.tournament, reopen=form)
