"""The referee's log: every penalty and incident of the tournament, filterable, where the
director voids a record with a reason (it stays in the log)."""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from core.roles import DirectorRequired, RefereeRequired
from core.views import act, refuse
from referee.forms import FindForm, VoidForm
from referee.models import Incident
from referee.services import void_incident, void_penalty
from referee.tables import IncidentTable, PenaltyTable
from scoring.models import Penalty
from scoring.selectors import penalties_with_worth
from tournament.mixins import TournamentMixin


class RefereeLog(RefereeRequired, TournamentMixin, View):
    """Every penalty and incident of the tournament, filterable; the director voids here."""

    def get(self, request, slug):
        t = self.tournament
        listed = penalties_with_worth(t)
        worth = {w.penalty.pk: w for w in listed}
        incidents = Incident.objects.filter(tournament=t).select_related(
            "session", "table", "player", "substitute", "recorded_by", "voided_by"
        )
        find = FindForm(request.GET)
        session, kind, query = find.value("session"), find.value("kind"), find.query()
        needle = find.needle()
        show_void = find.value("void")
        penalties = [w.penalty for w in reversed(listed)]  # newest first
        if session:
            penalties = [p for p in penalties if p.session.number == session]
            incidents = incidents.filter(session__number=session)
        if kind:
            penalties = [p for p in penalties if p.kind == kind]
        if not show_void:
            penalties = [p for p in penalties if p.voided_at is None]
            incidents = incidents.filter(voided_at=None)
        incidents = list(incidents)
        if needle:
            penalties = [p for p in penalties if needle.matches(p.player.name)]
            incidents = [
                i
                for i in incidents
                if any(p is not None and needle.matches(p.name) for p in (i.player, i.substitute))
            ]
        for p in penalties:
            p.void_url = reverse("referee:penalty_void", kwargs={"slug": slug, "pk": p.pk})
        for i in incidents:
            i.void_url = reverse("referee:incident_void", kwargs={"slug": slug, "pk": i.pk})
        return render(
            request,
            "referee/referee_log.html",
            {
                "tournament": t,
                "penalties": PenaltyTable(penalties, worth=worth, orderable=False),
                "incidents": IncidentTable(incidents, orderable=False),
                "sessions": t.sessions.order_by("number"),
                "kinds": Penalty.Kind.choices,
                "filters": {"session": session, "kind": kind, "q": query, "void": show_void},
            },
        )


class PenaltyVoid(DirectorRequired, TournamentMixin, View):
    def post(self, request, slug, pk):
        penalty = get_object_or_404(Penalty, session__tournament=self.tournament, pk=pk)
        return _void(
            request,
            slug,
            lambda reason: void_penalty(penalty, request.user, reason),
            _("The penalty is void; it stays in the log."),
        )


class IncidentVoid(DirectorRequired, TournamentMixin, View):
    def post(self, request, slug, pk):
        incident = get_object_or_404(Incident, tournament=self.tournament, pk=pk)
        return _void(
            request,
            slug,
            lambda reason: void_incident(incident, request.user, reason),
            _("The record is void; it stays in the log."),
        )


def _void(request, slug, action, done):
    form = VoidForm(request.POST)
    fallback = reverse("referee:log", kwargs={"slug": slug})
    if not form.is_valid():
        return refuse(request, form, fallback)
    return act(request, fallback, lambda: action(form.cleaned_data["reason"]), lambda _r: done)
