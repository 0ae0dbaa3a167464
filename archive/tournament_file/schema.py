"""The tournament file's schema, declared once: every object and what each of its values may be.

The reader reads each value through its declaration here (values.py has the kinds), and
`json_schema()` writes the same declarations as a JSON Schema (draft 2020-12), committed as
tournament-file.schema.json for programs that make or check files without this desk. Limits
come from the model fields that store the values, choices from their TextChoices. What a value
means together with the rest of the file (a key of a player, scores that add up, a penalty the
rule set allows) is the reader's to check; the schema only gives such a reference's form.
"""

import json
import re
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.core.validators import slug_re
from django.utils.translation import gettext_noop

from core.entries import VERSION_MAX
from core.numbers import decimal_limit, largest, smallest
from core.text import LATIN, LINE, NAME, TEXT, shape_of
from mahjong import clock
from mahjong.hands import riichi, sichuan
from mahjong.penalties import KINDS, STAGES
from mahjong.presets import PRESETS
from referee.models import Appeal, Incident
from scoring.models import (
    CHOMBO_MAX,
    HAND_DATA_MAX,
    SCORE_LIMIT,
    Hand,
    Penalty,
    Result,
)
from seating.models import WINDS, Seat
from tournament.models import KEY, Player, RuleChange, Session, Tournament

from .values import (
    Amount,
    Bool,
    Checked,
    Choice,
    Const,
    Date,
    DateTime,
    Fee,
    Int,
    List,
    Map,
    Obj,
    Pattern,
    Ref,
    Score,
    Text,
    Zone,
)

FORMAT = "mahjong-tournament"
VERSION = 1
JSON_SCHEMA_FILE = Path(__file__).with_name("tournament-file.schema.json")


def _max_length(model, name) -> int:
    return model._meta.get_field(name).max_length


def _limit(model, name) -> Decimal:
    return decimal_limit(model._meta.get_field(name))


def _values(choices) -> tuple:
    return tuple(c.value for c in choices)


# Limits the models do not give: SQLite reports no range for its integer fields.
SMALL_MAX = 32767  # PositiveSmallIntegerField
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1  # BigIntegerField
DAY = largest(Session._meta.get_field("length_seconds"))

NOTE_MAX = _max_length(Result, "note")
PENALTY_NOTE_MAX = _max_length(Penalty, "note")
KEEP_APART = ("", *(value for value, _label in Tournament._meta.get_field("keep_apart").choices))
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
# What a table's seats show (superseded is history only); "playing": hands recorded at the table
# and no result sent to the desk yet, so the seats have no scores and import makes no result.
TABLE_STATUSES = ("draft", "confirmed", "playing")
PLAYING = "playing"
# A player's name in parts and in Latin letters: optional keys (empty: not known, or, for the
# Latin name, transliterated).
NAME_PARTS = ("first_name", "last_name", "latin_first_name", "latin_last_name")
# Keys of an incident's `undo` that hold database ids, written as file references.
UNDO_PLAYERS = ("player", "replaces", "now", "substitute")

USERNAME_RE = re.compile(r"^[\w.@+-]{1,150}\Z")
USER = Pattern(
    USERNAME_RE,
    gettext_noop("%(value)s is not a user name"),
    json_pattern=r"^[\w.@+-]{1,150}$",
)
# core.text's shapes, with the file's own messages (they name the value, as every refusal here).
NAME_SHAPE = (
    NAME.regex,
    gettext_noop("%(value)s needs a visible character and no control characters"),
    NAME.ecma,
)
LINE_SHAPE = (LINE.regex, gettext_noop("%(value)s has a control character"), LINE.ecma)
TEXT_SHAPE = (TEXT.regex, gettext_noop("%(value)s has a control character"), TEXT.ecma)
KEY_SHAPE = (
    KEY.regex,
    gettext_noop("%(value)s is not a key: letters, digits and - _ . ~ only"),
    KEY.ecma,
)
LATIN_SHAPE = (
    LATIN.regex,
    gettext_noop("%(value)s is not a name in Latin letters"),
    LATIN.ecma,
)
# The file's message for each shape a model field declares (core.text).
_SHAPES = {
    LINE: LINE_SHAPE,
    NAME: NAME_SHAPE,
    TEXT: TEXT_SHAPE,
    KEY: KEY_SHAPE,
    LATIN: LATIN_SHAPE,
}


def _text(model, name, **kwargs) -> Text:
    """A text value as the model field that stores it declares it: length and shape."""
    field = model._meta.get_field(name)
    shape = shape_of(field)
    return Text(field.max_length, shape=_SHAPES[shape] if shape else None, **kwargs)


