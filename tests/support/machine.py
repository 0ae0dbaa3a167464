"""What the stateful tests of the desk share (tests/integration/*/test_state_machine*.py): the
pages of a tournament and of a club rating (the invariant "every page answers 200"), the
requests of a step (the invariant "no request answered 500"), and the comparisons a restore is
held to (the same standings feed, the same club rating, the same tables)."""

import io
import json
import os
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from django.core.cache import cache
from django.db import connection, transaction
from django.template.base import Template
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from openpyxl import load_workbook

from archive.tournament_file import TournamentFileError, dumps, import_tournament
from core.roles import CLUB_OFFICER, DESK, DIRECTOR, HEAD_REFEREE, REFEREE
from publishing import sender as publishing_sender
from publishing.models import Publication
from publishing.models import Standby as StandbyModel
from scoring.models import Result
from scoring.selectors import hands_outcome, table_hands
from seating.keys import table_path
from seating.models import Table
from tests.support import factories as f
from tests.support import publish_stub
from tests.support.odd_input import TEXT, either, encoded, shown
from tests.support.standby_client import feed as feed_standby
from tournament.models import Player

WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)

ROLES = {
    "director": DIRECTOR,
    "desk1": DESK,
    "desk2": DESK,
    "referee": REFEREE,
    "head": HEAD_REFEREE,
}
CLUB_ROLES = {
    "officer1": CLUB_OFFICER,
    "officer2": CLUB_OFFICER,
    "director": DIRECTOR,
}


# --- the pages of a tournament (invariant b) --------------------------------------------------


def pages(t) -> list[tuple[str, str, str]]:
    """Every page of the tournament, as (role, address, kind): the one list invariant (b)
    opens. Public pages anonymously; desk pages as a desk user, the director's as the
    director, the referee's as a referee."""
    slug = t.slug
    found = [
        ("anonymous", reverse("public:home"), "html"),
        ("anonymous", reverse("public:standings", args=[slug]), "html"),
        ("anonymous", reverse("public:feed", args=[slug]), "json"),
        ("anonymous", reverse("public:statistics", args=[slug]), "json"),
        ("anonymous", reverse("public:find", args=[slug]), "html"),
        ("anonymous", reverse("public:clock", args=[slug]), "html"),
        ("anonymous", reverse("public:clock_json", args=[slug]), "json"),
        ("desk1", reverse("desk:home"), "html"),
        ("desk1", reverse("desk:tournament", args=[slug]), "html"),
        ("desk1", reverse("desk:players", args=[slug]), "html"),
        ("desk1", reverse("desk:checkin", args=[slug]), "html"),
        ("director", reverse("desk:tournament_edit", args=[slug]), "html"),
        ("director", reverse("desk:rules", args=[slug]), "html"),
        ("director", reverse("desk:player_add", args=[slug]), "html"),
        ("director", reverse("desk:player_import", args=[slug]), "html"),
        ("director", reverse("desk:plans", args=[slug]), "html"),
        ("director", reverse("archive:backups", args=[slug]), "html"),
        ("director", reverse("archive:export_file", args=[slug]), "json"),
        ("director", reverse("publishing:tournament", args=[slug]), "html"),
        ("referee", reverse("referee:home", args=[slug]), "html"),
        ("referee", reverse("referee:log", args=[slug]) + "?void=1", "html"),
        ("referee", reverse("referee:log", args=[slug]), "html"),
        ("referee", reverse("referee:appeals", args=[slug]), "html"),
        ("referee", reverse("referee:appeal_add", args=[slug]), "html"),
        ("desk1", reverse("printing:standings_pdf", args=[slug]), "pdf"),
        ("desk1", reverse("printing:appeals_pdf", args=[slug]), "pdf"),
        ("desk1", reverse("printing:workbook", args=[slug]), "xlsx"),
        ("desk1", reverse("printing:ema_results", args=[slug]), "xlsx"),
    ]
    for pk, key, status in t.players.values_list("pk", "key", "status"):
        found.append(("director", reverse("desk:player_edit", args=[slug, pk]), "html"))
        if status == Player.Status.EXCLUDED:
            continue  # left out of the standings, so it has no public page (a 404)
        try:
            found.append(("anonymous", reverse("public:player", args=[slug, key]), "html"))
        except NoReverseMatch:  # the standings link to it: the key must make an address
            found.append(("anonymous", f"/t/{slug}/p/{key}/", "html"))
    for session in t.sessions.order_by("number"):
        s = [slug, session.number]
        found += [
            ("desk1", reverse("desk:session", args=s), "html"),
            ("desk1", reverse("desk:clock", args=s), "html"),
            ("desk1", reverse("desk:clock", args=s) + "?partial=1", "html"),
            ("desk1", reverse("desk:seating_print", args=s), "html"),
            ("anonymous", reverse("public:clock_json", args=[slug]) + f"?session={s[1]}", "json"),
            ("referee", reverse("referee:home", args=[slug]) + f"?session={s[1]}", "html"),
            ("desk1", reverse("printing:protocols_pdf", args=s), "pdf"),
            ("desk1", reverse("printing:protocols_pdf", args=s) + "?filled=1", "pdf"),
            ("desk1", reverse("printing:seating_pdf", args=s), "pdf"),
        ]
        for number in session.tables.order_by("number").values_list("number", flat=True):
            found.append(("desk1", reverse("desk:result", args=[*s, number]), "html"))
            found.append(("referee", reverse("referee:table", args=[*s, number]), "html"))
    for pk in t.appeals.values_list("pk", flat=True):
        found.append(("referee", reverse("referee:appeal", args=[slug, pk]), "html"))
    return found


