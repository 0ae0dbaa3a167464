"""Penalties by rule set (mahjong.penalties) and how the standings apply them, pinned to the seeds.

Seeds: 000 EMA 2012 (Ukrainian), 001 Furiten (Russian), 002 SBR Sichuan 2025 (Russian).
"""

import pytest

from mahjong.messages import RuleError
from mahjong.penalties import (
    AFTER,
    BEFORE,
    Resolved,
    kinds_for,
    late_amount,
    minor_amount,
    resolve,
    scale_position,
    unit,
)
from mahjong.presets import PRESETS, ruleset_from
from mahjong.standings import PenaltyRow, compute_standings
from tests.unit.mahjong.test_standings import by_key, line, players, ranking, table

EMA = PRESETS["ema-2012"]
FURITEN = PRESETS["furiten-club"]
SBR = PRESETS["sbr-2025"]


def rows_for(rules, records):
    """PenaltyRows from (session, player, kind, kwargs) as the desk resolves them."""
    out, minors = [], {}
    for session, player, kind, kwargs in records:
        order = minors[(session, player)] = minors.get((session, player), 0) + (kind == "minor")
        r = resolve(rules, kind, order=order, **kwargs)
        out.append(PenaltyRow(session, player, r.amount, r.stage, kind, r.fixed))
    return out


# --- EMA 2012 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("minutes", "amount"), [(1, -1000), (4, -4000), (10, -10000)])
def test_ema_late_is_1000_a_minute_up_to_10(minutes, amount):
    """000 §5.6: 'При запізненні на 10 хвилин і менше, гравець отримує штраф в 1000 очок за
    кожну хвилину запізнення ... гравець, який запізнився на 10 хвилин - на 10000 очок.'"""
    assert resolve(EMA, "late", minutes=minutes) == Resolved(amount, BEFORE, False)


def test_ema_late_over_10_minutes_means_a_substitute():
    """000 §5.6: 'Якщо гравець спізнився більше, ніж на 10 хвилин, замість нього грає
    замінючий гравець.'"""
    assert late_amount(EMA, 11) == (0, True)
    assert resolve(EMA, "late", minutes=11).fixed


def test_ema_4_minutes_late_changes_the_order_and_uma_follows():
    """000 §5.6: 'Даний штраф стягується з гравця негайно, що може змінити турнірні місця
    гравців за столом. Стягнені очки не додаються іншим гравцям.' North ends on 32,000, 2,000
    ahead of South, but 4 minutes late (−4,000) puts North third: 28,000 against 30,000."""
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 40000), ("b", 30000), ("c", 18000), ("d", 32000))],
        rows_for(EMA, [(1, "d", "late", {"minutes": 4})]),
    )
    rows = by_key(result)
    # d: (32,000 − 4,000 − 30,000) + uma of 3rd (−10,000) = −12,000
    assert rows["d"].sessions == [line(1, 1, "N", 32000, 3, -10000, -4000, -12000, 28000)]
    # b moves up to 2nd and takes +10,000; nobody gets d's 4,000
    assert rows["b"].sessions == [line(1, 1, "S", 30000, 2, 10000, 0, 10000, 30000)]
    assert ranking(result) == [(1, "a", 40000), (2, "b", 10000), (3, "d", -12000), (4, "c", -42000)]
    assert sum(r.total for r in result.rows) == -4000


def test_ema_misconduct_amounts_and_range():
    """000 §5.5: 'штрафами в 8000 або 12000 очок (рівень чомбо), а в серйозних випадках або при
    повторенні ситуації - штрафами в 12000-48000 очок. Даний штраф стягується ... негайно,
    що може змінити турнірні місця.'"""
    assert resolve(EMA, "misconduct", amount=-8000) == Resolved(-8000, BEFORE)
    assert resolve(EMA, "misconduct", amount=-12000) == Resolved(-12000, BEFORE)
    assert resolve(EMA, "misconduct", amount=-30000) == Resolved(-30000, BEFORE)
    assert resolve(EMA, "misconduct", amount=-48000) == Resolved(-48000, BEFORE)
    for wrong in (-9000, -50000, -1000, 5000):
        with pytest.raises(RuleError) as e:
            resolve(EMA, "misconduct", amount=wrong)
        assert e.value.field == "amount"


