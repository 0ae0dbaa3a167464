"""A stateful property test of the whole desk (issue 22): a Hypothesis rule-based state machine
drives the desk's own write paths through the real URLs, logged in as the role each one needs,
with values drawn across and beyond every field's limits, and checks the tournament after
every step.

The steps (one rule each, `DeskMachine`): add and edit players (the player form), import a
player list (CSV or XLSX: upload, preview, confirm), check in, add and seat sessions (the draw,
Swiss, a swap by hand), enter results and confirm them (a second desk user, unless the
tournament allows single confirmation), end a session, the clock (start, pause, resume, adjust,
length, reset), penalties and their voiding, substitutes, three-handed tables, incidents and
their voiding, disqualification, appeals with deposits, review and decisions, the rules page
and the tournament's settings. Values: very long texts, huge and non-finite numbers
('1e30', 10**20, 'inf', 'NaN', 'sNaN', '1e400'), superscript and other non-ASCII digits,
negative zero and tiny fractions, control, bidi and zero-width characters, lone surrogates
(sent as their raw bytes, which no UTF-8 decoder accepts: the one way a form post carries
them), spreadsheet formula prefixes, keys that are not safe in an address, and dates at the
ends of the calendar — mixed with ordinary values, so that the tournament also moves on.

After every step:

(a) no request of the step answered 500 (each request is checked as it returns);
(b) every page of the tournament answers 200: `pages()` is the one list (public pages, the
    feed, every player's page, the desk's and the referee's pages, every session's and table's
    pages, the PDFs, the workbooks, the tournament file);
(c) the workbook and the EMA results sheet hold no live formula;
(d) the tournament file the desk exports imports again (under another slug, in a savepoint
    that is rolled back) and the restored tournament's standings feed equals the original's,
    slug aside. Importing costs more than the rest of a step's checks, so (d) runs every
    RESTORE_EVERY steps and at the end of every run (teardown), not after every step.

Each example builds its own tournament and staff inside a savepoint that its teardown rolls
back, with an empty cache. CI runs a fixed, small set of examples (derandomized, no example
database, no shrinking; about 20 s per database on the 2-core build machine); a longer run:

    DESK_STATEFUL_EXAMPLES=200 DESK_STATEFUL_STEPS=40 \
        pytest tests/integration/desk/test_state_machine.py

(DESK_STATEFUL_SHRINK=1 shrinks a failure to fewer steps, at the cost of minutes.)
"""

import csv
import io
import json
import os
import re
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
)
from openpyxl import Workbook
from openpyxl.utils.exceptions import IllegalCharacterError

from mahjong.penalties import kinds_for
from publishing.public_file import public_tournament_file
from referee.models import Appeal, Incident
from scoring.models import Penalty, Result
from seating.models import Seat, Table
from tests.support import factories as f
from tests.support.machine import Machine, PublishingRules, StandbyRules, explore, pages
from tests.support.odd_input import DATE, NUMBER, TEXT, either, fill, form_on
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

RESTORE_EVERY = int(os.environ.get("DESK_STATEFUL_RESTORE_EVERY", "4"))


# --- the machine ------------------------------------------------------------------------------