def hand_pages(t) -> list[tuple[str, str, str]]:
    """The pages of the tables' hands: each table's own page and its state (by the table's
    link, no login) and the desk's typed-hands page."""
    found = []
    tables = Table.objects.filter(session__tournament=t).select_related("session__tournament")
    for table in tables.order_by("session__number", "number"):
        link = table_path(table)
        args = [t.slug, table.session.number, table.number]
        found += [
            ("anonymous", link, "html"),
            ("anonymous", link + "state.json", "json"),
            ("desk1", reverse("desk:hands", args=args), "html"),
        ]
    return found


def club_pages(club) -> list[tuple[str, str, str]]:
    """Every page of a club rating (its officers' and the public's) and of the people who
    sat at its games, as (role, address, kind)."""
    slug = club.slug
    found = [
        ("anonymous", reverse("public:club_rating", args=[slug]), "html"),
        ("anonymous", reverse("public:club_games", args=[slug]), "html"),
        ("anonymous", reverse("public:club_feed", args=[slug]), "json"),
        ("officer1", reverse("desk:clubs"), "html"),
        ("officer1", reverse("desk:club", args=[slug]), "html"),
        ("officer1", reverse("desk:club_edit", args=[slug]), "html"),
        ("officer1", reverse("desk:club_season_add", args=[slug]), "html"),
        ("officer1", reverse("desk:club_members", args=[slug]), "html"),
        ("officer1", reverse("desk:club_games", args=[slug]), "html"),
        ("officer1", reverse("desk:club_game_add", args=[slug]), "html"),
        ("officer1", reverse("desk:club_rating", args=[slug]), "html"),
        ("officer1", reverse("desk:people"), "html"),
        ("officer1", reverse("printing:club_rating_pdf", args=[slug]), "pdf"),
        ("officer1", reverse("printing:club_games_pdf", args=[slug]), "pdf"),
        ("officer1", reverse("printing:club_xlsx", args=[slug]), "xlsx"),
        ("officer1", reverse("publishing:club", args=[slug]), "html"),
    ]
    for season in club.seasons.order_by("pk"):
        found.append(("officer1", reverse("desk:club_season_edit", args=[slug, season.pk]), "html"))
        found.append(
            (
                "anonymous",
                reverse("public:club_rating", args=[slug]) + f"?season={season.pk}",
                "html",
            )
        )
    for member in club.members.select_related("person").order_by("pk"):
        found.append(("officer1", reverse("desk:club_member", args=[slug, member.pk]), "html"))
        found.append(("officer1", reverse("desk:person", args=[member.person_id]), "html"))
        found.append(
            ("anonymous", reverse("public:club_person", args=[slug, member.person_id]), "html")
        )
    for evening in club.evenings.order_by("date"):
        day = evening.date.isoformat()
        found.append(("officer1", reverse("desk:club_evening", args=[slug, day]), "html"))
    for game in club.games.order_by("pk"):
        found.append(("officer1", reverse("desk:club_game", args=[slug, game.pk]), "html"))
    return found


