"""The standings of a tournament read from the database (the pure mahjong.standings works
them out): the desk's, the public's (released_sessions), one player's row and each confirmed
table's lines. Worked out once per revision and shared (core.kept)."""

from collections import defaultdict
from typing import NamedTuple

from core.kept import per_revision
from mahjong.standings import PlayerRow, SessionLine, compute_standings
from scoring.models import Result
from scoring.selectors.penalties import penalty_rows
from scoring.selectors.sessions import released_sessions
from scoring.selectors.snapshot import player_rows, table_rows
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
    return per_revision(
        "standings",
        tournament,
        lambda: compute_standings(
            tournament.rule_set(),
            player_rows(tournament),
            table_rows(tournament),
            penalty_rows(tournament),
        ),
    )


def public_standings(tournament):
    """The standings every public page and the feed show: those of the released sessions
    (released_sessions), the same as standings() unless results are released by session.
    Cached per revision: the confirmation of a session's last table bumps it, so the session
    shows on the next request."""
    released = released_sessions(tournament)
    if released is None:
        return standings(tournament)
    return per_revision(
        "public-standings",
        tournament,
        lambda: compute_standings(
            tournament.rule_set(),
            player_rows(tournament),
            [t for t in table_rows(tournament) if t.session in released],
            [p for p in penalty_rows(tournament) if p.session in released],
        ),
    )


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
