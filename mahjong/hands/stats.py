"""Statistics from hands: per player and for the tournament (issue 24), plain Python.

In: one `TableGame` per table that recorded hands — its session and number, the seats' winds →
player keys, the hand objects as recorded and the game `mahjong.hands.play` made of them
(`Outcome.game`). Out: `statistics(game, tables)` — per player key a `RiichiStats` or a
`SichuanStats`, and the highlights (largest hand, most wins); `hand_lines(game, tables)` — one
`HandLine` per hand for the workbook. A substitute who joined during play is the seat's player
for every hand of that seat: the sheet does not say who sat in which hand.

What counts (docs/rules.md §5), where a reader could count otherwise:

Riichi
- Every hand on the sheet is a hand played, an abortive draw and a chombo hand included, and
  every declaration in it a riichi declared (a chombo hand's sticks go back, but they were put
  down).
- A win is a ron or a tsumo; a nagashi mangan is paid like a tsumo but is not a won hand
  (000 §4.2.4: it is scored "after an exhaustive draw"), so it counts as no win.
- A deal-in is a ron on the player's discard: a discard that two players win on is one deal-in.
- A win's value is what the hand itself is worth: the ron payment, or the tsumo payments summed
  (docs/rules.md §5.1 "Ron: the discarder pays the winner 4 × base (6 × base if the winner is the
  dealer)"). Counters (honba) and riichi sticks are left out: they belong to the table, not to
  the hand. The average win is the mean of these values; the largest hand is the largest value
  (a dealer's mangan, 12,000, beats a non-dealer's, 8,000).
- Riichi won: a declaration in a hand the player won. Tsumo share: tsumo wins / wins.

Sichuan
- Every hand the player sat at is a hand played; hu is a hand the player declared hu in (a
  false hu is not a hu, it is counted apart); self-draw share: self-drawn hu / hu.
- Kong points: the net of the kong payments and their refunds, paid and received
  (`SeatStats.kong_points`), summed over the hands.
- Pigs: active pigs only (the 48-point penalty paid; a passive pig pays none, §2.8.4 (1)).
- A deal-in is a discard (or a robbed kong) another player declared hu on: a discard that two
  players win on is one deal-in, as in riichi.
- The largest hand is the hu with the most fans as the table counted them (the payment stops
  at 4 fans; the count does not).

Highlights: every hand of the largest value, in play order (session, table, hand); the players
with the most wins (hu), when anybody won.
"""

from dataclasses import dataclass, field

from mahjong.hands import riichi, sichuan

WINS = ("ron", "tsumo")
# A win's own payments (riichi.Payment.why): a responsible player's (pao) is part of the hand.
WIN_PAYMENTS = (*WINS, "pao", "kan_from")


@dataclass(frozen=True)
class TableGame:
    session: int
    table: int
    players: dict  # wind → player key
    hands: list  # the hand objects as recorded, in order
    game: object  # riichi.Game or sichuan.GameResult: Outcome.game of these hands


@dataclass
class RiichiStats:
    hands: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_ins: int = 0
    riichi: int = 0
    riichi_won: int = 0
    win_points: int = 0  # the wins' values summed (see the module's docstring)
    chombo: int = 0

    @property
    def average_win(self) -> int | None:
        """The mean win in points, to the nearest point (halves up); None without a win."""
        return (2 * self.win_points + self.wins) // (2 * self.wins) if self.wins else None

    @property
    def tsumo_share(self) -> float | None:
        return self.tsumo / self.wins if self.wins else None


@dataclass
class SichuanStats:
    hands: int = 0
    hu: int = 0
    self_draw: int = 0
    kong_points: int = 0
    pigs: int = 0
    false_hu: int = 0
    deal_ins: int = 0
    dead: int = 0  # hands declared dead (002 §2.8.3)

    @property
    def wins(self) -> int:
        return self.hu

    @property
    def self_draw_share(self) -> float | None:
        return self.self_draw / self.hu if self.hu else None


@dataclass(frozen=True)
class Largest:
    """A hand of the largest value: riichi points of the win, Sichuan fans of the hu."""

    player: str
    session: int
    table: int
    hand: int
    value: int


@dataclass(frozen=True)
class MostWins:
    players: tuple[str, ...]  # in the order they were first met in play
    count: int


@dataclass(frozen=True)
class Statistics:
    game: str  # riichi or sichuan
    players: dict  # player key → RiichiStats or SichuanStats
    largest: tuple[Largest, ...] = ()
    most_wins: MostWins | None = None


@dataclass(frozen=True)
class HandLine:
    """One hand as the workbook lists it. Seats are winds; `players` names who sat where."""

    session: int
    table: int
    number: int
    players: dict  # wind → player key
    dealer: str
    result: str  # riichi: ron, tsumo, draw, abortive, chombo, nagashi; Sichuan: hu, exhausted
    winners: tuple[str, ...]  # riichi: ron/tsumo winners, nagashi's seat; Sichuan: hu in order
    payers: tuple[str, ...]  # riichi: the ron's discarder, the chombo's seat; Sichuan: discarders
    values: tuple  # per winner: riichi the win's {"han", "fu"} or {"yakuman"}; Sichuan fans
    riichi: tuple[str, ...]  # seats that declared riichi (Sichuan: none)
    self_drawn: tuple[str, ...]  # Sichuan: winners who drew their tile (riichi: the tsumo)
    deltas: dict  # wind → change in the hand
    totals: dict  # wind → running total after the hand
    seats: tuple[str, ...] = field(default=riichi.WINDS)


