"""Issue 26: a phone's live standings refresh only what changed.

Headless Chromium at 390 px on the public standings while a session is on, its timers driven
by Playwright's clock. A refresh that finds nothing new is a 304 on the wire (the script asks
with the tag of the content it shows); after a confirmation the refresh brings the news (issue
39: only the rows that changed, public.cache.regions), and every
row of the table is still the element it was (patched in place, not redrawn): the phone keeps
its scroll and the row its reader was on.
"""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

REFRESH_MS = 15_000  # desk.js: a live region's period while a session is on


@pytest.mark.django_db(transaction=True)
def test_a_refresh_sends_nothing_unless_news_and_patches_only_what_changed(new_context):
    people = f.staff()
    t = f.tournament(players=8, slug="live-cup")
    session = f.seat_session(t, 1)
    first, second = session.tables.order_by("number")
    f.play(first, [40000, 30000, 30000, 20000], people["desk1"], people["desk2"])

    phone = new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True).new_page()
    phone.clock.install()
    phone.goto(f"/t/{t.slug}/")
    rows = phone.locator("#live tbody tr")
    expect(rows).to_have_count(8)
    expect(phone.locator("#live")).to_contain_text("Player 01")
    phone.evaluate("document.querySelectorAll('#live tbody tr').forEach(r => { r.kept = true; })")

    def refresh():
        with phone.expect_response(lambda r: "partial=1" in r.url) as answer:
            phone.clock.run_for(REFRESH_MS)
        return answer.value

    # Nothing new: the page names the content its region shows (data-tag, issue 39), so even the
    # first refresh asks with it, and the server's answer is a 304 with no body on the wire.
    quiet = refresh()
    held = quiet.request.all_headers().get("if-none-match")
    assert quiet.status == 304 and held and held == quiet.all_headers()["etag"]
    assert quiet.all_headers().get("content-length", "0") == "0"

    # Table 2 is confirmed: Player 05 now leads, Player 08 is last.
    f.play(second, [52000, 28000, 22000, 18000], people["desk1"], people["desk2"])
    news = refresh()
    assert int(news.all_headers()["content-length"]) > 0
    expect(rows.first).to_contain_text("Player 05")
    expect(rows.last).to_contain_text("Player 08")
    expect(rows).to_have_count(8)
    kept = phone.evaluate(
        "Array.from(document.querySelectorAll('#live tbody tr')).map(r => r.kept === true)"
    )
    assert kept == [True] * 8  # every row patched in place, none redrawn
    phone.screenshot(path=str(e2e.SCREENSHOTS / "live-region-patched.png"), full_page=True)