def live_formulas(content: bytes) -> list[str]:
    """Cells of a workbook that a spreadsheet would run: formulas, and texts starting with "="
    that are not marked as text (openpyxl makes such a value a formula when it is written)."""
    found = []
    book = load_workbook(io.BytesIO(content))
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                value = cell.value
                formula = cell.data_type == "f" or (
                    isinstance(value, str) and value.startswith("=") and not cell.quotePrefix
                )
                if formula:
                    found.append(f"{sheet.title}!{cell.coordinate} = {shown(value)}")
    return found


def comparable(feed: dict) -> dict:
    """The standings feed without what a restore under another slug changes."""
    feed = json.loads(json.dumps(feed))
    feed["tournament"].pop("slug", None)
    return feed


def club_comparable(feed) -> object:
    """A club rating's feed without what a restore under another slug renumbers: the slug, the
    revision and every row's id (a game's, a season's, a person's, a seat's person: a restored
    club's people are the desk's by their EMA id, or new)."""
    if isinstance(feed, dict):
        return {
            key: club_comparable(value)
            for key, value in feed.items()
            if key not in ("id", "slug", "revision")
            and not (key == "person" and isinstance(value, int))
        }
    if isinstance(feed, list):
        return [club_comparable(value) for value in feed]
    return feed


def difference(a, b, path="feed") -> str:
    """Where two JSON values first differ, and how: for a failure's message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, ...) != b.get(key, ...):
                return difference(a.get(key, ...), b.get(key, ...), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return difference(x, y, f"{path}[{i}]")
    return f"{path}: {shown(a)} before, {shown(b)} restored"


# --- one truth between a table's hands and its result -----------------------------------------


def result_scores(result) -> dict:
    """wind -> (score, chombo) of a result."""
    return {s.wind: (s.score, s.chombo) for s in result.scores.all()}


def latest_live_result(table):
    """The table's newest result that is not superseded (a draft or the confirmed one)."""
    return table.results.exclude(status=Result.Status.SUPERSEDED).order_by("-version").first()


def disagreements(t) -> list[str]:
    """Every table of the tournament whose current hands give other scores than its newest
    draft or confirmed result: each as the table, the result and what the hands give."""
    found = []
    rules = t.rule_set()
    tables = Table.objects.filter(session__tournament=t).select_related("session__tournament")
    for table in tables.order_by("session__number", "number"):
        if not table_hands(table):
            continue
        result = latest_live_result(table)
        if result is None:
            continue
        outcome = hands_outcome(table)
        chombo = outcome.chombo or {}
        given = {w: (score, chombo.get(w, 0)) for w, score in outcome.scores.items()}
        if rules.game == "sichuan":  # Sichuan has no chombo column to compare
            given = {w: v[0] for w, v in given.items()}
            kept = {w: v[0] for w, v in result_scores(result).items()}
        else:
            kept = result_scores(result)
        if kept != given:
            found.append(
                f"session {table.session.number} table {table.number}: result v{result.version} "
                f"({result.status}) {kept}, but its {len(table_hands(table))} hands give {given}"
            )
    return found


def tables_as_kept(t) -> dict:
    """(session, table) -> what a tournament file keeps of the table: its current hands, and
    its confirmed result's scores, else its draft's, else that it is in play."""
    out = {}
    tables = Table.objects.filter(session__tournament=t).select_related("session")
    for table in tables.order_by("session__number", "number"):
        confirmed = table.results.filter(status=Result.Status.CONFIRMED).first()
        live = confirmed or latest_live_result(table)
        state = None
        if live is not None:
            state = (live.status, result_scores(live))
        elif table_hands(table):
            state = ("playing", None)
        hands = [h.data for h in table_hands(table)]
        out[(table.session.number, table.number)] = (hands, state)
    return out


# --- the machine's requests -------------------------------------------------------------------


def plain_render(template, context):
    """Template._render as Django has it outside the tests. Under test Django sends a signal for
    every template, include and form widget rendered, and the test client keeps a copy of each
    one's context for `response.context`; the machines never read it, and the copying was
    about a twentieth of their page walks."""
    return template.nodelist.render(context)