def win_value(hand: riichi.Hand, seat: str) -> int:
    """What the win itself pays `seat`: ron or tsumo payments, a responsible player's (pao)
    share included, no counters, no sticks."""
    return sum(p.amount for p in hand.payments if p.payee == seat and p.why in WIN_PAYMENTS)


def _riichi(tables) -> tuple[dict, list]:
    players, wins = {}, []
    for t in tables:
        for played, data in zip(t.game.hands, t.hands, strict=True):
            for key in t.players.values():
                players.setdefault(key, RiichiStats()).hands += 1
            declared = data.get("riichi", [])
            for wind in declared:
                players[t.players[wind]].riichi += 1
            result = data["result"]
            if result == "chombo":
                players[t.players[data["seat"]]].chombo += 1
            if result not in WINS:
                continue
            if result == "ron":
                players[t.players[data["from"]]].deal_ins += 1
            for wind in played.winners:
                stats = players[t.players[wind]]
                value = win_value(played, wind)
                stats.wins += 1
                stats.tsumo += result == "tsumo"
                stats.riichi_won += wind in declared
                stats.win_points += value
                wins.append(Largest(t.players[wind], t.session, t.table, played.number, value))
    return players, wins


def _sichuan(tables) -> tuple[dict, list]:
    players, wins = {}, []
    for t in tables:
        for number, played in enumerate(t.game.hands, start=1):
            for wind, key in t.players.items():
                stats = players.setdefault(key, SichuanStats())
                seat = played.stats[wind]
                stats.hands += 1
                stats.hu += seat.hu
                stats.self_draw += seat.self_draw
                stats.kong_points += seat.kong_points
                stats.pigs += seat.pig
                stats.false_hu += seat.false_hu
                stats.dead += seat.dead
            for payer in {(p.payer, p.event) for p in played.payments if p.why == "hu"}:
                players[t.players[payer[0]]].deal_ins += 1
            for wind in played.hu:
                fans = played.stats[wind].fans
                wins.append(Largest(t.players[wind], t.session, t.table, number, fans))
    return players, wins


def statistics(game: str, tables: list[TableGame]) -> Statistics:
    """Per player and for the tournament; `game` is the rule set's (riichi or sichuan)."""
    tables = sorted(tables, key=lambda t: (t.session, t.table))
    players, wins = (_sichuan if game == "sichuan" else _riichi)(tables)
    largest = ()
    if wins:
        top = max(w.value for w in wins)
        largest = tuple(w for w in wins if w.value == top)
    counts = {}
    for w in wins:
        counts[w.player] = counts.get(w.player, 0) + 1
    most = None
    if counts:
        best = max(counts.values())
        most = MostWins(tuple(k for k, n in counts.items() if n == best), best)
    return Statistics(game, players, largest, most)


def _riichi_lines(t: TableGame) -> list[HandLine]:
    lines = []
    for played, data in zip(t.game.hands, t.hands, strict=True):
        result = data["result"]
        values, payers = (), ()
        if result in WINS:
            by_seat = {win["seat"]: win for win in data["wins"]}
            values = tuple(
                {k: v for k, v in by_seat[w].items() if k != "seat"} for w in played.winners
            )
        if result == "ron":
            payers = (data["from"],)
        elif result == "chombo":
            payers = (data["seat"],)
        elif "kan_from" in data:  # a tsumo the kan tile's giver pays (001 §2.18)
            payers = (data["kan_from"],)
        if result in WINS:
            # a responsible player (pao) pays too: after the discarder, once each
            for win in data["wins"]:
                if "pao" in win and win["pao"] not in payers:
                    payers += (win["pao"],)
        lines.append(
            HandLine(
                session=t.session,
                table=t.table,
                number=played.number,
                players=t.players,
                dealer=played.dealer,
                result=result,
                winners=played.winners,
                payers=payers,
                values=values,
                riichi=tuple(data.get("riichi", [])),
                self_drawn=played.winners if result == "tsumo" else (),
                deltas=dict(played.deltas),
                totals=dict(played.scores),
            )
        )
    return lines


def _sichuan_lines(t: TableGame) -> list[HandLine]:
    lines = []
    seats = tuple(w for w in sichuan.WINDS if w in t.players)
    for number, played in enumerate(t.game.hands, start=1):
        payers = []
        for p in played.payments:
            if p.why == "hu" and p.payer not in payers:
                payers.append(p.payer)
        lines.append(
            HandLine(
                session=t.session,
                table=t.table,
                number=number,
                players=t.players,
                dealer=played.dealer,
                result="exhausted" if played.exhausted else "hu",
                winners=tuple(played.hu),
                payers=tuple(payers),
                values=tuple(played.stats[w].fans for w in played.hu),
                riichi=(),
                self_drawn=tuple(w for w in played.hu if played.stats[w].self_draw),
                deltas=dict(played.points),
                totals=dict(t.game.totals[number - 1]),
                seats=seats,
            )
        )
    return lines


def hand_lines(game: str, tables: list[TableGame]) -> list[HandLine]:
    """Every hand of the tables, in play order (session, table, hand)."""
    lines = _sichuan_lines if game == "sichuan" else _riichi_lines
    return [line for t in sorted(tables, key=lambda t: (t.session, t.table)) for line in lines(t)]
