"""A corpus of hand lists for both games, valid and impossible, to hold two copies of the hand
arithmetic to the same answers (static/sheet/score.js against mahjong.hands, run in V8 without
a browser: tests/unit/mahjong/test_hand_corpus.py) and to walk every refusal
(tests/unit/mahjong/test_hands_messages.py).

- `RULES`: the presets and the rule variants the riichi arithmetic reads (mahjong.presets).
- `known_cases()`: every hand list of tests/support/hands.py, and every call the unit tests
  (tests/unit/mahjong/test_hands_riichi.py, test_hands_sichuan.py) make to the arithmetic, recorded
  while their test functions run (hypothesis's property tests aside: they draw at random).
- `random_cases(rules, count, seed)`: a seeded generator of games, mostly possible, one in three
  with one hand spoilt (a wrong seat, an empty cell, the discarder winning, a hand after the end,
  a Sichuan hu by a player already out, a fifth kong, a hu too many, a three-player table…).
- `CORPUS`, tests/corpus/hands.json: the checked-in corpus both suites read: the rules as the
  page gets them, and each case with its expected result (the game as the page's JSON, or the
  refusal's code and params). It holds the known cases, and from the random ones the first
  refusal of each code under each rule set and a few games played to the end. Written by
  `python -m tests.support.hand_corpus` after a change of the arithmetic or of its tests
  (tests/unit/mahjong/test_hand_corpus.py says when it is out of date).

A case is a dict: `call` is "play" (mahjong.hands.play(rules, hands, winds) with E dealing first,
or sichuan.play_game with `first_dealer`) or "hand" (sichuan.play_hand(hand, seats, dealer)).
Everything is plain JSON (lists, no tuples) and deterministic for a given seed; no Django.

The browser cannot tell 2.0 from 2 (JavaScript has one number type), nor keep the order of keys
that look like whole numbers ("1"); the phone's own JSON never holds them, and the corpus holds
neither.
"""

import copy
import inspect
import json
import random
from pathlib import Path

from mahjong.hands import play, preview, rules_json, sichuan
from mahjong.hands.browser import error_json, game_json, sichuan_hand_json
from mahjong.hands.errors import HandError
from mahjong.presets import PRESETS, ruleset_from
from tests.support import hands as fixtures
from tests.unit.mahjong import test_hands_riichi, test_hands_sichuan

WINDS = ["E", "S", "W", "N"]
THREE = ["E", "S", "W"]

RULES = {
    "ema-2012": PRESETS["ema-2012"],
    "furiten-club": PRESETS["furiten-club"],
    "sbr-2025": PRESETS["sbr-2025"],
    "sticks_at_end": ruleset_from("ema-2012", {"sticks_at_end": "table"}),
    "counters_on_pass": ruleset_from("ema-2012", {"counters_on_pass": "return"}),
    "nagashi_noten": ruleset_from("ema-2012", {"nagashi_noten": True}),
    "double_yakuman": ruleset_from("furiten-club", {"double_yakuman": True}),
    "single_yakuman": ruleset_from("ema-2012", {"double_yakuman": False}),
    "end_below_zero": ruleset_from("ema-2012", {"end_below_zero": True, "start_points": 8000}),
    "ron_20_fu": ruleset_from("ema-2012", {"ron_20_fu": True}),
    "hand_cells": ruleset_from(
        "ema-2012", {"hand_cells": [[1, 20, 200], [2, 25, 500], [4, 40, 1900], [3, 110, 2000]]}
    ),
    "furiten_sticks_to_winner": ruleset_from(
        "furiten-club", {"sticks_at_end": "winner", "counters_on_pass": "keep"}
    ),
    "no_pao": ruleset_from("ema-2012", {"pao_hands": "none"}),
    "triple_ron_redeal": ruleset_from("ema-2012", {"triple_ron": "redeal"}),
}

