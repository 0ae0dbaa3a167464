"""Reading the referee's records of a tournament file: penalties (live and void), incidents,
appeals and rule changes, with their references to the file's players, sessions and tables.

A part of the Reader (reader.py), which gives it `rules`, `now`, `player_ref` and the sessions
read before the records.
"""

from django.utils.translation import gettext as _

from core.errors import rule_message
from core.numbers import plain_number
from mahjong.messages import RuleError
from mahjong.penalties import LATE, MINOR, OTHER, resolve

from . import schema
from .errors import TournamentFileError, show
from .values import Record, fail, is_int


class RecordsReader:
    def session_ref(self, path, value, required=True):
        """The number of a session of this file (None when not required and absent)."""
        if value is None and not required:
            return None
        if not is_int(value) or value not in self.session_by_number:
            if value is None:
                fail(path, _("is required"))
            fail(
                path,
                _("%(value)s is not the number of a session in this file") % {"value": show(value)},
            )
        return value

    def table_ref(self, path, session, value):
        """The number of a table of `session` in this file, or None."""
        if value is None:
            return None
        if session is None:
            fail(path, _("a table needs the session it belongs to"))
        numbers = {t.number for t in self.session_by_number[session].tables}
        if not is_int(value) or value not in numbers:
            fail(
                path,
                _("%(value)s is not the number of a table of session %(session)d in this file")
                % {"value": show(value), "session": session},
            )
        return value

    def optional_player(self, path, value):
        return None if value is None or value == "" else self.player_ref(path, value)

    def index_ref(self, r: Record, name, items, list_name):
        """The index of an entry of the file's list `list_name` (None when absent)."""
        value = r.get(name)
        if value is None:
            return None
        if not is_int(value) or not 0 <= value < len(items):
            if not items:
                fail(
                    r.at(name),
                    _("%(value)s: the file's %(name)s is empty")
                    % {"value": show(value), "name": list_name},
                )
            fail(
                r.at(name),
                _("%(value)s is not the index of an entry of %(name)s (0 to %(last)d)")
                % {"value": show(value), "name": list_name, "last": len(items) - 1},
            )
        return value

    def recorded(self, r: Record, voided_required=False) -> dict:
        """recorded_by/at and the void fields of a record. Without `recorded_by` the importing
        user recorded it (`by_importer`); without `recorded_at`, now."""
        voided_at = r["voided_at"]
        voided_by = r["voided_by"]
        void_reason = r["void_reason"]
        if voided_at is None and (voided_required or voided_by or void_reason):
            fail(r.at("voided_at"), _("is required for a void record"))
        return {
            "by_importer": "recorded_by" not in r,
            "recorded_by": r["recorded_by"],
            "recorded_at": r["recorded_at"],
            "voided_by": voided_by,
            "voided_at": voided_at,
            "void_reason": void_reason,
        }

    def read_penalty(self, path, item, voided=False) -> dict:
        # Void penalties too: a void record without voided_at has its own message.
        p = Record(schema.PENALTY, path, item)
        session = self.session_ref(p.at("session"), p.get("session"))
        player = self.player_ref(p.at("player"), p.get("player"))
        kind = p["kind"]
        amount = p["amount"]
        minutes = None
        if kind == LATE:
            minutes = p["minutes"]
            if minutes is None and amount is None:
                fail(
                    p.at("minutes"),
                    _("is required for a late arrival (or give the penalty's amount)"),
                )
        stage = ""
        if kind == OTHER:
            # The contract has no stage: a penalty of another kind counts after placement
            # unless the file says otherwise, so it never moves the other players' places.
            stage = p["stage"]
        return {
            "session": session,
            "player": player,
            "table": self.table_ref(p.at("table"), session, p.get("table")),
            "kind": kind,
            "minutes": minutes,
            "amount": amount,
            "stage": stage,
            "note": p["note"],
            **self.recorded(p, voided_required=voided),
        }

    def read_penalties(self, items):
        """The live penalties, each checked as the standings will count it."""
        self.penalties = []
        minors = {}  # (session, player) → how many minor violations so far
        last_minor = {}  # (session, player) → (index, time) of the last one
        for i, (path, item) in enumerate(items):
            p = self.read_penalty(path, item)
            if p["voided_at"] is not None:
                fail(
                    f"{path}.voided_at",
                    _("a void penalty belongs in voided_penalties, where nothing counts it"),
                )
            pair = (p["session"], p["player"])
            if p["kind"] == MINOR:
                minors[pair] = minors.get(pair, 0) + 1
                when = p["recorded_at"] or self.now
                if pair in last_minor and when < last_minor[pair][1]:
                    fail(
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
                    amount=None if amount is None else plain_number(amount),
                    order=minors.get(pair, 1) if p["kind"] == MINOR else 1,
                    stage=p["stage"] or None,
                )
            except RuleError as e:
                raise TournamentFileError(f"{path}.{e.field}", rule_message(e)) from e
            self.penalties.append(p)

    def read_voided_penalties(self, items):
        """Void penalties count nowhere: checked for their form, not against the rule set."""
        self.voided_penalties = [self.read_penalty(path, item, voided=True) for path, item in items]

    def seat_winds(self, session, table) -> list:
        for t in self.session_by_number[session].tables:
            if t.number == table:
                return [wind for wind, _k, _r, _j in t.seats]
        return []

    def read_undo(self, path, undo) -> dict:
        """An incident's undo, its references checked (players by key, tables and seats by
        session, table number and wind); created with the ids of this desk."""
        u = Record(schema.UNDO, path, undo)
        for name, value in u.data.items():
            vpath = u.at(name)
            if name in schema.UNDO_PLAYERS:
                self.optional_player(vpath, value)
            elif name in ("table", "seat") and value is not None:
                where = Record(schema.UNDO.fields[name], vpath, value)
                session = self.session_ref(where.at("session"), where.get("session"))
                table = self.table_ref(where.at("table"), session, where.get("table"))
                if table is None:
                    fail(where.at("table"), _("is required"))
                if name == "seat" and where.get("wind") not in self.seat_winds(session, table):
                    fail(
                        where.at("wind"),
                        _("%(value)s is not a seat of table %(table)d of session %(session)d")
                        % {"value": show(where.get("wind")), "table": table, "session": session},
                    )
            elif name == "winds":
                winds = schema.UNDO.fields["winds"]
                for key, wind in winds.read(vpath, value).items():
                    self.player_ref(vpath, key)
                    winds.value.read(f"{vpath}.{key}", wind)
        return u.data

    def read_incidents(self, items):
        self.incidents = []
        for path, item in items:
            r = Record(schema.INCIDENT, path, item)
            r.require("kind")
            session = self.session_ref(r.at("session"), r.get("session"), required=False)
            self.incidents.append(
                {
                    "kind": r["kind"],
                    "session": session,
                    "table": self.table_ref(r.at("table"), session, r.get("table")),
                    "player": self.optional_player(r.at("player"), r.get("player")),
                    "substitute": self.optional_player(r.at("substitute"), r.get("substitute")),
                    "text": r["text"],
                    "undo": self.read_undo(r.at("undo"), r.get("undo")),
                    **self.recorded(r),
                }
            )

    def read_appeals(self, items):
        self.appeals = []
        for path, item in items:
            r = Record(schema.APPEAL, path, item)
            session = self.session_ref(r.at("session"), r.get("session"))
            status = r["status"]
            filed_at = r["filed_at"]
            decided_by = r["decided_by"]
            returned = r["deposit_returned"]
            penalty = self.index_ref(r, "penalty", self.penalties, "penalties")
            voided = self.index_ref(r, "voided_penalty", self.voided_penalties, "voided_penalties")
            if penalty is not None and voided is not None:
                fail(
                    r.at("voided_penalty"),
                    _("an appeal is against one penalty; this one names penalties[%(index)d]")
                    % {"index": penalty},
                )
            self.appeals.append(
                {
                    "session": session,
                    "table": self.table_ref(r.at("table"), session, r.get("table")),
                    "appellant": self.player_ref(r.at("appellant"), r.get("appellant")),
                    "captain": r["captain"],
                    "penalty": penalty,
                    "voided_penalty": voided,
                    "incident": self.index_ref(r, "incident", self.incidents, "incidents"),
                    "subject": r["subject"],
                    "text": r["text"],
                    "filed_at": filed_at,
                    "deposit": r["deposit"],
                    "late_override": r["late_override"],
                    "status": status,
                    "decided_by": decided_by,
                    "decision": r["decision"],
                    "decided_at": r["decided_at"],
                    "deposit_returned": returned,
                    "by_importer": "recorded_by" not in r,
                    "recorded_by": r["recorded_by"],
                }
            )

    def read_rule_changes(self, items):
        self.rule_changes = []
        for path, item in items:
            r = Record(schema.RULE_CHANGE, path, item)
            self.rule_changes.append({name: r[name] for name in schema.RULE_CHANGE.fields})

    def usernames(self) -> set:
        """Every user name the plan refers to (looked up on this desk before creating)."""
        names = set()
        for session in self.sessions:
            for table in session.tables:
                for v in table.versions:
                    names.update(n for n in (v.entered_by, v.confirmed_by) if n)
                if table.winds_drawn and table.winds_drawn[1]:
                    names.add(table.winds_drawn[1])
        names.update(c["changed_by"] for c in self.rule_changes if c["changed_by"])
        names.update(self.finish.values())
        names.update(e[4] for session in self.sessions for e in session.clock if e[4])
        for record in (*self.penalties, *self.voided_penalties, *self.incidents, *self.appeals):
            names.update(record.get(role) for role in ("recorded_by", "voided_by"))
        names.discard(None)
        return names
