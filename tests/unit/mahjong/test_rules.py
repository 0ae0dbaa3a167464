"""Rule sets and one table's arithmetic (mahjong.rulesets, mahjong.presets, mahjong.table), pinned
to the seeds with exact numbers.

Seeds: 000 EMA 2012 (Ukrainian), 001 Furiten (Russian), 002 SBR Sichuan 2025 (Russian).
"""

import json

import pytest

from mahjong.messages import RuleError
from mahjong.presets import PRESETS, rules_overrides, ruleset_from, ruleset_to_dict
from mahjong.rulesets import FIELD_NAMES, RULE_FIELDS, RuleSet
from mahjong.table import (
    SeatInput,
    SeatOutcome,
    is_awarded,
    table_outcome,
    three_player,
    validate_scores,
)

EMA = PRESETS["ema-2012"]
FURITEN = PRESETS["furiten-club"]
SBR = PRESETS["sbr-2025"]


def outcome(rules, *scores, **per_seat):
    """table_outcome for plain scores; per_seat maps a keyword to a tuple of per-seat values."""
    seats = []
    for i, score in enumerate(scores):
        extra = {name: values[i] for name, values in per_seat.items()}
        seats.append(SeatInput(f"p{i}", score, **extra))
    return table_outcome(rules, seats)


def column(outcomes, name):
    return [getattr(o, name) for o in outcomes]


# --- EMA 2012 --------------------------------------------------------------------------------


def test_ema_uma_by_place():
    """000 §3.6.1: 'переможець отримує 30000 очок, гравець на другому місці отримує 10000 очок,
    гравець на третьому місці штрафується -10000 очками, а гравець на останньому місці
    штрафується - 30000 очками.'  Result = (score − 30000) + uma (RULES §1)."""
    result = outcome(EMA, 45300, 30100, 25000, 19600)
    assert column(result, "place") == [1, 2, 3, 4]
    assert column(result, "placement") == [30000, 10000, -10000, -30000]
    assert column(result, "result") == [45300, 10100, -15000, -40400]
    assert sum(column(result, "result")) == 0


def test_ema_two_tied_first_get_20000_each():
    """000 §3.6.1: 'У разі нічії очки за відповідні місця розділяються між рівними гравцями.
    Наприклад, якщо два гравці зайняли перше місце, кожен отримує бонус в 20000 очок.'"""
    result = outcome(EMA, 40000, 40000, 25000, 15000)
    assert column(result, "place") == [1, 1, 3, 4]
    assert column(result, "placement") == [20000, 20000, -10000, -30000]
    assert column(result, "result") == [30000, 30000, -15000, -45000]
    assert all(type(r) is int for r in column(result, "result"))


def test_ema_three_tied_first_split_three_places():
    """000 §3.6.1: 'очки за відповідні місця розділяються між рівними гравцями':
    (30000 + 10000 − 10000) / 3 = 10000 each."""
    result = outcome(EMA, 35000, 35000, 35000, 15000)
    assert column(result, "place") == [1, 1, 1, 4]
    assert column(result, "placement") == [10000, 10000, 10000, -30000]
    assert column(result, "result") == [15000, 15000, 15000, -45000]


def test_ema_three_tied_last_split_three_places():
    """000 §3.6.1 (RULES §1): 'three tied for 2nd get (10,000 − 10,000 − 30,000) / 3 each'."""
    result = outcome(EMA, 45000, 25000, 25000, 25000)
    assert column(result, "place") == [1, 2, 2, 2]
    assert column(result, "placement") == [30000, -10000, -10000, -10000]
    assert column(result, "result") == [45000, -15000, -15000, -15000]


def test_ema_tie_in_the_middle():
    """000 §3.6.1: tied 2nd and 3rd share (10000 − 10000) / 2 = 0."""
    result = outcome(EMA, 50000, 25000, 25000, 20000)
    assert column(result, "place") == [1, 2, 2, 4]
    assert column(result, "result") == [50000, -5000, -5000, -40000]


def test_ema_four_way_tie_is_all_zero():
    """000 §3.6.1: 'очки за відповідні місця розділяються між рівними гравцями': all four share
    (30000 + 10000 − 10000 − 30000) / 4 = 0."""
    result = outcome(EMA, 30000, 30000, 30000, 30000)
    assert result == [SeatOutcome(1, 0, 0, 0, 30000)] * 4