# Values that are no seat, no result, no number: Python's repr and JSON of each must come out
# the same in the browser.
ODD = [
    None, True, False, 0, -1, 2.5, 1.5e-7, 123456.789, "", "X", "e", "EAST", "東", "É", "a'b",
    'a"b', "x\ny", "tab\there", "\u200b", "\x7f", "\x85", "😀", [], ["E"], {}, {"seat": "E"},
    "a very long value that the message cuts off after forty characters", "x" * 38, "y" * 39,
]  # fmt: skip


def _plain(value):
    return json.loads(json.dumps(value))


def case(rules_name, hands, winds=WINDS, first_dealer="E"):
    return {
        "rules": rules_name,
        "call": "play",
        "hands": _plain(hands),
        "winds": _plain(list(winds) if isinstance(winds, tuple) else winds),
        "first_dealer": first_dealer,
    }


def refusal(item: dict) -> HandError | None:
    """The server's refusal of a case as the arithmetic raises it, or None."""
    rules = RULES[item["rules"]]
    try:
        if item["call"] == "hand":
            sichuan.play_hand(item["hand"], item["seats"], item["dealer"])
        elif item["first_dealer"] != "E":
            sichuan.play_game(item["hands"], item["winds"], item["first_dealer"])
        else:
            play(rules, item["hands"], item["winds"])
    except HandError as error:
        return error
    return None


def expected(item: dict) -> dict:
    """What the Python arithmetic gives for a case, as the browser's JSON."""
    rules = RULES[item["rules"]]
    if item["call"] == "hand":
        try:
            result = sichuan.play_hand(item["hand"], item["seats"], item["dealer"])
        except HandError as error:
            return _plain(error_json(error))
        return _plain({"ok": True} | sichuan_hand_json(result))
    if item["first_dealer"] != "E":
        try:
            return _plain(
                game_json(sichuan.play_game(item["hands"], item["winds"], item["first_dealer"]))
            )
        except HandError as error:
            return _plain(error_json(error))
    return _plain(preview(rules, item["hands"], item["winds"]))


# --- the hands the project's tests already know ------------------------------------------------


def _record(module, calls):
    """Runs `module`'s test functions with its play_game / play_hand recording each call."""
    originals = {
        name: getattr(module, name) for name in ("play_game", "play_hand") if hasattr(module, name)
    }

    def spy(name):
        original = originals[name]

        def recorded(*args, **kwargs):
            bound = inspect.signature(original).bind(*args, **kwargs)
            bound.apply_defaults()
            calls.append((name, copy.deepcopy(dict(bound.arguments))))
            return original(*args, **kwargs)

        return recorded

    for name in originals:
        setattr(module, name, spy(name))
    try:
        for name, function in sorted(vars(module).items()):
            if not name.startswith("test_") or not callable(function):
                continue
            if hasattr(function, "hypothesis"):
                continue  # a property test draws at random; the corpus has its own generator
            for kwargs in _parameters(function):
                function(**kwargs)
    finally:
        for name, original in originals.items():
            setattr(module, name, original)


def _parameters(function):
    """Every combination of a test function's parametrize marks, as keyword arguments."""
    combos = [{}]
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = [v if len(names) > 1 else (v,) for v in values]
        combos = [c | dict(zip(names, row, strict=True)) for c in combos for row in rows]
    return combos


def known_cases() -> list[dict]:
    cases = [
        case("ema-2012", fixtures.RIICHI_HANDS),
        case("sbr-2025", fixtures.SICHUAN_HANDS),
        case(
            "ema-2012", [json.loads(line) for line in fixtures.README_RIICHI.strip().splitlines()]
        ),
        case(
            "furiten-club",
            [json.loads(line) for line in fixtures.README_RIICHI.strip().splitlines()],
        ),
        case("sbr-2025", [json.loads(fixtures.README_SICHUAN)]),
        case("ema-2012", []),
        case("ema-2012", {}),
        case("ema-2012", {"ron": 1}),
        case("ema-2012", "ron"),
        case("sbr-2025", []),
        case("sbr-2025", {}),
        case("sbr-2025", [], "ESW"),
        case("sbr-2025", [], ["E", "S", "N"]),
    ]
    calls = []
    _record(test_hands_riichi, calls)
    names = {id(rules): name for name, rules in RULES.items()}
    for _, args in calls:
        rules = args["rules"]
        name = names.get(id(rules)) or next(n for n, r in RULES.items() if r == rules)
        cases.append(case(name, args["hands"]))
    calls = []
    _record(test_hands_sichuan, calls)
    for function, args in calls:
        if function == "play_game":
            cases.append(case("sbr-2025", args["hands"], args["seats"], args["first_dealer"]))
        else:
            cases.append(
                {
                    "rules": "sbr-2025",
                    "call": "hand",
                    "hand": _plain(args["hand"]),
                    "seats": _plain(
                        list(args["seats"]) if isinstance(args["seats"], tuple) else args["seats"]
                    ),
                    "dealer": args["dealer"],
                }
            )
    return cases


