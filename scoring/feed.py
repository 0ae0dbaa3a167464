"""The standings feed, exactly as docs/formats.md describes it: built from the
public standings selector (the released sessions only, when results are released by session),
cached and serialised once per tournament revision (the hall's phones and overlays poll it)."""

import json

from django.core.cache import cache

from core.numbers import plain_number
from scoring.selectors.ranking import public_standings


def feed(tournament, table=None) -> dict:
    """The standings feed, exactly as docs/formats.md describes it; `table` is
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


# --- statistics from hands ---------------------------------------------------------------------


def _share(value):
    return None if value is None else round(value, 4)


def _player_stats(game: str, stats) -> dict:
    if game == "sichuan":
        return {
            "hands": stats.hands,
            "hu": stats.hu,
            "self_draw": stats.self_draw,
            "self_draw_share": _share(stats.self_draw_share),
            "kong_points": stats.kong_points,
            "pigs": stats.pigs,
            "false_hu": stats.false_hu,
            "dead": stats.dead,  # hands declared dead (002 §2.8.3)
            "deal_ins": stats.deal_ins,
        }
    return {
        "hands": stats.hands,
        "wins": stats.wins,
        "tsumo": stats.tsumo,
        "deal_ins": stats.deal_ins,
        "riichi": stats.riichi,
        "riichi_won": stats.riichi_won,
        "average_win": stats.average_win,
        "tsumo_share": _share(stats.tsumo_share),
        "chombo": stats.chombo,
    }


def statistics_feed(tournament, data) -> dict:
    """statistics.json (docs/features/feeds.md, "Statistics from hands"): `data` is
    selectors.hand_statistics of the sessions the public sees."""
    unit = "fans" if data.game == "sichuan" else "points"
    most = data.most_wins
    return {
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "ruleset": tournament.ruleset,
        },
        "game": data.game,
        "hands": len(data.lines),
        "players": {
            row.player.key: {"name": row.player.name, **_player_stats(data.game, row.stats)}
            for row in data.rows
        },
        "highlights": {
            "largest_hand": [
                {
                    "player": h.player,
                    "name": data.players[h.player].name,
                    "session": h.session,
                    "table": h.table,
                    "hand": h.hand,
                    unit: h.value,
                }
                for h in data.largest
            ],
            "most_wins": None
            if most is None
            else {"players": list(most.players), "count": most.count},
        },
    }


def statistics_json(tournament, data) -> bytes:
    return json.dumps(statistics_feed(tournament, data), ensure_ascii=False).encode()