@contextmanager
def templates_not_recorded():
    """The block's requests render their templates without the test client's recording (their
    responses have no `context` or `templates`); the pages are the same."""
    recorded = Template._render
    Template._render = plain_render
    try:
        yield
    finally:
        Template._render = recorded


class Machine(RuleBasedStateMachine):
    """The staff's clients and one example's savepoint; every request checked for a 500."""

    roles = ROLES

    def __init__(self):
        super().__init__()
        cache.clear()
        self.point = transaction.savepoint()
        self.users = {name: f.user(name, role) for name, role in self.roles.items()}
        self.clients = {"anonymous": Client(raise_request_exception=False)}
        for name, user in self.users.items():
            client = Client(raise_request_exception=False)
            client.force_login(user)
            self.clients[name] = client
        self.steps = 0
        self.wrote = True

    def rollback(self):
        transaction.savepoint_rollback(self.point)
        cache.clear()

    def request(self, role, method, url, data=None, files=None, json_body=None):
        """One request as `role`; a 500 fails the step (invariant a) with its reproduction."""
        client = self.clients[role]
        client.cookies.pop("messages", None)
        with connection.execute_wrapper(self.watch), templates_not_recorded():
            if method == "get":
                response = client.get(url)
            elif json_body is not None:
                response = client.post(url, json.dumps(json_body), content_type="application/json")
            elif files is not None:
                response = client.post(url, {**(data or {}), **files})
            else:
                response = client.post(
                    url, encoded(data or {}), content_type="application/x-www-form-urlencoded"
                )
        if response.status_code >= 500:
            error = getattr(response, "exc_info", None)
            cause = f"{error[0].__name__}: {str(error[1])[:300]}" if error else "?"
            sent = json_body if json_body is not None else data or {}
            sent = shown(sent) if files is None else f"{shown(sent)} + {files}"
            raise AssertionError(
                f"(a) {response.status_code} for {role} {method.upper()} {url} {sent}\n  {cause}"
            )
        return response

    def watch(self, execute, sql, params, many, context):
        """Notes whether a request wrote to the database (the login sessions aside)."""
        if WRITE.match(sql) and "django_session" not in sql:
            self.wrote = True
        return execute(sql, params, many, context)

    def post(self, role, url, data=None):
        return self.request(role, "post", url, data)

    @contextmanager
    def restored_copy(self, t, data: dict, what: str):
        """(d) The tournament file `data` of `t` imported under another slug, inside a savepoint
        rolled back when the block ends (and the cache emptied: the copy's pk and revision may
        come again in a later check). The copy's standings feed must be the original's; the
        block gets the copy to compare more. `what`: the file, as a failure names it."""
        original = self.get("anonymous", reverse("public:feed", args=[t.slug]))
        data["tournament"]["slug"] = f"restored-{t.pk}"
        point = transaction.savepoint()
        try:
            try:
                copy = import_tournament(data, user=self.users["director"])
            except TournamentFileError as e:
                raise AssertionError(f"(d) {what} does not restore: {e}") from e
            restored = self.get("anonymous", reverse("public:feed", args=[copy.slug]))
            before = comparable(json.loads(original.content))
            after = comparable(json.loads(restored.content))
            assert after == before, (
                f"(d) {what}'s standings feed differs from the original's: "
                + difference(before, after)
            )
            yield copy
        finally:
            transaction.savepoint_rollback(point)
            cache.clear()

    def get(self, role, url):
        return self.request(role, "get", url)

    def open_pages(self, listing) -> None:
        """(b) every page of `listing` answers 200 with what its kind says; (c) no workbook
        holds a live formula."""
        broken = []
        for role, url, kind in listing:
            response = self.get(role, url)
            content = b"".join(response) if response.streaming else response.content
            if response.status_code != 200:
                broken.append(f"{role} GET {url}: {response.status_code}")
            elif kind == "json":
                json.loads(content)  # a page that is not JSON fails here, naming the error
            elif kind == "pdf":
                assert content.startswith(b"%PDF"), f"(b) {url} is not a PDF"
            elif kind == "xlsx":
                try:
                    formulas = live_formulas(content)
                except Exception as e:  # what a spreadsheet program would refuse to open
                    raise AssertionError(f"(b) {url} is not a readable workbook: {e!r}") from e
                assert not formulas, f"(c) live formulas in {url}: {formulas[:5]}"
        assert not broken, "(b) pages that do not answer 200:\n  " + "\n  ".join(broken)


