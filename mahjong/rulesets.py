"""Rule sets as data, and the arithmetic of one table.

Stdlib only, so it is tested directly and the Django layer only loads rows and shows results.
RULES.md §1–§3 is the rule book; section numbers point into the seeds (000 EMA 2012,
001 Furiten, 002 SBR Sichuan).

Exactness: internally every result is kept in "units" = result unit × score_divisor × 12.
The riichi score part (score − return points) is then an integer, and a tie split among k ≤ 4
players always divides 12, so the hot path never needs Fraction. Fractions appear only when a
director types a fractional number (uma 4.5, penalty −0.5), and then they stay exact.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

# lcm(1, 2, 3, 4): a tie among up to four players splits its placement points exactly.
TIE_SCALE = 12


def gettext_noop(message: str) -> str:
    """Marks `message` for the translation catalogue (makemessages looks for this name).

    Returns it unchanged: the Django layer translates the template when it shows it.
    """
    return message


class Words(str):
    """A message's param that is itself words of the catalogue ("on a discard"), not a value:
    core.errors.rule_message translates it with the template."""

    translatable = True


class RuleError(Exception):
    """A bad preset key or override. `field` names the override field ("ruleset" for the key).

    `message` is English; `template` and `params` let the Django layer translate the template
    and format it itself.
    """

    def __init__(self, field: str, message: str, **params):
        self.field = field
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        super().__init__(f"{field}: {self.message}")


class Problem(tuple):
    """(seat index, message); seat −1 is the whole table. Keeps template and params too."""

    def __new__(cls, seat: int, template: str, **params):
        self = super().__new__(cls, (seat, template.format(**params)))
        self.template = template
        self.params = params
        return self

    @property
    def seat(self) -> int:
        return self[0]

    @property
    def message(self) -> str:
        return self[1]


# --- rule fields -----------------------------------------------------------------------------


# A rule's number: a billion points is far past any rule book, and inside every column and
# float the results are computed in (issue 22: an uma of 1e30 made every page fail).
NUMBER_LIMIT = 10**9
STICK = 1000  # a riichi stick (RULES.md §5.1)
TEXT_LIMIT = 200  # a rule set's name


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _in_range(field, value):
    """A finite number no larger than NUMBER_LIMIT either way, or RuleError."""
    if not math.isfinite(value) or abs(value) > NUMBER_LIMIT:
        raise RuleError(
            field,
            gettext_noop("Must be between -{limit} and {limit}."),
            limit=f"{NUMBER_LIMIT:,}",
        )
    return value


def _tidy(value):
    """4.0 → 4, so overrides compare and print like the presets."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _text(field, value):
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise RuleError(field, gettext_noop("Must be a non-empty text."))
    if len(value.strip()) > TEXT_LIMIT:
        raise RuleError(
            field, gettext_noop("Must be at most {maximum} characters."), maximum=TEXT_LIMIT
        )
    return value.strip()


def _boolean(field, value):
    if not isinstance(value, bool):
        raise RuleError(field, gettext_noop("Must be true or false."))
    return value


def _choice(*options):
    def check(field, value):
        if value not in options:
            raise RuleError(
                field, gettext_noop("Must be one of: {options}."), options=", ".join(options)
            )
        return value

    return check


def _integer(minimum=None, maximum=None):
    def check(field, value):
        if not _is_number(value) or (isinstance(value, float) and not value.is_integer()):
            raise RuleError(field, gettext_noop("Must be a whole number."))
        value = int(_in_range(field, value))
        if minimum is not None and value < minimum:
            raise RuleError(field, gettext_noop("Must be at least {minimum}."), minimum=minimum)
        if maximum is not None and value > maximum:
            raise RuleError(field, gettext_noop("Must be at most {maximum}."), maximum=maximum)
        return value

    return check


def _number(sign=None):
    def check(field, value):
        if not _is_number(value):
            raise RuleError(field, gettext_noop("Must be a number."))
        _in_range(field, value)
        if sign == "-" and value > 0:
            raise RuleError(field, gettext_noop("Must be zero or negative."))
        if sign == "+" and value < 0:
            raise RuleError(field, gettext_noop("Must be zero or positive."))
        return _tidy(value)

    return check


