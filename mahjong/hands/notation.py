"""A paper protocol's hands typed at the keyboard: one hand a line, for both games.

`parse(text, game)` reads the lines into the hand objects of the tournament file
(docs/formats.md, "Hands"); `write(hand)` is the reverse, so the desk shows a
table's hands as the text it edits, and `parse(write(h)) == h`. The notation says what the paper
says, in the order a scorer reads it; the arithmetic (riichi.py, sichuan.py) judges whether the
hand can be. Case and spaces are free: `RON s < w 3/40 R:S,N` is `ron S<W 3/40 r:SN`.

Riichi, one hand a line:

    ron S<W 3/40 r:SN       S wins 3 han 40 fu on W's discard; S and N declared riichi
    ron E,S<N 2/30 Y        two winners on N's discard, each with their value in order
    tsumo E 5 r:E           E self-draws 5 han (a limit: no fu needed)
    tsumo N Y pao:E         N self-draws a yakuman; E is responsible for it (pao)
    tsumo S 3/40 kan:N      S wins on the replacement tile of an open kan N gave the tile of
    ron S,E<N Y pao:W 2/30  `pao:` after a winner's value names the seat responsible for it
    draw t:EN r:N           exhaustive draw, E and N tenpai
    abort r:W               abortive draw
    chombo N
    nagashi W t:WS

A value is `han/fu`, a han count from 5, a limit name (mangan 5, haneman 6, baiman 8,
sanbaiman 11 han, as riichi.LIMITS begins them), `Y` or `yakuman`, `YY` or `double`; a value
followed by `pao:W` is a yakuman W is responsible for (`wins[].pao`). `kan:N` on a tsumo:
the win was on the replacement tile of an open kan whose tile N gave (`kan_from`, 001 §2.18).

Sichuan, one hand a line, its events in order separated by `;`, then `end` if the wall ran out:

    kong open S<E; kong concealed W; kong added N; kong added N hand
    hu S 2<E; hu W 1,N 0<E; hu W 3 tsumo; hu S 1<N rob; hu S 1<W afterkong; hu S 2 pig<E
    false N waiting; false N nw; false S waiting<W afterkong; false E nw<N rob
    dead N
    end E:w2 W:nw N:pig S:pigp

Every error is a NotationError (a HandError) naming the line and column; its template is
English, marked for the catalogue, and translated by the Django layer (core.errors.rule_message).
"""

import re
from dataclasses import dataclass

from mahjong.hands.errors import HandError
from mahjong.hands.riichi import LIMITS
from mahjong.messages import Words, gettext_noop

GAMES = ("riichi", "sichuan")
# Digits of one number: han (riichi.HAN_MAX 99), fu (110) and fans (sichuan.FANS_MAX 99) have
# at most 3; a longer number is refused here, before Python's int() (which refuses more than
# 4,300 digits with an error of its own) and before the arithmetic names its bounds.
DIGITS_MAX = 3
HAN, FU, FANS = Words(gettext_noop("han")), Words(gettext_noop("fu")), Words(gettext_noop("fans"))
SEATS = "ESWN"
# Limit names → the least han of the limit (riichi.LIMITS: mangan from 5 han, haneman 6, …).
LIMIT_HAN = dict(
    zip(
        ("mangan", "haneman", "baiman", "sanbaiman"),
        sorted(least for least, _points in LIMITS)[:4],
        strict=True,
    )
)
YAKUMAN = {"y": 1, "yakuman": 1, "yy": 2, "double": 2}
RESULTS = {"ron": "ron", "tsumo": "tsumo", "draw": "draw", "abort": "abortive"}
RESULTS |= {"abortive": "abortive", "chombo": "chombo", "nagashi": "nagashi"}
LISTS = {"r": "riichi", "riichi": "riichi", "t": "tenpai", "tenpai": "tenpai"}
LISTS |= {"kan": "kan_from"}  # one seat: who gave the open kan's tile (a tsumo's kan_from)
KONGS = {"open": "open", "o": "open", "concealed": "concealed", "c": "concealed"}
KONGS |= {"closed": "concealed", "added": "added", "a": "added", "add": "added"}
FROM_HAND = ("hand", "fromhand", "from_hand")
SELF_DRAW = ("tsumo", "self", "selfdraw", "self_draw", "zimo")
ROBBING = ("rob", "robbing", "robbing_kong", "robkong")
AFTER_KONG = ("afterkong", "after_kong", "after")
HU_FLAGS = dict.fromkeys(SELF_DRAW, "self_draw") | dict.fromkeys(ROBBING, "robbing_kong")
HU_FLAGS |= dict.fromkeys(AFTER_KONG, "after_kong")
WAITING = {"waiting": True, "w": True, "notwaiting": False, "not_waiting": False, "nw": False}
END_STATES = {"nw": "not_waiting", "notwaiting": "not_waiting", "not_waiting": "not_waiting"}
END_STATES |= {"pig": "pig", "pigp": "pig_passive", "pig_passive": "pig_passive"}
END_STATES |= {"passive": "pig_passive", "pp": "pig_passive"}
END_WRITTEN = {"not_waiting": "nw", "pig": "pig", "pig_passive": "pigp"}

