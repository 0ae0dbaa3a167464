"""The balanced plan pages: make a plan, watch the search, read its figures, apply it."""

from datetime import timedelta

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View

from core.errors import ActionRefused
from core.roles import DirectorRequired
from core.views import show_refusal
from desk.forms_seating import PlanForm
from desk.tables import (
    PlansTable,
    QualityTable,
    SeatingByTableTable,
    players_text,
    wind_columns,
)
from desk.views_seating import quality_rows
from seating.models import WINDS, SeatingPlan
from seating.plans import BUDGET, apply_plan, run_in_background, start_plan
from seating.selectors import winds_at_table
from tournament.mixins import TournamentMixin


def _stale(plan) -> bool:
    """A plan still "searching" long after its budget: the server stopped under it."""
    return plan.status == SeatingPlan.Status.RUNNING and (
        timezone.now() - plan.updated_at > timedelta(seconds=BUDGET + 60)
    )


class PlanList(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug, form=None):
        t = self.tournament
        played = t.sessions.filter(tables__results__isnull=False).order_by("-number").first()
        first = played.number + 1 if played else 1
        form = form or PlanForm(
            initial={
                "first": first,
                "last": max(first, t.planned_sessions),
                "keep_apart": t.keep_apart,
            }
        )
        context = {
            "tournament": t,
            "form": form,
            "plans": PlansTable(t.seating_plans.select_related("created_by")),
            "budget": BUDGET,
        }
        return render(request, "desk/plans.html", context)

    def post(self, request, slug):
        form = PlanForm(request.POST)
        if not form.is_valid():
            return self.get(request, slug, form=form)
        data = form.cleaned_data
        try:
            plan = start_plan(
                self.tournament,
                data["first"],
                data["last"],
                data["seed"],
                data["keep_apart"],
                request.user,
            )
        except ActionRefused as e:
            show_refusal(form, e)
            return self.get(request, slug, form=form)
        run_in_background(plan)
        return redirect("desk:plan", slug=slug, pk=plan.pk)


class PlanMixin(TournamentMixin):
    def dispatch(self, request, *args, **kwargs):
        self.plan = get_object_or_404(SeatingPlan, pk=kwargs["pk"], tournament__slug=kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)


class PlanDetail(DirectorRequired, PlanMixin, View):
    def get(self, request, slug, pk):
        plan = self.plan
        names = dict(self.tournament.players.values_list("key", "name"))
        tiles = winds_at_table(self.tournament)
        sessions = []
        for offset, tables in enumerate(plan.rounds):
            rows = []
            for number, table in enumerate(tables, start=1):
                row = {"number": number}
                for wind, key in zip(WINDS, table, strict=False):
                    row[wind] = names.get(key, key)
                seats = [(w, row[w]) for w in WINDS if w in row]
                row["players"] = players_text(seats, True, self.tournament.language)
                rows.append(row)
            table = SeatingByTableTable(rows, **wind_columns(tiles))
            sessions.append({"number": plan.first + offset, "table": table})
        sources = {
            "design": _("a stored design"),
            "search": _("the search"),
            "design+search": _("a stored design, improved by the search"),
        }
        context = {
            "tournament": self.tournament,
            "plan": plan,
            "source": sources.get(plan.figures.get("source"), ""),
            "stale": _stale(plan),
            "quality": (QualityTable(quality_rows(plan.figures, tiles)) if plan.figures else None),
            "sessions": sessions,
        }
        return render(request, "desk/plan.html", context)


class PlanStatus(DirectorRequired, PlanMixin, View):
    def get(self, request, slug, pk):
        plan = self.plan
        return JsonResponse(
            {
                "status": plan.status,
                "stale": _stale(plan),
                "step": plan.progress.get("step", 0),
                "cost": plan.progress.get("cost"),
                "seconds": round((timezone.now() - plan.created_at).total_seconds(), 1),
            }
        )


class PlanApply(DirectorRequired, PlanMixin, View):
    def post(self, request, slug, pk):
        try:
            apply_plan(self.plan, request.user)
        except ActionRefused as e:
            messages.error(request, e.message)
            return redirect("desk:plan", slug=slug, pk=pk)
        messages.success(
            request,
            _("Plan applied to sessions %(first)d–%(last)d.")
            % {"first": self.plan.first, "last": self.plan.last},
        )
        return redirect("desk:session", slug=slug, number=self.plan.first)
