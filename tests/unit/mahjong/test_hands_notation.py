"""The typed notation of a paper protocol's hands (mahjong.hands.notation): what each line reads
as, the errors naming line and column, and the round trip parse(write(h)) == h for every hand
the fixtures, docs/formats.md and the arithmetic's own unit tests play."""

import copy
import inspect
import itertools
import json

import pytest
from _pytest.mark import ParameterSet
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.hands import HandError, play, riichi, sichuan
from mahjong.hands.notation import EXAMPLES, NotationError, parse, read, write, write_all
from mahjong.presets import PRESETS
from tests.support.hands import (
    EMA_SCORES,
    README_RIICHI,
    README_SICHUAN,
    RIICHI_HANDS,
    SICHUAN_HANDS,
    SICHUAN_POINTS,
)
from tests.unit.mahjong import test_hands_riichi, test_hands_sichuan
from tests.unit.mahjong.test_hands_sichuan import valid_hands

WINDS = ("E", "S", "W", "N")
README_RIICHI_HANDS = [json.loads(line) for line in README_RIICHI.strip().splitlines()]
README_SICHUAN_HAND = json.loads(README_SICHUAN)


# --- riichi, as the brief and docs/formats.md write them -----------------------------------

RIICHI_LINES = [
    ("ron S<W 3/40 r:SN", README_RIICHI_HANDS[0]),
    ("ron E,S<N 2/30 Y", README_RIICHI_HANDS[1]),
    ("tsumo E 5 r:E", README_RIICHI_HANDS[2]),
    ("draw t:EN r:N", README_RIICHI_HANDS[3]),
    ("abort r:W", README_RIICHI_HANDS[4]),
    ("chombo N", README_RIICHI_HANDS[5]),
    ("nagashi W t:WS", README_RIICHI_HANDS[6]),
]


@pytest.mark.parametrize(("line", "hand"), RIICHI_LINES)
def test_each_riichi_result_reads_as_the_formats_readme_writes_it(line, hand):
    assert parse(line, "riichi") == [hand]
    assert write(hand) == line


@pytest.mark.parametrize(
    "line",
    [
        "RON s < w 3/40 R:S,N",
        "  ron   S<W   3 / 40   r : SN  ",
        "ron S <W 3/40 riichi:S,N",
        "Ron s<w 3/40 r:sn",
    ],
)
def test_case_and_spaces_are_free(line):
    assert parse(line, "riichi") == [README_RIICHI_HANDS[0]]


@pytest.mark.parametrize(
    ("value", "win"),
    [
        ("mangan", {"han": 5}),
        ("haneman", {"han": 6}),
        ("baiman", {"han": 8}),
        ("sanbaiman", {"han": 11}),
        ("Y", {"yakuman": 1}),
        ("yakuman", {"yakuman": 1}),
        ("YY", {"yakuman": 2}),
        ("double", {"yakuman": 2}),
        ("2y", {"yakuman": 2}),
        ("7", {"han": 7}),
        ("1/30", {"han": 1, "fu": 30}),
    ],
)
def test_values_and_limit_names(value, win):
    """docs/rules.md §5.1: mangan 5 han, haneman 6–7, baiman 8–10, sanbaiman 11–12 (riichi.LIMITS);
    the name stands for the least han of its limit, which pays the same."""
    [hand] = parse(f"tsumo S {value}", "riichi")
    assert hand == {"result": "tsumo", "wins": [{"seat": "S", **win}], "riichi": []}


def test_a_limit_name_pays_what_the_seeds_tables_give():
    """The limit names pay as the han they stand for under every preset (000 and 001 tables)."""
    for rules in (PRESETS["ema-2012"], PRESETS["furiten-club"]):
        for name, han in (("mangan", 5), ("haneman", 7), ("baiman", 10), ("sanbaiman", 12)):
            named = play(rules, parse(f"ron S<W {name}", "riichi"))
            hand = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": han}]}
            counted = play(rules, [hand | {"riichi": []}])
            assert named.scores == counted.scores


