"""In a real browser at the desk's width: the director types a player's first and last name, the
player list shows the name made of them and the Latin name, and the form shows what an empty
Latin name stands for (issue 23)."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

DESK = {"width": 1366, "height": 900}


def test_director_types_first_and_last_name_and_sees_the_latin_name(
    new_context, transactional_db, live_server
):
    staff = f.staff()
    t = f.tournament(players=0, slug="latin-cup", language="uk")
    page = e2e.log_in(new_context(viewport=DESK), staff["director"].username)
    page.goto(f"/desk/{t.slug}/players/add/")
    page.fill("#id_first_name", "Юрко")
    page.fill("#id_last_name", "Зеленюк")
    page.fill("#id_country", "Україна")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"**/desk/{t.slug}/players/")
    row = page.locator("tbody tr", has_text="Юрко Зеленюк")
    # Ukrainian national system: word-initial Ю is Yu.
    expect(row).to_contain_text("Zeleniuk, Yurko")
    page.goto(f"/desk/{t.slug}/players/add/")
    page.fill("#id_name", "Jan van den Berg")
    page.fill("#id_country", "NL")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("tbody tr", has_text="Jan van den Berg")).to_contain_text(
        "van den Berg, Jan"
    )
    e2e.SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(e2e.SCREENSHOTS / "latin-players.png"), full_page=True)
    row.get_by_role("link", name="Юрко Зеленюк").click()
    expect(page.locator("#id_latin_first_name")).to_have_attribute("placeholder", "Yurko")
    expect(page.locator("#id_latin_last_name")).to_have_attribute("placeholder", "Zeleniuk")
    page.screenshot(path=str(e2e.SCREENSHOTS / "latin-player-form.png"), full_page=True)
