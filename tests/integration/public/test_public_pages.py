"""Public pages: content, phone-friendly refresh hooks, and a constant number of queries."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.html import escape
from django_tables2 import RequestConfig

from core.tables import ONE_PASS, fmt, formatter
from public.tables import FindTableTable, PlayerSessionsTable, standings_table
from scoring.selectors import standings
from tests.support import factories as f

pytestmark = pytest.mark.django_db


def played(players, slug):
    """A tournament with session 1 played and confirmed: East 40000, South 35000, ..."""
    staff = (
        {u: User.objects.get(username=u) for u in ("desk1", "desk2")}
        if User.objects.filter(username="desk1").exists()
        else f.staff()
    )
    t = f.tournament(players=players, slug=slug)
    session = f.seat_session(t)
    for table in session.tables.all():
        f.play(table, [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    return t


def queries(path):
    c = Client()
    with CaptureQueriesContext(connection) as ctx:
        assert c.get(path).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "page", ["", "standings.json", "statistics.json", "p/p01/", "find/?q=Player"]
)
def test_queries_do_not_grow_with_the_field(page):
    small = played(8, "small")
    big = played(40, "big")
    cold_small = queries(f"/t/{small.slug}/{page}")
    cold_big = queries(f"/t/{big.slug}/{page}")
    assert cold_small == cold_big
    # Kept until something changes: no query at all (public_cache holds the revision a second).
    assert queries(f"/t/{big.slug}/{page}") == 0


def test_standings_page_content():
    t = played(8, "open")
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'data-live="0"' in page  # every table confirmed: nothing left to refresh
    assert page.index("Player 01") < page.index("Player 02") < page.index("Player 04")
    assert "S1" in page and "S4" in page  # one column per planned session
    partial = Client().get(f"/t/{t.slug}/?partial=1").content.decode()
    assert "<html" not in partial and "Player 01" in partial


def test_standings_page_is_live_while_tables_are_open():
    t = f.tournament(players=8)
    f.seat_session(t)
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'data-live="1"' in page


def test_standings_table_sorts_by_a_column():
    t = played(8, "sorting")
    page = Client().get(f"/t/{t.slug}/?sort=-name").content.decode()
    assert page.index("Player 08") < page.index("Player 01")


def test_find_my_table_by_part_of_a_name():
    t = f.tournament(players=8)
    t.players.filter(key="p06").update(name="Łukasz Żółć")
    f.seat_session(t)
    page = Client().get(f"/t/{t.slug}/find/?q=żółć").content.decode()
    assert "Łukasz Żółć" in page
    assert '<td class="big">2</td>' in page  # table 2
    assert "East: <bdi>Player 05</bdi>" in page


def test_find_my_table_and_check_in_find_a_name_from_the_other_script():
    """Issue 37: "shevchenko" and "gudz" found nothing at check-in beside "Шевченко"."""
    t = f.tournament(players=8)
    t.players.filter(key="p06").update(name="Олександр Шевченко")
    t.players.filter(key="p07").update(name="Yuliia Gudz")
    f.seat_session(t)
    page = Client().get(f"/t/{t.slug}/find/?q=shevchenko").content.decode()
    assert "Олександр Шевченко" in page
    page = Client().get(f"/t/{t.slug}/find/?q=Ґудзь").content.decode()
    assert "Yuliia Gudz" in page
    desk = f.login(f.staff()["desk1"])
    fetch = {"x-requested-with": "fetch"}
    found = desk.get(f"/desk/{t.slug}/checkin/", {"q": "shevch"}, headers=fetch).json()
    assert found == {"players": [t.players.get(key="p06").pk]}


def test_find_my_table_tells_a_registered_player_who_is_not_seated():
    """Issue 37: a registered player not yet seated got "Nobody found", which is untrue."""
    t = f.tournament(players=8)
    f.seat_session(t)
    t.players.create(key="p09", name="Zofia Lis")
    page = html.unescape(Client().get(f"/t/{t.slug}/find/?q=zofia").content.decode())
    assert "Zofia Lis: registered, but not seated in session 1. Ask the desk." in page
    assert "Nobody found" not in page
    page = Client().get(f"/t/{t.slug}/find/?q=nobody-of-that-name").content.decode()
    assert "Nobody found: type part of your name." in page


def test_a_name_with_a_direction_override_turns_no_neighbour_around():
    """Issue 22: a right-to-left override in one name reversed the rest of its find-my-table
    cell. Each name is isolated (<bdi>), so the override ends with the name."""
    t = f.tournament(players=8)
    t.players.filter(key="p05").update(name="\u202eEvil Twin")
    f.seat_session(t)
    page = Client().get(f"/t/{t.slug}/find/?q=Player 06").content.decode()
    assert "East: <bdi>\u202eEvil Twin</bdi>, West: <bdi>Player 07</bdi>" in page


def test_player_page_shows_opponents_and_running_total():
    t = played(8, "pp")
    page = Client().get(f"/t/{t.slug}/p/p02/").content.decode()
    assert "East: <bdi>Player 01</bdi>" in page
    assert "15,000" in page  # 35000 − 30000 + 10000
    assert Client().get(f"/t/{t.slug}/p/nobody/").status_code == 404


def test_team_standings_when_teams_exist():
    t = f.tournament(players=8)
    t.players.filter(key__in=["p01", "p05"]).update(team="Dragons")
    t.players.filter(key__in=["p02", "p06"]).update(team="Winds")
    staff = f.staff()
    session = f.seat_session(t)
    for table in session.tables.all():
        f.play(table, [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Teams" in page and "Dragons" in page
    # Dragons: p01 + p05 both first = 2 × 40000; Winds: 2 × 15000.
    assert page.index("Dragons") < page.index("Winds")
    assert "80,000" in page


def test_phones_follow_the_session_being_played_not_the_last_planned():
    """Issue 23 (1): with sessions 1–4 seated at once by a plan, a phone said "Session 4" before
    session 1 began. Every page asks selectors.session_now: the session being played, else the
    next one to be played, else the last one played."""
    staff = f.staff()
    t = f.tournament(players=8)
    for number in (1, 2, 3, 4):
        flip = [["p05", "p01", "p06", "p02"], ["p07", "p03", "p08", "p04"]]
        f.seat_session(t, number, flip if number % 2 == 0 else None)
    phone = Client()
    find = phone.get(f"/t/{t.slug}/find/?q=Player 05").content.decode()
    assert "Session 1" in find and '<td class="big">2</td>' in find
    player = phone.get(f"/t/{t.slug}/p/p05/").content.decode()
    assert "Session 1: table 2, East" in player
    assert phone.get(f"/t/{t.slug}/clock.json").json()["session"] == 1
    # Session 1 being played: a result is entered at one table, the other is still playing.
    table_1, table_2 = t.sessions.get(number=1).tables.order_by("number")
    f.play(table_1, [40000, 30000, 20000, 30000], staff["desk1"], staff["desk2"])
    assert "Session 1: table 2, East" in phone.get(f"/t/{t.slug}/p/p05/").content.decode()
    dashboard = f.login(staff["director"]).get(f"/desk/{t.slug}/").content.decode()
    assert dashboard.count('class="now"') == 1 and "being played" in dashboard
    # Every table confirmed: the next session to be played.
    f.play(table_2, [40000, 30000, 20000, 30000], staff["desk1"], staff["desk2"])
    assert "Session 2: table 1, East" in phone.get(f"/t/{t.slug}/p/p05/").content.decode()
    clock = phone.get(f"/t/{t.slug}/clock.json").json()
    assert (clock["session"], clock["state"]) == (2, "waiting")


def test_the_clock_of_a_session_played_without_it_shows_the_end():
    """Issue 23 (13): the top bar said "Session 1 1:30:00 waiting to start" after every result
    of session 1 was confirmed, when nobody had used the clock."""
    staff = f.staff()
    t = f.tournament(players=4)
    table = f.seat_session(t).tables.get()
    assert Client().get(f"/t/{t.slug}/clock.json").json()["state"] == "waiting"
    f.play(table, [40000, 30000, 20000, 30000], staff["desk1"], staff["desk2"])
    clock = Client().get(f"/t/{t.slug}/clock.json").json()
    assert (clock["session"], clock["state"]) == (1, "ended")


def test_the_standings_rows_drawn_in_one_pass_are_django_tables2s_own():
    """Issue 26: the rows are drawn in one pass (StandingsTable.body_html), not cell by cell by
    the template engine; each cell is what django-tables2's own table template draws."""
    t = played(12, "one-pass")
    t.players.filter(key="p03").update(club="Łódź <Riichi>", country="")
    request = RequestFactory().get("/", {"sort": "-club"})

    def drawn(template):
        table = standings_table(standings(t), t, 4, "Game points")
        table.template_name = template
        RequestConfig(request, paginate=False).configure(table)
        html = table.as_html(request)
        body = re.search(r"<tbody.*?</tbody>", html, re.S).group(0)
        return re.sub(r">\s+<", "><", body)

    ours = drawn(ONE_PASS)
    assert ours == drawn("django_tables2/table.html")
    assert "Łódź &lt;Riichi&gt;" in ours and '<a href="/t/one-pass/p/p01/">' in ours


