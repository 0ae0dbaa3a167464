"""Public pages: no login, read-only, fast when the whole hall refreshes at once."""

import copy
import uuid
from operator import itemgetter

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from core.collation import collated
from core.forms import SearchForm
from core.search import Needle
from core.tables import fmt, isolated_names, isolated_seats
from mahjong.units import placement_label
from public.cache import (
    anonymous,
    diffed_region,
    drawn_once,
    is_region_refresh,
    keep_by_version,
    keep_region,
    region_answer,
)
from public.hall import digest, kept_hall, once, tournament_hall
from public.tables import (
    FindTableTable,
    PlayerSessionsTable,
    SubstitutesTable,
    TeamStandingsTable,
    TopStandingsTable,
    hands_table,
    standings_table,
    substitute_rows,
    top_rows,
)
from scoring import feed
from seating.models import WINDS, Wind
from tournament.models import Tournament
from tournament.tables import TournamentsTable

_PAGE_FIELDS = (
    "id",
    "name",
    "slug",
    "ruleset",
    "rules",
    "revision",
    "seating_revision",  # what the seating and the player list are kept by (core.kept)
    "planned_sessions",
    "scope",
    "start_date",
    "venue",
    "language",  # names are listed in its order (core.collation)
    "release_by_session",  # which sessions' results show (selectors.released_sessions)
    "finished_at",  # the pages say "Final standings"
)


def public_tournament(request, slug):
    """The tournament with what the public pages show of it (visitors' repeat requests are
    answered before this view, by public.cache). When the cache has just read its
    revision, the one kept with that revision's Hall (public.hall), if this process has it:
    no query."""
    found = getattr(request, "public_revision", None)
    hall = kept_hall(found) if found is not None else None
    if hall is not None and hall.tournament.slug == slug:
        return hall.tournament
    return get_object_or_404(Tournament.objects.only(*_PAGE_FIELDS), slug=slug)


def _template(request, full, partial):
    """The live region alone when the page's own script asks for a refresh."""
    return partial if request.GET.get("partial") else full


@require_GET
def home(request):
    table = TournamentsTable(Tournament.objects.all())
    return render(request, "public/home.html", {"table": table})


def _standings_fragment(request, tournament, hall) -> tuple[str, bool]:
    """The rendered standings region and whether a session is on, made once per revision.

    Rendering 400 rows is the costly part of the page, so the HTML itself is kept: per
    revision (bumped on every confirmation), sort and language.
    """
    key = ("standings", get_language(), request.GET.get("sort", ""))
    return once(hall, key, lambda: (_render_standings(request, tournament, hall), hall.live))


def _render_standings(request, tournament, hall) -> str:
    # The kept HTML serves full pages and refreshes alike: its links must not keep "partial".
    request = copy.copy(request)
    request.GET = request.GET.copy()
    request.GET.pop("partial", None)
    data = hall.standings
    rules = tournament.rule_set()
    sessions = max(tournament.planned_sessions, data.sessions_played)
    label = _("Game points") if rules.tiebreak == "game_points" else None
    table = standings_table(data, tournament, sessions, label, seated=hall.current)
    RequestConfig(request, paginate=False).configure(table)
    teams = None
    if data.teams:
        names = {r.player.key: r.player.name for r in data.rows}
        teams = TeamStandingsTable(
            [
                {
                    "rank": t.rank,
                    "team": t.team,
                    "members": isolated_names(names.get(k, k) for k in t.members),
                    "total": t.total,
                }
                for t in data.teams
            ]
        )
    context = {
        "tournament": tournament,
        "table": table,
        "teams": teams,
        "substitutes": SubstitutesTable(substitute_rows(tournament.slug, data.substitutes))
        if data.substitutes
        else None,
        "sessions_played": data.sessions_played,
        "live": hall.live,
        "rules": rules,
        "highlights": _highlights(tournament, hall.hands),
    }
    return render_to_string("public/_standings.html", context, request=request)


