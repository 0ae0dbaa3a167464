"""Exact numbers: the internal units a table's and a tournament's results are summed in.

Internally every result is kept in "units" = result unit × score_divisor × 12.
The riichi score part (score − return points) is then an integer, and a tie split among k ≤ 4
players always divides 12, so the hot path never needs Fraction. Fractions appear only when a
director types a fractional number (uma 4.5, penalty −0.5), and then they stay exact.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from mahjong.messages import gettext_noop
from mahjong.rulesets import RuleSet

# The units' names as the seeds write them (marked for the catalogue; the Django layer translates).
# A score is in table points for riichi (000 §5.6: "штраф в 1000 очок"), in game points for
# Sichuan (002 §2.1.4: "Игровые очки (ИО)"); a result in the rule set's result unit (002 §2.1.5:
# "Турнирные очки (ТО)"; 001 §13: rating points).
SCORE_UNITS = {"riichi": gettext_noop("points"), "sichuan": gettext_noop("GP")}
RESULT_UNITS = {
    "points": gettext_noop("points"),
    "rating": gettext_noop("rating points"),
    "tp": gettext_noop("TP"),
}


# What a session's placement brings, as each game's results call it: riichi's uma (000 §3.6.1),
# Sichuan's tournament points for the place (002 §2.1.5).
PLACEMENT = {"riichi": gettext_noop("Uma"), "sichuan": gettext_noop("TP")}


def placement_label(rules: RuleSet) -> str:
    """The name of what the place brings, a results column's heading: Uma, TP (English)."""
    return PLACEMENT[rules.game]


def score_unit(rules: RuleSet) -> str:
    """The name of the unit a table's scores are in: riichi points, Sichuan GP (English)."""
    return SCORE_UNITS[rules.game]


def result_unit(rules: RuleSet) -> str:
    """The name of the unit a session's results are in: points, rating points, TP (English)."""
    return RESULT_UNITS[rules.result_unit]


# lcm(1, 2, 3, 4): a tie among up to four players splits its placement points exactly.
TIE_SCALE = 12


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
