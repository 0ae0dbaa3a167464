"""One corpus of hands for both copies of the arithmetic: the server's (mahjong.hands) and the
table page's (static/sheet/score.js), run here in V8 without a browser (mini-racer).

The checked-in corpus, tests/corpus/hands.json (tests.support.hand_corpus), holds hand lists
with what they give: the game as the page's JSON, or the refusal's code and params. Both copies
must give exactly that on every entry; and on thousands of seeded random games per rule set,
possible and impossible, the browser's copy must give what the server's gives, field by field:
the scores, each hand's payments, deltas or points, the dealer, counters and sticks; for a
refusal the path, the code and its params. The page puts a refusal in words itself from the
translations its start-up data carries (static/sheet/words.js): the same text as the desk's.

Issue 24: "the browser copy must give exactly the same numbers and refuse exactly the same
hands"; issue 35: one corpus both suites read, no message templates in the page's script.
"""

import json
import re
import string
from pathlib import Path

import pytest
from py_mini_racer import MiniRacer

from mahjong.hands import messages, rules_json
from mahjong.hands.errors import HandError, Shown
from mahjong.hands.riichi import allowed_cells
from tests.support import hand_corpus

SHEET = Path(__file__).resolve().parents[3] / "static" / "sheet"
SCRIPT = SHEET / "score.js"
PER_RULES = 3000  # random games per rule set
CHUNK = 1000
# The cases go in and out as JSON text: one string each way is the fastest road into V8.
RUN = """(rules, cases) => { rules = JSON.parse(rules);
  return JSON.stringify(JSON.parse(cases).map((c) => c.call === "hand"
    ? SheetScore.playHand(c.hand, c.seats, c.dealer)
    : SheetScore.play(rules[c.rules], c.hands, c.winds, c.first_dealer))); }"""
ENGLISH = {code: text for text, code in messages.CODES.items()}


@pytest.fixture(scope="module")
def v8():
    context = MiniRacer()
    context.eval("var window = globalThis;")
    for name in ("score.js", "words.js"):
        context.eval((SHEET / name).read_text(encoding="utf-8"))
    return context


@pytest.fixture(scope="module")
def corpus():
    return hand_corpus.read_corpus()


def run(v8, cases, rules=None):
    rules = json.dumps(rules or all_rules())
    outcomes = []
    for start in range(0, len(cases), CHUNK):
        chunk = json.dumps(cases[start : start + CHUNK])
        outcomes += json.loads(v8.eval(RUN)(rules, chunk))
    return outcomes


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


def compare(v8, cases):
    outcomes = run(v8, cases)
    for item, js in zip(cases, outcomes, strict=True):
        py = hand_corpus.expected(item)
        assert js == py, f"{json.dumps(item)[:600]}\n{first_difference(py, js)}"
    return outcomes


# --- the checked-in corpus ---------------------------------------------------------------------


def test_the_corpus_is_what_the_server_gives(corpus):
    """Python's arithmetic gives every entry's expected result (a change of the arithmetic
    writes the corpus again: python -m tests.support.hand_corpus)."""
    assert corpus["rules"] == all_rules()
    for item in corpus["cases"]:
        case = {k: v for k, v in item.items() if k != "expected"}
        assert hand_corpus.expected(case) == item["expected"], json.dumps(case)[:600]


def test_the_corpus_is_what_the_browser_gives(v8, corpus):
    cases = [{k: v for k, v in item.items() if k != "expected"} for item in corpus["cases"]]
    outcomes = run(v8, cases, corpus["rules"])
    for item, js in zip(corpus["cases"], outcomes, strict=True):
        assert js == item["expected"], (
            f"{json.dumps(item)[:600]}\n{first_difference(item['expected'], js)}"
        )
    assert {o["ok"] for o in outcomes} == {True, False}


def test_the_corpus_holds_every_hand_list_the_tests_know(corpus):
    """The known cases are recorded from the unit tests while they run: a new test's hands
    join the corpus when it is written again."""
    held = [json.dumps(item, sort_keys=True) for item in corpus["cases"]]
    known = [json.dumps(case, sort_keys=True) for case in hand_corpus.known_cases()]
    stripped = {
        json.dumps({k: v for k, v in json.loads(h).items() if k != "expected"}, sort_keys=True)
        for h in held
    }
    missing = [case for case in known if case not in stripped]
    assert not missing, f"{len(missing)} known cases not in the corpus: {missing[0][:300]}"
    assert len(known) > 500


