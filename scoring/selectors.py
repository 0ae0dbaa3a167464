"""The bridge from the database to the pure standings module, and the standings feed.

A fixed number of queries per tournament whatever its size, cached per tournament revision:
any confirmed result, penalty, substitution, rule change or player change bumps the revision,
so the cache is never stale and never needs a timeout.
"""

import json
from collections import defaultdict

from django.core.cache import cache

from core.numbers import plain_number
from referee.services import penalty_rows
from scoring.models import Result, ResultScore
from scoring.standings import PlayerRow, SeatRow, TableRow, compute_standings
from seating.models import WINDS, Seat
from tournament.models import Player


def player_rows(tournament) -> list[PlayerRow]:
    fields = ("key", "name", "status", "substitute", "ema_id", "country", "club", "team")
    return [
        PlayerRow(**row) for row in Player.objects.filter(tournament=tournament).values(*fields)
    ]


def _snapshot(tournament) -> dict:
    """Seating and confirmed scores of the whole tournament: two queries, cached per revision."""
    key = f"snapshot:{tournament.pk}:{tournament.revision}"
    snap = cache.get(key)
    if snap is not None:
        return snap
    seats = list(
        Seat.objects.filter(session__tournament=tournament).values(
            "table_id",
            "table__number",
            "session__number",
            "wind",
            "player__key",
            "player__name",
            "player__ema_id",
            "replaces__key",
            "joined",
        )
    )
    scores = ResultScore.objects.filter(
        result__status=Result.Status.CONFIRMED, result__table__session__tournament=tournament
    ).values("result__table_id", "wind", "score", "chombo")
    confirmed = defaultdict(dict)
    for sc in scores:
        confirmed[sc["result__table_id"]][sc["wind"]] = sc
    seating = defaultdict(lambda: defaultdict(list))
    table_ids = {}
    for s in sorted(seats, key=lambda s: WINDS.index(s["wind"])):
        seating[s["session__number"]][s["table__number"]].append(s)
        table_ids[(s["session__number"], s["table__number"])] = s["table_id"]
    snap = {
        "seating": {n: dict(tables) for n, tables in seating.items()},
        "table_ids": table_ids,
        "confirmed": dict(confirmed),
    }
    cache.set(key, snap)
    return snap


def _awarded(rules, seats) -> bool:
    return rules.game == "sichuan" and len(seats) <= 2


def table_rows(tournament) -> list[TableRow]:
    """Confirmed tables, plus Sichuan awarded tables (one or two players) that need no result."""
    snap = _snapshot(tournament)
    rules = tournament.rule_set()
    tables = []
    for session, session_tables in snap["seating"].items():
        # An awarded table counts once its session has results, not as soon as it is drawn.
        started = any(snap["table_ids"][(session, n)] in snap["confirmed"] for n in session_tables)
        for number, seats in session_tables.items():
            awarded = _awarded(rules, seats) and started
            result = snap["confirmed"].get(snap["table_ids"][(session, number)])
            if result is None and not awarded:
                continue
            tables.append(
                TableRow(
                    session=session,
                    table=number,
                    seats=[
                        SeatRow(
                            wind=s["wind"],
                            player=s["player__key"],
                            score=None if awarded else result[s["wind"]]["score"],
                            chombo=0 if awarded else result[s["wind"]]["chombo"],
                            replaces=s["replaces__key"],
                            joined=s["joined"],
                        )
                        for s in seats
                    ],
                )
            )
    tables.sort(key=lambda t: (t.session, t.table))
    return tables


def seating(tournament) -> dict:
    """Session number -> table number -> seats (dicts in wind order): every session at once,
    for who needs several (each call reads the cached snapshot again)."""
    return _snapshot(tournament)["seating"]


def session_seating(tournament, number) -> dict:
    """Table number -> seats (dicts in wind order) of one session."""
    return seating(tournament).get(number, {})


def session_on(tournament, number) -> bool:
    """A session is on while some of its played tables have no confirmed result."""
    if number is None:
        return False
    snap = _snapshot(tournament)
    rules = tournament.rule_set()
    return any(
        snap["table_ids"][(number, t)] not in snap["confirmed"] and not _awarded(rules, seats)
        for t, seats in snap["seating"].get(number, {}).items()
    )


def standings(tournament):
    """The tournament's standings (scoring.standings.Standings), cached per revision."""
    key = f"standings:{tournament.pk}:{tournament.revision}"
    result = cache.get(key)
    if result is None:
        result = compute_standings(
            tournament.rule_set(),
            player_rows(tournament),
            table_rows(tournament),
            penalty_rows(tournament),
        )
        cache.set(key, result)
    return result


def feed(tournament, table=None) -> dict:
    """The standings feed, exactly as ../shared/formats/README.md describes it; `table` is
    `standings(tournament)` when the caller has it at hand."""
    key = f"feed:{tournament.pk}:{tournament.revision}"
    data = cache.get(key)
    if data is not None:
        return data
    if table is None:
        table = standings(tournament)
    data = {
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "ruleset": tournament.ruleset,
        },
        "sessions_played": table.sessions_played,
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
