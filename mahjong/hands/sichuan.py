"""Sichuan hands (SBR 2025, docs/rules.md §5.2, seed 002): what each hand pays, and the game they
make.

Input is the tournament file's hand object (docs/formats.md, "Hands"): the events of
the hand in the order they happened (`kong`, `hu`, `false_hu`, `dead`), then, if the wall ran
out, the state of each player who did not declare hu (`exhausted`). Seats are the winds held
for the whole session: four, or three at a three-player table (002 §3.1). `play_hand` checks
one hand and pays it; `play_game` runs a table's hands and passes the deal. Every impossible
hand raises HandError naming where ("events[2].hu[0].seat").

The points are counted in event order, because the seed pays "each player not yet hu at that
moment". Readings chosen where seed 002 leaves a point open:

- "Not yet hu" is the state at the event itself: a concealed or added kong is paid by "каждого
  игрока, кто не объявил маджонг на момент объявления конга" (appendix 1), a self-draw by
  "каждого игрока, который не объявил маджонг на момент объявления маджонга" (§2.7.3 (5)), a
  false hu to "всем игрокам, которые оставались в игре на момент объявления ложного маджонга"
  (§2.8.4 (2)). A player who declared a false hu is still in the hand.
- A false hu returns the kongs declared before it ("должен вернуть очки за объявленные конги",
  §2.8.4 (3)); the player plays on (docs/rules.md §5.2: "A false hu does not end the player's
  hand"), and a kong declared after it counts like any other. A kong's points go back at most once:
  a false hu and then no waiting at the end do not return them twice.
- A robbed kong pays nothing: "конг считается недействительным" (appendix 1, 9). The kong stays
  in the events (the file names it so that `robbing_kong` can point at it). The robber wins on
  the kong maker's tile, so the kong maker pays as the discarder ("Выигрыш на кость, которую
  другой игрок доставлял").
- `robbing_kong` needs an added kong as the last event of `from`; `after_kong` needs a kong of
  any kind as the last event of `from`, and returns that kong only: "очки будут возвращены
  только за последний объявленный конг" (§2.7.2 (5)). A seat's events are the kongs it makes,
  its discards (`from` of an open kong, a hu or a false hu), its self-drawn hu and its false hu.
- When the hand ends with three hu (two at a three-player table), the last player's hand is
  not checked: §2.5.8 (3) shows "все игроки с объявленным маджонгом, все игроки в финале
  «Исчерпание стены»", so that player's kong points stand.
- At an exhausted wall, a player who is not waiting, or a pig of either kind ("рассматривается
  как «без ожидания»", §2.7.4 (3)), returns all kong points (§2.7.2 (4); §2.5.8 (3) "игроки без
  ожидания теряют очки за объявленные конги"). "Подсчёт очков не производится" when all remaining
  players are in the same position (§2.7.4 (5)) is read as: no waiting payments; the kong
  refunds still happen.
- The pig's 48 points (§2.8.4 (1)) go to the other players in equal parts, hu or not: 16 each,
  24 each at a three-player table (docs/rules.md §5.2; the seed does not say who receives them).
- A player makes at most four kongs in a hand (four sets and a pair, §2.6.1 (1)). Nothing
  follows the last hu ("до тех пор, пока три игрока не объявят маджонг", §2.6.2 (1)): a fourth
  hu, or a third at a three-player table, is refused as an event after the end of the hand.
- A false hu on a discard (`from`) may say the claim robbed a kong (`robbing_kong`) or followed
  a kong of `from` (`after_kong`), as a hu does: "любые другие последствия ошибочного объявления
  маджонга не восстанавливаются в расчётах – за «ложный Ху» с «Набросом после конга» игрок,
  объявивший конг, всё равно не получает очков за сет; за «ложный Ху» с «Ограблением конга»
  игрок всё равно не получает очков за ограбленный конг" (§2.8.4 (3)). The kong's points are
  lost as with a real hu: the robbed kong pays nothing, the last kong of `from` goes back.
  The same checks as a hu's: an added kong as the last event of `from` to rob, a kong to
  follow.
- A winner whose hand held a tile of the forbidden suit (`hu[].pig`, §2.5.8 (3): "игроки с
  выигрышными руками … с костями запрещённой масти получают штраф («поросёнок»)") pays the
  pig's 48 points (§2.8.4 (1)) as a pig at the wall does, to the other players in equal parts,
  at its hu; the hu is paid as it stands (the seed voids nothing else), and its kongs stand.
- A dead hand (`{"dead": seat}`, §2.8.3): the seat returns every kong point received in the
  hand so far ("обязан вернуть все очки, полученные за объявления «конг»"); a kong it declares
  afterwards pays nothing, since those points would go back too. It may not claim others'
  tiles ("запрет на взятие костей других игроков по объявлениям"): an open kong by it is
  refused. Its hu is a false hu ("обернётся штрафом за ложный маджонг"): a hu naming it is
  refused, the table records a false_hu. It stays in the hand and pays as any player still
  in it. At an exhausted wall it counts as not waiting (docs/rules.md §5.2: it may not win),
  so a waiting state for it is refused; it may still be a pig.
"""

