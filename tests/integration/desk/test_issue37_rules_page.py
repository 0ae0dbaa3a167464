"""Issue 37 point 5: the rules page shows each game only the fields its play has, in its own
words. A Sichuan tournament was shown uma, oka (start and return points), chombo, riichi sticks
and counters, which SBR 2025 (seed 002) has not."""

import html
import re

import pytest

from tests.support import factories as f

pytestmark = pytest.mark.django_db

# Riichi's own: table points and oka (000 §3.6.1, 001 §2.4), the result's unit and divisor
# (001 §13.3), chombo (000 §3.4.6, 001 §7.2) and the hand-by-hand readings (docs/rules.md §5.1).
RIICHI_ONLY = {
    "rule_start_points": "Start points",
    "rule_return_points": "Return points",
    "rule_result_unit": "Result unit",
    "rule_score_divisor": "Score divisor",
    "rule_score_step": "Score step",
    "rule_chombo_mode": "Chombo",
    "rule_chombo_amount": "Chombo amount",
    "rule_ron_20_fu": "A hand of 20 fu can win on a discard",
    "rule_hand_cells": "Scoring table cells that differ",
    "rule_double_yakuman": "Double yakuman paid",
    "rule_sticks_at_end": "Riichi sticks left when the game ends",
    "rule_nagashi_noten": "Noten payments in a hand of nagashi mangan",
    "rule_counters_on_pass": "Counters after a draw in which the dealership passes",
    "rule_end_below_zero": "The game ends when a score is below zero",
    "rule_ron_winners": "Winners on one discard",
    "rule_triple_ron": "Three players winning on one discard",
    "rule_nagashi": "Nagashi mangan",
    "rule_pao_hands": "Responsibility (pao) for a yakuman",
    "rule_open_kan_rinshan": "A win on the replacement tile after an open kan",
}
# Sichuan's own: a table of three (002 §3.1: 4, 3, 2 TP) and an awarded table (002 §3.1.4: 3 TP).
SICHUAN_ONLY = {
    "rule_uma3": "Tournament points (TP) at a table of three (1st, 2nd, 3rd)",
    "rule_awarded_tp": "TP at an awarded table",
}
BOTH = [
    "rule_game",
    "rule_uma",
    "rule_tie_mode",
    "rule_decimals",
    "rule_tiebreak",
    "rule_late_per_minute",
    "rule_late_steps",
    "rule_late_max_minutes",
    "rule_late_stage",
    "rule_misconduct_amounts",
    "rule_serious_misconduct_range",
    "rule_progressive_scale",
    "rule_substitute_mode",
    "rule_substitute_result",
    "rule_session_minutes",
    "rule_warning_minutes",
    "rule_end_of_session",
    "rule_start_signal",
    "rule_time_up_signal",
    "rule_seating_display_minutes",
    "rule_appeal_window_minutes",
    "rule_appeal_deposit_fees",
]


def fields_on(page: str) -> set[str]:
    return set(re.findall(r'name="(rule_[a-z0-9_]+)"', page))


def form_data(page: str, ruleset: str) -> dict:
    """The rules form as a browser sends it, unchanged."""
    data = {"ruleset": ruleset}
    for name, value in re.findall(r'name="(rule_[a-z0-9_]+)"[^>]*value="([^"]*)"', page):
        data[name] = value
    for name in re.findall(r'type="checkbox" name="(rule_[a-z0-9_]+)"[^>]*checked', page):
        data[name] = "on"
    selects = r'<select name="(rule_[a-z0-9_]+)"[^>]*>(.*?)</select>'
    for name, body in re.findall(selects, page, re.S):
        data[name] = re.search(r'<option value="([^"]*)"[^>]*selected', body).group(1)
    return data


def label_of(page: str, name: str) -> str:
    found = re.search(rf"<label for=\"id_{name}\">([^<]*)</label>", page).group(1)
    return html.unescape(found).rstrip(":")


@pytest.fixture
def director():
    return f.login(f.staff()["director"])


def test_the_sichuan_rules_page_shows_sichuan_fields_in_its_words(director):
    """002 §2.7.5: each session gives TP by GP rank, 4, 3, 2, 1; §3.1: 4, 3, 2 at a table of
    three; §3.1.4: 3 TP to each player of an awarded table. No start points, oka, chombo, riichi
    sticks or counters: the page does not offer them."""
    t = f.tournament("sbr-2025", players=8)
    page = director.get(f"/desk/{t.slug}/rules/").content.decode()
    shown = fields_on(page)
    assert shown == set(BOTH) | set(SICHUAN_ONLY)
    for name, label in RIICHI_ONLY.items():
        assert name not in shown and label not in page
    assert "Uma" not in page and "uma" not in page.lower().replace("rule_uma", "")
    assert label_of(page, "rule_uma") == "Tournament points (TP) by place (1st, 2nd, 3rd, 4th)"
    assert label_of(page, "rule_uma3") == SICHUAN_ONLY["rule_uma3"]
    assert label_of(page, "rule_substitute_result") == "TP of a replaced player"
    assert "ties share the tournament points equally" in page
    assert 'name="rule_uma" value="4, 3, 2, 1"' in page
    assert 'name="rule_uma3" value="4, 3, 2"' in page


def test_the_riichi_rules_page_shows_riichi_fields_in_its_words(director):
    """000 §3.6.1: uma +30,000 / +10,000 / −10,000 / −30,000; no table of three in riichi
    (mahjong.table.three_player), nor an awarded table (002 §3.1.4 is Sichuan's)."""
    t = f.tournament("ema-2012", players=8)
    page = director.get(f"/desk/{t.slug}/rules/").content.decode()
    shown = fields_on(page)
    assert shown == set(BOTH) | set(RIICHI_ONLY)
    for name, label in SICHUAN_ONLY.items():
        assert name not in shown and label not in page
    assert label_of(page, "rule_uma") == "Uma / placement points (1st, 2nd, 3rd, 4th)"
    assert label_of(page, "rule_substitute_result") == "Substitute's result"
    assert "ties share the placement points equally" in page
    assert "Tournament points (TP)" not in page.replace("tournament points (TP)", "")
    assert 'name="rule_uma" value="30000, 10000, -10000, -30000"' in page


def test_a_field_the_page_does_not_show_keeps_its_value(director):
    """A Sichuan tournament whose file overrides a riichi field (here the start points, which
    the page does not show) keeps it when the director saves another field on the page; and the
    other way round for a riichi tournament's uma3."""
    t = f.tournament("sbr-2025", players=8)
    t.rules = {"double_yakuman": False}
    t.save()
    page = director.get(f"/desk/{t.slug}/rules/").content.decode()
    data = form_data(page, "sbr-2025") | {"rule_awarded_tp": "2"}
    response = director.post(f"/desk/{t.slug}/rules/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert t.rules == {"double_yakuman": False, "awarded_tp": 2}

    riichi = f.tournament("ema-2012", players=8, slug="riichi-open")
    riichi.rules = {"uma3": [20000, 0, -20000]}
    riichi.save()
    page = director.get(f"/desk/{riichi.slug}/rules/").content.decode()
    data = form_data(page, "ema-2012") | {"rule_session_minutes": "95"}
    assert director.post(f"/desk/{riichi.slug}/rules/", data).status_code == 302
    riichi.refresh_from_db()
    assert riichi.rules == {"uma3": [20000, 0, -20000], "session_minutes": 95}