def test_the_fixture_game_typed_gives_its_scores():
    """tests/support/hands.py: the EMA game typed line by line plays to its worked-out scores."""
    text = """
        ron S<W 3/40 r:SN
        draw t:EN r:N

        tsumo E mangan r:E
        chombo N
    """
    hands = parse(text, "riichi")
    assert hands == RIICHI_HANDS
    assert list(play(PRESETS["ema-2012"], hands).scores.values()) == EMA_SCORES
    assert [line.number for line in read(text, "riichi")] == [2, 3, 5, 6]


# --- Sichuan ------------------------------------------------------------------------------------

SICHUAN_LINE = (
    "kong open S<E; kong concealed W; kong added N; kong added N hand; hu S 2<E; "
    "hu W 1,N 0<E; hu W 3 tsumo; hu S 1<N rob; hu S 1<W afterkong; false N waiting; "
    "end E:w2 W:nw N:pig S:pigp"
)


def test_the_sichuan_readme_example_reads_event_by_event():
    assert parse(SICHUAN_LINE, "sichuan") == [README_SICHUAN_HAND]
    # Written back, the states at the end come in wind order, whatever order the object kept.
    written = SICHUAN_LINE.replace("E:w2 W:nw N:pig S:pigp", "E:w2 S:pigp W:nw N:pig")
    assert write(README_SICHUAN_HAND) == written
    shuffled = dict(
        README_SICHUAN_HAND, exhausted=dict(sorted(README_SICHUAN_HAND["exhausted"].items()))
    )
    assert write(shuffled) == written


def test_sichuan_forgiving_forms():
    text = "KONG o s<e ;kong C w;  hu W 1 , N 0 < E ; false n nw ; end e:2 s : w 0 ;"
    assert parse(text, "sichuan") == [
        {
            "events": [
                {"kong": "open", "seat": "S", "from": "E"},
                {"kong": "concealed", "seat": "W"},
                {"hu": [{"seat": "W", "fans": 1}, {"seat": "N", "fans": 0}], "from": "E"},
                {"false_hu": "N", "waiting": False},
            ],
            "exhausted": {"E": {"waiting": 2}, "S": {"waiting": 0}},
        }
    ]


def test_the_fixture_session_typed_gives_its_points():
    text = "kong concealed W; hu S 2<E; hu W 1 tsumo; hu N 0<E\nend E:w1 S:nw W:pig N:w0\n"
    hands = parse(text, "sichuan")
    assert hands == SICHUAN_HANDS
    assert list(play(PRESETS["sbr-2025"], hands).scores.values()) == SICHUAN_POINTS
    assert write_all(hands) == text.strip()