def _numbers(lengths=None, sign=None):
    one = _number(sign)

    def check(field, value):
        if not isinstance(value, (list, tuple)) or (lengths and len(value) not in lengths):
            if lengths:
                raise RuleError(
                    field,
                    gettext_noop("Must be a list of {count} numbers."),
                    count=" or ".join(str(n) for n in lengths),
                )
            raise RuleError(field, gettext_noop("Must be a list of numbers."))
        return tuple(one(field, v) for v in value)

    return check


def _steps(field, value):
    if not isinstance(value, (list, tuple)):
        raise RuleError(field, gettext_noop("Must be a list of [minutes, amount] pairs."))
    steps, last = [], 0
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise RuleError(field, gettext_noop("Must be a list of [minutes, amount] pairs."))
        minutes = _integer(1)(field, pair[0])
        if minutes <= last:
            raise RuleError(
                field, gettext_noop("The minutes must increase from one step to the next.")
            )
        steps.append((minutes, _number("-")(field, pair[1])))
        last = minutes
    return tuple(steps)


def _cells(field, value):
    """Cells of a scoring table a seed prints otherwise than fu × 2^(han + 2): [han, fu, base]."""
    if not isinstance(value, (list, tuple)):
        raise RuleError(field, gettext_noop("Must be a list of [han, fu, base points] cells."))
    cells = []
    for cell in value:
        if not isinstance(cell, (list, tuple)) or len(cell) != 3:
            raise RuleError(field, gettext_noop("Must be a list of [han, fu, base points] cells."))
        han, fu, base = (_integer(1)(field, v) for v in cell)
        if han > 4 or fu > 110 or base > 2000:
            raise RuleError(
                field, gettext_noop("A cell is up to 4 han, 110 fu and 2,000 base points.")
            )
        cells.append((han, fu, base))
    return tuple(cells)


class RuleField(NamedTuple):
    """One overridable field of RuleSet: how an override is checked and how the rules page
    shows it. Labels are English, marked for the catalogue; the Django layer translates them."""

    name: str
    check: Callable  # (field, JSON value) → the value the rule set holds, or RuleError
    label: str | None  # None: not on the rules page (the preset's name comes with the preset)
    choices: tuple  # ((value, label), ...); () when any value the check accepts goes


def _rule(check=None, *, label=None, choices=()):
    """A RuleSet field with its schema; a field with choices accepts exactly their values."""
    if check is None:
        check = _choice(*(value for value, _label in choices))
    return dataclasses.field(metadata={"check": check, "label": label, "choices": choices})


