"""Every URL of the project, walked as every role: who gets in, who is refused, and that a refusal
(or a GET) changes nothing. Checked on the server, not only in templates.

Roles: anonymous (no login), public (logged in, no group), referee, desk, club (a club
officer), director. A URL pattern
without an entry here (desk RULES, PUBLIC_PAGES, ACCOUNT_PAGES, or the admin walk) fails
test_every_url_pattern_is_covered.
"""

import datetime
import json
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone

from archive import backups
from club.models import Club
from club.services import add_member, record_game, save_club, save_season
from core.roles import CLUB_OFFICER
from people.models import Person
from people.services import create_person, merge_people
from referee.models import Appeal, Incident
from scoring.models import Penalty
from scoring.services import confirm_result
from seating.models import SeatingPlan
from tests.support import factories as f
from tests.support import tournaments, worlds
from tests.support.rows import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

DIRECTOR_ONLY = {"director"}
DESK = {"director", "desk"}
REFEREE = {"director", "referee"}
CLUB = {"director", "club"}

# "namespace:name" -> (method, allowed roles). Every staff URL (desk, its printouts and archive,
# the referee) must be listed: a new view without an entry here fails
# test_every_staff_url_is_covered.
RULES = {
    "desk:home": ("get", DESK | REFEREE | CLUB),  # each one's way in
    "desk:tournament_add": ("post", DIRECTOR_ONLY),
    "archive:import_file": ("post", DIRECTOR_ONLY),
    "desk:tournament": ("get", DESK),
    "desk:tournament_edit": ("post", DIRECTOR_ONLY),
    "desk:rules": ("post", DIRECTOR_ONLY),
    "desk:finish": ("post", DIRECTOR_ONLY),
    "desk:reopen": ("post", DIRECTOR_ONLY),
    "archive:export_file": ("get", DIRECTOR_ONLY),
    "archive:backups": ("post", DIRECTOR_ONLY),
    "archive:backup_download": ("get", DIRECTOR_ONLY),
    "archive:backup_restore": ("post", DIRECTOR_ONLY),
    "desk:players": ("get", DESK),
    "desk:player_add": ("post", DIRECTOR_ONLY),
    "desk:player_edit": ("post", DIRECTOR_ONLY),
    "desk:player_import": ("post", DIRECTOR_ONLY),
    "desk:people_matches": ("post", DIRECTOR_ONLY),
    # The people on the desk: the director's and club officers'.
    "desk:people": ("get", CLUB),
    "desk:person_add": ("post", CLUB),
    "desk:person": ("post", CLUB),
    # Merging and splitting people are the director's (issue 34).
    "desk:person_merge": ("post", DIRECTOR_ONLY),
    "desk:person_split": ("post", DIRECTOR_ONLY),
    # The users and their roles per tournament and club (issue 34).
    "desk:users": ("get", DIRECTOR_ONLY),
    "desk:user_add": ("post", DIRECTOR_ONLY),
    "desk:user": ("post", DIRECTOR_ONLY),
    "desk:checkin": ("get", DESK),
    "desk:checkin_toggle": ("post", DESK),
    "desk:session_add": ("post", DIRECTOR_ONLY),
    "desk:session": ("get", DESK),
    "desk:session_draw": ("post", DIRECTOR_ONLY),
    "desk:seating_print": ("get", DESK),
    "desk:table_add": ("post", DIRECTOR_ONLY),
    "desk:table_delete": ("post", DIRECTOR_ONLY),
    "desk:result": ("post", DESK),
    "desk:result_confirm": ("post", DESK),
    "desk:hands": ("post", DESK),
    "desk:table_winds": ("post", DESK),
    "desk:session_swiss": ("post", DIRECTOR_ONLY),
    "desk:seat_change": ("post", DIRECTOR_ONLY),
    "desk:plans": ("post", DIRECTOR_ONLY),
    "desk:plan": ("get", DIRECTOR_ONLY),
    "desk:plan_status": ("get", DIRECTOR_ONLY),
    "desk:plan_apply": ("post", DIRECTOR_ONLY),
    "desk:session_end": ("post", DESK),
    "desk:session_reopen": ("post", DESK),
    "desk:clock": ("get", DESK | REFEREE),
    "desk:clock_control": ("post", DESK),
    "desk:clock_reset": ("post", DIRECTOR_ONLY),
    "printing:protocols_pdf": ("get", DESK),
    "printing:seating_pdf": ("get", DESK),
    "printing:session_quick_start": ("get", DESK),
    "printing:quick_start": ("get", DESK),
    "printing:standings_pdf": ("get", DESK),
    "printing:appeals_pdf": ("get", DESK | REFEREE),
    "printing:workbook": ("get", DESK),
    "printing:ema_results": ("get", DESK),
    "printing:club_rating_pdf": ("get", CLUB),
    "printing:club_games_pdf": ("get", CLUB),
    "printing:club_xlsx": ("get", CLUB),
    "referee:home": ("get", REFEREE),
    "referee:table": ("get", REFEREE),
    "referee:penalty_add": ("post", REFEREE),
    "referee:substitute": ("post", REFEREE),
    "referee:three_handed": ("post", REFEREE),
    "referee:incident_add": ("post", REFEREE),
    "referee:disqualify": ("post", REFEREE),
    "referee:log": ("get", REFEREE),
    "referee:penalty_void": ("post", DIRECTOR_ONLY),
    # Open to every referee; the service lets only the one who recorded it undo it.
    "referee:penalty_undo": ("post", REFEREE),
    "referee:incident_void": ("post", DIRECTOR_ONLY),
    "referee:appeals": ("get", REFEREE),
    "referee:appeal_add": ("post", REFEREE),
    "referee:appeal": ("post", REFEREE),
    # A club rating's desk pages (issue 25).
    "desk:clubs": ("get", CLUB),
    "desk:club_add": ("post", CLUB),
    "desk:club": ("get", CLUB),
    "desk:club_edit": ("post", CLUB),
    "desk:club_season_add": ("post", CLUB),
    "desk:club_season_edit": ("post", CLUB),
    "desk:club_season_close": ("post", CLUB),
    "desk:club_members": ("post", CLUB),
    "desk:club_member_new": ("post", CLUB),
    "desk:club_member": ("get", CLUB),
    "desk:club_member_active": ("post", CLUB),
    "desk:club_evening_today": ("get", CLUB),
    "desk:club_evening": ("get", CLUB),
    "desk:club_checkin": ("post", CLUB),
    "desk:club_draw": ("post", CLUB),
    "desk:club_games": ("get", CLUB),
    "desk:club_game_add": ("post", CLUB),
    "desk:club_game": ("post", CLUB),
    "desk:club_game_confirm": ("post", CLUB),
    "desk:club_game_void": ("post", CLUB),
    "desk:club_rating": ("get", CLUB),
    # Publishing to a federation server (issue 38): a tournament's is the director's, a club
    # rating's its officers'.
    "publishing:tournament": ("post", DIRECTOR_ONLY),
    "publishing:club": ("post", CLUB),
    # The standby desk's page (issue 38): the director's, on the main desk and on the standby.
    "publishing:standby": ("post", DIRECTOR_ONLY),
}