def _int(model, name, **kwargs) -> Int:
    """A whole number in the range the model field's validators declare."""
    field = model._meta.get_field(name)
    return Int(smallest(field, default=0), largest(field), **kwargs)


PLAYER_KEY = {"type": "string", "maxLength": _max_length(Player, "key")}
NUMBER = {"type": "integer", "minimum": 1, "maximum": SMALL_MAX}  # a table's
SESSION_NUMBER = _int(Session, "number")


def player(required=True):
    return Ref(PLAYER_KEY, required, "the key of a player in players")


def session(required=True):
    return Ref(SESSION_NUMBER.schema(), required, "the number of a session in sessions")


def table():
    return Ref(NUMBER, description="the number of a table of the record's session")


def index(name):
    return Ref({"type": "integer", "minimum": 0}, description=f"an index into {name}")


TOURNAMENT = Obj(
    {
        "name": _text(Tournament, "name", required=True),
        "slug": Pattern(
            slug_re,
            gettext_noop("%(value)s is not a slug (letters, digits, - and _; at most 80)"),
            json_pattern=r"^[-a-zA-Z0-9_]+$",
            max_length=_max_length(Tournament, "slug"),
        ),
        # Read by the rule set (mahjong.presets.ruleset_from), which names its own problems.
        "ruleset": Ref({"enum": list(PRESETS)}, required=True, description="a preset key"),
        "rules": Ref({"type": "object"}, description="preset fields overridden, by name"),
        "sessions": _int(Tournament, "planned_sessions", optional=True),
        "fee": Fee(_limit(Tournament, "fee")),
        "start_date": Date(),
        "end_date": Date(),
        "venue": _text(Tournament, "venue"),
        "scope": Choice(_values(Tournament.Scope), default=Tournament.Scope.values[0]),
        "single_confirmation": Bool(),
        "keep_apart": Choice(KEEP_APART, default=""),
        "language": Choice(LANGUAGES, default="en"),
        "time_zone": Zone(),
        "release_by_session": Bool(),
        "mers_qualification": Bool(),
        "winds": Choice(_values(Tournament.Winds), default=Tournament.Winds.DESK.value),
        # The finish (docs/using/finishing.md, "Finishing the tournament"): set while it is
        # finished.
        "finished_at": DateTime(),
        "finished_by": USER,
        "reopened_at": DateTime(),
        "reopened_by": USER,
        "reopen_reason": _text(Tournament, "reopen_reason"),
    }
)

PLAYER = Obj(
    {
        "key": _text(Player, "key", required=True),
        "name": _text(Player, "name", required=True),
        **{part: _text(Player, part) for part in NAME_PARTS},
        "ema_id": Pattern(
            re.compile(r"\d{8}\Z"),
            gettext_noop("%(value)s is not 8 digits"),
            json_pattern=r"^\d{8}$",
            empty="",
        ),
        "country": _text(Player, "country"),
        "club": _text(Player, "club"),
        "team": _text(Player, "team"),
        "substitute": Bool(),
        "status": Choice(_values(Player.Status), default=Player.Status.ACTIVE.value),
        "checked_in": Bool(),
    }
)

SEAT = Obj(
    {
        # Also given by the seat's place: the seats go E, S, W, N.
        "wind": Ref({"enum": WINDS}, description="the seat's place in E, S, W, N"),
        "player": player(),
        "score": Score(SCORE_LIMIT),
        "chombo": Int(0, CHOMBO_MAX, optional=True, default=0),
        "replaces": player(required=False),
        "joined": Choice(_values(Seat.Joined), default=Seat.Joined.START.value),
    }
)

VERSION_SCORE = Obj(
    {
        "wind": Ref({"enum": WINDS}, required=True, description="the seats' winds, in order"),
        "player": player(required=False),
        "score": Score(SCORE_LIMIT, strict=True),
        "chombo": Int(0, CHOMBO_MAX, optional=True, default=0),
    }
)

TABLE_VERSION = Obj(
    {
        "version": Int(1, VERSION_MAX),
        "status": Choice(_values(Result.Status)),
        "entered_by": USER,
        "entered_at": DateTime(),
        "confirmed_by": USER,
        "confirmed_at": DateTime(),
        "superseded_at": DateTime(),
        "note": _text(Result, "note"),
        "scores": List(VERSION_SCORE, required=True),
    }
)

# A table's hands (docs/formats.md, "Hands"): the shapes of both games as JSON
# Schema, for programs that write them; the hand arithmetic (mahjong.hands) is the real check
# and names any hand that cannot have been played.
_WIND = {"enum": list(WINDS)}
_WINDS = {"type": "array", "items": _WIND}
_FLAG = {"type": "boolean"}
_FANS = {"type": "integer", "minimum": 0, "maximum": sichuan.FANS_MAX}
_NO_OTHER_KEYS = False  # JSON Schema's "no other key": the arithmetic refuses unknown keys


