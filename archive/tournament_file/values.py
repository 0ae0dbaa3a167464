"""The kinds of value a tournament file holds, each read and described one way.

A kind reads a value from the file (`read(path, value)`: the value as the desk stores it, or
TournamentFileError naming the path) and describes itself as JSON Schema (`schema()`), so the
reader and the published schema cannot disagree. schema.py says which object has which values.

References between parts of the file (a player's key, a session's number, an index into
another list) only have their form here: the reader resolves them, since only it knows what
the file holds, and `read` refuses to pretend otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.moments import EARLIEST, LATEST, within_calendar
from core.zones import default_zone, zone_names

from .errors import TournamentFileError, show


def fail(path, message):
    raise TournamentFileError(path, message)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _or_null(schema: dict) -> dict:
    """`schema`, or null (a value left out and a null mean the same in this format)."""
    kind = schema.get("type")
    if kind is None:
        return {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "type": [kind, "null"]}


class Value:
    """A kind of value; `required`: the key must be there and not null."""

    required = False
    # The value when the key is left out; a null is read as given (see Int `missing`).
    missing = None

    def read(self, path: str, value):
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def needed(self) -> bool:
        """Whether JSON Schema lists the key as required."""
        return self.required


@dataclass(frozen=True)
class Const(Value):
    """The file's `format` and `version`: one value, with its own message."""

    value: object
    message: str  # gettext_noop'd, with %(value)s and %(expected)

    required = True

    def read(self, path, value):
        if type(value) is not type(self.value) or value != self.value:
            expected = self.value if is_int(self.value) else show(self.value)
            fail(path, _(self.message) % {"value": show(value), "expected": expected})
        return value

    def schema(self):
        return {"const": self.value}


@dataclass(frozen=True)
class Text(Value):
    """Text, stripped; null is empty. `max_length` from the model field that stores it;
    `shape`: a (regex, message with %(value)s, ECMA-262 pattern) it must also match."""

    max_length: int
    required: bool = False
    shape: tuple | None = None

    def read(self, path, value):
        if value is None:
            value = ""
        if not isinstance(value, str):
            fail(path, _("must be text, not %(value)s") % {"value": show(value)})
        value = value.strip()
        if self.required and not value:
            fail(path, _("is required"))
        if len(value) > self.max_length:
            fail(
                path,
                ngettext(
                    "is longer than %(max)d character",
                    "is longer than %(max)d characters",
                    self.max_length,
                )
                % {"max": self.max_length},
            )
        if self.shape and value and not self.shape[0].match(value):
            fail(path, _(self.shape[1]) % {"value": show(value)})
        return value

    def schema(self):
        pattern = self.shape[2] if self.shape else r"\S"
        if self.required:
            return {"type": "string", "maxLength": self.max_length, "pattern": pattern}
        text = {"type": "string", "maxLength": self.max_length}
        if self.shape:  # an optional text's shape takes the empty text too
            text["pattern"] = self.shape[2]
        return _or_null(text)


@dataclass(frozen=True)
class Pattern(Value):
    """Text of one shape (a slug, an EMA id, a user name); null and "" are `empty`."""

    regex: re.Pattern
    message: str  # gettext_noop'd, with %(value)s
    json_pattern: str  # the same shape as an ECMA-262 regular expression
    max_length: int | None = None
    empty: object = None

    def read(self, path, value):
        if value is None or value == "":
            return self.empty
        if (
            not isinstance(value, str)
            or not self.regex.match(value)
            or (self.max_length is not None and len(value) > self.max_length)
        ):
            fail(path, _(self.message) % {"value": show(value)})
        return value

    def schema(self):
        schema = {"type": "string", "pattern": self.json_pattern}
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        return {"anyOf": [schema, {"const": ""}, {"type": "null"}]}


