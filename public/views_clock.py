"""The session clock for the hall: the projector page and the JSON status the phones poll."""

import json
from operator import itemgetter

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.collation import collated
from public.views import public_tournament
from scoring import selectors
from seating.models import Wind
from tournament import timekeeping as tk


def _status(tournament, number=None) -> dict:
    """The clock of session `number`, by default of the session it is now (session_now)."""
    if number is None:
        number = selectors.session_now(tournament).number
    return tk.status(tournament, number, over=selectors.session_over(tournament, number))


@require_GET
def clock_json(request, slug):
    """The clock's status with the server's time, for the projector and the phones."""
    tournament = public_tournament(request, slug)
    try:
        number = int(request.GET["session"]) if request.GET.get("session") else None
    except ValueError:
        number = None
    data = _status(tournament, number)
    leading = _leading(request)
    if leading and data["session"] is not None:
        session = tournament.sessions.get(number=data["session"])
        data["leading"] = selectors.leading_tables(session, data, leading)
        data["leading_labels"] = {
            "hands": _("hands"),
            "last": _("last hand"),
            "over": _("game over"),
        }
    response = HttpResponse(json.dumps(data), content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


def _leading(request) -> int:
    """How many of the leading tables the projector shows (`?leading=N`, at most 12)."""
    try:
        return max(0, min(12, int(request.GET.get("leading", 0))))
    except ValueError:
        return 0


@require_GET
def projector(request, slug):
    """Full screen for the hall: the clock, the rule that applies now, the seating at first."""
    tournament = public_tournament(request, slug)
    data = _status(tournament)
    seating = []
    if data["session"] is not None:
        for table, seats in sorted(selectors.session_seating(tournament, data["session"]).items()):
            for seat in seats:
                wind = "" if seat["winds_pending"] else Wind(seat["wind"]).label
                seating.append((seat["player__name"], table, wind))
        seating = collated(seating, tournament.language, itemgetter(0))
    context = {
        "tournament": tournament,
        "status": data,
        "state_label": tk.STATE_LABELS.get(data["state"], ""),
        "seating": seating,
        "leading": _leading(request),
        # the seating's columns are as wide as its longest name needs (desk.css)
        "longest": max((len(name) for name, _t, _w in seating), default=0),
    }
    return render(request, "public/clock.html", context)