@dataclass(frozen=True)
class RuleSet:
    """One rule set. Every field but `key` is declared with its schema (RULE_FIELDS), so the
    override checks, the rules page and the tournament file cannot disagree about a field."""

    key: str
    name: str = _rule(_text)
    game: str = _rule(
        label=gettext_noop("Game"),
        choices=(("riichi", gettext_noop("riichi")), ("sichuan", gettext_noop("Sichuan"))),
    )
    start_points: int = _rule(_integer(0), label=gettext_noop("Start points"))
    return_points: int = _rule(_integer(0), label=gettext_noop("Return points"))
    # placement points for places 1..4, in the result unit
    uma: tuple = _rule(
        _numbers((4,)), label=gettext_noop("Uma / placement points (1st, 2nd, 3rd, 4th)")
    )
    uma3: tuple = _rule(
        _numbers((3,)), label=gettext_noop("Placement points at three-player tables")
    )
    tie_mode: str = _rule(
        label=gettext_noop("Ties"),
        choices=(("split", gettext_noop("ties share the placement points equally")),),
    )
    # tp: the result is the placement points only
    result_unit: str = _rule(
        label=gettext_noop("Result unit"),
        choices=(
            ("points", gettext_noop("points")),
            ("rating", gettext_noop("rating points")),
            ("tp", gettext_noop("tournament points (TP)")),
        ),
    )
    # result = (score − return_points) / score_divisor + placement
    score_divisor: int = _rule(_integer(1), label=gettext_noop("Score divisor"))
    decimals: int = _rule(_integer(0, 6), label=gettext_noop("Decimals"))
    score_step: int = _rule(_integer(1), label=gettext_noop("Score step"))
    chombo_mode: str = _rule(
        label=gettext_noop("Chombo"),
        choices=(
            ("in_scores", gettext_noop("paid at the table (inside the scores)")),
            ("after_placement", gettext_noop("deducted after placement")),
        ),
    )
    # result unit, per chombo, after_placement only
    chombo_amount: int | float = _rule(_number("-"), label=gettext_noop("Chombo amount"))
    tiebreak: str = _rule(
        label=gettext_noop("Tiebreak"),
        choices=(
            ("none", gettext_noop("none")),
            ("game_points", gettext_noop("total game points")),
        ),
    )
    # each player of a Sichuan table of one or two players
    awarded_tp: int | float = _rule(_number("+"), label=gettext_noop("TP at an awarded table"))
    # score unit
    late_per_minute: int | float = _rule(
        _number("-"), label=gettext_noop("Late arrival, per minute")
    )
    # ((up_to_minutes, amount), ...), score unit
    late_steps: tuple = _rule(_steps, label=gettext_noop("Late steps (minutes:amount, …)"))
    # later than this: a substitute plays
    late_max_minutes: int = _rule(_integer(0), label=gettext_noop("Latest arrival (minutes)"))
    late_stage: str = _rule(
        label=gettext_noop("Late arrival penalty counts"),
        choices=(
            ("before_placement", gettext_noop("before placement (can change places)")),
            ("after_placement", gettext_noop("after placement")),
        ),
    )
    misconduct_amounts: tuple = _rule(_numbers(sign="-"), label=gettext_noop("Misconduct amounts"))
    serious_misconduct_range: tuple = _rule(
        _numbers((0, 2), sign="-"), label=gettext_noop("Serious misconduct range")
    )
    # nth minor violation in a session → nth amount
    progressive_scale: tuple = _rule(
        _numbers(sign="-"), label=gettext_noop("Progressive scale for minor violations")
    )
    substitute_mode: str = _rule(
        label=gettext_noop("Substitutes"),
        choices=(
            ("ema", gettext_noop("EMA 2012 (000 §5.7)")),
            ("sbr", gettext_noop("SBR 2025 (002 §2.8.4)")),
        ),
    )
    # result unit: replaced player's (and EMA substitute's) line
    substitute_result: int | float = _rule(_number(), label=gettext_noop("Substitute's result"))
    session_minutes: int = _rule(_integer(1), label=gettext_noop("Session length (minutes)"))
    warning_minutes: int = _rule(
        _integer(0), label=gettext_noop("Warning before the end (minutes)")
    )
    end_of_session: str = _rule(
        label=gettext_noop("End of a timed session"),
        choices=(
            (
                "one_more_hand",
                gettext_noop("after the warning: finish the hand and play one more (EMA 000 §5.8)"),
            ),
            (
                "finish_hand",
                gettext_noop("at the end signal: play out the hand in progress (SBR 002 §2.4.4)"),
            ),
        ),
    )
    start_signal: bool = _rule(_boolean, label=gettext_noop("Bell at the start"))
    # EMA gives no signal at time up
    time_up_signal: bool = _rule(_boolean, label=gettext_noop("Bell at time up"))
    # the projector shows "find your table" this long after start
    seating_display_minutes: int = _rule(
        _integer(0),
        label=gettext_noop("Projector shows the seating for (minutes after the start)"),
    )
    appeal_window_minutes: int = _rule(
        _integer(0), label=gettext_noop("Appeal window (minutes after the session)")
    )
    # deposit = this × the tournament fee
    appeal_deposit_fees: int | float = _rule(
        _number("+"), label=gettext_noop("Appeal deposit (× fee)")
    )

    # --- hand by hand (RULES.md §5.1); riichi only ---
    ron_20_fu: bool = _rule(_boolean, label=gettext_noop("A hand of 20 fu can win on a discard"))
    # (han, fu, base points) where the seed's table prints a cell the formula does not give
    hand_cells: tuple = _rule(
        _cells, label=gettext_noop("Scoring table cells that differ (han:fu:base points, …)")
    )
    double_yakuman: bool = _rule(_boolean, label=gettext_noop("Double yakuman paid"))
    sticks_at_end: str = _rule(
        label=gettext_noop("Riichi sticks left when the game ends"),
        choices=(
            ("winner", gettext_noop("to the winner of the game, split if first place is shared")),
            ("table", gettext_noop("stay on the table (the scores sum to less)")),
        ),
    )
    nagashi_noten: bool = _rule(
        _boolean, label=gettext_noop("Noten payments in a hand of nagashi mangan")
    )
    counters_on_pass: str = _rule(
        label=gettext_noop("Counters after a draw in which the dealership passes"),
        choices=(
            ("keep", gettext_noop("one more counter, as after every draw")),
            ("return", gettext_noop("the counters go back: none stays")),
        ),
    )
    end_below_zero: bool = _rule(
        _boolean, label=gettext_noop("The game ends when a score is below zero")
    )

    @property
    def oka(self) -> int:
        """Score points to first place; with oka every result is taken against return_points."""
        return 4 * (self.return_points - self.start_points)