def test_the_corpus_reaches_every_refusal(corpus):
    """Every code of the arithmetic's refusals is met at least once (the riichi module's
    refusal of a Sichuan rule set aside: the one door never sends one there)."""
    seen = {i["expected"]["error"]["code"] for i in corpus["cases"] if not i["expected"]["ok"]}
    codes = {messages.CODES[t] for t in messages.TEMPLATES}
    assert codes - seen == {"NOT_RIICHI_RULES"}


# --- the browser's copy against the server's, on seeded random games ----------------------------


def test_every_hand_list_the_tests_know(v8):
    cases = hand_corpus.known_cases()
    outcomes = compare(v8, cases)
    assert len(cases) > 500
    assert {o["ok"] for o in outcomes} == {True, False}


@pytest.mark.parametrize("name", list(hand_corpus.RULES))
def test_thousands_of_random_games(v8, name):
    cases = hand_corpus.random_cases(name, PER_RULES, seed=24)
    outcomes = compare(v8, cases)
    kept = [o for o in outcomes if o["ok"]]
    # The corpus is worth its name: many games possible, many refused, some played to the end.
    assert len(kept) > PER_RULES // 4 and len(outcomes) - len(kept) > PER_RULES // 10
    if hand_corpus.RULES[name].game == "riichi":
        assert sum(o["over"] for o in kept) > 50
        assert sum(o["sticks_left"] > 0 for o in kept) > 50
    else:
        assert sum(len(o["scores"]) == 3 for o in kept) > 300


def test_the_refusals_cover_every_code(v8):
    """Every message the arithmetic has is met at least once (the riichi module's refusal of
    a Sichuan rule set aside: the one door never sends one there)."""
    seen = set()
    cases = hand_corpus.known_cases()
    for name in hand_corpus.RULES:
        cases += hand_corpus.random_cases(name, 400, seed=7)
    for outcome in compare(v8, cases):
        if not outcome["ok"]:
            seen.add(outcome["error"]["code"])
    assert {messages.CODES[t] for t in messages.TEMPLATES} - seen == {"NOT_RIICHI_RULES"}


def test_the_cells_offered_are_the_cells_the_server_accepts(v8):
    cells = v8.eval("(r) => JSON.stringify(SheetScore.cells(JSON.parse(r)))")
    for rules in hand_corpus.RULES.values():
        assert json.loads(cells(json.dumps(rules_json(rules)))) == allowed_cells(rules)


# --- a refusal in words -------------------------------------------------------------------------


