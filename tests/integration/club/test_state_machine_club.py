"""A stateful property test of a club rating and the people behind it (issue 34, "The state
machine covers every write path"): a sibling of tests/integration/desk/test_state_machine.py that
shares its requests, its pages and its comparisons (tests/support/machine.py).

The steps (one rule each, `ClubMachine`), by two club officers and the director through the
desk's pages: members (new people, people already on the desk, a member made former and back),
seasons (added, closed and reopened), the club's settings (single confirmation, the fewest
games, the rule set), an evening's check-in and its draw, games (recorded with four members,
sometimes one twice; a drawn table's result), versions (a correction, a void), confirmations
by the other officer (or the same, where the club allows it), people (the matches of a
tournament's players: new people or the desk's; a merge of two people; a split of a merge)
and `restore_club` (the club's newest backup restored under another slug, the club then going
on from the restored copy).

After every step that wrote:

(a) no request of the step answered 500;
(b) every page of the club answers 200 (`club_pages()`: the officers' pages and the public
    ones, each season, member, person, evening and game; the PDFs and the workbook) and the
    tournament's people matches page;
(d) the newest club backup — the club file as the backup writer writes it after the step
    (archive.backups.write_club_backup) — restores under another slug (`restore_club`, in a
    savepoint rolled back) with the same rating feed, of all time and of each season, ids,
    slug and revision aside.

CI runs a fixed set (derandomized, no example database, no shrinking); a longer run:

    DESK_STATEFUL_EXAMPLES=50 DESK_STATEFUL_STEPS=30 \\
        pytest tests/integration/club/test_state_machine_club.py
"""

import datetime
import json
import sys

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
)

from archive import backups
from archive.club_file import restore_club
from archive.tournament_file import TournamentFileError, parse
from club.models import Club, Game, GameScore, GameVersion, Member, Season
from people.models import Person, PersonChange
from publishing.public_file import public_club_file
from tests.support import factories as f
from tests.support.machine import (
    CLUB_ROLES,
    Machine,
    PublishingRules,
    StandbyRules,
    club_comparable,
    club_pages,
    difference,
    explore,
)
from tests.support.odd_input import DATE, NUMBER, TEXT, either, fill
from tournament.models import Player

pytestmark = pytest.mark.django_db


WINDS = "ESWN"
DAYS = [datetime.date(2025, 3, 14), datetime.date(2025, 3, 21), datetime.date(2025, 4, 4)]
NAMES = ["Anna Kowalska", "Boris Petrov", "Chen Li", "Dmytro Koval", "Eva Novak", "Femi Ade"]
OFFICERS = ["officer1", "officer2", "director"]


