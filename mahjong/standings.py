"""The whole tournament's standings from plain rows (stdlib only).

The Django layer loads confirmed tables, players and resolved penalties in a few queries, calls
compute_standings and renders or serialises what comes back (the standings feed of
docs/formats.md). Totals are summed exactly in the internal units of mahjong.units and
converted once for output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from mahjong.rulesets import RuleSet
from mahjong.table import score_table
from mahjong.units import TIE_SCALE, Prepared, exact, output

STATUSES = ("active", "withdrawn", "disqualified", "excluded")


@dataclass(frozen=True)
class PlayerRow:
    key: str
    name: str
    status: str = "active"  # "active" | "withdrawn" | "disqualified" | "excluded"
    substitute: bool = False
    ema_id: str = ""
    country: str = ""
    club: str = ""
    team: str = ""


@dataclass(frozen=True)
class SeatRow:
    wind: str  # "E" | "S" | "W" | "N"
    player: str
    score: int | None
    chombo: int = 0
    replaces: str | None = None
    joined: str = "start"  # "start" | "during"


@dataclass(frozen=True)
class TableRow:
    session: int
    table: int
    seats: list  # of SeatRow, confirmed results only


@dataclass(frozen=True)
class PenaltyRow:
    session: int
    player: str
    amount: int | float  # "before": score unit (points, GP); "after": result unit
    stage: str  # "before" | "after"
    kind: str = ""  # mahjong.penalties kinds; "chombo" records stand for chombos on the sheet
    fixed: bool = False  # late past the limit: the session is the fixed "replaced" line


@dataclass(slots=True)
class SessionLine:
    session: int
    table: int | None
    wind: str | None
    score: int | None
    place: int | None
    uma: int | float  # placement points incl. the oka share (SBR: TP)
    penalty: int | float  # result unit
    result: int | float
    game_points: int | float | None = None  # score + score-unit penalties (SBR: GP after penalties)
    replaces: str | None = None  # a substitute's line: the key of the player replaced
    replaced: bool = False  # the replaced player's fixed line (000 §5.7, 002 §2.8.4)


@dataclass(slots=True)
class StandingRow:
    rank: int | None
    player: PlayerRow
    total: int | float
    tiebreak: int | float | None
    sessions: list = field(default_factory=list)  # of SessionLine, by session


@dataclass(slots=True)
class TeamRow:
    rank: int
    team: str
    total: int | float
    members: list  # player keys, in standings order
    tiebreak: int | float | None = None


@dataclass(slots=True)
class Standings:
    sessions_played: int
    rows: list  # of StandingRow, ranked
    substitutes: list  # of StandingRow, rank None
    teams: list  # of TeamRow


class _Tally:
    __slots__ = ("total", "points", "lines")

    def __init__(self):
        self.total = 0  # internal units
        self.points = 0  # game points against return points: the tiebreak
        self.lines = []


# A table's outcome under a rule set, by what its seats bring (score, chombo, penalties, a
# substitute come in during play): the same from one standings run to the next, so after a
# confirmation only the new table is scored. Bounded: it starts over past SCORED_KEPT tables.
_SCORED: dict = {}
SCORED_KEPT = 50_000
RULE_SETS_KEPT = 8


def _scored(rules: RuleSet) -> dict:
    if rules not in _SCORED and len(_SCORED) >= RULE_SETS_KEPT:
        _SCORED.clear()  # rule sets changed since, or many tournaments: start over
    kept = _SCORED.setdefault(rules, {})
    if len(kept) > SCORED_KEPT:
        kept.clear()
    return kept


def _outcome(prep: Prepared, inputs: tuple) -> list[tuple]:
    """`score_table`'s outcome for each seat as the standings use it: place, result and game
    points in internal units, and the uma, penalty and result, then the game points, as shown
    (worked out once per outcome, kept with it)."""
    unit, decimals = prep.unit, prep.decimals
    return [
        (
            place,
            result,
            points,
            (
                output(uma, unit, decimals),
                output(penalty, unit, decimals),
                output(result, unit, decimals),
            ),
            output(points, 1, decimals),
        )
        for place, uma, penalty, result, points in score_table(prep, inputs)
    ]


def compute_standings(
    rules: RuleSet,
    players: list[PlayerRow],
    tables: list[TableRow],
    penalties: list[PenaltyRow] = (),
) -> Standings:
    """Ranked rows, unranked substitutes and teams from confirmed tables and resolved penalties.

    Ranking: total, then the tiebreak (game points when the rule set says so); equal keys share
    a rank, listed in the order `players` come in (the caller's: by name, in the tournament
    language's order). Disqualified players come after everyone else, excluded ones are left
    out, players flagged substitute are listed apart. Raises ValueError on rows that cannot be
    scored.
    """
    prep = Prepared(rules)
    scored = _scored(rules)
    unit, decimals, ret = prep.unit, prep.decimals, prep.return_points
    tp_only = prep.tp_only
    ema = prep.ema_substitutes
    fixed = output(prep.substitute, unit, decimals)
    by_key = {p.key: p for p in players}
    tallies = {p.key: _Tally() for p in players}
    if len(tallies) != len(players):
        raise ValueError("two players share a key")

    resolved = {}  # (session, player) → [before, after, chombo records, fixed]
    for row in penalties:
        if row.stage not in ("before", "after"):
            raise ValueError(f"penalty stage {row.stage!r}")
        slot = resolved.setdefault((row.session, row.player), [0, 0, 0, False])
        slot[row.stage == "after"] += exact(row.amount)
        slot[2] += row.kind == "chombo"
        slot[3] = slot[3] or row.fixed

    sessions = set()
    replaced = []
    for table in tables:
        seats = table.seats
        if not seats:
            continue
        session = table.session
        sessions.add(session)
        inputs, substitutes, fixed_seats = [], [], []
        for seat in seats:
            player = by_key.get(seat.player)
            if player is None:
                raise ValueError(
                    f"session {session} table {table.table}: unknown player {seat.player!r}"
                )
            slot = resolved.get((session, seat.player), (0, 0, 0, False))
            # A fixed player who still sat counts for the others' places only; their own line
            # is the fixed one, with their penalties, below.
            fixed_seats.append(slot[3])
            before, after = (0, 0) if slot[3] else resolved.pop((session, seat.player), slot)[:2]
            # A chombo the referee recorded and the sheet also counts is deducted once.
            chombo = max(0, seat.chombo - slot[2])
            substitute = seat.replaces is not None or player.substitute
            substitutes.append(substitute)
            during = substitute and seat.joined == "during"
            inputs.append((seat.score, chombo, before, after, during))
            if seat.replaces is not None:
                replaced.append((session, seat.replaces))
        inputs = tuple(inputs)
        outcome = scored.get(inputs)
        if outcome is None:
            outcome = scored[inputs] = _outcome(prep, inputs)
        for seat, substitute, is_fixed, (place, result, points, shown, shown_points) in zip(
            seats, substitutes, fixed_seats, outcome, strict=True
        ):
            if is_fixed:
                replaced.append((session, seat.player))
                continue
            tally = tallies[seat.player]
            score = seat.score if seat.score is not None else 0
            if ema and substitute:
                # 000 §5.7: "a substitute's session result is always 0 points and −30,000 uma".
                tally.total += prep.substitute
                shown = (fixed, 0, fixed)
            else:
                tally.total += result
                tally.points += points - ret
            tally.lines.append(
                SessionLine(
                    session,
                    table.table,
                    seat.wind,
                    score,
                    place,
                    *shown,
                    shown_points,
                    replaces=seat.replaces,
                )
            )

    # The replaced player's fixed line (000 §5.7: 0 points and −30,000; 002 §2.8.4: 0 TP, 0 GP),
    # then penalties of players who had no seat that session.
    replaced = dict.fromkeys(replaced)
    absent = [(pair, True) for pair in replaced]
    absent += [(pair, slot[3]) for pair, slot in resolved.items() if pair not in replaced]
    for (session, key), is_replaced in absent:
        tally = tallies.get(key)
        if tally is None:
            raise ValueError(f"session {session}: unknown player {key!r}")
        before, after = resolved.get((session, key), (0, 0))[:2]
        penalty = after * unit + (0 if tp_only else before * TIE_SCALE)
        base = prep.substitute if is_replaced else 0
        tally.total += base + penalty
        tally.points += before
        tally.lines.append(
            SessionLine(
                session,
                None,
                None,
                0 if is_replaced else None,
                None,
                output(base, unit, decimals),
                output(penalty, unit, decimals),
                output(base + penalty, unit, decimals),
                output(before, 1, decimals) if is_replaced or tp_only else None,
                replaced=is_replaced,
            )
        )

    use_tiebreak = rules.tiebreak == "game_points"

    def row(player, rank=None):
        tally = tallies[player.key]
        tally.lines.sort(key=attrgetter("session"))
        return StandingRow(
            rank,
            player,
            output(tally.total, unit, decimals),
            output(tally.points, 1, decimals) if use_tiebreak else None,
            tally.lines,
        )

    def sort_key(player):
        tally = tallies[player.key]
        return (tally.total, tally.points if use_tiebreak else 0)

    ranked, disqualified, substitutes = [], [], []
    for player in players:
        if player.status not in STATUSES:
            raise ValueError(f"player {player.key!r}: unknown status {player.status!r}")
        if player.status == "excluded":
            continue
        if player.substitute:
            substitutes.append(player)
        elif player.status == "disqualified":
            disqualified.append(player)
        else:
            ranked.append(player)

    rows = []
    for group in (ranked, disqualified):  # 000 §5.7: a disqualified player is placed last
        offset = len(rows)
        group = sorted(group, key=sort_key, reverse=True)
        rank, previous = 0, None
        for position, player in enumerate(group, start=offset + 1):
            key = sort_key(player)
            if key != previous:
                rank, previous = position, key
            rows.append(row(player, rank))
    substitute_rows = [row(p) for p in sorted(substitutes, key=sort_key, reverse=True)]

    return Standings(
        len(sessions), rows, substitute_rows, _teams(rows, tallies, use_tiebreak, unit, decimals)
    )


def _teams(rows, tallies, use_tiebreak, unit, decimals) -> list[TeamRow]:
    members, totals = {}, {}
    for standing in rows:
        team = standing.player.team
        if not team:
            continue
        tally = tallies[standing.player.key]
        members.setdefault(team, []).append(standing.player.key)
        total, points = totals.get(team, (0, 0))
        totals[team] = (total + tally.total, points + tally.points)
    if not members:
        return []

    def sort_key(team):
        total, points = totals[team]
        return (total, points if use_tiebreak else 0)

    teams = []
    rank, previous = 0, None
    ordered = sorted(sorted(members), key=sort_key, reverse=True)
    for position, team in enumerate(ordered, start=1):
        key = sort_key(team)
        if key != previous:
            rank, previous = position, key
        total, points = totals[team]
        teams.append(
            TeamRow(
                rank,
                team,
                output(total, unit, decimals),
                members[team],
                output(points, 1, decimals) if use_tiebreak else None,
            )
        )
    return teams