# --- riichi at random --------------------------------------------------------------------------

FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]


def _some(rng, seats, most=4):
    return rng.sample(seats, rng.randint(0, min(most, len(seats))))


def _win(rng, seat):
    roll = rng.random()
    if roll < 0.06:
        win = {"seat": seat, "yakuman": rng.choice([1, 1, 1, 2])}
        if rng.random() < 0.4:  # a responsible player (pao), now and then the winner
            win["pao"] = rng.choice(WINDS)
        return win
    han = rng.choice([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15])
    win = {"seat": seat, "han": han}
    if han < 5:
        win["fu"] = rng.choice(FU) if rng.random() < 0.2 else rng.choice(FU[2:])
    return win


def riichi_hand(rng) -> dict:
    result = rng.choices(
        ["ron", "tsumo", "draw", "abortive", "chombo", "nagashi"], [30, 20, 25, 5, 3, 3]
    )[0]
    riichi = _some(rng, WINDS, 2)
    if result == "ron":
        discarder = rng.choice(WINDS)
        others = [s for s in WINDS if s != discarder]
        count = rng.choices([1, 2, 3], [85, 12, 3])[0]
        winners = rng.sample(others, count)
        return {
            "result": "ron",
            "from": discarder,
            "wins": [_win(rng, s) for s in winners],
            "riichi": riichi,
        }
    if result == "tsumo":
        hand = {"result": "tsumo", "wins": [_win(rng, rng.choice(WINDS))], "riichi": riichi}
        if rng.random() < 0.1:  # on the replacement tile of an open kan (001 §2.18)
            hand["kan_from"] = rng.choice(WINDS)
        return hand
    if result in ("draw", "nagashi"):
        tenpai = _some(rng, WINDS)
        riichi = [s for s in riichi if s in tenpai]
        hand = {"result": result, "tenpai": tenpai, "riichi": riichi}
        if result == "nagashi":
            hand["seat"] = rng.choice(WINDS)
        return hand
    if result == "abortive":
        return {"result": "abortive", "riichi": riichi}
    return {"result": "chombo", "seat": rng.choice(WINDS), "riichi": riichi}