def _object(properties: dict, required=(), description="") -> dict:
    form = {"type": "object", "properties": properties, "additionalProperties": _NO_OTHER_KEYS}
    if required:
        form["required"] = list(required)
    if description:
        form = {"description": description, **form}
    return form


RIICHI_HAND = _object(
    {
        "result": {"enum": list(riichi.RESULTS)},
        "from": _WIND,
        "wins": {
            "type": "array",
            "minItems": 1,
            "items": _object(
                {
                    "seat": _WIND,
                    "han": {"type": "integer", "minimum": 1},
                    "fu": {"enum": list(riichi.FU)},
                    "yakuman": {"type": "integer", "minimum": 1, "maximum": 2},
                    # the seat responsible for the yakuman (000 §3.3.6, 001 §8)
                    "pao": _WIND,
                },
                required=("seat",),
            ),
        },
        "seat": _WIND,
        "tenpai": _WINDS,
        "riichi": _WINDS,
        # a tsumo on the replacement tile of an open kan: the seat that gave its tile (001 §2.18)
        "kan_from": _WIND,
    },
    required=("result",),
    description="a riichi hand: ron (from, wins), tsumo (wins), draw (tenpai), abortive, "
    "chombo (seat), nagashi (seat, tenpai); riichi: who declared riichi in it",
)
SICHUAN_HAND = _object(
    {
        "events": {
            "type": "array",
            "items": {
                "anyOf": [
                    _object(
                        {
                            "kong": {"enum": list(sichuan.KONGS)},
                            "seat": _WIND,
                            "from": _WIND,
                            "from_hand": _FLAG,
                        },
                        required=("kong", "seat"),
                    ),
                    _object(
                        {
                            "hu": {
                                "type": "array",
                                "minItems": 1,
                                "items": _object(
                                    # pig: 002 §2.5.8 (3)
                                    {"seat": _WIND, "fans": _FANS, "pig": _FLAG},
                                    required=("seat", "fans"),
                                ),
                            },
                            "from": _WIND,
                            "self_draw": _FLAG,
                            "robbing_kong": _FLAG,
                            "after_kong": _FLAG,
                        },
                        required=("hu",),
                    ),
                    _object(
                        {
                            "false_hu": _WIND,
                            "from": _WIND,  # 002 §2.8.4 (3): with robbing_kong or after_kong
                            "waiting": _FLAG,
                            "robbing_kong": _FLAG,
                            "after_kong": _FLAG,
                        },
                        required=("false_hu", "waiting"),
                    ),
                    _object({"dead": _WIND}, required=("dead",)),  # 002 §2.8.3
                ]
            },
        },
        "exhausted": _object(
            {
                wind: {
                    "anyOf": [
                        {"enum": list(sichuan.NOT_WAITING)},
                        _object({"waiting": _FANS}, required=("waiting",)),
                    ]
                }
                for wind in WINDS
            }
        ),
    },
    required=("events",),
    description="a Sichuan hand: its events in order (kong, hu, false_hu, dead), then, if the wall "
    "ran out, the state of each player who did not declare hu",
)
HANDS_MAX = largest(Hand._meta.get_field("number"))
HAND = Checked(
    Hand._meta.get_field("data"),
    {
        "description": "one hand, as the rule set's game writes it; at most "
        f"{HAND_DATA_MAX:,} characters as JSON",
        "anyOf": [RIICHI_HAND, SICHUAN_HAND],
    },
)

TABLE = Obj(
    {
        "number": Int(1, SMALL_MAX),
        "status": Choice(
            TABLE_STATUSES,
            default="confirmed",
            message=gettext_noop("%(value)s is not one of draft, confirmed, playing"),
        ),
        "seats": List(SEAT, required=True),
        # winds drawn at the table: when the table recorded its draw, and who
        "winds_drawn_at": DateTime(),
        "winds_drawn_by": USER,
        "history": List(TABLE_VERSION),
        "hands": List(HAND, max_items=HANDS_MAX),
        # per hand of `hands`, in order: the winds whose players confirmed it at the table
        "hands_confirmed": List(
            List(Choice(WINDS, required=True), max_items=len(WINDS)), max_items=HANDS_MAX
        ),
    }
)

CLOCK_EVENT = Obj(
    {
        "kind": Choice(clock.KINDS, required=True),
        "at": DateTime(required=True),
        "seconds": Int(-DAY, DAY, missing=0),
        "table": Int(1, SMALL_MAX, optional=True),
        "by": USER,
    }
)

CLOCK = Obj(
    {
        "length_seconds": _int(Session, "length_seconds", optional=True),
        "warning_seconds": _int(Session, "warning_seconds", optional=True),
        "events": List(CLOCK_EVENT),
    },
    required=False,
)

