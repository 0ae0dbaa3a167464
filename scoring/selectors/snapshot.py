"""The tournament's seating and confirmed scores as the standings, the pages, the printouts,
the workbooks, the feed and the file read them: the players' rows, the tables' rows, who sat
where in each session, each session's confirmed scores and its substitutions.

A fixed number of queries per tournament whatever its size, read once per tournament revision
and kept as objects shared by every caller (core.kept), who must not change them: any confirmed
result, penalty, substitution, rule change or player change bumps the revision, so what is
kept is never stale and never needs a timeout.
"""

from collections import defaultdict
from operator import attrgetter

from core.collation import collated
from core.kept import per_revision
from mahjong.standings import PlayerRow, SeatRow, TableRow
from mahjong.table import is_awarded
from scoring.models import Result, ResultScore
from seating.models import WINDS, Seat, Table
from seating.selectors import winds_at_table
from tournament.models import Player


def player_rows(tournament) -> list[PlayerRow]:
    """The players in the tournament language's order of their names (core.collation): the
    order the standings keep between tied players. Read once per seating revision and shared
    (core.kept): callers must not change the list."""
    return per_revision(
        "players",
        tournament,
        lambda: _read_players(tournament),
        revision=f"{tournament.seating_revision}:{tournament.language}",
    )


def _read_players(tournament) -> list[PlayerRow]:
    fields = ("key", "name", "status", "substitute", "ema_id", "country", "club", "team")
    rows = [
        PlayerRow(**row) for row in Player.objects.filter(tournament=tournament).values(*fields)
    ]
    return collated(rows, tournament.language, attrgetter("name"))


def players_and_rules(tournament) -> tuple:
    """What every value kept by what it is made of (issue 39: the standings, the hand
    statistics) shares: the players (their list is kept by the seating revision, and the
    language orders tied names) and the rules."""
    rules = tournament.rules
    return (
        tournament.seating_revision,
        tournament.language,
        tournament.ruleset,
        sorted(rules.items()) if isinstance(rules, dict) else rules,
    )


def snapshot(tournament) -> dict:
    """Seating and confirmed scores of the whole tournament, read once per revision and shared
    (core.kept): callers must not change what it holds. The seating is read once per seating
    revision (Tournament.seating_revision): after a confirmation only the scores are read."""
    return per_revision("snapshot", tournament, lambda: _read_snapshot(tournament))


NEW_BY_ID = 200  # confirmed versions asked for by id; more, and the tournament's are read


def _read_snapshot(tournament) -> dict:
    seated = per_revision(
        "seated", tournament, lambda: _read_seating(tournament), tournament.seating_revision
    )
    # A confirmed version's scores never change (a correction is a new version), so each is
    # read once, by its id, and kept for every later revision: a confirmation reads the ids
    # of the confirmed results and the new one's scores.
    read = per_revision("confirmed-scores", tournament, dict, revision="any")
    results = dict(
        Result.objects.filter(
            status=Result.Status.CONFIRMED, table__session__tournament=tournament
        ).values_list("table_id", "pk")
    )
    new = [pk for pk in results.values() if pk not in read]
    if len(new) > NEW_BY_ID:  # the first read: the whole tournament's at once, every version
        # (a version the query above found confirmed may be superseded by now)
        scores = ResultScore.objects.filter(result__table__session__tournament=tournament)
    else:  # by id, whatever their status now: a version's scores are what they were
        scores = ResultScore.objects.filter(result_id__in=new)
    fetched = defaultdict(dict)  # whole before it is kept: another thread may be reading
    for result_id, wind, score, chombo in scores.values_list(
        "result_id", "wind", "score", "chombo"
    ):
        fetched[result_id][wind] = {"score": score, "chombo": chombo}
    read.update(fetched)
    results = {table_id: pk for table_id, pk in results.items() if pk in read}
    confirmed = {table_id: read[pk] for table_id, pk in results.items()}
    return {**seated, "confirmed": confirmed, "results": results}


def _read_seating(tournament) -> dict:
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
    # A table whose winds are still to be drawn shows none (issue 24). Asked apart, and only
    # when the tournament draws winds at the table: a moment for each of thousands of seats
    # was a fifth of the read.
    pending = set()
    if winds_at_table(tournament):
        pending = set(
            Table.objects.filter(
                session__tournament=tournament, winds_drawn_at__isnull=True
            ).values_list("pk", flat=True)
        )
    for s in seats:
        s["winds_pending"] = s["table_id"] in pending
    seating = defaultdict(lambda: defaultdict(list))
    table_ids = {}
    for s in sorted(seats, key=lambda s: WINDS.index(s["wind"])):
        seating[s["session__number"]][s["table__number"]].append(s)
        table_ids[(s["session__number"], s["table__number"])] = s["table_id"]
    return {"seating": {n: dict(tables) for n, tables in seating.items()}, "table_ids": table_ids}


def table_rows(tournament) -> list[TableRow]:
    """Confirmed tables, plus Sichuan awarded tables (one or two players) that need no result.

    A table's row is made once per seating revision and confirmed version (which never
    changes) and shared: after a confirmation only that table's row is new."""
    snap = snapshot(tournament)
    rules = tournament.rule_set()
    made = per_revision("table-rows", tournament, dict, tournament.seating_revision)
    tables = []
    for session, session_tables in snap["seating"].items():
        # An awarded table counts once its session has results, not as soon as it is drawn.
        started = any(snap["table_ids"][(session, n)] in snap["confirmed"] for n in session_tables)
        for number, seats in session_tables.items():
            awarded = is_awarded(rules, len(seats)) and started
            table_id = snap["table_ids"][(session, number)]
            result = snap["confirmed"].get(table_id)
            if result is None and not awarded:
                continue
            key = (table_id, None if awarded else snap["results"][table_id])
            row = made.get(key)
            if row is None:
                row = made[key] = TableRow(
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
            tables.append(row)
    tables.sort(key=lambda t: (t.session, t.table))
    return tables


def seating(tournament) -> dict:
    """Session number -> table number -> seats (dicts in wind order): every session at once,
    for who needs several."""
    return snapshot(tournament)["seating"]


def session_seating(tournament, number) -> dict:
    """Table number -> seats (dicts in wind order) of one session."""
    return seating(tournament).get(number, {})


def confirmed_scores(tournament, number) -> dict:
    """Table number -> wind -> (score, chombo) of the session's confirmed results."""
    snap = snapshot(tournament)
    return {
        table: {wind: (s["score"], s["chombo"]) for wind, s in snap["confirmed"][table_id].items()}
        for (session, table), table_id in snap["table_ids"].items()
        if session == number and table_id in snap["confirmed"]
    }


def substitutions(tournament) -> dict:
    """Session number -> {substitute's key: (replaced player's key, joined)}."""
    out = {}
    for number, tables in seating(tournament).items():
        for seats in tables.values():
            for s in seats:
                if s["replaces__key"] is not None:
                    out.setdefault(number, {})[s["player__key"]] = (s["replaces__key"], s["joined"])
    return out