def test_ema_chombo_is_already_in_the_scores():
    """000 §3.4.6: 'Штраф чомбо дорівнює виплаті за манган: 4000 Сходу і 2000 іншим гравцям.'
    Paid at the table, so the desk only counts it: no second deduction."""
    with_chombo = outcome(EMA, 45300, 30100, 25000, 19600, chombo=(0, 0, 2, 0))
    assert with_chombo == outcome(EMA, 45300, 30100, 25000, 19600)


def test_ema_late_penalty_counts_before_uma_and_can_change_places():
    """000 §5.6: 'гравець, який запізнився на 1 хвилину штрафується на 1000 очок ... Даний штраф
    стягується з гравця негайно, що може змінити турнірні місця гравців за столом. Стягнені очки
    не додаються іншим гравцям.'  Four minutes late: −4000 turns 1st-by-score into last."""
    result = outcome(EMA, 32500, 29000, 28000, 30500, penalty_before=(0, 0, 0, -4000))
    assert column(result, "place") == [1, 2, 3, 4]
    assert column(result, "placement") == [30000, 10000, -10000, -30000]
    assert column(result, "penalty") == [0, 0, 0, -4000]
    assert column(result, "result") == [32500, 9000, -12000, -33500]
    assert column(result, "game_points") == [32500, 29000, 28000, 26500]
    assert sum(column(result, "result")) == -4000  # not given to anyone


def test_ema_misconduct_after_placement_does_not_move_places():
    """000 §5.5: 'штрафами в 8000 або 12000 очок (рівень чомбо)'. Booked after placement it only
    lowers the result (a director's choice per penalty; the rule says it may change places)."""
    result = outcome(EMA, 45300, 30100, 25000, 19600, penalty_after=(-8000, 0, 0, 0))
    assert column(result, "place") == [1, 2, 3, 4]
    assert result[0] == SeatOutcome(1, 30000, -8000, 37300, 45300)


def test_ema_substitute_from_the_start_counts_normally():
    """000 §5.7: 'якщо замінючий гравець перемагає за столом, інші гравці отримують уму в 10000,
    -10000 і в -30000 очок ... ума-бонус переможця в 30000 очок ніхто не отримає.'"""
    result = outcome(
        EMA,
        50000,
        30000,
        25000,
        15000,
        substitute=(True, False, False, False),
        joined=("start",) * 4,
    )
    assert column(result, "place") == [1, 2, 3, 4]
    assert column(result, "placement")[1:] == [10000, -10000, -30000]
    assert column(result, "result")[1:] == [10000, -15000, -45000]


def test_ema_substitute_joined_during_play_takes_last_place():
    """000 §5.7: 'Замінюючі гравці, які прийшли на заміну після того, як гра за столом почалася
    ... завжди отримають штраф ума в -30000 очок, що означає, що три інших гравця отримають уму в
    30000, 10000 і -10000, навіть якщо замінюючий гравець отримає більше всіх очок за столом.'"""
    result = outcome(
        EMA,
        50000,
        30000,
        25000,
        15000,
        substitute=(True, False, False, False),
        joined=("during", "start", "start", "start"),
    )
    assert column(result, "place") == [4, 1, 2, 3]
    assert column(result, "placement") == [-30000, 30000, 10000, -10000]
    assert column(result, "result") == [-10000, 30000, 5000, -25000]


def test_during_only_matters_for_substitutes():
    """000 §5.7 applies to substitutes only: a regular seat marked "during" ranks normally."""
    plain = outcome(EMA, 50000, 30000, 25000, 15000)
    marked = outcome(EMA, 50000, 30000, 25000, 15000, joined=("during", "start", "start", "start"))
    assert marked == plain


# --- Furiten --------------------------------------------------------------------------------


def test_furiten_rating_points():
    """001 §13.3: 'из очков игрока вычитается 30 000 и полученный результат делится на 1000.'
    §13.4: 'Первое место плюс 9 баллов, второе плюс 3, третье минус 3, четвертое минус 9.'
    §13.2: 'с точностью до одной десятой балла': 42300 → 12.3 + 9 = 21.3."""
    result = outcome(FURITEN, 42300, 31000, 27700, 19000)
    assert column(result, "placement") == [9, 3, -3, -9]
    assert column(result, "result") == [21.3, 4, -5.3, -20]
    assert type(result[1].result) is int


