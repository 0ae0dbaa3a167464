"""Hands as the tournament file carries them (docs/formats.md, "Hands (optional)"): a riichi
game and a Sichuan session with their scores worked out by hand from docs/rules.md §5, the README's
own examples, and a small file with one table of hands (`hands_file`)."""

import copy

# An EMA 2012 game, each hand checked against docs/rules.md §5.1:
# 1. E deals. S wins 3 han 40 fu on W's discard: 5,200 from W; S and N put riichi sticks down
#    and S, the winner, takes both: S +6,200, W −5,200, N −1,000.
# 2. S deals. Drawn, E and N tenpai, N declares riichi: S and W pay 750 to each tenpai player
#    (3,000 in all); N's stick stays on the table. S is noten: W deals, one counter.
# 3. W deals. E self-draws a mangan after riichi: the dealer W pays 4,000, S and N 2,000, each
#    100 for the counter; E takes the two sticks: E +9,300, W −4,100, S and N −2,100.
# 4. N deals and makes a chombo: 4,000 to each (the dealer pays like a mangan).
RIICHI_HANDS = [
    {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 3, "fu": 40}],
     "riichi": ["S", "N"]},
    {"result": "draw", "tenpai": ["E", "N"], "riichi": ["N"]},
    {"result": "tsumo", "wins": [{"seat": "E", "han": 5}], "riichi": ["E"]},
    {"result": "chombo", "seat": "N", "riichi": []},
]  # fmt: skip
EMA_SCORES = [44800, 36600, 23200, 15400]

# A Sichuan session at one table (docs/rules.md §5.2):
# 1. W makes a concealed kong (2 from each: W +6). S wins 2 fans on E's discard (4 from E). W
#    self-draws 1 fan (2 + 1 from each player not yet hu: E and N). N wins 0 fans on E's discard
#    (1 from E). E −10, S +2, W +12, N −4. S declared hu first: S deals next.
# 2. The wall runs out: E waits on 1 fan, N on 0; S is not waiting and W is an active pig. S and
#    W each pay E 2 and N 1; W pays the pig's 48, 16 to each: E +20, S +13, W −51, N +18.
SICHUAN_HANDS = [
    {"events": [
        {"kong": "concealed", "seat": "W"},
        {"hu": [{"seat": "S", "fans": 2}], "from": "E"},
        {"hu": [{"seat": "W", "fans": 1}], "self_draw": True},
        {"hu": [{"seat": "N", "fans": 0}], "from": "E"},
    ]},
    {"events": [], "exhausted": {"E": {"waiting": 1}, "S": "not_waiting", "W": "pig",
                                 "N": {"waiting": 0}}},
]  # fmt: skip
SICHUAN_POINTS = [10, 15, -39, 14]

# The riichi hands of docs/formats.md, "Hands (optional)", in its order.
README_RIICHI = """
{"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 3, "fu": 40}], "riichi": ["S", "N"]}
{"result": "ron", "from": "N", "wins": [{"seat": "E", "han": 2, "fu": 30}, {"seat": "S", "yakuman": 1}], "riichi": []}
{"result": "tsumo", "wins": [{"seat": "E", "han": 5}], "riichi": ["E"]}
{"result": "draw", "tenpai": ["E", "N"], "riichi": ["N"]}
{"result": "abortive", "riichi": ["W"]}
{"result": "chombo", "seat": "N", "riichi": []}
{"result": "nagashi", "seat": "W", "tenpai": ["W", "S"], "riichi": []}
"""  # noqa: E501
README_SICHUAN = """
{"events": [
   {"kong": "open", "seat": "S", "from": "E"},
   {"kong": "concealed", "seat": "W"},
   {"kong": "added", "seat": "N"},
   {"kong": "added", "seat": "N", "from_hand": true},
   {"hu": [{"seat": "S", "fans": 2}], "from": "E"},
   {"hu": [{"seat": "W", "fans": 1}, {"seat": "N", "fans": 0}], "from": "E"},
   {"hu": [{"seat": "W", "fans": 3}], "self_draw": true},
   {"hu": [{"seat": "S", "fans": 1}], "from": "N", "robbing_kong": true},
   {"hu": [{"seat": "S", "fans": 1}], "from": "W", "after_kong": true},
   {"false_hu": "N", "waiting": true}
 ],
 "exhausted": {"E": {"waiting": 2}, "W": "not_waiting", "N": "pig", "S": "pig_passive"}}
"""


def hands_file(ruleset="ema-2012", hands=RIICHI_HANDS, scores=None, chombo=None, players=4):
    """One session, table 1 with the hands; table 2 without them, played (riichi only)."""
    keys = [f"p{n}" for n in range(1, 9)]
    seats = []
    for j, wind in enumerate("ESWN"[:players]):
        seat = {"wind": wind, "player": keys[j]}
        if scores is not None:
            seat["score"] = scores[j]
        if chombo is not None:
            seat["chombo"] = chombo[j]
        seats.append(seat)
    tables = [{"number": 1, "seats": seats, "hands": copy.deepcopy(hands)}]
    if ruleset != "sbr-2025":
        tables.append(
            {
                "number": 2,
                "seats": [
                    {"wind": w, "player": k, "score": s}
                    for w, k, s in zip("ESWN", keys[4:], [40000, 30000, 30000, 20000], strict=True)
                ],
            }
        )
    return {
        "format": "mahjong-tournament",
        "version": 1,
        "tournament": {"name": "Hands Open", "slug": "hands", "ruleset": ruleset},
        "players": [{"key": k, "name": f"Player {k}"} for k in keys],
        "sessions": [{"number": 1, "tables": tables}],
    }
