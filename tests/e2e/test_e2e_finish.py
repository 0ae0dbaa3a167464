"""End to end in headless Chromium: the director finishes the tournament from the dashboard on a
laptop, and a phone in the hall sees "Final standings" (issue 23)."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

LAPTOP = {"width": 1366, "height": 768}


@pytest.mark.django_db(transaction=True)
def test_director_finishes_and_a_phone_sees_final_standings(new_context):
    staff = f.staff()
    t = f.tournament(players=8, slug="final-open", name="Final Open")
    session = f.seat_session(t)
    tables = list(session.tables.order_by("number"))
    f.play(tables[0], [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    draft = f.play(tables[1], [30000, 30000, 30000, 30000], staff["desk1"], None)

    phone = new_context(viewport=e2e.PHONE).new_page()
    phone.goto("/t/final-open/")
    expect(phone.locator("header.top nav")).to_contain_text("Standings")
    expect(phone.locator("#final")).to_have_count(0)

    director = e2e.log_in(new_context(viewport=LAPTOP), "dir")
    director.goto("/desk/final-open/")
    director.get_by_role("link", name="Finish the tournament").click()
    expect(director.locator("h1")).to_have_text("Finish the tournament")
    # Table 2's result waits for its confirmation: listed, and no button to finish.
    expect(director.locator("#unconfirmed")).to_contain_text("Session 1, table 2")
    expect(director.locator("#finish")).to_have_count(0)

    from scoring.services import confirm_result

    confirm_result(draft, staff["desk2"])
    director.reload()
    expect(director.locator("#unconfirmed")).to_have_count(0)
    expect(director.locator("#not-ended")).to_contain_text("Session 1")
    director.screenshot(path=str(e2e.SCREENSHOTS / "finish-confirm.png"), full_page=True)
    director.locator("#finish").click()
    director.wait_for_url("**/desk/final-open/")
    expect(director.locator(".messages")).to_contain_text("the standings are final")
    expect(director.locator("#finished")).to_contain_text("Finished by dir")
    director.screenshot(path=str(e2e.SCREENSHOTS / "finish-dashboard.png"), full_page=True)

    phone.reload()
    expect(phone).to_have_title("Final Open — Final standings")
    expect(phone.locator("#final")).to_have_text("Final standings")
    expect(phone.locator("#final")).to_be_visible()
    expect(phone.locator("header.top nav")).to_contain_text("Final standings")
    expect(phone.locator("#live")).to_have_attribute("data-live", "0")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= e2e.PHONE["width"]
    phone.screenshot(path=str(e2e.SCREENSHOTS / "final-standings-phone.png"), full_page=True)
    phone.goto("/t/final-open/p/p01/")
    expect(phone.locator("header.top nav")).to_contain_text("Final standings")