@dataclass(frozen=True)
class Int(Value):
    """A whole number from `minimum` to `maximum`. Null is refused unless `optional` (then
    `default`); `missing` is the value of a key left out, where only a null is refused."""

    minimum: int
    maximum: int
    optional: bool = False
    default: int | None = None
    missing: int | None = None

    def read(self, path, value):
        if value is None and self.optional:
            return self.default
        if not is_int(value) or not self.minimum <= value <= self.maximum:
            fail(
                path,
                _("%(value)s is not a whole number from %(min)d to %(max)d")
                % {"value": show(value), "min": self.minimum, "max": self.maximum},
            )
        return value

    def needed(self):
        return not self.optional and self.missing is None

    def schema(self):
        schema = {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        if self.optional:
            schema = _or_null(schema)
        default = self.default if self.missing is None else self.missing
        if default is not None:
            schema["default"] = default
        return schema


@dataclass(frozen=True)
class Score(Value):
    """A seat's score (null: not played yet). `strict`: refused unless a whole number; else only
    a huge one is refused here, and the rule set names any other problem with the table."""

    limit: int
    strict: bool = False

    def read(self, path, value):
        if value is None:
            return None
        if self.strict and (not is_int(value) or abs(value) >= self.limit):
            fail(path, _("%(value)s is not a whole number") % {"value": show(value)})
        if is_int(value) and abs(value) >= self.limit:
            fail(path, _("%(value)s is too large") % {"value": value})
        return value

    def schema(self):
        return _or_null(
            {"type": "integer", "exclusiveMinimum": -self.limit, "exclusiveMaximum": self.limit}
        )


@dataclass(frozen=True)
class Bool(Value):
    default: bool | None = False

    def read(self, path, value):
        if value is None:
            return self.default
        if not isinstance(value, bool):
            fail(path, _("must be true or false, not %(value)s") % {"value": show(value)})
        return value

    def schema(self):
        schema = _or_null({"type": "boolean"})
        if self.default is not None:
            schema["default"] = self.default
        return schema


@dataclass(frozen=True)
class Choice(Value):
    """One of `options` (from the model's TextChoices). Null is `default` when there is one,
    "is required" when `required`, and otherwise refused as not one of the options. `blank`:
    "" is allowed too. `message` replaces the usual one (gettext_noop'd)."""

    options: tuple
    default: str | None = None
    required: bool = False
    blank: bool = False
    message: str = ""

    def read(self, path, value):
        if value is None:
            if self.required:
                fail(path, _("is required"))
            if self.default is not None:
                return self.default
        if value in self.options or (self.blank and value == ""):
            return value
        template = _(self.message) if self.message else _("%(value)s is not one of %(options)s")
        fail(path, template % {"value": show(value), "options": ", ".join(self.options)})

    def needed(self):
        return self.required or self.default is None

    def schema(self):
        options = [*self.options, ""] if self.blank else list(self.options)
        if self.needed():
            return {"enum": options}
        return {"enum": [*options, None], "default": self.default}


_DATE_EMPTY = [{"const": ""}, {"type": "null"}]


def _on_the_calendar(path, value, moment):
    if not within_calendar(moment):
        fail(
            path,
            _("%(value)s is not between %(earliest)s and %(latest)s")
            % {"value": show(value), "earliest": EARLIEST, "latest": LATEST},
        )


@dataclass(frozen=True)
class Date(Value):
    def read(self, path, value):
        if value is None or value == "":
            return None
        try:
            if not isinstance(value, str):
                raise ValueError
            day = date.fromisoformat(value)
        except ValueError:
            fail(path, _("%(value)s is not a date like 2026-02-17") % {"value": show(value)})
        _on_the_calendar(path, value, day)
        return day

    def schema(self):
        return {"anyOf": [{"type": "string", "format": "date"}, *_DATE_EMPTY]}


@dataclass(frozen=True)
class DateTime(Value):
    """An ISO 8601 time with an offset; null and "" are no time (refused when `required`)."""

    required: bool = False

    def read(self, path, value):
        moment = None
        if value is not None and value != "":
            try:
                if not isinstance(value, str):
                    raise ValueError
                moment = datetime.fromisoformat(value)
            except ValueError:
                fail(
                    path,
                    _("%(value)s is not a time like 2026-02-17T12:20:00+01:00")
                    % {"value": show(value)},
                )
            if timezone.is_naive(moment):
                fail(path, _("%(value)s has no offset from UTC") % {"value": show(value)})
            _on_the_calendar(path, value, moment)
        if moment is None and self.required:
            fail(path, _("is required"))
        return moment

    def schema(self):
        schema = {"type": "string", "format": "date-time"}
        return schema if self.required else {"anyOf": [schema, *_DATE_EMPTY]}


def _decimal(value) -> Decimal | None:
    """A JSON number as a finite Decimal with at most two decimals, else None."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    if not number.is_finite() or number != number.quantize(Decimal("0.01")):
        return None
    return number


@dataclass(frozen=True)
class Fee(Value):
    """An entry fee or deposit: from 0, below `limit` (the model's digits); null is 0."""

    limit: Decimal

    def read(self, path, value):
        if value is None:
            return Decimal(0)
        fee = _decimal(value)
        if fee is None or fee < 0 or fee >= self.limit:
            fail(
                path,
                _("%(value)s is not an amount from 0 with at most two decimals")
                % {"value": show(value)},
            )
        return fee

    def schema(self):
        # No multipleOf 0.01: validators test it in binary floating point and refuse 0.07.
        return _or_null({"type": "number", "minimum": 0, "exclusiveMaximum": int(self.limit)})


@dataclass(frozen=True)
class Amount(Value):
    """A penalty's amount (null: from the rule set); its sign is the rule set's concern."""

    limit: Decimal

    def read(self, path, value):
        if value is None:
            return None
        amount = _decimal(value)
        if amount is None or abs(amount) >= self.limit:
            fail(
                path,
                _("%(value)s is not a number with at most two decimals") % {"value": show(value)},
            )
        return amount

    def schema(self):
        limit = int(self.limit)
        return _or_null({"type": "number", "exclusiveMinimum": -limit, "exclusiveMaximum": limit})


@dataclass(frozen=True)
class Obj(Value):
    """An object of named values; keys it does not name are ignored. Null is {} unless
    `required`."""

    fields: dict = field(default_factory=dict)
    required: bool = True

    def read(self, path, value) -> dict:
        if value is None and not self.required:
            return {}
        if not isinstance(value, dict):
            fail(path, _("must be an object, not %(value)s") % {"value": show(value)})
        return value

    def schema(self):
        schema = {"type": "object"}
        if self.fields:
            schema["properties"] = {name: kind.schema() for name, kind in self.fields.items()}
            needed = [name for name, kind in self.fields.items() if kind.needed()]
            if needed:
                schema["required"] = needed
        return schema if self.required else _or_null(schema)


@dataclass(frozen=True)
class Map(Value):
    """An object whose keys are the file's (player keys) and whose values are all `value`."""

    value: Value

    def read(self, path, value) -> dict:
        return Obj(required=True).read(path, value)

    def schema(self):
        return {"type": "object", "additionalProperties": self.value.schema()}


@dataclass(frozen=True)
class List(Value):
    """A list of `items`; null is empty unless `required`; at most `max_items` when given."""

    items: Value
    required: bool = False
    max_items: int | None = None

    def read(self, path, value) -> list:
        if value is None:
            if self.required:
                fail(path, _("is required"))
            return []
        if not isinstance(value, list):
            fail(path, _("must be a list, not %(value)s") % {"value": show(value)})
        if self.max_items is not None and len(value) > self.max_items:
            fail(
                path,
                _("has %(count)d items, at most %(max)d")
                % {"count": len(value), "max": self.max_items},
            )
        return value

    def schema(self):
        schema = {"type": "array", "items": self.items.schema()}
        if self.max_items is not None:
            schema["maxItems"] = self.max_items
        return schema if self.required else _or_null(schema)


@dataclass(frozen=True)
class Checked(Value):
    """An object stored whole in one model field (a hand: scoring.models.Hand.data), read
    through that field's validators, so the file takes what the field takes; its meaning is
    another module's to check (the hand arithmetic). `form`: its JSON Schema."""

    field: object  # the model field
    form: dict

    def read(self, path, value):
        try:
            for validator in self.field.validators:
                validator(value)
        except ValidationError as e:
            fail(path, " ".join(e.messages))
        return value

    def schema(self):
        return dict(self.form)


@dataclass(frozen=True)
class Ref(Value):
    """A reference the reader resolves: its form here, its meaning in the file."""

    form: dict
    required: bool = False
    description: str = ""

    def read(self, path, value):
        raise TypeError(f"{path}: a reference is resolved by the reader")

    def schema(self):
        schema = dict(self.form)
        if self.description:
            schema["description"] = self.description
        return schema if self.required else _or_null(schema)


class Record:
    """One object of the file; a value is read through its declaration when the reader asks
    for it, so problems are reported in the reader's order."""

    def __init__(self, spec: Obj, path: str, value):
        self.spec = spec
        self.path = path
        self.data = spec.read(path, value)

    def at(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def get(self, name: str):
        """The value as the file has it (for references, which the reader resolves)."""
        return self.data.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self.data

    def __getitem__(self, name: str):
        kind = self.spec.fields[name]
        return kind.read(self.at(name), self.data.get(name, kind.missing))

    def check(self, *names: str):
        """Refuse the file unless these values are as declared."""
        for name in names:
            self[name]

    def require(self, name: str):
        """The value as the file has it; "is required" when it is null or left out."""
        if self.data.get(name) is None:
            fail(self.at(name), _("is required"))
        return self.data[name]

    def items(self, name: str) -> list:
        """(path, item) of each item of the list `name`."""
        return [(f"{self.at(name)}[{i}]", item) for i, item in enumerate(self[name])]


@dataclass(frozen=True)
class Zone(Value):
    """An IANA time zone such as Europe/Kyiv; left out or null: the importing desk's default."""

    def read(self, path, value):
        if value is None or value == "":
            return default_zone()
        if not isinstance(value, str) or value not in zone_names():
            fail(
                path, _("%(value)s is not a time zone such as Europe/Kyiv") % {"value": show(value)}
            )
        return value

    def schema(self):
        return {
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "description": "an IANA time zone; when left out, the importing desk's own",
        }
