"""Issue 34, finding 8: roles per event, through the real URLs. A desk user, referee or head
referee works on the tournaments given to them, a club officer keeps the club ratings given to
them; anyone else with the role gets 403 there. Single confirmation and merging or splitting
people are the director's. The director adds users and gives roles on /desk/users/ (a director
in the group alone, not staff, can), and an upgraded laptop's staff keep every event they had."""

import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from archive import backups
from club.models import Club, OfficerGrant
from club.services import save_club
from core.errors import ActionRefused
from core.roles import CLUB_OFFICER, DESK, DIRECTOR, HEAD_REFEREE, REFEREE
from people.models import Person, PersonChange
from people.services import create_person
from tests.integration.config.test_permissions import (
    RULES,
    assert_refused,
    body,
    client_for,
    kwargs_for,
    people,
    rules_club,
    url_patterns,
)
from tests.support import factories as f
from tests.support import tournaments
from tests.support.rows import snapshot
from tournament.models import StaffGrant, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

STAFF_ROLES = ("desk", "referee", "club")


def _event_names():
    """Every staff URL of test_permissions' RULES that names a tournament or a club, with each
    non-director role it lets in there."""
    routes = {f"{ns}:{name}": route for ns, name, route in url_patterns()}
    found = []
    for name, (_method, allowed) in sorted(RULES.items()):
        route = routes[name]
        if "<slug:slug>" not in route and "<slug:club>" not in route:
            continue
        found += [(name, role) for role in STAFF_ROLES if role in allowed]
    return found


EVENT_NAMES = _event_names()


def test_every_event_url_of_the_rules_is_walked():
    names = {name for name, _ in EVENT_NAMES}
    assert "desk:tournament" in names and "referee:home" in names and "desk:club" in names
    assert "printing:club_xlsx" in names and "desk:clock" in names
    assert len(names) >= 54  # at issue 34; a new page of an event joins by itself


@pytest.mark.parametrize(("name", "role"), EVENT_NAMES)
def test_staff_without_a_grant_get_403_on_another_event(name, role):
    """The same user who is let in on the tournament and club given to them (test_permissions'
    test_role_refusals) is refused on a second tournament and club nobody was given, for GET
    and POST alike, and nothing changes."""
    staff = people()
    tournaments.played(staff)  # given to the desk users and the referee
    rules_club()  # given to the club officer
    other = tournaments.played(staff, slug="other-open", granted=False)
    player = other.players.first()
    method, _allowed = RULES[name]
    c = client_for(role, staff)
    target = reverse(name, kwargs=kwargs_for(name, other, player, club_slug="other-club"))
    before = snapshot()
    assert_refused(c.get(target), role, name, "get")
    assert snapshot() == before
    if method == "post":
        assert_refused(c.post(target, body(name, other, player)), role, name, "post")
        assert snapshot() == before


def test_a_desk_user_of_a_gets_403_on_b_and_sees_only_a():
    staff = f.staff()
    a = f.tournament(slug="open-a", name="Open A")
    b = f.tournament(slug="open-b", name="Open B", granted=False)
    f.seat_session(a)
    f.seat_session(b)
    desk = f.login(staff["desk1"])
    assert desk.get("/desk/open-a/").status_code == 200
    assert desk.get("/desk/open-a/s/1/").status_code == 200
    assert desk.get("/desk/open-b/").status_code == 403
    assert desk.get("/desk/open-b/s/1/").status_code == 403
    data = {"base_version": 0, "score_E": 30000, "score_S": 30000}
    data |= {"score_W": 30000, "score_N": 30000}
    assert desk.post("/desk/open-b/s/1/t/1/", data).status_code == 403
    assert not b.sessions.get().tables.get(number=1).results.exists()
    home = desk.get("/desk/").content.decode()
    assert "/desk/open-a/" in home and "open-b" not in home
    # The referee alike, on the referee's pages; the director reaches both.
    referee = f.login(staff["referee"])
    assert referee.get("/referee/open-a/").status_code == 200
    assert referee.get("/referee/open-b/").status_code == 403
    home = referee.get("/desk/").content.decode()
    assert "/referee/open-a/" in home and "open-b" not in home
    director = f.login(staff["director"])
    assert director.get("/desk/open-b/").status_code == 200
    assert "/desk/open-b/" in director.get("/desk/").content.decode()


def test_a_role_is_held_only_where_it_is_given():
    """A user in the desk and referee groups, given only the referee's role on A: the referee's
    pages open, the desk's do not, and the clock page offers no control."""
    user = f.user("both", DESK)
    user.groups.add(Group.objects.get(name=REFEREE))
    a = f.tournament(slug="open-a", granted=False)
    f.seat_session(a)
    f.grant(user, a, REFEREE)
    c = f.login(user)
    assert c.get("/referee/open-a/").status_code == 200
    assert c.get("/desk/open-a/").status_code == 403
    clock = c.get("/desk/open-a/s/1/clock/")
    assert clock.status_code == 200 and not clock.context["can_control"]
    assert c.post("/desk/open-a/s/1/clock/control/", {"action": "start"}).status_code == 403


