"""Rule sets as data: RuleSet, each field declared with its schema (how an override is
checked, how the rules page shows it).

Stdlib only, so it is tested directly and the Django layer only loads rows and shows results.
docs/rules.md §1–§3 is the rule book; section numbers point into the seeds (000 EMA 2012,
001 Furiten, 002 SBR Sichuan).

The presets, and reading and writing a rule set as JSON, are mahjong.presets.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import NamedTuple

from mahjong.messages import RuleError, gettext_noop

# --- rule fields -----------------------------------------------------------------------------


# A rule's number: a billion points is far past any rule book, and inside every column and
# float the results are computed in (issue 22: an uma of 1e30 made every page fail).
NUMBER_LIMIT = 10**9
TEXT_LIMIT = 200  # a rule set's name


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _in_range(field, value):
    """A finite number no larger than NUMBER_LIMIT either way, or RuleError."""
    if not math.isfinite(value) or abs(value) > NUMBER_LIMIT:
        raise RuleError(
            field,
            gettext_noop("Must be between -{limit} and {limit}."),
            limit=NUMBER_LIMIT,  # grouped as the reader writes it (core.errors)
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


GAMES = ("riichi", "sichuan")
RIICHI = ("riichi",)
SICHUAN = ("sichuan",)


class GameWords(NamedTuple):
    """A field in one game's own words: its label, and its choices' labels where they differ."""

    label: str
    choices: tuple = ()  # ((value, label), ...) of the same values; () keeps the field's own


class RuleField(NamedTuple):
    """One overridable field of RuleSet: how an override is checked and how the rules page
    shows it. Labels are English, marked for the catalogue; the Django layer translates them."""

    name: str
    check: Callable  # (field, JSON value) → the value the rule set holds, or RuleError
    label: str | None  # None: not on the rules page (the preset's name comes with the preset)
    choices: tuple  # ((value, label), ...); () when any value the check accepts goes
    # The games whose play the field changes: the rules page shows it only to them (issue 37:
    # a Sichuan tournament was shown uma, oka, riichi sticks and counters, which its game has not).
    games: tuple = GAMES
    words: tuple = ()  # ((game, GameWords), ...): where a game names the field otherwise

    def shown_in(self, game: str) -> bool:
        """Whether the rules page of a `game` tournament shows the field."""
        return self.label is not None and game in self.games

    def in_words_of(self, game: str) -> GameWords:
        """The field's label and choices as `game` names them (English, for the catalogue)."""
        own = dict(self.words).get(game)
        if own is None:
            return GameWords(self.label, self.choices)
        return GameWords(own.label, own.choices or self.choices)