def test_ema_chombo_is_paid_at_the_table_not_a_penalty():
    """000 §3.4.6: chombo is paid at the table like a mangan; the desk only counts it."""
    with pytest.raises(RuleError) as e:
        resolve(EMA, "chombo")
    assert e.value.field == "kind"
    assert "chombo" not in kinds_for(EMA)


def test_ema_replaced_player_gets_0_and_minus_30000_for_every_missed_session():
    """000 §5.7: 'У турнірній таблиці результати сесії замінюють гравців завжди 0 очок і
    -30000 ума' — the replaced player gets the same for each session missed."""
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d", "s1"),
        [
            table(1, 1, ("a", 30000), ("b", 30000), ("s1", 30000, {"replaces": "c"}), ("d", 30000)),
            table(2, 1, ("s1", 45000, {"replaces": "c"}), ("a", 35000), ("b", 25000), ("d", 15000)),
            table(3, 1, ("a", 30000), ("b", 30000), ("c", 40000), ("d", 20000)),
        ],
    )
    rows = by_key(result)
    missed = [line(s, None, None, 0, None, -30000, 0, -30000, 0, None, True) for s in (1, 2)]
    assert rows["c"].sessions[:2] == missed
    assert rows["c"].sessions[2].result == 10000 + 30000
    assert rows["c"].total == -30000 - 30000 + 40000
    # the substitute's own line is always 0 and −30,000
    assert [s.result for s in rows["s1"].sessions] == [-30000, -30000]
    # session 2: the substitute won from the start, so a gets +10,000 (000 §5.7 example)
    assert rows["a"].sessions[1].uma == 10000


def test_ema_late_past_10_with_the_player_still_seated_gets_the_fixed_line():
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 40000), ("b", 30000), ("c", 18000), ("d", 32000))],
        rows_for(EMA, [(1, "d", "late", {"minutes": 12})]),
    )
    rows = by_key(result)
    assert rows["d"].sessions == [line(1, None, None, 0, None, -30000, 0, -30000, 0, None, True)]
    assert rows["b"].sessions[0].place == 3  # d's score still ranks the others


# --- Furiten ---------------------------------------------------------------------------------


def test_furiten_chombo_record_deducts_20_after_placement():
    """001 §7.2: a chombo deducts 20 rating points from the final result — after placement, so
    the places do not move. Recorded by the referee and on the sheet, it counts once."""
    assert resolve(FURITEN, "chombo") == Resolved(-20, AFTER)
    seated = table(1, 1, ("a", 31000, {"chombo": 1}), ("b", 30500), ("c", 29500), ("d", 29000))
    records = rows_for(FURITEN, [(1, "a", "chombo", {})])
    rows = by_key(compute_standings(FURITEN, players("a", "b", "c", "d"), [seated], records))
    # (31,000 − 30,000) / 1,000 + 9 − 20 = −10, still first
    assert rows["a"].sessions[0].place == 1
    assert rows["a"].total == -10
    # without the record the sheet's count alone deducts the same 20
    alone = by_key(compute_standings(FURITEN, players("a", "b", "c", "d"), [seated]))
    assert alone["a"].total == -10
    # a second chombo recorded but not on the sheet adds another 20
    twice = rows_for(FURITEN, [(1, "a", "chombo", {}), (1, "a", "chombo", {})])
    rows = by_key(compute_standings(FURITEN, players("a", "b", "c", "d"), [seated], twice))
    assert rows["a"].total == -30


def test_furiten_has_no_late_or_misconduct_presets():
    assert kinds_for(FURITEN) == ["chombo", "other"]


def test_custom_rule_set_chombo_minus_20000_after_uma():
    rules = ruleset_from("ema-2012", {"chombo_mode": "after_placement", "chombo_amount": -20000})
    assert resolve(rules, "chombo") == Resolved(-20000, AFTER)
    result = compute_standings(
        rules,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 35000), ("b", 30000), ("c", 28000), ("d", 27000))],
        rows_for(rules, [(1, "a", "chombo", {})]),
    )
    assert by_key(result)["a"].sessions[0].place == 1
    assert by_key(result)["a"].total == 5000 + 30000 - 20000


