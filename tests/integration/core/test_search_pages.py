"""Issue 23: names are found as people type them, and listed in their readers' order, on every
page that searches or lists them (through the real URLs; core.search and core.collation are
unit-tested on their own)."""

import html
import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from core.roles import DESK, DIRECTOR, REFEREE, ensure_groups
from referee.services import record_incident, record_penalty
from tests.support import factories as f
from tournament.models import Tournament
from tournament.services import save_tournament

pytestmark = pytest.mark.django_db

NAMES = {
    "p01": "Łukasz Nowak",
    "p02": "Anna Wójcik",
    "p03": "Hans Müller",
    "p04": "Seán O'Brien",
    "p05": "Lena Kowalska",
    "p06": "Marek Zieliński",
    "p07": "Павло Ґудзь",
    "p08": "Ёлка Петрова",
}


@pytest.fixture
def t():
    t = f.tournament(players=8, language="pl")
    for key, name in NAMES.items():
        t.players.filter(key=key).update(name=name)
    return t


def client(role):
    ensure_groups()
    person = User.objects.create_user(role)
    person.groups.add(Group.objects.get(name=role))
    for t in Tournament.objects.all():  # the role on the tournaments there are (issue 34)
        f.grant(person, t)
    c = Client()
    c.force_login(person)
    return c


def shown_rows(page: str) -> list[str]:
    """The check-in table's rows that are not hidden, as their text."""
    body = page[page.index("<tbody") :]
    rows = re.findall(r"<tr([^>]*)>(.*?)</tr>", body, re.S)
    return [
        html.unescape(re.sub(r"<[^>]+>|\s+", " ", cells)).strip()
        for attrs, cells in rows
        if "hidden" not in attrs
    ]


def shown_names(page: str) -> list[str]:
    """The names of the shown rows, in the page's order."""
    return [
        name for row in shown_rows(page) for name in NAMES.values() if row.startswith(name + " ")
    ]


@pytest.mark.parametrize(
    "typed, name",
    [
        ("lukasz", "Łukasz Nowak"),
        ("wojcik", "Anna Wójcik"),
        ("muller", "Hans Müller"),
        ("mueller", "Hans Müller"),
        ("obrien", "Seán O'Brien"),
        ("o’brien", "Seán O'Brien"),  # an iPhone's curly apostrophe
        ("SEAN O BRIEN", "Seán O'Brien"),
        ("гудзь", "Павло Ґудзь"),
        ("елка", "Ёлка Петрова"),
        ("nowak lukasz", "Łukasz Nowak"),
    ],
)
def test_checkin_finds_a_name_as_people_type_it(t, typed, name):
    desk = client(DESK)
    page = desk.get(f"/desk/{t.slug}/checkin/", {"q": typed}).content.decode()
    assert shown_names(page) == [name]
    assert len(re.findall(r"<tr[^>]*data-player=", page)) == 8  # the others are only hidden
    # What the page's script asks as the desk user types: the ids of the players found.
    found = desk.get(
        f"/desk/{t.slug}/checkin/", {"q": typed}, headers={"x-requested-with": "fetch"}
    ).json()
    assert found == {"players": [t.players.get(name=name).pk]}


def test_checkin_without_a_query_lists_everyone_in_the_tournament_language_order(t):
    page = client(DESK).get(f"/desk/{t.slug}/checkin/").content.decode()
    assert shown_names(page) == [
        "Anna Wójcik",
        "Hans Müller",
        "Lena Kowalska",
        "Łukasz Nowak",
        "Marek Zieliński",
        "Seán O'Brien",
        "Ёлка Петрова",
        "Павло Ґудзь",
    ]
    assert 'name="q" value=""' in page


def test_player_list_puts_l_with_a_stroke_after_l_and_before_m():
    t = f.tournament(players=0, language="pl")
    for n, name in enumerate(["Mateusz", "Zofia", "Łukasz", "Luna", "Lech", "Żaneta", "Adam"]):
        t.players.create(key=f"p{n}", name=name)
    director = client(DIRECTOR)
    url = f"/desk/{t.slug}/players/"

    def listed(page):
        return re.findall(r'<a href="/desk/[^"]+/players/\d+/">([^<]+)</a>', page)

    order = ["Adam", "Lech", "Luna", "Łukasz", "Mateusz", "Zofia", "Żaneta"]
    assert listed(director.get(url).content.decode()) == order
    assert listed(director.get(url + "?sort=name").content.decode()) == order
    assert listed(director.get(url + "?sort=-name").content.decode()) == order[::-1]


def test_referee_search_finds_a_seated_name_as_people_type_it(t):
    f.seat_session(t)
    referee = client(REFEREE)
    for typed, name, table in [
        ("lukasz", "Łukasz Nowak", 1),
        ("o’brien", "Seán O'Brien", 1),
        ("muller", "Hans Müller", 1),
        ("гудзь", "Павло Ґудзь", 2),
    ]:
        page = html.unescape(referee.get(f"/referee/{t.slug}/", {"q": typed}).content.decode())
        found = page[page.index('class="plain found"') : page.index("</ul>")]
        assert f"{name} · table {table}" in found
        assert found.count("<li>") == 1, typed


