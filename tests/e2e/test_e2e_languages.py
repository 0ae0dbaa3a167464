"""Issue 8 in a real browser: a phone picks its language from the menu and keeps it; a browser
set to Polish gets Polish without asking; the director's printouts keep the tournament's."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.django_db(transaction=True)
def test_a_phone_switches_language_and_keeps_it(new_context):
    staff = f.staff()
    t = f.tournament(players=8, slug="lviv-open", name="Lviv Open")
    session = f.seat_session(t)
    f.play(
        session.tables.get(number=1), [40000, 30000, 18000, 32000], staff["desk1"], staff["desk2"]
    )

    phone = new_context(viewport=e2e.PHONE).new_page()
    phone.goto("/t/lviv-open/")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.get_by_role("heading", name="Lviv Open")).to_be_visible()
    expect(phone.locator("thead")).to_contain_text("Player")
    with phone.expect_navigation():
        phone.select_option("select[name=language]", "uk")
    expect(phone.locator("html")).to_have_attribute("lang", "uk")
    expect(phone.locator("thead")).to_contain_text("Гравець")
    assert phone.url.endswith("/t/lviv-open/")  # back on the same page

    # Another page, later: still Ukrainian; the menu shows the choice.
    phone.goto("/t/lviv-open/find/?q=Player 01")
    expect(phone.get_by_role("heading", name="Знайти мій стіл")).to_be_visible()
    expect(phone.locator("select[name=language]")).to_have_value("uk")
    expect(phone.locator("tbody")).to_contain_text("Схід")
    phone.screenshot(path=str(e2e.SCREENSHOTS / "languages-phone-uk.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_a_polish_browser_gets_polish_pages(browser, live_server):
    t = f.tournament(players=4, slug="krakow-open", name="Kraków Open")
    f.seat_session(t)
    context = browser.new_context(base_url=live_server.url, locale="pl-PL")
    try:
        page = context.new_page()
        page.goto("/t/krakow-open/")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        expect(page.get_by_role("link", name="Klasyfikacja")).to_be_visible()
        expect(page.locator("select[name=language]")).to_have_value("pl")
    finally:
        context.close()
