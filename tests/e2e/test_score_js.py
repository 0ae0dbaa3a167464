"""The table page's arithmetic in the browser (static/sheet/score.js) gives exactly what the
server's gives (scoring.hands): run in headless Chromium on every hand list the project's tests
know and on thousands of seeded random games per rule set, possible and impossible, and compared
field by field with scoring.hands.preview: the scores, each hand's payments, deltas or points,
the dealer, counters and sticks; for a refusal the path, the English template and its params.

Issue 24: "the browser copy must give exactly the same numbers and refuse exactly the same
hands". No server is needed: a blank page and the script.
"""

import json
from pathlib import Path

import pytest

from scoring.hands import messages, rules_json
from scoring.hands.riichi import allowed_cells
from tests.support import e2e_support as e2e
from tests.support import hand_corpus

browser = e2e.browser

# No database: the PostgreSQL run of scripts/test leaves it out (tests/conftest.py).
pytestmark = pytest.mark.once

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "sheet" / "score.js"
PER_RULES = 3000  # random games per rule set
CHUNK = 1000
# The cases go in and out as JSON text: Playwright's own passing of large values is slow.
RUN = """([rules, cases]) => JSON.stringify(JSON.parse(cases).map((c) => c.call === "hand"
    ? SheetScore.playHand(c.hand, c.seats, c.dealer)
    : SheetScore.play(rules[c.rules], c.hands, c.winds, c.first_dealer)))"""


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
    yield page
    page.close()


def all_rules():
    return {name: rules_json(rules) for name, rules in hand_corpus.RULES.items()}


def first_difference(py, js, where="") -> str:
    if isinstance(py, dict) and isinstance(js, dict):
        for key in sorted(set(py) | set(js)):
            if py.get(key, "<missing>") != js.get(key, "<missing>"):
                return first_difference(
                    py.get(key, "<missing>"), js.get(key, "<missing>"), f"{where}.{key}"
                )
    if isinstance(py, list) and isinstance(js, list) and len(py) == len(js):
        for i, (a, b) in enumerate(zip(py, js, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
    return f"{where}: Python {py!r}, browser {js!r}"


def compare(page, cases):
    rules, outcomes = all_rules(), []
    for start in range(0, len(cases), CHUNK):
        chunk = cases[start : start + CHUNK]
        outcomes += json.loads(page.evaluate(RUN, [rules, json.dumps(chunk)]))
    for item, js in zip(cases, outcomes, strict=True):
        py = hand_corpus.expected(item)
        assert js == py, f"{json.dumps(item)[:600]}\n{first_difference(py, js)}"
    return outcomes


def test_the_script_is_small_enough_to_inline():
    """The page inlines it: about 30 KB as written (9 KB gzipped), half of it the templates and
    Python's repr and JSON that the params need."""
    assert SCRIPT.stat().st_size < 32_000


def test_every_hand_list_the_tests_know(page):
    cases = hand_corpus.known_cases()
    outcomes = compare(page, cases)
    assert len(cases) > 500
    assert {o["ok"] for o in outcomes} == {True, False}


@pytest.mark.parametrize("name", list(hand_corpus.RULES))
def test_thousands_of_random_games(page, name):
    cases = hand_corpus.random_cases(name, PER_RULES, seed=24)
    outcomes = compare(page, cases)
    kept = [o for o in outcomes if o["ok"]]
    # The corpus is worth its name: many games possible, many refused, some played to the end.
    assert len(kept) > PER_RULES // 4 and len(outcomes) - len(kept) > PER_RULES // 10
    if hand_corpus.RULES[name].game == "riichi":
        assert sum(o["over"] for o in kept) > 50
        assert sum(o["sticks_left"] > 0 for o in kept) > 50
    else:
        assert sum(len(o["scores"]) == 3 for o in kept) > 300


def test_the_refusals_cover_every_template(page):
    """Every message the arithmetic has is met at least once (the riichi module's refusal of
    a Sichuan rule set aside: the one door never sends one there)."""
    seen = set()
    cases = hand_corpus.known_cases()
    for name in hand_corpus.RULES:
        cases += hand_corpus.random_cases(name, 400, seed=7)
    for outcome in compare(page, cases):
        if not outcome["ok"]:
            seen.add(outcome["error"]["template"])
    assert set(messages.TEMPLATES) - seen == {messages.NOT_RIICHI_RULES}


def test_the_cells_offered_are_the_cells_the_server_accepts(page):
    for rules in hand_corpus.RULES.values():
        assert page.evaluate("(r) => SheetScore.cells(r)", rules_json(rules)) == allowed_cells(
            rules
        )


def test_the_templates_are_the_servers(page):
    """score.js carries the English templates by their names in scoring/hands/messages.py."""
    names = {
        name: value
        for name, value in vars(messages).items()
        if name.isupper() and isinstance(value, str)
    }
    assert page.evaluate("SheetScore.templates") == names


def test_a_refusal_in_words_as_the_server_fills_it(page):
    """SheetScore.message fills a template as core.errors.rule_message does: whole numbers
    grouped, everything else as Python's str() gives it; a catalogue translates template and
    the words among the params."""
    cases = hand_corpus.random_cases("ema-2012", 300, seed=3)
    cases += hand_corpus.random_cases("sbr-2025", 300, seed=3)
    errors = [e["error"] for e in map(hand_corpus.expected, cases) if not e["ok"]]
    assert len(errors) > 100
    english = page.evaluate(
        "(errors) => errors.map((e) => SheetScore.message(e, null, 'en'))", errors
    )
    for error, text in zip(errors, english, strict=True):
        params = {
            k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else v
            for k, v in error["params"].items()
        }
        assert text == error["template"].format(**params)
    odd = {"template": messages.FU_VALUES, "params": {"fu": [2.5, None, True, "東 'x'"]}}
    assert page.evaluate("(e) => SheetScore.message(e)", odd) == (
        "Fu are 20, 25, or 30 to 110 in tens, not [2.5, None, True, \"東 'x'\"]."
    )
    catalogue = {
        messages.EMPTY_CELL: "Keine Hand mit {han} Han {fu} Fu gewinnt {how}.",
        messages.ON_A_DISCARD: "auf einen Abwurf",
    }
    empty = {
        "template": messages.EMPTY_CELL,
        "params": {"han": 1, "fu": 20, "how": messages.ON_A_DISCARD},
    }
    assert page.evaluate("([e, c]) => SheetScore.message(e, c, 'de')", [empty, catalogue]) == (
        "Keine Hand mit 1 Han 20 Fu gewinnt auf einen Abwurf."
    )
