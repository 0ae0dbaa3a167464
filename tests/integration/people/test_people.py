"""People across events (issue 25, "People"): "A person (name, Latin name, EMA id, country, club)
exists once on the desk; a tournament's player and a club member link to a person. Importing a
player list or a tournament file offers the matches it finds (same EMA id, or same name and
country) for the director to accept; nothing is merged silently. A person's page lists every
event [...] people can be merged and split again with history kept."

Through the real URLs and the real database."""

import io
import json
import re
from datetime import date

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from club.models import Club, Member
from core.errors import ActionRefused
from core.roles import CLUB_OFFICER
from people.models import Person, PersonChange
from people.selectors import candidates
from people.services import create_person, merge_people, split_people, update_person
from scoring.selectors import person_events
from tests.support import factories as f
from tests.support import tournaments
from tests.support.rows import snapshot
from tournament.models import Player, Tournament
from tournament.services import link_players

pytestmark = pytest.mark.django_db

STATE = ("tournament", "people", "club")


@pytest.fixture
def staff():
    return f.staff()


def person(user, **fields):
    return create_person(fields, user)


def upload(c, t, content):
    fh = io.BytesIO(content)
    fh.name = "players.csv"
    return c.post(f"/desk/{t.slug}/players/import/", {"file": fh})


def chosen(html, player) -> str:
    """The value of the player's choice checked on the matches page."""
    inputs = re.findall(rf'<input[^>]*name="player_{player.pk}"[^>]*>', html)
    return next(re.search(r'value="([^"]*)"', i).group(1) for i in inputs if " checked" in i)


LIST = (
    b"Name,EMA id,Country\n"
    b"Anna Kowalska,07000001,PL\n"  # the EMA id of a person typed otherwise
    b"Lukasz Wojcik,,PL\n"  # typed without its accents: the person "Łukasz Wójcik", PL
    b"Lukasz Wojcik Junior,,PL\n"  # nobody
    b"Marie Dupont,,\n"  # the French Marie Dupont has a country; this one has none
)


def test_an_import_offers_matches_and_links_nothing_until_accepted(staff):
    director = staff["director"]
    anna = person(director, name="Kowalska Anna", ema_id="07000001", country="Poland")
    lukasz = person(director, name="Łukasz Wójcik", country="PL")
    person(director, name="Marie Dupont", country="FR")
    t = f.tournament(players=0)
    c = f.login(director)
    r = f.confirm_import(c, t, upload(c, t, LIST))
    page = r.content.decode()
    assert "2 players match people on the desk:" in page
    assert f'href="/desk/{t.slug}/people/"' in page
    # Nothing linked silently.
    assert not Player.objects.filter(person__isnull=False).exists()

    matches = c.get(f"/desk/{t.slug}/people/")
    assert matches.status_code == 200
    html = matches.content.decode()
    players = {p.name: p for p in t.players.all()}
    found = candidates(t.players.all())
    assert found[players["Anna Kowalska"].pk] == [anna]
    assert found[players["Lukasz Wojcik"].pk] == [lukasz]
    assert found[players["Lukasz Wojcik Junior"].pk] == []
    assert found[players["Marie Dupont"].pk] == []  # empty country matches empty only
    # The EMA id's person is chosen already; the namesake is offered, "leave unlinked" chosen.
    assert html.count(" checked") == 4  # one choice for each of the four players
    assert chosen(html, players["Anna Kowalska"]) == str(anna.pk)
    assert chosen(html, players["Lukasz Wojcik"]) == ""
    assert f'value="{lukasz.pk}"' in html and f'value="{anna.pk}"' in html

    r = c.post(
        f"/desk/{t.slug}/people/",
        {
            f"player_{players['Anna Kowalska'].pk}": str(anna.pk),
            f"player_{players['Lukasz Wojcik'].pk}": str(lukasz.pk),
            f"player_{players['Lukasz Wojcik Junior'].pk}": "new",
            f"player_{players['Marie Dupont'].pk}": "",
        },
        follow=True,
    )
    assert "3 players linked to people." in r.content.decode()
    linked = {p.name: p.person for p in t.players.select_related("person")}
    assert linked["Anna Kowalska"] == anna and linked["Lukasz Wojcik"] == lukasz
    junior = linked["Lukasz Wojcik Junior"]
    assert (junior.name, junior.country) == ("Lukasz Wojcik Junior", "PL")
    assert linked["Marie Dupont"] is None
    # Linked players are listed with their person's page.
    assert f'href="/desk/people/{anna.pk}/"' in r.content.decode()


def test_a_person_for_every_player_left_without_a_match(staff):
    director = staff["director"]
    t = f.tournament(players=3)
    namesake = person(director, name="Player 01")
    c = f.login(director)
    r = c.post(f"/desk/{t.slug}/people/", {"all_new": "1"}, follow=True)
    assert "2 players linked to people." in r.content.decode()
    assert t.players.get(key="p01").person is None  # it has a match: the director decides
    assert Person.objects.exclude(pk=namesake.pk).count() == 2


