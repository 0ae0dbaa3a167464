"""Reading, writing and creating tournament files (being split by job)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.validators import slug_re
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Penalty, Result, ResultScore
from scoring.penalties import KINDS, LATE, MINOR, OTHER, STAGES, resolve
from scoring.rules import RuleError, rules_overrides, ruleset_from, validate_scores
from seating.models import WINDS, Seat, Table
from tournament import clock, timekeeping
from tournament.models import (
    Appeal,
    ClockEvent,
    Incident,
    Player,
    RuleChange,
    Session,
    Tournament,
)
from tournament.services import touch, unique_slug

FORMAT = "mahjong-tournament"
VERSION = 1

PLAYER_STATUSES = [c.value for c in Player.Status]
RESULT_STATUSES = [c.value for c in Result.Status]
JOINED = [c.value for c in Seat.Joined]
METHODS = [c.value for c in Session.Method]
KEEP_APART = ["", "club", "country", "team"]
SCOPES = [c.value for c in Tournament.Scope]
LANGUAGES = [code for code, _name in settings.LANGUAGES]
INCIDENT_KINDS = [c.value for c in Incident.Kind]
APPEAL_STATUSES = [c.value for c in Appeal.Status]
BODIES = [c.value for c in Appeal.Body]

SMALL_MAX = 32767  # PositiveSmallIntegerField
SCORE_LIMIT = 10**9
CHOMBO_MAX = 99
NOTE_MAX = Result._meta.get_field("note").max_length
PENALTY_NOTE_MAX = Penalty._meta.get_field("note").max_length
VOID_REASON_MAX = Penalty._meta.get_field("void_reason").max_length
SUBJECT_MAX = Appeal._meta.get_field("subject").max_length
LATE_OVERRIDE_MAX = Appeal._meta.get_field("late_override").max_length
LONG_TEXT_MAX = 100_000  # incident and appeal texts, decisions
AMOUNT_LIMIT = Decimal(10) ** 10  # Penalty.amount: 12 digits, 2 of them decimals
USERNAME_RE = re.compile(r"^[\w.@+-]{1,150}\Z")
# Names of users missing on the importing desk, kept at the end of a note or reason.
IMPORT_MARK = re.compile(r"\s*\[imported: (?P<body>[^\[\]]*)\]\Z")
ROLES = ("entered", "confirmed", "changed", "recorded", "voided")
# Keys of an incident's `undo` that hold database ids, written as file references.
UNDO_PLAYERS = ("player", "replaces", "now", "substitute")


class TournamentFileError(Exception):
    """The first problem found in a tournament file, with the JSON path of the value."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


# --- export -----------------------------------------------------------------------------------


def _number(value):
    """A Decimal or float as an int when whole, else a float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _iso(moment: datetime | None):
    return timezone.localtime(moment).isoformat() if moment else None


def _split_mark(text: str) -> tuple[str, dict]:
    """(text without the import mark, role → user name) of a note or reason."""
    match = IMPORT_MARK.search(text or "")
    if not match:
        return text or "", {}
    names = {}
    for part in match["body"].split("; "):
        role, _sep, name = part.partition(" by ")
        if role in ROLES and name:
            names[role] = name
    return text[: match.start()], names


def _with_mark(text: str, names: dict, limit: int | None) -> str:
    parts = [f"{role} by {names[role]}" for role in ROLES if names.get(role)]
    if not parts:
        return text
    mark = "[imported: " + "; ".join(parts) + "]"
    if limit is not None:
        room = limit - len(mark) - 1
        if len(text) > room:
            text = text[: max(room - 1, 0)] + "…"
    return f"{text} {mark}" if text else mark


def _clock_row(session) -> dict:
    """The session clock's own length and its history, or {} when there is none."""
    row = {}
    if session.length_seconds is not None:
        row["length_seconds"] = session.length_seconds
    if session.warning_seconds is not None:
        row["warning_seconds"] = session.warning_seconds
    events = [
        {
            "kind": e.kind,
            "at": _iso(e.at),
            "seconds": e.seconds,
            "table": e.table,
            "by": e.by.get_username() if e.by else None,
        }
        for e in session.clock_events.select_related("by").order_by("at", "id")
    ]
    if events:
        row["events"] = events
    return row


def _username(user, fallback):
    return user.get_username() if user is not None else fallback


def export_tournament(tournament: Tournament) -> dict:
    """The tournament as a version 1 tournament file (a dict ready for json.dumps)."""
    t = tournament
    head = {
        "name": t.name,
        "slug": t.slug,
        "ruleset": t.ruleset,
        "rules": t.rules or {},
        "sessions": t.planned_sessions,
        "fee": _number(t.fee),
    }
    if t.start_date:
        head["start_date"] = t.start_date.isoformat()
    if t.end_date:
        head["end_date"] = t.end_date.isoformat()
    head.update(
        venue=t.venue,
        scope=t.scope,
        single_confirmation=t.single_confirmation,
        keep_apart=t.keep_apart,
        language=t.language,
    )

    players = list(Player.objects.filter(tournament=t).order_by("pk"))
    keys = {p.pk: p.key for p in players}

    results_by_table = {}
    results = list(
        Result.objects.filter(table__session__tournament=t)
        .select_related("entered_by", "confirmed_by")
        .order_by("table_id", "version")
    )
    for result in results:
        results_by_table.setdefault(result.table_id, []).append(result)
    # Scores after results: a result and its scores are saved in one transaction, so every
    # result read above has its scores here even if a draft is saved meanwhile.
    # Scores, seats and tables as plain rows, not model instances: a backup is written after
    # every confirmation, and building thousands of instances was most of its time.
    scores_by_result = {}
    scores = ResultScore.objects.filter(result__table__session__tournament=t)
    for score in scores.values_list(
        "result_id", "wind", "player_id", "score", "chombo", named=True
    ):
        scores_by_result.setdefault(score.result_id, {})[score.wind] = score
    seats_by_table = {}
    seat_fields = ("pk", "table_id", "wind", "player_id", "replaces_id", "joined")
    for seat in Seat.objects.filter(session__tournament=t).values_list(*seat_fields, named=True):
        seats_by_table.setdefault(seat.table_id, []).append(seat)
    tables_by_session = {}
    tables = Table.objects.filter(session__tournament=t).order_by("number")
    for table in tables.values_list("pk", "number", "session_id", named=True):
        tables_by_session.setdefault(table.session_id, []).append(table)

    def score_row(score):
        return {
            "wind": score.wind,
            "player": keys[score.player_id],
            "score": score.score,
            "chombo": score.chombo,
        }

    def version_row(result):
        note, names = _split_mark(result.note)
        return {
            "version": result.version,
            "status": result.status,
            "entered_by": _username(result.entered_by, names.get("entered")),
            "entered_at": _iso(result.entered_at),
            "confirmed_by": _username(result.confirmed_by, names.get("confirmed")),
            "confirmed_at": _iso(result.confirmed_at),
            "superseded_at": _iso(result.superseded_at),
            "note": note,
            "scores": [
                score_row(s)
                for s in sorted(
                    scores_by_result.get(result.pk, {}).values(),
                    key=lambda s: WINDS.index(s.wind),
                )
            ],
        }

    def table_row(table):
        versions = results_by_table.get(table.pk, [])
        shown = next((r for r in versions if r.status == Result.Status.CONFIRMED), None)
        if shown is None:
            drafts = [r for r in versions if r.status == Result.Status.DRAFT]
            shown = drafts[-1] if drafts else None
        shown_scores = scores_by_result.get(shown.pk, {}) if shown else {}
        row = {"number": table.number}
        if shown is not None and shown.status == Result.Status.DRAFT:
            row["status"] = "draft"
        seats = []
        for seat in sorted(seats_by_table.get(table.pk, []), key=lambda s: WINDS.index(s.wind)):
            out = {"wind": seat.wind, "player": keys[seat.player_id]}
            score = shown_scores.get(seat.wind)
            if score is not None and score.score is not None:
                out["score"] = score.score
                out["chombo"] = score.chombo
            if seat.replaces_id is not None:
                out["replaces"] = keys[seat.replaces_id]
            if seat.replaces_id is not None or seat.joined != Seat.Joined.START:
                out["joined"] = seat.joined
            seats.append(out)
        row["seats"] = seats
        if versions:
            row["history"] = [version_row(r) for r in versions]
        return row

    sessions = []
    session_numbers = {}
    for session in Session.objects.filter(tournament=t).order_by("number"):
        session_numbers[session.pk] = session.number
        row = {"number": session.number, "method": session.method}
        if session.seed is not None:
            row["seed"] = session.seed
        if session.ended_at is not None:
            row["ended_at"] = _iso(session.ended_at)
        clock_row = _clock_row(session)
        if clock_row:
            row["clock"] = clock_row
        row["tables"] = [table_row(table) for table in tables_by_session.get(session.pk, [])]
        sessions.append(row)

    rule_changes = []
    changes = RuleChange.objects.filter(tournament=t).select_related("changed_by")
    for change in changes.order_by("changed_at", "pk"):
        reason, names = _split_mark(change.reason)
        rule_changes.append(
            {
                "changed_by": _username(change.changed_by, names.get("changed")),
                "changed_at": _iso(change.changed_at),
                "old_ruleset": change.old_ruleset,
                "old_rules": change.old_rules,
                "new_ruleset": change.new_ruleset,
                "new_rules": change.new_rules,
                "reason": reason,
            }
        )

    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": head,
        "players": [
            {
                "key": p.key,
                "name": p.name,
                "ema_id": p.ema_id,
                "country": p.country,
                "club": p.club,
                "team": p.team,
                "substitute": p.substitute,
                "status": p.status,
                "checked_in": p.checked_in,
            }
            for p in players
        ],
        "sessions": sessions,
        **_export_records(t, keys, session_numbers, tables_by_session, seats_by_table),
        "rule_changes": rule_changes,
    }


