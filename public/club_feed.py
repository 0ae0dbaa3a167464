"""The club rating's feed, `GET /r/<slug>/rating.json` (docs/features/feeds.md, "Club rating feed"):
the table of a season or of all time and the games behind it. Keep every name and meaning as
documented; keys may be added, never renamed."""

import json

from club.selectors import Rating


def _day(day):
    return day.isoformat() if day else None


def _person(person) -> dict:
    return {
        "id": person.pk,
        "name": person.name,
        "country": person.country,
        "ema_id": person.ema_id,
    }


def feed(rating: Rating, games, revision: int) -> dict:
    """The feed of `rating` (club.selectors.rating) and its games (club.selectors.rated_games,
    in the order played)."""
    club, season, table = rating.club, rating.season, rating.table
    rows = [
        {
            "rank": row.rank,
            "person": _person(row.person),
            "rating": row.rating,
            "games": row.games,
            "average_place": row.average_place,
            "first_share": row.first_share,
            "last_game": _day(row.last_played),
        }
        for row in (*table.rows, *table.unranked)
    ]
    return {
        "club": {"name": club.name, "slug": club.slug, "ruleset": club.ruleset},
        "season": None
        if season is None
        else {
            "id": season.pk,
            "name": season.name,
            "start": _day(season.start),
            "end": _day(season.end),
        },
        "min_games": table.min_games,
        "revision": revision,
        "rows": rows,
        "games": [
            {
                "id": game.pk,
                "date": _day(game.played_on),
                "table": game.number,
                "version": game.version,
                "seats": [
                    {
                        "wind": line.wind,
                        "person": line.person.pk,
                        "name": line.person.name,
                        "place": line.place,
                        "score": line.score,
                        "chombo": line.chombo,
                        "points": line.points,
                    }
                    for line in game.lines
                ],
            }
            for game in games
        ],
    }


def feed_json(rating: Rating, games, revision: int) -> bytes:
    return json.dumps(feed(rating, games, revision), ensure_ascii=False).encode()
