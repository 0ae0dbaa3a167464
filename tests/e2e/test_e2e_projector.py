"""Issue 23: "The projector at 1920×1080 cuts long names while half the screen is empty." A
field of 48 players, six with very long names (a double-barrelled surname, a surname with no break
in it), opened on the projector page at 1920×1080: every name of the seating list shows in
full (no name box scrolls or ends in an ellipsis), and the list uses the screen's width."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

PROJECTOR = {"width": 1920, "height": 1080}
LONG = [
    "Oleksandra Khrystyna Shevchenko-Kovalenko",
    "Maximilian Alexander von Hohenzollern-Sigmaringen",
    "Анастасія Олександрівна Костянтинівська-Гребенюк",
    "Jean-Baptiste Emmanuel de La Rochefoucauld-Liancourt",
    "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff",
    "Zbigniew Krzysztof Brzęczyszczykiewicz",
]

# Each name on the page: the room it has, the room it needs, and whether it ends in "…".
NAMES = """() => [...document.querySelectorAll('.seating-columns li')]
  .filter(li => li.offsetParent !== null)
  .map(li => {
    const who = li.querySelector('.who'), style = getComputedStyle(who);
    const box = who.getBoundingClientRect();
    return {text: who.innerText, scroll: who.scrollWidth, client: who.clientWidth,
            ellipsis: style.textOverflow === 'ellipsis' && style.overflow !== 'visible',
            left: box.left, right: li.getBoundingClientRect().right,
            bottom: li.getBoundingClientRect().bottom};
  })"""


@pytest.mark.django_db(transaction=True)
def test_the_projector_shows_every_long_name_in_full_across_the_screen(new_context):
    t = f.tournament(players=48, slug="projector-open", name="Projector Open")
    for player, name in zip(t.players.order_by("key")[::8], LONG, strict=True):
        player.name = name  # one at each of six tables, spread through the list
        player.save()
    f.seat_session(t)
    page = new_context(viewport=PROJECTOR).new_page()
    page.goto("/t/projector-open/clock/")
    expect(page.locator("[data-clock-seating]")).to_be_visible()
    shown = page.evaluate(NAMES)
    assert len(shown) >= 20, len(shown)  # of 48: the list pages through in three screens at most
    cut = [n["text"] for n in shown if n["scroll"] > n["client"] + 1 or n["ellipsis"]]
    assert not cut, cut
    assert all(n["bottom"] <= PROJECTOR["height"] for n in shown)  # inside the screen
    # the list spreads over the screen: from its left tenth to its right tenth
    assert min(n["left"] for n in shown) < PROJECTOR["width"] * 0.1
    assert max(n["right"] for n in shown) > PROJECTOR["width"] * 0.75
    page.screenshot(path=str(e2e.SCREENSHOTS / "projector-long-names.png"))