def test_the_page_script_holds_no_message_and_no_copy_of_repr():
    """The page's script has the codes only: no template nor word of messages.py, and no
    port of Python's repr (issue 35)."""
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SHEET.glob("*.js")))
    literals = re.findall(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', script)
    assert len(literals) > 500
    for text in messages.CODES:
        assert not [s for s in literals if text in s], text
    assert not re.search(r"pyRepr|pyStr|pyFloat|pyJson", script)


def plain(value, style) -> bool:
    """A value the page's forms can hold (a text, nothing, yes or no, a whole number), which
    the page writes as the desk does; others reach only the desk, which answers in its own
    words."""
    if value is None or isinstance(value, (bool, int)):
        return True
    if not isinstance(value, str):
        return False
    return style == "json" or (value.isprintable() and "'" not in value and "\\" not in value)


def server_words(error: HandError, catalogue=None) -> str:
    """core.errors.rule_message's filling without Django: the template (translated by
    `catalogue`), whole numbers grouped, words translated, everything else as str() gives it."""
    template = (catalogue or {}).get(error.template, error.template)

    def param(value):
        if isinstance(value, int) and not isinstance(value, (bool, Shown)):
            return f"{value:,}"
        if getattr(value, "translatable", False):
            return (catalogue or {}).get(value, value)
        return value

    return template.format(**{k: param(v) for k, v in error.params.items()})


def refusals(cases):
    """(the server's HandError, its JSON) of every refused case."""
    out = []
    for item in cases:
        expected = hand_corpus.expected(item)
        if not expected["ok"]:
            out.append((hand_corpus.refusal(item), expected["error"]))
    return out


def test_a_refusal_in_words_as_the_server_fills_it(v8):
    """Words.refusal fills a code's template as core.errors.rule_message does: whole numbers
    grouped, the words translated, a refused value as its message shows it."""
    cases = hand_corpus.random_cases("ema-2012", 300, seed=3)
    cases += hand_corpus.random_cases("sbr-2025", 300, seed=3)
    corpus = hand_corpus.read_corpus()["cases"]
    cases += [{k: v for k, v in i.items() if k != "expected"} for i in corpus]
    errors = [
        (error, js)
        for error, js in refusals(cases)
        if all(plain(js["params"][k], js["kinds"].get(k)) for k in js["params"])
    ]
    assert len(errors) > 300
    assert len({js["code"] for _, js in errors}) > 40
    words = v8.eval(
        "(errors, messages) => JSON.stringify(JSON.parse(errors).map("
        "(e) => Sheet.words.refusal(e, JSON.parse(messages), 'en')))"
    )
    english = json.loads(words(json.dumps([js for _, js in errors]), json.dumps(ENGLISH)))
    for (error, js), text in zip(errors, english, strict=True):
        assert text == server_words(error), js
    # the page's own entries: a discarder not chosen yet, a kong of no kind yet
    shown = [
        ({"code": "NOT_A_DISCARDER", "params": {"value": "", "seats": "E, S, W, N"},
          "kinds": {"value": "repr"}}, "'' is not a discarder at this table (E, S, W, N)."),
        ({"code": "UNKNOWN_KONG", "params": {"kind": None}, "kinds": {"kind": "json"}},
         "Unknown kong null: expected open, concealed or added."),
        ({"code": "FANS", "params": {"maximum": 99, "value": "x" * 50}, "kinds": {"value": "json"}},
         'Fans must be a whole number from 0 to 99, not "' + "x" * 38 + "…."),
    ]  # fmt: skip
    for error, text in shown:
        assert json.loads(words(json.dumps([error]), json.dumps(ENGLISH))) == [text]


def test_a_refusal_in_the_readers_language(v8):
    """The translations come from the page's start-up data by code; the words among the
    params by theirs; numbers grouped the reader's way."""
    catalogue = dict(ENGLISH)
    catalogue["EMPTY_CELL"] = "Keine Hand mit {han} Han {fu} Fu gewinnt {how}."
    catalogue["ON_A_DISCARD"] = "auf einen Abwurf"
    catalogue["KONGS_FULL"] = "{seat} hat schon {count} Kongs."
    fill = v8.eval("(e, c, l) => Sheet.words.refusal(JSON.parse(e), JSON.parse(c), l)")
    empty = {
        "code": "EMPTY_CELL",
        "params": {"han": 1, "fu": 20, "how": "ON_A_DISCARD"},
        "kinds": {"how": "word"},
    }
    assert fill(json.dumps(empty), json.dumps(catalogue), "de") == (
        "Keine Hand mit 1 Han 20 Fu gewinnt auf einen Abwurf."
    )
    kongs = {"code": "KONGS_FULL", "params": {"seat": "E", "count": 4000}, "kinds": {}}
    assert fill(json.dumps(kongs), json.dumps(catalogue), "de") == "E hat schon 4.000 Kongs."
    # a param that is a text is never taken for a word: only "word" params are translated
    key = {"code": "UNKNOWN_WIN_KEY", "params": {"key": "ON_A_DISCARD"}, "kinds": {}}
    assert fill(json.dumps(key), json.dumps(catalogue), "de") == "Unknown key ON_A_DISCARD."


def test_every_code_names_a_template_with_the_params_it_is_given(corpus):
    for item in corpus["cases"]:
        if item["expected"]["ok"]:
            continue
        error = item["expected"]["error"]
        fields = {f for _, f, _, _ in string.Formatter().parse(ENGLISH[error["code"]]) if f}
        assert fields == set(error["params"]), error
        assert set(error["kinds"]) <= set(error["params"]), error


def test_the_script_is_small_enough_to_inline():
    """The page inlines it: about 24 KB as written, with no message and no copy of Python's
    repr in it (they were 30 KB); issue 36's riichi rules (pao, one winner per discard,
    kan_from) add about 2 KB and its Sichuan ones (a dead hand, a false hu on a kong, a pig on
    a win) about 2 KB more: 28.4 KB."""
    assert SCRIPT.stat().st_size < 30_000