def test_furiten_chombo_deducts_20_after_placement():
    """001 §7.2: 'Из конечного счета игрока, заплатившего чомбо, вычитаются 20 рейтинговых
    баллов.'  After placement: the places do not change (RULES §2)."""
    result = outcome(FURITEN, 42300, 31000, 27700, 19000, chombo=(1, 0, 0, 2))
    assert column(result, "place") == [1, 2, 3, 4]
    assert column(result, "placement") == [9, 3, -3, -9]
    assert column(result, "penalty") == [-20, 0, 0, -40]
    assert column(result, "result") == [1.3, 4, -5.3, -60]


def test_furiten_with_oka_goes_to_first_place():
    """001, 'Допустимые отклонения' 7 and 9: 'Количество начальных очков 25 000 до 50 000';
    'Ока (бонус первому месту)'.  Start 25000, return 30000: oka 4 × 5000 = 20000 points =
    20 rating points to first; everyone is measured against 30000."""
    rules = ruleset_from("furiten-club", {"start_points": 25000})
    assert rules.oka == 20000
    result = outcome(rules, 40000, 25000, 20000, 15000)
    assert column(result, "placement") == [29, 3, -3, -9]
    assert column(result, "result") == [39, -2, -13, -24]
    assert sum(column(result, "result")) == 0


def test_furiten_tied_first_share_uma_and_oka():
    """RULES §2: 'Ties: split placement points as in §1'; the oka goes with first place, so two
    tied first share (9 + 3 + 20) / 2 = 16."""
    rules = ruleset_from("furiten-club", {"start_points": 25000})
    result = outcome(rules, 35000, 35000, 20000, 10000)
    assert column(result, "placement") == [16, 16, -3, -9]
    assert column(result, "result") == [21, 21, -13, -29]


def test_split_that_does_not_divide_is_exact_then_rounded():
    """001 'Допустимые отклонения' 8: 'Ума ... может быть любой.'  (20 + 10 − 10) / 3 = 6.666…
    each: shown to one decimal (§13.2), kept exact so the table still sums to zero."""
    rules = ruleset_from("furiten-club", {"uma": [20, 10, -10, -20]})
    result = outcome(rules, 32000, 32000, 32000, 24000)
    assert column(result, "placement") == [6.7, 6.7, 6.7, -20]
    assert column(result, "result") == [8.7, 8.7, 8.7, -26]


# --- SBR Sichuan ----------------------------------------------------------------------------


def test_sbr_tournament_points_by_game_points():
    """002 §2.7.5: '4 очка за первое место по игровым очкам, 3 очка за второе место по игровым
    очкам, 2 очка за третье место и 1 очко за последнее место.'"""
    result = outcome(SBR, -25, 30, 10, -15)
    assert column(result, "place") == [4, 1, 2, 3]
    assert column(result, "result") == [1, 4, 3, 2]
    assert column(result, "game_points") == [-25, 30, 10, -15]


def test_sbr_ties_share_tournament_points():
    """002 §2.7.5: 'В случае равенства мест соответствующие турнирные очки распределяются поровну
    между соответствующими игроками.'  §2.1.5: 'Может быть дробным.'"""
    assert column(outcome(SBR, 10, 10, -5, -15), "result") == [3.5, 3.5, 2, 1]
    assert column(outcome(SBR, 20, -5, -5, -10), "result") == [4, 2.5, 2.5, 1]
    assert column(outcome(SBR, 20, -5, -5, -10), "place") == [1, 2, 2, 4]
    assert column(outcome(SBR, 30, -10, -10, -10), "result") == [4, 2, 2, 2]
    assert column(outcome(SBR, 0, 0, 0, 0), "result") == [2.5, 2.5, 2.5, 2.5]


def test_sbr_three_player_table():
    """002 §3.1.3: 'Игроки получают 4, 3 и 2 турнирных очка (ТО) на основе результатов игровой
    сессии по игровым очкам (ИО).'"""
    assert column(outcome(SBR, -5, 20, -15), "result") == [3, 4, 2]
    assert column(outcome(SBR, 10, 10, -20), "result") == [3.5, 3.5, 2]


def test_sbr_awarded_table_of_one_or_two_players():
    """002 §3.1.4: 'Игра на таком столе не производится. Игрок(и) получают «присуждённый»
    результат в 3 турнирных очка (ТО) 0 игровых очков (ИО).'"""
    assert outcome(SBR, None, None) == [SeatOutcome(None, 3, 0, 3, 0)] * 2
    assert outcome(SBR, None) == [SeatOutcome(None, 3, 0, 3, 0)]