def _export_records(t, keys, session_numbers, tables_by_session, seats_by_table) -> dict:
    """The referee's records: `penalties`, `voided_penalties`, `incidents` and `appeals`."""
    tables = {}  # table id → (session id, number)
    for session_id, session_tables in tables_by_session.items():
        for table in session_tables:
            tables[table.pk] = (session_id, table.number)
    seats = {}  # seat id → {session, table, wind}
    for table_id, table_seats in seats_by_table.items():
        for seat in table_seats:
            session_id, number = tables[table_id]
            seats[seat.pk] = {
                "session": session_numbers[session_id],
                "table": number,
                "wind": seat.wind,
            }

    def table_number(table_id, session_id):
        """The table's number when it is a table of the record's session, else None."""
        where = tables.get(table_id)
        return where[1] if where and where[0] == session_id else None

    def times(record, row, names):
        row["recorded_by"] = _username(record.recorded_by, names.get("recorded"))
        row["recorded_at"] = _iso(record.recorded_at)
        return row

    def void(record, row, names):
        row["voided_by"] = _username(record.voided_by, names.get("voided"))
        row["voided_at"] = _iso(record.voided_at)
        row["void_reason"] = record.void_reason
        return row

    def penalty_row(p):
        note, names = _split_mark(p.note)
        row = {"session": session_numbers[p.session_id], "player": keys[p.player_id]}
        row["kind"] = p.kind
        if p.kind == LATE and p.minutes is not None:
            row["minutes"] = p.minutes
        if p.amount is not None:
            row["amount"] = _number(p.amount)
        if note:
            row["note"] = note
        number = table_number(p.table_id, p.session_id)
        if number is not None:
            row["table"] = number
        if p.kind == OTHER and p.stage:
            row["stage"] = p.stage
        times(p, row, names)
        if p.voided_at is not None:
            void(p, row, names)
        return row

    penalties = (
        Penalty.objects.filter(session__tournament=t)
        .select_related("recorded_by", "voided_by")
        .order_by("recorded_at", "pk")
    )
    live, voided, where = [], [], {}
    for p in penalties:
        listed = voided if p.voided_at is not None else live
        where[p.pk] = ("voided_penalty" if listed is voided else "penalty", len(listed))
        listed.append(penalty_row(p))

    def undo_out(undo):
        if not isinstance(undo, dict):
            return undo
        out = {}
        for name, value in undo.items():
            if name in UNDO_PLAYERS:
                value = keys.get(value) if _is_int(value) else None
            elif name == "table":
                where_ = tables.get(value) if _is_int(value) else None
                value = (
                    {"session": session_numbers[where_[0]], "table": where_[1]} if where_ else None
                )
            elif name == "seat":
                value = seats.get(value) if _is_int(value) else None
            elif name == "winds" and isinstance(value, dict):
                value = {
                    keys[int(pk)]: wind
                    for pk, wind in value.items()
                    if str(pk).isdigit() and int(pk) in keys
                }
            out[name] = value
        return out

    incidents, incident_index = [], {}
    records = (
        Incident.objects.filter(tournament=t)
        .select_related("recorded_by", "voided_by")
        .order_by("recorded_at", "pk")
    )
    for i in records:
        text, names = _split_mark(i.text)
        incident_index[i.pk] = len(incidents)
        row = {
            "kind": i.kind,
            "session": session_numbers.get(i.session_id),
            "table": table_number(i.table_id, i.session_id),
            "player": keys.get(i.player_id),
            "substitute": keys.get(i.substitute_id),
            "text": text,
            "undo": undo_out(i.undo),
        }
        incidents.append(void(i, times(i, row, names), names))

    appeals = []
    records = (
        Appeal.objects.filter(tournament=t).select_related("recorded_by").order_by("filed_at", "pk")
    )
    for a in records:
        text, names = _split_mark(a.text)
        row = {"session": session_numbers[a.session_id]}
        number = table_number(a.table_id, a.session_id)
        if number is not None:
            row["table"] = number
        row.update(
            appellant=keys[a.appellant_id],
            filed_at=_iso(a.filed_at),
            subject=a.subject,
            deposit=_number(a.deposit),
            status=a.status,
            decision=a.decision,
            decided_by=a.decided_by,
            captain=a.captain,
            text=text,
            decided_at=_iso(a.decided_at),
            deposit_returned=a.deposit_returned,
            late_override=a.late_override,
            recorded_by=_username(a.recorded_by, names.get("recorded")),
        )
        if a.penalty_id in where:
            name, index = where[a.penalty_id]
            row[name] = index
        if a.incident_id in incident_index:
            row["incident"] = incident_index[a.incident_id]
        appeals.append(row)

    return {
        "penalties": live,
        "voided_penalties": voided,
        "incidents": incidents,
        "appeals": appeals,
    }