# Field name → its schema, in RuleSet's order: the fields an override or the rules page may set.
RULE_FIELDS: dict[str, RuleField] = {
    f.name: RuleField(f.name, **f.metadata) for f in fields(RuleSet) if f.metadata
}
FIELD_NAMES: tuple[str, ...] = tuple(RULE_FIELDS)


PRESETS: dict[str, RuleSet] = {
    "ema-2012": RuleSet(
        key="ema-2012",
        name=gettext_noop("EMA Riichi Competition Rules 2012"),
        game="riichi",
        start_points=30000,
        return_points=30000,  # no oka in EMA 2012
        uma=(30000, 10000, -10000, -30000),  # 000 §3.6.1
        # EMA defines no three-player game; a symmetric value in case a director allows one.
        uma3=(30000, 0, -30000),
        tie_mode="split",
        result_unit="points",
        score_divisor=1,
        decimals=0,
        score_step=100,
        chombo_mode="in_scores",  # 000 §3.4.6: paid at the table like a mangan
        chombo_amount=0,
        tiebreak="none",
        awarded_tp=0,
        late_per_minute=-1000,  # 000 §5.6
        late_steps=(),
        late_max_minutes=10,
        late_stage="before_placement",
        misconduct_amounts=(-8000, -12000),  # 000 §5.5
        serious_misconduct_range=(-12000, -48000),
        progressive_scale=(),
        substitute_mode="ema",  # 000 §5.7
        substitute_result=-30000,
        session_minutes=90,  # 000 §5.8
        warning_minutes=15,
        end_of_session="one_more_hand",  # 000 §5.8: finish the hand and play one more
        start_signal=True,  # 000 §5.8: no dice before the start signal
        time_up_signal=False,  # 000 §5.8: "There will be no signal at the 90-minute mark"
        seating_display_minutes=10,
        appeal_window_minutes=30,  # EMA 2012 sets none; the SBR value as a default
        appeal_deposit_fees=0,
        ron_20_fu=False,  # 000's tables: no 20 fu row on a ron
        hand_cells=(),
        double_yakuman=True,  # RULES.md §5.1: only Big Four Winds, 16,000 base
        sticks_at_end="winner",  # 000 §3.6: "the winner gets all riichi bets left"
        nagashi_noten=False,  # 000 §4.2.4 names only the mangan, counters and bets
        counters_on_pass="keep",  # 000 §3.4.9: a counter after every drawn hand
        end_below_zero=False,  # EMA plays on below zero (000 §3.6: East and South only)
    ),
    "furiten-club": RuleSet(
        key="furiten-club",
        name=gettext_noop("Furiten club rating games"),
        game="riichi",
        start_points=30000,  # 001 §2.4
        return_points=30000,
        uma=(9, 3, -3, -9),  # 001 §13.4
        uma3=(9, 0, -9),  # no three-player game in 001; symmetric like EMA
        tie_mode="split",
        result_unit="rating",
        score_divisor=1000,  # 001 §13.3
        decimals=1,  # 001 §13.2
        score_step=100,
        chombo_mode="after_placement",  # 001 §7.2: mangan at the table and −20 rating
        chombo_amount=-20,
        tiebreak="none",
        awarded_tp=0,
        # 001 has no late, misconduct or substitute rules: nothing by default, a director adds
        # them; a substitute line is "0 points and last place" as in EMA.
        late_per_minute=0,
        late_steps=(),
        late_max_minutes=0,
        late_stage="before_placement",
        misconduct_amounts=(),
        serious_misconduct_range=(),
        progressive_scale=(),
        substitute_mode="ema",
        substitute_result=-9,
        session_minutes=90,  # a hanchan, as in EMA
        warning_minutes=15,
        end_of_session="one_more_hand",  # 001 sets no clock: as in EMA
        start_signal=True,
        time_up_signal=False,
        seating_display_minutes=10,
        appeal_window_minutes=30,
        appeal_deposit_fees=0,
        ron_20_fu=True,  # 001 §12: 20 fu base, and tables 1–2 print a 20 fu row on a ron
        # 001 tables 1–2 print 800 / 1,200 for 1 han 20 fu on a ron (base 200, not 160), and
        # §12.1 says points are read from the table.
        hand_cells=((1, 20, 200),),
        double_yakuman=False,  # 001 §12.2: yakuman hands do not add up
        sticks_at_end="table",  # 001 §3.11: "the riichi deposit stays on the table"
        nagashi_noten=False,
        counters_on_pass="return",  # 001 §5.3: the honba "returns to him when he changes"
        end_below_zero=True,  # 001 §2.2: the game ends once a score is negative
    ),
    "sbr-2025": RuleSet(
        key="sbr-2025",
        name=gettext_noop("Sichuan (SBR), Mahjong Federation 2025"),
        game="sichuan",
        start_points=0,
        return_points=0,
        uma=(4, 3, 2, 1),  # 002 §2.7.5: tournament points
        uma3=(4, 3, 2),  # 002 §3.1
        tie_mode="split",
        result_unit="tp",
        score_divisor=1,
        decimals=2,
        score_step=1,
        chombo_mode="in_scores",  # false mahjong, pig etc. are paid inside the GP (002 §2.8.4)
        chombo_amount=0,
        tiebreak="game_points",
        awarded_tp=3,  # 002 §3.1.4
        late_per_minute=0,
        late_steps=((10, -8), (15, -16)),  # 002 §2.8.4 item 5, game points
        late_max_minutes=15,
        late_stage="before_placement",
        misconduct_amounts=(),
        serious_misconduct_range=(),
        progressive_scale=(0, -2, -4, -8, -16, -24, -48),  # 002 §2.8.2
        substitute_mode="sbr",
        substitute_result=0,  # 002 §2.8.4: the replaced player gets 0 TP and 0 GP
        session_minutes=60,  # 002 §2.4.4: "usually 35 to 80 minutes"; a middle value
        warning_minutes=15,  # 002 §2.4.4: the head referee announces 15 minutes left
        end_of_session="finish_hand",  # 002 §2.4.4: the hand in progress is played out
        start_signal=True,
        time_up_signal=True,  # 002 §2.4.4: the end signal (gong)
        seating_display_minutes=10,
        appeal_window_minutes=30,  # 002 §2.9.2
        appeal_deposit_fees=2,  # 002 §2.9.2: 2F
        # riichi hand fields: unused by Sichuan (RULES.md §5.2), the EMA values
        ron_20_fu=False,
        hand_cells=(),
        double_yakuman=True,
        sticks_at_end="winner",
        nagashi_noten=False,
        counters_on_pass="keep",
        end_below_zero=False,
    ),
}


