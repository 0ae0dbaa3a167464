"""Issue 25, "Measured": a club evening through the pages in headless Chromium — nine members
check in, two tables are drawn, two games are entered and confirmed by a second officer, and the
rating table on a phone shows the new order.

The expected order is worked out here from the scores by 001 §13 ((score − 30,000) / 1,000
plus +9 / +3 / −3 / −9), independently of the desk's own arithmetic."""

import datetime
import unicodedata

import pytest
from django.utils import timezone

from club.models import Game
from club.services import add_member, confirm_game, record_game, save_club
from core.roles import CLUB_OFFICER
from people.models import Person
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

SLUG = "furiten"
NAMES = ("Łukasz Wójcik", "Ganna Kovalenko", "Olena Shevchuk", "Marek Nowak", "Iryna Bondar",
         "Piotr Zieliński", "Taras Melnyk", "Zoë Lefèvre", "Jan van den Berg")  # fmt: skip
UMA = (9, 3, -3, -9)  # 001 §13.4
# The evening's scores by wind E, S, W, N: all different, each table summing to 120,000.
TABLE_SCORES = ((52300, 31700, 21000, 15000), (41000, 33000, 26000, 20000))


def points(scores):
    """001 §13: each seat's rating points, no ties."""
    order = sorted(range(4), key=lambda i: -scores[i])
    return {i: round((scores[i] - 30000) / 1000 + UMA[order.index(i)], 1) for i in range(4)}


def phone_order(page) -> list[str]:
    page.goto(f"/r/{SLUG}/?season=all")
    return [
        name.strip() for name in page.locator("table.rating tbody td.wrap a bdi").all_inner_texts()
    ]


def typed(name: str) -> str:
    """The name as a tired officer types it: lower case, no accents."""
    bare = unicodedata.normalize("NFKD", name.replace("Ł", "L").replace("ł", "l"))
    return "".join(c for c in bare if not unicodedata.combining(c)).lower()


@pytest.mark.long(16)
@pytest.mark.django_db(transaction=True)
def test_a_club_evening(new_context):
    officer, second = f.user("officer", CLUB_OFFICER), f.user("second", CLUB_OFFICER)
    club = save_club(None, {"name": "Furiten", "slug": SLUG}, officer)
    f.grant(second, club)  # the creator keeps it by itself; the second officer is given it
    members = [add_member(club, Person.objects.create(name=n), officer) for n in NAMES]
    # Last week: the first four played; their rating is the order before tonight.
    before_scores = (40000, 32000, 28000, 20000)
    last_week = timezone.localdate() - datetime.timedelta(days=7)
    confirm_game(
        record_game(
            club, [(m, s, 0) for m, s in zip(members[:4], before_scores, strict=True)],
            officer, played_on=last_week,
        ),
        second,
    )  # fmt: skip
    rating = {members[i].person.name: p for i, p in points(before_scores).items()}
    games_of = dict.fromkeys(rating, 1)

    phone = new_context(viewport=e2e.PHONE).new_page()
    assert phone_order(phone) == list(NAMES[:4])  # +19.0, +5.0, −5.0, −19.0

    # 1. The officer checks the nine in by typing each name without its accents and Enter.
    desk = e2e.log_in(new_context(viewport={"width": 1366, "height": 900}), "officer")
    desk.goto(f"/desk/club/{SLUG}/evening/")
    for count, name in enumerate(NAMES, 1):
        desk.fill("#checkin-search", typed(name))
        desk.press("#checkin-search", "Enter")
        expect(desk.locator("#checked")).to_have_text(str(count))
    expect(desk.locator("#checkin-counts")).to_have_text("9 of 9 members present")

    # 2. Two tables are drawn from the nine: eight seated, one sits out.
    desk.locator("#draw").click()
    expect(desk.locator("#evening-games tbody tr")).to_have_count(2)
    expect(desk.locator("#evening-games")).to_contain_text("waiting")
    games = list(Game.objects.filter(club=club, evening__isnull=False).order_by("number"))
    assert [g.number for g in games] == [1, 2]

    # 3. Each table's scores by the first officer; the second officer confirms on their phone.
    checker = e2e.log_in(new_context(viewport=e2e.PHONE), "second")
    for game, scores in zip(games, TABLE_SCORES, strict=True):
        desk.goto(f"/desk/club/{SLUG}/games/{game.pk}/")
        names = [desk.locator(f"#id_member_{w} option:checked").inner_text() for w in "ESWN"]
        for wind, score in zip("ESWN", scores, strict=True):
            desk.fill(f"#id_score_{wind}", str(score))
        desk.locator("#save").click()
        expect(desk.locator("body")).to_contain_text("draft")
        checker.goto(f"/desk/club/{SLUG}/games/{game.pk}/")
        checker.locator("#confirm").click()
        expect(checker.locator("body")).to_contain_text("confirmed")
        for i, p in points(scores).items():
            rating[names[i]] = round(rating.get(names[i], 0) + p, 1)
            games_of[names[i]] = games_of.get(names[i], 0) + 1

    # 4. The phone's rating table shows the new order: by rating, then more games, then name.
    expected = sorted(rating, key=lambda n: (-rating[n], -games_of[n], n))
    assert phone_order(phone) == expected
    assert phone_order(phone) != list(NAMES[:4])
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= e2e.PHONE["width"]
    phone.screenshot(path=str(e2e.SCREENSHOTS / "club-evening-rating-390.png"), full_page=True)