def test_a_restored_file_offers_the_matches_again(staff):
    director = staff["director"]
    t = tournaments.played(staff, confirmed=True)
    p01 = t.players.get(key="p01")
    link_players(t, {p01.pk: "new"}, director)
    c = f.login(director)
    content = c.get(f"/desk/{t.slug}/export/").content
    t.delete()
    fh = io.BytesIO(content)
    fh.name = "t.json"
    r = c.post("/desk/import/", {"file": fh}, follow=True)
    page = r.content.decode()
    # The file does not keep who each player is: the match is offered again, not made.
    assert "1 player matches people on the desk:" in page
    imported = Tournament.objects.get()
    assert not imported.players.filter(person__isnull=False).exists()
    assert json.loads(content)["format"] == "mahjong-tournament"


def test_a_person_page_lists_events_with_rank_and_total(staff):
    director = staff["director"]
    t = tournaments.played(
        staff, confirmed=True, start_date=date(2025, 5, 1), end_date=date(2025, 5, 2)
    )
    other = f.tournament(players=4, slug="spring", name="Spring Cup")
    someone = person(director, name="Player 01")
    link_players(t, {t.players.get(key="p01").pk: someone.pk}, director)
    link_players(other, {other.players.get(key="p01").pk: someone.pk}, director)
    events = person_events(someone)
    assert [e.tournament.slug for e in events] == ["test-open", "spring"]
    assert events[0].rank == 1 and events[0].total is not None
    assert events[1].rank is None  # no results yet
    page = f.login(director).get(f"/desk/people/{someone.pk}/").content.decode()
    assert "Test Open" in page and "Spring Cup" in page


def test_merge_moves_the_links_and_split_brings_them_back(staff):
    director = staff["director"]
    t = f.tournament(players=2)
    p1, p2 = t.players.order_by("key")
    kept = person(director, name="Anna Kowalska", ema_id="07000001")
    other = person(director, name="Anna Kowalska-Nowak")
    link_players(t, {p1.pk: kept.pk, p2.pk: other.pk}, director)
    club = Club.objects.create(name="Riichi Club", slug="rc")
    member = Member.objects.create(club=club, person=other, joined_on=date(2025, 1, 1))
    c = f.login(director)

    r = c.post(
        f"/desk/people/{kept.pk}/merge/", {"other": other.pk, "reason": "the same"}, follow=True
    )
    assert "Anna Kowalska-Nowak merged into Anna Kowalska." in r.content.decode()
    p2.refresh_from_db()
    member.refresh_from_db()
    other.refresh_from_db()
    assert p2.person == kept and member.person == kept and other.merged_into == kept
    merge = PersonChange.objects.get()
    assert (merge.kind, merge.by, merge.reason) == ("merge", director, "the same")
    assert merge.moved == {"players": [p2.pk], "members": [member.pk]}
    assert Club.objects.get().revision > club.revision  # its pages show the kept name now
    # A merged person is hidden from the list and never offered again: the kept one is.
    listing = c.get("/desk/people/").content.decode()
    assert "Anna Kowalska-Nowak" not in listing and "Anna Kowalska" in listing
    newcomer = Player.objects.create(tournament=t, key="p03", name="Anna Kowalska-Nowak")
    assert candidates([newcomer]) == {newcomer.pk: [kept]}
    # The merged person's page says where they went; the kept one's has a split button.
    assert "Merged into" in c.get(f"/desk/people/{other.pk}/").content.decode()
    assert "Split again" in c.get(f"/desk/people/{kept.pk}/").content.decode()

    r = c.post(f"/desk/people/changes/{merge.pk}/split/", {"reason": "two Annas"}, follow=True)
    assert "split from Anna Kowalska again" in r.content.decode()
    p2.refresh_from_db()
    member.refresh_from_db()
    other.refresh_from_db()
    assert p2.person == other and member.person == other and other.merged_into is None
    split = PersonChange.objects.get(kind="split")
    assert split.undoes == merge and split.reason == "two Annas"
    assert "Split again" not in c.get(f"/desk/people/{kept.pk}/").content.decode()

    # A second split is refused and changes nothing.
    before = snapshot(STATE)
    r = c.post(f"/desk/people/changes/{merge.pk}/split/", {}, follow=True)
    assert "This merge was already split." in r.content.decode()
    with pytest.raises(ActionRefused, match="already split"):
        split_people(merge, director)
    assert snapshot(STATE) == before