def test_sbr_late_penalty_is_taken_from_game_points_before_tp():
    """002 §2.8.4 (5): 'если он опоздал на срок от 10 до 15 минут, то он штрафует на 16 игровых
    очков ... Из полученных опоздавшим игроком игровых очков (ИО) вычитаются соответствующие
    штрафы для определения турнирных очков (ТО) игроков.'"""
    result = outcome(SBR, 10, 8, -8, -10, penalty_before=(-16, 0, 0, 0))
    assert column(result, "place") == [2, 1, 3, 4]  # first by GP on the sheet, second after
    assert column(result, "result") == [3, 4, 2, 1]
    assert column(result, "game_points") == [-6, 8, -8, -10]
    assert column(result, "penalty") == [0, 0, 0, 0]  # in TP: the GP penalty shows as a place


def test_sbr_substitute_joined_during_ranks_normally():
    """002 §2.8.4 (5): 'Турнирные очки начисляются игрокам на основе полученных игровых очков' —
    SBR has no 'takes last place' rule for substitutes (that is EMA 000 §5.7)."""
    result = outcome(
        SBR,
        30,
        10,
        -15,
        -25,
        substitute=(True, False, False, False),
        joined=("during", "start", "start", "start"),
    )
    assert column(result, "result") == [4, 3, 2, 1]


# --- validate_scores ------------------------------------------------------------------------


def test_validate_riichi_scores():
    """RULES §1 (000 §3.6): 'a table's four final scores therefore sum to 120,000'; 'Scores are
    multiples of 100.'"""
    assert validate_scores(EMA, [45300, 30100, 25000, 19600]) == []
    assert validate_scores(EMA, [45300, 30000, 25000, 19600]) == [
        (-1, "The scores add up to 119900, 100 too few: they must add up to 120000."),
    ]
    assert validate_scores(EMA, [45350, 30050, 25000, 19600]) == [
        (0, "The score 45350 is not a multiple of 100."),
        (1, "The score 30050 is not a multiple of 100."),
    ]
    assert validate_scores(EMA, [45300, None, 25000, 19600.5]) == [
        (1, "The score is missing."),
        (3, "The score must be a whole number."),
    ]
    assert validate_scores(EMA, [40000, 40000, 40000]) == [
        (-1, "A riichi table has 4 players, not 3."),
    ]


def test_validate_scores_problems_keep_their_template():
    """The Django layer translates the template and formats it with the params itself."""
    (problem,) = validate_scores(EMA, [45300, 30000, 25000, 19600])
    assert problem.seat == -1
    assert problem.template == (
        "The scores add up to {total}, {difference} too few: they must add up to {expected}."
    )
    assert problem.params == {"total": 119900, "expected": 120000, "difference": 100}


def test_validate_furiten_with_oka_sums_to_four_start_points():
    rules = ruleset_from("furiten-club", {"start_points": 25000})
    assert validate_scores(rules, [40000, 25000, 20000, 15000]) == []
    assert validate_scores(rules, [45000, 30000, 25000, 20000]) == [
        (-1, "The scores add up to 120000, 20000 too many: they must add up to 100000."),
    ]


def test_validate_sichuan_scores():
    """002 §2.1.4: 'Игровые очки (ИО) – целое число'; a table's GP sum to zero (points pass
    between players); three players allowed (§3.1), one or two is an awarded table."""
    assert validate_scores(SBR, [30, 10, -15, -25]) == []
    assert validate_scores(SBR, [30, -10, -20]) == []
    assert validate_scores(SBR, [30, 10, -15, -20]) == [
        (-1, "The scores add up to 5, 5 too many: they must add up to 0."),
    ]
    assert validate_scores(SBR, [None, None]) == []
    assert validate_scores(SBR, [None, 4]) == [
        (1, "An awarded table (one or two players) has no scores."),
    ]
    assert validate_scores(SBR, []) == [(-1, "A Sichuan table has 1 to 4 players, not 0.")]


def test_table_outcome_refuses_a_table_it_cannot_score():
    with pytest.raises(ValueError):
        outcome(EMA, 60000, 60000)
    with pytest.raises(ValueError):
        outcome(EMA, 60000, None, 30000, 30000)


# --- rule sets as data ----------------------------------------------------------------------


