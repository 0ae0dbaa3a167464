"""Issue 23 in a real browser: the check-in search finds names as the desk user types them,
without accents or with a phone's curly apostrophe, and one click checks the player in."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.django_db(transaction=True)
def test_checkin_search_as_the_desk_user_types(new_context):
    f.staff()
    t = f.tournament(players=8, slug="warsaw-open", language="pl")
    for key, name in {"p01": "Łukasz Nowak", "p02": "Seán O'Brien", "p03": "Hans Müller"}.items():
        t.players.filter(key=key).update(name=name)
    desk = e2e.log_in(new_context(), "desk1")
    desk.goto("/desk/warsaw-open/checkin/")
    rows = desk.locator("#checkin-table tbody tr:visible")
    expect(rows).to_have_count(8)
    expect(rows.first).to_contain_text("Hans Müller")  # H, L, Ł, P..., S

    desk.locator("#checkin-search").press_sequentially("lukasz")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Łukasz Nowak")
    rows.first.get_by_role("button").click()
    expect(desk.locator("#checked")).to_have_text("1")

    desk.locator("#checkin-search").fill("")
    desk.locator("#checkin-search").press_sequentially("o’brien")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Seán O'Brien")
    desk.locator("#checkin-search").press("Enter")  # checks in the one found; stays on the page
    expect(rows).to_have_count(1)
    expect(desk.locator("#checked")).to_have_text("2")
    assert "q=o%E2%80%99brien" in desk.url  # a reload keeps the search

    desk.reload()
    expect(rows).to_have_count(1)
    desk.locator("#checkin-search").fill("")
    desk.locator("#checkin-search").press_sequentially("mu")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Hans Müller")
    desk.locator("#checkin-search").fill("")
    desk.locator("#checkin-search").dispatch_event("input")
    expect(rows).to_have_count(8)