def dumps(data: dict) -> str:
    """The file's text: UTF-8 friendly (no \\u escapes), indented, ending with a newline."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --- reading values ---------------------------------------------------------------------------


def _show(value) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(path, message):
    raise TournamentFileError(path, message)


def _object(path, value, required=True) -> dict:
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        _fail(path, _("must be an object, not %(value)s") % {"value": _show(value)})
    return value


def _list(path, value, required=False) -> list:
    if value is None:
        if required:
            _fail(path, _("is required"))
        return []
    if not isinstance(value, list):
        _fail(path, _("must be a list, not %(value)s") % {"value": _show(value)})
    return value


def _text(path, value, max_length, required=False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        _fail(path, _("must be text, not %(value)s") % {"value": _show(value)})
    value = value.strip()
    if required and not value:
        _fail(path, _("is required"))
    if len(value) > max_length:
        _fail(path, _("is longer than %(max)d characters") % {"max": max_length})
    return value


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(path, value, minimum, maximum) -> int:
    if not _is_int(value) or not minimum <= value <= maximum:
        _fail(
            path,
            _("%(value)s is not a whole number from %(min)d to %(max)d")
            % {"value": _show(value), "min": minimum, "max": maximum},
        )
    return value


def _bool(path, value, default=False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        _fail(path, _("must be true or false, not %(value)s") % {"value": _show(value)})
    return value


def _choice(path, value, options, default) -> str:
    if value is None:
        return default
    if value not in options:
        _fail(
            path,
            _("%(value)s is not one of %(options)s")
            % {"value": _show(value), "options": ", ".join(options)},
        )
    return value


def _date(path, value):
    if value is None or value == "":
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        _fail(path, _("%(value)s is not a date like 2026-02-17") % {"value": _show(value)})


def _datetime(path, value):
    if value is None or value == "":
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        moment = datetime.fromisoformat(value)
    except ValueError:
        _fail(
            path,
            _("%(value)s is not a time like 2026-02-17T12:20:00+01:00") % {"value": _show(value)},
        )
    if timezone.is_naive(moment):
        _fail(path, _("%(value)s has no offset from UTC") % {"value": _show(value)})
    return moment


def _username_value(path, value):
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not USERNAME_RE.match(value):
        _fail(path, _("%(value)s is not a user name") % {"value": _show(value)})
    return value


def _fee(path, value) -> Decimal:
    if value is None:
        return Decimal(0)
    try:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise InvalidOperation
        fee = Decimal(str(value))
    except InvalidOperation:
        fee = None
    if (
        fee is None
        or not fee.is_finite()
        or fee < 0
        or fee >= Decimal("1000000")
        or fee != fee.quantize(Decimal("0.01"))
    ):
        _fail(
            path,
            _("%(value)s is not an amount from 0 with at most two decimals")
            % {"value": _show(value)},
        )
    return fee


def _amount(path, value) -> Decimal:
    """A penalty's amount: a number with at most two decimals (its sign is the rules' concern)."""
    try:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise InvalidOperation
        amount = Decimal(str(value))
    except InvalidOperation:
        amount = None
    if (
        amount is None
        or not amount.is_finite()
        or abs(amount) >= AMOUNT_LIMIT
        or amount != amount.quantize(Decimal("0.01"))
    ):
        _fail(
            path,
            _("%(value)s is not a number with at most two decimals") % {"value": _show(value)},
        )
    return amount


def _index(path, value, items, name):
    """The index of an entry of the file's list `name` (None when absent)."""
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value < len(items):
        if not items:
            _fail(
                path,
                _("%(value)s: the file's %(name)s is empty")
                % {"value": _show(value), "name": name},
            )
        _fail(
            path,
            _("%(value)s is not the index of an entry of %(name)s (0 to %(last)d)")
            % {"value": _show(value), "name": name, "last": len(items) - 1},
        )
    return value


def _rule_message(e: RuleError) -> str:
    message = _(e.template)
    return message.format(**e.params) if e.params else message


def _rule_error(e: RuleError) -> TournamentFileError:
    if e.field == "ruleset":
        path = "tournament.ruleset"
    elif e.field == "rules":
        path = "tournament.rules"
    else:
        path = f"tournament.rules.{e.field}"
    return TournamentFileError(path, _rule_message(e))


def _problem_message(problem) -> str:
    template = getattr(problem, "template", None)
    if template is None:
        return _(problem[1])
    message = _(template)
    return message.format(**problem.params) if problem.params else message


# --- import plan ------------------------------------------------------------------------------


@dataclass
class _Version:
    version: int
    status: str
    entered_by: str | None
    entered_at: datetime | None
    confirmed_by: str | None
    confirmed_at: datetime | None
    superseded_at: datetime | None
    note: str
    scores: list  # (wind, player key, score, chombo)
    by_importer: bool = False


@dataclass
class _Table:
    number: int
    seats: list  # (wind, player key, replaces key or None, joined)
    versions: list = field(default_factory=list)


@dataclass
class _Session:
    number: int
    method: str
    seed: int | None
    ended_at: datetime | None = None
    tables: list = field(default_factory=list)
    length_seconds: int | None = None
    warning_seconds: int | None = None
    clock: list = field(default_factory=list)  # (kind, at, seconds, table, user name)


