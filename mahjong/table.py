"""The arithmetic of one table: who may sit at it, whether its scores add up, and its places,
placement points, penalties and results.

docs/rules.md §1–§3 is the rule book; section numbers point into the seeds (000 EMA 2012,
001 Furiten, 002 SBR Sichuan).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from mahjong.messages import Problem, gettext_noop
from mahjong.rulesets import RuleSet
from mahjong.units import TIE_SCALE, Prepared, exact, output

STICK = 1000  # a riichi stick (docs/rules.md §5.1)


def three_player(rules: RuleSet) -> bool:
    """docs/rules.md §3, 002 §3.1: Sichuan seats the players left over three to a table (no
    North)."""
    return rules.game == "sichuan"


def is_awarded(rules: RuleSet, players: int) -> bool:
    """002 §3.1.4: a Sichuan table of one or two players plays no game; each player is awarded
    the rule set's `awarded_tp`. The one place the desk decides it."""
    return three_player(rules) and 1 <= players <= 2


def table_size_problems(rules: RuleSet, count: int) -> list[Problem]:
    """A table of `count` seats the game does not play: riichi seats four, Sichuan one to four
    (three-handed, or awarded with one or two; 002 §3.1)."""
    if rules.game == "sichuan":
        if not 1 <= count <= 4:
            return [
                Problem(
                    -1,
                    gettext_noop("A Sichuan table has 1 to 4 players, not {count}."),
                    count=count,
                )
            ]
    elif count != 4:
        return [
            Problem(-1, gettext_noop("A riichi table has 4 players, not {count}."), count=count)
        ]
    return []


def validate_scores(rules: RuleSet, scores: list) -> list[Problem]:
    """Problems with a table's recorded scores, as (seat index, message); −1 is the table."""
    count = len(scores)
    size = table_size_problems(rules, count)
    if size:
        return size
    if rules.game == "sichuan":
        if is_awarded(rules, count):
            return [
                Problem(i, gettext_noop("An awarded table (one or two players) has no scores."))
                for i, score in enumerate(scores)
                if score is not None
            ]

    problems = []
    for i, score in enumerate(scores):
        if score is None:
            problems.append(Problem(i, gettext_noop("The score is missing.")))
        elif not isinstance(score, int) or isinstance(score, bool):
            problems.append(Problem(i, gettext_noop("The score must be a whole number.")))
        elif score % rules.score_step:
            problems.append(
                Problem(
                    i,
                    gettext_noop("The score {score} is not a multiple of {step}."),
                    score=score,
                    step=rules.score_step,
                )
            )
    if all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        total, expected = sum(scores), count * rules.start_points
        # 001 §3.11: riichi sticks left on the table at the end are in no one's score.
        left_on_table = (
            rules.game == "riichi"
            and rules.sticks_at_end == "table"
            and total < expected
            and (expected - total) % STICK == 0
        )
        if total != expected and not left_on_table:
            if total > expected:
                template = gettext_noop(
                    "The scores add up to {total}, {difference} too many: they must add up to "
                    "{expected}."
                )
            else:
                template = gettext_noop(
                    "The scores add up to {total}, {difference} too few: they must add up to "
                    "{expected}."
                )
            problems.append(
                Problem(
                    -1, template, total=total, expected=expected, difference=abs(total - expected)
                )
            )
    return problems


class SeatInput(NamedTuple):
    player: str
    score: int | None
    chombo: int = 0
    penalty_before: int | float = 0  # score unit (riichi points, GP); counts for the places
    penalty_after: int | float = 0  # result unit, after placement
    substitute: bool = False
    joined: str = "start"  # "start" | "during"


class SeatOutcome(NamedTuple):
    place: int | None  # a shared place is the best place of the tie; None on an awarded table
    placement: int | float  # uma / TP, incl. the oka share
    penalty: int | float  # result unit: before-penalties converted, after-penalties, chombo
    result: int | float  # the session's contribution to the standings
    game_points: int | float  # score + penalty_before: what ranked the table


def score_table(prep: Prepared, seats) -> list[tuple]:
    """Core of table_outcome, in internal units.

    seats: (score, chombo, penalty_before, penalty_after, joined_during) with exact numbers.
    Returns per seat (place, placement, penalty, result, game_points); game_points unscaled.
    """
    n = len(seats)
    unit = prep.unit
    if n == 0:
        raise ValueError("a table without players")
    if is_awarded(prep.rules, n):
        # 002 §3.1.4: no game; an awarded 3 TP and 0 GP each.
        out = []
        for _score, _chombo, before, after, _during in seats:
            penalty = after * unit
            out.append((None, prep.awarded, penalty, prep.awarded + penalty, before))
        return out
    if n == 4:
        points, oka = prep.uma, prep.oka
    elif n == 3:
        points, oka = prep.uma3, prep.oka3
    else:
        raise ValueError(f"a table of {n} players")

    keys = []
    for i, seat in enumerate(seats):
        if seat[0] is None:
            raise ValueError(f"seat {i} has no score")
        keys.append(seat[0] + seat[2])
    order = sorted(range(n), key=keys.__getitem__, reverse=True)
    during = [prep.ema_substitutes and seat[4] for seat in seats]
    if True in during:
        # 000 §5.7: a substitute who came in during play takes last place for the others' uma.
        order = [i for i in order if not during[i]] + [i for i in order if during[i]]

    places = [0] * n
    shares = [0] * n
    pos = 0
    while pos < n:
        first = order[pos]
        end = pos + 1
        while end < n and keys[order[end]] == keys[first] and during[order[end]] == during[first]:
            end += 1
        total = sum(points[pos:end])
        if pos == 0:
            total += oka
        size = end - pos
        share = total // size if total % size == 0 else Fraction(total, size)
        for i in order[pos:end]:
            places[i] = pos + 1
            shares[i] = share
        pos = end

    out = []
    for i, (_score, chombo, before, after, _during) in enumerate(seats):
        penalty = after * unit + chombo * prep.chombo
        result = shares[i] + penalty
        if not prep.tp_only:  # riichi: the score counts, and so does a score-unit penalty
            penalty += before * TIE_SCALE
            result += (keys[i] - prep.return_points) * TIE_SCALE
        out.append((places[i], shares[i], penalty, result, keys[i]))
    return out


def table_outcome(rules: RuleSet, seats: list[SeatInput]) -> list[SeatOutcome]:
    """Places, placement points, penalties and results of one table, in seat order.

    Places go by score + penalty_before; ties split the placement points they cover
    (000 §3.6.1, 002 §2.7.5); the oka goes with first place. A Sichuan table of one or two
    players is awarded (002 §3.1). Raises ValueError on a table that cannot be scored.
    """
    prep = Prepared(rules)
    raw = score_table(
        prep,
        [
            (
                s.score,
                s.chombo,
                exact(s.penalty_before),
                exact(s.penalty_after),
                s.substitute and s.joined == "during",
            )
            for s in seats
        ],
    )
    unit, decimals = prep.unit, prep.decimals
    return [
        SeatOutcome(
            place,
            output(placement, unit, decimals),
            output(penalty, unit, decimals),
            output(result, unit, decimals),
            output(points, 1, decimals),
        )
        for place, placement, penalty, result, points in raw
    ]