def test_presets():
    """RULES §1–§3 and the seed sections quoted in mahjong/rulesets.py and mahjong/presets.py."""
    assert set(PRESETS) == {"ema-2012", "furiten-club", "sbr-2025"}
    assert (EMA.start_points, EMA.return_points, EMA.oka) == (30000, 30000, 0)
    assert EMA.uma == (30000, 10000, -10000, -30000)
    assert (EMA.chombo_mode, EMA.substitute_result) == ("in_scores", -30000)
    assert EMA.late_per_minute == -1000
    assert EMA.misconduct_amounts == (-8000, -12000)
    assert EMA.serious_misconduct_range == (-12000, -48000)
    assert (FURITEN.uma, FURITEN.score_divisor, FURITEN.decimals) == ((9, 3, -3, -9), 1000, 1)
    assert (FURITEN.chombo_mode, FURITEN.chombo_amount) == ("after_placement", -20)
    assert (SBR.game, SBR.start_points, SBR.return_points) == ("sichuan", 0, 0)
    assert (SBR.uma, SBR.uma3) == ((4, 3, 2, 1), (4, 3, 2))
    assert (SBR.awarded_tp, SBR.tiebreak, SBR.result_unit) == (3, "game_points", "tp")
    assert SBR.late_steps == ((10, -8), (15, -16))
    assert SBR.progressive_scale == (0, -2, -4, -8, -16, -24, -48)
    assert SBR.appeal_deposit_fees == 2


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_presets_pass_their_own_checks_and_round_trip(key):
    preset = PRESETS[key]
    data = json.loads(json.dumps(ruleset_to_dict(preset)))
    assert data.pop("key") == key
    assert ruleset_from(key, data) == preset
    assert rules_overrides(preset) == {}


def test_field_names():
    assert "key" not in FIELD_NAMES
    assert FIELD_NAMES[0] == "name"
    assert len(FIELD_NAMES) == 44


def test_every_field_is_declared_once_with_its_schema():
    """RULE_FIELDS comes from RuleSet itself: a new field cannot miss its check or label."""
    assert tuple(RULE_FIELDS) == FIELD_NAMES
    assert [rule.name for rule in RULE_FIELDS.values() if rule.label is None] == ["name"]
    for rule in RULE_FIELDS.values():
        for preset in PRESETS.values():
            assert rule.check(rule.name, getattr(preset, rule.name)) == getattr(preset, rule.name)
        if rule.choices:
            for value, _label in rule.choices:
                assert rule.check(rule.name, value) == value
            with pytest.raises(RuleError, match="Must be one of"):
                rule.check(rule.name, "other")


def test_choice_fields_list_exactly_what_the_check_accepts():
    choices = {name: rule.choices for name, rule in RULE_FIELDS.items() if rule.choices}
    assert {name: [value for value, _label in c] for name, c in choices.items()} == {
        "game": ["riichi", "sichuan"],
        "tie_mode": ["split"],
        "result_unit": ["points", "rating", "tp"],
        "chombo_mode": ["in_scores", "after_placement"],
        "tiebreak": ["none", "game_points"],
        "late_stage": ["before_placement", "after_placement"],
        "substitute_mode": ["ema", "sbr"],
        "end_of_session": ["one_more_hand", "finish_hand"],
        "sticks_at_end": ["winner", "table"],
        "counters_on_pass": ["keep", "return"],
        "ron_winners": ["several", "one"],
        "triple_ron": ["paid", "redeal"],
        "pao_hands": ["none", "dragons_winds", "dragons_winds_kongs"],
        "open_kan_rinshan": ["self_draw", "kan_giver"],
    }
    with pytest.raises(RuleError) as caught:
        ruleset_from("ema-2012", {"tiebreak": "coin"})
    assert caught.value.message == "Must be one of: none, game_points."


def test_ruleset_from_overrides_and_round_trip():
    rules = ruleset_from(
        "ema-2012",
        {"uma": [15000, 5000, -5000, -15000], "return_points": 30000, "session_minutes": 75.0},
    )
    assert isinstance(rules, RuleSet)
    assert rules.uma == (15000, 5000, -5000, -15000)
    assert rules.session_minutes == 75 and type(rules.session_minutes) is int
    assert rules_overrides(rules) == {"uma": [15000, 5000, -5000, -15000], "session_minutes": 75}
    assert ruleset_from("ema-2012", rules_overrides(rules)) == rules
    assert ruleset_from("ema-2012", None) is EMA
    assert ruleset_from("ema-2012", {}) is EMA
    steps = ruleset_from("sbr-2025", {"late_steps": [[5, -4], [15, -16]]})
    assert steps.late_steps == ((5, -4), (15, -16))