def _html(template: str, **params) -> str:
    """A translated %-template filled with params, both escaped (a name may hold "<")."""
    escaped = {k: conditional_escape(v) for k, v in params.items()}
    return mark_safe(conditional_escape(template) % escaped)


def _highlights(tournament, hands) -> list[str]:
    """The tournament's highlights from its hands, one line each (HTML); none without hands."""
    if not hands:
        return []

    def link(key):
        url = reverse("public:player", args=[tournament.slug, key])
        return format_html('<a href="{}">{}</a>', url, hands.players[key].name)

    lines = []
    for h in hands.largest:
        where = _("session %(session)s, table %(table)s, hand %(hand)s") % {
            "session": h.session,
            "table": h.table,
            "hand": h.hand,
        }
        if hands.game == "sichuan":
            text = _("Most fans in a hu: %(value)s — %(name)s, %(where)s")
        else:
            text = _("Largest hand: %(value)s points — %(name)s, %(where)s")
        lines.append(_html(text, value=fmt(h.value), name=link(h.player), where=where))
    most = hands.most_wins
    if most is not None:
        names = format_html_join(", ", "{}", ((link(k),) for k in most.players))
        if hands.game == "sichuan":
            text = _("Most hu: %(names)s (%(count)s)")
        else:
            text = _("Most wins: %(names)s (%(count)s)")
        lines.append(_html(text, names=names, count=most.count))
    return lines


@require_GET
def standings(request, slug):
    tournament = public_tournament(request, slug)
    hall = tournament_hall(tournament)
    html, live = _standings_fragment(request, tournament, hall)
    visitor = anonymous(request)
    if request.GET.get("partial"):
        if visitor and is_region_refresh(request, "public:standings"):
            language = get_language()
            snapshot = _standings_region(hall, language, html)
            return region_answer(request, tournament.pk, language, snapshot)
        return HttpResponse(html)
    # A visitor's page names the content of its live region (its tag), so that its first
    # refresh already gets only what changed (public.cache.regions); other sorts: as before.
    tag = _standings_region(hall, get_language(), html).tag if visitor and not request.GET else ""
    context = {"tournament": tournament, "fragment": html, "live": live, "tag": tag}
    if not visitor:
        return render(request, "public/standings.html", context)
    # The whole hall's phones get the very same page: it is rendered once per revision too.
    sort = request.GET.get("sort", "")
    key = ("standings page", get_language(), sort, tournament.name, tournament.slug)
    key += (tournament.finished, bool(tag))
    page = once(hall, key, lambda: render(request, "public/standings.html", context).content)
    return HttpResponse(page)


def _standings_region(hall, language, html):
    """The default sort's standings region of the hall's revision as kept by its content
    (public.cache.regions), made once per revision and language."""
    key = ("standings region", language)
    return once(hall, key, lambda: keep_region(hall.tournament.pk, language, html))


@diffed_region("public:standings")
def standings_region(page_name, found, language):
    """For the page cache: the standings region of revision `found` in `language` if this
    process has drawn it (else the view draws it)."""
    hall = kept_hall(found)
    return None if hall is None else hall.rendered.get(("standings region", language))


