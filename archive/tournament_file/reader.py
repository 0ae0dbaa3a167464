"""A tournament file's content as an import plan: `parse` the text, `Reader(data).read()` check
it all and turn it into plain data for create.py. It reads the database (a slug that is taken)
but writes nothing, and stops at the first problem, naming its place in the file.

Each value is read through its declaration in schema.py; what is checked here is what a value
means with the rest of the file: references to players, sessions, tables and records, scores
that hold under the file's rule set, a table's history against its seats.
"""

from __future__ import annotations

import json

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import rule_message
from mahjong import clock
from mahjong.hands import HandError, play
from mahjong.messages import RuleError
from mahjong.presets import rules_overrides, ruleset_from
from mahjong.table import is_awarded, three_player, validate_scores
from scoring.models import CHOMBO_MAX
from seating.models import WINDS
from tournament import timekeeping
from tournament.models import RESERVED_SLUGS, Tournament
from tournament.services import unique_slug

from . import schema
from .errors import TournamentFileError, show
from .plan import Session, Table, Version
from .records import RecordsReader
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


class Reader(RecordsReader):
    """Checks a whole file and turns it into an import plan; raises on the first problem.

    The plan: `tournament`, `players` (dicts of model fields), `sessions` (Session, with their
    Table and Version), and the referee's records (records.py)."""

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
            slug = unique_slug(name)
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

    def read_tables(self, session, items):
        numbers = {}
        seated = {}  # player key → path of the seat, within the session
        replaced = {}
        for path, item in items:
            t = Record(schema.TABLE, path, item)
            number = t["number"]
            if number in numbers:
                fail(
                    t.at("number"),
                    _("table %(number)d is already %(other)s")
                    % {"number": number, "other": numbers[number]},
                )
            numbers[number] = path
            table = Table(number=number, seats=[])
            seats = t.items("seats")
            self.check_seat_count(t.at("seats"), len(seats))
            hands = t.items("hands")
            status = t["status"]
            scores, chombos, chombo_given = [], [], []
            for j, (seat_path, item) in enumerate(seats):
                seat = Record(schema.SEAT, seat_path, item)
                wind = seat.data.get("wind", WINDS[j])
                if wind != WINDS[j]:
                    fail(
                        seat.at("wind"),
                        _("%(value)s is out of order: the seats go E, S, W, N, so this is %(wind)s")
                        % {"value": show(wind), "wind": WINDS[j]},
                    )
                key = self.player_ref(seat.at("player"), seat.get("player"))
                if key in seated:
                    fail(
                        seat.at("player"),
                        _("%(key)s is already seated in this session at %(other)s")
                        % {"key": show(key), "other": seated[key]},
                    )
                if key in replaced:
                    fail(
                        seat.at("player"),
                        _("%(key)s is replaced in this session at %(other)s")
                        % {"key": show(key), "other": replaced[key]},
                    )
                seated[key] = seat_path
                replaces = self.read_replaces(seat, key, seated, replaced)
                joined = seat["joined"]
                score = seat["score"]
                if score is not None and status == schema.PLAYING:
                    fail(
                        seat.at("score"),
                        _(
                            "the table is still in play (status playing): its seats have no "
                            "score until its result is sent to the desk"
                        ),
                    )
                chombo = seat["chombo"]
                if score is None and chombo and not hands:
                    fail(seat.at("chombo"), _("a chombo needs a score on the seat"))
                scores.append(score)
                chombos.append(chombo)
                chombo_given.append(seat.get("chombo") is not None)
                table.seats.append((WINDS[j], key, replaces, joined))
            if t["winds_drawn_at"]:
                table.winds_drawn = (t["winds_drawn_at"], t["winds_drawn_by"])
            if hands:
                # A table in play keeps its hands and takes no scores from them: the table goes
                # on from where it was, and no result is made of it.
                fill = status != schema.PLAYING
                self.read_hands(path, table, hands, scores, chombos, chombo_given, fill)
            table.confirmed = self.read_confirmed(table, t.items("hands_confirmed"), len(hands))
            current = self.check_scores(path, scores)
            history = t.items("history")
            if history:
                table.versions = self.read_history(path, table, history, scores, chombos, status)
            elif current:
                table.versions = [
                    Version(
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

    def read_hands(self, path, table, items, scores, chombos, chombo_given, fill=True):
        """The table's hands, played through the arithmetic (mahjong.hands.play): seats without
        scores take what the hands give (unless `fill` is false: a table still in play), seats
        with scores must show it; a riichi seat's chombo is the number of chombo hands it
        caused (taken from the hands when the seat gives none). `scores` and `chombos` are
        filled in place."""
        winds = [wind for wind, _k, _r, _j in table.seats]
        if is_awarded(self.rules, len(winds)):
            fail(f"{path}.hands", _("an awarded table (one or two players) has no hands"))
        hands = [schema.HAND.read(hand_path, item) for hand_path, item in items]
        try:
            outcome = play(self.rules, hands, winds)
        except HandError as e:
            fail(f"{path}.{e.path}", rule_message(e))
        if fill and all(score is None for score in scores):
            scores[:] = [outcome.scores[wind] for wind in winds]
        for j, wind in enumerate(winds):
            given, made = scores[j], outcome.scores[wind]
            if given is not None and given != made:
                fail(
                    f"{path}.seats[{j}].score",
                    _("%(score)s, but the hands give %(hands)s")
                    % {
                        "score": number_format(given, force_grouping=True),
                        "hands": number_format(made, force_grouping=True),
                    },
                )
            if outcome.chombo is None:
                continue
            count = outcome.chombo[wind]
            if chombo_given[j] and chombos[j] != count:
                fail(
                    f"{path}.seats[{j}].chombo",
                    _("%(chombo)d, but the hands have %(count)d chombo by this seat")
                    % {"chombo": chombos[j], "count": count},
                )
            if count > CHOMBO_MAX:
                fail(
                    f"{path}.hands",
                    _("%(count)d chombo by one seat; a seat has at most %(max)d")
                    % {"count": count, "max": CHOMBO_MAX},
                )
            chombos[j] = count
        table.hands = hands

    def read_confirmed(self, table, items, count) -> list:
        """Per hand, the winds of the table's players who confirmed it (a desk key): at most
        one list per hand, each wind a seat of the table and given once."""
        if len(items) > count:
            fail(
                items[count][0],
                ngettext(
                    "the table has %(count)d hand; this confirms one more",
                    "the table has %(count)d hands; this confirms one more",
                    count,
                )
                % {"count": count},
            )
        winds = [wind for wind, _k, _r, _j in table.seats]
        confirmed = []
        for path, item in items:
            given = schema.TABLE.fields["hands_confirmed"].items.read(path, item)
            for j, wind in enumerate(given):
                wind = schema.TABLE.fields["hands_confirmed"].items.items.read(f"{path}[{j}]", wind)
                if wind not in winds:
                    fail(
                        f"{path}[{j}]",
                        _("%(value)s is not a seat of this table") % {"value": show(wind)},
                    )
                if wind in given[:j]:
                    fail(f"{path}[{j}]", _("%(value)s is given twice") % {"value": show(wind)})
            confirmed.append(tuple(given))
        return confirmed

    def read_replaces(self, seat: Record, key, seated, replaced):
        """The key of the player the seat's substitute replaces, or None."""
        replaces = seat.get("replaces")
        if replaces is None or replaces == "":
            return None
        path = seat.at("replaces")
        replaces = self.player_ref(path, replaces)
        if replaces == key:
            fail(path, _("a player cannot replace themselves"))
        if replaces in seated or replaces in replaced:
            fail(
                path,
                _("%(key)s is already seated or replaced in this session at %(other)s")
                % {"key": show(replaces), "other": seated.get(replaces) or replaced[replaces]},
            )
        replaced[replaces] = seat.path
        return replaces

    def check_seat_count(self, path, count):
        if three_player(self.rules):
            if not 1 <= count <= 4:
                fail(
                    path,
                    _("a Sichuan table has 4 or 3 seats (1 or 2 when awarded), not %(count)d")
                    % {"count": count},
                )
        elif count != 4:
            fail(path, _("a riichi table has 4 seats, not %(count)d") % {"count": count})

    def check_scores(self, path, scores) -> bool:
        """True when the seats carry scores (all of them), after checking them."""
        given = [s is not None for s in scores]
        awarded = is_awarded(self.rules, len(scores))
        if awarded:
            if any(given):
                index = given.index(True)
                fail(
                    f"{path}.seats[{index}].score",
                    _("an awarded table (one or two players) has no scores"),
                )
            return False
        if not any(given):
            return False
        if not all(given):
            index = given.index(False)
            fail(
                f"{path}.seats[{index}].score",
                _("is missing: either every seat of a table has a score or none has"),
            )
        problems = validate_scores(self.rules, scores)
        if problems:
            problem = problems[0]
            where = f"{path}.seats" if problem[0] < 0 else f"{path}.seats[{problem[0]}].score"
            fail(where, rule_message(problem))
        return True

    def read_history(self, path, table, items, scores, chombos, status):
        versions = []
        seen = set()
        confirmed = None
        winds = [wind for wind, _k, _r, _j in table.seats]
        seat_player = {wind: key for wind, key, _r, _j in table.seats}
        if items and is_awarded(self.rules, len(table.seats)):
            fail(f"{path}.history", _("an awarded table has no results"))
        for vpath, item in items:
            v = Record(schema.TABLE_VERSION, vpath, item)
            version = v["version"]
            if version in seen:
                fail(
                    v.at("version"),
                    _("version %(version)d is listed twice") % {"version": version},
                )
            seen.add(version)
            vstatus = v["status"]
            if vstatus == "confirmed":
                if confirmed is not None:
                    fail(
                        v.at("status"),
                        _("a table has one confirmed version; version %(other)d is confirmed too")
                        % {"other": confirmed},
                    )
                confirmed = version
            rows = v.items("scores")
            if [r.get("wind") if isinstance(r, dict) else None for _p, r in rows] != winds:
                fail(
                    v.at("scores"),
                    _("must have one score per seat, in the order %(winds)s")
                    % {"winds": ", ".join(winds)},
                )
            version_scores = []
            for rpath, row in rows:
                r = Record(schema.VERSION_SCORE, rpath, row)
                key = r.get("player")
                key = (
                    seat_player[r.get("wind")]
                    if key is None
                    else self.player_ref(r.at("player"), key)
                )
                version_scores.append((r.get("wind"), key, r["score"], r["chombo"]))
            if vstatus == "draft":
                # A draft can still be confirmed: its scores must hold as the seats' do.
                problems = validate_scores(self.rules, [s for _w, _k, s, _c in version_scores])
                if problems:
                    seat = problems[0][0]
                    where = v.at("scores") if seat < 0 else f"{vpath}.scores[{seat}].score"
                    fail(where, rule_message(problems[0]))
            versions.append(
                Version(
                    version=version,
                    status=vstatus,
                    scores=version_scores,
                    **{
                        key: v[key]
                        for key in (
                            "entered_by",
                            "entered_at",
                            "confirmed_by",
                            "confirmed_at",
                            "superseded_at",
                            "note",
                        )
                    },
                )
            )
        versions.sort(key=lambda v: v.version)
        self.check_current(path, versions, scores, chombos, status)
        return versions

    def check_current(self, path, versions, scores, chombos, status):
        """The version on the seats (the confirmed one, else the newest draft) is theirs."""
        current = next((v for v in versions if v.status == "confirmed"), None)
        if current is None:
            drafts = [v for v in versions if v.status == "draft"]
            current = drafts[-1] if drafts else None
        has_scores = any(s is not None for s in scores)
        if current is not None and status == schema.PLAYING:
            fail(
                f"{path}.status",
                _(
                    "the table is still in play (status playing), but its history's current "
                    "version %(version)d is %(status)s"
                )
                % {"version": current.version, "status": current.status},
            )
        if current is None:
            if has_scores:
                fail(
                    f"{path}.history",
                    _("has no confirmed or draft version for the scores on the seats"),
                )
            return
        if not has_scores:
            fail(
                f"{path}.seats",
                _("have no scores, but the history has version %(version)d (%(status)s)")
                % {"version": current.version, "status": current.status},
            )
        if current.status != status:
            fail(
                f"{path}.status",
                _(
                    "the table is %(table)s but its history's current version %(version)d "
                    "is %(status)s"
                )
                % {"table": status, "version": current.version, "status": current.status},
            )
        shown = [(score, chombo) for _w, _k, score, chombo in current.scores]
        if shown != list(zip(scores, chombos, strict=True)):
            fail(
                f"{path}.seats",
                _("the scores differ from version %(version)d in the history")
                % {"version": current.version},
            )
