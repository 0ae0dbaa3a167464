"""Riichi hands (docs/rules.md §5.1): what each hand pays, and the game the hands make.

Input is the tournament file's hand objects (docs/formats.md, "Hands"): one dict per
hand, `result` first. Seats are the winds held for the whole game (E, S, W, N), the first dealer
is E. `play_game` runs the hands in order and keeps the dealer, the round wind, the counters and
the riichi sticks on the table; every impossible hand raises HandError naming where.

Where the seeds leave a point open, the rule set decides (mahjong.rulesets, each field quoting the
seed; docs/rules.md §5.1 lists the readings):
- `sticks_at_end`: sticks still on the table when the game ends. EMA 000 §3.6: "all riichi bets
  left on the table go to the winner"; with first place shared the desk splits them as 000 §3.6.1
  splits the uma ("points for the places are divided between the tied players"), in hundreds,
  a remainder to the tied player first in seat order from the first East. Furiten 001 §3.11:
  "the riichi deposit stays on the table", so the scores sum to less.
- `nagashi_noten`: whether noten payments are made too in a nagashi hand (000 §4.2.4 is silent;
  the desk pays only the nagashi by default: "paid as a mangan by self-draw plus the counters
  and the riichi bets").
- `counters_on_pass`: after a drawn hand in which the dealership passes — EMA keeps adding the
  counter (000 §3.4.9); Furiten 001 §5.3 "the dealer puts the counter down and gets it back when
  the dealership passes" reads as: the counters go back, none stays.
- `ron_winners`, `triple_ron`: EMA pays every winner on one discard (000 §4.1); Furiten has one,
  the first in turn after the discarder (001 §10.4), and three claiming it is a redeal (§5.5).
- `nagashi`: Furiten's list of hands (001, appendix В) has no nagashi mangan.
- `pao_hands` (a win's `pao`, 000 §3.3.6, 001 §8): a self-draw is paid by the responsible seat
  alone, a ron half by it and half by the discarder, who alone pays the counters (001 §8.1).
  The desk's reading where the seeds are silent: on a self-draw the responsible seat pays the
  counters too, what the three would pay (300 a counter).
- `open_kan_rinshan` (a tsumo's `kan_from`, Furiten 001 §2.18): the seat that gave the open
  kan's tile pays the win on its replacement tile as a ron on its discard.
"""

import math
from dataclasses import dataclass

from mahjong.hands import messages
from mahjong.hands.errors import HandError, Shown
from mahjong.rulesets import RuleSet
from mahjong.table import STICK

WINDS = ("E", "S", "W", "N")
RESULTS = ("ron", "tsumo", "draw", "abortive", "chombo", "nagashi")
KEYS = {
    "ron": {"result", "from", "wins", "riichi"},
    "tsumo": {"result", "wins", "riichi", "kan_from"},
    "draw": {"result", "tenpai", "riichi"},
    "abortive": {"result", "riichi"},
    "chombo": {"result", "seat", "riichi"},
    "nagashi": {"result", "seat", "tenpai", "riichi"},
}
FU = (20, 25, *range(30, 120, 10))
# Limit hands by han (docs/rules.md §5.1): mangan 5, haneman 6–7, baiman 8–10, sanbaiman 11–12.
LIMITS = ((13, 8000), (11, 6000), (8, 4000), (6, 3000), (5, 2000))
# The most han a win may name: the table's last row is "13 and more" (a counted yakuman, paid
# as the 13th), so any count above pays the same; this bound only keeps a sheet's numbers
# what a table can count (as sichuan.FANS_MAX does for fans), not 10^20 stored digit for digit.
HAN_MAX = 99
MANGAN = 2000
YAKUMAN = 8000


@dataclass(frozen=True)
class Payment:
    """One payment of a hand; `payer` or `payee` None is the table (riichi sticks)."""

    payer: str | None
    payee: str | None
    amount: int
    why: str  # ron, tsumo, counters, riichi, sticks, noten, chombo, nagashi