def _spoil_riichi(rng, hand) -> dict:
    """One hand made impossible, or odd; the Python arithmetic says which."""
    hand = copy.deepcopy(hand)
    odd = rng.choice(ODD)
    wins = hand.get("wins")
    choices = ["result", "key", "riichi", "riichi_twice", "not_a_hand", "missing"]
    if wins:
        choices += ["win_seat", "han", "fu", "yakuman", "win_key", "win_object", "discarder"]
        choices += ["twice", "no_wins", "tsumo_two", "from", "pao"]
    if "tenpai" in hand:
        choices += ["tenpai", "riichi_noten"]
    if "seat" in hand:
        choices += ["seat"]
    what = rng.choice(choices)
    win = rng.choice(wins) if wins else None
    if what == "result":
        hand["result"] = odd
    elif what == "key":
        hand[rng.choice(["foo", "tenpai", "wins", "seat", "from", "b", "a"])] = odd
    elif what == "riichi":
        hand["riichi"] = rng.choice([odd, [odd], ["E", odd]])
    elif what == "riichi_twice":
        hand["riichi"] = ["S", "S"]
    elif what == "not_a_hand":
        hand = rng.choice([None, "ron", 3, [], [hand]])
    elif what == "missing":
        key = rng.choice(sorted(hand))
        del hand[key]
    elif what == "win_seat":
        win["seat"] = odd
    elif what == "han":
        win["han"] = rng.choice([odd, 0, -1, "3", 2.5, None, 100, 10**20, 10**400])
    elif what == "fu":
        win.pop("yakuman", None)
        win["han"] = rng.randint(1, 4)
        win["fu"] = rng.choice([odd, 35, 120, 10, "30", 2.5, None, 20, 25])
    elif what == "yakuman":
        win["yakuman"] = rng.choice([0, 1, 2, 3, 1.5, True, odd])
        if rng.random() < 0.3:
            win["han"] = 13
    elif what == "win_key":
        win[rng.choice(["fans", "from", "zz"])] = 1
    elif what == "win_object":
        wins[0] = rng.choice([odd, "S", ["S", 3, 40]])
    elif what == "discarder":
        if hand["result"] == "ron":
            win["seat"] = hand["from"]
        else:
            hand["from"] = win["seat"]
    elif what == "twice":
        wins.append(copy.deepcopy(wins[0]))
    elif what == "no_wins":
        hand["wins"] = rng.choice([[], None, "S", {}])
    elif what == "tsumo_two":
        hand["result"] = "tsumo"
        hand.pop("from", None)
        hand["wins"] = [{"seat": "E", "han": 3, "fu": 30}, {"seat": "S", "han": 2, "fu": 30}]
    elif what == "from":
        hand["from"] = odd
    elif what == "pao":
        win["pao"] = rng.choice([odd, win.get("seat"), hand.get("from"), "N"])
    elif what == "tenpai":
        hand["tenpai"] = rng.choice([odd, [odd], ["E", "E"], "ES"])
    elif what == "riichi_noten":
        hand["riichi"] = [s for s in WINDS if s not in hand["tenpai"]][:1] or ["E"]
    elif what == "seat":
        hand["seat"] = odd
    return hand


def riichi_game(rng, rules) -> list:
    length = rng.choices([1, 3, 6, 9, 12, 16, 40], [10, 15, 20, 20, 15, 10, 10])[0]
    hands = [riichi_hand(rng) for _ in range(length)]
    if rng.random() < 0.8:  # most games stop where they end; the others play on, refused
        refusal = preview(rules, hands).get("error")
        if refusal and refusal["code"] == "GAME_OVER":
            hands = hands[: int(refusal["path"][len("hands[") : -1])]
    if rng.random() < 0.35:
        n = rng.randrange(len(hands))
        hands[n] = _spoil_riichi(rng, hands[n])
    return hands


# --- Sichuan at random -------------------------------------------------------------------------