# The page's help (templates/desk/hands.html): each example line with what it says; a unit
# test reads every one, so the help cannot drift from the notation.
EXAMPLES = {
    "riichi": (
        (
            "ron S<W 3/40 r:SN",
            gettext_noop(
                "South wins 3 han 40 fu on West's discard; South and North declared riichi."
            ),
        ),
        (
            "ron E,S<N 2/30 Y",
            gettext_noop(
                "Two winners on North's discard, each with their value in the same order."
            ),
        ),
        ("tsumo E 5 r:E", gettext_noop("East wins by self-draw with 5 han.")),
        (
            "tsumo N Y pao:E · ron S<N Y pao:E",
            gettext_noop(
                "North's (South's) yakuman; East gave the set that made it and is responsible "
                "(pao)."
            ),
        ),
        (
            "tsumo S 3/40 kan:N",
            gettext_noop(
                "South wins on the replacement tile of an open kan whose tile North gave: North "
                "pays it all (Furiten 001 §2.18)."
            ),
        ),
        ("draw t:EN r:N", gettext_noop("Exhaustive draw; East and North are tenpai.")),
        ("abort r:W", gettext_noop("Abortive draw.")),
        ("chombo N", gettext_noop("North's chombo.")),
        ("nagashi W t:WS", gettext_noop("West's nagashi; West and South are tenpai.")),
    ),
    "sichuan": (
        ("kong open S<E", gettext_noop("South's open kong on East's discard.")),
        ("kong concealed W", gettext_noop("West's concealed kong.")),
        (
            "kong added N · kong added N hand",
            gettext_noop("North's added kong, with the drawn tile or from the hand."),
        ),
        ("hu S 2<E", gettext_noop("South declares hu with 2 fans on East's discard.")),
        (
            "hu W 1,N 0<E",
            gettext_noop("West (1 fan) and North (0 fans) declare hu on one discard of East."),
        ),
        ("hu W 3 tsumo", gettext_noop("West's self-drawn hu with 3 fans.")),
        (
            "hu S 1<N rob · hu S 1<W afterkong",
            gettext_noop("Hu robbing North's kong; hu on West's discard right after West's kong."),
        ),
        (
            "false N waiting · false N nw",
            gettext_noop("North's false hu, with a waiting hand or without."),
        ),
        (
            "hu S 2 pig<E",
            gettext_noop(
                "South declares hu with 2 fans on East's discard, holding a tile of the "
                "forbidden suit: a pig."
            ),
        ),
        (
            "false S waiting<W afterkong · false E nw<N rob",
            gettext_noop(
                "A false hu on West's discard right after West's kong; a false hu robbing "
                "North's kong."
            ),
        ),
        (
            "dead N",
            gettext_noop("North's hand is declared dead: North's kong points go back."),
        ),
        (
            "end E:w2 W:nw N:pig S:pigp",
            gettext_noop(
                "The wall ran out: East waits for 2 fans, West is not waiting, North is an "
                "active pig, South a passive pig."
            ),
        ),
        (
            "kong open S<E; hu S 2<E; hu W 1 tsumo; end E:w1 N:nw",
            gettext_noop("A whole hand on one line."),
        ),
    ),
}