def test_referee_log_filters_by_a_name_as_people_type_it(t):
    session = f.seat_session(t)
    referee_user = User.objects.create_user("ref")
    ensure_groups()
    referee_user.groups.add(Group.objects.get(name=REFEREE))
    f.grant(referee_user, t)  # the referee's role on this tournament (issue 34)
    lukasz, obrien = t.players.get(key="p01"), t.players.get(key="p04")
    record_penalty(session, lukasz, "late", referee_user, minutes=3)
    record_penalty(session, obrien, "late", referee_user, minutes=4)
    record_incident(session, referee_user, "dropped a tile", player=obrien)
    c = Client()
    c.force_login(referee_user)
    page = html.unescape(c.get(f"/referee/{t.slug}/log/", {"q": "o’brien"}).content.decode())
    penalties = page[page.index('class="penalties"') :]
    penalties = penalties[: penalties.index("</table>")]
    assert "Seán O'Brien" in penalties and "Łukasz Nowak" not in penalties
    assert "dropped a tile" in page
    page = html.unescape(c.get(f"/referee/{t.slug}/log/", {"q": "LUKASZ"}).content.decode())
    assert "Łukasz Nowak" in page and "Seán O'Brien" not in page


def test_find_my_table_finds_a_name_as_people_type_it(t):
    f.seat_session(t)
    for typed, name in [
        ("lukasz", "Łukasz Nowak"),
        ("obrien", "Seán O'Brien"),
        ("o’brien", "Seán O'Brien"),
        ("muller", "Hans Müller"),
        ("wojcik", "Anna Wójcik"),
    ]:
        page = html.unescape(Client().get(f"/t/{t.slug}/find/", {"q": typed}).content.decode())
        assert re.findall(r'<a href="/t/[^"]+/p/p\d+/">([^<]+)</a>', page) == [name], typed


def test_find_my_table_lists_what_it_finds_in_the_tournament_language_order(t):
    t.players.filter(key="p02").update(name="Luna Kowalska")
    f.seat_session(t)
    page = Client().get(f"/t/{t.slug}/find/", {"q": "l"}).content.decode()
    found = re.findall(r'<a href="/t/[^"]+/p/p\d+/">([^<]+)</a>', html.unescape(page))
    assert found == [
        "Hans Müller",
        "Lena Kowalska",
        "Luna Kowalska",
        "Łukasz Nowak",
        "Marek Zieliński",
        # issue 37: a Cyrillic name is found by its Latin spelling too (Yolka, Pavlo)
        "Ёлка Петрова",
        "Павло Ґудзь",
    ]


def test_standings_list_ties_and_sort_by_name_in_the_tournament_language_order(t):
    """Before any result everyone is tied: listed by name, as the feed lists them too."""
    order = [
        "Anna Wójcik",
        "Hans Müller",
        "Lena Kowalska",
        "Łukasz Nowak",
        "Marek Zieliński",
        "Seán O'Brien",
        "Ёлка Петрова",
        "Павло Ґудзь",
    ]

    def listed(query=""):
        page = html.unescape(Client().get(f"/t/{t.slug}/{query}").content.decode())
        return re.findall(r'<a href="/t/[^"]+/p/p\d+/">([^<]+)</a>', page)

    assert listed() == order
    assert listed("?sort=name") == order
    assert listed("?sort=-name") == order[::-1]
    feed = Client().get(f"/t/{t.slug}/standings.json").json()
    assert [row["player"]["name"] for row in feed["standings"]] == order
    t.language = "uk"  # Cyrillic first
    save_tournament(t)  # as the tournament's edit page saves it
    assert listed("?sort=name") == order[-2:] + order[:-2]


def test_choices_of_a_player_are_listed_in_the_tournament_language_order(t):
    f.seat_session(t, groups=[["p01", "p02", "p03", "p04"]])
    t.players.create(key="s1", name="Ludwik Lis", substitute=True)
    appeal = client(REFEREE).get(f"/referee/{t.slug}/appeals/new/").content.decode()
    names = re.findall(r'<option value="\d+">([^<]+)</option>', html.unescape(appeal))
    assert names[:9] == [
        "Anna Wójcik",
        "Hans Müller",
        "Lena Kowalska",
        "Ludwik Lis",
        "Łukasz Nowak",
        "Marek Zieliński",
        "Seán O'Brien",
        "Ёлка Петрова",
        "Павло Ґудзь",
    ]
    # Adding a table by hand: the players not seated, then the substitutes.
    session = client(DIRECTOR).get(f"/desk/{t.slug}/s/1/").content.decode()
    east = session[session.index('name="E"') :]
    east = east[: east.index("</select>")]
    assert re.findall(r'<option value="\d+">([^<]+)</option>', html.unescape(east)) == [
        "Lena Kowalska",
        "Marek Zieliński",
        "Ёлка Петрова",
        "Павло Ґудзь",
        "Ludwik Lis",
    ]
