"""The standings feed, exactly as ../shared/formats/README.md describes it: built from the
public standings selector (the released sessions only, when results are released by session),
cached and serialised once per tournament revision (the hall's phones and overlays poll it)."""

import json

from django.core.cache import cache

from core.numbers import plain_number
from scoring.selectors import public_standings


def feed(tournament, table=None) -> dict:
    """The standings feed, exactly as ../shared/formats/README.md describes it; `table` is
    `public_standings(tournament)` when the caller has it at hand."""
    key = f"feed:{tournament.pk}:{tournament.revision}"
    data = cache.get(key)
    if data is not None:
        return data
    if table is None:
        table = public_standings(tournament)
    data = {
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "ruleset": tournament.ruleset,
        },
        "sessions_played": table.sessions_played,
        # Added to the format: the director finished the tournament, the standings are final.
        "final": tournament.finished,
        "standings": [
            {
                "rank": row.rank,
                "player": {
                    "key": row.player.key,
                    "name": row.player.name,
                    "ema_id": row.player.ema_id,
                    "country": row.player.country,
                    "team": row.player.team,
                },
                "total": plain_number(row.total),
                "tiebreak": plain_number(row.tiebreak),
                "sessions": [
                    {
                        "session": line.session,
                        "table": line.table,
                        "wind": line.wind,
                        "score": line.score,
                        "place": line.place,
                        "uma": plain_number(line.uma),
                        "penalty": plain_number(line.penalty),
                        "result": plain_number(line.result),
                    }
                    for line in row.sessions
                ],
            }
            for row in table.rows
        ],
    }
    cache.set(key, data)
    return data


def feed_json(tournament, table=None) -> bytes:
    """The feed serialised once per revision: the hall's phones and overlays poll it."""
    key = f"feed-json:{tournament.pk}:{tournament.revision}"
    body = cache.get(key)
    if body is None:
        body = json.dumps(feed(tournament, table), ensure_ascii=False).encode()
        cache.set(key, body)
    return body