# --- SBR 2025 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "amount", "fixed"),
    [(1, -8, False), (10, -8, False), (11, -16, False), (12, -16, False), (15, -16, False)]
    + [(16, 0, True), (20, 0, True)],
)
def test_sbr_late_scale(minutes, amount, fixed):
    """002 §2.8.4 (5): 'если игрок опоздал на срок до 10 минут, он штрафует на 8 игровых очков;
    если он опоздал на срок от 10 до 15 минут, то он штрафует на 16 игровых очков' and 'если
    опоздание составило более 15 минут, игрок получает фиксированный результат в 0 турнирных
    очков (ТО) и 0 игровых очков (ИО)'."""
    assert resolve(SBR, "late", minutes=minutes) == Resolved(amount, BEFORE, fixed)


def test_sbr_12_minutes_late_minus_16_before_tp():
    """002 §2.8.4 (5): 'Из полученных опоздавшим игроком игровых очков (ИО) вычитаются
    соответствующие штрафы для определения турнирных очков (ТО) игроков.' a wins 10 GP but is
    12 minutes late: 10 − 16 = −6 puts a below b (−5): a takes 2 TP, b 3 TP."""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 10), ("b", -5), ("c", 20), ("d", -25))],
        rows_for(SBR, [(1, "a", "late", {"minutes": 12})]),
    )
    rows = by_key(result)
    assert rows["a"].sessions == [line(1, 1, "E", 10, 3, 2, 0, 2, -6)]
    assert rows["b"].sessions[0].uma == 3
    assert (rows["a"].total, rows["a"].tiebreak) == (2, -6)


def test_sbr_20_minutes_late_fixed_0_0_with_a_substitute():
    """002 §2.8.4 (5): 'При наличии игроков замены в зале вместо опоздавшего игрока играет игрок
    замены. Турнирные очки начисляются игрокам на основе полученных игровых очков, за
    исключением заменённого игрока (который получает фиксированный результат).'"""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d", "s1"),
        [table(1, 1, ("s1", 30, {"replaces": "c"}), ("a", 10), ("b", -15), ("d", -25))],
        rows_for(SBR, [(1, "c", "late", {"minutes": 20})]),
    )
    rows = by_key(result)
    assert rows["c"].sessions == [line(1, None, None, 0, None, 0, 0, 0, 0, None, True)]
    assert (rows["c"].total, rows["c"].tiebreak) == (0, 0)
    assert rows["s1"].sessions[0].uma == 4  # the substitute's TP come from the table's GP
    assert rows["a"].sessions[0].uma == 3


def test_sbr_20_minutes_late_three_handed():
    """002 §2.8.4 (5): 'В случае невозможности организаторам состязаний предоставить игрока
    замены играют неполным столом ... Игроки получают 4, 3 и 2 турнирных очка (ТО)'."""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 10), ("b", 20), ("d", -30))],
        rows_for(SBR, [(1, "c", "late", {"minutes": 20})]),
    )
    rows = by_key(result)
    assert [rows[k].total for k in "abdc"] == [3, 4, 2, 0]
    assert rows["c"].sessions == [line(1, None, None, 0, None, 0, 0, 0, 0, None, True)]


def test_sbr_progressive_scale_through_seven_violations():
    """002 §2.8.2: 'незначительные нарушения игроком в течение одной игровой сессии отмечаются и
    по совокупности приводят к значению штрафа по шкале: 0 (предупреждение) –2, –4, –8, –16,
    –24, –48 игровых очков, и эти очки не добавляются другим игрокам за столом. После 48
    игровых очков дополнительно может последовать штраф в турнирных очках или
    дисквалификация.'"""
    steps = [minor_amount(SBR, n) for n in range(1, 9)]
    assert steps == [0, -2, -2, -4, -8, -8, -24, 0]
    totals = [scale_position(SBR, n)["total"] for n in range(0, 8)]
    assert totals == [0, 0, -2, -4, -8, -16, -24, -48]
    assert scale_position(SBR, 3)["next"] == -4  # the 4th moves −4 → −8
    assert scale_position(SBR, 7)["exhausted"] and scale_position(SBR, 7)["next"] is None

    records = [(1, "a", "minor", {}) for _ in range(7)] + [(2, "a", "minor", {})]
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 60), ("b", 10), ("c", -30), ("d", -40)),
            table(2, 1, ("a", 5), ("b", 10), ("c", -5), ("d", -10)),
        ],
        rows_for(SBR, records),
    )
    rows = by_key(result)
    # 60 − 48 = 12 still first; the scale starts again at a warning in session 2
    assert rows["a"].sessions[0].game_points == 12 and rows["a"].sessions[0].uma == 4
    assert rows["a"].sessions[1].game_points == 5 and rows["a"].sessions[1].uma == 3
    assert rows["a"].tiebreak == 17
    assert sum(rows[k].tiebreak for k in "bcd") == 10 - 30 - 40 + 10 - 5 - 10  # not given away