def test_bad_input_changes_nothing(staff):
    director = staff["director"]
    t = f.tournament(players=2)
    p1 = t.players.get(key="p01")
    anna = person(director, name="Anna")
    gone = person(director, name="Gone")
    merge_people(anna, gone, director)
    c = f.login(director)
    before = snapshot(STATE)

    # An unknown person, a merged person, a foreign player: refused, nothing linked.
    for choices in ({p1.pk: 99999}, {p1.pk: gone.pk}, {99999: anna.pk}, {p1.pk: "new", 0: "x"}):
        with pytest.raises(ActionRefused):
            link_players(t, choices, director)
    r = c.post(f"/desk/{t.slug}/people/", {f"player_{p1.pk}": "99999"})
    assert r.status_code == 200 and "A choice is not one of those offered" in r.content.decode()
    # Merging a person with themselves, or with a merged person.
    with pytest.raises(ActionRefused, match="themselves"):
        merge_people(anna, anna, director)
    with pytest.raises(ActionRefused, match="already merged"):
        merge_people(anna, gone, director)
    r = c.post(f"/desk/people/{anna.pk}/merge/", {"other": anna.pk})
    assert r.status_code == 200 and "errorlist" in r.content.decode()
    # A bad EMA id names the field; a merged person cannot be edited.
    with pytest.raises(ActionRefused, match="EMA id"):
        update_person(anna, {"ema_id": "123"}, director)
    with pytest.raises(ActionRefused, match="merged into Anna"):
        update_person(gone, {"name": "Back"}, director)
    r = c.post(f"/desk/people/{anna.pk}/", {"name": "Anna", "ema_id": "12"})
    assert "exactly 8 digits" in r.content.decode()
    assert snapshot(STATE) == before


def test_people_pages_add_edit_and_search(staff):
    c = f.login(staff["director"])
    r = c.post("/desk/people/add/", {"first_name": "Łukasz", "last_name": "Wójcik"})
    someone = Person.objects.get()
    assert r["Location"] == f"/desk/people/{someone.pk}/" and someone.name == "Łukasz Wójcik"
    assert someone.history.first().history_user == staff["director"]
    c.post(f"/desk/people/{someone.pk}/", {"name": "Łukasz Wójcik", "country": "PL"})
    someone.refresh_from_db()
    assert someone.country == "PL"
    assert "Łukasz Wójcik" in c.get("/desk/people/?q=lukasz wojcik").content.decode()
    assert "Łukasz Wójcik" not in c.get("/desk/people/?q=anna").content.decode()


def test_a_search_that_finds_nobody_says_so_not_that_there_are_no_people(staff):
    """Issue 37 (untrue words): the people page said "No people yet" for a search without a
    hit while the desk had people; a search says it found nobody, the empty desk says none."""
    c = f.login(staff["director"])
    assert "No people yet" in c.get("/desk/people/").content.decode()
    c.post("/desk/people/add/", {"first_name": "Тарас", "last_name": "Шевчук"})
    page = c.get("/desk/people/?q=shevchenko").content.decode()
    assert "No people yet" not in page
    assert "Nobody on the desk matches this search." in page
    assert "Тарас Шевчук" in c.get("/desk/people/?q=shevchuk").content.decode()


def test_reserved_slugs_are_refused(staff):
    c = f.login(staff["director"])
    data = {"name": "People", "ruleset": "ema-2012", "planned_sessions": 4, "fee": 0}
    data |= {"scope": "individual", "language": "en"}
    r = c.post("/desk/new/", {**data, "slug": "people"})
    assert r.status_code == 200 and "is a page of the desk" in r.content.decode()
    c.post("/desk/new/", data)  # the slug made from the name "People" steps aside
    assert Tournament.objects.get().slug == "people-2"


def test_club_officers_reach_the_people_but_not_a_tournament(staff):
    officer = f.user("officer")
    officer.groups.add(Group.objects.get(name=CLUB_OFFICER))
    t = f.tournament(players=1)
    c = Client()
    c.force_login(officer)
    home = c.get("/desk/")
    assert 'href="/desk/people/"' in home.content.decode()
    assert c.get("/desk/people/").status_code == 200
    assert c.get("/desk/people/add/").status_code == 200
    assert c.get(f"/desk/{t.slug}/people/").status_code == 403
    desk = f.login(staff["desk1"])
    assert desk.get("/desk/people/").status_code == 403


def test_matching_400_players_reads_the_people_once(staff, django_assert_num_queries):
    director = staff["director"]
    t = f.tournament(players=400)
    for n in range(1, 400, 2):
        person(director, name=f"Player {n:02d}")
    players = list(t.players.all())
    with django_assert_num_queries(1):
        found = candidates(players)
    assert sum(1 for people in found.values() if people) == 200
    c = f.login(director)
    assert 'href="/desk/test-open/people/"' in c.get("/desk/test-open/").content.decode()
    assert 'href="/desk/test-open/people/"' in c.get("/desk/test-open/players/").content.decode()


def test_merges_are_split_in_reverse_order(staff):
    """A merge whose kept person was merged on is split only after that later merge: otherwise
    the wrong links would part."""
    director = staff["director"]
    club = Club.objects.create(name="Riichi Club", slug="rc")
    x, k, z = (person(director, name=n) for n in ("X", "K", "Z"))
    member = Member.objects.create(club=club, person=x, joined_on=date(2025, 1, 1))
    first = merge_people(k, x, director)
    second = merge_people(z, k, director)
    member.refresh_from_db()
    assert member.person == z
    before = snapshot(STATE)
    with pytest.raises(ActionRefused, match="split the later merge first"):
        split_people(first, director)
    assert snapshot(STATE) == before
    split_people(second, director)
    split_people(first, director)
    member.refresh_from_db()
    assert member.person == x
