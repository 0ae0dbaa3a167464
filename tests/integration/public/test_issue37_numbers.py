"""Issue 37 point 8: numbers and dates in the page's language. A Russian page showed "24.2" and
"2026-11-28" (the club rating's chart); English keeps "24.2". Through the real URLs, the
language chosen as a visitor chooses it (the `django_language` cookie).

001 §13.3–13.4: a game's rating result is (final score − 30,000) / 1,000 to one decimal plus
+9 / +3 / −3 / −9: 45,200 gives (45,200 − 30,000) / 1,000 + 9 = 24.2, 19,800 gives −19.2."""

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from archive import backups
from club.services import add_member, confirm_game, record_game, save_club
from core.roles import CLUB_OFFICER
from people.models import Person
from tests.support import factories as f

pytestmark = pytest.mark.django_db

START = datetime.date(2026, 11, 28)
EVENING = datetime.date(2026, 11, 27)
SCORES = [45200, 30000, 25000, 19800]
# How each language writes the first player's 24.2 and the dates (Django's formats; English the
# desk's own, config/formats/en: day first).
WRITTEN = {
    "en": {"first": "24.2", "last": "-19.2", "start": "28/11/2026", "evening": "27/11/2026"},
    "ru": {"first": "24,2", "last": "-19,2", "start": "28.11.2026", "evening": "27.11.2026"},
    "pl": {"first": "24,2", "last": "-19,2", "start": "28-11-2026", "evening": "27-11-2026"},
}
ISO = re.compile(r"\b\d{4}-\d\d-\d\d\b")


def text(response) -> str:
    """The page's words: no tags (so no address or form value), entities read."""
    body = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def visitor(lang):
    client = Client()
    client.cookies["django_language"] = lang
    return client


@pytest.fixture
def staff():
    return f.staff()


@pytest.fixture
def tournament(staff):
    t = f.tournament("furiten-club", players=4, start_date=START)
    f.play(f.seat_session(t).tables.get(), SCORES, staff["desk1"], staff["desk2"])
    return t


@pytest.fixture
def club():
    one, two = f.user("officer1", CLUB_OFFICER), f.user("officer2", CLUB_OFFICER)
    c = save_club(None, {"name": "Furiten", "slug": "furiten"}, one)
    f.grant(two, c)
    members = [
        add_member(c, Person.objects.create(name=name), one, joined_on=datetime.date(2026, 1, 5))
        for name in ("Anna Nowak", "Boris Petrov", "Chen Li", "Dmytro Koval")
    ]
    seats = [(m, score, 0) for m, score in zip(members, SCORES, strict=True)]
    confirm_game(record_game(c, seats, one, played_on=EVENING), two)
    return c, members, one


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_standings_and_player_pages_write_numbers_in_the_page_language(tournament, lang):
    written = WRITTEN[lang]
    client = visitor(lang)
    standings = text(client.get(f"/t/{tournament.slug}/"))
    player = text(client.get(f"/t/{tournament.slug}/p/p01/"))
    home = text(client.get("/"))
    for page in (standings, player):
        assert written["first"] in page
        if lang != "en":
            assert "24.2" not in page
    assert written["last"] in standings
    assert written["start"] in home and not ISO.search(home)


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_the_club_pages_and_the_rating_chart_in_the_page_language(club, lang):
    """The person page's chart wrote its axis "24.2" and "2026-11-27" in every language."""
    c, members, _officer = club
    written = WRITTEN[lang]
    client = visitor(lang)
    person = client.get(f"/r/{c.slug}/p/{members[0].person_id}/")
    chart = re.search(r"<svg.*</svg>", person.content.decode(), re.S).group(0)
    axis = re.findall(r"<text[^>]*>([^<]*)</text>", chart)
    assert axis == [written["first"], "0", written["evening"], written["evening"]]
    for page in (
        text(person),
        text(client.get(f"/r/{c.slug}/")),
        text(client.get(f"/r/{c.slug}/games/")),
    ):
        assert written["first"] in page and written["evening"] in page
        assert not ISO.search(page)
        if lang != "en":
            assert "24.2" not in page


def test_the_desk_game_page_and_its_void_question_date_the_game_in_russian(club):
    """The game page's title and "Take table 1 of … out of the rating?" said 2026-11-27."""
    c, _members, officer = club
    desk = f.login(officer)
    desk.cookies["django_language"] = "ru"
    game = c.games.get()
    page = text(desk.get(f"/desk/club/{c.slug}/games/{game.pk}/"))
    assert "Стол 1 · 27 ноября 2026 г." in page and not ISO.search(page)
    asked = desk.post(
        f"/desk/club/{c.slug}/games/{game.pk}/void/",
        {"base_version": 1, "note": "played twice"},
    )
    assert "27 ноября 2026 г." in text(asked) and not ISO.search(text(asked))


def test_a_refusal_writes_its_number_in_the_page_language(tournament, staff):
    """A penalty is zero or negative (mahjong.penalties.check_amount): 0.5 is refused as "0,5"
    on a Russian page, as "0.5" on an English one."""
    player = tournament.players.get(key="p01")
    data = {"player": player.pk, "kind": "other", "amount": "0.5", "stage": "after", "confirm": 1}
    for lang, said in (("ru", "а не 0,5."), ("en", "not 0.5.")):
        director = f.login(staff["director"])
        director.cookies["django_language"] = lang
        r = director.post(f"/referee/{tournament.slug}/s/1/penalties/add/", data, follow=True)
        assert [m.message for m in r.context["messages"]][-1].endswith(said)
    assert not tournament.sessions.get().penalties.exists()


def test_the_backups_page_dates_each_backup_in_the_page_language(tournament, staff):
    """To the second, as the director picks one; the date as Russian writes it."""
    made = backups.write_backup(tournament, tag="manual").made_at
    director = f.login(staff["director"])
    director.cookies["django_language"] = "ru"
    page = text(director.get(f"/desk/{tournament.slug}/backups/"))
    shown = re.findall(r"\b\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d\b", page)
    assert shown and not ISO.search(page)
    assert timezone.localtime(made).strftime("%d.%m.%Y %H:%M:%S") in shown