from dataclasses import dataclass, field

from mahjong.hands import messages
from mahjong.hands.errors import HandError, Shown

WINDS = ("E", "S", "W", "N")
KONGS = ("open", "concealed", "added")
NOT_WAITING = ("not_waiting", "pig", "pig_passive")
KONG_POINTS = {"open": 2, "concealed": 2, "added": 1}  # 002 §2.7.2, appendix 1
FAN_LIMIT = 4  # §2.7.3 (3): 4 fans or more pay 16
FANS_MAX = 99  # far past any hand of appendix 1: a bound on what the sheet accepts
KONGS_MAX = 4
PIG = 48  # §2.8.4 (1)
FALSE_HU = {True: 8, False: 16}  # §2.8.4 (2): by whether the false hand was waiting
REASONS = ("kong", "refund", "hu", "self_draw", "waiting", "pig", "false_hu")
HAND_KEYS = ("events", "exhausted")
EVENT_KEYS = {
    "kong": ("kong", "seat", "from", "from_hand"),
    "hu": ("hu", "from", "self_draw", "robbing_kong", "after_kong"),
    "false_hu": ("false_hu", "from", "waiting", "robbing_kong", "after_kong"),
    "dead": ("dead",),
}


@dataclass(frozen=True)
class Payment:
    """One payment of a hand. `why` is one of REASONS; `event` the index of the event that
    caused it (None: the end of the hand, when the wall ran out); `kong` the index of the kong
    event whose points a refund returns."""

    payer: str
    payee: str
    amount: int
    why: str
    event: int | None
    kong: int | None = None


@dataclass(frozen=True)
class SeatStats:
    """One seat in one hand, for the statistics pages."""

    kongs: int = 0  # kongs declared that count (a robbed one does not)
    kong_points: int = 0  # net of kong payments and their refunds, paid and received
    hu: bool = False
    fans: int | None = None  # of the hu, as the table counted them
    self_draw: bool = False
    dealt_in: int = 0  # winners paid on this seat's discards (robbed kongs included)
    false_hu: int = 0
    pig: bool = False  # paid the pig penalty: an active pig at the wall, or a winner (§2.5.8 (3))
    dead: bool = False  # the hand was declared dead (002 §2.8.3)
    end: str | None = None  # at an exhausted wall: waiting, not_waiting, pig or pig_passive


@dataclass(frozen=True)
class HandResult:
    dealer: str
    points: dict[str, int]  # seat → game points of the hand; they sum to 0
    payments: list[Payment]  # in event order, the end of the hand last
    hu: list[str]  # seats in the order they declared hu
    next_dealer: str
    exhausted: bool  # the wall ran out (else the hand ended with the last hu)
    stats: dict[str, SeatStats] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    hands: list[HandResult]
    dealers: list[str]  # the dealer of each hand
    totals: list[dict[str, int]]  # running totals after each hand
    points: dict[str, int]  # seat → the game's points (the session's GP before penalties)
    next_dealer: str


def base_points(fans: int) -> int:
    """2^fans, at most 4 fans (002 §2.7.3 (2)–(3)): 0→1, 1→2, 2→4, 3→8, 4+→16."""
    return 2 ** min(fans, FAN_LIMIT)


def _at(path: str, key) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else key


def _keys(obj: dict, allowed, path: str):
    for key in obj:
        if key not in allowed:
            raise HandError(
                _at(path, str(key)),
                messages.UNKNOWN_KEY,
                key=Shown(key, "json"),
                keys=", ".join(allowed),
            )