_TOKEN = re.compile(r"\s*(?:([a-z_]+)|(\d+)|([<,:/;])|(\S))", re.IGNORECASE)


class NotationError(HandError):
    """A line the notation cannot read: `line` (from 1) and `column` (from 1) point at it."""

    def __init__(self, template: str, *, line: int, column: int, **params):
        # The message itself names the line and column: no path inside the hands to add.
        super().__init__("", template, line=line, column=column, **params)
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Token:
    kind: str  # word, number, mark, end (past the last token)
    text: str  # words in lower case
    column: int
    raw: str = ""  # as typed


@dataclass(frozen=True)
class Line:
    number: int  # in the text, from 1
    hand: dict


class _Reader:
    """The tokens of one line (or one Sichuan event), read left to right."""

    def __init__(self, tokens: list[Token], line: int, end_column: int, end: str = "⏎"):
        self.tokens, self.line, self.at = tokens, line, 0
        self.end = Token("end", end, end_column)

    def peek(self) -> Token:
        return self.tokens[self.at] if self.at < len(self.tokens) else self.end

    def take(self) -> Token:
        token = self.peek()
        self.at = min(self.at + 1, len(self.tokens))
        return token

    def done(self) -> bool:
        return self.at >= len(self.tokens)

    def fail(self, token: Token, template: str, **params):
        raise NotationError(
            template,
            token=_shown(token),
            line=self.line,
            column=token.column,
            **params,
        )

    def mark(self, text: str) -> bool:
        if self.peek().kind == "mark" and self.peek().text == text:
            self.take()
            return True
        return False

    def seat(self) -> str:
        token = self.take()
        if token.kind != "word" or token.text.upper() not in SEATS or len(token.text) != 1:
            self.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: expected a seat (E, S, W or N), not {token}."
                ),
            )
        return token.text.upper()

    def seats(self) -> list[str]:
        """Seats written together (`SN`) or with commas (`S,N`); none before another part."""
        found = []
        while self.peek().kind == "word" and all(c in SEATS for c in self.peek().text.upper()):
            token = self.take()
            for letter in token.text.upper():
                if letter in found:
                    self.fail(
                        token,
                        gettext_noop("Line {line}, column {column}: seat {seat} is listed twice."),
                        seat=letter,
                    )
                found.append(letter)
            if not self.mark(","):
                break
        return found

    def number(self, field: Words) -> int:
        token = self.take()
        if token.kind != "number":
            self.fail(
                token, gettext_noop("Line {line}, column {column}: expected a number, not {token}.")
            )
        return self.whole(token, field)

    def whole(self, token: Token, field: Words) -> int:
        """A number token's value; refused, naming the field, past DIGITS_MAX digits."""
        if len(token.text) > DIGITS_MAX:
            self.fail(
                Token(
                    token.kind,
                    token.text[:6] + "…" if len(token.text) > 7 else token.text,
                    token.column,
                ),
                gettext_noop(
                    "Line {line}, column {column}: {token} is too large a number of {field}."
                ),
                field=field,
            )
        return int(token.text)


def _shown(token: Token) -> str:
    """The token as a message quotes it; the end of a line (or of a Sichuan event) as the mark
    that ends it, which needs no translation."""
    return f"“{token.raw or token.text}”" if token.kind != "end" else token.text


def _tokens(text: str, line: int, offset: int = 0) -> list[Token]:
    tokens, at = [], 0
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None:  # only spaces are left
            break
        word, number, mark, other = found.groups()
        column = offset + found.start(found.lastindex) + 1
        if other is not None:
            raise NotationError(
                gettext_noop("Line {line}, column {column}: the notation has no {token}."),
                token=f"“{other}”",
                line=line,
                column=column,
            )
        if word is not None:
            tokens.append(Token("word", word.lower(), column, word))
        elif number is not None:
            tokens.append(Token("number", number, column))
        else:
            tokens.append(Token("mark", mark, column))
        at = found.end()
    return tokens


# --- riichi ----------------------------------------------------------------------------------


