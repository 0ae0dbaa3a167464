"""In a real browser at the desk's width (issue 37 point 4): the director imports a Russian list
whose name column writes the family name first; the preview shows the desk's split (the last
word as the last name, "Aleksei, Shcherbakov"), the director chooses "Family name first" and
"Split again", the preview shows "Shcherbakov, Aleksei", and the import keeps that split. A
player from Russia in a Ukrainian-language tournament gets the Russian spelling."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

DESK = {"width": 1366, "height": 900}


def test_director_corrects_the_split_in_the_preview_before_importing(
    new_context, transactional_db, live_server, tmp_path
):
    staff = f.staff()
    t = f.tournament(players=0, slug="kubok-kharkova", language="uk")
    listing = tmp_path / "players.csv"
    listing.write_text("ФИО,Страна\nЩербаков Алексей,RU\nСмирнов Виктор,RU\n", encoding="utf-8")
    page = e2e.log_in(new_context(viewport=DESK), staff["director"].username)
    page.goto(f"/desk/{t.slug}/players/import/")
    # The form asks the order of a name's words, the desk's rule chosen.
    expect(page.locator("input[name=order][value=given]")).to_be_checked()
    e2e.SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(e2e.SCREENSHOTS / "s44-names-upload.png"), full_page=True)
    page.set_input_files("#id_file", str(listing))
    page.locator("main form button[type=submit]").first.click()
    # The desk's rule, said and shown: the last word is the last name.
    expect(page.locator("#name-split")).to_contain_text("first name first")
    rows = page.locator("table tbody tr")
    expect(rows.filter(has_text="Щербаков Алексей")).to_contain_text("Aleksei, Shcherbakov")
    page.screenshot(path=str(e2e.SCREENSHOTS / "s44-names-preview-given.png"), full_page=True)
    page.locator("#name-order input[value=family]").check()
    page.click("#split-again")
    expect(page.locator("#name-split")).to_contain_text("family name first")
    expect(rows.filter(has_text="Щербаков Алексей")).to_contain_text("Shcherbakov, Aleksei")
    # From Russia: the Russian passports' table, not the Ukrainian one ("Smyrnov, Vyktor").
    expect(rows.filter(has_text="Смирнов Виктор")).to_contain_text("Smirnov, Viktor")
    page.screenshot(path=str(e2e.SCREENSHOTS / "s44-names-preview-family.png"), full_page=True)
    assert t.players.count() == 0  # nothing imported before the confirmation
    page.click("#confirm-import")
    page.wait_for_url(f"**/desk/{t.slug}/players/")
    expect(page.locator("tbody tr", has_text="Щербаков Алексей")).to_contain_text(
        "Shcherbakov, Aleksei"
    )
    expect(page.locator("tbody tr", has_text="Смирнов Виктор")).to_contain_text("Smirnov, Viktor")
    page.screenshot(path=str(e2e.SCREENSHOTS / "s44-names-players.png"), full_page=True)
    p = t.players.get(name="Щербаков Алексей")
    assert (p.first_name, p.last_name) == ("Алексей", "Щербаков")