# The referee's and appeals' addresses under /desk/ before issue 21, kept for a release as
# redirects (307, so a POST stays a POST) to the referee's own room.
MOVED = {
    "<slug:slug>/referee/": "referee:home",
    "<slug:slug>/s/<int:number>/referee/t/<int:table>/": "referee:table",
    "<slug:slug>/s/<int:number>/penalties/add/": "referee:penalty_add",
    "<slug:slug>/s/<int:number>/substitute/": "referee:substitute",
    "<slug:slug>/s/<int:number>/three-handed/": "referee:three_handed",
    "<slug:slug>/s/<int:number>/incidents/add/": "referee:incident_add",
    "<slug:slug>/players/<int:pk>/disqualify/": "referee:disqualify",
    "<slug:slug>/log/": "referee:log",
    "<slug:slug>/penalties/<int:pk>/void/": "referee:penalty_void",
    "<slug:slug>/incidents/<int:pk>/void/": "referee:incident_void",
    "<slug:slug>/appeals/": "referee:appeals",
    "<slug:slug>/appeals/new/": "referee:appeal_add",
    "<slug:slug>/appeals/<int:pk>/": "referee:appeal",
}
MOVED = {"desk/" + route: name for route, name in MOVED.items()}


# The table page (issue 24): no login; its link's key is the only thing that opens it, for every
# role alike (test_the_table_page_opens_by_its_key_alone).
SHEET_PAGES = {"code", "table", "state", "act"}