@require_GET
def standings_json(request, slug):
    tournament = public_tournament(request, slug)
    hall = tournament_hall(tournament)
    body = once(hall, "feed", lambda: feed.feed_json(tournament, hall.standings))
    response = HttpResponse(body, content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"  # overlays and projectors read it from anywhere
    return response


@require_GET
def statistics_json(request, slug):
    """Statistics from hands (docs/features/feeds.md, "Statistics from hands"), of the sessions the
    public sees."""
    tournament = public_tournament(request, slug)
    hall = tournament_hall(tournament)
    body = once(hall, "statistics", lambda: feed.statistics_json(tournament, hall.hands))
    response = HttpResponse(body, content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _opponents(seats, player_key, language=""):
    """The others at the table, each with their wind; by name alone while the table's winds
    are still to be drawn there."""
    others = [s for s in seats if s["player__key"] != player_key]
    if _pending(seats):
        return isolated_names(collated((s["player__name"] for s in others), language))
    return isolated_seats((Wind(s["wind"]).label, s["player__name"]) for s in others)


def _pending(seats) -> bool:
    """The table's winds are still to be drawn at the table (selectors' seating snapshot)."""
    return any(s.get("winds_pending") for s in seats)


def _wind(seat) -> str | None:
    """A seat's wind as the pages say it: none while it is still to be drawn at the table."""
    return None if seat.get("winds_pending") else Wind(seat["wind"]).label


@require_GET
def find_table(request, slug):
    tournament = public_tournament(request, slug)
    query = request.GET.get("q", "").strip()
    hall = tournament_hall(tournament)
    current = hall.current
    rows = []
    needle = Needle(query[: SearchForm.LONGEST])
    if needle and current is not None:
        seating = hall.seating_now
        for table_number, seats in seating.items():
            for seat in seats:
                if needle.matches(seat["player__name"]):
                    rows.append(
                        {
                            "slug": tournament.slug,
                            "key": seat["player__key"],
                            "name": seat["player__name"],
                            "table": table_number,
                            "wind": _wind(seat),
                            "opponents": _opponents(
                                seats, seat["player__key"], tournament.language
                            ),
                        }
                    )
        rows = collated(rows, tournament.language, itemgetter("name"))
    empty = None
    if needle and current is not None and not rows:
        # Registered but not seated now: "Nobody found" would be untrue (issue 37).
        names = [row.player.name for row in hall.rows.values() if needle.matches(row.player.name)]
        if names:
            names = collated(names, tournament.language, str)[:5]
            empty = _(
                "%(names)s: registered, but not seated in session %(session)s. Ask the desk."
            ) % {"names": ", ".join(names), "session": current}
    # no Wind column where no row has a wind; with no rows, where the tables draw their winds
    winds_drawn = tournament.winds == tournament.Winds.TABLE
    any_wind = any(r["wind"] is not None for r in rows) if rows else not winds_drawn
    template = _template(request, "public/find.html", "public/_find.html")

    def draw():
        context = {
            "tournament": tournament,
            "query": query,
            "current": current,
            "table": FindTableTable(
                rows[:50],
                exclude=() if any_wind else ("wind",),
                **({"empty_text": empty} if empty else {}),
            ),
            "live": False,
        }
        return render(request, template, context)

    # Results do not change where anybody sits: drawn again only when the seating changes.
    version = _find_version(hall)
    page = (tournament.pk, query, template)
    return drawn_once(request, "public:find", page, version, draw)


def _line_note(line, seats, key, rows) -> str:
    """What a player's line needs said: that a substitute played it, or for whom."""
    if line.replaces is not None:
        replaced = rows.get(line.replaces)
        name = replaced.player.name if replaced else line.replaces
        return _("substitute for %(name)s") % {"name": name}
    if line.replaced:
        sub = next((s["player__name"] for s in seats if s["replaces__key"] == key), None)
        if sub:
            return _("replaced by %(name)s") % {"name": sub}
        return _("replaced")
    return ""


@require_GET
def player(request, slug, key):
    tournament = public_tournament(request, slug)
    hall = tournament_hall(tournament)
    row = hall.rows.get(key)
    if row is None:
        raise Http404(_("No such player in this tournament."))
    seats_by_session = hall.tables.get(key, {})
    running = 0
    lines = []
    for line in row.sessions:
        running += line.result or 0
        seats = seats_by_session.get(line.session, [])
        lines.append(
            {
                "note": _line_note(line, seats, key, hall.rows),
                "session": line.session,
                "table": line.table,
                "wind": Wind(line.wind).label
                if line.wind in WINDS and not _pending(seats)
                else None,
                "opponents": _opponents(seats, key, tournament.language),
                "score": line.score,
                "place": line.place,
                "uma": line.uma,
                "penalty": line.penalty,
                "result": line.result,
                "running": round(running, 2) if isinstance(running, float) else running,
            }
        )
    current = hall.current
    now = hall.seats_now.get(key)
    if now:
        wind = None if _pending(now["seats"]) else Wind(now["wind"]).label
        now = {**now, "wind_label": wind}
    template = _template(request, "public/player.html", "public/_player.html")
    stats = hall.hands.of(key)

    def draw():
        context = {
            "tournament": tournament,
            "row": {"player": row.player, "rank": _RANK if row.rank else None},
            "total": _TOTAL,
            "table": PlayerSessionsTable(lines, placement=placement_label(tournament.rule_set())),
            "now": now,
            "current": current,
            "live": hall.live,
            "hands": hands_table(hall.hands.game, stats) if stats else None,
            "top": TopStandingsTable(top_rows(tournament.slug, hall.standings)),
        }
        return render(request, template, context)

    # Every confirmation is a new revision, but it changes few players' pages: drawn again only
    # when what it shows changed (its lines, its table...). Rank and total move for many more
    # players than the four who played, so the page is drawn with stand-ins for those two,
    # put in on every request.
    version = _player_version(hall, key)
    filled = _player_filled(row)
    page = (tournament.pk, key, template)
    return drawn_once(request, "public:player", page, version, draw, filled)


def _player_filled(row) -> dict:
    return {_RANK: escape(localize(row.rank)), _TOTAL: escape(fmt(row.total))}


def _player_version(hall, key) -> str:
    """What the player's page shows but rank and total: their lines, the tables they sat at,
    where they sit now, the session and the clock's state, the tournament's name."""
    t, row = hall.tournament, hall.rows[key]

    def shows():
        mine = (bool(row.rank), row.player, row.sessions, hall.tables.get(key), hall.hands.of(key))
        now = (hall.seats_now.get(key), hall.current, hall.live)
        return mine + now + (t.name, t.planned_sessions, t.finished, _top(hall))

    return digest(hall, ("p", key), shows)


def _top(hall) -> tuple:
    """What the top of the standings on every player's page shows (issue 39), once per
    revision."""
    rows = top_rows(hall.tournament.slug, hall.standings)  # what TopStandingsTable draws
    return once(hall, ("top",), lambda: tuple(tuple(row.values()) for row in rows))


def _find_version(hall) -> str:
    """What every find page shows: the current session's seating, the tournament's name, its
    language, whose order the names found are listed in, whether it is finished (the menu
    then says "Final standings"), and who is registered (a name found but not seated)."""
    t = hall.tournament
    registered = sorted(row.player.name for row in hall.rows.values())
    shows = (hall.current, hall.seating_now, t.name, t.language, t.finished, registered)
    return digest(hall, ("f",), lambda: shows)


@keep_by_version("public:find", "public:player")
def kept_version(view_name, found, kwargs, language) -> tuple[str, dict] | None:
    """For the page cache (public.cache): the version of a visitor's player or find
    page of revision `found`, and the HTML its stand-ins take, as bytes; None unless this
    process keeps that revision's hall (the page then goes the normal way, which builds it)."""
    hall = kept_hall(found)
    if hall is None:
        return None
    if view_name == "public:find":
        return _find_version(hall), {}
    row = hall.rows.get(kwargs.get("key"))
    if row is None:
        return None
    with translation.override(language):
        filled = _player_filled(row)
    fill = {stand_in.encode(): html.encode() for stand_in, html in filled.items()}
    return _player_version(hall, kwargs["key"]), fill


# Stand-ins a page is drawn with for what is put in on every request (`drawn_once`'s `filled`):
# private-use characters around this process's own token, which no name can guess.
_PROCESS = uuid.uuid4().hex
_RANK = f"\ue000rank-{_PROCESS}\ue001"
_TOTAL = f"\ue000total-{_PROCESS}\ue001"