# --- publishing (issue 38) ---------------------------------------------------------------------

PUBLISH_SECRET = "0123456789abcdef0123456789abcdef01234567"
PUBLISH_KEY = f"7.{PUBLISH_SECRET}"
LATER = 10**6  # seconds: every wait of the sender is over


class PublishingRules:
    """The rules and the invariant a machine takes to publish its tournament or club rating to
    a federation server's stub (tests/support/publish_stub.py, a thread of this process): set
    the publication through its page (good and odd addresses and keys), send (the server up or
    down), and after every step (e) the newest file the server took is the public file
    (publishing.public_file) of the newest state. The hall publishes from its start (the
    invariant's first look sets it through the page); the rules change it from there.

    A machine runs in one transaction that is never committed, so what the hall's server does
    once a change commits (the sender's receivers, publishing.sender) is done here by hand, at
    the same points: after the page's post, and before the invariant compares."""

    publish_kind = ""  # "tournament" or "club"
    publish_role = ""  # who opens the page

    def __init__(self):
        super().__init__()
        self.stub = publish_stub.start({"7": PUBLISH_SECRET})
        self.spool = tempfile.TemporaryDirectory()
        self.spool_settings = override_settings(DESK_PUBLISH_DIR=self.spool.name)
        self.spool_settings.enable()
        publishing_sender.SENDER.jobs.clear()
        publishing_sender.SENDER.changed_ids.clear()

    def rollback(self):
        try:
            super().rollback()
        finally:
            publish_stub.stop(self.stub)
            self.spool_settings.disable()
            self.spool.cleanup()
            publishing_sender.SENDER.jobs.clear()
            publishing_sender.SENDER.changed_ids.clear()

    def published(self):
        """(slug, pk) of what the machine publishes, or None before it has one."""
        raise NotImplementedError

    def public_file(self) -> dict:
        raise NotImplementedError

    def publish_page(self) -> str:
        slug = self.published()[0]
        if self.publish_kind == "club":
            return reverse("publishing:club", args=[slug])
        return reverse("publishing:tournament", args=[slug])

    def publication(self):
        slug = self.published()[0]
        return Publication.objects.filter(
            target=Publication.Target.FEDERATION, kind=self.publish_kind, slug=slug
        ).first()

    def committed(self) -> None:
        """What the hall's server does when the publication's post commits."""
        slug = self.published()[0]
        if Publication.objects.filter(
            target=Publication.Target.FEDERATION, kind=self.publish_kind, slug=slug
        ).exists():
            publishing_sender.publication_changed(self.publish_kind, slug)

    @precondition(lambda self: self.published() is not None)
    @rule(data=st.data())
    def set_publication(self, data):
        """The page's form: the stub's address or an odd one, the key or an odd one, on/off."""
        url = either(data, st.just(self.stub.url), TEXT)
        key = either(data, st.sampled_from([PUBLISH_KEY, "", f"7.{'0' * 40}"]), TEXT)
        form = {"url": url, "key": key}
        if either(data, st.just(True), st.just(False), odds=1):
            form["enabled"] = "on"
        self.post(self.publish_role, self.publish_page(), form)
        self.committed()

    @precondition(lambda self: self.published() is not None and self.publication() is not None)
    @rule(down=st.booleans())
    def send_publication(self, down):
        """ "Send now" on the page, the server up or (the hall's internet gone) down."""
        self.stub.down = down
        self.post(self.publish_role, self.publish_page(), {"send": "1"})
        self.committed()
        self.get(self.publish_role, self.publish_page())

    @invariant()
    def published_is_public(self):
        """(e) the server holds the public file of the newest state, once it can be reached with
        the right key: what waited is sent, the newest change included."""
        if self.published() is None:
            return
        publication = self.publication()
        if publication is None:
            # The hall publishes from its start: the page's form with the stub's address and
            # key, once; the rules change it from there.
            form = {"url": self.stub.url, "key": PUBLISH_KEY, "enabled": "on"}
            self.post(self.publish_role, self.publish_page(), form)
            self.committed()
            publication = self.publication()
            assert publication is not None, "(e) the publishing page did not take good values"
        if not publication.enabled:
            return
        if (publication.url, publication.key) != (self.stub.url, PUBLISH_KEY):
            return  # an odd address or another key: nothing there to compare
        self.stub.down = False
        publishing_sender.SENDER.changed(self.publish_kind, self.published()[1])
        publishing_sender.SENDER.run_pending(time.monotonic() + LATER)
        taken = [r for r in self.stub.uploads if r.status == 200]
        assert taken, "(e) the server took no file"
        expected = json.loads(dumps(self.public_file()))
        assert taken[-1].data == expected, (
            "(e) the server's newest file is not the public file: "
            + (difference(expected, taken[-1].data, "file"))
        )


