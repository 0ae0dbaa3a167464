"""Public pages: no login, read-only, fast when the whole hall refreshes at once."""

import copy

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from scoring import feed
from seating.models import WINDS, Wind

from .models import Tournament
from .tables import (
    FindTableTable,
    PlayerSessionsTable,
    SubstitutesTable,
    TeamStandingsTable,
    TournamentsTable,
    fmt,
    standings_table,
    substitute_rows,
)


def _tournament(slug):
    return get_object_or_404(
        Tournament.objects.only(
            "id",
            "name",
            "slug",
            "ruleset",
            "rules",
            "revision",
            "planned_sessions",
            "scope",
            "start_date",
            "venue",
        ),
        slug=slug,
    )


def _template(request, full, partial):
    """The live region alone when the page's own script asks for a refresh."""
    return partial if request.GET.get("partial") else full


@require_GET
def home(request):
    table = TournamentsTable(Tournament.objects.all())
    return render(request, "public/home.html", {"table": table})


def _standings_fragment(request, tournament) -> tuple[str, bool]:
    """The rendered standings region and whether a session is on, cached per revision.

    Rendering 400 rows is the costly part of the page, so the HTML itself is cached: the key
    holds the tournament's revision (bumped on every confirmation), the sort and the language.
    """
    sort = request.GET.get("sort", "")
    key = f"standings-html:{tournament.pk}:{tournament.revision}:{get_language()}:{sort}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    # The cached HTML serves full pages and refreshes alike: its links must not keep "partial".
    request = copy.copy(request)
    request.GET = request.GET.copy()
    request.GET.pop("partial", None)
    data = feed.standings(tournament)
    rules = tournament.rule_set()
    sessions = max(tournament.planned_sessions, data.sessions_played)
    table = standings_table(
        data, tournament, sessions, _("Game points") if rules.tiebreak == "game_points" else None
    )
    RequestConfig(request, paginate=False).configure(table)
    teams = None
    if data.teams:
        names = {r.player.key: r.player.name for r in data.rows}
        teams = TeamStandingsTable(
            [
                {
                    "rank": t.rank,
                    "team": t.team,
                    "members": ", ".join(names.get(k, k) for k in t.members),
                    "total": t.total,
                }
                for t in data.teams
            ]
        )
    live = feed.session_on(tournament, feed.current_session(tournament))
    context = {
        "tournament": tournament,
        "table": table,
        "teams": teams,
        "substitutes": SubstitutesTable(substitute_rows(tournament.slug, data.substitutes))
        if data.substitutes
        else None,
        "sessions_played": data.sessions_played,
        "live": live,
        "rules": rules,
    }
    html = render_to_string("public/_standings.html", context, request=request)
    cache.set(key, (html, live))
    return html, live


@require_GET
def standings(request, slug):
    tournament = _tournament(slug)
    html, live = _standings_fragment(request, tournament)
    if request.GET.get("partial"):
        return HttpResponse(html)
    context = {"tournament": tournament, "fragment": html, "live": live}
    return render(request, "public/standings.html", context)


@require_GET
def standings_json(request, slug):
    tournament = _tournament(slug)
    response = HttpResponse(feed.feed_json(tournament), content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"  # overlays and projectors read it from anywhere
    return response


def _opponents(seats, player_key):
    return ", ".join(
        f"{Wind(s['wind']).label}: {s['player__name']}"
        for s in seats
        if s["player__key"] != player_key
    )


@require_GET
def find_table(request, slug):
    tournament = _tournament(slug)
    query = request.GET.get("q", "").strip()
    current = feed.current_session(tournament)
    rows = []
    if query and current is not None:
        seating = feed.session_seating(tournament, current)
        needle = query.casefold()
        for table_number, seats in seating.items():
            for seat in seats:
                if needle in seat["player__name"].casefold():
                    rows.append(
                        {
                            "slug": tournament.slug,
                            "key": seat["player__key"],
                            "name": seat["player__name"],
                            "table": table_number,
                            "wind": Wind(seat["wind"]).label,
                            "opponents": _opponents(seats, seat["player__key"]),
                        }
                    )
        rows.sort(key=lambda r: r["name"])
    context = {
        "tournament": tournament,
        "query": query,
        "current": current,
        "table": FindTableTable(rows[:50]),
        "live": False,
    }
    return render(request, _template(request, "public/find.html", "public/_find.html"), context)


@require_GET
def player(request, slug, key):
    tournament = _tournament(slug)
    data = feed.standings(tournament)
    row = next((r for r in data.rows + data.substitutes if r.player.key == key), None)
    if row is None:
        raise Http404(_("No such player in this tournament."))
    seats_by_session = feed.player_tables(tournament, key)
    running = 0
    lines = []
    for line in row.sessions:
        running += line.result or 0
        seats = seats_by_session.get(line.session, [])
        lines.append(
            {
                "session": line.session,
                "table": line.table,
                "wind": Wind(line.wind).label if line.wind in WINDS else None,
                "opponents": _opponents(seats, key),
                "score": line.score,
                "place": line.place,
                "uma": line.uma,
                "penalty": line.penalty,
                "result": line.result,
                "running": round(running, 2) if isinstance(running, float) else running,
            }
        )
    current = feed.current_session(tournament)
    now = feed.player_seat(tournament, current, key)
    if now:
        now = {**now, "wind_label": Wind(now["wind"]).label}
    context = {
        "tournament": tournament,
        "row": row,
        "total": fmt(row.total),
        "table": PlayerSessionsTable(lines),
        "now": now,
        "current": current,
        "live": feed.session_on(tournament, current),
    }
    return render(request, _template(request, "public/player.html", "public/_player.html"), context)