# Public pages: every role reads them without login; nothing writes through them.
PUBLIC_PAGES = {
    "home",
    "standings",
    "feed",
    "statistics",
    "find",
    "clock",
    "clock_json",
    "player",
    "club_rating",
    "club_person",
    "club_games",
    "club_feed",
}
# Logging in and out, the language switcher (a cookie, no data) and the favicon's redirect:
# open to everyone.
ACCOUNT_PAGES = {"login", "logout", "language", "favicon"}

# The federation server's addresses (issue 38): the organisers' pages, walked in
# tests/integration/federation/test_keys_pages.py (anonymous: login; not an organiser: 403;
# an organiser: their own keys only), and the wire and its heard JSON, open to halls and
# visitors, in tests/integration/federation/test_wire.py.
FEDERATION_PAGES = {"publish", "heard", "keys", "key_new", "key_revoke"}
# The standby's /api/standby/: signed by the main desk's pairing key, open to any sender, tested
# in tests/integration/publishing/test_standby.py.
STANDBY_API = {"receive"}
ROLES = ["anonymous", "public", "referee", "desk", "club", "director"]


def url_patterns(patterns=None, namespace="", prefix=""):
    """Every URL pattern of the project: (namespace, name, route), nested includes flattened."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    found = []
    for p in patterns:
        if isinstance(p, URLResolver):
            inner = ":".join(n for n in (namespace, p.namespace) if n)
            found += url_patterns(p.url_patterns, inner, prefix + str(p.pattern))
        else:
            assert isinstance(p, URLPattern)
            found.append((namespace, p.name, prefix + str(p.pattern)))
    return found


STAFF = ("desk", "printing", "archive", "referee", "publishing")


def staff_url_names():
    return {f"{ns}:{name}" for ns, name, _ in url_patterns() if ns in STAFF}


def test_every_staff_url_is_covered():
    assert staff_url_names() == set(RULES)


def test_every_url_pattern_is_covered():
    """A new page anywhere (not only under /desk/) needs a rule before this passes."""
    uncovered = []
    for ns, name, route in url_patterns():
        covered = (
            f"{ns}:{name}" in RULES
            # The referee's pages' addresses before issue 21: redirects (test_moved_*).
            or (ns == "" and name is None and route in MOVED)
            or (ns == "public" and name in PUBLIC_PAGES)
            or (ns == "sheet" and name in SHEET_PAGES)
            or (ns == "" and name in ACCOUNT_PAGES)
            or (ns == "federation" and name in FEDERATION_PAGES)
            or (ns == "standby_api" and name in STANDBY_API)
            # The admin is walked pattern by pattern in test_admin_*: new models join it there.
            or ns == "admin"
        )
        if not covered:
            uncovered.append((ns, name, route))
    assert uncovered == []
    assert {n for ns, n, _ in url_patterns() if ns == "public"} == PUBLIC_PAGES
    assert {n for ns, n, _ in url_patterns() if ns == "sheet"} == SHEET_PAGES
    assert {n for ns, n, _ in url_patterns() if ns == "" and n} == ACCOUNT_PAGES
    assert {n for ns, n, _ in url_patterns() if ns == "federation"} == FEDERATION_PAGES


@pytest.mark.parametrize("method", ["get", "post"])
def test_moved_referee_addresses_redirect_to_the_new_place(method):
    """Issue 21: /desk/<slug>/referee/… and /desk/<slug>/appeals/… answer with a 307 to the
    same page under /referee/<slug>/ (query string kept), for anyone: the new page checks the
    role."""
    assert {route for ns, name, route in url_patterns() if ns == "" and name is None} == set(MOVED)
    values = {"slug": "open", "number": 2, "table": 3, "pk": 4}
    for route, name in MOVED.items():
        kwargs = {k: values[k] for k in re.findall(r"<\w+:(\w+)>", route)}
        old = "/" + re.sub(r"<\w+:(\w+)>", lambda m: str(values[m.group(1)]), route)
        response = getattr(Client(), method)(old + "?session=2")
        assert response.status_code == 307, old
        assert response["Location"] == reverse(name, kwargs=kwargs) + "?session=2", old
        assert response["Location"].startswith("/referee/open/")


def client_for(role, staff):
    """A client logged in as the role (no login for anonymous)."""
    c = Client()
    user = {
        "public": staff.get("public"),
        "referee": staff["referee"],
        "desk": staff["desk2"],
        "club": staff.get("club"),
        "director": staff["director"],
    }.get(role)
    if user:
        c.force_login(user)
    return c


def people():
    """The staff plus a logged-in user without any group (a player with an account, say)."""
    staff = f.staff()
    staff["public"] = f.user("visitor")
    staff["club"] = f.user("officer", CLUB_OFFICER)
    return staff


RULES_DAY = datetime.date(2025, 3, 14)


def rules_club(slug="rules-club", officers=True) -> Club:
    """A club rating with four members, a season and a draft game (by the first user), for the
    club pages' rules: a confirm by anyone else has something to confirm. Given to every club
    officer there is (issue 34), or with officers=False to none."""
    club = Club.objects.filter(slug=slug).first()
    if club is not None:
        return club
    user = User.objects.order_by("pk").first()
    club = save_club(None, {"name": "Rules Club", "slug": slug}, user)
    if officers:
        for officer in User.objects.filter(groups__name=CLUB_OFFICER):
            f.grant(officer, club)
    members = [
        add_member(club, Person.objects.create(name=f"Member {n}"), user) for n in range(1, 5)
    ]
    save_season(club, None, "Spring", datetime.date(2025, 3, 1), datetime.date(2025, 5, 31), user)
    record_game(club, [(m, 30000, 0) for m in members], user, played_on=RULES_DAY)
    return club


def kwargs_for(full_name, t, player, club_slug="rules-club"):
    namespace, name = full_name.split(":")
    resolver = get_resolver().namespace_dict[namespace][1]
    pattern = {p.name: p for p in resolver.url_patterns}[name]
    pk = player.pk
    if name.startswith("plan"):
        plan = SeatingPlan.objects.create(
            tournament=t, first=2, last=3, seed=1, status="done", rounds=[], figures={}
        )
        pk = plan.pk
    session = t.sessions.get(number=1)
    if name in ("penalty_void", "penalty_undo"):
        pk = Penalty.objects.create(
            session=session, player=player, kind="late", minutes=3, recorded_at=timezone.now()
        ).pk
    if name == "incident_void":
        pk = Incident.objects.create(
            tournament=t, session=session, kind="note", text="x", recorded_at=timezone.now()
        ).pk
    if name == "appeal":
        pk = Appeal.objects.create(
            tournament=t, session=session, appellant=player, subject="x", filed_at=timezone.now()
        ).pk
    if name in ("person", "person_merge", "person_split"):
        director = User.objects.get(username="dir")
        kept = create_person({"name": "Anna Kowalska"}, director)
        other = create_person({"name": "Marta Nowak"}, director)
        pk = kept.pk
        if name == "person_split":
            pk = merge_people(kept, other, director).pk
    if name == "user":
        pk = User.objects.get(username="desk2").pk
    values = {}
    if "club" in pattern.pattern.regex.groupindex:
        club = rules_club(club_slug, officers=club_slug == "rules-club")
        pk = {
            "club_season_edit": club.seasons.first,
            "club_season_close": club.seasons.first,
            "club_member": club.members.first,
            "club_member_active": club.members.first,
            "club_checkin": club.members.first,
            "club_game": club.games.first,
            "club_game_confirm": club.games.first,
            "club_game_void": club.games.first,
        }.get(name, lambda: player)().pk
        values = {"club": club.slug, "day": RULES_DAY.isoformat()}
    name_of_backup = ""
    if name.startswith("backup_"):
        name_of_backup = backups.write_backup(t, tag=backups.MANUAL).name
    values = {"slug": t.slug, "number": 1, "table": 1, "pk": pk, "name": name_of_backup, **values}
    return {k: values[k] for k in pattern.pattern.regex.groupindex}


# A plausible body for each write, so a refusal is not just a form error.
def body(name, t, player):
    return {
        "tournament_add": {
            "name": "Other",
            "ruleset": "ema-2012",
            "planned_sessions": 4,
            "fee": 0,
            "scope": "individual",
            "language": "en",
        },
        "tournament_edit": {
            "name": "Renamed",
            "planned_sessions": 4,
            "fee": 0,
            "scope": "individual",
            "language": "en",
        },
        "rules": {"ruleset": "furiten-club"},
        "reopen": {"reason": "a late appeal"},
        "player_add": {"name": "New Player", "status": "active"},
        "player_edit": {"name": "Renamed Player", "status": "active"},
        "checkin_toggle": {"checked_in": "1"},
        "session_draw": {"seed": "1"},
        "table_add": {"E": player.pk},
        "result": {
            "base_version": 0,
            "score_E": 30000,
            "score_S": 30000,
            "score_W": 30000,
            "score_N": 30000,
        },
        "result_confirm": {"version": 1},
        "table_winds": {"E": player.pk},
        "session_swiss": {"seed": "1"},
        "seat_change": {"a": "p01", "b": "p05", "override": "on", "reason": "mix-up"},
        "plans": {"first": 2, "last": 3, "seed": 5},
        "penalty_add": {"player": player.pk, "kind": "late", "minutes": 3, "confirm": "1"},
        "incident_add": {"player": player.pk, "text": "spilled tea"},
        "three_handed": {"player": player.pk},
        "substitute": {"player": player.pk, "substitute": player.pk, "joined": "start"},
        "disqualify": {"text": "cheating"},
        "penalty_void": {"reason": "typo"},
        "incident_void": {"reason": "typo"},
        "appeal_add": {"session": 1, "appellant": player.pk, "subject": "x", "text": "y"},
        "appeal": {"action": "review"},
        "clock_control": {"action": "start"},
        "people_matches": {f"player_{player.pk}": "new"},
        "person_add": {"name": "Someone"},
        "person": {"name": "Renamed Person"},
        "person_merge": {
            "other": getattr(Person.objects.filter(name="Marta Nowak").first(), "pk", "")
        },
        "person_split": {"reason": "two people"},
        "club_add": {
            "name": "Other club",
            "slug": "other-club",
            "ruleset": "furiten-club",
            "min_games": 0,
            "language": "en",
        },
        "club_edit": {
            "name": "Renamed club",
            "slug": "rules-club",
            "ruleset": "furiten-club",
            "min_games": 0,
            "language": "en",
        },
        "club_season_add": {"name": "Summer", "start": "2025-06-01", "end": "2025-08-31"},
        "club_season_edit": {"name": "Spring", "start": "2025-03-01", "end": "2025-05-30"},
        "club_members": {"person": Person.objects.values_list("pk", flat=True).first()},
        "club_member_new": {"name": "New Member"},
        "club_member_active": {"active": "0"},
        "club_checkin": {"checked_in": "1"},
        "club_game": {
            "base_version": 1,
            "score_E": 40000,
            "score_S": 30000,
            "score_W": 30000,
            "score_N": 20000,
        },
        "club_game_confirm": {"version": 1},
        "club_game_void": {"base_version": 1, "note": "by mistake", "confirm": "1"},
        "user_add": {"username": "newcomer", "password": ""},
        "user": {"action": "give_role", "tournament": t.pk, "role": "desk"},
    }.get(name.split(":")[1], {})


def assert_refused(response, role, name, method):
    if role == "anonymous":
        assert response.status_code == 302, (name, method, role, response.status_code)
        assert response["Location"].startswith("/login/")
    else:
        assert response.status_code == 403, (name, method, role, response.status_code)


@pytest.fixture(scope="class")
def played_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """people() and a played tournament with a draft by desk1 (so that confirm has something to
    refuse), built once for all the role refusals: each runs in a transaction of its own inside
    the world's and leaves it as it found it (tests/support/worlds.py)."""
    folder = tmp_path_factory.mktemp("backups")
    with worlds.built_once(django_db_blocker), override_settings(DESK_BACKUP_DIR=folder):
        f.GIVEN.clear()
        staff = people()
        t = tournaments.played(staff)
        yield staff, t, set(f.GIVEN)
        f.GIVEN.clear()