def _value(reader: _Reader) -> dict:
    """One winner's value: han/fu, han, a limit name, or a yakuman."""
    token = reader.take()
    if token.kind == "word" and token.text in LIMIT_HAN:
        return {"han": LIMIT_HAN[token.text]}
    if token.kind == "word" and token.text in YAKUMAN:
        return {"yakuman": YAKUMAN[token.text]}
    if token.kind != "number":
        reader.fail(
            token,
            gettext_noop(
                "Line {line}, column {column}: "
                "expected the hand's value (han/fu, han, mangan … sanbaiman, Y, YY), "
                "not {token}."
            ),
        )
    value = reader.whole(token, HAN)
    after = reader.peek()
    if (
        after.kind == "word"
        and after.text == "y"
        and after.column == token.column + len(token.text)
    ):
        # 2Y written together: a double yakuman (apart, "5 Y" is two winners' values)
        reader.take()
        return {"yakuman": value}
    if reader.mark("/"):
        return {"han": value, "fu": reader.number(FU)}
    return {"han": value}


def _pao(reader: _Reader) -> dict:
    """`pao:W` after a winner's value: the seat responsible for the yakuman; or nothing."""
    token = reader.peek()
    if token.kind != "word" or token.text != "pao":
        return {}
    reader.take()
    if not reader.mark(":"):
        reader.fail(
            reader.peek(),
            gettext_noop("Line {line}, column {column}: expected “:” after {key}."),
            key=token.text,
        )
    return {"pao": reader.seat()}


def _riichi(reader: _Reader) -> dict:
    first = reader.take()
    result = RESULTS.get(first.text) if first.kind == "word" else None
    if result is None:
        reader.fail(
            first,
            gettext_noop(
                "Line {line}, column {column}: "
                "a riichi hand begins with ron, tsumo, draw, abort, chombo or "
                "nagashi, not {token}."
            ),
        )
    hand = {"result": result}
    if result == "ron":
        at = reader.peek()
        winners = reader.seats()
        if not winners:
            reader.fail(
                at,
                gettext_noop(
                    "Line {line}, column {column}: expected the winner's seat, not {token}."
                ),
            )
        if not reader.mark("<"):
            reader.fail(
                reader.peek(),
                gettext_noop(
                    "Line {line}, column {column}: "
                    "expected < and the discarder's seat, not {token}."
                ),
            )
        hand["from"] = reader.seat()
        hand["wins"] = [{"seat": seat, **_value(reader), **_pao(reader)} for seat in winners]
    elif result == "tsumo":
        seat = reader.seat()
        hand["wins"] = [{"seat": seat, **_value(reader), **_pao(reader)}]
    elif result in ("chombo", "nagashi"):
        hand["seat"] = reader.seat()
    lists = {"riichi": []} | ({"tenpai": []} if result in ("draw", "nagashi") else {})
    if result == "tsumo":
        lists["kan_from"] = None
    given = set()
    while not reader.done():
        token = reader.take()
        key = LISTS.get(token.text) if token.kind == "word" else None
        if key is None or key not in lists:
            reader.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: "
                    "expected r: (riichi) or t: (tenpai), not {token}."
                )
                if key is None
                else gettext_noop(
                    "Line {line}, column {column}: only a draw or a nagashi lists tenpai seats."
                )
                if key == "tenpai"
                else gettext_noop(
                    "Line {line}, column {column}: only a tsumo names who gave the kan tile."
                ),
            )
        if key in given:
            reader.fail(
                token, gettext_noop("Line {line}, column {column}: {token} is given twice.")
            )
        given.add(key)
        if not reader.mark(":"):
            reader.fail(
                reader.peek(),
                gettext_noop("Line {line}, column {column}: expected “:” after {key}."),
                key=token.text,
            )
        lists[key] = reader.seat() if key == "kan_from" else reader.seats()
    if lists.get("kan_from"):
        hand["kan_from"] = lists["kan_from"]
    if result in ("draw", "nagashi"):
        hand["tenpai"] = lists["tenpai"]
    hand["riichi"] = lists["riichi"]
    return hand