def test_sbr_tp_penalty_after_the_scale_is_other_after_placement():
    assert resolve(SBR, "other", amount=-1, stage="after") == Resolved(-1, AFTER)
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [table(1, 1, ("a", 60), ("b", 10), ("c", -30), ("d", -40))],
        rows_for(SBR, [(1, "a", "other", {"amount": -1, "stage": "after"})]),
    )
    assert by_key(result)["a"].total == 3 and by_key(result)["a"].sessions[0].place == 1


def test_sbr_late_on_three_player_and_awarded_tables():
    """002 §3.1: three players, TP 4, 3, 2 by GP; one or two players: an awarded 3 TP and 0 GP.
    A late penalty on an awarded table still comes off the player's GP (the tiebreak)."""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d", "e"),
        [
            table(1, 1, ("a", 5), ("b", 0), ("c", -5)),
            table(1, 2, ("d", None), ("e", None)),
        ],
        rows_for(SBR, [(1, "a", "late", {"minutes": 3}), (1, "d", "late", {"minutes": 3})]),
    )
    rows = by_key(result)
    assert [rows[k].total for k in "abc"] == [3, 4, 2]  # a: 5 − 8 = −3 drops below b (0)
    assert (rows["d"].total, rows["d"].tiebreak) == (3, -8)
    assert (rows["e"].total, rows["e"].tiebreak) == (3, 0)


def test_bad_inputs_name_their_field():
    for kind, kwargs, field in [
        ("late", {"minutes": 0}, "minutes"),
        ("late", {"minutes": None}, "minutes"),
        ("misconduct", {}, "amount"),
        ("other", {"amount": -5}, "stage"),
        ("other", {"amount": 5, "stage": "after"}, "amount"),
        ("minor", {}, "kind"),
        ("wild", {}, "kind"),
    ]:
        with pytest.raises(RuleError) as e:
            resolve(EMA, kind, **kwargs)
        assert e.value.field == field, (kind, kwargs)


# --- the unit an amount is in (issue 36: the protocols print it) --------------------------------


@pytest.mark.parametrize(
    ("rules", "kind", "kwargs", "amount", "named"),
    [
        # 000 §5.6: "штраф в 1000 очок за кожну хвилину запізнення", before placement
        (EMA, "late", {"minutes": 4}, -4000, "points"),
        # 000 §5.5: misconduct "штрафами в 8000 або 12000 очок"
        (EMA, "misconduct", {"amount": -8000}, -8000, "points"),
        # 001 §7.2: chombo −20 from the rating result, after placement
        (FURITEN, "chombo", {}, -20, "rating points"),
        # 002 §2.8.4 item 5: "штрафует на 8 игровых очков" up to 10 minutes, 16 up to 15
        (SBR, "late", {"minutes": 5}, -8, "GP"),
        (SBR, "late", {"minutes": 12}, -16, "GP"),
        # 002 §2.8.2: after the scale "штраф в турнирных очках"
        (SBR, "other", {"amount": -1, "stage": AFTER}, -1, "TP"),
    ],
)
def test_each_amount_is_named_in_its_unit_by_its_stage(rules, kind, kwargs, amount, named):
    worth = resolve(rules, kind, **kwargs)
    assert worth.amount == amount
    assert unit(rules, worth.stage) == named


def test_the_units_follow_the_rule_set():
    """The score unit is the game's (riichi points, Sichuan GP: 002 §2.1.4 "Игровые очки
    (ИО)"); the result unit the rule set's (002 §2.1.5 "Турнирные очки (ТО)")."""
    assert [unit(r, BEFORE) for r in (EMA, FURITEN, SBR)] == ["points", "points", "GP"]
    assert [unit(r, AFTER) for r in (EMA, FURITEN, SBR)] == ["points", "rating points", "TP"]