def test_a_head_referee_is_one_on_the_tournaments_given_as_head_referee():
    user = f.user("head", HEAD_REFEREE)
    a = f.tournament(slug="open-a")
    f.tournament(slug="open-b", granted=False)
    assert set(StaffGrant.objects.filter(user=user).values_list("role", flat=True)) == {
        HEAD_REFEREE
    }
    c = f.login(user)
    assert c.get(f"/referee/{a.slug}/appeals/").status_code == 200
    assert c.get("/referee/open-b/appeals/").status_code == 403


# --- clubs ------------------------------------------------------------------------------------


def _club(slug, officer):
    return save_club(None, {"name": slug.title(), "slug": slug}, officer)


def test_an_officer_keeps_their_clubs_only():
    one, two = f.user("officer1", CLUB_OFFICER), f.user("officer2", CLUB_OFFICER)
    mine = _club("mine", one)  # the officer who creates a club keeps it
    theirs = _club("theirs", two)
    c = f.login(one)
    assert c.get("/desk/club/mine/").status_code == 200
    assert c.get("/desk/club/theirs/").status_code == 403
    assert c.get("/desk/club/theirs/games/").status_code == 403
    assert c.get("/desk/club/theirs/rating.pdf").status_code in (403, 404)
    assert c.get(reverse("printing:club_xlsx", kwargs={"club": "theirs"})).status_code == 403
    listing = c.get("/desk/club/").content.decode()
    assert "/desk/club/mine/" in listing and "/desk/club/theirs/" not in listing
    # Created through the page, the club is its creator's.
    data = {"name": "New one", "slug": "new-one", "ruleset": "furiten-club", "min_games": 0}
    assert c.post("/desk/club/new/", {**data, "language": "en"}).status_code == 302
    assert c.get("/desk/club/new-one/").status_code == 200
    assert f.login(two).get("/desk/club/new-one/").status_code == 403
    assert theirs.grants.get().user == two and mine.grants.get().user == one


def _edit(club, **extra):
    data = {"name": club.name, "slug": club.slug, "ruleset": club.ruleset, "min_games": 0}
    return {**data, "language": "en", "time_zone": club.time_zone, **extra}


def test_an_officer_cannot_switch_single_confirmation_on_another_club_nor_their_own():
    one, two = f.user("officer1", CLUB_OFFICER), f.user("officer2", CLUB_OFFICER)
    mine, theirs = _club("mine", one), _club("theirs", two)
    c = f.login(one)
    # Another club: refused outright.
    response = c.post("/desk/club/theirs/edit/", _edit(theirs, single_confirmation="on"))
    assert response.status_code == 403
    # Their own: the form has no such field, and a crafted one changes nothing.
    page = c.get("/desk/club/mine/edit/").content.decode()
    assert 'name="single_confirmation"' not in page
    response = c.post("/desk/club/mine/edit/", _edit(mine, single_confirmation="on"))
    assert response.status_code == 302
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert not mine.single_confirmation and not theirs.single_confirmation
    # The service refuses it too, whoever calls it.
    with pytest.raises(ActionRefused):
        save_club(mine, {"single_confirmation": True}, one)
    # The director switches it, on any club.
    director = f.login(f.user("dir", DIRECTOR))
    assert 'name="single_confirmation"' in director.get("/desk/club/mine/edit/").content.decode()
    response = director.post("/desk/club/mine/edit/", _edit(mine, single_confirmation="on"))
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.single_confirmation


def test_an_officer_cannot_merge_nor_split_people():
    officer = f.user("officer", CLUB_OFFICER)
    director = f.user("dir", DIRECTOR)
    anna = create_person({"name": "Anna Kowalska"}, director)
    marta = create_person({"name": "Marta Nowak"}, director)
    c = f.login(officer)
    page = c.get(f"/desk/people/{anna.pk}/")
    assert page.status_code == 200 and 'id="person-merge"' not in page.content.decode()
    response = c.post(f"/desk/people/{anna.pk}/merge/", {"other": marta.pk})
    assert response.status_code == 403
    marta.refresh_from_db()
    assert marta.merged_into_id is None
    # The director merges; the officer cannot split it again either.
    d = f.login(director)
    assert 'id="person-merge"' in d.get(f"/desk/people/{anna.pk}/").content.decode()
    assert d.post(f"/desk/people/{anna.pk}/merge/", {"other": marta.pk}).status_code == 302
    marta.refresh_from_db()
    assert marta.merged_into_id == anna.pk
    change = PersonChange.objects.get(kind=PersonChange.Kind.MERGE)
    page = c.get(f"/desk/people/{anna.pk}/").content.decode()
    assert "/split/" not in page
    response = c.post(f"/desk/people/changes/{change.pk}/split/", {"reason": "two people"})
    assert response.status_code == 403
    marta.refresh_from_db()
    assert marta.merged_into_id == anna.pk