def sichuan_hand(rng, seats) -> dict:
    """A hand as a table plays it: kongs, hu and false hu of players still in, then either the
    last hu or an exhausted wall with each other player's state."""
    limit = len(seats) - 1
    out, events, last, kongs = [], [], {}, dict.fromkeys(seats, 0)
    while len(out) < limit and rng.random() < 0.8:
        inside = [s for s in seats if s not in out]
        kind = rng.choices(["kong", "hu", "false_hu"], [45, 45, 10])[0]
        i = len(events)
        if kind == "kong":
            seat = rng.choice(inside)
            if kongs[seat] >= 4 and rng.random() < 0.8:
                continue
            kong = rng.choice(["open", "concealed", "added"])
            event = {"kong": kong, "seat": seat}
            if kong == "open":
                event["from"] = rng.choice([s for s in inside if s != seat] or [seat])
                last[event["from"]] = (i, "discard")
            elif kong == "added" and rng.random() < 0.2:
                event["from_hand"] = True
            kongs[seat] += 1
            last[seat] = (i, kong)
        elif kind == "false_hu":
            seat = rng.choice(inside)
            event = {"false_hu": seat, "waiting": rng.random() < 0.5}
            last[seat] = (i, "false_hu")
        else:
            if rng.random() < 0.3:
                seat = rng.choice(inside)
                event = {"hu": [{"seat": seat, "fans": rng.randint(0, 6)}], "self_draw": True}
                last[seat] = (i, "hu")
                out.append(seat)
            else:
                discarder = rng.choice(inside)
                others = [s for s in inside if s != discarder]
                if not others:
                    continue
                count = rng.choices([1, 2, 3], [80, 15, 5])[0]
                winners = rng.sample(others, min(count, len(others), limit - len(out)))
                event = {
                    "hu": [{"seat": s, "fans": rng.randint(0, 6)} for s in winners],
                    "from": discarder,
                }
                previous = last.get(discarder, (None, None))[1]
                if previous == "added" and rng.random() < 0.5:
                    event["robbing_kong"] = True
                elif previous in ("open", "concealed", "added") and rng.random() < 0.5:
                    event["after_kong"] = True
                last[discarder] = (i, "discard")
                out += winners
        events.append(event)
    hand = {"events": events}
    if len(out) < limit:
        states = {}
        for seat in seats:
            if seat not in out:
                states[seat] = rng.choice(
                    [
                        {"waiting": rng.randint(0, 5)},
                        {"waiting": 0},
                        "not_waiting",
                        "pig",
                        "pig_passive",
                    ]
                )
        hand["exhausted"] = states
    return _with_dead(hand, seats)


def _with_dead(hand: dict, seats) -> dict:
    """Issue 36: now and then a dead hand (002 §2.8.3) somewhere among the events, for any seat:
    a dead seat that later wins or waits is refused, which both copies must do alike. Drawn
    from the hand itself, so the draws before it stay as they were."""
    rng = random.Random(json.dumps(hand, sort_keys=True))
    if rng.random() >= 0.85:
        events = hand["events"]
        events.insert(rng.randint(0, len(events)), {"dead": rng.choice(list(seats))})
    return _false_hu_on_kongs(hand, seats)


def _false_hu_on_kongs(hand: dict, seats) -> dict:
    """Issue 36: now and then a winner who is a pig (002 §2.5.8 (3)); a false hu on a discard
    (§2.8.4 (3)), after a kong of its discarder or robbing it when the kong was that seat's
    last event, now and then on a wrong one."""
    rng = random.Random("false:" + json.dumps(hand, sort_keys=True))
    for event in hand["events"]:  # 002 §2.5.8 (3): a winner with a forbidden tile
        for win in event.get("hu", []) if isinstance(event.get("hu"), list) else []:
            if isinstance(win, dict) and rng.random() < 0.08:
                win["pig"] = rng.random() < 0.9 or "yes"
    last = {}
    for event in hand["events"]:
        if "false_hu" in event and rng.random() < 0.6:
            others = [s for s in seats if s != event["false_hu"]]
            event["from"] = rng.choice(others if rng.random() < 0.95 else list(seats))
            kind = last.get(event["from"])
            if kind == "added" and rng.random() < 0.5:
                event["robbing_kong"] = True
            elif kind or rng.random() < 0.1:
                event[rng.choice(["after_kong", "after_kong", "robbing_kong"])] = True
        for key in ("seat", "from", "false_hu", "dead"):
            if key in event:
                last[event[key]] = None
        if "kong" in event:
            last[event["seat"]] = event["kong"]
        if "hu" in event and event.get("from"):
            last[event["from"]] = None
    return hand