@dataclass(frozen=True)
class Hand:
    """One hand as played: the state it was played in and what it paid."""

    number: int  # 1, 2, … in the game
    round_wind: str  # E or S
    dealer: str
    counters: int  # on the table during the hand
    sticks: int  # riichi sticks on the table before the hand
    payments: tuple[Payment, ...]
    deltas: dict  # seat → change of score (sticks put down and taken included)
    scores: dict  # seat → score after the hand
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    hands: tuple[Hand, ...]
    scores: dict  # seat → final score, the sticks left at the end given as the rule set says
    sticks_left: int  # riichi sticks still on the table when the sheet ended (before giving)
    over: bool  # the game is over (end of South, or Furiten's score below zero)
    dealer: str  # the next hand's dealer, if there is one
    counters: int
    round_wind: str


def _up(value: float) -> int:
    """Rounded up to the next 100 (docs/rules.md §5.1: every payment separately)."""
    return int(math.ceil(value / 100) * 100)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _empty(rules: RuleSet, han: int, fu: int, tsumo: bool) -> bool:
    """The seeds' tables leave the cell of `han` (1–4) and `fu` empty: no such hand wins."""
    return (
        (fu == 20 and not tsumo and not rules.ron_20_fu)
        or (fu == 20 and tsumo and han < 2)
        or (fu == 25 and not tsumo and han < 2)
        or (fu == 25 and tsumo and han < 3)
    )


def allowed_cells(rules: RuleSet) -> dict:
    """What a win may name under `rules`, as base_points decides, for the sheet to offer only
    that: the fu of each han up to 4 on a discard and by self-draw, the limit hands (least
    han, base points) and the yakuman counts."""
    most = 2 if rules.double_yakuman else 1
    return {
        way: [
            {"han": han, "fu": [fu for fu in FU if not _empty(rules, han, fu, tsumo)]}
            for han in range(1, 5)
        ]
        for way, tsumo in (("ron", False), ("tsumo", True))
    } | {
        "limits": [{"han": least, "base": points} for least, points in reversed(LIMITS)],
        "yakuman": list(range(1, most + 1)),
    }


def base_points(rules: RuleSet, win: dict, tsumo: bool, path: str) -> int:
    """A win's base points from its han and fu, or its yakuman count; HandError for a cell the
    seeds' tables leave empty (docs/rules.md §5.1)."""
    unknown = set(win) - {"seat", "han", "fu", "yakuman", "pao"}
    if unknown:
        raise HandError(path, messages.UNKNOWN_WIN_KEY, key=sorted(unknown)[0])
    if "yakuman" in win:
        count = win["yakuman"]
        if "han" in win or "fu" in win:
            raise HandError(path, messages.YAKUMAN_NO_HAN_FU)
        most = 2 if rules.double_yakuman else 1
        if not _whole(count) or not 1 <= count <= most:
            raise HandError(
                f"{path}.yakuman",
                messages.YAKUMAN_COUNT,
                most=most,
            )
        return YAKUMAN * count
    han = win.get("han")
    if not _whole(han) or not 1 <= han <= HAN_MAX:
        raise HandError(f"{path}.han", messages.HAN_WHOLE, most=HAN_MAX)
    if han >= 5:
        return next(points for least, points in LIMITS if han >= least)
    fu = win.get("fu")
    if fu is None:
        raise HandError(f"{path}.fu", messages.FU_NEEDED)
    if not _whole(fu) or fu not in FU:
        raise HandError(f"{path}.fu", messages.FU_VALUES, fu=fu)
    if _empty(rules, han, fu, tsumo):
        how = messages.BY_SELF_DRAW if tsumo else messages.ON_A_DISCARD
        raise HandError(
            f"{path}.fu",
            messages.EMPTY_CELL,
            han=han,
            fu=fu,
            how=how,
        )
    for cell_han, cell_fu, base in rules.hand_cells:
        if (cell_han, cell_fu) == (han, fu):
            return base
    return min(fu * 2 ** (han + 2), MANGAN)


def _seat(value, path, seats, template=messages.NOT_A_SEAT):
    if value not in seats:
        raise HandError(path, template, value=Shown(value, "repr"), seats=", ".join(seats))
    return value


