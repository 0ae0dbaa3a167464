"""Penalties by rule set: what a recorded penalty is worth and where it counts (stdlib only).

A penalty record holds what the referee saw (a kind, minutes late, an amount chosen from the
rule set's range); `resolve` turns it into the number the standings deduct and the stage it
counts at. Amounts come from the rule set; only the kinds that take an amount carry one.
docs/rules.md §1 (000 §5.5, §5.6), §2 (001 §7.2), §3 (002 §2.8.2, §2.8.4 item 5).
"""

from __future__ import annotations

from typing import NamedTuple

from mahjong.messages import RuleError, gettext_noop
from mahjong.rulesets import RuleSet
from mahjong.units import result_unit, score_unit

LATE = "late"
MISCONDUCT = "misconduct"
MINOR = "minor"
CHOMBO = "chombo"
OTHER = "other"
KINDS = (LATE, MISCONDUCT, MINOR, CHOMBO, OTHER)

BEFORE = "before"  # score unit (riichi points, GP); counts for the places at the table
AFTER = "after"  # result unit (points, rating, TP); after placement, never moves a place
STAGES = (BEFORE, AFTER)


class Resolved(NamedTuple):
    amount: int | float  # ≤ 0; in the score unit when stage is BEFORE, else the result unit
    stage: str
    fixed: bool = False  # the player's session is the fixed "replaced" line (late past the limit)


def late_amount(rules: RuleSet, minutes: int) -> tuple[int | float, bool]:
    """(amount, past the limit) for `minutes` late.

    EMA 000 §5.6: −1,000 a minute up to 10 minutes; later, a substitute plays.
    SBR 002 §2.8.4 item 5: up to 10 minutes −8 GP, 10 to 15 minutes −16 GP; later a fixed
    0 TP / 0 GP. Past the limit the amount is 0: the fixed line is the whole penalty.
    """
    if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes < 1:
        raise RuleError(
            "minutes", gettext_noop("Minutes late must be a whole number of at least 1.")
        )
    if rules.late_max_minutes and minutes > rules.late_max_minutes:
        return 0, True
    for up_to, amount in rules.late_steps:
        if minutes <= up_to:
            return amount, False
    if rules.late_steps:  # past the last step but within the limit: the last step
        return rules.late_steps[-1][1], False
    return rules.late_per_minute * minutes, False


def minor_amount(rules: RuleSet, order: int) -> int | float:
    """What the `order`-th minor violation of a session costs (002 §2.8.2).

    The scale 0 (warning), −2, −4, −8, −16, −24, −48 is where the player stands after each
    violation ("по совокупности"): the nth one costs the step from the (n−1)th position. Past
    the last step the game points stay where they are; the head referee may add a TP penalty
    or disqualify, each recorded as its own act.
    """
    scale = rules.progressive_scale
    if not scale:
        raise RuleError(
            "kind", gettext_noop("This rule set has no progressive scale for minor violations.")
        )
    if order > len(scale):
        return 0
    previous = scale[order - 2] if order >= 2 else 0
    return scale[order - 1] - previous


def scale_position(rules: RuleSet, count: int) -> dict:
    """Where a player with `count` minor violations this session stands, and what comes next."""
    scale = rules.progressive_scale
    total = scale[min(count, len(scale)) - 1] if count else 0
    nxt = count + 1
    return {
        "count": count,
        "total": total,
        "next": minor_amount(rules, nxt) if nxt <= len(scale) else None,
        "exhausted": count >= len(scale),
        "scale": scale,
    }


def check_amount(rules: RuleSet, kind: str, amount) -> int | float:
    """The amount a referee chose, checked against the rule set; raises RuleError("amount")."""
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise RuleError("amount", gettext_noop("Give the penalty amount as a number."))
    if amount > 0:
        raise RuleError(
            "amount", gettext_noop("A penalty is zero or negative, not {amount}."), amount=amount
        )
    if kind == MISCONDUCT:
        allowed = set(rules.misconduct_amounts)
        serious = rules.serious_misconduct_range
        if serious:
            low, high = max(serious), min(serious)  # −12,000 … −48,000
            if high <= amount <= low:
                return amount
        if amount in allowed:
            return amount
        if not allowed and not serious:
            raise RuleError("kind", gettext_noop("This rule set defines no misconduct penalty."))
        choices = ", ".join(str(a) for a in rules.misconduct_amounts)
        if serious:
            choices += f"; {max(serious)} to {min(serious)}"
        raise RuleError(
            "amount",
            gettext_noop("A misconduct penalty here is one of: {choices}."),
            choices=choices,
        )
    return amount


def resolve(
    rules: RuleSet,
    kind: str,
    *,
    minutes: int | None = None,
    amount=None,
    order: int = 1,
    stage: str | None = None,
) -> Resolved:
    """The deduction and its stage for one penalty record (docs/formats.md `penalties[]`).

    late: from `minutes` by the rule set. minor: from the progressive scale by its `order`
    within the session. misconduct: `amount` within the rule set's range. chombo: the rule
    set's amount where it deducts chombo after placement (001 §7.2). other: a free `amount`
    at the given `stage`. An explicit `amount` always wins for late and minor too (a file
    may carry one).
    """
    if kind == LATE:
        if amount is not None:
            return Resolved(check_amount(rules, OTHER, amount), _late_stage(rules))
        value, fixed = late_amount(rules, minutes)
        return Resolved(value, _late_stage(rules), fixed)
    if kind == MINOR:
        value = minor_amount(rules, order) if amount is None else check_amount(rules, kind, amount)
        return Resolved(value, BEFORE)
    if kind == MISCONDUCT:
        if amount is None:
            raise RuleError("amount", gettext_noop("Choose the misconduct penalty's amount."))
        return Resolved(check_amount(rules, kind, amount), BEFORE)
    if kind == CHOMBO:
        if rules.chombo_mode != "after_placement":
            raise RuleError(
                "kind",
                gettext_noop(
                    "In this rule set chombo is paid at the table: enter it as the chombo count "
                    "on the table's result."
                ),
            )
        value = rules.chombo_amount if amount is None else check_amount(rules, kind, amount)
        return Resolved(value, AFTER)
    if kind == OTHER:
        if amount is None:
            raise RuleError("amount", gettext_noop("Give the penalty amount."))
        if stage not in STAGES:
            raise RuleError("stage", gettext_noop("Choose before or after placement."))
        return Resolved(check_amount(rules, kind, amount), stage)
    raise RuleError("kind", gettext_noop("Unknown penalty kind {kind!r}."), kind=kind)


def unit(rules: RuleSet, stage: str) -> str:
    """The name of the unit an amount counted at `stage` is in (English, for the catalogue):
    before placement the score unit (000 §5.6: points; 002 §2.8.4 item 5: GP), after it the
    result unit (001 §7.2: rating points; 002 §2.8.2: TP)."""
    return score_unit(rules) if stage == BEFORE else result_unit(rules)


def _late_stage(rules: RuleSet) -> str:
    return BEFORE if rules.late_stage == "before_placement" else AFTER


def kinds_for(rules: RuleSet) -> list[str]:
    """The kinds a referee can record under these rules, in the order the page offers them."""
    out = []
    if rules.late_per_minute or rules.late_steps or rules.late_max_minutes:
        out.append(LATE)
    if rules.misconduct_amounts or rules.serious_misconduct_range:
        out.append(MISCONDUCT)
    if rules.progressive_scale:
        out.append(MINOR)
    if rules.chombo_mode == "after_placement":
        out.append(CHOMBO)
    out.append(OTHER)
    return out
