"""Hand by hand: the score sheet's arithmetic (docs/rules.md §5), plain Python like the rules.

`play(rules, hands, winds)` is the one door: it picks the game's module by `rules.game`
(riichi.py or sichuan.py) and gives what a table's hands make, final per wind; every impossible
hand raises the one HandError (errors.py) naming where ("hands[3].wins[0].fu").
`in_file_order(hand)` writes a hand's keys in the order of the tournament file's examples
(docs/formats.md, "Hands"), whatever order a database kept them in.
"""

from collections import Counter
from dataclasses import dataclass

from mahjong.hands import riichi, sichuan
from mahjong.hands.browser import error_json, game_json, rules_json
from mahjong.hands.errors import HandError
from mahjong.rulesets import RuleSet

__all__ = ["HandError", "Outcome", "in_file_order", "play", "preview", "rules_json"]

# Every key of both games' hands, in the order the format's examples write them; the seats'
# winds (Sichuan's `exhausted`) in wind order.
KEY_ORDER = (
    "result",
    "events",
    "kong",
    "hu",
    "false_hu",
    "dead",
    "seat",
    "from",
    "kan_from",
    "wins",
    "tenpai",
    "riichi",
    "han",
    "fu",
    "yakuman",
    "pao",
    "fans",
    "pig",
    "from_hand",
    "self_draw",
    "robbing_kong",
    "after_kong",
    "waiting",
    "exhausted",
    *riichi.WINDS,
)
_RANK = {key: i for i, key in enumerate(KEY_ORDER)}


@dataclass(frozen=True)
class Outcome:
    """What a table's hands give."""

    scores: dict  # wind → the seat's result: riichi final points, Sichuan game points
    chombo: dict | None  # wind → chombo hands the seat caused (riichi); None: Sichuan has none
    game: object  # the game hand by hand: riichi.Game or sichuan.GameResult


def play(rules: RuleSet, hands: list, winds=riichi.WINDS) -> Outcome:
    """The table's hands in order under `rules`; `winds` are the seats the table has (a
    three-player Sichuan table has no N; a riichi table always has four). The first dealer is
    E. HandError names the first impossible hand."""
    if rules.game == "sichuan":
        game = sichuan.play_game(hands, tuple(winds))
        return Outcome(dict(game.points), None, game)
    game = riichi.play_game(rules, hands)
    chombo = Counter(hand["seat"] for hand in hands if hand["result"] == "chombo")
    return Outcome(dict(game.scores), {wind: chombo[wind] for wind in riichi.WINDS}, game)


def in_file_order(value):
    """A hand (or any part of one) with its keys in the format's order; a copy."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: _RANK.get(key, len(_RANK)))
        return {key: in_file_order(value[key]) for key in keys}
    if isinstance(value, list):
        return [in_file_order(item) for item in value]
    return value


# --- the browser's copy (static/sheet/score.js, mahjong/hands/browser.py) ---------------------


def preview(rules: RuleSet, hands: list, winds=riichi.WINDS) -> dict:
    """What the page's SheetScore.play(rules_json(rules), hands, winds) gives for the same
    hands, from this arithmetic: the game as JSON, or the first refusal as JSON."""
    try:
        outcome = play(rules, hands, winds)
    except HandError as error:
        return error_json(error)
    return game_json(outcome.game, outcome.chombo)