# --- overrides -------------------------------------------------------------------------------


def ruleset_from(key: str, overrides: dict | None = None) -> RuleSet:
    """The preset `key` with `overrides` (field name → JSON value) applied and checked."""
    preset = PRESETS.get(key) if isinstance(key, str) else None  # a list or a map names none
    if preset is None:
        raise RuleError(
            "ruleset",
            gettext_noop("Unknown rule set {key!r}; known: {known}."),
            key=key,
            known=", ".join(PRESETS),
        )
    if not overrides:
        return preset
    if not isinstance(overrides, dict):
        raise RuleError(
            "rules", gettext_noop("Rule overrides must be an object of field names and values.")
        )
    values = asdict(preset)
    for field, value in overrides.items():
        rule = RULE_FIELDS.get(field)
        if rule is None:
            raise RuleError(field, gettext_noop("Unknown rule field {name!r}."), name=field)
        values[field] = rule.check(field, value)
    if values["return_points"] < values["start_points"]:
        raise RuleError("return_points", gettext_noop("Must not be below the start points."))
    if values["decimals"] > 6:
        raise RuleError("decimals", gettext_noop("Must be at most 6."))
    return RuleSet(**values)


def _jsonable(value):
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def ruleset_to_dict(rules: RuleSet) -> dict:
    """Every field, tuples as lists (what json.dumps would write anyway)."""
    return {f.name: _jsonable(getattr(rules, f.name)) for f in fields(RuleSet)}