# --- errors name the line and the column ----------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "text", "line", "column", "message"),
    [
        ("riichi", "ron S<W 3/40\nron S<W 3/x", 2, 11,
         "Line 2, column 11: expected a number, not “x”."),
        ("riichi", "ron S W 3/40", 1, 7,
         "Line 1, column 7: expected < and the discarder's seat, not “W”."),
        ("riichi", "tsumo X 3", 1, 7,
         "Line 1, column 7: expected a seat (E, S, W or N), not “X”."),
        ("riichi", "win S 3", 1, 1,
         "Line 1, column 1: a riichi hand begins with ron, tsumo, draw, abort, chombo or "
         "nagashi, not “win”."),
        ("riichi", "ron S<W", 1, 8,
         "Line 1, column 8: expected the hand's value (han/fu, han, mangan … sanbaiman, Y, YY), "
         "not ⏎."),
        ("riichi", "ron S<W fourteen", 1, 9,
         "Line 1, column 9: expected the hand's value (han/fu, han, mangan … sanbaiman, Y, YY), "
         "not “fourteen”."),
        ("riichi", "\n\nron S<W 3/40 r:SS", 3, 16, "Line 3, column 16: seat S is listed twice."),
        ("riichi", "ron S<W 3/40 t:S", 1, 14,
         "Line 1, column 14: only a draw or a nagashi lists tenpai seats."),
        ("riichi", "draw t:E t:S", 1, 10, "Line 1, column 10: “t” is given twice."),
        ("riichi", "draw r E", 1, 8, "Line 1, column 8: expected “:” after r."),
        ("riichi", "draw & ", 1, 6, "Line 1, column 6: the notation has no “&”."),
        ("riichi", "ron S<W 3/40 N", 1, 14,
         "Line 1, column 14: expected r: (riichi) or t: (tenpai), not “N”."),
        ("sichuan", "hu S 2<E; kong S", 1, 16,
         "Line 1, column 16: expected open, concealed or added, not “S”."),
        ("sichuan", "hu S 2<E; end E:q", 1, 17,
         "Line 1, column 17: expected w and the fans waited for, nw, pig or pigp, not “q”."),
        ("sichuan", "hu S 2<E; end E:w1; hu W 1<E", 1, 21,
         "Line 1, column 21: end comes last, after the events."),
        ("sichuan", "hu S 2<E W", 1, 10,
         "Line 1, column 10: expected <, tsumo, rob or afterkong, not “W”."),
        ("sichuan", "false N; hu S 1<E", 1, 8,
         "Line 1, column 8: say whether the false hu was waiting or nw, not ;."),
        ("sichuan", "pong S", 1, 1,
         "Line 1, column 1: an event is kong, hu, false, dead or end, not “pong”."),
        ("sichuan", "kong open S<E N", 1, 15,
         "Line 1, column 15: “N” is more than the event says."),
        ("sichuan", "end E:w1 E:nw", 1, 10, "Line 1, column 10: seat E is listed twice."),
    ],
)  # fmt: skip
def test_errors_name_the_line_and_the_column(game, text, line, column, message):
    with pytest.raises(HandError) as caught:
        parse(text, game)
    error = caught.value
    assert isinstance(error, NotationError)
    assert (error.line, error.column) == (line, column)
    assert error.message == message
    # The template is what the catalogue holds; the Django layer fills it in the reader's language.
    assert error.template.format(**error.params) == message
    assert error.params["line"] == line and error.params["column"] == column


def test_the_notation_reads_the_hand_the_arithmetic_judges():
    """A line the notation reads can still be impossible: the arithmetic names the hand."""
    hands = parse("ron S<S 3/40", "riichi")
    with pytest.raises(HandError) as caught:
        play(PRESETS["ema-2012"], hands)
    assert caught.value.path == "hands[0].wins[0].seat"


def test_an_unknown_game_is_a_programming_error():
    with pytest.raises(ValueError):
        parse("ron S<W 3/40", "mahjong")


# --- the round trip ----------------------------------------------------------------------------


def canonical(hand: dict) -> dict:
    """A hand as the notation writes it: a flag that is false is left out (the format's default),
    a riichi hand always lists its riichi (and a draw or a nagashi its tenpai) seats."""
    hand = copy.deepcopy(hand)
    if "result" in hand:
        hand.setdefault("riichi", [])
        if hand["result"] in ("draw", "nagashi"):
            hand.setdefault("tenpai", [])
        return hand
    for event in hand["events"]:
        for flag in ("from_hand", "self_draw", "robbing_kong", "after_kong"):
            if event.get(flag) is False:
                del event[flag]
        for win in event.get("hu", []):
            if win.get("pig") is False:
                del win["pig"]
    return hand


def round_trip(hand: dict):
    game = "riichi" if "result" in hand else "sichuan"
    assert parse(write(hand), game) == [canonical(hand)], write(hand)


@pytest.mark.parametrize(
    "hand", [*RIICHI_HANDS, *README_RIICHI_HANDS, *SICHUAN_HANDS, README_SICHUAN_HAND]
)
def test_round_trip_of_the_fixtures_and_the_readme(hand):
    assert canonical(hand) == hand
    assert parse(write(hand), "riichi" if "result" in hand else "sichuan") == [hand]


def _calls(function):
    """Each set of arguments pytest would call a parametrized test with."""
    marks = [m for m in getattr(function, "pytestmark", []) if m.name == "parametrize"]
    axes = []
    for mark in marks:
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for value in values:
            value = value.values if isinstance(value, ParameterSet) else value
            rows.append(dict(zip(names, value if len(names) > 1 else (value,), strict=True)))
        axes.append(rows)
    for combination in itertools.product(*axes):
        yield {k: v for part in combination for k, v in part.items()}