def _spoil_sichuan(rng, hand, seats) -> dict:
    hand = copy.deepcopy(hand)
    odd = rng.choice(ODD)
    events = hand["events"]
    choices = ["hand_key", "not_a_hand", "events", "event", "two_kinds", "exhausted", "after_end"]
    choices += ["out_hu", "out_kong", "fifth_kong", "too_many_hu", "wall_twice"]
    if events:
        choices += ["seat", "kong_kind", "from", "flag", "fans", "event_key", "hu_list"]
        choices += ["win_object", "self_and_from", "rob", "after", "missing"]
    what = rng.choice(choices)
    inside = [
        s for s in seats if not any(s in [w.get("seat") for w in e.get("hu", [])] for e in events)
    ]
    event = rng.choice(events) if events else None
    if what == "hand_key":
        hand[rng.choice(["result", "dealer", "zz"])] = odd
    elif what == "not_a_hand":
        hand = rng.choice([None, [], "events", 0])
    elif what == "events":
        hand["events"] = rng.choice([odd, {}, None])
    elif what == "event":
        events.insert(rng.randint(0, len(events)), rng.choice([odd, {}, "hu", ["kong"]]))
    elif what == "two_kinds":
        events.insert(0, {"kong": "concealed", "hu": [], "seat": "E"})
    elif what == "exhausted":
        if "exhausted" in hand and hand["exhausted"] and rng.random() < 0.6:
            seat = rng.choice(sorted(hand["exhausted"]))
            change = rng.choice(["drop", "odd", "extra", "fans", "key"])
            if change == "drop":
                del hand["exhausted"][seat]
            elif change == "odd":
                hand["exhausted"][seat] = odd
            elif change == "extra":
                hand["exhausted"][rng.choice(seats + ["X", "N"])] = "not_waiting"
            elif change == "fans":
                hand["exhausted"][seat] = {"waiting": rng.choice([odd, -1, 100, 2.5])}
            else:
                hand["exhausted"][seat] = {"waiting": 1, "pig": True}
        else:
            hand["exhausted"] = rng.choice([odd, {"E": "pig"}, []])
    elif what == "after_end":
        events.append({"hu": [{"seat": rng.choice(seats), "fans": 1}], "self_draw": True})
    elif what == "out_hu":
        winners = [w["seat"] for e in events for w in e.get("hu", []) if isinstance(w, dict)]
        if winners:
            events.append({"hu": [{"seat": winners[0], "fans": 1}], "from": rng.choice(seats)})
    elif what == "out_kong":
        winners = [w["seat"] for e in events for w in e.get("hu", []) if isinstance(w, dict)]
        if winners:
            events.append({"kong": "concealed", "seat": winners[-1]})
    elif what == "fifth_kong":
        seat = rng.choice(inside or seats)
        events[0:0] = [{"kong": "concealed", "seat": seat} for _ in range(5)]
    elif what == "too_many_hu":
        events.append({"hu": [{"seat": s, "fans": 0} for s in seats[1:]], "from": seats[0]})
    elif what == "wall_twice":
        hand["exhausted"] = {s: "not_waiting" for s in seats}
    elif what == "seat":
        key = rng.choice([k for k in ("seat", "from", "false_hu") if k in event] or ["seat"])
        event[key] = odd
    elif what == "kong_kind":
        events.insert(0, {"kong": rng.choice([odd, "closed", "open"]), "seat": rng.choice(seats)})
    elif what == "from":
        if "kong" in event:
            event["from"] = rng.choice(seats + [event.get("seat")])
        elif "hu" in event:
            event["from"] = rng.choice(seats)
    elif what == "flag":
        key = rng.choice(["self_draw", "robbing_kong", "after_kong", "from_hand", "waiting"])
        event[key] = rng.choice([True, False, odd])
    elif what == "fans":
        if "hu" in event and event["hu"]:
            event["hu"][0]["fans"] = rng.choice([odd, -1, 100, 99, 2.5, None])
        else:
            events.insert(0, {"hu": [{"seat": "E", "fans": -1}], "self_draw": True})
    elif what == "event_key":
        event[rng.choice(["zz", "fans", "seat", "tenpai"])] = 1
    elif what == "hu_list":
        events.insert(0, {"hu": rng.choice([[], odd, {"seat": "E"}]), "from": "S"})
    elif what == "win_object":
        events.insert(
            0,
            {
                "hu": [rng.choice([odd, "E", {"seat": "E"}, {"seat": "E", "fans": 1, "x": 1}])],
                "from": "S",
            },
        )
    elif what == "self_and_from":
        events.insert(
            0, {"hu": [{"seat": "E", "fans": 1}, {"seat": "W", "fans": 1}], "self_draw": True}
        )
    elif what == "rob":
        events.insert(
            rng.randint(0, len(events)),
            {"hu": [{"seat": "E", "fans": 1}], "from": "S", "robbing_kong": True},
        )
    elif what == "after":
        events.insert(
            rng.randint(0, len(events)),
            {"hu": [{"seat": "E", "fans": 1}], "from": "S", "after_kong": True},
        )
    elif what == "missing":
        key = rng.choice(sorted(event))
        del event[key]
    return hand