def _required(obj: dict, key: str, path: str):
    if key not in obj:
        raise HandError(_at(path, key), messages.MISSING, key=key)
    return obj[key]


def _flag(obj: dict, key: str, path: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise HandError(_at(path, key), messages.TRUE_OR_FALSE)
    return value


def _fans(value, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= FANS_MAX:
        raise HandError(
            path,
            messages.FANS,
            maximum=FANS_MAX,
            value=Shown(value, "json"),
        )
    return value


def _table(seats) -> tuple[str, ...]:
    seats = tuple(seats) if isinstance(seats, (list, tuple)) else ()
    if len(seats) not in (3, 4) or len(set(seats)) != len(seats) or not set(seats) <= set(WINDS):
        raise HandError(
            "seats",
            messages.SICHUAN_TABLE,
        )
    return tuple(w for w in WINDS if w in seats)


class _Kong:
    def __init__(self, event: int, seat: str, kind: str):
        self.event, self.seat, self.kind = event, seat, kind
        self.paid: list[tuple[str, int]] = []  # (payer, amount)
        self.refunded = False
        self.robbed = False


class _Hand:
    """The state of one hand while its events are read."""

    def __init__(self, seats: tuple[str, ...], dealer: str):
        self.seats, self.dealer = seats, dealer
        self.limit = len(seats) - 1  # three hu end the hand, two at a three-player table
        self.out: list[str] = []  # hu, in order
        self.fans: dict[str, int] = {}
        self.self_drawn: set[str] = set()
        self.pigs: set[str] = set()  # winners with a tile of the forbidden suit, §2.5.8 (3)
        self.false_hus = dict.fromkeys(seats, 0)
        self.dealt_in = dict.fromkeys(seats, 0)
        self.payments: list[Payment] = []
        self.kongs: list[_Kong] = []
        self.last: dict[str, int] = {}  # seat → index of its last event
        self.dead: set[str] = set()  # §2.8.3
        self.next_dealer = dealer

    def seat(self, obj: dict, key: str, path: str) -> str:
        value = _required(obj, key, path)
        if not isinstance(value, str) or value not in self.seats:
            raise HandError(
                _at(path, key),
                messages.NOT_A_SEAT,
                value=Shown(value, "json"),
                seats=", ".join(self.seats),
            )
        if value in self.out:
            raise HandError(
                _at(path, key),
                messages.ALREADY_OUT,
                seat=value,
            )
        return value

    def still_in(self, but: str) -> list[str]:
        return [s for s in self.seats if s not in self.out and s != but]

    def pay(self, payer, payee, amount, why, event, kong=None):
        if amount:
            self.payments.append(Payment(payer, payee, amount, why, event, kong))

    def refund(self, kong: _Kong, event: int | None):
        if kong.refunded or kong.robbed:
            return
        kong.refunded = True
        for payer, amount in kong.paid:
            self.pay(kong.seat, payer, amount, "refund", event, kong.event)

    def refund_all(self, seat: str, event: int | None):
        for kong in self.kongs:
            if kong.seat == seat:
                self.refund(kong, event)

    def kong(self, event: dict, i: int, path: str):
        _keys(event, EVENT_KEYS["kong"], path)
        kind = event["kong"]
        if kind not in KONGS:
            raise HandError(
                _at(path, "kong"),
                messages.UNKNOWN_KONG,
                kind=Shown(kind, "json"),
            )
        seat = self.seat(event, "seat", path)
        if kind == "open" and seat in self.dead:
            raise HandError(_at(path, "seat"), messages.DEAD_NO_CLAIM, seat=seat)
        if kind == "open":
            discarder = self.seat(event, "from", path)
            if discarder == seat:
                raise HandError(
                    _at(path, "from"),
                    messages.OPEN_KONG_FROM_OTHER,
                )
        elif "from" in event:
            raise HandError(
                _at(path, "from"),
                messages.ONLY_OPEN_KONG_FROM,
            )
        if "from_hand" in event and kind != "added":
            raise HandError(_at(path, "from_hand"), messages.FROM_HAND_ADDED)
        from_hand = _flag(event, "from_hand", path)
        if sum(1 for k in self.kongs if k.seat == seat and not k.robbed) >= KONGS_MAX:
            raise HandError(
                _at(path, "seat"),
                messages.KONGS_FULL,
                seat=seat,
                count=KONGS_MAX,
            )
        kong = _Kong(i, seat, kind)
        self.kongs.append(kong)
        if kind == "open":
            payers = [discarder]
            self.last[discarder] = i
        else:
            payers = [] if from_hand or seat in self.dead else self.still_in(but=seat)
        for payer in payers:
            kong.paid.append((payer, KONG_POINTS[kind]))
            self.pay(payer, seat, KONG_POINTS[kind], "kong", i)
        self.last[seat] = i

    def hu(self, event: dict, i: int, path: str):
        _keys(event, EVENT_KEYS["hu"], path)
        wins = event["hu"]
        if not isinstance(wins, list) or not wins:
            raise HandError(
                _at(path, "hu"),
                messages.HU_LIST,
            )
        self_draw = _flag(event, "self_draw", path)
        robbing = _flag(event, "robbing_kong", path)
        after = _flag(event, "after_kong", path)
        if self_draw and "from" in event:
            raise HandError(
                _at(path, "from"),
                messages.HU_SELF_DRAW_OR_FROM,
            )
        if not self_draw and "from" not in event:
            raise HandError(
                _at(path, "from"),
                messages.HU_NEEDS_FROM,
            )
        for key, flag in (("robbing_kong", robbing), ("after_kong", after)):
            if flag and self_draw:
                raise HandError(
                    _at(path, key),
                    messages.HU_ON_OTHERS_TILE,
                    key=key,
                )
        if robbing and after:
            raise HandError(
                _at(path, "after_kong"),
                messages.ROB_OR_AFTER_KONG,
            )
        if self_draw and len(wins) > 1:
            raise HandError(
                _at(path, "hu"),
                messages.SEVERAL_HU_ON_DISCARD,
            )
        discarder = None if self_draw else self.seat(event, "from", path)
        winners = []
        for n, win in enumerate(wins):
            where = _at(_at(path, "hu"), n)
            if not isinstance(win, dict):
                raise HandError(where, messages.HU_OBJECT)
            _keys(win, ("seat", "fans", "pig"), where)
            seat = self.seat(win, "seat", where)
            if seat == discarder:
                raise HandError(
                    _at(where, "seat"),
                    messages.OWN_DISCARD,
                    seat=seat,
                )
            if seat in self.dead:
                raise HandError(_at(where, "seat"), messages.DEAD_HU, seat=seat)
            if seat in (w for w, _ in winners):
                raise HandError(
                    _at(where, "seat"),
                    messages.HU_TWICE,
                    seat=seat,
                )
            winners.append((seat, _fans(_required(win, "fans", where), _at(where, "fans"))))
            if _flag(win, "pig", where):
                self.pigs.add(seat)
        last_kong = self.claimed(discarder, robbing, after, path)
        for seat, fans in winners:
            if self_draw:
                for payer in self.still_in(but=seat):
                    self.pay(payer, seat, base_points(fans) + 1, "self_draw", i)
                self.self_drawn.add(seat)
            else:
                self.pay(discarder, seat, base_points(fans), "hu", i)
                self.dealt_in[discarder] += 1
            self.fans[seat] = fans
            if seat in self.pigs:
                self.pig(seat, i)
        if after:
            self.refund(last_kong, i)
        if not self.out:  # §2.6.2 (6): the first hu of the hand passes the deal
            self.next_dealer = winners[0][0] if len(winners) == 1 else discarder
        self.out += [seat for seat, _ in winners]
        self.last[discarder or winners[0][0]] = i

    def claimed(self, discarder: str | None, robbing: bool, after: bool, path: str):
        """The kong a claim on `discarder`'s tile robs or follows (§2.7.2 (5), appendix 1, 9;
        for a false hu §2.8.4 (3)); a robbed kong is voided here."""
        last_kong = self._last_kong(discarder)
        if robbing and (last_kong is None or last_kong.kind != "added"):
            raise HandError(
                _at(path, "robbing_kong"),
                messages.ROB_NEEDS_ADDED_KONG,
                seat=discarder,
            )
        if after and last_kong is None:
            raise HandError(
                _at(path, "after_kong"),
                messages.AFTER_KONG_NEEDS_KONG,
                seat=discarder,
            )
        if robbing:
            last_kong.robbed = True
            self.payments = [p for p in self.payments if p.event != last_kong.event]
        return last_kong

    def _last_kong(self, seat: str | None) -> _Kong | None:
        """The kong that is `seat`'s last event, if it is one."""
        if seat is None or seat not in self.last:
            return None
        kong = next((k for k in self.kongs if k.event == self.last[seat]), None)
        return kong if kong is not None and kong.seat == seat else None

    def false_hu(self, event: dict, i: int, path: str):
        _keys(event, EVENT_KEYS["false_hu"], path)
        seat = self.seat(event, "false_hu", path)
        _required(event, "waiting", path)
        waiting = _flag(event, "waiting", path)
        robbing = _flag(event, "robbing_kong", path)
        after = _flag(event, "after_kong", path)
        for key, flag in (("robbing_kong", robbing), ("after_kong", after)):
            if flag and "from" not in event:
                raise HandError(_at(path, key), messages.HU_ON_OTHERS_TILE, key=key)
        if robbing and after:
            raise HandError(_at(path, "after_kong"), messages.ROB_OR_AFTER_KONG)
        discarder = self.seat(event, "from", path) if "from" in event else None
        if discarder == seat:
            raise HandError(_at(path, "from"), messages.OWN_DISCARD, seat=seat)
        last_kong = self.claimed(discarder, robbing, after, path)
        for other in self.still_in(but=seat):
            self.pay(seat, other, FALSE_HU[waiting], "false_hu", i)
        self.refund_all(seat, i)
        if after:  # §2.8.4 (3): "игрок, объявивший конг, всё равно не получает очков за сет"
            self.refund(last_kong, i)
        self.false_hus[seat] += 1
        self.last[seat] = i
        if discarder is not None:
            self.last[discarder] = i

    def dead_hand(self, event: dict, i: int, path: str):
        """§2.8.3: the seat returns every kong point of the hand and may no longer win."""
        _keys(event, EVENT_KEYS["dead"], path)
        seat = self.seat(event, "dead", path)
        if seat in self.dead:
            raise HandError(_at(path, "dead"), messages.DEAD_TWICE, seat=seat)
        self.dead.add(seat)
        self.refund_all(seat, i)

    def exhausted(self, states, path: str) -> dict[str, str | int]:
        """seat → fans of the waiting hand, or not_waiting / pig / pig_passive."""
        if not isinstance(states, dict):
            raise HandError(
                path,
                messages.STATES_OBJECT,
            )
        for seat in states:
            if seat not in self.seats:
                raise HandError(
                    _at(path, str(seat)),
                    messages.NOT_A_SEAT,
                    value=Shown(seat, "json"),
                    seats=", ".join(self.seats),
                )
            if seat in self.out:
                raise HandError(
                    _at(path, seat),
                    messages.STATE_OF_A_WINNER,
                    seat=seat,
                )
        out = {}
        for seat in self.still_in(but=""):
            where = _at(path, seat)
            if seat not in states:
                raise HandError(
                    where,
                    messages.STATE_MISSING,
                    seat=seat,
                )
            state = states[seat]
            if isinstance(state, dict) and "waiting" in state:
                _keys(state, ("waiting",), where)
                if seat in self.dead:
                    raise HandError(where, messages.DEAD_WAITING, seat=seat)
                out[seat] = _fans(state["waiting"], _at(where, "waiting"))
            elif isinstance(state, str) and state in NOT_WAITING:
                out[seat] = state
            else:
                raise HandError(
                    where,
                    messages.STATE_VALUE,
                    waiting='{"waiting": fans}',
                )
        return out

    def wall_end(self, states: dict[str, str | int]):
        """§2.7.4, §2.7.2 (4), §2.8.4 (1): refunds, waiting payments, pigs."""
        waiting = [s for s, state in states.items() if isinstance(state, int)]
        not_waiting = [s for s in states if s not in waiting]
        for seat in not_waiting:
            self.refund_all(seat, None)
        for payer in not_waiting:
            for payee in waiting:
                self.pay(payer, payee, base_points(states[payee]), "waiting", None)
        for seat in not_waiting:
            if states[seat] == "pig":
                self.pig(seat, None)

    def pig(self, seat: str, event: int | None):
        """§2.8.4 (1): 48 points, to the other players in equal parts (docs/rules.md §5.2)."""
        for other in self.seats:
            if other != seat:
                self.pay(seat, other, PIG // (len(self.seats) - 1), "pig", event)


def play_hand(hand: dict, seats: tuple[str, ...], dealer: str) -> HandResult:
    """One hand's points and payments (docs/rules.md §5.2); HandError for an impossible hand."""
    seats = _table(seats)
    if dealer not in seats:
        raise HandError("dealer", messages.DEALER_SEAT)
    if not isinstance(hand, dict):
        raise HandError("", messages.SICHUAN_HAND_OBJECT)
    _keys(hand, HAND_KEYS, "")
    events = _required(hand, "events", "")
    if not isinstance(events, list):
        raise HandError("events", messages.EVENTS_LIST)
    play = _Hand(seats, dealer)
    for i, event in enumerate(events):
        path = f"events[{i}]"
        if len(play.out) == play.limit:
            raise HandError(
                path,
                messages.HAND_ENDED,
                count=play.limit,
            )
        kinds = [k for k in EVENT_KEYS if isinstance(event, dict) and k in event]
        if len(kinds) != 1:
            raise HandError(path, messages.ONE_EVENT)
        handlers = {"kong": play.kong, "hu": play.hu, "false_hu": play.false_hu}
        handlers["dead"] = play.dead_hand
        handlers[kinds[0]](event, i, path)
    states = {}
    if "exhausted" in hand:
        if len(play.out) == play.limit:
            raise HandError(
                "exhausted",
                messages.WALL_DID_NOT_RUN_OUT,
                count=play.limit,
            )
        states = play.exhausted(hand["exhausted"], "exhausted")
        play.wall_end(states)
    elif len(play.out) < play.limit:
        raise HandError(
            "exhausted",
            messages.TOO_FEW_HU,
            count=len(play.out),
            limit=play.limit,
        )
    return _result(play, states, exhausted="exhausted" in hand)


def _result(play: _Hand, states: dict, exhausted: bool) -> HandResult:
    points = dict.fromkeys(play.seats, 0)
    kong_points = dict.fromkeys(play.seats, 0)
    for p in play.payments:
        points[p.payer] -= p.amount
        points[p.payee] += p.amount
        if p.why in ("kong", "refund"):
            kong_points[p.payer] -= p.amount
            kong_points[p.payee] += p.amount
    stats = {}
    for seat in play.seats:
        state = states.get(seat)
        stats[seat] = SeatStats(
            kongs=sum(1 for k in play.kongs if k.seat == seat and not k.robbed),
            kong_points=kong_points[seat],
            hu=seat in play.out,
            fans=play.fans.get(seat),
            self_draw=seat in play.self_drawn,
            dealt_in=play.dealt_in[seat],
            false_hu=play.false_hus[seat],
            pig=state == "pig" or seat in play.pigs,
            dead=seat in play.dead,
            end="waiting" if isinstance(state, int) else state,
        )
    return HandResult(
        dealer=play.dealer,
        points=points,
        payments=play.payments,
        hu=play.out,
        next_dealer=play.next_dealer,
        exhausted=exhausted,
        stats=stats,
    )


def play_game(hands: list, seats: tuple[str, ...], first_dealer: str = "E") -> GameResult:
    """A table's hands in order: running totals, final points, the dealer of each hand.
    HandError names the first impossible hand ("hands[3].events[1].from")."""
    seats = _table(seats)
    if first_dealer not in seats:
        raise HandError("first_dealer", messages.DEALER_SEAT)
    if not isinstance(hands, list):
        raise HandError("hands", messages.HANDS_LIST)
    dealer, played, dealers, totals = first_dealer, [], [], []
    running = dict.fromkeys(seats, 0)
    for n, hand in enumerate(hands):
        try:
            result = play_hand(hand, seats, dealer)
        except HandError as error:
            path = f"hands[{n}]" + (f".{error.path}" if error.path else "")
            raise HandError(path, error.template, **error.params) from None
        played.append(result)
        dealers.append(dealer)
        running = {s: running[s] + result.points[s] for s in seats}
        totals.append(running)
        dealer = result.next_dealer
    return GameResult(
        hands=played, dealers=dealers, totals=totals, points=dict(running), next_dealer=dealer
    )
