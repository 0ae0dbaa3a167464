"""A club rating's public pages on a phone (issue 25): headless Chromium opens the rating table,
a person's page and the games at 360 and 390 px, with the long names a real club has, and checks
that nothing goes sideways (the same measure as test_e2e_phones: the page no wider than the
window, no table in a box that scrolls, no name cut)."""

import datetime
import itertools
import os
from pathlib import Path

import pytest

from club.services import add_member, confirm_game, record_game, save_club, save_season
from core.roles import CLUB_OFFICER
from people.models import Person
from tests.e2e import test_e2e_phones as phones
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

WIDTHS = (360, 390)
HEIGHT = {360: 740, 390: 844}


def build():
    """Ten members with long names, a season, eleven games: some below the minimum of three."""
    officer, second = f.user("officer", CLUB_OFFICER), f.user("second", CLUB_OFFICER)
    club = save_club(
        None,
        {"name": "Stowarzyszenie Miłośników Riichi «Furiten» Kraków", "slug": "furiten",
         "min_games": 3},
        officer,
    )  # fmt: skip
    members = [
        add_member(club, Person.objects.create(name=name, country="PL"), officer)
        for name in phones.NAMES[:10]
    ]
    start = datetime.date(2024, 3, 1)
    save_season(club, None, "Wiosna / Spring 2024", start, datetime.date(2024, 5, 31), officer)
    scores = [(48300, 31200, 24100, 16400), (35000, 35000, 30000, 20000)]
    for n in range(11):
        four = [members[(n + k * 3) % 8] for k in range(4)]
        seats = [(m, s, 1 if n == 4 and k == 3 else 0) for k, (m, s) in enumerate(
            zip(four, scores[n % 2], strict=True))]  # fmt: skip
        day = start + datetime.timedelta(days=7 * (n // 2))
        confirm_game(record_game(club, seats, officer, played_on=day), second)
    # Two who played once each: listed apart.
    confirm_game(
        record_game(
            club,
            [(members[8], 40000, 0), (members[9], 30000, 0), (members[0], 28000, 0),
             (members[1], 22000, 0)],
            officer,
            played_on=start + datetime.timedelta(days=40),
        ),
        second,
    )  # fmt: skip
    return members[0].person_id


@pytest.mark.django_db(transaction=True)
def test_the_club_pages_fit_a_phone(new_context):
    person = build()
    shots = os.environ.get("PHONE_SHOTS")  # a folder: keep screenshots to look at
    paths = [
        ("/r/furiten/?season=all", phones.ALL),
        ("/r/furiten/", phones.EN),
        (f"/r/furiten/p/{person}/", phones.ALL),
        ("/r/furiten/games/", phones.EN),
    ]
    failures = []
    for width in WIDTHS:
        context = new_context(viewport={"width": width, "height": HEIGHT[width]})
        page = context.new_page()
        for (path, languages), language in itertools.product(paths, phones.ALL):
            if language not in languages:
                continue
            page.goto(f"/language/?language={language}&next=/")
            response = page.goto(path)
            assert response.ok, (path, response.status)
            if "?season=all" in path:
                expect(page.locator("table.rating").first).to_contain_text(phones.NAMES[0])
                # the left-out columns are said under the name
                expect(page.locator("td.wrap .why.phone").first).to_be_visible()
            failures += phones.problems(page, f"{path} @{width} {language}", None, width)
            if shots and language == "en":
                name = path.strip("/").replace("/", "-").replace("?", "-").replace("=", "-")
                page.screenshot(path=str(Path(shots) / f"{name}-{width}.png"), full_page=True)
    assert not failures, "\n" + "\n".join(failures)