@pytest.fixture
def world(played_world):
    """The world as a test that built it itself would hold it, the factories' note included."""
    staff, t, given = played_world
    f.GIVEN.update(given)
    return staff, t


class TestRoleRefusals:
    """One world for every (URL, role) pair: the only tests under the class's world."""

    @pytest.mark.parametrize("name", sorted(RULES))
    @pytest.mark.parametrize("role", ROLES)
    def test_role_refusals(self, name, role, world):
        role_refusals(name, role, world)


def role_refusals(name, role, world):
    """GET and (for writes) POST: refused without the role, and neither changes data."""
    staff, t = world
    player = t.players.first()
    method, allowed = RULES[name]
    c = client_for(role, staff)
    target = reverse(name, kwargs=kwargs_for(name, t, player))

    # A GET never changes data, whoever asks; a write's GET shows its form or says 405.
    before = snapshot()
    response = c.get(target)
    if role in allowed:
        assert response.status_code in (200, 302, 405), (name, role, response.status_code)
        if response.status_code == 302:
            assert "/login/" not in response["Location"]
    else:
        assert_refused(response, role, name, "get")
    assert snapshot() == before, f"GET {name} changed data for {role}"
    if method == "get":
        return

    response = c.post(target, body(name, t, player))
    if role in allowed:
        assert response.status_code in (200, 302, 400, 409), (name, role, response.status_code)
        if response.status_code == 302:
            assert "/login/" not in response["Location"]
        return
    assert_refused(response, role, name, "post")
    assert snapshot() == before, f"POST {name} changed data for {role}"


