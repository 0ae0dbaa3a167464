"""The rule sets the seeds give (PRESETS), and a rule set read from and written to JSON as a
preset's key and the fields that differ from it (what a tournament stores).

docs/rules.md §1–§3 is the rule book; section numbers point into the seeds (000 EMA 2012,
001 Furiten, 002 SBR Sichuan).
"""

from __future__ import annotations

from dataclasses import asdict, fields

from mahjong.messages import RuleError, gettext_noop
from mahjong.rulesets import FIELD_NAMES, RULE_FIELDS, RuleSet

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
        double_yakuman=True,  # docs/rules.md §5.1: only Big Four Winds, 16,000 base
        sticks_at_end="winner",  # 000 §3.6: "the winner gets all riichi bets left"
        nagashi_noten=False,  # 000 §4.2.4 names only the mangan, counters and bets
        counters_on_pass="keep",  # 000 §3.4.9: a counter after every drawn hand
        end_below_zero=False,  # EMA plays on below zero (000 §3.6: East and South only)
        ron_winners="several",  # 000 §4.1: the discarder pays each winner separately
        triple_ron="paid",  # 000 §3.4.3 lists four abortive draws; three winners is none
        nagashi=True,  # 000 §4.2.4 (its list of yakuman and special hands)
        pao_hands="dragons_winds",  # 000 §3.3.6 (003 §3.3.6): Big Three Dragons, Big Four Winds
        open_kan_rinshan="self_draw",  # 000 names no other payer: a win from the wall
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
        ron_winners="one",  # 001 §10.4: "only one player may declare a win"; the first in turn
        triple_ron="redeal",  # 001 §5.5: "Победа троих" is a redeal
        nagashi=False,  # 001, appendix В: its list of hands has no nagashi mangan
        pao_hands="dragons_winds_kongs",  # 001 §8.2: Big Dragons, Big Winds, Four Kongs
        open_kan_rinshan="kan_giver",  # 001 §2.18: "расплачивается игрок, позволивший собрать кан"
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
        # riichi hand fields: unused by Sichuan (docs/rules.md §5.2), the EMA values
        ron_20_fu=False,
        hand_cells=(),
        double_yakuman=True,
        sticks_at_end="winner",
        nagashi_noten=False,
        counters_on_pass="keep",
        end_below_zero=False,
        ron_winners="several",
        triple_ron="paid",
        nagashi=True,
        pao_hands="dragons_winds",
        open_kan_rinshan="self_draw",
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
