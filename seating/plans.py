"""Balanced plans: made from the database in the background, applied by the director.

The only bridge between the plan algorithm (algorithms/plan.py, no Django) and the rows: it
loads who plays and what was played, runs the search with a progress callback that the plan
page polls, keeps the result as player keys, and on "apply" writes the tables of every planned
session in one transaction.
"""

import secrets
import threading
import time

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from seating.algorithms.draw import DrawError
from seating.algorithms.plan import balanced_plan
from seating.models import SeatingChange, SeatingPlan
from seating.selectors import figures, keep_apart_values, session_rounds
from seating.services import create_tables, is_sichuan_tournament, record
from tournament.changes import touch
from tournament.models import Player, Session
from tournament.services import refuse_if_finished

BUDGET = 8.0  # seconds the search may take; a plan shows its figures whatever it reached


def plan_players(tournament) -> list[Player]:
    """Every active player, checked in or not (directors plan before check-in), and for riichi
    as many substitutes as make a multiple of four."""
    players = list(
        tournament.players.filter(status=Player.Status.ACTIVE, substitute=False).order_by("key")
    )
    if not is_sichuan_tournament(tournament):
        missing = -len(players) % 4
        subs = list(
            tournament.players.filter(status=Player.Status.ACTIVE, substitute=True).order_by(
                "-checked_in", "name"
            )[:missing]
        )
        if len(subs) < missing:
            raise ActionRefused(
                _(
                    "%(count)d active players cannot fill tables of four: register "
                    "%(missing)d more substitute(s) or players."
                )
                % {"count": len(players), "missing": missing - len(subs)}
            )
        players += subs
    return players


def check_range(tournament, first: int, last: int):
    """Sessions first..last must not have results; the sessions before first are kept."""
    if first < 1 or last < first:
        raise ActionRefused(_("Sessions: give a range such as 1–8."), field="first")
    if last - first >= 40:
        raise ActionRefused(_("Sessions: plan at most 40 sessions at once."), field="last")
    played = (
        Session.objects.filter(tournament=tournament, number__gte=first, number__lte=last)
        .filter(tables__results__isnull=False)
        .values_list("number", flat=True)
        .distinct()
    )
    if played:
        raise ActionRefused(
            _("Session %(number)d already has results: plan from the next session on.")
            % {"number": min(played)},
            field="first",
        )


def start_plan(tournament, first, last, seed=None, keep_apart=None, user=None) -> SeatingPlan:
    check_range(tournament, first, last)
    plan_players(tournament)  # refuse before starting when the field cannot be seated
    field = tournament.keep_apart if keep_apart is None else keep_apart
    return SeatingPlan.objects.create(
        tournament=tournament,
        first=first,
        last=last,
        seed=secrets.randbits(48) if seed is None else seed,
        keep_apart=field or "",
        created_by=user if user is not None and user.is_authenticated else None,
    )


def run_plan(plan_id: int, budget: float = BUDGET) -> SeatingPlan:
    """Search the plan and store it; progress lands in the row about twice a second."""
    plan = SeatingPlan.objects.select_related("tournament").get(pk=plan_id)
    tournament = plan.tournament
    try:
        players = plan_players(tournament)
        keys = [p.key for p in players]
        fixed = [t for n, t in session_rounds(tournament).items() if n < plan.first]
        last_write = [0.0]

        def progress(step, cost):
            now = time.perf_counter()
            if now - last_write[0] > 0.5:
                last_write[0] = now
                SeatingPlan.objects.filter(pk=plan.pk).update(
                    progress={"step": step, "cost": cost}, updated_at=timezone.now()
                )

        result = balanced_plan(
            keys,
            plan.last - plan.first + 1,
            fixed=fixed,
            seed=plan.seed,
            keep_apart=keep_apart_values(tournament, plan.keep_apart),
            three_player=is_sichuan_tournament(tournament),
            budget=budget,
            progress=progress,
        )
    except (ActionRefused, DrawError) as e:
        plan.status = SeatingPlan.Status.FAILED
        plan.message = getattr(e, "message", str(e))[:500]
        plan.save()
        return plan
    plan.rounds = result.rounds
    plan.figures = {
        **figures(result.quality),
        "seconds": round(result.seconds, 2),
        "steps": result.steps,
        "source": result.source,
        "fixed_sessions": len(fixed),
    }
    if result.price is not None:  # what even winds cost against the plan of fewest repeats
        plan.figures["price"] = {
            "extra_meetings": result.price.extra_meetings,
            "clashes": result.price.clashes,
            "imbalance": result.price.imbalance,
        }
    plan.progress = {"step": result.steps, "done": True}
    plan.status = SeatingPlan.Status.DONE
    plan.save()
    return plan


def run_in_background(plan: SeatingPlan):
    """The hall's laptop serves pages while the search runs; tests run it inline."""
    if not getattr(settings, "SEATING_PLAN_THREAD", True):
        run_plan(plan.pk)
        return

    def work():
        try:
            run_plan(plan.pk)
        finally:
            close_old_connections()

    threading.Thread(target=work, daemon=True, name=f"plan-{plan.pk}").start()


@transaction.atomic
def apply_plan(plan: SeatingPlan, user=None):
    """Write the planned sessions' tables: sessions are created as needed, tables without
    results are replaced; a session with results refuses the whole plan."""
    plan = SeatingPlan.objects.select_for_update().select_related("tournament").get(pk=plan.pk)
    if plan.status != SeatingPlan.Status.DONE:
        raise ActionRefused(_("Only a finished plan that is not applied yet can be applied."))
    tournament = plan.tournament
    refuse_if_finished(tournament.pk)
    check_range(tournament, plan.first, plan.last)
    by_key = {p.key: p for p in tournament.players.all()}
    missing = {k for tables in plan.rounds for t in tables for k in t} - set(by_key)
    if missing:
        raise ActionRefused(_("The players changed since the plan was made: make a new one."))
    for offset, tables in enumerate(plan.rounds):
        number = plan.first + offset
        session, _created = Session.objects.get_or_create(tournament=tournament, number=number)
        session.tables.all().delete()
        create_tables(session, [[by_key[k] for k in t] for t in tables])
        session.method = Session.Method.BALANCED
        session.seed = plan.seed
        session.save(update_fields=["method", "seed"])
        record(
            session,
            SeatingChange.Kind.PLAN,
            _("balanced plan of sessions %(first)d–%(last)d, seed %(seed)d")
            % {"first": plan.first, "last": plan.last, "seed": plan.seed},
            user,
        )
    if plan.last > tournament.planned_sessions:
        tournament.planned_sessions = plan.last
        tournament.save(update_fields=["planned_sessions"])
    plan.status = SeatingPlan.Status.APPLIED
    plan.applied_by = user if user is not None and user.is_authenticated else None
    plan.applied_at = timezone.now()
    plan.save()
    touch(tournament.pk)
    return plan
