"""A tournament file's content as an import plan: `parse` the text, `Reader(data).read()` check
it all and turn it into plain data for create.py. It reads the database (a slug that is taken)
but writes nothing, and stops at the first problem, naming its place in the file.

Each value is read through its declaration in schema.py; what is checked here is what a value
means with the rest of the file: references to players, sessions, tables and records, scores
that hold under the file's rule set, a table's history against its seats.
"""

from __future__ import annotations

import json
import zlib

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import rule_message
from mahjong import clock
from mahjong.messages import RuleError
from mahjong.presets import rules_overrides, ruleset_from
from tournament import timekeeping
from tournament.models import RESERVED_SLUGS, Tournament
from tournament.services import unique_slug

from . import schema
from .errors import TournamentFileError, show
from .plan import Session
from .records import RecordsReader
from .tables import TablesReader
from .values import Record, fail


class _Twice(Exception):
    """A JSON object with a key twice: json would keep the last value without a word."""


def _once_each(pairs) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen = set()
        for key, _value in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return data


# What a file sent over the network may unpack to, checked while it unpacks (a small gzip can
# unpack to gigabytes): the federation server's and the standby desk's limit.
UNPACKED_LIMIT = 20 * 1024 * 1024


def unpacked(body: bytes, limit: int = UNPACKED_LIMIT) -> bytes:
    """The gzip body unpacked; TournamentFileError if it is not gzip or unpacks past the
    limit (stopped there, never unpacked whole)."""
    unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = unpacker.decompress(body, limit + 1)
    except zlib.error as e:
        raise TournamentFileError(
            "", _("The body is not gzip: %(problem)s") % {"problem": e}
        ) from e
    if len(data) > limit:
        raise TournamentFileError(
            "",
            _("The file unpacks to more than %(limit)d MB.") % {"limit": limit // (1024 * 1024)},
        )
    if not unpacker.eof:
        raise TournamentFileError("", _("The body is not gzip: it ends before its end."))
    return data


def parse(content) -> dict:
    """The file's JSON object, from its bytes or text (a dict is taken as it is)."""
    if isinstance(content, dict):
        return content
    if isinstance(content, (bytes, bytearray, memoryview)):
        try:
            content = bytes(content).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise TournamentFileError(
                "", _("The file is not UTF-8 text (byte %(at)d).") % {"at": e.start}
            ) from e
    if not isinstance(content, str):
        raise TournamentFileError("", _("The file is not JSON text."))
    content = content.lstrip("\ufeff")

    def no_constants(name):
        raise ValueError(name)

    try:
        data = json.loads(content, parse_constant=no_constants, object_pairs_hook=_once_each)
    except json.JSONDecodeError as e:
        raise TournamentFileError(
            "",
            _("The file is not valid JSON: %(problem)s at line %(line)d, column %(column)d.")
            % {"problem": e.msg, "line": e.lineno, "column": e.colno},
        ) from e
    except _Twice as e:
        raise TournamentFileError(
            "",
            _("The file gives the key %(key)s twice in one object.") % {"key": show(e.args[0])},
        ) from e
    except RecursionError as e:
        raise TournamentFileError("", _("The file is nested too deeply to be a tournament.")) from e
    except ValueError as e:
        raise TournamentFileError(
            "", _("The file is not valid JSON: %(value)s is not a number.") % {"value": e}
        ) from e
    if not isinstance(data, dict):
        raise TournamentFileError("", _("The file must hold one JSON object."))
    return data


def _rule_error(e: RuleError) -> TournamentFileError:
    if e.field == "ruleset":
        path = "tournament.ruleset"
    elif e.field == "rules":
        path = "tournament.rules"
    else:
        path = f"tournament.rules.{e.field}"
    return TournamentFileError(path, rule_message(e))


class Reader(RecordsReader, TablesReader):
    """Checks a whole file and turns it into an import plan; raises on the first problem.

    The plan: `tournament`, `players` (dicts of model fields), `sessions` (Session, with their
    Table and Version: tables.py), and the referee's records (records.py)."""

    def __init__(self, data: dict, replacing: Tournament | None = None):
        self.data = data
        self.replacing = replacing  # a restore deletes it first: its slug is not taken

    def read(self):
        file = Record(schema.FILE, "", self.data)
        file.check("format", "version")  # nothing else is read from another format
        self.now = timezone.now()
        self.read_tournament(Record(schema.TOURNAMENT, "tournament", file.get("tournament")))
        self.read_players(file.items("players"))
        self.read_sessions(file.items("sessions"))
        self.read_penalties(file.items("penalties"))
        self.read_voided_penalties(file.items("voided_penalties"))
        self.read_incidents(file.items("incidents"))
        self.read_appeals(file.items("appeals"))
        self.read_rule_changes(file.items("rule_changes"))
        return self

    def read_tournament(self, head: Record):
        name = head["name"]
        ruleset = head.require("ruleset")
        # The rule set checks its overrides itself, naming the field (tournament.rules.uma).
        rules = head.get("rules")
        if rules is None:
            rules = {}
        try:
            self.rules = ruleset_from(ruleset, rules)
            overrides = rules_overrides(self.rules)
        except RuleError as e:
            raise _rule_error(e) from e
        slug = head["slug"]
        taken = Tournament.objects.filter(slug=slug)
        if self.replacing is not None:
            taken = taken.exclude(pk=self.replacing.pk)
        if slug is None:
            slug = unique_slug(name, head.get("language") or "")
        elif slug in RESERVED_SLUGS:  # its desk pages would be hidden behind the desk's own
            fail(
                "tournament.slug",
                _("%(value)s is the address of a desk page; give the tournament another slug")
                % {"value": show(slug)},
            )
        elif taken.exists():
            fail(
                "tournament.slug",
                _("a tournament with the slug %(value)s already exists") % {"value": show(slug)},
            )
        self.tournament = {
            "name": name,
            "slug": slug,
            "ruleset": ruleset,
            "rules": overrides,
            "planned_sessions": head["sessions"],
            **{
                key: head[key]
                for key in (
                    "fee",
                    "start_date",
                    "end_date",
                    "venue",
                    "scope",
                    "single_confirmation",
                    "keep_apart",
                    "language",
                    "time_zone",
                    "release_by_session",
                    "mers_qualification",
                    "winds",
                    "finished_at",
                    "reopened_at",
                )
            },
        }
        # Who finished and reopened it: user names, looked up on this desk (create.py).
        self.finish = {
            "finished_by": head["finished_by"] if self.tournament["finished_at"] else None,
            "reopened_by": head["reopened_by"] if self.tournament["reopened_at"] else None,
        }
        self.tournament["reopen_reason"] = head["reopen_reason"] if head["reopened_at"] else ""

    def read_players(self, items):
        self.players = []
        self.player_keys = {}
        names = {}
        for i, (path, item) in enumerate(items):
            p = Record(schema.PLAYER, path, item)
            key = p["key"]
            if key in self.player_keys:
                fail(
                    p.at("key"),
                    _("%(key)s is already the key of players[%(other)d]")
                    % {"key": show(key), "other": self.player_keys[key]},
                )
            name = p["name"]
            if name in names:
                fail(
                    p.at("name"),
                    _("%(name)s is already the name of players[%(other)d]")
                    % {"name": show(name), "other": names[name]},
                )
            ema_id = p["ema_id"]
            self.player_keys[key] = i
            names[name] = i
            self.players.append(
                {
                    "key": key,
                    "name": name,
                    **{part: p[part] for part in schema.NAME_PARTS},
                    "ema_id": ema_id,
                    **{key: p[key] for key in ("country", "club", "team", "substitute", "status")},
                    "checked_in": p["checked_in"],
                }
            )

    def player_ref(self, path, value):
        if not isinstance(value, str) or value.strip() not in self.player_keys:
            fail(path, _("%(value)s is not the key of a player") % {"value": show(value)})
        return value.strip()

    def read_sessions(self, items):
        self.sessions = []
        numbers = {}
        for i, (path, item) in enumerate(items):
            s = Record(schema.SESSION, path, item)
            number = s["number"]
            if number in numbers:
                fail(
                    s.at("number"),
                    _("session %(number)d is already sessions[%(other)d]")
                    % {"number": number, "other": numbers[number]},
                )
            numbers[number] = i
            seed = s["seed"]
            session = Session(number=number, method=s["method"], seed=seed, ended_at=s["ended_at"])
            self.read_tables(session, s.items("tables"))
            if s.get("clock") is not None:
                self.read_clock(session, Record(schema.CLOCK, s.at("clock"), s.get("clock")))
            self.sessions.append(session)
        self.session_by_number = {s.number: s for s in self.sessions}
        if self.tournament["planned_sessions"] is None:
            self.tournament["planned_sessions"] = max([4, *numbers])

    def read_clock(self, session, c: Record):
        session.length_seconds = c["length_seconds"]
        session.warning_seconds = c["warning_seconds"]
        events = []
        for path, item in c.items("events"):
            e = Record(schema.CLOCK_EVENT, path, item)
            kind, at, seconds, table = e["kind"], e["at"], e["seconds"], e["table"]
            if events and at < events[-1][1]:
                fail(e.at("at"), _("the clock's events must be in time order"))
            try:
                clock.check(
                    [clock.Event(k, a, sec, t) for k, a, sec, t, _b in events]
                    + [clock.Event(kind, at, seconds, table)]
                )
            except clock.ClockError as error:
                fail(path, str(timekeeping.REFUSALS.get(error.code, error.code)))
            events.append((kind, at, seconds, table, e["by"]))
        session.clock = events
