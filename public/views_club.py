"""A club rating's public pages (issue 25): the rating table, a person's games, the games, the
feed. No login, read-only; visitors' repeat requests are answered by public.cache, kept by the
club's revision."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from club import selectors
from club.models import Club, Season
from core.tables import fmt
from core.zones import zone
from public.club_feed import feed_json
from public.tables_club import (
    ClubGamesTable,
    ClubRatingTable,
    PersonGamesTable,
    decimal,
    others,
    rating_rows,
    share,
    short_date,
)
from seating.models import Wind

GAMES_PER_PAGE = 50
ALL_TIME = "all"


def _club(slug) -> Club:
    return get_object_or_404(Club, slug=slug)


def _season(request, club, seasons) -> Season | None:
    """The season asked for (`?season=<pk>`, `?season=all` for all time); by default the season
    of today in the club's time zone, if any, else all time. An unknown season is a 404.

    A page kept by the page cache shows the default of the day it was drawn until the club's
    next change or five minutes at most (public.cache)."""
    asked = request.GET.get("season", "")
    if asked == ALL_TIME:
        return None
    if asked:
        found = next((s for s in seasons if str(s.pk) == asked), None)
        if found is None:
            raise Http404(_("No such season in this club."))
        return found
    today = timezone.localdate(timezone=zone(club.time_zone))
    return next((s for s in seasons if s.start <= today <= s.end), None)


def _choices(club, seasons, chosen) -> list[dict]:
    """The season chooser's links: each season, newest first, then all time."""
    choices = [
        {"label": s.name, "query": f"?season={s.pk}", "current": chosen == s} for s in seasons
    ]
    choices.append({"label": _("All time"), "query": f"?season={ALL_TIME}", "current": not chosen})
    return choices


@require_GET
def rating(request, slug):
    club = _club(slug)
    seasons = selectors.seasons(club)
    season = _season(request, club, seasons)
    data = selectors.rating(club, season)
    decimals = club.rule_set().decimals
    ranked = ClubRatingTable(
        rating_rows(club.slug, data.table.rows),
        language=club.language,
        decimals=decimals,
        empty_text=data.empty_text,
    )
    RequestConfig(request, paginate=False).configure(ranked)
    unranked = None
    if data.table.unranked:
        unranked = ClubRatingTable(
            rating_rows(club.slug, data.table.unranked),
            language=club.language,
            decimals=decimals,
            exclude=("rank",),
            prefix="below-",
        )
        RequestConfig(request, paginate=False).configure(unranked)
    context = {
        "club": club,
        "rules": club.rule_set(),
        "season": season,
        "choices": _choices(club, seasons, season),
        "games": data.games,
        "table": ranked,
        "unranked": unranked,
        "min_games": club.min_games,
    }
    return render(request, "public/club/rating.html", context)


def _game_lines(game, decimals) -> list[dict]:
    return [
        {
            "wind": Wind(line.wind).label,
            "person": line.person.pk,
            "name": line.person.name,
            "score": fmt(line.score),
            "points": decimal(line.points, decimals, sign=True),
            "place": line.place,
        }
        for line in game.lines
    ]


@require_GET
def person(request, slug, person):
    club = _club(slug)
    kept = selectors.rating_book(club)
    who = kept.people.get(person)
    if who is None:  # neither a member nor a player of its games
        raise Http404(_("No such person in this club."))
    decimals = club.rule_set().decimals
    # A season's figures and games (`?season=<pk>`); without one, all time. The chart is all
    # time: a rating grows across seasons.
    seasons = selectors.seasons(club)
    season = _season(request, club, seasons) if request.GET.get("season") else None
    table = selectors.rating(club, season).table
    row = next((r for r in (*table.rows, *table.unranked) if r.person.pk == who.pk), None)
    lines = []
    for game in selectors.person_club_games(club, who):
        if season is not None and not season.start <= game.played_on <= season.end:
            continue
        seats = _game_lines(game, decimals)
        mine = next(line for line in game.lines if line.person.pk == who.pk)
        lines.append(
            {
                "date": short_date(game.played_on),
                "table": game.number,
                "place": mine.place,
                "score": mine.score,
                "points": decimal(mine.points, decimals, sign=True),
                "others": others([s for s in seats if s["person"] != who.pk], club.slug),
            }
        )
    games = PersonGamesTable(lines)
    RequestConfig(request, paginate={"per_page": GAMES_PER_PAGE}).configure(games)
    facts = None
    if row is not None:
        facts = {
            "rank": row.rank,
            "rating": decimal(row.rating, decimals),
            "games": row.games,
            "average_place": fmt(row.average_place),
            "first_share": share(row.first_share),
            "last_game": short_date(row.last_played),
        }
    context = {
        "club": club,
        "person": who,
        "season": season,
        "choices": _choices(club, seasons, season),
        "facts": facts,
        "min_games": club.min_games,
        "chart": mark_safe(selectors.person_chart(club, who)),  # escaped by rating_svg
        "table": games,
    }
    return render(request, "public/club/person.html", context)


@require_GET
def games(request, slug):
    club = _club(slug)
    decimals = club.rule_set().decimals
    rows = [
        {
            "date": short_date(game.played_on),
            "table": game.number,
            "seats": others(_game_lines(game, decimals), club.slug),
        }
        for game in selectors.rated_games(club)
    ]
    table = ClubGamesTable(rows)
    RequestConfig(request, paginate={"per_page": GAMES_PER_PAGE}).configure(table)
    context = {"club": club, "rules": club.rule_set(), "count": len(rows), "table": table}
    return render(request, "public/club/games.html", context)


@require_GET
def feed(request, slug):
    """The rating as JSON (docs/features/feeds.md, "Club rating feed"), with the page's
    `?season=`."""
    club = _club(slug)
    season = _season(request, club, selectors.seasons(club))
    data = selectors.rating(club, season)
    played = selectors.rated_games(club, season, newest_first=False)
    response = HttpResponse(feed_json(data, played, club.revision), content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"  # overlays and club sites read it from anywhere
    return response