# --- the users page ---------------------------------------------------------------------------


def test_a_second_director_adds_a_user_who_then_reaches_exactly_that_tournament():
    """A director in the group only (not staff, not a superuser: the admin is closed to them)
    adds a user with a made password, gives them the desk on A, and the user logs in with that
    password and reaches A and nothing else."""
    second = f.user("second-director", DIRECTOR)
    assert not second.is_staff and not second.is_superuser
    a = f.tournament(slug="open-a", name="Open A", granted=False)
    f.tournament(slug="open-b", name="Open B", granted=False)
    f.seat_session(a)
    c = f.login(second)
    assert c.get("/admin/").status_code == 302  # the admin is not theirs
    users = c.get("/desk/users/")
    assert users.status_code == 200 and 'id="user-add"' in users.content.decode()
    assert 'href="/desk/users/"' in c.get("/desk/").content.decode()

    added = c.post("/desk/users/add/", {"username": "kasia", "password": ""})
    assert added.status_code == 200
    kasia = User.objects.get(username="kasia")
    password = re.search(r"<code>([^<]+)</code>", added.content.decode()).group(1)
    assert len(password) == 12 and kasia.check_password(password)
    assert "no-store" in added["Cache-Control"]
    # Shown once: the user's page does not show it again.
    assert password not in c.get(f"/desk/users/{kasia.pk}/").content.decode()
    assert "kasia" in c.get("/desk/users/").content.decode()

    # Without a role the new user reaches nothing.
    login = Client()
    assert login.post("/login/", {"username": "kasia", "password": password}).status_code == 302
    assert login.get("/desk/").status_code == 403
    assert login.get("/desk/open-a/").status_code == 403

    give = {"action": "give_role", "tournament": a.pk, "role": DESK}
    assert c.post(f"/desk/users/{kasia.pk}/", give).status_code == 302
    grant = StaffGrant.objects.get(user=kasia)
    assert (grant.tournament, grant.role, grant.granted_by) == (a, DESK, second)
    assert grant.history.get().history_user == second
    assert login.get("/desk/open-a/").status_code == 200
    assert login.get("/desk/open-a/s/1/").status_code == 200
    assert login.get("/desk/open-b/").status_code == 403
    assert login.get("/referee/open-a/").status_code == 403  # the desk's role, not a referee's
    home = login.get("/desk/").content.decode()
    assert "/desk/open-a/" in home and "open-b" not in home

    # Taken back: nothing again; the history keeps who gave and who took it.
    take = {"action": "take_role", "grant": grant.pk}
    assert c.post(f"/desk/users/{kasia.pk}/", take).status_code == 302
    assert login.get("/desk/open-a/").status_code == 403
    kinds = list(StaffGrant.history.filter(user=kasia).values_list("history_type", flat=True))
    assert sorted(kinds) == ["+", "-"]


def test_the_users_page_gives_clubs_deactivates_and_makes_directors():
    director = f.user("dir", DIRECTOR)
    c = f.login(director)
    c.post("/desk/users/add/", {"username": "olek", "password": "a long secret 42"})
    olek = User.objects.get(username="olek")
    assert olek.check_password("a long secret 42")
    club = _club("furiten", director)
    assert not club.grants.exists()  # the director's club is given to nobody
    assert (
        c.post(f"/desk/users/{olek.pk}/", {"action": "give_club", "club": club.pk}).status_code
        == 302
    )
    assert OfficerGrant.objects.get(user=olek, club=club).granted_by == director
    officer = f.login(olek)
    assert officer.get("/desk/club/furiten/").status_code == 200
    # Deactivated: the session ends, nothing opens.
    assert c.post(f"/desk/users/{olek.pk}/", {"action": "active"}).status_code == 302
    olek.refresh_from_db()
    assert not olek.is_active
    assert officer.get("/desk/club/furiten/").status_code == 302  # to the login page
    assert c.post(f"/desk/users/{olek.pk}/", {"action": "active", "on": "1"}).status_code == 302
    # A director, and back.
    c.post(f"/desk/users/{olek.pk}/", {"action": "director", "on": "1"})
    assert olek.groups.filter(name=DIRECTOR).exists()
    c.post(f"/desk/users/{olek.pk}/", {"action": "director"})
    assert not olek.groups.filter(name=DIRECTOR).exists()
    # Nobody deactivates or unmakes themselves.
    response = c.post(f"/desk/users/{director.pk}/", {"action": "active"}, follow=True)
    assert "You cannot deactivate yourself." in response.content.decode()
    c.post(f"/desk/users/{director.pk}/", {"action": "director"})
    director.refresh_from_db()
    assert director.is_active and director.groups.filter(name=DIRECTOR).exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"username": "", "password": ""}, "username", "This field is required."),
        ({"username": "a b", "password": ""}, "username", "Enter a valid username"),
        ({"username": "dir", "password": ""}, "username", "A user of this name exists."),
        ({"username": "new", "password": "short"}, "password", "too short"),
    ],
)
def test_a_bad_new_user_is_refused_naming_the_field(data, field, message):
    c = f.login(f.user("dir", DIRECTOR))
    before = User.objects.count()
    response = c.post("/desk/users/add/", data)
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    assert User.objects.count() == before