def _seat_list(hand, key, path, seats) -> list:
    value = hand.get(key, [])
    if not isinstance(value, list):
        raise HandError(f"{path}.{key}", messages.SEAT_LIST)
    for i, seat in enumerate(value):
        _seat(seat, f"{path}.{key}[{i}]", seats)
    if len(set(value)) != len(value):
        raise HandError(f"{path}.{key}", messages.SEAT_TWICE)
    return value


def _after(discarder: str) -> list[str]:
    """The other seats in turn order after `discarder`."""
    start = WINDS.index(discarder)
    return [WINDS[(start + k) % 4] for k in range(1, 4)]


def _one_discard(rules: RuleSet, winners: list, discarder: str, path: str):
    """Several winners on one discard, as the rule set allows them (docs/rules.md §5.1):
    Furiten 001 §5.5, three is a redeal; 001 §10.4, one winner, the first in turn."""
    if len(winners) == 3 and rules.triple_ron == "redeal":
        raise HandError(path, messages.TRIPLE_RON_REDEAL)
    if len(winners) > 1 and rules.ron_winners == "one":
        first = next(s for s in _after(discarder) if s in winners)
        raise HandError(path, messages.ONE_WINNER, seat=first)


def _pao(rules: RuleSet, win: dict, seat: str, path: str) -> str | None:
    """The seat responsible for the win's yakuman (wins[].pao), or None (000 §3.3.6, 001 §8)."""
    if "pao" not in win:
        return None
    if rules.pao_hands == "none":
        raise HandError(f"{path}.pao", messages.NO_PAO)
    if "yakuman" not in win:
        raise HandError(f"{path}.pao", messages.PAO_NOT_YAKUMAN)
    pao = _seat(win["pao"], f"{path}.pao", WINDS)
    if pao == seat:
        raise HandError(f"{path}.pao", messages.PAO_WINNER)
    return pao


def _kan_from(rules: RuleSet, hand: dict, path: str) -> str:
    """The seat that gave the tile of the open kan whose replacement tile won (Furiten 001
    §2.18: it pays the win as if it were a ron on its discard)."""
    if rules.open_kan_rinshan != "kan_giver":
        raise HandError(f"{path}.kan_from", messages.NO_KAN_FROM)
    return _seat(hand["kan_from"], f"{path}.kan_from", WINDS)


