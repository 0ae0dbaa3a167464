"""Issue 39: a phone downloads what changed, not the page again.

Headless Chromium at 360 and 390 px on the public standings while a session is on, its timers
driven by Playwright's clock. Tables are confirmed through the services; on its next refresh the
phone gets only what changed (a JSON diff from the content it shows, public.cache.regions) and
its page then shows the new totals and ranks in the new order without reloading: equal, row by
row and cell by cell, to a fresh load of the page. Random confirmations, some skipped refreshes
(a diff across several confirmations), a tie and a substitute (the tail below the standings).
"""

import random

import pytest

from seating.services import add_table
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

REFRESH_MS = 15_000  # desk.js: a live region's period while a session is on
HEIGHT = {360: 740, 390: 844}

# The region as a reader sees it: its rows (key, class, each cell's class and HTML) and the rest
# (meta line, headers, teams, substitutes, highlights) with the standings' rows taken out.
SHOWN = """() => {
  const region = document.querySelector('#live');
  const rows = Array.from(region.querySelector('tbody').children).map(tr =>
    [tr.dataset.key, tr.className, Array.from(tr.cells).map(td => [td.className, td.innerHTML])]);
  const copy = region.cloneNode(true);
  copy.querySelector('tbody').textContent = '';
  return [copy.innerHTML.replace(/\\s+/g, ' '), rows];
}"""


def field(players=20):
    """20 players and a substitute: session 1 confirmed, session 2 seated, the substitute at
    the last table in place of a player."""
    people = f.staff()
    desk = people["desk1"], people["desk2"]
    t = f.tournament(players=players, slug="wire-cup")
    for table in f.seat_session(t, 1).tables.all():
        f.play(table, [40000, 35000, 25000, 20000], *desk)
    sub = t.players.create(key="sub-a", name="Sub Anna", substitute=True)
    keys = [f"p{n:02d}" for n in range(1, players + 1)]
    groups = [keys[i : i + 4] for i in range(0, players - 4, 4)]
    session = f.seat_session(t, 2, groups=groups)
    last = list(t.players.filter(key__in=keys[-4:-1]).order_by("key"))
    add_table(session, [*last, sub])
    return t, session, desk


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [360, 390])
def test_a_phone_shows_each_confirmation_as_a_fresh_load_would(new_context, width):
    t, session, desk = field()
    tables = list(session.tables.order_by("number"))
    f.play(tables[0], [40000, 35000, 25000, 20000], *desk)  # session 2's column in play
    viewport = {"width": width, "height": HEIGHT[width]}
    context = new_context(viewport=viewport, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.clock.install()
    phone.goto(f"/t/{t.slug}/")
    expect(phone.locator("#live tr[data-key]")).to_have_count(20)
    phone.evaluate("document.querySelectorAll('#live tr[data-key]').forEach(r => (r.kept = true))")
    fresh = context.new_page()

    def fresh_load():
        fresh.goto(f"/t/{t.slug}/")
        return fresh.evaluate(SHOWN)

    def refresh():
        with phone.expect_response(lambda r: "partial=1" in r.url) as answer:
            phone.clock.run_for(REFRESH_MS)
        return answer.value

    assert refresh().status == 304  # nothing new: no body
    rng = random.Random(width)
    kinds = []
    for step, table in enumerate(tables[1:], start=1):
        scores = rng.choice(
            [[52000, 28000, 22000, 18000], [30000] * 4, [10000, 20000, 30000, 60000]]
        )
        f.play(table, rng.sample(scores, 4), *desk)
        if step == 2:
            continue  # this phone was asleep: its next refresh spans two confirmations
        answer = refresh()
        assert answer.status == 200
        kinds.append(answer.headers["content-type"].split(";")[0])
        expect(phone.locator("#live")).to_have_attribute("data-tag", answer.headers["etag"])
        assert phone.evaluate(SHOWN) == fresh_load(), step
    assert "application/json" in kinds
    # Every row is still the element it was: patched in place, moved, never redrawn.
    kept = phone.evaluate(
        "Array.from(document.querySelectorAll('#live tr[data-key]')).every(r => r.kept === true)"
    )
    assert kept
    expect(phone.locator("#live")).to_contain_text("Sub Anna")
    assert refresh().status == 304
    phone.screenshot(path=str(e2e.SCREENSHOTS / f"issue39-standings-{width}.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_the_player_page_follows_its_place_and_the_top_at_phone_and_desk_widths(new_context):
    """The player page as the phone's page: its place, its table, the top 10, the whole list
    one tap away; it fits 360 and 390 px phones and a 1366 px laptop (screenshots)."""
    t, session, desk = field()
    f.play(session.tables.order_by("number").first(), [52000, 28000, 22000, 18000], *desk)
    for width, height in ((360, 740), (390, 844), (1366, 768)):
        phone = width < 1000
        context = new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        page = context.new_page()
        page.goto(f"/t/{t.slug}/p/p05/")
        expect(page.locator("#live")).to_contain_text("Top of the standings")
        expect(page.locator("#live table.top tbody tr")).to_have_count(10)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(e2e.SCREENSHOTS / f"issue39-player-{width}.png"), full_page=True)
        page.get_by_role("link", name="The whole standings").click()
        expect(page.locator("#live tr[data-key]")).to_have_count(20)
        if width == 1366:
            page.screenshot(path=str(e2e.SCREENSHOTS / "issue39-standings-1366.png"))
