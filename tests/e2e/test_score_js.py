"""The table page's arithmetic in a real browser: headless Chromium runs static/sheet/score.js
on the checked-in corpus of hands (tests/corpus/hands.json) and gives every entry's expected
result, the refusals' codes and params included; the page's words (words.js) fill a refusal
in the reader's language as the browser groups numbers.

The arithmetic itself is held to the server's field by field, on the corpus and on thousands
of seeded random games, without a browser: tests/unit/mahjong/test_hand_corpus.py (V8 through
mini-racer). This file keeps what needs the browser the phones run. No server is needed: a
blank page and the scripts.
"""

import json
from pathlib import Path

import pytest

from tests.support import e2e_support as e2e
from tests.support import hand_corpus

browser = e2e.browser

# No database: the PostgreSQL run of scripts/test leaves it out (tests/conftest.py).
pytestmark = pytest.mark.once

SHEET = Path(__file__).resolve().parents[2] / "static" / "sheet"
CHUNK = 1000
# The cases go in and out as JSON text: Playwright's own passing of large values is slow.
RUN = """([rules, cases]) => JSON.stringify(JSON.parse(cases).map((c) => c.call === "hand"
    ? SheetScore.playHand(c.hand, c.seats, c.dealer)
    : SheetScore.play(rules[c.rules], c.hands, c.winds, c.first_dealer)))"""


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    for name in ("score.js", "words.js"):
        page.add_script_tag(content=(SHEET / name).read_text(encoding="utf-8"))
    yield page
    page.close()


def test_chromium_gives_the_corpus(page):
    corpus = hand_corpus.read_corpus()
    cases = [{k: v for k, v in item.items() if k != "expected"} for item in corpus["cases"]]
    outcomes = []
    for start in range(0, len(cases), CHUNK):
        chunk = json.dumps(cases[start : start + CHUNK])
        outcomes += json.loads(page.evaluate(RUN, [corpus["rules"], chunk]))
    for item, js in zip(corpus["cases"], outcomes, strict=True):
        assert js == item["expected"], json.dumps(item)[:600]
    assert {o["ok"] for o in outcomes} == {True, False}
    assert len(outcomes) > 500


def test_chromium_words_a_refusal_in_the_readers_language(page):
    messages = {"KONGS_FULL": "{seat} уже сделал {count} конгов: больше в руке не бывает."}
    error = {"code": "KONGS_FULL", "params": {"seat": "E", "count": 12345}, "kinds": {}}
    text = page.evaluate("([e, m]) => Sheet.words.refusal(e, m, 'ru')", [error, messages])
    assert text == "E уже сделал 12\u00a0345 конгов: больше в руке не бывает."
