"""End to end in headless Chromium: the director plans a whole tournament's seating, reads its
figures, applies it, and swaps two players with the warning shown live before the swap."""

import pytest

from seating.selectors import session_rounds
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.django_db(transaction=True)
def test_director_plans_applies_and_swaps(new_context):
    f.staff()
    t = f.tournament(players=16, planned_sessions=5, slug="plan-open", name="Plan Open")
    director = e2e.log_in(new_context(), "dir")
    director.goto("/desk/plan-open/")
    director.get_by_role("link", name="Seating plans").click()
    expect(director.locator("h1")).to_have_text("Balanced seating plan")
    expect(director.locator("#id_first")).to_have_value("1")
    expect(director.locator("#id_last")).to_have_value("5")
    director.fill("#id_seed", "11")
    director.locator("#make-plan").click()
    expect(director.locator("h1")).to_have_text("Plan of sessions 1–5")
    quality = director.locator("#quality table")
    row = quality.locator("tr", has_text="extra meetings (Σ meetings − 1)")
    expect(row.locator("td").nth(1)).to_have_text("0")
    expect(quality.locator("tr", has_text="sessions possible without any repeat")).to_contain_text(
        "5"
    )
    expect(
        quality.locator("tr", has_text="worst wind imbalance").locator("td").nth(1)
    ).to_have_text("1")
    director.screenshot(path=str(e2e.SCREENSHOTS / "plan.png"), full_page=True)
    director.locator("#apply-plan").click()
    expect(director.locator(".messages")).to_contain_text("Plan applied to sessions 1–5.")
    expect(director.locator("h1")).to_have_text("Session 1")
    rounds = session_rounds(t)
    assert len(rounds) == 5

    # Session 2: swapping two players of different tables makes one of them meet again
    # someone from session 1, and the page says so before anything changes.
    director.goto("/desk/plan-open/s/2/")
    first_table = rounds[2][0]
    stays = {first_table[0], first_table[2], first_table[3]}
    # someone who sat with one of those three in session 1 (so not at table 1 now)
    mover = sorted(k for table in rounds[1] if stays & set(table) for k in table if k not in stays)[
        0
    ]
    names = dict(t.players.values_list("key", "name"))
    director.select_option("#id_a", first_table[1])
    director.select_option("#id_b", mover)
    warnings = director.locator("#seat-warnings li")
    expect(warnings.first).to_be_visible()
    expect(director.locator("#seat-warnings")).to_contain_text("also sit together in session 1")
    expect(director.locator("#seat-warnings")).to_contain_text(names[mover])
    director.screenshot(path=str(e2e.SCREENSHOTS / "swap-warning.png"), full_page=True)
    director.locator("#seat-change").click()
    expect(director.locator(".messages")).to_contain_text("Seating changed.")
    expect(director.locator("main")).to_contain_text(f"{names[first_table[1]]} (table 1")
    assert session_rounds(t)[2][0][1] == mover