def _parse(content) -> dict:
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
        data = json.loads(content, parse_constant=no_constants)
    except json.JSONDecodeError as e:
        raise TournamentFileError(
            "",
            _("The file is not valid JSON: %(problem)s at line %(line)d, column %(column)d.")
            % {"problem": e.msg, "line": e.lineno, "column": e.colno},
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


class _Reader:
    """Checks a whole file and turns it into an import plan; raises on the first problem."""

    def __init__(self, data: dict):
        self.data = data

    def read(self):
        data = self.data
        if data.get("format") != FORMAT:
            _fail(
                "format",
                _("%(value)s is not %(expected)s")
                % {"value": _show(data.get("format")), "expected": _show(FORMAT)},
            )
        version = data.get("version")
        if not _is_int(version) or version != VERSION:
            _fail(
                "version",
                _("version %(value)s is not supported; this desk reads version %(expected)d")
                % {"value": _show(version), "expected": VERSION},
            )
        self.now = timezone.now()
        self.read_tournament(_object("tournament", data.get("tournament")))
        self.read_players(_list("players", data.get("players")))
        self.read_sessions(_list("sessions", data.get("sessions")))
        self.read_penalties(_list("penalties", data.get("penalties")))
        self.read_voided_penalties(_list("voided_penalties", data.get("voided_penalties")))
        self.read_incidents(_list("incidents", data.get("incidents")))
        self.read_appeals(_list("appeals", data.get("appeals")))
        self.read_rule_changes(_list("rule_changes", data.get("rule_changes")))
        return self

    def read_tournament(self, head):
        name = _text("tournament.name", head.get("name"), 200, required=True)
        ruleset = head.get("ruleset")
        if ruleset is None:
            _fail("tournament.ruleset", _("is required"))
        rules = head.get("rules")
        if rules is None:
            rules = {}
        try:
            self.rules = ruleset_from(ruleset, rules)
            overrides = rules_overrides(self.rules)
        except RuleError as e:
            raise _rule_error(e) from e
        slug = head.get("slug")
        if slug in (None, ""):
            slug = unique_slug(name)
        else:
            if not isinstance(slug, str) or not slug_re.match(slug) or len(slug) > 80:
                _fail(
                    "tournament.slug",
                    _("%(value)s is not a slug (letters, digits, - and _; at most 80)")
                    % {"value": _show(slug)},
                )
            if Tournament.objects.filter(slug=slug).exists():
                _fail(
                    "tournament.slug",
                    _("a tournament with the slug %(value)s already exists")
                    % {"value": _show(slug)},
                )
        planned = head.get("sessions")
        if planned is not None:
            planned = _int("tournament.sessions", planned, 1, SMALL_MAX)
        self.tournament = {
            "name": name,
            "slug": slug,
            "ruleset": ruleset,
            "rules": overrides,
            "planned_sessions": planned,
            "fee": _fee("tournament.fee", head.get("fee")),
            "start_date": _date("tournament.start_date", head.get("start_date")),
            "end_date": _date("tournament.end_date", head.get("end_date")),
            "venue": _text("tournament.venue", head.get("venue"), 200),
            "scope": _choice("tournament.scope", head.get("scope"), SCOPES, SCOPES[0]),
            "single_confirmation": _bool(
                "tournament.single_confirmation", head.get("single_confirmation")
            ),
            "keep_apart": _choice("tournament.keep_apart", head.get("keep_apart"), KEEP_APART, ""),
            "language": _choice("tournament.language", head.get("language"), LANGUAGES, "en"),
        }

    def read_players(self, items):
        self.players = []
        self.player_keys = {}
        names = {}
        for i, item in enumerate(items):
            path = f"players[{i}]"
            item = _object(path, item)
            key = item.get("key")
            if key is None or key == "":
                _fail(f"{path}.key", _("is required"))
            key = _text(f"{path}.key", key, 40, required=True)
            if key in self.player_keys:
                _fail(
                    f"{path}.key",
                    _("%(key)s is already the key of players[%(other)d]")
                    % {"key": _show(key), "other": self.player_keys[key]},
                )
            name = _text(f"{path}.name", item.get("name"), 200, required=True)
            if name in names:
                _fail(
                    f"{path}.name",
                    _("%(name)s is already the name of players[%(other)d]")
                    % {"name": _show(name), "other": names[name]},
                )
            ema_id = item.get("ema_id")
            if ema_id is None or ema_id == "":
                ema_id = ""
            elif not isinstance(ema_id, str) or not re.fullmatch(r"\d{8}", ema_id):
                _fail(f"{path}.ema_id", _("%(value)s is not 8 digits") % {"value": _show(ema_id)})
            self.player_keys[key] = i
            names[name] = i
            self.players.append(
                {
                    "key": key,
                    "name": name,
                    "ema_id": ema_id,
                    "country": _text(f"{path}.country", item.get("country"), 60),
                    "club": _text(f"{path}.club", item.get("club"), 120),
                    "team": _text(f"{path}.team", item.get("team"), 120),
                    "substitute": _bool(f"{path}.substitute", item.get("substitute")),
                    "status": _choice(
                        f"{path}.status", item.get("status"), PLAYER_STATUSES, "active"
                    ),
                    "checked_in": _bool(f"{path}.checked_in", item.get("checked_in")),
                }
            )

    def player_ref(self, path, value):
        if not isinstance(value, str) or value.strip() not in self.player_keys:
            _fail(path, _("%(value)s is not the key of a player") % {"value": _show(value)})
        return value.strip()

    def read_sessions(self, items):
        self.sessions = []
        numbers = {}
        for i, item in enumerate(items):
            path = f"sessions[{i}]"
            item = _object(path, item)
            number = _int(f"{path}.number", item.get("number"), 1, SMALL_MAX)
            if number in numbers:
                _fail(
                    f"{path}.number",
                    _("session %(number)d is already sessions[%(other)d]")
                    % {"number": number, "other": numbers[number]},
                )
            numbers[number] = i
            seed = item.get("seed")
            if seed is not None:
                seed = _int(f"{path}.seed", seed, -(2**63), 2**63 - 1)
            session = _Session(
                number=number,
                method=_choice(f"{path}.method", item.get("method"), METHODS, "manual"),
                seed=seed,
                ended_at=_datetime(f"{path}.ended_at", item.get("ended_at")),
            )
            self.read_tables(path, session, _list(f"{path}.tables", item.get("tables")))
            if item.get("clock") is not None:
                self.read_clock(f"{path}.clock", session, _object(f"{path}.clock", item["clock"]))
            self.sessions.append(session)
        self.session_by_number = {s.number: s for s in self.sessions}
        if self.tournament["planned_sessions"] is None:
            self.tournament["planned_sessions"] = max([4, *numbers])

    def read_clock(self, path, session, item):
        for name in ("length_seconds", "warning_seconds"):
            if item.get(name) is not None:
                setattr(session, name, _int(f"{path}.{name}", item[name], 0, 24 * 3600))
        events = []
        for i, event in enumerate(_list(f"{path}.events", item.get("events"))):
            epath = f"{path}.events[{i}]"
            event = _object(epath, event)
            kind = _choice(f"{epath}.kind", event.get("kind"), clock.KINDS, None)
            if kind is None:
                _fail(f"{epath}.kind", _("is required"))
            at = _datetime(f"{epath}.at", event.get("at"))
            if at is None:
                _fail(f"{epath}.at", _("is required"))
            seconds = _int(f"{epath}.seconds", event.get("seconds", 0), -24 * 3600, 24 * 3600)
            table = event.get("table")
            if table is not None:
                table = _int(f"{epath}.table", table, 1, SMALL_MAX)
            if events and at < events[-1][1]:
                _fail(f"{epath}.at", _("the clock's events must be in time order"))
            try:
                clock.check(
                    [clock.Event(k, a, sec, t) for k, a, sec, t, _b in events]
                    + [clock.Event(kind, at, seconds, table)]
                )
            except clock.ClockError as e:
                _fail(epath, str(timekeeping.REFUSALS.get(e.code, e.code)))
            by = _username_value(f"{epath}.by", event.get("by"))
            events.append((kind, at, seconds, table, by))
        session.clock = events

    def read_tables(self, spath, session, items):
        numbers = {}
        seated = {}  # player key → path of the seat, within the session
        replaced = {}
        for i, item in enumerate(items):
            path = f"{spath}.tables[{i}]"
            item = _object(path, item)
            number = _int(f"{path}.number", item.get("number"), 1, SMALL_MAX)
            if number in numbers:
                _fail(
                    f"{path}.number",
                    _("table %(number)d is already %(other)s")
                    % {"number": number, "other": numbers[number]},
                )
            numbers[number] = path
            table = _Table(number=number, seats=[])
            seats = _list(f"{path}.seats", item.get("seats"), required=True)
            self.check_seat_count(f"{path}.seats", len(seats))
            scores, chombos = [], []
            for j, seat in enumerate(seats):
                seat_path = f"{path}.seats[{j}]"
                seat = _object(seat_path, seat)
                wind = seat.get("wind", WINDS[j])
                if wind != WINDS[j]:
                    _fail(
                        f"{seat_path}.wind",
                        _("%(value)s is out of order: the seats go E, S, W, N, so this is %(wind)s")
                        % {"value": _show(wind), "wind": WINDS[j]},
                    )
                key = self.player_ref(f"{seat_path}.player", seat.get("player"))
                if key in seated:
                    _fail(
                        f"{seat_path}.player",
                        _("%(key)s is already seated in this session at %(other)s")
                        % {"key": _show(key), "other": seated[key]},
                    )
                if key in replaced:
                    _fail(
                        f"{seat_path}.player",
                        _("%(key)s is replaced in this session at %(other)s")
                        % {"key": _show(key), "other": replaced[key]},
                    )
                seated[key] = seat_path
                replaces = seat.get("replaces")
                if replaces is not None and replaces != "":
                    replaces = self.player_ref(f"{seat_path}.replaces", replaces)
                    if replaces == key:
                        _fail(f"{seat_path}.replaces", _("a player cannot replace themselves"))
                    if replaces in seated or replaces in replaced:
                        _fail(
                            f"{seat_path}.replaces",
                            _("%(key)s is already seated or replaced in this session at %(other)s")
                            % {
                                "key": _show(replaces),
                                "other": seated.get(replaces) or replaced[replaces],
                            },
                        )
                    replaced[replaces] = seat_path
                else:
                    replaces = None
                joined = _choice(f"{seat_path}.joined", seat.get("joined"), JOINED, "start")
                score = seat.get("score")
                if score is not None and _is_int(score) and abs(score) >= SCORE_LIMIT:
                    _fail(f"{seat_path}.score", _("%(value)s is too large") % {"value": score})
                chombo = seat.get("chombo")
                chombo = 0 if chombo is None else chombo
                _int(f"{seat_path}.chombo", chombo, 0, CHOMBO_MAX)
                if score is None and chombo:
                    _fail(f"{seat_path}.chombo", _("a chombo needs a score on the seat"))
                scores.append(score)
                chombos.append(chombo)
                table.seats.append((WINDS[j], key, replaces, joined))
            current = self.check_scores(path, scores)
            status = item.get("status")
            if status is not None and status not in ("draft", "confirmed"):
                _fail(
                    f"{path}.status",
                    _("%(value)s is not one of draft, confirmed") % {"value": _show(status)},
                )
            status = status or "confirmed"
            history = _list(f"{path}.history", item.get("history"))
            if history:
                table.versions = self.read_history(path, table, history, scores, chombos, status)
            elif current:
                table.versions = [
                    _Version(
                        version=1,
                        status=status,
                        entered_by=None,
                        entered_at=None,
                        confirmed_by=None,
                        confirmed_at=None,
                        superseded_at=None,
                        note="",
                        scores=[
                            (wind, key, score, chombo)
                            for (wind, key, _r, _j), score, chombo in zip(
                                table.seats, scores, chombos, strict=True
                            )
                        ],
                        by_importer=True,
                    )
                ]
            session.tables.append(table)

    def check_seat_count(self, path, count):
        if self.rules.game == "sichuan":
            if not 1 <= count <= 4:
                _fail(
                    path,
                    _("a Sichuan table has 4 or 3 seats (1 or 2 when awarded), not %(count)d")
                    % {"count": count},
                )
        elif count != 4:
            _fail(path, _("a riichi table has 4 seats, not %(count)d") % {"count": count})

    def check_scores(self, path, scores) -> bool:
        """True when the seats carry scores (all of them), after checking them."""
        given = [s is not None for s in scores]
        awarded = self.rules.game == "sichuan" and len(scores) <= 2
        if awarded:
            if any(given):
                index = given.index(True)
                _fail(
                    f"{path}.seats[{index}].score",
                    _("an awarded table (one or two players) has no scores"),
                )
            return False
        if not any(given):
            return False
        if not all(given):
            index = given.index(False)
            _fail(
                f"{path}.seats[{index}].score",
                _("is missing: either every seat of a table has a score or none has"),
            )
        problems = validate_scores(self.rules, scores)
        if problems:
            problem = problems[0]
            where = f"{path}.seats" if problem[0] < 0 else f"{path}.seats[{problem[0]}].score"
            _fail(where, _problem_message(problem))
        return True

    def read_history(self, path, table, items, scores, chombos, status):
        versions = []
        seen = set()
        confirmed = None
        winds = [wind for wind, _k, _r, _j in table.seats]
        seat_player = {wind: key for wind, key, _r, _j in table.seats}
        if items and self.rules.game == "sichuan" and len(table.seats) <= 2:
            _fail(f"{path}.history", _("an awarded table has no results"))
        for i, item in enumerate(items):
            vpath = f"{path}.history[{i}]"
            item = _object(vpath, item)
            version = _int(f"{vpath}.version", item.get("version"), 1, 2**31 - 1)
            if version in seen:
                _fail(
                    f"{vpath}.version",
                    _("version %(version)d is listed twice") % {"version": version},
                )
            seen.add(version)
            vstatus = item.get("status")
            if vstatus not in RESULT_STATUSES:
                _fail(
                    f"{vpath}.status",
                    _("%(value)s is not one of %(options)s")
                    % {"value": _show(vstatus), "options": ", ".join(RESULT_STATUSES)},
                )
            if vstatus == "confirmed":
                if confirmed is not None:
                    _fail(
                        f"{vpath}.status",
                        _("a table has one confirmed version; version %(other)d is confirmed too")
                        % {"other": confirmed},
                    )
                confirmed = version
            rows = _list(f"{vpath}.scores", item.get("scores"), required=True)
            if [r.get("wind") if isinstance(r, dict) else None for r in rows] != winds:
                _fail(
                    f"{vpath}.scores",
                    _("must have one score per seat, in the order %(winds)s")
                    % {"winds": ", ".join(winds)},
                )
            version_scores = []
            for j, row in enumerate(rows):
                rpath = f"{vpath}.scores[{j}]"
                key = row.get("player")
                key = (
                    seat_player[row["wind"]]
                    if key is None
                    else self.player_ref(f"{rpath}.player", key)
                )
                score = row.get("score")
                if score is not None and (not _is_int(score) or abs(score) >= SCORE_LIMIT):
                    _fail(
                        f"{rpath}.score",
                        _("%(value)s is not a whole number") % {"value": _show(score)},
                    )
                chombo = row.get("chombo")
                chombo = _int(f"{rpath}.chombo", 0 if chombo is None else chombo, 0, CHOMBO_MAX)
                version_scores.append((row["wind"], key, score, chombo))
            if vstatus == "draft":
                # A draft can still be confirmed: its scores must hold as the seats' do.
                problems = validate_scores(self.rules, [s for _w, _k, s, _c in version_scores])
                if problems:
                    seat = problems[0][0]
                    where = f"{vpath}.scores" if seat < 0 else f"{vpath}.scores[{seat}].score"
                    _fail(where, _problem_message(problems[0]))
            versions.append(
                _Version(
                    version=version,
                    status=vstatus,
                    entered_by=_username_value(f"{vpath}.entered_by", item.get("entered_by")),
                    entered_at=_datetime(f"{vpath}.entered_at", item.get("entered_at")),
                    confirmed_by=_username_value(f"{vpath}.confirmed_by", item.get("confirmed_by")),
                    confirmed_at=_datetime(f"{vpath}.confirmed_at", item.get("confirmed_at")),
                    superseded_at=_datetime(f"{vpath}.superseded_at", item.get("superseded_at")),
                    note=_text(f"{vpath}.note", item.get("note"), NOTE_MAX),
                    scores=version_scores,
                )
            )
        versions.sort(key=lambda v: v.version)
        # The version on the seats: the confirmed one, else the newest draft.
        current = next((v for v in versions if v.status == "confirmed"), None)
        if current is None:
            drafts = [v for v in versions if v.status == "draft"]
            current = drafts[-1] if drafts else None
        has_scores = any(s is not None for s in scores)
        if current is None:
            if has_scores:
                _fail(
                    f"{path}.history",
                    _("has no confirmed or draft version for the scores on the seats"),
                )
            return versions
        if not has_scores:
            _fail(
                f"{path}.seats",
                _("have no scores, but the history has version %(version)d (%(status)s)")
                % {"version": current.version, "status": current.status},
            )
        if current.status != status:
            _fail(
                f"{path}.status",
                _(
                    "the table is %(table)s but its history's current version %(version)d "
                    "is %(status)s"
                )
                % {"table": status, "version": current.version, "status": current.status},
            )
        shown = [(score, chombo) for _w, _k, score, chombo in current.scores]
        if shown != list(zip(scores, chombos, strict=True)):
            _fail(
                f"{path}.seats",
                _("the scores differ from version %(version)d in the history")
                % {"version": current.version},
            )
        return versions

    # --- the referee's records ---

    def session_ref(self, path, value, required=True):
        """The number of a session of this file (None when not required and absent)."""
        if value is None and not required:
            return None
        if not _is_int(value) or value not in self.session_by_number:
            if value is None:
                _fail(path, _("is required"))
            _fail(
                path,
                _("%(value)s is not the number of a session in this file")
                % {"value": _show(value)},
            )
        return value

    def table_ref(self, path, session, value):
        """The number of a table of `session` in this file, or None."""
        if value is None:
            return None
        if session is None:
            _fail(path, _("a table needs the session it belongs to"))
        numbers = {t.number for t in self.session_by_number[session].tables}
        if not _is_int(value) or value not in numbers:
            _fail(
                path,
                _("%(value)s is not the number of a table of session %(session)d in this file")
                % {"value": _show(value), "session": session},
            )
        return value

    def optional_player(self, path, value):
        return None if value is None or value == "" else self.player_ref(path, value)

    def recorded(self, path, item, voided_required=False) -> dict:
        """recorded_by/at and the void fields of a record. Without `recorded_by` the importing
        user recorded it (`by_importer`); without `recorded_at`, now."""
        voided_at = _datetime(f"{path}.voided_at", item.get("voided_at"))
        voided_by = _username_value(f"{path}.voided_by", item.get("voided_by"))
        void_reason = _text(f"{path}.void_reason", item.get("void_reason"), VOID_REASON_MAX)
        if voided_at is None and (voided_required or voided_by or void_reason):
            _fail(f"{path}.voided_at", _("is required for a void record"))
        return {
            "by_importer": "recorded_by" not in item,
            "recorded_by": _username_value(f"{path}.recorded_by", item.get("recorded_by")),
            "recorded_at": _datetime(f"{path}.recorded_at", item.get("recorded_at")),
            "voided_by": voided_by,
            "voided_at": voided_at,
            "void_reason": void_reason,
        }

    def read_penalty(self, path, item, voided=False) -> dict:
        item = _object(path, item)
        session = self.session_ref(f"{path}.session", item.get("session"))
        player = self.player_ref(f"{path}.player", item.get("player"))
        kind = item.get("kind")
        if kind is None:
            _fail(f"{path}.kind", _("is required"))
        kind = _choice(f"{path}.kind", kind, KINDS, None)
        amount = item.get("amount")
        if amount is not None:
            amount = _amount(f"{path}.amount", amount)
        minutes = None
        if kind == LATE:
            minutes = item.get("minutes")
            if minutes is None and amount is None:
                _fail(
                    f"{path}.minutes",
                    _("is required for a late arrival (or give the penalty's amount)"),
                )
            if minutes is not None:
                minutes = _int(f"{path}.minutes", minutes, 1, SMALL_MAX)
        stage = ""
        if kind == OTHER:
            # The contract has no stage: a penalty of another kind counts after placement
            # unless the file says otherwise, so it never moves the other players' places.
            stage = _choice(f"{path}.stage", item.get("stage"), STAGES, "after")
        return {
            "session": session,
            "player": player,
            "table": self.table_ref(f"{path}.table", session, item.get("table")),
            "kind": kind,
            "minutes": minutes,
            "amount": amount,
            "stage": stage,
            "note": _text(f"{path}.note", item.get("note"), PENALTY_NOTE_MAX),
            **self.recorded(path, item, voided_required=voided),
        }

    def read_penalties(self, items):
        """The live penalties, each checked as the standings will count it."""
        self.penalties = []
        minors = {}  # (session, player) → how many minor violations so far
        last_minor = {}  # (session, player) → (index, time) of the last one
        for i, item in enumerate(items):
            path = f"penalties[{i}]"
            p = self.read_penalty(path, item)
            if p["voided_at"] is not None:
                _fail(
                    f"{path}.voided_at",
                    _("a void penalty belongs in voided_penalties, where nothing counts it"),
                )
            pair = (p["session"], p["player"])
            if p["kind"] == MINOR:
                minors[pair] = minors.get(pair, 0) + 1
                when = p["recorded_at"] or self.now
                if pair in last_minor and when < last_minor[pair][1]:
                    _fail(
                        f"{path}.recorded_at",
                        _(
                            "is earlier than penalties[%(other)d], a minor violation of the same "
                            "player in the same session listed before it: minor violations count "
                            "in the order they are listed"
                        )
                        % {"other": last_minor[pair][0]},
                    )
                last_minor[pair] = (i, when)
            amount = p["amount"]
            try:
                resolve(
                    self.rules,
                    p["kind"],
                    minutes=p["minutes"],
                    amount=None if amount is None else _number(amount),
                    order=minors.get(pair, 1) if p["kind"] == MINOR else 1,
                    stage=p["stage"] or None,
                )
            except RuleError as e:
                raise TournamentFileError(f"{path}.{e.field}", _rule_message(e)) from e
            self.penalties.append(p)

    def read_voided_penalties(self, items):
        """Void penalties count nowhere: checked for their form, not against the rule set."""
        self.voided_penalties = [
            self.read_penalty(f"voided_penalties[{i}]", item, voided=True)
            for i, item in enumerate(items)
        ]

    def seat_winds(self, session, table) -> list:
        for t in self.session_by_number[session].tables:
            if t.number == table:
                return [wind for wind, _k, _r, _j in t.seats]
        return []

    def read_undo(self, path, undo) -> dict:
        """An incident's undo, its references checked (players by key, tables and seats by
        session, table number and wind); created with the ids of this desk."""
        undo = _object(path, undo, required=False)
        for name, value in undo.items():
            vpath = f"{path}.{name}"
            if name in UNDO_PLAYERS:
                self.optional_player(vpath, value)
            elif name in ("table", "seat") and value is not None:
                value = _object(vpath, value)
                session = self.session_ref(f"{vpath}.session", value.get("session"))
                table = self.table_ref(f"{vpath}.table", session, value.get("table"))
                if table is None:
                    _fail(f"{vpath}.table", _("is required"))
                if name == "seat" and value.get("wind") not in self.seat_winds(session, table):
                    _fail(
                        f"{vpath}.wind",
                        _("%(value)s is not a seat of table %(table)d of session %(session)d")
                        % {"value": _show(value.get("wind")), "table": table, "session": session},
                    )
            elif name == "winds":
                for key, wind in _object(vpath, value).items():
                    self.player_ref(vpath, key)
                    if wind not in WINDS:
                        _fail(
                            f"{vpath}.{key}",
                            _("%(value)s is not one of %(options)s")
                            % {"value": _show(wind), "options": ", ".join(WINDS)},
                        )
        return undo

    def read_incidents(self, items):
        self.incidents = []
        for i, item in enumerate(items):
            path = f"incidents[{i}]"
            item = _object(path, item)
            kind = item.get("kind")
            if kind is None:
                _fail(f"{path}.kind", _("is required"))
            session = self.session_ref(f"{path}.session", item.get("session"), required=False)
            self.incidents.append(
                {
                    "kind": _choice(f"{path}.kind", kind, INCIDENT_KINDS, None),
                    "session": session,
                    "table": self.table_ref(f"{path}.table", session, item.get("table")),
                    "player": self.optional_player(f"{path}.player", item.get("player")),
                    "substitute": self.optional_player(
                        f"{path}.substitute", item.get("substitute")
                    ),
                    "text": _text(f"{path}.text", item.get("text"), LONG_TEXT_MAX),
                    "undo": self.read_undo(f"{path}.undo", item.get("undo")),
                    **self.recorded(path, item),
                }
            )

    def read_appeals(self, items):
        self.appeals = []
        for i, item in enumerate(items):
            path = f"appeals[{i}]"
            item = _object(path, item)
            session = self.session_ref(f"{path}.session", item.get("session"))
            status = item.get("status")
            if status is not None and status not in APPEAL_STATUSES:
                _fail(
                    f"{path}.status",
                    _("%(value)s is not one of %(options)s")
                    % {"value": _show(status), "options": ", ".join(APPEAL_STATUSES)},
                )
            filed_at = _datetime(f"{path}.filed_at", item.get("filed_at"))
            if filed_at is None:
                _fail(f"{path}.filed_at", _("is required"))
            decided_by = item.get("decided_by")
            if decided_by not in (None, "", *BODIES):
                _fail(
                    f"{path}.decided_by",
                    _("%(value)s is not one of %(options)s (or empty)")
                    % {"value": _show(decided_by), "options": ", ".join(BODIES)},
                )
            returned = item.get("deposit_returned")
            if returned is not None:
                returned = _bool(f"{path}.deposit_returned", returned)
            penalty = _index(f"{path}.penalty", item.get("penalty"), self.penalties, "penalties")
            voided = _index(
                f"{path}.voided_penalty",
                item.get("voided_penalty"),
                self.voided_penalties,
                "voided_penalties",
            )
            if penalty is not None and voided is not None:
                _fail(
                    f"{path}.voided_penalty",
                    _("an appeal is against one penalty; this one names penalties[%(index)d]")
                    % {"index": penalty},
                )
            self.appeals.append(
                {
                    "session": session,
                    "table": self.table_ref(f"{path}.table", session, item.get("table")),
                    "appellant": self.player_ref(f"{path}.appellant", item.get("appellant")),
                    "captain": _bool(f"{path}.captain", item.get("captain")),
                    "penalty": penalty,
                    "voided_penalty": voided,
                    "incident": _index(
                        f"{path}.incident", item.get("incident"), self.incidents, "incidents"
                    ),
                    "subject": _text(f"{path}.subject", item.get("subject"), SUBJECT_MAX),
                    "text": _text(f"{path}.text", item.get("text"), LONG_TEXT_MAX),
                    "filed_at": filed_at,
                    "deposit": _fee(f"{path}.deposit", item.get("deposit")),
                    "late_override": _text(
                        f"{path}.late_override", item.get("late_override"), LATE_OVERRIDE_MAX
                    ),
                    "status": status or Appeal.Status.FILED,
                    "decided_by": decided_by or "",
                    "decision": _text(f"{path}.decision", item.get("decision"), LONG_TEXT_MAX),
                    "decided_at": _datetime(f"{path}.decided_at", item.get("decided_at")),
                    "deposit_returned": returned,
                    "by_importer": "recorded_by" not in item,
                    "recorded_by": _username_value(f"{path}.recorded_by", item.get("recorded_by")),
                }
            )

    def read_rule_changes(self, items):
        self.rule_changes = []
        for i, item in enumerate(items):
            path = f"rule_changes[{i}]"
            item = _object(path, item)
            self.rule_changes.append(
                {
                    "changed_by": _username_value(f"{path}.changed_by", item.get("changed_by")),
                    "changed_at": _datetime(f"{path}.changed_at", item.get("changed_at")),
                    "old_ruleset": _text(f"{path}.old_ruleset", item.get("old_ruleset"), 40),
                    "old_rules": _object(f"{path}.old_rules", item.get("old_rules"), False),
                    "new_ruleset": _text(f"{path}.new_ruleset", item.get("new_ruleset"), 40),
                    "new_rules": _object(f"{path}.new_rules", item.get("new_rules"), False),
                    "reason": _text(f"{path}.reason", item.get("reason"), 10000),
                }
            )

    def usernames(self) -> set:
        names = set()
        for session in self.sessions:
            for table in session.tables:
                for v in table.versions:
                    names.update(n for n in (v.entered_by, v.confirmed_by) if n)
        names.update(c["changed_by"] for c in self.rule_changes if c["changed_by"])
        names.update(e[4] for session in self.sessions for e in session.clock if e[4])
        for record in (*self.penalties, *self.voided_penalties, *self.incidents, *self.appeals):
            names.update(record.get(role) for role in ("recorded_by", "voided_by"))
        names.discard(None)
        return names


# --- import -----------------------------------------------------------------------------------


def _acting(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _save(instance, user):
    if user is not None:
        instance._history_user = user  # django-simple-history: who made the change
    instance.save()
    return instance


def import_tournament(content, user=None) -> Tournament:
    """Create the tournament of a version 1 file; all of it, or nothing and TournamentFileError.

    content: the file's bytes or text, or the already parsed dict. user: who imports (the
    entering and confirming user of results that come without a history).
    """
    data = _parse(content)
    user = _acting(user)
    with transaction.atomic():
        plan = _Reader(data).read()
        User = get_user_model()
        names = plan.usernames()
        users = {
            u.get_username(): u
            for u in User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": names})
        }
        try:
            with transaction.atomic():
                return _create(plan, user, users)
        except IntegrityError as e:
            if Tournament.objects.filter(slug=plan.tournament["slug"]).exists():
                raise TournamentFileError(
                    "tournament.slug",
                    _("a tournament with the slug %(value)s already exists")
                    % {"value": _show(plan.tournament["slug"])},
                ) from e
            raise


def _create(plan: _Reader, user, users: dict) -> Tournament:
    now = timezone.now()
    tournament = _save(Tournament(**plan.tournament), user)
    players = {}
    for row in plan.players:
        players[row["key"]] = _save(Player(tournament=tournament, **row), user)
    sessions, tables, seats = {}, {}, {}  # by number; (session, table); (session, table, wind)
    for s in plan.sessions:
        session = _save(
            Session(
                tournament=tournament,
                number=s.number,
                method=s.method,
                seed=s.seed,
                ended_at=s.ended_at,
                length_seconds=s.length_seconds,
                warning_seconds=s.warning_seconds,
            ),
            user,
        )
        sessions[s.number] = session
        ClockEvent.objects.bulk_create(
            ClockEvent(session=session, kind=k, at=at, seconds=sec, table=t, by=users.get(by))
            for k, at, sec, t, by in s.clock
        )
        for t in s.tables:
            table = _save(Table(session=session, number=t.number), user)
            tables[(s.number, t.number)] = table
            for wind, key, replaces, joined in t.seats:
                seats[(s.number, t.number, wind)] = _save(
                    Seat(
                        table=table,
                        session=session,
                        wind=wind,
                        player=players[key],
                        replaces=players[replaces] if replaces else None,
                        joined=joined,
                    ),
                    user,
                )
            for v in t.versions:
                if v.by_importer:
                    entered_by, entered_at = user, now
                    confirmed = v.status == Result.Status.CONFIRMED
                    confirmed_by = user if confirmed else None
                    confirmed_at = now if confirmed else None
                    note = v.note
                else:
                    entered_by = users.get(v.entered_by)
                    confirmed_by = users.get(v.confirmed_by)
                    entered_at, confirmed_at = v.entered_at or now, v.confirmed_at
                    missing = {
                        "entered": v.entered_by if entered_by is None else None,
                        "confirmed": v.confirmed_by if confirmed_by is None else None,
                    }
                    note = _with_mark(v.note, missing, NOTE_MAX)
                result = Result.objects.create(
                    table=table,
                    version=v.version,
                    status=v.status,
                    entered_by=entered_by,
                    entered_at=entered_at,
                    confirmed_by=confirmed_by,
                    confirmed_at=confirmed_at,
                    superseded_at=v.superseded_at,
                    note=note,
                )
                ResultScore.objects.bulk_create(
                    ResultScore(
                        result=result,
                        wind=wind,
                        player=players[key],
                        score=score,
                        chombo=chombo,
                    )
                    for wind, key, score, chombo in v.scores
                )
    _create_records(plan, user, users, tournament, players, sessions, tables, seats)
    for c in plan.rule_changes:
        changed_by = users.get(c["changed_by"])
        reason = _with_mark(
            c["reason"], {"changed": c["changed_by"] if changed_by is None else None}, None
        )
        change = RuleChange.objects.create(
            tournament=tournament,
            changed_by=changed_by,
            old_ruleset=c["old_ruleset"],
            old_rules=c["old_rules"],
            new_ruleset=c["new_ruleset"],
            new_rules=c["new_rules"],
            reason=reason,
        )
        if c["changed_at"]:  # auto_now_add: set the recorded time afterwards
            RuleChange.objects.filter(pk=change.pk).update(changed_at=c["changed_at"])
    touch(tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _recorders(record, user, users) -> tuple:
    """(recorded_by, voided_by, names missing on this desk for the import mark)."""
    recorded_by = user if record["by_importer"] else users.get(record["recorded_by"])
    voided_by = users.get(record.get("voided_by"))
    missing = {
        "recorded": None if record["by_importer"] or recorded_by else record["recorded_by"],
        "voided": None if voided_by else record.get("voided_by"),
    }
    return recorded_by, voided_by, missing


def _create_records(plan, user, users, tournament, players, sessions, tables, seats):
    """Penalties (live ones in the file's order, then void ones), incidents and appeals."""
    created = []
    for p in (*plan.penalties, *plan.voided_penalties):
        recorded_by, voided_by, missing = _recorders(p, user, users)
        created.append(
            _save(
                Penalty(
                    session=sessions[p["session"]],
                    player=players[p["player"]],
                    table=tables[(p["session"], p["table"])] if p["table"] else None,
                    kind=p["kind"],
                    minutes=p["minutes"],
                    amount=p["amount"],
                    stage=p["stage"],
                    note=_with_mark(p["note"], missing, PENALTY_NOTE_MAX),
                    recorded_by=recorded_by,
                    recorded_at=p["recorded_at"] or plan.now,
                    voided_by=voided_by,
                    voided_at=p["voided_at"],
                    void_reason=p["void_reason"],
                ),
                user,
            )
        )
    live, voided = created[: len(plan.penalties)], created[len(plan.penalties) :]

    def undo_in(undo):
        out = {}
        for name, value in undo.items():
            if name in UNDO_PLAYERS:
                value = players[value.strip()].pk if value else None
            elif name == "table" and value is not None:
                value = tables[(value["session"], value["table"])].pk
            elif name == "seat" and value is not None:
                value = seats[(value["session"], value["table"], value["wind"])].pk
            elif name == "winds":
                value = {str(players[key.strip()].pk): wind for key, wind in value.items()}
            out[name] = value
        return out

    incidents = []
    for i in plan.incidents:
        recorded_by, voided_by, missing = _recorders(i, user, users)
        incidents.append(
            _save(
                Incident(
                    tournament=tournament,
                    session=sessions[i["session"]] if i["session"] else None,
                    table=tables[(i["session"], i["table"])] if i["table"] else None,
                    kind=i["kind"],
                    player=players[i["player"]] if i["player"] else None,
                    substitute=players[i["substitute"]] if i["substitute"] else None,
                    text=_with_mark(i["text"], missing, None),
                    undo=undo_in(i["undo"]),
                    recorded_by=recorded_by,
                    recorded_at=i["recorded_at"] or plan.now,
                    voided_by=voided_by,
                    voided_at=i["voided_at"],
                    void_reason=i["void_reason"],
                ),
                user,
            )
        )

    for a in plan.appeals:
        recorded_by, _voided_by, missing = _recorders(a, user, users)
        if a["penalty"] is not None:
            penalty = live[a["penalty"]]
        elif a["voided_penalty"] is not None:
            penalty = voided[a["voided_penalty"]]
        else:
            penalty = None
        _save(
            Appeal(
                tournament=tournament,
                session=sessions[a["session"]],
                table=tables[(a["session"], a["table"])] if a["table"] else None,
                appellant=players[a["appellant"]],
                captain=a["captain"],
                penalty=penalty,
                incident=incidents[a["incident"]] if a["incident"] is not None else None,
                subject=a["subject"],
                text=_with_mark(a["text"], missing, None),
                filed_at=a["filed_at"],
                deposit=a["deposit"],
                late_override=a["late_override"],
                status=a["status"],
                decided_by=a["decided_by"],
                decision=a["decision"],
                decided_at=a["decided_at"],
                deposit_returned=a["deposit_returned"],
                recorded_by=recorded_by,
            ),
            user,
        )