@pytest.mark.parametrize(
    "key, overrides, field, message",
    [
        (
            "tenhou",
            None,
            "ruleset",
            "Unknown rule set 'tenhou'; known: ema-2012, furiten-club, sbr-2025.",
        ),
        ("ema-2012", {"umma": [1, 2, 3, 4]}, "umma", "Unknown rule field 'umma'."),
        ("ema-2012", {"key": "x"}, "key", "Unknown rule field 'key'."),
        ("ema-2012", {"oka": 20000}, "oka", "Unknown rule field 'oka'."),
        ("ema-2012", {"uma": [30000, 10000, -10000]}, "uma", "Must be a list of 4 numbers."),
        ("ema-2012", {"uma": [30000, "10000", -10000, -30000]}, "uma", "Must be a number."),
        ("ema-2012", {"decimals": "1"}, "decimals", "Must be a whole number."),
        ("ema-2012", {"start_points": True}, "start_points", "Must be a whole number."),
        ("ema-2012", {"score_step": 0}, "score_step", "Must be at least 1."),
        ("ema-2012", {"score_divisor": 2.5}, "score_divisor", "Must be a whole number."),
        ("ema-2012", {"chombo_amount": 20}, "chombo_amount", "Must be zero or negative."),
        ("ema-2012", {"tie_mode": "best"}, "tie_mode", "Must be one of: split."),
        ("ema-2012", {"game": "mcr"}, "game", "Must be one of: riichi, sichuan."),
        ("ema-2012", {"name": " "}, "name", "Must be a non-empty text."),
        (
            "ema-2012",
            {"return_points": 25000},
            "return_points",
            "Must not be below the start points.",
        ),
        (
            "sbr-2025",
            {"late_steps": [[15, -16], [10, -8]]},
            "late_steps",
            "The minutes must increase from one step to the next.",
        ),
        (
            "sbr-2025",
            {"late_steps": [10, -8]},
            "late_steps",
            "Must be a list of [minutes, amount] pairs.",
        ),
        (
            "sbr-2025",
            {"serious_misconduct_range": [-12]},
            "serious_misconduct_range",
            "Must be a list of 0 or 2 numbers.",
        ),
    ],
)
def test_ruleset_from_errors(key, overrides, field, message):
    with pytest.raises(RuleError) as caught:
        ruleset_from(key, overrides)
    assert caught.value.field == field
    assert caught.value.message == message
    assert isinstance(caught.value, Exception)


def test_rule_overrides_must_be_an_object():
    with pytest.raises(RuleError) as caught:
        ruleset_from("ema-2012", [["uma", [1, 2, 3, 4]]])
    assert caught.value.field == "rules"


def test_session_clock_fields_follow_000_5_8_and_002_2_4_4():
    # 000 §5.8: "Найчастіше сесії розраховуються за 90 хвилин ... коли залишається 15 хвилин до
    # кінця сесії ... Після закінчення 90 хвилин звуковий сигнал не звучить"
    assert (EMA.session_minutes, EMA.warning_minutes) == (90, 15)
    assert (EMA.end_of_session, EMA.start_signal, EMA.time_up_signal) == (
        "one_more_hand",
        True,
        False,
    )
    # 002 §2.4.4: "Когда до конца сессии остаётся 15 минут ... Каждая сессия играется с
    # доигрыванием ... гонг, обозначающий конец сессии"
    assert SBR.warning_minutes == 15
    assert (SBR.end_of_session, SBR.time_up_signal) == ("finish_hand", True)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_up_signal", "yes", "Must be true or false."),
        ("end_of_session", "sudden_death", "Must be one of: one_more_hand, finish_hand."),
        ("seating_display_minutes", -1, "Must be at least 0."),
    ],
)
def test_bad_clock_fields_are_refused_by_name(field, value, message):
    with pytest.raises(RuleError) as caught:
        ruleset_from("ema-2012", {field: value})
    assert caught.value.field == field
    assert caught.value.template.format(**caught.value.params) == message


def test_incomplete_tables_are_sichuans_alone():
    """docs/rules.md §3, SBR "Incomplete tables (§3.1)": "Three players: the missing seat is North
    ... One or two players left: no game; each gets an awarded 3 TP and 0 GP." The one place the
    desk decides it (the session page, the clock board, the standings, the file read it)."""
    sbr, ema = PRESETS["sbr-2025"], PRESETS["ema-2012"]
    assert three_player(sbr) and not three_player(ema)
    assert [is_awarded(sbr, n) for n in (0, 1, 2, 3, 4)] == [False, True, True, False, False]
    assert not any(is_awarded(ema, n) for n in (1, 2, 3, 4))
    assert sbr.awarded_tp == 3