def public_club(slug):
    """A club rating of the same slug as the tournament, with a member: its public pages."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        officer = f.user(f"officer-{slug}", CLUB_OFFICER)
        club = save_club(None, {"name": "Public club", "slug": slug}, officer)
        add_member(club, Person.objects.create(name="Club member"), officer)
    return club


def public_paths(t):
    """A real path for each public page (find with a search, the player p01, the club's
    member)."""
    paths = {}
    member = public_club(t.slug).members.first()
    for name in sorted(PUBLIC_PAGES):
        pattern = next(p for ns, n, p in url_patterns() if ns == "public" and n == name)
        kwargs = {"slug": t.slug, "key": "p01", "person": member.person_id}
        paths[name] = reverse(
            f"public:{name}", kwargs={k: kwargs[k] for k in re.findall(r"<\w+:(\w+)>", pattern)}
        )
    paths["find"] += "?q=Player"
    return paths


@pytest.mark.parametrize("role", ROLES)
def test_public_pages_answer_everyone_and_refuse_writes(role):
    staff = people()
    t = f.tournament()
    f.seat_session(t)
    c = client_for(role, staff)
    kept = ("tournament", "seating", "scoring", "club", "people")
    for name, path in public_paths(t).items():
        assert c.get(path).status_code == 200, (name, role)
        before = snapshot(kept)
        for method in ("post", "put", "patch", "delete"):
            response = getattr(c, method)(path, {})
            assert response.status_code in (403, 405), (name, method, role)
        assert snapshot(kept) == before, f"{name} changed data for {role}"


@pytest.mark.parametrize("role", ROLES)
def test_login_and_logout_are_open_to_everyone(role):
    staff = people()
    c = client_for(role, staff)
    page = c.get("/login/")
    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    assert c.get("/logout/").status_code == 405  # logging out is a POST (a link cannot do it)
    response = c.post("/logout/")
    assert response.status_code == 302 and response["Location"] == reverse("public:home")
    after = c.get(reverse("desk:home"))
    assert after.status_code == 302 and after["Location"].startswith("/login/")


def test_no_model_keeps_contact_data_but_the_user_accounts():
    """Players have no e-mail or phone; only staff accounts do (checked on the public pages)."""
    contact = re.compile(r"mail|phone|mobile|tel$|address|contact")
    found = {
        f"{m._meta.label}.{field.name}"
        for m in apps.get_models()
        for field in m._meta.get_fields()
        if contact.search(field.name) and field.name != "ip_address"
    }
    # A new contact field must join the private strings of test_public_pages_keep_private_things.
    assert found == {"auth.User.email"}


def public_pages(t, client):
    """Every public page (and the live regions the pages refresh), by path."""
    pages = {}
    for name, path in public_paths(t).items():
        pages[path] = client.get(path)
        if name in ("standings", "find", "player"):
            live = path + ("&" if "?" in path else "?") + "partial=1"
            pages[live] = client.get(live)
    for path, response in pages.items():
        assert response.status_code == 200, path
    return pages


def comparable(response):
    """The page's content, without the server's clock reading that changes every call."""
    if response["Content-Type"].startswith("application/json"):
        data = json.loads(response.content)
        data.pop("server_time", None)
        return data
    return re.sub(r'"server_time": \d+', "", response.content.decode())


def test_public_pages_keep_private_things():
    """No draft result, no staff contact data, no way into the desk or the admin."""
    staff = people()
    enterer = f.user("entered-by-kasia", "desk")
    confirmer = f.user("confirmed-by-olek", "desk")
    private = ["entered-by-kasia", "confirmed-by-olek"]
    for user in list(staff.values()) + [enterer, confirmer]:
        user.email = f"{user.username}@contact.example"
        user.first_name = f"First{user.username}"
        user.last_name = f"Last{user.username}"
        user.save()
        private += [user.email, user.first_name, user.last_name]
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    table = t.sessions.get().tables.get(number=1)
    visitors = {"anonymous": Client(), "public": client_for("public", staff)}

    before = {path: comparable(r) for path, r in public_pages(t, Client()).items()}
    draft = f.play(table, [41300, 33700, 26100, 18900], enterer, None)

    # Staff look first, so whatever they see is what the cache holds for everyone else.
    for role in ("director", "desk", "referee"):
        public_pages(t, client_for(role, staff))
    for role, client in visitors.items():
        for path, response in public_pages(t, client).items():
            text = response.content.decode()
            for word in private:
                assert word not in text, (role, path, word)
            for score in ("41300", "41,300", "41 300", "41.300", "18900", "18,900"):
                assert score not in text, (role, path, score)
            links = re.sub(r"/static/\S*", "", text)  # the stylesheet lives in static/desk/
            assert "/desk/" not in links and "/admin/" not in links, (role, path)
        cache.clear()
        # The draft changes nothing a visitor sees.
        after = {path: comparable(r) for path, r in public_pages(t, client).items()}
        if role == "anonymous":
            assert after == before

    # Once confirmed the scores are public: the checks above could see them had they leaked.
    confirm_result(draft, confirmer)
    player = Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "41,300" in player or "41300" in player or "41 300" in player
    for word in private:
        assert word not in player


def admin_paths():
    """A real path for every admin URL pattern (1 for every id): name -> path."""
    paths = {}
    for ns, name, route in url_patterns():
        if ns != "admin":
            continue
        # Regex groups first (the catch-all, an alternation, an id), then path converters.
        path = re.sub(r"\(\?P<url>\.\*\)", "no-such-page/", route)
        path = re.sub(r"\(\?P<\w+>(\w+)[^)]*\)", r"\1", path)
        path = path.replace("([^/]+)", "1").replace("^", "").replace("$", "")
        path = re.sub(r"<(?:\w+:)?\w+>", "1", path)
        path = "/" + path
        match = resolve(path)
        assert match.namespace == "admin" and match.url_name == name, (route, path)
        paths[name or route] = path
    return paths


def test_the_admin_walk_reaches_every_admin_pattern():
    admin_routes = [route for ns, _, route in url_patterns() if ns == "admin"]
    assert len(admin_paths()) == len(admin_routes)
    # The lockout records are in the admin too, for the director to unlock a user early.
    assert "axes_accessattempt_delete" in admin_paths()


@pytest.mark.parametrize("role", ["anonymous", "public", "desk", "referee"])
def test_admin_refuses_everyone_but_the_director(role):
    staff = people()
    t = f.tournament()
    f.seat_session(t)
    c = client_for(role, staff)
    login = reverse("admin:login")
    everything = ("tournament", "seating", "scoring", "auth", "axes", "admin")
    for name, path in admin_paths().items():
        before = snapshot(everything)
        for method in ("get", "post"):
            response = getattr(c, method)(path, {})
            if name == "login":
                # The admin's own login form; a non-staff user is told they may not enter.
                assert response.status_code == 200, (role, method)
                continue
            assert response.status_code == 302, (name, role, method, response.status_code)
            where = response["Location"]
            if name == "logout":
                assert where == reverse("admin:index")  # which in turn asks to log in
            else:
                assert where.startswith(login + "?next="), (name, role, method, where)
        assert snapshot(everything) == before, f"{name} changed data for {role}"
    assert c.get(reverse("admin:index"), follow=True).redirect_chain[-1][0].startswith(login)


def refused_by_design(name, request) -> bool:
    """Read-only admins (results, rule changes, lockout records) refuse adding and deleting even
    to a superuser; autocomplete refuses a request that names no field to complete."""
    if name == "autocomplete":
        return True
    for model, model_admin in admin.site._registry.items():
        prefix = f"{model._meta.app_label}_{model._meta.model_name}_"
        if name == prefix + "add":
            return not model_admin.has_add_permission(request)
        if name == prefix + "delete":
            return not model_admin.has_delete_permission(request)
    return False


def test_admin_lets_the_director_in_everywhere():
    staff = people()
    # The director the desk creates on first start: a superuser in the director group.
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    c = client_for("director", staff)
    assert c.get(reverse("admin:index")).status_code == 200
    for name, path in admin_paths().items():
        response = c.get(path)
        # 302: an object that does not exist; 404: the catch-all and view on site; 405: logging
        # out is a POST; 403 only where the admin refuses by design (see below).
        assert response.status_code in (200, 302, 403, 404, 405), (name, response.status_code)
        if response.status_code == 403:
            assert refused_by_design(name, response.wsgi_request), name
        if response.status_code == 302:
            assert not response["Location"].startswith(reverse("admin:login")), name


def test_admin_is_for_the_director_and_results_are_read_only_there():
    staff = f.staff()
    staff["director"].is_staff = True
    staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    result = f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    desk = Client()
    desk.force_login(staff["desk1"])
    assert desk.get("/admin/").status_code == 302  # not staff: sent to the admin login
    director = Client()
    director.force_login(staff["director"])
    assert director.get("/admin/").status_code == 200
    page = director.get(f"/admin/scoring/result/{result.pk}/change/")
    assert page.status_code == 200
    assert 'name="status"' not in page.content.decode()  # shown, not editable
    response = director.post(f"/admin/scoring/result/{result.pk}/change/", {"status": "confirmed"})
    assert response.status_code == 403
    result.refresh_from_db()
    assert result.status == "draft"


def test_admin_cannot_change_rules_or_played_seating():
    staff = f.staff()
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    director = Client()
    director.force_login(staff["director"])
    page = director.get(f"/admin/tournament/tournament/{t.pk}/change/").content.decode()
    assert 'name="ruleset"' not in page
    played = t.sessions.get().tables.get(number=1)
    seat = played.seats.first()
    assert (
        director.post(f"/admin/seating/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert played.seats.count() == 4
    unplayed = t.sessions.get().tables.get(number=2)
    assert director.get(f"/admin/seating/table/{unplayed.pk}/change/").status_code == 200


@pytest.mark.parametrize("role", [None, "referee", "desk1", "director"])
def test_the_table_page_opens_by_its_key_alone(role):
    """Every role alike: with the table's key the page, its state and its changes; with another
    key nothing, logged in or not."""
    from seating.keys import table_key, table_path

    staff = f.staff()
    table = f.seat_session(f.tournament(players=4)).tables.get()
    client = Client()
    if role:
        client.force_login(staff[role])
    path = table_path(table)
    wrong = path.replace(table_key(table), "a" * 22)
    assert client.get(path).status_code == 200
    assert client.get(path + "state.json").status_code == 200
    assert client.get("/h/").status_code == 200
    for url in (wrong, wrong + "state.json"):
        assert client.get(url).status_code == 404
    body = json.dumps({"action": "send"})
    assert client.post(wrong + "act/", body, content_type="application/json").status_code == 404
    assert client.get(path + "act/").status_code == 405
