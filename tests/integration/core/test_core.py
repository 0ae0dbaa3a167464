"""The shared helpers (core): refusals, rule errors in the reader's language, plain numbers."""

from decimal import Decimal

import pytest
from django.utils import translation

from core.errors import ActionRefused, StaleEdit, refusal, rule_message
from core.numbers import plain_number
from mahjong.hands import HandError, play
from mahjong.messages import Problem, RuleError
from mahjong.presets import PRESETS, ruleset_from
from mahjong.table import validate_scores

# No database: the PostgreSQL run of scripts/test leaves it out (tests/conftest.py).
pytestmark = pytest.mark.once


@pytest.mark.parametrize(
    "value, expected",
    [
        (None, None),
        (3, 3),
        (-2.5, -2.5),
        (4.0, 4),
        (Decimal("-8000.00"), -8000),
        (Decimal("0.50"), 0.5),
        ("text", "text"),
    ],
)
def test_plain_number(value, expected):
    result = plain_number(value)
    assert result == expected
    assert type(result) is type(expected)


def rule_error(**overrides) -> RuleError:
    with pytest.raises(RuleError) as caught:
        ruleset_from("ema-2012", overrides)
    return caught.value


def test_rule_message_translates_the_template_then_fills_it():
    error = rule_error(score_divisor=0)
    assert rule_message(error) == "Must be at least 1."
    with translation.override("ru"):
        assert rule_message(error) == "Должно быть не меньше 1."
        assert rule_message(rule_error(chombo_amount="x")) == "Должно быть числом."


def test_rule_message_takes_a_problem_too():
    problem = validate_scores(PRESETS["ema-2012"], [30000, 30000, 30000, 29000])[0]
    assert isinstance(problem, Problem)
    # The page's message groups the digits as the language does; the rule module's does not.
    assert problem.message == (
        "The scores add up to 119000, 1000 too few: they must add up to 120000."
    )
    assert rule_message(problem) == (
        "The scores add up to 119,000, 1,000 too few: they must add up to 120,000."
    )


def test_refusal_names_the_field():
    refused = refusal(rule_error(decimals=-1))
    assert isinstance(refused, ActionRefused)
    assert (refused.message, refused.field) == ("Must be at least 0.", "decimals")


def test_a_stale_edit_is_a_refusal():
    assert issubclass(StaleEdit, ActionRefused)


def test_rule_message_translates_the_words_a_hand_error_carries():
    """A hand refused for an empty cell of the scoring table (docs/rules.md §5.1: EMA pays no 1 han
    20 fu on a discard) says how it was won in the reader's language, not only the template."""
    bad = [{"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 1, "fu": 20}]}]
    with pytest.raises(HandError) as caught:
        play(PRESETS["ema-2012"], bad)
    with translation.override("ru"):
        message = rule_message(caught.value)
        words = translation.gettext("on a discard")
    assert words != "on a discard" and words in message
    assert "on a discard" not in message