def _ron(base, seat, dealer, payer, pao, counters, why="ron") -> list[Payment]:
    """A win on `payer`'s tile (`why` "kan_from": the replacement tile of `payer`'s open kan,
    001 §2.18): 4 × base (6 × for the dealer) and 300 a counter. With a responsible player
    other than the payer, the two pay half the hand each and the payer alone the counters
    (000 §3.3.6; 001 §8.1 "only the discarder pays the honba")."""
    amount = _up(base * (6 if seat == dealer else 4))
    if pao and pao != payer:
        payments = [
            Payment(payer, seat, amount // 2, why),
            Payment(pao, seat, amount // 2, "pao"),
        ]
    else:
        payments = [Payment(payer, seat, amount, why)]
    if counters:
        payments.append(Payment(payer, seat, 300 * counters, "counters"))
    return payments


def _pao_tsumo(base, seat, dealer, pao, counters) -> list[Payment]:
    """A self-drawn yakuman with a responsible player, who pays all of it (000 §3.3.6, 001
    §8.1): what the three would pay, counters included (the desk's reading: 300 a counter)."""
    payments = [Payment(pao, seat, base * (6 if seat == dealer else 4), "pao")]
    if counters:
        payments.append(Payment(pao, seat, 300 * counters, "counters"))
    return payments


class _Table:
    """The state between hands."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.scores = dict.fromkeys(WINDS, rules.start_points)
        self.dealer = 0  # index into WINDS
        self.passes = 0  # how often the dealership has passed: 8 ends South
        self.counters = 0
        self.sticks = 0
        self.over = False

    @property
    def round_wind(self) -> str:
        return "E" if self.passes < 4 else "S"

    def pass_dealer(self):
        self.dealer = (self.dealer + 1) % 4
        self.passes += 1


def _noten_payments(tenpai, seats) -> list[Payment]:
    """docs/rules.md §5.1, 000 §3.4.2: 3,000 in all from the noten to the tenpai players."""
    noten = [s for s in seats if s not in tenpai]
    if not tenpai or not noten:
        return []
    each = 3000 // (len(tenpai) * len(noten))
    return [Payment(n, t, each, "noten") for n in noten for t in tenpai]


def _play(table: _Table, hand: dict, number: int, path: str) -> Hand:
    rules = table.rules
    if not isinstance(hand, dict):
        raise HandError(path, messages.RIICHI_HAND_OBJECT)
    result = hand.get("result")
    if result not in RESULTS:
        raise HandError(
            f"{path}.result",
            messages.NOT_A_RESULT,
            value=Shown(result, "repr"),
            results=", ".join(RESULTS),
        )
    unknown = set(hand) - KEYS[result]
    if unknown:
        raise HandError(
            path,
            messages.UNKNOWN_HAND_KEY,
            key=sorted(unknown)[0],
            result=result,
        )
    if table.over:
        raise HandError(path, messages.GAME_OVER)
    dealer = WINDS[table.dealer]
    riichi = _seat_list(hand, "riichi", path, WINDS)
    sticks_before, counters = table.sticks, table.counters
    payments = [Payment(s, None, STICK, "riichi") for s in riichi]
    sticks = table.sticks + len(riichi)
    winners: tuple = ()
    dealer_stays, counter_kept = False, True

    if result in ("ron", "tsumo"):
        wins = hand.get("wins")
        if not isinstance(wins, list) or not wins:
            raise HandError(f"{path}.wins", messages.WIN_NEEDS_WINNER)
        if result == "tsumo" and len(wins) > 1:
            raise HandError(f"{path}.wins", messages.ONE_SELF_DRAW)
        discarder = giver = None
        if "kan_from" in hand:
            giver = _kan_from(rules, hand, path)
        if result == "ron":
            discarder = _seat(
                hand.get("from"),
                f"{path}.from",
                WINDS,
                messages.NOT_A_DISCARDER,
            )
        seen = []
        for i, win in enumerate(wins):
            wpath = f"{path}.wins[{i}]"
            if not isinstance(win, dict):
                raise HandError(wpath, messages.WIN_OBJECT)
            seat = _seat(win.get("seat"), f"{wpath}.seat", WINDS)
            if seat == discarder:
                raise HandError(f"{wpath}.seat", messages.OWN_TILE)
            if seat in seen:
                raise HandError(f"{wpath}.seat", messages.WINS_ONCE)
            seen.append(seat)
            if giver == seat:
                raise HandError(f"{path}.kan_from", messages.KAN_FROM_WINNER)
            base = base_points(rules, win, result == "tsumo", wpath)
            pao = _pao(rules, win, seat, wpath)
            if result == "ron":
                payments += _ron(base, seat, dealer, discarder, pao, counters)
            elif giver:
                payments += _ron(base, seat, dealer, giver, pao, counters, "kan_from")
            elif pao:
                payments += _pao_tsumo(base, seat, dealer, pao, counters)
            else:
                for payer in WINDS:
                    if payer == seat:
                        continue
                    double = seat == dealer or payer == dealer
                    payments.append(Payment(payer, seat, _up(base * (2 if double else 1)), "tsumo"))
                    if counters:
                        payments.append(Payment(payer, seat, 100 * counters, "counters"))
        if result == "ron":
            _one_discard(rules, seen, discarder, f"{path}.wins")
        # Sticks (000 §3.4.4, §4.1): each winner takes back their own stick of this hand; the
        # rest go to the first winner in turn order after the discarder.
        if result == "ron":
            first = next(s for s in _after(discarder) if s in seen)
        else:
            first = seen[0]
        own = [s for s in seen if s in riichi and s != first]
        for s in own:
            payments.append(Payment(None, s, STICK, "sticks"))
        rest = sticks - len(own)
        if rest:
            payments.append(Payment(None, first, STICK * rest, "sticks"))
        sticks = 0
        winners = tuple(seen)
        dealer_stays = dealer in seen
        counter_kept = dealer_stays
    elif result in ("draw", "nagashi"):
        if result == "nagashi" and not rules.nagashi:
            raise HandError(f"{path}.result", messages.NO_NAGASHI)
        tenpai = _seat_list(hand, "tenpai", path, WINDS)
        for seat in riichi:
            if seat not in tenpai:
                raise HandError(
                    f"{path}.tenpai",
                    messages.RIICHI_NOT_TENPAI,
                    seat=seat,
                )
        if result == "draw" or rules.nagashi_noten:
            payments += _noten_payments(tenpai, WINDS)
        if result == "nagashi":
            seat = _seat(hand.get("seat"), f"{path}.seat", WINDS)
            for payer in WINDS:
                if payer == seat:
                    continue
                double = seat == dealer or payer == dealer
                payments.append(Payment(payer, seat, MANGAN * (2 if double else 1), "nagashi"))
                if counters:
                    payments.append(Payment(payer, seat, 100 * counters, "counters"))
            if sticks:
                payments.append(Payment(None, seat, STICK * sticks, "sticks"))
            sticks = 0
            winners = (seat,)
        dealer_stays = dealer in tenpai
    elif result == "abortive":
        dealer_stays = True
    else:  # chombo: paid like a mangan; the hand is replayed (000 §3.4.6, 001 §7.2)
        seat = _seat(hand.get("seat"), f"{path}.seat", WINDS)
        for other in WINDS:
            if other != seat:
                double = seat == dealer or other == dealer
                payments.append(Payment(seat, other, MANGAN * (2 if double else 1), "chombo"))
        payments += [Payment(None, s, STICK, "riichi back") for s in riichi]
        sticks = table.sticks

    deltas = dict.fromkeys(WINDS, 0)
    for p in payments:
        if p.payer:
            deltas[p.payer] -= p.amount
        if p.payee:
            deltas[p.payee] += p.amount
    for seat in WINDS:
        table.scores[seat] += deltas[seat]
    played = Hand(
        number=number,
        round_wind=table.round_wind,
        dealer=dealer,
        counters=counters,
        sticks=sticks_before,
        payments=tuple(payments),
        deltas=deltas,
        scores=dict(table.scores),
        winners=winners,
    )
    table.sticks = sticks
    if result != "chombo":
        passes = not dealer_stays
        if result in ("ron", "tsumo"):
            table.counters = counters + 1 if counter_kept else 0
        elif passes and rules.counters_on_pass == "return":
            table.counters = 0
        else:
            table.counters = counters + 1
        if passes:
            table.pass_dealer()
    if table.passes >= 8 or (rules.end_below_zero and min(table.scores.values()) < 0):
        table.over = True
    return played


def sticks_at_end(rules: RuleSet, scores: dict, sticks: int) -> dict:
    """The final scores once the sticks left on the table are given as the rule set says."""
    final = dict(scores)
    if not sticks or rules.sticks_at_end == "table":
        return final
    best = max(final.values())
    tied = [s for s in WINDS if final[s] == best]
    hundreds, extra = divmod(sticks * STICK // 100, len(tied))
    for i, seat in enumerate(tied):
        final[seat] += 100 * (hundreds + (1 if i < extra else 0))
    return final


def play_game(rules: RuleSet, hands: list) -> Game:
    """The game the hands make, hand by hand; HandError names the first impossible hand."""
    if rules.game != "riichi":
        raise HandError("hands", messages.NOT_RIICHI_RULES)
    table = _Table(rules)
    played = []
    for i, hand in enumerate(hands):
        played.append(_play(table, hand, i + 1, f"hands[{i}]"))
    return Game(
        hands=tuple(played),
        scores=sticks_at_end(rules, table.scores, table.sticks),
        sticks_left=table.sticks,
        over=table.over,
        dealer=WINDS[table.dealer],
        counters=table.counters,
        round_wind=table.round_wind,
    )