def sichuan_game(rng, seats) -> list:
    hands = [
        sichuan_hand(rng, seats) for _ in range(rng.choices([1, 2, 4, 8], [40, 25, 20, 15])[0])
    ]
    if rng.random() < 0.4:
        n = rng.randrange(len(hands))
        hands[n] = _spoil_sichuan(rng, hands[n], seats)
    return hands


# --- the corpus --------------------------------------------------------------------------------

BAD_TABLES = [
    ["E", "S"],
    ["E", "E", "S"],
    ["E", "S", "W", "X"],
    ["E", "S", "W", "N", "E"],
    "ESWN",
    [],
]


def random_cases(rules_name: str, count: int, seed: int) -> list[dict]:
    """`count` cases under RULES[rules_name], the same ones for the same seed."""
    rng = random.Random(f"{rules_name}:{seed}")
    cases = []
    if RULES[rules_name].game == "sichuan":
        for n in range(count):
            seats = THREE if n % 4 == 3 else WINDS
            if n % 97 == 0:
                cases.append(case(rules_name, sichuan_game(rng, WINDS), rng.choice(BAD_TABLES)))
            elif n % 53 == 0:
                seats3 = rng.choice([["E", "S", "N"], ["S", "W", "N"], ["N", "W", "E"]])
                cases.append(
                    case(rules_name, sichuan_game(rng, [w for w in WINDS if w in seats3]), seats3)
                )
            else:
                cases.append(case(rules_name, sichuan_game(rng, seats), seats))
        return cases
    for _ in range(count):
        cases.append(case(rules_name, riichi_game(rng, RULES[rules_name])))
    return cases


# --- the checked-in corpus ---------------------------------------------------------------------

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "hands.json"
CORPUS_SEED = 35
CORPUS_RANDOM = 400  # random cases per rule set the corpus picks from
CORPUS_OVER = 1  # games played to the end (riichi) or of several hands (Sichuan) per rule set


def corpus_cases() -> list[dict]:
    """The known cases, then from CORPUS_RANDOM random cases per rule set the first refusal of
    each code and the first CORPUS_OVER whole games."""
    cases = known_cases()
    for name, rules in RULES.items():
        codes, whole = set(), 0
        for item in random_cases(name, CORPUS_RANDOM, CORPUS_SEED):
            outcome = expected(item)
            if not outcome["ok"] and outcome["error"]["code"] not in codes:
                codes.add(outcome["error"]["code"])
                cases.append(item)
            elif outcome["ok"] and whole < CORPUS_OVER:
                if outcome.get("over") or (rules.game == "sichuan" and len(outcome["hands"]) > 2):
                    whole += 1
                    cases.append(item)
    return cases


def write_corpus(path: Path = CORPUS) -> int:
    """Writes the corpus, one case a line; gives the number of cases."""
    cases = corpus_cases()
    rules = json.dumps({name: rules_json(r) for name, r in RULES.items()}, ensure_ascii=False)
    lines = [
        json.dumps({**item, "expected": expected(item)}, ensure_ascii=False, separators=(",", ":"))
        for item in cases
    ]
    path.parent.mkdir(exist_ok=True)
    path.write_text(
        '{"rules": ' + rules + ',\n"cases": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8"
    )
    return len(cases)


def read_corpus(path: Path = CORPUS) -> dict:
    """{"rules": {name: the rules as the page gets them}, "cases": [case + "expected"]}."""
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    print(f"{write_corpus()} cases written to {CORPUS}")
