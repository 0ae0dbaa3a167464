"""The hand arithmetic's messages and what the table page's browser copy reads from it:
every refusal carries a template of mahjong/hands/messages.py and travels as its code (the
page embeds the codes' translations), the cells the page offers are the ones base_points
accepts, and the rules and the outcome come as plain JSON (mahjong.hands.browser)."""

import json
import string

import pytest

from mahjong.hands import messages, preview, riichi, rules_json
from mahjong.hands.errors import HandError
from tests.support import hand_corpus
from tests.support.hands import EMA_SCORES, RIICHI_HANDS, SICHUAN_HANDS, SICHUAN_POINTS


def refusals(cases):
    for item in cases:
        outcome = hand_corpus.expected(item)
        if not outcome["ok"]:
            yield outcome["error"]


def test_every_refusal_of_a_large_corpus_carries_a_known_template():
    cases = hand_corpus.known_cases()
    for name in hand_corpus.RULES:
        cases += hand_corpus.random_cases(name, 1500, seed=11)
    seen = set()
    templates = {code: text for text, code in messages.CODES.items()}
    for error in refusals(cases):
        assert templates[error["code"]] in messages.TEMPLATES, error
        fields = {f for _, f, _, _ in string.Formatter().parse(templates[error["code"]]) if f}
        assert fields == set(error["params"]), error
        seen.add(templates[error["code"]])
    # The corpus reaches every refusal but the riichi module's own guard against a Sichuan
    # rule set, which the one door (mahjong.hands.play) never lets through.
    assert set(messages.TEMPLATES) - seen == {messages.NOT_RIICHI_RULES}


def test_the_templates_are_the_module_constants_and_words_are_not_templates():
    constants = [v for k, v in vars(messages).items() if k.isupper() and isinstance(v, str)]
    assert len(set(constants)) == len(constants), "a template is defined twice"
    assert set(messages.TEMPLATES) == set(constants) - set(messages.WORDS)
    assert set(messages.WORDS) == {"by self-draw", "on a discard"}
    # each template and word has one code, its constant's name, the page's key to it
    assert messages.CODES == {
        v: k for k, v in vars(messages).items() if k.isupper() and isinstance(v, str)
    }
    assert len(set(messages.CODES.values())) == len(constants)
    with pytest.raises(HandError) as caught:
        riichi.play_game(hand_corpus.RULES["sbr-2025"], [])
    assert caught.value.template == messages.NOT_RIICHI_RULES
    assert caught.value.code == "NOT_RIICHI_RULES"


@pytest.mark.parametrize("name", [n for n, r in hand_corpus.RULES.items() if r.game == "riichi"])
def test_the_cells_offered_are_exactly_those_base_points_accepts(name):
    rules = hand_corpus.RULES[name]
    cells = riichi.allowed_cells(rules)
    for way, tsumo in (("ron", False), ("tsumo", True)):
        assert [row["han"] for row in cells[way]] == [1, 2, 3, 4]
        for row in cells[way]:
            for fu in riichi.FU:
                win = {"seat": "S", "han": row["han"], "fu": fu}
                try:
                    riichi.base_points(rules, win, tsumo, "w")
                    accepted = True
                except HandError:
                    accepted = False
                assert (fu in row["fu"]) == accepted, (way, row["han"], fu)
    for limit in cells["limits"]:
        win = {"seat": "S", "han": limit["han"]}
        assert riichi.base_points(rules, win, True, "w") == limit["base"]
    for count in (1, 2):
        try:
            riichi.base_points(rules, {"seat": "S", "yakuman": count}, True, "w")
            accepted = True
        except HandError:
            accepted = False
        assert (count in cells["yakuman"]) == accepted


def test_the_cells_of_ema_and_furiten():
    """000: no 20 fu on a discard, no 25 fu at 1 han, nor by self-draw below 3 han; 001 §12
    prints a 20 fu row on a discard and pays no double yakuman."""
    ema = riichi.allowed_cells(hand_corpus.RULES["ema-2012"])
    assert ema["ron"][0] == {"han": 1, "fu": [30, 40, 50, 60, 70, 80, 90, 100, 110]}
    assert ema["tsumo"][1]["fu"][:2] == [20, 30]
    assert ema["tsumo"][2]["fu"][:3] == [20, 25, 30]
    assert ema["limits"] == [
        {"han": 5, "base": 2000},
        {"han": 6, "base": 3000},
        {"han": 8, "base": 4000},
        {"han": 11, "base": 6000},
        {"han": 13, "base": 8000},
    ]
    assert ema["yakuman"] == [1, 2]
    furiten = riichi.allowed_cells(hand_corpus.RULES["furiten-club"])
    assert furiten["ron"][0]["fu"][0] == 20
    assert furiten["yakuman"] == [1]


def test_rules_json_is_plain_json_of_what_the_arithmetic_reads():
    data = rules_json(hand_corpus.RULES["furiten-club"])
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "key": "furiten-club",
        "game": "riichi",
        "start_points": 30000,
        "ron_20_fu": True,
        "hand_cells": [[1, 20, 200]],
        "double_yakuman": False,
        "sticks_at_end": "table",
        "nagashi_noten": False,
        "counters_on_pass": "return",
        "end_below_zero": True,
        "ron_winners": "one",
        "triple_ron": "redeal",
        "nagashi": False,
        "pao_hands": "dragons_winds_kongs",
        "open_kan_rinshan": "kan_giver",
    }


def test_preview_gives_the_game_or_the_refusal_as_json():
    game = preview(hand_corpus.RULES["ema-2012"], RIICHI_HANDS)
    assert json.loads(json.dumps(game)) == game
    assert list(game["scores"].values()) == EMA_SCORES
    assert game["chombo"] == {"E": 0, "S": 0, "W": 0, "N": 1}
    assert game["hands"][0]["payments"][2] == {
        "payer": "W",
        "payee": "S",
        "amount": 5200,
        "why": "ron",
    }
    sichuan = preview(hand_corpus.RULES["sbr-2025"], SICHUAN_HANDS)
    assert list(sichuan["scores"].values()) == SICHUAN_POINTS
    assert sichuan["hands"][1]["totals"] == sichuan["scores"]
    # a refusal is its code and params as JSON values: the refused value itself, with how its
    # message shows it (the server's message says 'win'), and a word by its code
    assert preview(hand_corpus.RULES["ema-2012"], [{"result": "win"}]) == {
        "ok": False,
        "error": {
            "path": "hands[0].result",
            "code": "NOT_A_RESULT",
            "params": {"value": "win", "results": "ron, tsumo, draw, abortive, chombo, nagashi"},
            "kinds": {"value": "repr"},
        },
    }
    with pytest.raises(HandError) as caught:
        riichi.play_game(hand_corpus.RULES["ema-2012"], [{"result": "win"}])
    assert caught.value.message == (
        "'win' is not a hand result (ron, tsumo, draw, abortive, chombo, nagashi)."
    )
    empty = {"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 1, "fu": 20}]}
    assert preview(hand_corpus.RULES["ema-2012"], [empty])["error"] == {
        "path": "hands[0].wins[0].fu",
        "code": "EMPTY_CELL",
        "params": {"han": 1, "fu": 20, "how": "ON_A_DISCARD"},
        "kinds": {"how": "word"},
    }
    sichuan = preview(hand_corpus.RULES["sbr-2025"], [{"events": [{"kong": "closed"}]}])
    assert sichuan["error"]["params"] == {"kind": "closed"}
    assert sichuan["error"]["kinds"] == {"kind": "json"}
