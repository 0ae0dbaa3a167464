"""Issue 37 point 2, in headless Chromium at 360 and 390 px (the desk's clock board at 1366):
with winds drawn at the table (002 §2.4.6, 000 §2.3), no page shows a wind or the dealer before
the table has recorded its draw — the table page's seat cards and its "This device is" list, the
desk's clock board, the hall's clock — and as soon as the draw is recorded each of them shows the
drawn winds: the table page without a reload, whether the phone or the desk recorded the draw."""

import re

import pytest

from seating.keys import table_path
from seating.models import Table
from seating.services import add_table, record_table_winds
from tests.support import e2e_support as e2e
from tests.support import factories as f
from tournament.models import Player, Session, Tournament
from tournament.sessions import start_clock

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

# The desk seats them E, S, W, N in this order; the table draws them otherwise (GAMES).
NAMES = ["Anna Nowak", "Bartosz Żak", "Dmytro Koval", "Eva Novák"]
# game: (rule set, the table's players as the desk seats them, who drew which wind); Sichuan at
# a three-player table (002 §3.1)
GAMES = {
    "riichi": (
        "ema-2012",
        NAMES,
        {"E": "Dmytro Koval", "S": "Eva Novák", "W": "Anna Nowak", "N": "Bartosz Żak"},
    ),
    "sichuan": (
        "sbr-2025",
        NAMES[:3],
        {"E": "Dmytro Koval", "S": "Anna Nowak", "W": "Bartosz Żak"},
    ),
}
LAPTOP = {"width": 1366, "height": 768}
WIND_NAMES = ("East", "South", "West", "North")
# the seat cards' and the device list's wind letters, as words of their own
WIND_LETTER = re.compile(r"(^|\s)[ESWN](\s|$)")


def tournament(staff, slug, ruleset, names):
    t = Tournament.objects.create(
        name="Krakow Cup", slug=slug, ruleset=ruleset, winds=Tournament.Winds.TABLE
    )
    f.grant(staff["desk1"], t)
    players = [
        Player.objects.create(tournament=t, key=f"p{n:02d}", name=name)
        for n, name in enumerate(names, start=1)
    ]
    session = Session.objects.create(tournament=t, number=1)
    add_table(session, players)
    start_clock(session, staff["desk1"])
    return t, Table.objects.get(session=session)


def fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    out = page.evaluate(
        """(width) => [...document.body.querySelectorAll('*')]
          .filter(el => el.getBoundingClientRect().right > width + 0.5)
          .map(el => el.tagName + '.' + el.className + ' ' + el.getBoundingClientRect().right)""",
        width,
    )
    assert not out


def no_wind_on_the_table_page(page, names):
    cards = page.locator("#scores .seat")
    expect(cards).to_have_count(len(names))
    assert page.locator("#scores .seat b").count() == 0
    assert page.locator("#scores .seat.dealer").count() == 0
    scores = page.locator("#scores").inner_text()
    assert "dealer" not in scores and not WIND_LETTER.search(scores), scores
    # the players by name, in alphabetical order
    assert [c.locator(".who").inner_text() for c in cards.all()] == sorted(names)
    info = page.locator("#info").inner_text()
    assert not any(w in info for w in WIND_NAMES), info
    options = page.locator("#device option").all_inner_texts()
    assert options == ["shared by the table", *sorted(names)]


def drawn_winds_on_the_table_page(page, drawn, mine):
    """The seat cards and the device list by the drawn winds, the device's choice kept."""
    cards = page.locator("#scores .seat")
    for n, wind in enumerate(drawn):
        expect(cards.nth(n)).to_contain_text(f"{wind}\n{drawn[wind]}", use_inner_text=True)
    if len(drawn) == 4:  # riichi: the dealer is East (Sichuan marks the next hand's dealer)
        expect(page.locator("#scores .seat.dealer")).to_contain_text(drawn["E"])
        expect(page.locator("#scores .seat.dealer")).to_contain_text("dealer")
    expect(page.locator("#device option")).to_have_text(
        ["shared by the table", *(f"{w} · {drawn[w]}" for w in drawn)]
    )
    expect(page.locator("#device select")).to_have_value(mine)
    # the device is that player's: it confirms only that seat's hands
    assert page.evaluate("window.Sheet.store.seatOf(window.sheetDebug.device)") == mine


@pytest.mark.long(20)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("who_draws", ["phone", "desk"])
@pytest.mark.parametrize("game", ["riichi", "sichuan"])
def test_no_wind_before_the_draw_and_the_drawn_winds_at_once(new_context, game, width, who_draws):
    ruleset, names, drawn = GAMES[game]
    staff = f.staff()
    t, table = tournament(staff, f"winds-{game}-{who_draws}-{width}", ruleset, names)
    viewport = {"width": width, "height": 800}
    phone = new_context(viewport=viewport).new_page()
    phone.goto(table_path(table))
    expect(phone.locator("#status")).to_contain_text("Everything is at the desk")
    expect(phone.locator("#entry")).to_contain_text("Who drew which wind")
    no_wind_on_the_table_page(phone, names)
    # the phone of the player who will draw South: chosen by name before the draw
    phone.locator("#device select").select_option(label=drawn["S"])
    no_wind_on_the_table_page(phone, names)
    fits(phone, width)

    desk = e2e.log_in(new_context(viewport=LAPTOP), "desk1")  # a desk page
    board = f"/desk/{t.slug}/s/1/clock/"
    desk.goto(board)
    players = desk.locator("#board tbody td").nth(1)
    expect(players).to_contain_text("winds not drawn yet")
    text = players.inner_text()
    assert not any(w in text for w in WIND_NAMES), text
    assert text.splitlines()[0] == ", ".join(sorted(names))
    fits(desk, LAPTOP["width"])
    hall = new_context(viewport=viewport).new_page()
    hall.goto(f"/t/{t.slug}/clock/")
    seating = hall.locator("[data-clock-seating]").text_content()
    assert "Anna Nowak" in seating
    fits(hall, width)
    assert not any(w in seating for w in WIND_NAMES), seating

    ids = {p.name: p.pk for p in t.players.all()}
    if who_draws == "phone":
        selects = phone.locator("#entry select")
        for n, wind in enumerate(drawn):
            selects.nth(n).select_option(label=drawn[wind])
        phone.get_by_role("button", name="Record the winds").click()
        # drawn on this phone: its page shows the winds at once, before the desk has them
        drawn_winds_on_the_table_page(phone, drawn, "S")
        expect(phone.locator("#status")).to_contain_text("Everything is at the desk")
    else:
        record_table_winds(table, {w: ids[drawn[w]] for w in drawn}, staff["desk1"])
        # the phone asks again when it comes back to the page (and every 5 s): no reload
        phone.evaluate("window.dispatchEvent(new Event('focus'))")
        expect(phone.locator("#entry h2")).to_have_text("Hand 1")
    drawn_winds_on_the_table_page(phone, drawn, "S")
    fits(phone, width)

    desk.reload()
    expect(players).to_contain_text(
        ", ".join(f"{w}: {drawn[w[0]]}" for w in WIND_NAMES[: len(drawn)])
    )
    assert "winds not drawn yet" not in players.inner_text()
    fits(desk, LAPTOP["width"])
    hall.reload()
    assert "South" in hall.locator("[data-clock-seating]").text_content()
    e2e.SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(e2e.SCREENSHOTS / f"issue37-winds-{game}-{who_draws}-{width}.png"))