def _value_text(win: dict) -> str:
    pao = f" pao:{win['pao']}" if "pao" in win else ""
    if "yakuman" in win:
        return {1: "Y", 2: "YY"}.get(win["yakuman"], f"{win['yakuman']}Y") + pao
    if "fu" in win:
        return f"{win['han']}/{win['fu']}{pao}"
    return f"{win['han']}{pao}"


def _write_riichi(hand: dict) -> str:
    result = hand["result"]
    parts = ["abort" if result == "abortive" else result]
    if result == "ron":
        winners = ",".join(win["seat"] for win in hand["wins"])
        parts.append(f"{winners}<{hand['from']}")
        parts += [_value_text(win) for win in hand["wins"]]
    elif result == "tsumo":
        win = hand["wins"][0]
        parts += [win["seat"], _value_text(win)]
        if "kan_from" in hand:
            parts.append(f"kan:{hand['kan_from']}")
    elif result in ("chombo", "nagashi"):
        parts.append(hand["seat"])
    if hand.get("tenpai"):
        parts.append("t:" + "".join(hand["tenpai"]))
    if hand.get("riichi"):
        parts.append("r:" + "".join(hand["riichi"]))
    return " ".join(parts)


# --- Sichuan ---------------------------------------------------------------------------------


def _kong(reader: _Reader) -> dict:
    token = reader.take()
    kind = KONGS.get(token.text) if token.kind == "word" else None
    if kind is None:
        reader.fail(
            token,
            gettext_noop(
                "Line {line}, column {column}: expected open, concealed or added, not {token}."
            ),
        )
    event = {"kong": kind, "seat": reader.seat()}
    if reader.mark("<"):
        event["from"] = reader.seat()
    if reader.peek().kind == "word" and reader.peek().text in FROM_HAND:
        reader.take()
        event["from_hand"] = True
    return event


def _win(reader: _Reader) -> dict:
    win = {"seat": reader.seat(), "fans": reader.number(FANS)}
    if reader.peek().kind == "word" and reader.peek().text == "pig":  # 002 §2.5.8 (3)
        reader.take()
        win["pig"] = True
    return win


def _hu(reader: _Reader) -> dict:
    wins = [_win(reader)]
    while reader.mark(","):
        wins.append(_win(reader))
    event = {"hu": wins}
    if reader.mark("<"):
        event["from"] = reader.seat()
    while not reader.done():
        token = reader.take()
        flag = HU_FLAGS.get(token.text) if token.kind == "word" else None
        if flag is None:
            reader.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: "
                    "expected <, tsumo, rob or afterkong, not {token}."
                ),
            )
        event[flag] = True
    return event


def _false_hu(reader: _Reader) -> dict:
    event = {"false_hu": reader.seat()}
    token = reader.take()
    if token.kind != "word" or token.text not in WAITING:
        reader.fail(
            token,
            gettext_noop(
                "Line {line}, column {column}: "
                "say whether the false hu was waiting or nw, not {token}."
            ),
        )
    event["waiting"] = WAITING[token.text]
    if reader.mark("<"):
        event["from"] = reader.seat()
    while not reader.done():
        token = reader.take()
        flag = HU_FLAGS.get(token.text) if token.kind == "word" else None
        if flag not in ("robbing_kong", "after_kong"):
            reader.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: expected <, rob or afterkong, not {token}."
                ),
            )
        event[flag] = True
    return event


def _end(reader: _Reader) -> dict:
    states = {}
    while not reader.done():
        at = reader.peek()
        seat = reader.seat()
        if seat in states:
            reader.fail(
                at,
                gettext_noop("Line {line}, column {column}: seat {seat} is listed twice."),
                seat=seat,
            )
        if not reader.mark(":"):
            reader.fail(
                reader.peek(),
                gettext_noop("Line {line}, column {column}: expected “:” after {key}."),
                key=seat,
            )
        token = reader.take()
        if token.kind == "word" and token.text in ("w", "waiting"):
            states[seat] = {"waiting": reader.number(FANS)}
        elif token.kind == "number":
            states[seat] = {"waiting": reader.whole(token, FANS)}
        elif token.kind == "word" and token.text in END_STATES:
            states[seat] = END_STATES[token.text]
        else:
            reader.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: "
                    "expected w and the fans waited for, nw, pig or pigp, not {token}."
                ),
            )
    return states


