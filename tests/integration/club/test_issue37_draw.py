"""Issue 37 point 7: a club evening's draw did not say who sits out when the members present
are not a multiple of four (001 §2.4: a game is four players at 30,000 each). Through the real
URLs: the draw's message and the evening page name them; with a multiple of four nobody is
named."""

import datetime
import html
import re

import pytest

from club.models import Game, GameSeat
from club.services import add_member, save_club
from core.roles import CLUB_OFFICER
from people.models import Person
from tests.support import factories as f

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 27)
NAMES = [
    "Anna Kowalska",
    "Boris Petrov",
    "Chen Li",
    "Dmytro Koval",
    "Eva Novak",
    "Fedir Bondar",
    "Galyna Moroz",
    "Hanna Lis",
    "Ivan Shevchuk",
]


def text(response) -> str:
    words = html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
    return " ".join(words.split())


def messages_of(response) -> list[str]:
    return [m.message for m in response.context["messages"]]


@pytest.fixture
def officer():
    return f.user("officer1", CLUB_OFFICER)


@pytest.fixture
def club(officer):
    c = save_club(None, {"name": "Furiten", "slug": "furiten"}, officer)
    for name in NAMES:
        add_member(c, Person.objects.create(name=name), officer, joined_on=DAY)
    return c


def check_in(client, club, names):
    for m in club.members.select_related("person").filter(person__name__in=names):
        r = client.post(f"{evening_url(club)}checkin/{m.pk}/", {"checked_in": "1"})
        assert r.status_code == 302


def evening_url(club):
    return f"/desk/club/{club.slug}/evening/{DAY.isoformat()}/"


def sitting_out_line(page: str) -> str | None:
    found = re.search(r"Sitting out: ([^.]*?)(?: Record a game not drawn|$)", page)
    return found.group(1).strip() if found else None


def test_the_draw_names_who_sits_out(club, officer):
    """Seven present: one table of four, three sit out; the message and the page name exactly
    the three the draw left out, in name order."""
    one = f.login(officer)
    present = NAMES[:7]
    check_in(one, club, present)
    before = text(one.get(evening_url(club)))
    assert "Sitting out" not in before  # no draw yet: nobody sits out

    r = one.post(evening_url(club) + "draw/", follow=True)
    seated = set(GameSeat.objects.values_list("member__person__name", flat=True))
    out = sorted(set(present) - seated)
    assert len(seated) == 4 and len(out) == 3
    assert messages_of(r) == [f"Tables drawn: 1. Sitting out: {', '.join(out)}."]
    assert sitting_out_line(text(one.get(evening_url(club)))) == ", ".join(out)

    # Two more arrive: the five free members make one more table and one sits out.
    check_in(one, club, NAMES[7:])
    r = one.post(evening_url(club) + "draw/", follow=True)
    second = Game.objects.get(number=2)
    seated_now = set(second.seats.values_list("member__person__name", flat=True))
    free = set(out) | set(NAMES[7:])
    assert seated_now < free
    (last,) = free - seated_now
    assert messages_of(r) == [f"Tables drawn: 2. Sitting out: {last}."]
    assert sitting_out_line(text(one.get(evening_url(club)))) == last


def test_with_a_multiple_of_four_nobody_sits_out(club, officer):
    one = f.login(officer)
    check_in(one, club, NAMES[:8])
    r = one.post(evening_url(club) + "draw/", follow=True)
    assert messages_of(r) == ["Tables drawn: 1, 2."]
    page = text(one.get(evening_url(club)))
    assert "Sitting out" not in page