# --- the standby desk (issue 38) ----------------------------------------------------------------

STANDBY_SECRET = "standby-secret-0123456789abcdef0123456789"
STANDBY_KEY = f"9.{STANDBY_SECRET}"
TAKE_OVER_AT = 4  # the invariant's look at which every example takes over (h)
STOP_AT = 7  # and at which it is a standby again, the box not ticked, and stops


def named(headers: dict) -> tuple:
    """(kind, slug) a request to a standby names (header names as any case)."""
    lower = {k.lower(): v for k, v in headers.items()}
    return lower.get("x-desk-kind"), lower.get("x-desk-slug")


class StandbyRules:
    """The rules and invariants a machine takes for the standby desk (publishing.standby,
    docs/features/standby.md), on the machine's tournament or club rating (`published()`,
    `publish_kind`, as PublishingRules):

    - the main desk's side: the standby page's pairing form (good and odd addresses and keys,
      on and off), sending to a standby's stub (tests/support/publish_stub.py, standby=True);
      after every step (g) the stub holds the full file of the newest state (archive) and the
      desk's accounts file (publishing.accounts);
    - the standby's side, on this same database inside a savepoint rolled back afterwards: the
      page makes the desk a standby, it is fed the newest files as a main desk sends them
      (/api/standby/, tests/support/standby_client.py), and the page takes over, with the box
      ticked or not (then it stops being a standby); (h) the taken-over event shows the same
      standings feed (or club rating) as before, and the desk's secret is the same."""

    def __init__(self):
        super().__init__()
        self.standby_stub = publish_stub.start({"9": STANDBY_SECRET}, standby=True)
        self.standby_data = tempfile.TemporaryDirectory()
        self.standby_settings = override_settings(DATA_DIR=Path(self.standby_data.name))
        self.standby_settings.enable()
        publishing_sender.STANDBY_SENDER.jobs.clear()
        publishing_sender.STANDBY_SENDER.changed_ids.clear()

    def rollback(self):
        try:
            super().rollback()
        finally:
            publish_stub.stop(self.standby_stub)
            self.standby_settings.disable()
            self.standby_data.cleanup()
            publishing_sender.STANDBY_SENDER.jobs.clear()
            publishing_sender.STANDBY_SENDER.changed_ids.clear()

    def standby_rows(self):
        return Publication.objects.filter(target=Publication.Target.STANDBY)

    def standby_committed(self) -> None:
        """What the desk's server does when the standby page's post commits."""
        for kind, slug in self.standby_rows().values_list("kind", "slug"):
            publishing_sender.publication_changed(kind, slug, publishing_sender.STANDBY)

    @precondition(lambda self: self.published() is not None)
    @rule(data=st.data())
    def set_standby(self, data):
        """The main desk's pairing form: the stub's address or an odd one, the key or an odd
        one, on or off."""
        url = either(data, st.just(self.standby_stub.url), TEXT)
        key = either(data, st.sampled_from([STANDBY_KEY, "", f"9.{'0' * 40}"]), TEXT)
        form = {"action": "pair", "url": url, "key": key}
        if either(data, st.just(True), st.just(False), odds=1):
            form["enabled"] = "on"
        self.post("director", reverse("publishing:standby"), form)
        self.standby_committed()

    @precondition(lambda self: self.published() is not None)
    @rule(sure=st.booleans())
    def standby_takes_over(self, sure):
        """(h) This desk as a standby, fed the newest state, takes over (inside a savepoint):
        the same standings feed or club rating, the same secret."""
        self.take_over_here(sure)

    def take_over_here(self, sure: bool) -> None:
        from django.conf import settings as django_settings

        kind, (slug, _pk) = self.publish_kind, self.published()
        page = reverse("publishing:standby")
        feed = "public:feed" if kind == "tournament" else "public:club_feed"
        before = self.get("anonymous", reverse(feed, args=[slug])).content
        secret = django_settings.SECRET_KEY
        point = transaction.savepoint()
        try:
            self.standby_rows().update(enabled=False)  # a main desk cannot be a standby
            self.post("director", page, {"action": "make"})
            made = StandbyModel.objects.filter(ended_at__isnull=True).get()
            answers = feed_standby(made, 1)
            assert all(status == 200 for _k, _s, status in answers), f"(h) fed: {answers}"
            form = {"action": "take", **({"sure": "on"} if sure else {})}
            answer = self.post("director", page, form)
            made.refresh_from_db()
            if not sure:
                assert answer.status_code == 400 and not made.took_over, "(h) taken unasked"
                # Then "Stop being a standby": ended, nothing taken over.
                self.post("director", page, {"action": "stop"})
                made.refresh_from_db()
                assert made.ended_at and not made.took_over, "(h) the standby did not stop"
                return
            assert answer.status_code == 200 and made.took_over, "(h) the take-over failed"
            assert django_settings.SECRET_KEY == secret, "(h) the desk's secret changed"
            after = self.get("anonymous", reverse(feed, args=[slug])).content
            if kind == "tournament":
                old, new = comparable(json.loads(before)), comparable(json.loads(after))
            else:
                old, new = club_comparable(json.loads(before)), club_comparable(json.loads(after))
            assert new == old, "(h) the taken-over feed differs: " + difference(old, new)
        finally:
            transaction.savepoint_rollback(point)
            django_settings.SECRET_KEY = secret
            cache.clear()

    @invariant()
    def standby_holds_the_newest(self):
        """(g) with the stream on to the stub with its key, the stub holds the newest full file
        of the machine's event and the accounts, once the sender has run. The desk sends to
        the stub from its start (the invariant's first look pairs it through the page); the
        rules change it from there. (h) runs in every example at its TAKE_OVER_AT-th look, and
        with the box not ticked (then "Stop") at its STOP_AT-th."""
        if self.published() is None:
            return
        self.standby_looks = getattr(self, "standby_looks", 0) + 1
        if self.standby_looks in (TAKE_OVER_AT, STOP_AT):
            self.take_over_here(sure=self.standby_looks == TAKE_OVER_AT)
        desk = self.standby_rows().filter(kind=Publication.Kind.DESK).first()
        if desk is None:
            form = {"action": "pair", "url": self.standby_stub.url, "key": STANDBY_KEY}
            self.post("director", reverse("publishing:standby"), {**form, "enabled": "on"})
            self.standby_committed()
            desk = self.standby_rows().filter(kind=Publication.Kind.DESK).first()
            assert desk is not None, "(g) the standby page did not take good values"
        if not desk.enabled:
            return
        if (desk.url, desk.key) != (self.standby_stub.url, STANDBY_KEY):
            return  # an odd address or another key: nothing there to compare
        slug, pk = self.published()
        standby_sender = publishing_sender.STANDBY_SENDER
        standby_sender.changed(self.publish_kind, pk)
        standby_sender.run_pending(time.monotonic() + LATER)
        for kind, name in ((self.publish_kind, slug), ("desk", "desk")):
            taken = [
                r
                for r in self.standby_stub.uploads
                if r.status == 200 and named(r.headers) == (kind, name)
            ]
            assert taken, f"(g) the standby took no {kind} file"
            expected = json.loads(publishing_sender.full_text(kind, name))
            assert taken[-1].data == expected, (
                f"(g) the standby's newest {kind} file is not the newest state: "
                + difference(expected, taken[-1].data, "file")
            )


# How long a run explores (CI: a fixed, small set; a longer run sets these).
EXAMPLES = int(os.environ.get("DESK_STATEFUL_EXAMPLES", "4"))
STEPS = int(os.environ.get("DESK_STATEFUL_STEPS", "12"))
SHRINK = os.environ.get("DESK_STATEFUL_SHRINK") == "1"


def explore(machine) -> None:
    """Run a state machine the way every one of them runs: derandomized (CI's set is fixed), no
    example database, no deadline, shrinking only when asked."""
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if SHRINK else [])
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            derandomize=True,
            database=None,
            deadline=None,
            phases=phases,
            suppress_health_check=list(HealthCheck),
            print_blob=False,
        ),
    )
