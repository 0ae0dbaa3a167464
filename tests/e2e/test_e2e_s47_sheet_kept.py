"""Issue 39, end to end in headless Chromium at 360 and 390 px: the table page asks for its
state with the ETag it holds (If-None-Match) and takes the desk's 304 as "unchanged"; a hand
another phone records is a new tag, and the phone shows it; through a network drop the page
says so and, the network back, a 304 brings it back to "Everything is at the desk"."""

import pytest

from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


def watch(page) -> list:
    """The page's state.json answers: (status, the If-None-Match it sent)."""
    seen = []

    def answered(response):
        if response.url.endswith("state.json"):
            seen.append((response.status, response.request.headers.get("if-none-match")))

    page.on("response", answered)
    return seen


def refresh(page):
    """The page asks for its state (as on coming back to it) and its answer arrives."""
    with page.expect_response(lambda r: r.url.endswith("state.json")):
        page.evaluate("window.dispatchEvent(new Event('focus'))")


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_a_phone_refreshes_with_its_tag_and_a_304_changes_nothing(new_context, width):
    t = f.tournament(players=4, slug=f"kept-{width}", name="Kept Open")
    table = f.seat_session(t).tables.get()
    viewport = {"width": width, "height": 800}
    scorer, watcher = (new_context(viewport=viewport).new_page() for _ in range(2))
    for page, wind in ((scorer, "E"), (watcher, "S")):
        page.goto(table_path(table))
        expect(page.locator("#status")).to_contain_text("Everything is at the desk")
        page.locator("#device select").select_option(wind)
    seen = watch(watcher)

    refresh(watcher)  # nothing new since the page was built: a 304 to the tag it started with
    assert seen and seen[-1][0] == 304 and seen[-1][1]
    first_tag = seen[-1][1]

    scorer.locator("#entry .kinds button", has_text="Ron").click()
    for legend, wind in (("From", 2), ("Winners", 1)):
        chips = scorer.locator("#entry fieldset", has=scorer.locator("legend", has_text=legend))
        chips.locator("button.chip").nth(wind).click()
    scorer.locator("#entry .value select").nth(1).select_option("2")
    scorer.get_by_role("button", name="Save the hand").click()
    expect(scorer.locator("#status")).to_contain_text("Everything is at the desk")

    refresh(watcher)  # the hand is a new tag: the whole state, and the phone shows the hand
    button = watcher.get_by_role("button", name="Confirm hand 1 as S")
    expect(button).to_be_enabled()
    assert (200, first_tag) in seen
    count = len(seen)
    refresh(watcher)
    assert seen[count:] and seen[-1][0] == 304 and seen[-1][1] != first_tag
    expect(button).to_be_enabled()  # a 304 keeps the state the page has

    # the Wi-Fi drops: the refresh fails and the page says so; back, a 304 brings it back
    watcher.context.set_offline(True)
    watcher.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(watcher.locator("#status")).to_contain_text("No network")
    watcher.context.set_offline(False)
    refresh(watcher)
    expect(watcher.locator("#status")).to_contain_text("Everything is at the desk")
    assert seen[-1][0] == 304
    expect(button).to_be_enabled()
    watcher.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-kept-{width}.png"), full_page=True)
    assert watcher.evaluate("document.documentElement.scrollWidth") <= width
    for page in (scorer, watcher):
        page.context.close()