class DeskMachine(StandbyRules, PublishingRules, Machine):
    """One tournament, its staff and their clients, driven through the desk's URLs."""

    examples = 0
    publish_kind, publish_role = "tournament", "director"

    def __init__(self):
        super().__init__()
        DeskMachine.examples += 1
        self.restored_at = -1
        self.t = None

    def teardown(self):
        try:
            # (d) at the end of a run, unless the run already failed (sys.exc_info() sees the
            # step's failure on its way out: a restore failing now would hide it).
            if self.t is not None and self.restored_at != self.steps and not sys.exc_info()[0]:
                self.check_restore()
        finally:
            self.rollback()

    # --- what the tournament has now -----------------------------------------------------

    def published(self):
        return None if self.t is None else (self.t.slug, self.t.pk)

    def public_file(self):
        return public_tournament_file(self.tournament())

    def tournament(self):
        return Tournament.objects.get(pk=self.t.pk)

    def rule_set(self):
        return self.tournament().rule_set()

    def players(self):
        return list(Player.objects.filter(tournament=self.t).order_by("pk"))

    def sessions(self):
        return list(self.t.sessions.order_by("number"))

    def seated_sessions(self):
        return [s for s in self.sessions() if s.seats.exists()]

    def tables(self):
        return list(
            Table.objects.filter(session__tournament=self.t).order_by("session__number", "number")
        )

    def has_seats(self):
        return self.t is not None and Seat.objects.filter(session__tournament=self.t).exists()

    def has_draft(self):
        return (
            self.t is not None
            and Result.objects.filter(table__session__tournament=self.t, status="draft").exists()
        )

    def choose(self, data, options, odd=None):
        """One of `options` (a record's pk, a number), or now and then an odd value."""
        ordinary = st.sampled_from(options) if options else st.just("")
        return either(data, ordinary, odd if odd is not None else NUMBER, odds=1)

    def s_url(self, name, session, *args):
        return reverse(name, args=[self.t.slug, session.number, *args])

    def t_url(self, name, *args):
        return reverse(name, args=[self.t.slug, *args])

    # --- the tournament ------------------------------------------------------------------

    @initialize(
        ruleset=st.sampled_from(["ema-2012", "sbr-2025", "furiten-club"]),
        single=st.booleans(),
        players=st.integers(7, 8),
        played=st.booleans(),
    )
    def a_tournament(self, ruleset, single, players, played):
        """A tournament with players and a substitute (riichi: enough to fill the tables),
        session 1 seated by the draw (the director's button) and, when `played`, one table's
        result entered and confirmed."""
        self.t = f.tournament(
            ruleset,
            players=players,
            slug=f"machine-{DeskMachine.examples}",
            single_confirmation=single,
            fee=40,
        )
        Player.objects.create(tournament=self.t, key="s01", name="Sam Substitute", substitute=True)
        self.post("director", self.t_url("desk:session_add"))
        self.post("director", self.s_url("desk:session_draw", self.sessions()[0]), {"seed": "7"})
        if played:
            self.play(self.tables()[0], "desk1", "desk2")

    @rule(data=st.data())
    def edit_tournament(self, data):
        url = self.t_url("desk:tournament_edit")
        form = form_on(self.get("director", url).content.decode(), "name")
        form.update(
            fill(
                data,
                {
                    "name": (st.just(form["name"]), TEXT),
                    "venue": (st.just("Hala Sportowa"), TEXT),
                    "start_date": (st.just("2026-02-17"), DATE),
                    "end_date": (st.just("2026-02-18"), DATE),
                    "fee": (st.just("40"), NUMBER),
                    "planned_sessions": (st.just("4"), NUMBER),
                    "slug": (
                        st.just(self.t.slug),
                        st.sampled_from(["", "a/b", "../x", "a b", "x" * 81]) | TEXT,
                    ),
                },
            )
        )
        self.post("director", url, form)
        self.t = self.tournament()

    @rule(data=st.data())
    def change_rules(self, data):
        url = self.t_url("desk:rules")
        form = form_on(self.get("director", url).content.decode(), "ruleset")
        fields = sorted(k for k in form if k.startswith("rule_"))
        for name in data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3)):
            form[name] = data.draw(st.one_of(NUMBER, TEXT, st.just("-8000, -12000")))
        if data.draw(st.integers(0, 9)) == 0:
            form["ruleset"] = data.draw(st.sampled_from(["ema-2012", "sbr-2025", "x"]))
        form["reason"] = either(data, st.just("agreed at the players' meeting"), TEXT)
        self.post("director", url, form)

    # --- players -------------------------------------------------------------------------

    def player_fields(self, data):
        n = len(self.players())
        fields = fill(
            data,
            {
                "name": (st.just(f"Newcomer {n}"), TEXT),
                "ema_id": (st.just(f"{n:08d}"), st.one_of(NUMBER, st.just("07000001"))),
                "country": (st.just("PL"), TEXT),
                "club": (st.just("Kraków Riichi"), TEXT),
                "team": (st.just("North"), TEXT),
                "status": (
                    st.sampled_from(["active", "withdrawn", "disqualified", "excluded"]),
                    TEXT,
                ),
            },
        )
        for flag in ("substitute", "checked_in"):
            if data.draw(st.booleans()):
                fields[flag] = either(data, st.just("on"), st.sampled_from(["1", "\x00", "³"]))
        return fields

    @rule(data=st.data())
    def add_player(self, data):
        form = self.player_fields(data)
        if data.draw(st.booleans()):
            form["another"] = "1"
        self.post("director", self.t_url("desk:player_add"), form)

    @rule(data=st.data())
    def edit_player(self, data):
        player = data.draw(st.sampled_from(self.players()))
        url = self.t_url("desk:player_edit", player.pk)
        form = form_on(self.get("director", url).content.decode(), "name")
        changed = self.player_fields(data)
        for name in data.draw(st.lists(st.sampled_from(sorted(changed)), min_size=1)):
            form[name] = changed[name]
        self.post("director", url, form)

    @rule(data=st.data())
    def import_players(self, data):
        """Upload a list (CSV or XLSX), then press "Import these players" on its preview."""
        columns = ["name"] + data.draw(
            st.lists(
                st.sampled_from(
                    ["key", "ema_id", "country", "club", "team", "substitute", "status"]
                ),
                unique=True,
            )
        )
        ordinary = {
            "key": st.just("k{n}"),
            "name": st.just("Listed {n}"),
            "ema_id": st.just("0800000{n}"),
            "country": st.just("DE"),
            "club": st.just(""),
            "team": st.just("South"),
            "substitute": st.sampled_from(["yes", "no", ""]),
            "status": st.sampled_from(["active", "withdrawn", ""]),
        }
        rows = []
        for n in range(data.draw(st.integers(1, 3))):
            odd = st.one_of(TEXT, NUMBER)
            values = fill(data, {c: (ordinary[c], odd) for c in columns}, most=1)
            rows.append([values[c].replace("{n}", str(n)) for c in columns])
        if data.draw(st.booleans()):
            out = io.StringIO()
            writer = csv.writer(out, delimiter=data.draw(st.sampled_from([",", ";", "\t"])))
            writer.writerow(columns)
            writer.writerows(rows)
            name, content = "players.csv", out.getvalue().encode("utf-8", "surrogatepass")
        else:
            book = Workbook()
            sheet = book.active
            sheet.append(columns)
            for row in rows:
                try:
                    sheet.append(row)
                except (IllegalCharacterError, ValueError):  # an .xlsx cannot hold it
                    sheet.append([ILLEGAL.sub("", str(v)) for v in row])
            out = io.BytesIO()
            try:
                book.save(out)
            except UnicodeEncodeError:  # a lone surrogate: no workbook carries one
                return
            name, content = "players.xlsx", out.getvalue()
        url = self.t_url("desk:player_import")
        upload = {"file": SimpleUploadedFile(name, content)}
        # Issue 37: the order of a whole name's words, and the columns named as the family and
        # the given name (a heading, a letter, or one the list has not).
        names = st.sampled_from(["", "name", "first_name", "A", "B", "Z", "nobody"])
        choices = {
            "order": data.draw(st.sampled_from(["", "given", "family", "sideways"])),
            "family_column": data.draw(names),
            "given_column": data.draw(names),
        }
        preview = self.request("director", "post", url, choices, files=upload)
        found = re.search(r'name="preview" value="(\w+)"', preview.content.decode())
        if found and data.draw(st.booleans()):  # "Split again" in the other order
            order = data.draw(st.sampled_from(["given", "family"]))
            again = {"reorder": "1", "preview": found.group(1), "order": order}
            preview = self.request("director", "post", url, again)
            found = re.search(r'name="preview" value="(\w+)"', preview.content.decode())
        if found:
            self.post("director", url, {"confirm": "1", "preview": found.group(1)})

    @rule(data=st.data())
    def check_in(self, data):
        player = data.draw(st.sampled_from(self.players()))
        value = either(data, st.sampled_from(["1", "0"]), NUMBER, odds=1)
        self.post("desk2", self.t_url("desk:checkin_toggle", player.pk), {"checked_in": value})

    # --- sessions and seating ------------------------------------------------------------

    @precondition(lambda self: self.t is not None and self.t.sessions.count() < 2)
    @rule()
    def add_session(self):
        self.post("director", self.t_url("desk:session_add"))

    @rule(data=st.data(), swiss=st.booleans())
    def seat_session(self, data, swiss):
        session = data.draw(st.sampled_from(self.sessions()))
        name = "desk:session_swiss" if swiss else "desk:session_draw"
        seed = either(data, st.integers(0, 2**63 - 1).map(str), NUMBER)
        self.post("director", self.s_url(name, session), {"seed": seed})

    @rule(data=st.data())
    def add_table(self, data):
        """A table by hand: players by wind, the unseated ones mostly."""
        session = data.draw(st.sampled_from(self.sessions()))
        seated = set(session.seats.values_list("player_id", flat=True))
        free = [p.pk for p in self.players() if p.pk not in seated] or [""]
        form = {wind: self.choose(data, free) for wind in "ESWN" if data.draw(st.integers(0, 5))}
        self.post("director", self.s_url("desk:table_add", session), form)

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def delete_table(self, data):
        table = data.draw(st.sampled_from(self.tables()))
        self.post("director", self.s_url("desk:table_delete", table.session, table.number))

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def swap_players(self, data):
        session = data.draw(st.sampled_from(self.seated_sessions()))
        keys = list(session.seats.values_list("player__key", flat=True))
        form = fill(
            data,
            {
                "a": (st.sampled_from(keys), TEXT),
                "b": (st.sampled_from(keys), TEXT),
                "reason": (st.just("keep clubmates apart"), TEXT),
                "override": (st.sampled_from(["on", ""]), TEXT),
            },
        )
        if data.draw(st.integers(0, 3)) == 0:
            form["b"], form["table"], form["wind"] = "", data.draw(NUMBER), data.draw(TEXT)
        self.post("director", self.s_url("desk:seat_change", session), form)

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def end_session(self, data):
        session = data.draw(st.sampled_from(self.seated_sessions()))
        self.post("desk1", self.s_url("desk:session_end", session), {"confirm": "1"})

    # --- results -------------------------------------------------------------------------

    def scores(self, data, table) -> dict:
        """Scores in the rule set's steps that add up to the table's total, by wind."""
        rules = self.rule_set()
        winds = [w for w in "ESWN" if table.seats.filter(wind=w).exists()]
        scores = [data.draw(st.integers(-300, 700)) * rules.score_step for _ in winds[1:]]
        scores.append(rules.start_points * len(winds) - sum(scores))
        return dict(zip(winds, scores, strict=True))

    def play(self, table, enters, confirms, scores=None):
        """A table's result as the desk saves it: entered by one desk user, confirmed by
        another, both through the result page."""
        if scores is None:
            rules = self.rule_set()
            winds = [w for w in "ESWN" if table.seats.filter(wind=w).exists()]
            step = 100 * rules.score_step
            first = rules.start_points * len(winds) + step * (len(winds) - 1)
            scores = dict(zip(winds, [first] + [-step] * (len(winds) - 1), strict=True))
        latest = table.results.order_by("-version").first()
        version = latest.version if latest else 0
        form = {"base_version": version, "note": ""}
        form.update({f"score_{wind}": score for wind, score in scores.items()})
        self.post(enters, self.s_url("desk:result", table.session, table.number), form)
        url = self.s_url("desk:result_confirm", table.session, table.number)
        self.post(confirms, url, {"version": version + 1})

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def play_table(self, data):
        table = data.draw(st.sampled_from([t for t in self.tables() if t.seats.exists()]))
        enters, confirms = data.draw(st.permutations(["desk1", "desk2", "director"]))[:2]
        self.play(table, enters, confirms, self.scores(data, table))

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def enter_result(self, data):
        table = data.draw(st.sampled_from([t for t in self.tables() if t.seats.exists()]))
        riichi = self.rule_set().game == "riichi"
        latest = table.results.order_by("-version").first()
        fields = {"base_version": (st.just(latest.version if latest else 0), NUMBER)}
        for wind, score in self.scores(data, table).items():
            fields[f"score_{wind}"] = (st.just(str(score)), NUMBER)
            if riichi:
                fields[f"chombo_{wind}"] = (st.sampled_from(["0", "", "1"]), NUMBER)
        fields["note"] = (st.just("W and N swapped?"), TEXT)
        who = data.draw(st.sampled_from(["desk1", "desk2", "director"]))
        url = self.s_url("desk:result", table.session, table.number)
        self.post(who, url, fill(data, fields))

    @precondition(lambda self: self.has_draft())
    @rule(data=st.data())
    def confirm_result(self, data):
        drafts = Result.objects.filter(table__session__tournament=self.t, status="draft")
        result = data.draw(st.sampled_from(list(drafts.select_related("table__session"))))
        others = [
            name
            for name in ("desk1", "desk2", "director")
            if self.users[name].pk != result.entered_by_id or self.t.single_confirmation
        ]
        who = data.draw(st.sampled_from(others))
        version = either(data, st.just(str(result.version)), NUMBER, odds=1)
        table = result.table
        url = self.s_url("desk:result_confirm", table.session, table.number)
        self.post(who, url, {"version": version})

    # --- the clock -----------------------------------------------------------------------

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def clock(self, data):
        session = data.draw(st.sampled_from(self.sessions()))
        action = either(
            data,
            st.sampled_from(["start", "pause", "resume", "adjust", "length"]),
            TEXT,
            odds=1,
        )
        fields = {
            "minutes": (st.sampled_from(["5", "-5", "0.5", "90"]), NUMBER),
            "warning_minutes": (st.sampled_from(["15", "0"]), NUMBER),
            "table": (st.sampled_from(["", "1", "2"]), NUMBER),
        }
        form = {"action": action, **fill(data, fields)}
        who = data.draw(st.sampled_from(["desk1", "director"]))
        self.post(who, self.s_url("desk:clock_control", session), form)

    @rule(data=st.data())
    def reset_clock(self, data):
        session = data.draw(st.sampled_from(self.sessions()))
        self.post("director", self.s_url("desk:clock_reset", session))

    # --- the referee ---------------------------------------------------------------------

    def seated_player(self, data):
        session = data.draw(st.sampled_from(self.seated_sessions()))
        seats = list(session.seats.select_related("player", "table").order_by("pk"))
        return session, data.draw(st.sampled_from(seats))

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def penalty(self, data):
        """A tap on the referee's table page: the kind and the number its button sends."""
        session, seat = self.seated_player(data)
        rules = self.rule_set()
        kind = either(data, st.sampled_from(kinds_for(rules)), TEXT, odds=1)
        amounts = [*rules.misconduct_amounts, *rules.serious_misconduct_range] or [-8000]
        ordinary = {
            "late": {"minutes": st.sampled_from(["3", "12", "999"])},
            "misconduct": {"amount": st.sampled_from([str(a) for a in amounts])},
            "other": {
                "amount": st.sampled_from(["-500", "-1", "\u22122"]),
                "stage": st.sampled_from(["before", "after"]),
                "note": st.just("phone rang"),
            },
        }.get(kind, {})
        fields = {
            "player": (st.just(seat.player.pk), NUMBER),
            "kind": (st.just(kind), TEXT),
            "next": (
                st.just(self.s_url("referee:table", session, seat.table.number)),
                TEXT,
            ),
            **{
                name: (value, TEXT if name == "note" else NUMBER)
                for name, value in ordinary.items()
            },
        }
        for name in ("minutes", "amount", "stage", "note"):
            fields.setdefault(name, (st.just(""), TEXT if name in ("stage", "note") else NUMBER))
        form = fill(data, fields)
        who = "director" if kind == "other" else data.draw(st.sampled_from(["referee", "head"]))
        self.post(who, self.s_url("referee:penalty_add", session), {**form, "confirm": "1"})

    @precondition(
        lambda self: (
            self.t is not None
            and Penalty.objects.filter(session__tournament=self.t, voided_at=None).exists()
        )
    )
    @rule(data=st.data())
    def void_penalty(self, data):
        penalties = Penalty.objects.filter(session__tournament=self.t, voided_at=None)
        pk = data.draw(st.sampled_from(list(penalties.values_list("pk", flat=True))))
        reason = either(data, st.just("wrong player"), TEXT)
        self.post("director", self.t_url("referee:penalty_void", pk), {"reason": reason})

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def substitute(self, data):
        session, seat = self.seated_player(data)
        pool = [p.pk for p in self.players() if p.substitute] or [p.pk for p in self.players()]
        form = fill(
            data,
            {
                "player": (st.just(seat.player.pk), NUMBER),
                "substitute": (st.sampled_from(pool), NUMBER),
                "joined": (st.sampled_from(["start", "during", ""]), TEXT),
                "note": (st.just("ill"), TEXT),
            },
        )
        who = data.draw(st.sampled_from(["referee", "head"]))
        self.post(who, self.s_url("referee:substitute", session), form)

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def three_handed(self, data):
        session, seat = self.seated_player(data)
        form = {"player": seat.player.pk, "note": either(data, st.just("no show"), TEXT)}
        self.post("referee", self.s_url("referee:three_handed", session), form)

    @precondition(lambda self: self.has_seats())
    @rule(data=st.data())
    def incident(self, data):
        session, seat = self.seated_player(data)
        form = fill(
            data,
            {
                "text": (st.just("dropped a tile"), TEXT),
                "player": (st.sampled_from([seat.player.pk, ""]), NUMBER),
                "table": (st.sampled_from([seat.table.number, ""]), NUMBER),
            },
        )
        who = data.draw(st.sampled_from(["referee", "director"]))
        self.post(who, self.s_url("referee:incident_add", session), form)

    @precondition(
        lambda self: (
            self.t is not None
            and Incident.objects.filter(tournament=self.t, voided_at=None).exists()
        )
    )
    @rule(data=st.data())
    def void_incident(self, data):
        incidents = Incident.objects.filter(tournament=self.t, voided_at=None)
        pk = data.draw(st.sampled_from(list(incidents.values_list("pk", flat=True))))
        reason = either(data, st.just("duplicate"), TEXT)
        self.post("director", self.t_url("referee:incident_void", pk), {"reason": reason})

    @rule(data=st.data())
    def disqualify(self, data):
        player = data.draw(st.sampled_from(self.players()))
        numbers = [s.number for s in self.sessions()] + [""]
        form = fill(
            data,
            {
                "text": (st.just("left without notice"), TEXT),
                "session": (st.sampled_from(numbers), NUMBER),
            },
        )
        who = data.draw(st.sampled_from(["head", "director", "referee"]))
        self.post(who, self.t_url("referee:disqualify", player.pk), form)

    # --- appeals -------------------------------------------------------------------------

    @rule(data=st.data())
    def file_appeal(self, data):
        session = data.draw(st.sampled_from(self.sessions()))
        penalties = Penalty.objects.filter(session__tournament=self.t, voided_at=None)
        incidents = Incident.objects.filter(tournament=self.t, voided_at=None)
        tables = ["", *session.tables.values_list("number", flat=True)]
        form = fill(
            data,
            {
                "session": (st.just(session.number), NUMBER),
                "table": (st.sampled_from(tables), NUMBER),
                "appellant": (st.sampled_from([p.pk for p in self.players()]), NUMBER),
                "penalty": (st.sampled_from(["", *penalties.values_list("pk", flat=True)]), NUMBER),
                "incident": (
                    st.sampled_from(["", *incidents.values_list("pk", flat=True)]),
                    NUMBER,
                ),
                "captain": (st.sampled_from(["", "on"]), TEXT),
                "subject": (st.just("misconduct penalty"), TEXT),
                "text": (st.just("I was quiet"), TEXT),
                "filed_at": (st.just(""), DATE),
                "deposit": (st.sampled_from(["", "80", "12.50"]), NUMBER),
                "override": (st.sampled_from(["", "the referee was busy"]), TEXT),
            },
        )
        who = data.draw(st.sampled_from(["referee", "head", "director"]))
        self.post(who, self.t_url("referee:appeal_add"), form)

    @precondition(lambda self: self.t is not None and self.t.appeals.exists())
    @rule(data=st.data())
    def decide_appeal(self, data):
        pk = data.draw(st.sampled_from(list(self.t.appeals.values_list("pk", flat=True))))
        if data.draw(st.booleans()):
            form = {"action": either(data, st.just("review"), TEXT, odds=1)}
        else:
            form = fill(
                data,
                {
                    "status": (st.sampled_from(["upheld", "rejected"]), TEXT),
                    "decided_by": (st.sampled_from([b.value for b in Appeal.Body]), TEXT),
                    "decision": (st.just("penalty stands"), TEXT),
                },
            )
        who = data.draw(st.sampled_from(["head", "director", "referee"]))
        self.post(who, self.t_url("referee:appeal", pk), form)

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def every_page_answers(self):
        """(b) every page of the tournament answers 200 and (c) no workbook has a live
        formula; (d) every RESTORE_EVERY of the steps that wrote."""
        if self.t is None or not self.wrote:
            return  # a step that wrote nothing leaves every page as the last check saw it
        self.steps += 1
        self.t = self.tournament()
        self.open_pages(pages(self.t))
        self.wrote = False
        if self.steps % RESTORE_EVERY == 0:
            self.check_restore()

    def check_restore(self):
        """(d) the exported file imports under another slug, with the same standings feed."""
        self.restored_at = self.steps
        content = self.get("director", reverse("archive:export_file", args=[self.t.slug])).content
        with self.restored_copy(self.t, json.loads(content), "the exported file"):
            pass


ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@pytest.mark.long(70)
def test_the_desk_holds_whatever_its_pages_are_sent():
    explore(DeskMachine)