class ClubMachine(StandbyRules, PublishingRules, Machine):
    """One club rating, its officers, the desk's people and one tournament's players."""

    roles = CLUB_ROLES
    examples = 0
    publish_kind, publish_role = "club", "officer1"

    def __init__(self):
        super().__init__()
        ClubMachine.examples += 1
        self.club = None
        self.t = None

    def teardown(self):
        try:
            if self.club is not None and not sys.exc_info()[0]:
                self.check_backup()
        finally:
            self.rollback()

    # --- what the club has now -----------------------------------------------------------

    def fresh(self):
        return Club.objects.get(pk=self.club.pk)

    def published(self):
        return None if self.club is None else (self.club.slug, self.club.pk)

    def public_file(self):
        return public_club_file(self.fresh())

    def c_url(self, name, *args):
        return reverse(name, args=[self.club.slug, *args])

    def members(self):
        return list(Member.objects.filter(club=self.club).select_related("person").order_by("pk"))

    def games(self):
        return list(Game.objects.filter(club=self.club).order_by("pk"))

    def has_games(self):
        return self.club is not None and Game.objects.filter(club=self.club).exists()

    def people(self):
        return list(Person.objects.filter(merged_into__isnull=True).order_by("pk"))

    def seats(self, data, rules):
        """Four seats (member, score, chombo) by wind: four members mostly, one twice now and
        then; scores that add up to four starts."""
        members = [m.pk for m in self.members()]
        chosen = data.draw(st.permutations(members))[:4]
        if data.draw(st.integers(0, 7)) == 0:
            chosen[3] = chosen[0]
        step = 100 * rules.score_step
        scores = [data.draw(st.integers(-100, 200)) * step for _ in range(3)]
        scores.append(rules.start_points * 4 - sum(scores))
        form = {}
        for wind, member, score in zip(WINDS, chosen, scores, strict=False):
            form[f"member_{wind}"] = member
            form[f"score_{wind}"] = score
            form[f"chombo_{wind}"] = data.draw(st.sampled_from([0, 0, 0, 1]))
        return form

    # --- the club ------------------------------------------------------------------------

    @initialize(
        ruleset=st.sampled_from(["furiten-club", "ema-2012"]),
        single=st.booleans(),
    )
    def a_club(self, ruleset, single):
        """A club made on its page, five members new to the desk, one game recorded and
        confirmed, and a tournament whose players share some of their names (the matches page
        offers the members' people)."""
        slug = f"club-{ClubMachine.examples}"
        form = {
            "name": f"Club {ClubMachine.examples}",
            "slug": slug,
            "ruleset": ruleset,
            "min_games": 0,
            "language": "en",
            "time_zone": "Europe/Warsaw",
        }
        if single:
            form["single_confirmation"] = "on"
        self.post("officer1", reverse("desk:club_add"), form)
        self.club = Club.objects.get(slug=slug)
        self.give_club()
        for name in NAMES[:5]:
            self.post("officer1", self.c_url("desk:club_member_new"), {"name": name})
        # One game recorded and confirmed by the other officer: the rating has a table.
        members = self.members()[:4]
        start = self.club.rule_set().start_points
        form = {"played_on": DAYS[0].isoformat(), "note": ""}
        for wind, member, score in zip(WINDS, members, [10000, 0, 0, -10000], strict=True):
            form.update({f"member_{wind}": member.pk, f"score_{wind}": start + score})
            form[f"chombo_{wind}"] = 0
        self.post("officer1", self.c_url("desk:club_game_add"), form)
        game = Game.objects.filter(club=self.club).first()
        if game is not None:
            self.post("officer2", self.c_url("desk:club_game_confirm", game.pk), {"version": 1})
        self.t = f.tournament("ema-2012", players=0, slug=f"people-{ClubMachine.examples}")
        for n, name in enumerate([NAMES[0], NAMES[2], NAMES[5], "Gita Rao"], 1):
            Player.objects.create(tournament=self.t, key=f"p{n}", name=name)

    @rule(data=st.data())
    def edit_club(self, data):
        club = self.fresh()
        form = fill(
            data,
            {
                "name": (st.just(club.name), TEXT),
                "slug": (st.just(club.slug), st.sampled_from(["", "a/b", "people", "x" * 81])),
                "ruleset": (st.sampled_from(["furiten-club", "ema-2012"]), TEXT),
                "min_games": (st.sampled_from(["0", "1", "3"]), NUMBER),
                "language": (st.sampled_from(["en", "pl"]), TEXT),
                "time_zone": (st.just("Europe/Warsaw"), TEXT),
            },
        )
        if data.draw(st.booleans()):
            form["single_confirmation"] = "on"
        who = data.draw(st.sampled_from(OFFICERS))
        self.post(who, self.c_url("desk:club_edit"), form)
        self.club = Club.objects.get(pk=self.club.pk)

    # --- members -------------------------------------------------------------------------

    @rule(data=st.data())
    def new_member(self, data):
        name = either(data, st.sampled_from(NAMES), TEXT, odds=1)
        form = {"name": name, "country": data.draw(st.sampled_from(["", "PL", "UA", "x"]))}
        self.post(data.draw(st.sampled_from(OFFICERS)), self.c_url("desk:club_member_new"), form)

    @rule(data=st.data())
    def existing_member(self, data):
        """A person already on the desk (a tournament's, say) joins the club."""
        people = [p.pk for p in self.people()] or [0]
        person = either(data, st.sampled_from(people), NUMBER, odds=1)
        self.post("officer1", self.c_url("desk:club_members"), {"person": person})

    @rule(data=st.data())
    def member_active(self, data):
        member = data.draw(st.sampled_from(self.members()))
        value = either(data, st.sampled_from(["0", "1"]), NUMBER, odds=1)
        self.post("officer2", self.c_url("desk:club_member_active", member.pk), {"active": value})

    # --- seasons -------------------------------------------------------------------------

    @rule(data=st.data())
    def add_season(self, data):
        start = data.draw(st.sampled_from(DAYS))
        end = start + datetime.timedelta(days=data.draw(st.sampled_from([0, 10, 60])))
        form = fill(
            data,
            {
                "name": (st.sampled_from(["Spring", "March", "Spring"]), TEXT),
                "start": (st.just(start.isoformat()), DATE),
                "end": (st.just(end.isoformat()), DATE),
            },
        )
        self.post("officer1", self.c_url("desk:club_season_add"), form)

    @precondition(lambda self: self.club is not None and self.club.seasons.exists())
    @rule(data=st.data())
    def close_season(self, data):
        """Close a season (or reopen a closed one), once asked."""
        season = data.draw(st.sampled_from(list(Season.objects.filter(club=self.club))))
        url = self.c_url("desk:club_season_close", season.pk)
        self.post(data.draw(st.sampled_from(OFFICERS)), url, {"confirm": "1"})

    # --- an evening ----------------------------------------------------------------------

    @rule(data=st.data())
    def check_in(self, data):
        day = data.draw(st.sampled_from(DAYS)).isoformat()
        members = data.draw(st.lists(st.sampled_from(self.members()), min_size=1, max_size=5))
        present = either(data, st.sampled_from(["1", "0"]), NUMBER, odds=1)
        for member in members:
            url = self.c_url("desk:club_checkin", day, member.pk)
            self.post("officer1", url, {"checked_in": present})

    @rule(data=st.data())
    def draw(self, data):
        day = data.draw(st.sampled_from(DAYS)).isoformat()
        self.post(data.draw(st.sampled_from(OFFICERS)), self.c_url("desk:club_draw", day))

    # --- games ---------------------------------------------------------------------------

    @rule(data=st.data())
    def record_game(self, data):
        """A game recorded as played: four members, their scores, a day (in a closed season
        with the override now and then)."""
        rules = self.fresh().rule_set()
        form = self.seats(data, rules)
        form["played_on"] = either(data, st.sampled_from([d.isoformat() for d in DAYS]), DATE)
        form["note"] = ""
        if data.draw(st.booleans()):
            form["override_closed"] = "on"
        self.post(data.draw(st.sampled_from(OFFICERS)), self.c_url("desk:club_game_add"), form)

    @rule(data=st.data())
    def play_game(self, data):
        """A game recorded by one officer and confirmed by the other: the rating moves on."""
        rules = self.fresh().rule_set()
        form = self.seats(data, rules)
        form.update({"played_on": data.draw(st.sampled_from(DAYS)).isoformat(), "note": ""})
        form["override_closed"] = "on"
        response = self.post("officer1", self.c_url("desk:club_game_add"), form)
        if response.status_code == 302:
            game = Game.objects.filter(club=self.club).order_by("-pk").first()
            url = self.c_url("desk:club_game_confirm", game.pk)
            self.post("officer2", url, {"version": 1})

    @precondition(lambda self: self.has_games())
    @rule(data=st.data())
    def correct_game(self, data):
        """A game's next version: a drawn table's result, or a correction of a recorded one."""
        game = data.draw(st.sampled_from(self.games()))
        latest = game.versions.order_by("-version").first()
        rules = self.fresh().rule_set()
        form = self.seats(data, rules)
        base = latest.version if latest else 0
        form["base_version"] = either(data, st.just(base), NUMBER, odds=1)
        form["note"] = either(data, st.just("scores swapped"), TEXT, odds=1)
        if data.draw(st.booleans()):
            form["override_closed"] = "on"
        who = data.draw(st.sampled_from(OFFICERS))
        self.post(who, self.c_url("desk:club_game", game.pk), form)

    @precondition(
        lambda self: (
            self.club is not None
            and GameVersion.objects.filter(game__club=self.club, status="draft").exists()
        )
    )
    @rule(data=st.data())
    def confirm_game(self, data):
        drafts = GameVersion.objects.filter(game__club=self.club, status="draft")
        version = data.draw(st.sampled_from(list(drafts.order_by("pk"))))
        club = self.fresh()
        who = [
            name
            for name in OFFICERS
            if self.users[name].pk != version.entered_by_id or club.single_confirmation
        ]
        url = self.c_url("desk:club_game_confirm", version.game_id)
        self.post(data.draw(st.sampled_from(who)), url, {"version": version.version})

    @precondition(lambda self: self.has_games())
    @rule(data=st.data())
    def void_game(self, data):
        game = data.draw(st.sampled_from(self.games()))
        latest = game.versions.order_by("-version").first()
        form = {
            "base_version": latest.version if latest else 0,
            "note": either(data, st.just("recorded twice"), TEXT, odds=1),
            "confirm": "1",
        }
        if data.draw(st.booleans()):
            form["override_closed"] = "on"
        self.post(
            data.draw(st.sampled_from(OFFICERS)), self.c_url("desk:club_game_void", game.pk), form
        )

    # --- people --------------------------------------------------------------------------

    @rule(data=st.data(), every=st.booleans())
    def match_players(self, data, every):
        """The tournament's players matched to people: "new person" for every player without
        a candidate, or one choice per player (a candidate, a new person, none)."""
        url = reverse("desk:people_matches", args=[self.t.slug])
        if every:
            self.post("director", url, {"all_new": "1"})
            return
        form = {}
        people = [str(p.pk) for p in self.people()]
        for player in self.t.players.filter(person__isnull=True).order_by("pk"):
            form[f"player_{player.pk}"] = data.draw(st.sampled_from(["", "new", *people[:6]]))
        self.post("director", url, form)

    @rule(data=st.data())
    def merge_people(self, data):
        """Two people found to be one: the second merged into the first (mostly two who sat at
        one confirmed game, when there is one)."""
        people = [p.pk for p in self.people()]
        if len(people) < 2:
            return
        kept, other = data.draw(st.permutations(people))[:2]
        sat = GameScore.objects.filter(version__game__club=self.club, version__status="confirmed")
        sat = sat.order_by("version_id")
        tables = {}
        for version, person in sat.values_list("version_id", "member__person_id"):
            tables.setdefault(version, []).append(person)
        if tables and data.draw(st.integers(0, 3)):
            persons = data.draw(st.sampled_from([tables[g] for g in sorted(tables)]))
            kept, other = data.draw(st.permutations(persons))[:2]
        form = {"other": other, "reason": either(data, st.just("the same person"), TEXT, odds=1)}
        who = data.draw(st.sampled_from(OFFICERS))
        self.post(who, reverse("desk:person_merge", args=[kept]), form)

    @precondition(lambda self: PersonChange.objects.filter(kind="merge").exists())
    @rule(data=st.data())
    def split_people(self, data):
        changes = list(PersonChange.objects.filter(kind="merge").order_by("pk"))
        change = data.draw(st.sampled_from(changes))
        form = {"reason": either(data, st.just("namesakes after all"), TEXT, odds=1)}
        who = data.draw(st.sampled_from(OFFICERS))
        self.post(who, reverse("desk:person_split", args=[change.pk]), form)

    # --- restore_club --------------------------------------------------------------------

    @rule()
    def restore_and_go_on(self):
        """The club's newest backup restored under another slug (`restore_club`); the club
        goes on from the restored copy, with the same rating."""
        before = self.feeds()
        newest = backups.write_club_backup(self.fresh())
        slug = f"{self.club.slug[:60]}-r{self.steps}"
        try:
            restored = restore_club(newest.path.read_bytes(), slug=slug)
        except TournamentFileError as e:
            raise AssertionError(f"(d) restore_club refuses the newest backup: {e}") from e
        self.club = restored.club
        self.give_club()
        self.wrote = True
        after = self.feeds()
        assert after == before, "(d) the restored club's rating differs: " + difference(
            before, after
        )

    def give_club(self):
        """The director gives both officers the club on the users page (roles per event: the
        officer who made it has it already; a restored copy is nobody's until given)."""
        for name in ("officer1", "officer2"):
            url = reverse("desk:user", args=[self.users[name].pk])
            self.post("director", url, {"action": "give_club", "club": self.club.pk})

    def feeds(self) -> dict:
        """The club's rating feed of all time and of each season (by the season's name and
        days), ids, slug and revision aside."""
        url = reverse("public:club_feed", args=[self.club.slug])
        out = {"all": club_comparable(json.loads(self.get("anonymous", url).content))}
        for season in Season.objects.filter(club=self.club).order_by("start", "end", "name"):
            feed = json.loads(self.get("anonymous", f"{url}?season={season.pk}").content)
            key = f"{season.name} {season.start} {season.end} {season.closed_at is not None}"
            out.setdefault(key, club_comparable(feed))
        return out

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def every_page_answers(self):
        """(b) every page answers; (d) the newest club backup restores with the same rating."""
        if self.club is None or not self.wrote:
            return
        self.steps += 1
        self.club = self.fresh()
        matches = ("director", reverse("desk:people_matches", args=[self.t.slug]), "html")
        self.open_pages([*club_pages(self.club), matches])
        self.check_backup()
        self.wrote = False

    def check_backup(self):
        """(d) the club file the writer writes now restores under another slug with the same
        rating feeds."""
        self.club = self.fresh()
        newest = backups.write_club_backup(self.club)
        data = parse(newest.path.read_bytes())
        before = self.feeds()
        point = transaction.savepoint()
        original = self.club
        try:
            try:
                restored = restore_club(data, slug=f"copy-{self.club.pk}")
            except TournamentFileError as e:
                raise AssertionError(f"(d) the newest club backup does not restore: {e}") from e
            self.club = restored.club
            after = self.feeds()
            assert after == before, "(d) the restored club's rating differs: " + difference(
                before, after
            )
        finally:
            self.club = original
            transaction.savepoint_rollback(point)
            cache.clear()


@pytest.mark.long(50)
def test_the_club_and_its_people_hold_whatever_their_pages_are_sent():
    explore(ClubMachine)