def _hands_played_by(module, monkeypatch) -> list[dict]:
    """Every hand the module's tests play without an error: the arithmetic is wrapped to keep a
    copy of each hand it pays, and each test (hypothesis ones aside) is run."""
    played = []
    original_riichi = riichi._play
    original_sichuan = sichuan.play_hand

    def keep_riichi(table, hand, number, path):
        kept = copy.deepcopy(hand)
        result = original_riichi(table, hand, number, path)
        played.append(kept)
        return result

    def keep_sichuan(hand, seats, dealer):
        kept = copy.deepcopy(hand)
        result = original_sichuan(hand, seats, dealer)
        played.append(kept)
        return result

    monkeypatch.setattr(riichi, "_play", keep_riichi)
    monkeypatch.setattr(sichuan, "play_hand", keep_sichuan)
    monkeypatch.setattr(test_hands_sichuan, "play_hand", keep_sichuan)
    for name, function in vars(module).items():
        if not name.startswith("test_") or hasattr(function, "hypothesis"):
            continue
        assert not set(inspect.signature(function).parameters) - {
            n for call in _calls(function) for n in call
        }, f"{name} takes a fixture"
        for call in _calls(function):
            function(**call)
    return played


@pytest.mark.parametrize("module", [test_hands_riichi, test_hands_sichuan])
def test_round_trip_of_every_hand_the_arithmetic_tests_play(module, monkeypatch):
    played = _hands_played_by(module, monkeypatch)
    assert len(played) > 50  # the tests did run
    for hand in played:
        round_trip(hand)


@settings(max_examples=300, deadline=None)
@given(valid_hands())
def test_round_trip_of_any_valid_sichuan_hand(drawn):
    _seats, hand, _out = drawn
    round_trip(hand)


seat = st.sampled_from(WINDS)
seats = st.lists(seat, unique=True, max_size=4)
value = st.one_of(
    st.fixed_dictionaries({"han": st.integers(1, 4), "fu": st.sampled_from(riichi.FU)}),
    st.fixed_dictionaries({"han": st.integers(5, 20)}),
    st.fixed_dictionaries({"yakuman": st.integers(1, 2)}),
)


@st.composite
def riichi_hands(draw):
    result = draw(st.sampled_from(riichi.RESULTS))
    hand = {"result": result}
    if result == "ron":
        hand["from"] = draw(seat)
        winners = draw(st.lists(seat, unique=True, min_size=1, max_size=3))
        hand["wins"] = [{"seat": w, **draw(value)} for w in winners]
    elif result == "tsumo":
        hand["wins"] = [{"seat": draw(seat), **draw(value)}]
    elif result in ("chombo", "nagashi"):
        hand["seat"] = draw(seat)
    if result in ("draw", "nagashi"):
        hand["tenpai"] = draw(seats)
    hand["riichi"] = draw(seats)
    return hand


@settings(max_examples=300, deadline=None)
@given(riichi_hands())
def test_round_trip_of_any_riichi_hand(hand):
    round_trip(hand)


@pytest.mark.parametrize("game", ["riichi", "sichuan"])
def test_every_example_of_the_pages_help_reads(game):
    """The desk page's help (notation.EXAMPLES) is read by the same parser: it cannot drift."""
    for lines, meaning in EXAMPLES[game]:
        assert meaning.endswith(".")
        for line in lines.split(" · "):
            [hand] = parse(line, game)
            assert parse(write(hand), game) == [hand]


def test_pao_after_the_winners_value():
    """Issue 36: `pao:W` after a winner's value is the seat responsible for that yakuman
    (wins[].pao, 000 §3.3.6, 001 §8); with several winners it follows the value it belongs to."""
    assert parse("tsumo N Y pao:E", "riichi") == [
        {"result": "tsumo", "wins": [{"seat": "N", "yakuman": 1, "pao": "E"}], "riichi": []}
    ]
    [hand] = parse("RON s,e < n y PAO:w 2/30 r:E", "riichi")
    assert hand["wins"] == [
        {"seat": "S", "yakuman": 1, "pao": "W"},
        {"seat": "E", "han": 2, "fu": 30},
    ]
    assert write(hand) == "ron S,E<N Y pao:W 2/30 r:E"
    with pytest.raises(NotationError) as caught:
        parse("tsumo N Y pao E", "riichi")
    assert caught.value.message == "Line 1, column 15: expected “:” after pao."
    with pytest.raises(NotationError) as caught:
        parse("tsumo N Y pao:X", "riichi")
    assert caught.value.message.startswith("Line 1, column 15: expected a seat")


