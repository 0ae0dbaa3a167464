"""The hand arithmetic as the table page's browser copy speaks it (static/sheet/score.js).

The page previews each hand before it is saved, offline too, with a JavaScript port of riichi.py
and sichuan.py; the server stays authoritative and plays every hand again here. These functions
give the JSON that `SheetScore` gives, so a test can hold the two copies to the same numbers and
the same refusals (code and params) field by field (tests/unit/mahjong/test_hand_corpus.py, on the
checked-in corpus tests/corpus/hands.json and on thousands of seeded games), and the page gets
its rules from `rules_json`.
"""

from mahjong.hands import riichi, sichuan
from mahjong.hands.errors import HandError, Shown
from mahjong.hands.messages import CODES
from mahjong.rulesets import RuleSet

# The RuleSet fields the arithmetic reads (riichi.py; Sichuan reads only `game`).
RULE_FIELDS = (
    "key",
    "game",
    "start_points",
    "ron_20_fu",
    "hand_cells",
    "double_yakuman",
    "sticks_at_end",
    "nagashi_noten",
    "counters_on_pass",
    "end_below_zero",
    "ron_winners",
    "triple_ron",
    "nagashi",
    "pao_hands",
    "open_kan_rinshan",
)


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def rules_json(rules: RuleSet) -> dict:
    """The rule set's fields the arithmetic reads, JSON-ready (tuples as lists)."""
    return {name: _plain(getattr(rules, name)) for name in RULE_FIELDS}


def error_json(error: HandError) -> dict:
    """A refusal: where, its code (the page has the code's translation) and its params as
    JSON values; `kinds` says how the page writes a param that is no plain number or text: a
    word of the catalogue by its code ("word"), a refused value as the message shows it
    ("repr" or "json", errors.Shown)."""
    params, kinds = {}, {}
    for name, value in error.params.items():
        if isinstance(value, Shown):
            params[name], kinds[name] = value.value, value.style
        elif getattr(value, "translatable", False):
            params[name], kinds[name] = CODES[value], "word"
        else:
            params[name] = value
    return {
        "ok": False,
        "error": {"path": error.path, "code": error.code, "params": params, "kinds": kinds},
    }


def _riichi_hand(hand: riichi.Hand) -> dict:
    return {
        "number": hand.number,
        "round_wind": hand.round_wind,
        "dealer": hand.dealer,
        "counters": hand.counters,
        "sticks": hand.sticks,
        "deltas": dict(hand.deltas),
        "scores": dict(hand.scores),
        "payments": [
            {"payer": p.payer, "payee": p.payee, "amount": p.amount, "why": p.why}
            for p in hand.payments
        ],
        "winners": list(hand.winners),
    }


def sichuan_hand_json(hand: sichuan.HandResult) -> dict:
    """One Sichuan hand's points and payments (without the game's running totals)."""
    return {
        "dealer": hand.dealer,
        "points": dict(hand.points),
        "payments": [
            {
                "payer": p.payer,
                "payee": p.payee,
                "amount": p.amount,
                "why": p.why,
                "event": p.event,
                "kong": p.kong,
            }
            for p in hand.payments
        ],
        "hu": list(hand.hu),
        "next_dealer": hand.next_dealer,
        "exhausted": hand.exhausted,
    }


def game_json(game, chombo: dict | None = None) -> dict:
    """A riichi.Game (with the chombo per seat) or a sichuan.GameResult as the page sees it."""
    if isinstance(game, sichuan.GameResult):
        return {
            "ok": True,
            "game": "sichuan",
            "scores": dict(game.points),
            "next_dealer": game.next_dealer,
            "hands": [
                sichuan_hand_json(hand) | {"totals": dict(totals)}
                for hand, totals in zip(game.hands, game.totals, strict=True)
            ],
        }
    return {
        "ok": True,
        "game": "riichi",
        "scores": dict(game.scores),
        "chombo": dict(chombo or {}),
        "over": game.over,
        "dealer": game.dealer,
        "round_wind": game.round_wind,
        "counters": game.counters,
        "sticks_left": game.sticks_left,
        "hands": [_riichi_hand(hand) for hand in game.hands],
    }
