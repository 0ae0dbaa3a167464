"""The standings of a tournament read from the database (the pure mahjong.standings works
them out): the desk's, the public's (released_sessions), one player's row and each confirmed
table's lines. Worked out once per revision and shared (core.kept)."""

import hashlib
from collections import defaultdict
from typing import NamedTuple

from core.kept import per_revision
from mahjong.standings import PlayerRow, SessionLine, compute_standings
from scoring.models import Result
from scoring.selectors.penalties import penalty_rows
from scoring.selectors.sessions import released_sessions
from scoring.selectors.snapshot import player_rows, players_and_rules, snapshot, table_rows
from seating.models import WINDS


def has_confirmed_results(tournament) -> bool:
    return Result.objects.filter(
        table__session__tournament=tournament, status=Result.Status.CONFIRMED
    ).exists()


def standings_order(tournament) -> list[str] | None:
    """Player keys in standings order (penalties included, as the standings count them), for
    seating by standings; None while no result is confirmed."""
    if not has_confirmed_results(tournament):
        return None
    return [row.player.key for row in standings(tournament).rows]


def standings(tournament):
    """The tournament's standings (mahjong.standings.Standings), worked out once per revision
    and shared (core.kept): callers must not change them."""
    return per_revision("standings", tournament, lambda: _counted(tournament, None))


def public_standings(tournament):
    """The standings every public page and the feed show: those of the released sessions
    (released_sessions), the same as standings() unless results are released by session.
    Cached per revision: the confirmation of a session's last table bumps it, so the session
    shows on the next request."""
    released = released_sessions(tournament)
    if released is None:
        return standings(tournament)
    return per_revision("public-standings", tournament, lambda: _counted(tournament, released))


def _counted(tournament, released):
    """The standings of the `released` sessions (None: all), worked out once for what they
    count (issue 39): a revision that changes none of it (a hand, the clock, a draft, a table of
    a session the public does not see yet) finds them kept."""
    players = player_rows(tournament)
    tables = table_rows(tournament)
    penalties = penalty_rows(tournament)
    if released is not None:
        tables = [t for t in tables if t.session in released]
        penalties = [p for p in penalties if p.session in released]
    return per_revision(
        "standings-counted",
        tournament,
        lambda: compute_standings(tournament.rule_set(), players, tables, penalties),
        revision=_counts(tournament, released, tables, penalties),
    )


def _counts(tournament, released, tables, penalties) -> str:
    """A digest of everything compute_standings reads: the players (their list is kept by the
    seating revision and the language, which orders tied names), the rules, the sessions
    counted, each counted table's confirmed version (a version's scores never change; an
    awarded table's row is its seats') and the penalties with their worth."""
    snap = snapshot(tournament)
    results = snap["results"]
    counted = [
        (t.session, t.table, results.get(snap["table_ids"][(t.session, t.table)])) for t in tables
    ]
    parts = (
        players_and_rules(tournament),
        None if released is None else sorted(released),
        counted,
        penalties,
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


class TableLine(NamedTuple):
    """One player's line of a confirmed table as the standings count it: the desk's table page,
    the player pages and the printouts read these, so they cannot disagree (issue 23)."""

    player: PlayerRow
    line: SessionLine
    replaces: PlayerRow | None  # a substitute's line: whom they replace


def session_lines(tournament, session) -> dict[int, list[TableLine]]:
    """Table number -> its lines in wind order, for every confirmed table of a session: the
    standings read once (a printout of a hundred tables asks for all of them)."""
    data = standings(tournament)
    rows = data.rows + data.substitutes
    players = {row.player.key: row.player for row in rows}
    tables = defaultdict(list)
    for row in rows:
        for line in row.sessions:
            if line.session == session and line.table is not None:
                tables[line.table].append(TableLine(row.player, line, players.get(line.replaces)))
    return {
        table: sorted(lines, key=lambda t: WINDS.index(t.line.wind))
        for table, lines in tables.items()
    }


def table_lines(tournament, session, table) -> list[TableLine]:
    """The lines of one table in wind order, straight from the standings."""
    return session_lines(tournament, session).get(table, [])


def standings_row(tournament, key):
    """The standings row of the player `key` (ranked or substitute), or None."""
    data = standings(tournament)
    return next((row for row in data.rows + data.substitutes if row.player.key == key), None)