def test_kan_from_on_a_tsumo():
    """Issue 36, 001 §2.18: `kan:N` on a tsumo is the seat that gave the open kan's tile
    (kan_from); only a tsumo has one, and one seat."""
    [hand] = parse("tsumo S 3/40 kan:N r:S", "riichi")
    assert hand == {
        "result": "tsumo",
        "wins": [{"seat": "S", "han": 3, "fu": 40}],
        "kan_from": "N",
        "riichi": ["S"],
    }
    assert write(hand) == "tsumo S 3/40 kan:N r:S"
    assert write(parse("TSUMO s y Pao:N KAN:n", "riichi")[0]) == "tsumo S Y pao:N kan:N"
    for line, message in (
        ("ron S<W 3/40 kan:N", "Line 1, column 14: only a tsumo names who gave the kan tile."),
        ("tsumo S 3/40 kan:NE", "Line 1, column 18: expected a seat (E, S, W or N), not “NE”."),
        ("tsumo S 3/40 kan:N kan:E", "Line 1, column 20: “kan” is given twice."),
    ):
        with pytest.raises(NotationError) as caught:
            parse(line, "riichi")
        assert caught.value.message == message


def test_a_dead_hand_is_typed_dead_and_the_seat():
    """002 §2.8.3, the formats README's `{"dead": "N"}`: `dead N`, anywhere among the events."""
    text = "kong concealed N; DEAD n; hu S 1<E; end E:w1 W:nw N:nw"
    hand = {
        "events": [
            {"kong": "concealed", "seat": "N"},
            {"dead": "N"},
            {"hu": [{"seat": "S", "fans": 1}], "from": "E"},
        ],
        "exhausted": {"E": {"waiting": 1}, "W": "not_waiting", "N": "not_waiting"},
    }
    assert parse(text, "sichuan") == [hand]
    assert write(hand) == "kong concealed N; dead N; hu S 1<E; end E:w1 W:nw N:nw"
    with pytest.raises(HandError) as caught:
        parse("dead", "sichuan")
    assert caught.value.message.startswith("Line 1, column 5: expected a seat")


def test_a_false_hu_on_a_kong_is_typed_as_a_hu_on_a_kong():
    """002 §2.8.4 (3), the formats README's `false_hu` with `from` and `after_kong` or
    `robbing_kong`: the same `<W`, `afterkong` and `rob` as a hu's, after waiting or nw."""
    text = "kong concealed W; false S waiting<W afterkong; kong added N; false E NW < n rob"
    events = [
        {"kong": "concealed", "seat": "W"},
        {"false_hu": "S", "from": "W", "after_kong": True, "waiting": True},
        {"kong": "added", "seat": "N"},
        {"false_hu": "E", "from": "N", "robbing_kong": True, "waiting": False},
    ]
    assert parse(text, "sichuan") == [{"events": events}]
    assert write({"events": events}) == (
        "kong concealed W; false S waiting<W afterkong; kong added N; false E nw<N rob"
    )
    with pytest.raises(HandError) as caught:
        parse("false S waiting<W tsumo", "sichuan")
    assert caught.value.message == ("Line 1, column 19: expected <, rob or afterkong, not “tsumo”.")


def test_a_pig_on_a_winning_hand_is_typed_after_its_fans():
    """002 §2.5.8 (3), the formats README's `hu[].pig: true`: `pig` after the winner's fans."""
    text = "hu S 2 PIG, w 0<E; hu N 1 pig tsumo"
    hand = {
        "events": [
            {"hu": [{"seat": "S", "fans": 2, "pig": True}, {"seat": "W", "fans": 0}], "from": "E"},
            {"hu": [{"seat": "N", "fans": 1, "pig": True}], "self_draw": True},
        ]
    }
    assert parse(text, "sichuan") == [hand]
    assert write(hand) == "hu S 2 pig,W 0<E; hu N 1 pig tsumo"