def rules_overrides(rules: RuleSet) -> dict:
    """The fields that differ from the preset: what a tournament stores."""
    preset = PRESETS.get(rules.key)
    if preset is None:
        raise RuleError(
            "ruleset",
            gettext_noop("Unknown rule set {key!r}; known: {known}."),
            key=rules.key,
            known=", ".join(PRESETS),
        )
    return {
        name: _jsonable(getattr(rules, name))
        for name in FIELD_NAMES
        if getattr(rules, name) != getattr(preset, name)
    }


# --- one table --------------------------------------------------------------------------------


def three_player(rules: RuleSet) -> bool:
    """RULES.md §3, 002 §3.1: Sichuan seats the players left over three to a table (no North)."""
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


def exact(value):
    """int, Fraction or a float/Decimal turned into the decimal it was written as."""
    if type(value) is int or isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else Fraction(str(value))
    if isinstance(value, Decimal):
        value = Fraction(value)
        return value.numerator if value.denominator == 1 else value
    raise TypeError(f"not a number: {value!r}")


def output(value, denominator: int, decimals: int):
    """value / denominator as an int when whole, else a float rounded half away from zero."""
    if type(value) is int:
        if value % denominator == 0:
            return value // denominator
        num, den = value, denominator
    else:
        num, den = value.numerator, value.denominator * denominator
        if num % den == 0:
            return num // den
    scale = 10**decimals
    q, r = divmod(abs(num) * scale, den)
    if 2 * r >= den:
        q += 1
    if num < 0:
        q = -q
    if q % scale == 0:
        return q // scale
    return q / scale


class Prepared:
    """A rule set's numbers in internal units, computed once per standings run."""

    __slots__ = (
        "unit",
        "tp_only",
        "ema_substitutes",
        "rules",
        "uma",
        "uma3",
        "oka",
        "oka3",
        "return_points",
        "chombo",
        "awarded",
        "substitute",
        "decimals",
    )

    def __init__(self, rules: RuleSet):
        self.unit = unit = TIE_SCALE * rules.score_divisor  # internal units per result unit
        self.tp_only = rules.result_unit == "tp"
        self.ema_substitutes = rules.substitute_mode == "ema"
        self.rules = rules
        self.uma = tuple(exact(u) * unit for u in rules.uma)
        self.uma3 = tuple(exact(u) * unit for u in rules.uma3)
        # Oka is in score points; n × (return − start) keeps a table's results summing to zero.
        # Results in TP do not count score points, so there is no oka to give.
        spread = 0 if self.tp_only else (rules.return_points - rules.start_points) * TIE_SCALE
        self.oka, self.oka3 = 4 * spread, 3 * spread
        self.return_points = rules.return_points
        after = rules.chombo_mode == "after_placement"
        self.chombo = exact(rules.chombo_amount) * unit if after else 0
        self.awarded = exact(rules.awarded_tp) * unit
        self.substitute = exact(rules.substitute_result) * unit
        self.decimals = rules.decimals


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