def _sichuan(text: str, line: int) -> dict:
    hand = {"events": []}
    offset = 0
    for part in text.split(";"):
        last = offset + len(part) >= len(text)
        end = (offset + len(part.rstrip()) + 1) if last else offset + len(part) + 1
        reader = _Reader(_tokens(part, line, offset), line, end, "⏎" if last else ";")
        offset += len(part) + 1
        if reader.done():
            continue  # `;;` or a `;` at the end
        if "exhausted" in hand:
            reader.fail(
                reader.peek(),
                gettext_noop("Line {line}, column {column}: end comes last, after the events."),
            )
        token = reader.take()
        if token.kind == "word" and token.text == "end":
            hand["exhausted"] = _end(reader)
            continue
        read = EVENTS.get(token.text)
        if token.kind != "word" or read is None:
            reader.fail(
                token,
                gettext_noop(
                    "Line {line}, column {column}: "
                    "an event is kong, hu, false, dead or end, not {token}."
                ),
            )
        event = read(reader)
        if not reader.done():
            reader.fail(
                reader.peek(),
                gettext_noop("Line {line}, column {column}: {token} is more than the event says."),
            )
        hand["events"].append(event)
    return hand


def _dead(reader: _Reader) -> dict:
    return {"dead": reader.seat()}


EVENTS = {"kong": _kong, "hu": _hu, "false": _false_hu, "false_hu": _false_hu, "dead": _dead}


def _write_event(event: dict) -> str:
    if "kong" in event:
        text = f"kong {event['kong']} {event['seat']}"
        text += f"<{event['from']}" if "from" in event else ""
        return text + (" hand" if event.get("from_hand") else "")
    if "hu" in event:
        text = "hu " + ",".join(
            f"{w['seat']} {w['fans']}" + (" pig" if w.get("pig") else "") for w in event["hu"]
        )
        text += f"<{event['from']}" if "from" in event else ""
        text += " tsumo" if event.get("self_draw") else ""
        text += " rob" if event.get("robbing_kong") else ""
        return text + (" afterkong" if event.get("after_kong") else "")
    if "dead" in event:
        return f"dead {event['dead']}"
    text = f"false {event['false_hu']} {'waiting' if event['waiting'] else 'nw'}"
    text += f"<{event['from']}" if "from" in event else ""
    text += " rob" if event.get("robbing_kong") else ""
    return text + (" afterkong" if event.get("after_kong") else "")


def _write_state(state) -> str:
    return f"w{state['waiting']}" if isinstance(state, dict) else END_WRITTEN[state]


def _write_sichuan(hand: dict) -> str:
    parts = [_write_event(event) for event in hand["events"]]
    if "exhausted" in hand:
        states = hand["exhausted"]
        # In wind order: a database may keep an object's keys in another (PostgreSQL's jsonb).
        order = sorted(states, key=lambda s: SEATS.index(s) if s in SEATS else len(SEATS))
        parts.append(" ".join(["end", *(f"{s}:{_write_state(states[s])}" for s in order)]))
    return "; ".join(parts)


# --- both games ------------------------------------------------------------------------------


def read(text: str, game: str) -> list[Line]:
    """Each hand with the number of its line; blank lines are skipped."""
    if game not in GAMES:
        raise ValueError(game)
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if game == "sichuan":
            lines.append(Line(number, _sichuan(raw, number)))
            continue
        reader = _Reader(_tokens(raw, number), number, len(raw.rstrip()) + 1)
        lines.append(Line(number, _riichi(reader)))
    return lines


def parse(text: str, game: str) -> list[dict]:
    """The hands of the text, in order (see the module's docstring for the notation)."""
    return [line.hand for line in read(text, game)]


def write(hand: dict) -> str:
    """One hand as its line: riichi if it has a `result`, else Sichuan."""
    return _write_riichi(hand) if "result" in hand else _write_sichuan(hand)


def write_all(hands: list) -> str:
    return "\n".join(write(hand) for hand in hands)