SESSION = Obj(
    {
        "number": SESSION_NUMBER,
        "method": Choice(_values(Session.Method), default=Session.Method.MANUAL.value),
        "seed": Int(SEED_MIN, SEED_MAX, optional=True),
        "ended_at": DateTime(),
        "tables": List(TABLE),
        "clock": CLOCK,
    }
)

# Who recorded a record and, for a void one, who voided it (penalties and incidents).
RECORDED = {
    "recorded_by": USER,
    "recorded_at": DateTime(),
    "voided_by": USER,
    "voided_at": DateTime(),
    "void_reason": _text(Penalty, "void_reason"),
}

PENALTY = Obj(
    {
        "session": session(),
        "player": player(),
        "table": table(),
        "kind": Choice(KINDS, required=True),
        "minutes": _int(Penalty, "minutes", optional=True),
        "amount": Amount(_limit(Penalty, "amount")),
        "stage": Choice(STAGES, default="after"),
        "note": _text(Penalty, "note"),
        **RECORDED,
    }
)

# A void penalty has the keys of a live one and a voided_at. (The reader reads both with
# PENALTY: a void record without voided_at has its own message.)
VOIDED_PENALTY = Obj({**PENALTY.fields, "voided_at": DateTime(required=True)})

WHERE = {"session": session(), "table": table()}
UNDO = Obj(
    {
        **{name: player(required=False) for name in UNDO_PLAYERS},
        "table": Obj(WHERE, required=False),
        "seat": Obj({**WHERE, "wind": Ref({"enum": WINDS}, required=True)}, required=False),
        "winds": Map(Choice(tuple(WINDS))),
    },
    required=False,
)

INCIDENT = Obj(
    {
        "kind": Choice(_values(Incident.Kind), required=True),
        "session": session(required=False),
        "table": table(),
        "player": player(required=False),
        "substitute": player(required=False),
        "text": _text(Incident, "text"),
        "undo": UNDO,
        **RECORDED,
    }
)

APPEAL = Obj(
    {
        "session": session(),
        "table": table(),
        "appellant": player(),
        "filed_at": DateTime(required=True),
        "subject": _text(Appeal, "subject"),
        "deposit": Fee(_limit(Appeal, "deposit")),
        "status": Choice(_values(Appeal.Status), default=Appeal.Status.FILED),
        "decision": _text(Appeal, "decision"),
        "decided_by": Choice(
            _values(Appeal.Body),
            default="",
            blank=True,
            message=gettext_noop("%(value)s is not one of %(options)s (or empty)"),
        ),
        "captain": Bool(),
        "text": _text(Appeal, "text"),
        "decided_at": DateTime(),
        "deposit_returned": Bool(default=None),
        "late_override": _text(Appeal, "late_override"),
        "recorded_by": USER,
        "penalty": index("penalties"),
        "voided_penalty": index("voided_penalties"),
        "incident": index("incidents"),
    }
)

RULE_CHANGE = Obj(
    {
        "changed_by": USER,
        "changed_at": DateTime(),
        "old_ruleset": Text(_max_length(RuleChange, "old_ruleset")),
        "old_rules": Obj(required=False),
        "new_ruleset": Text(_max_length(RuleChange, "new_ruleset")),
        "new_rules": Obj(required=False),
        "reason": _text(RuleChange, "reason"),
    }
)

FILE = Obj(
    {
        "format": Const(FORMAT, gettext_noop("%(value)s is not %(expected)s")),
        "version": Const(
            VERSION,
            gettext_noop(
                "version %(value)s is not supported; this desk reads version %(expected)d"
            ),
        ),
        "tournament": TOURNAMENT,
        "players": List(PLAYER),
        "sessions": List(SESSION),
        "penalties": List(PENALTY),
        "voided_penalties": List(VOIDED_PENALTY),
        "incidents": List(INCIDENT),
        "appeals": List(APPEAL),
        "rule_changes": List(RULE_CHANGE),
    }
)


def json_schema() -> dict:
    """The tournament file, version 1, as a JSON Schema (draft 2020-12)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mahjong tournament file, version 1",
        "description": (
            "A whole tournament as one JSON document (docs/formats.md). Keys not "
            "named here are ignored. References between parts of the file (player keys, "
            "session and table numbers, indexes into lists) and the rule set's checks of "
            "scores and penalties are the importer's, beyond this schema."
        ),
        **FILE.schema(),
    }


def json_schema_text() -> str:
    """The text of tournament-file.schema.json."""
    return json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n"


def write_json_schema(path: Path = JSON_SCHEMA_FILE) -> Path:
    path.write_text(json_schema_text(), encoding="utf-8")
    return path