@pytest.mark.parametrize("language", ["en", "uk", "ru", "pl"])
def test_a_whole_tables_numbers_are_written_as_fmt_writes_each(language):
    """Issue 26: the one-pass rows look the language's separators up once (core.tables.formatter);
    each number must read exactly as `fmt` writes it, escaped, in every language of the desk."""
    values = [None, "", 0, -0.0, 5, -5, 1234, -1234, 1234567, -0.5, -0.25, 0.125, 12.5]
    values += [-12345.67, 99999.999, 1000.005, -1000000.1, 2.675, 1e17, -3.3333, 30000.0, -0.001]
    with translation.override(language):
        number = formatter()
        assert [number(v) for v in values] == [escape(fmt(v)) for v in values]
    with translation.override("uk"):
        assert formatter()(-1234567.5) == "-1\xa0234\xa0567,5"


def _tbody(table, template):
    table.template_name = template
    html = table.as_html(RequestFactory().get("/"))
    return re.sub(r">\s+<", "><", re.search(r"<tbody.*?</tbody>", html, re.S).group(0))


@pytest.mark.parametrize("language", ["en", "uk"])
def test_player_and_find_rows_drawn_in_one_pass_are_django_tables2s_own(language):
    """Issue 26: a player's sessions and find-my-table's rows are drawn in one pass
    (core.tables.OnePassTable): django-tables2 works out each cell, Python writes the rows.
    Cell by cell, the HTML must be its own template's: escaping, defaults, render_result's
    notes, links, and numbers localised in the page's language."""
    lines = [
        {
            "session": 1,
            "table": 3,
            "wind": "East",
            "opponents": "Łódź <Riichi>, B & C",
            "score": 41200,
            "place": 1,
            "uma": 15.5,
            "penalty": -2,
            "result": 24700.25,
            "running": 24700.25,
            "note": "replaced by <Olena>",
        },
        {"session": 2, "table": None, "wind": None, "opponents": "", "score": None},
    ]
    found = [
        {"slug": "cup", "key": "p01", "name": "Seán <O'Brien>", "table": 7, "wind": "South"},
        {"slug": "cup", "key": "p~2", "name": "Ada", "table": None, "opponents": "X & Y"},
    ]
    with translation.override(language):
        for table in (PlayerSessionsTable(lines), FindTableTable(found)):
            ours = _tbody(table, ONE_PASS)
            assert ours == _tbody(table, "django_tables2/table.html")
            assert "&lt;" in ours