def test_bad_role_requests_change_nothing():
    c = f.login(f.user("dir", DIRECTOR))
    desk = f.user("desk1", DESK)
    a = f.tournament(slug="open-a", granted=False)
    other = f.user("other", DESK)
    other_grant = StaffGrant.objects.create(user=other, tournament=a, role=DESK)
    for data in (
        {"action": "give_role", "tournament": a.pk, "role": "director"},
        {"action": "give_role", "tournament": 999999, "role": DESK},
        {"action": "give_role", "tournament": "x", "role": DESK},
        {"action": "take_role", "grant": other_grant.pk},  # another user's grant
        {"action": "give_club", "club": 999999},
        {"action": "nonsense"},
    ):
        response = c.post(f"/desk/users/{desk.pk}/", data)
        assert response.status_code == 302, data
    assert list(StaffGrant.objects.values_list("user__username", flat=True)) == ["other"]
    assert c.get("/desk/users/999999/").status_code == 404


# --- an upgraded laptop -------------------------------------------------------------------------


def test_the_upgrade_gives_existing_staff_every_existing_event():
    """The migrations give every user of the desk, referee, head referee and club officer
    groups each event there is, so a laptop upgraded mid-season keeps working."""
    staff = f.staff()
    head = f.user("head", HEAD_REFEREE)
    officer = f.user("officer", CLUB_OFFICER)
    a = f.tournament(slug="open-a", granted=False)
    b = f.tournament(slug="open-b", granted=False)
    club = _club("furiten", staff["director"])
    assert not StaffGrant.objects.exists() and not OfficerGrant.objects.exists()
    importlib.import_module("tournament.migrations.0021_grants_for_existing_staff").grant_existing(
        django_apps, None
    )
    importlib.import_module("club.migrations.0003_grants_for_existing_officers").grant_existing(
        django_apps, None
    )
    given = set(StaffGrant.objects.values_list("user__username", "tournament__slug", "role"))
    assert given == {
        (user, slug, role)
        for slug in ("open-a", "open-b")
        for user, role in (
            ("desk1", DESK),
            ("desk2", DESK),
            ("ref", REFEREE),
            ("head", HEAD_REFEREE),
        )
    }
    assert list(OfficerGrant.objects.values_list("user", "club")) == [(officer.pk, club.pk)]
    # The migration writes each grant's history row itself (a migration's models send no
    # signals; here the real ones also do).
    reason = StaffGrant.history.filter(history_change_reason__startswith="issue 34")
    assert reason.count() == 8
    assert f.login(staff["desk1"]).get("/desk/open-b/").status_code == 200
    assert f.login(head).get("/referee/open-a/appeals/").status_code == 200
    assert f.login(officer).get("/desk/club/furiten/").status_code == 200
    # A new tournament is given to nobody.
    c = f.tournament(slug="open-c", granted=False)
    assert f.login(staff["desk1"]).get(f"/desk/{c.slug}/").status_code == 403
    assert a.grants.count() == b.grants.count() == 4


def test_a_restore_keeps_who_works_on_the_tournament():
    """A restore deletes the tournament's rows and creates them again: its grants come back with
    it, so the desk keeps working after the director restores a backup."""
    staff = f.staff()
    t = tournaments.played(staff)
    content = backups.write_backup(t, tag=backups.MANUAL).path.read_bytes()
    before = set(t.grants.values_list("user", "role", "granted_at"))
    restored, _record = backups.restore(content, staff["director"])
    assert restored.pk != t.pk
    assert set(restored.grants.values_list("user", "role", "granted_at")) == before
    assert f.login(staff["desk1"]).get(f"/desk/{t.slug}/").status_code == 200
    assert Tournament.objects.count() == 1 and Person.objects.count() >= 0
    assert Club.objects.count() == 0