def _rule(check=None, *, label=None, choices=(), games=GAMES, words=()):
    """A RuleSet field with its schema; a field with choices accepts exactly their values."""
    if check is None:
        check = _choice(*(value for value, _label in choices))
    return dataclasses.field(
        metadata={
            "check": check,
            "label": label,
            "choices": choices,
            "games": games,
            "words": words,
        }
    )


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
    # Riichi's table points and oka; a Sichuan hand's game points start from nothing (002 §2.1.4).
    start_points: int = _rule(_integer(0), label=gettext_noop("Start points"), games=RIICHI)
    return_points: int = _rule(_integer(0), label=gettext_noop("Return points"), games=RIICHI)
    # placement points for places 1..4, in the result unit
    uma: tuple = _rule(
        _numbers((4,)),
        label=gettext_noop("Uma / placement points (1st, 2nd, 3rd, 4th)"),
        # 002 §2.7.5: the places' tournament points, 4, 3, 2, 1
        words=(
            (
                "sichuan",
                GameWords(gettext_noop("Tournament points (TP) by place (1st, 2nd, 3rd, 4th)")),
            ),
        ),
    )
    # Only Sichuan seats three at a table (002 §3.1; mahjong.table.three_player)
    uma3: tuple = _rule(
        _numbers((3,)),
        label=gettext_noop("Tournament points (TP) at a table of three (1st, 2nd, 3rd)"),
        games=SICHUAN,
    )
    tie_mode: str = _rule(
        label=gettext_noop("Ties"),
        choices=(("split", gettext_noop("ties share the placement points equally")),),
        words=(
            (
                "sichuan",
                GameWords(
                    gettext_noop("Ties"),
                    (("split", gettext_noop("ties share the tournament points equally")),),
                ),
            ),
        ),
    )
    # tp: the result is the placement points only; Sichuan's always is (002 §2.1.5)
    result_unit: str = _rule(
        games=RIICHI,
        label=gettext_noop("Result unit"),
        choices=(
            ("points", gettext_noop("points")),
            ("rating", gettext_noop("rating points")),
            ("tp", gettext_noop("tournament points (TP)")),
        ),
    )
    # result = (score − return_points) / score_divisor + placement
    score_divisor: int = _rule(_integer(1), label=gettext_noop("Score divisor"), games=RIICHI)
    decimals: int = _rule(_integer(0, 6), label=gettext_noop("Decimals"))
    # Sichuan's game points are whole (002 §2.1.4): a step of 1
    score_step: int = _rule(_integer(1), label=gettext_noop("Score step"), games=RIICHI)
    # Sichuan pays its false hu and pig inside the hands (002 §2.8.4): no chombo
    chombo_mode: str = _rule(
        games=RIICHI,
        label=gettext_noop("Chombo"),
        choices=(
            ("in_scores", gettext_noop("paid at the table (inside the scores)")),
            ("after_placement", gettext_noop("deducted after placement")),
        ),
    )
    # result unit, per chombo, after_placement only
    chombo_amount: int | float = _rule(
        _number("-"), label=gettext_noop("Chombo amount"), games=RIICHI
    )
    tiebreak: str = _rule(
        label=gettext_noop("Tiebreak"),
        choices=(
            ("none", gettext_noop("none")),
            ("game_points", gettext_noop("total game points")),
        ),
    )
    # each player of a Sichuan table of one or two players
    awarded_tp: int | float = _rule(
        _number("+"), label=gettext_noop("TP at an awarded table"), games=SICHUAN
    )
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
    substitute_result: int | float = _rule(
        _number(),
        label=gettext_noop("Substitute's result"),
        # 002 §2.8.4 item 5: the replaced player's fixed line, 0 TP
        words=(("sichuan", GameWords(gettext_noop("TP of a replaced player"))),),
    )
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

    # --- hand by hand (docs/rules.md §5.1); riichi only ---
    ron_20_fu: bool = _rule(
        _boolean, games=RIICHI, label=gettext_noop("A hand of 20 fu can win on a discard")
    )
    # (han, fu, base points) where the seed's table prints a cell the formula does not give
    hand_cells: tuple = _rule(
        _cells,
        games=RIICHI,
        label=gettext_noop("Scoring table cells that differ (han:fu:base points, …)"),
    )
    double_yakuman: bool = _rule(_boolean, games=RIICHI, label=gettext_noop("Double yakuman paid"))
    sticks_at_end: str = _rule(
        games=RIICHI,
        label=gettext_noop("Riichi sticks left when the game ends"),
        choices=(
            ("winner", gettext_noop("to the winner of the game, split if first place is shared")),
            ("table", gettext_noop("stay on the table (the scores sum to less)")),
        ),
    )
    nagashi_noten: bool = _rule(
        _boolean, games=RIICHI, label=gettext_noop("Noten payments in a hand of nagashi mangan")
    )
    counters_on_pass: str = _rule(
        games=RIICHI,
        label=gettext_noop("Counters after a draw in which the dealership passes"),
        choices=(
            ("keep", gettext_noop("one more counter, as after every draw")),
            ("return", gettext_noop("the counters go back: none stays")),
        ),
    )
    end_below_zero: bool = _rule(
        _boolean, games=RIICHI, label=gettext_noop("The game ends when a score is below zero")
    )
    # riichi: who may win on one discard, and three players claiming it (docs/rules.md §5.1)
    ron_winners: str = _rule(
        games=RIICHI,
        label=gettext_noop("Winners on one discard"),
        choices=(
            ("several", gettext_noop("several: the discarder pays each (EMA 000 §4.1)")),
            (
                "one",
                gettext_noop("one: the first in turn after the discarder (Furiten 001 §10.4)"),
            ),
        ),
    )
    triple_ron: str = _rule(
        games=RIICHI,
        label=gettext_noop("Three players winning on one discard"),
        choices=(
            ("paid", gettext_noop("each winner is paid")),
            ("redeal", gettext_noop("a redeal, like an abortive draw (Furiten 001 §5.5)")),
        ),
    )
    nagashi: bool = _rule(_boolean, games=RIICHI, label=gettext_noop("Nagashi mangan"))
    # the yakuman whose responsible player pays (wins[].pao); "none": no pao
    pao_hands: str = _rule(
        games=RIICHI,
        label=gettext_noop("Responsibility (pao) for a yakuman"),
        choices=(
            ("none", gettext_noop("none")),
            (
                "dragons_winds",
                gettext_noop("Big Three Dragons, Big Four Winds (EMA 000 §3.3.6)"),
            ),
            (
                "dragons_winds_kongs",
                gettext_noop("Big Three Dragons, Big Four Winds, Four Kongs (Furiten 001 §8.2)"),
            ),
        ),
    )
    # who pays a win on the replacement tile after an open kan (a tsumo's kan_from)
    open_kan_rinshan: str = _rule(
        games=RIICHI,
        label=gettext_noop("A win on the replacement tile after an open kan"),
        choices=(
            ("self_draw", gettext_noop("a self-draw: every other player pays")),
            (
                "kan_giver",
                gettext_noop(
                    "the player who gave the kan tile pays it all, as a ron (Furiten 001 §2.18)"
                ),
            ),
        ),
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
