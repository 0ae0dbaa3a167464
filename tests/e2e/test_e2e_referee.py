"""End to end in headless Chromium: a referee on a phone-sized page records a late arrival and
the public standings change accordingly (000 §5.6: the penalty can change the places)."""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.django_db(transaction=True)
def test_referee_records_late_arrival_from_a_phone(new_context):
    staff = f.staff()
    t = f.tournament(players=4, slug="late-open", name="Late Open")
    session = f.seat_session(t)
    f.play(session.tables.get(), [40000, 30000, 18000, 32000], staff["desk1"], staff["desk2"])

    public = new_context(viewport=e2e.PHONE).new_page()
    public.goto("/t/late-open/")
    standings = public.locator("table").first
    expect(standings.locator("tbody tr").nth(1)).to_contain_text("Player 04")

    referee = e2e.log_in(new_context(viewport=e2e.PHONE), "ref")
    referee.goto("/desk/")
    referee.get_by_role("link", name="Late Open").click()
    expect(referee.locator("h1")).to_have_text("Referee")
    referee.get_by_role("link", name="1", exact=True).click()
    expect(referee.locator("h1")).to_contain_text("Table 1")
    card = referee.locator(".seat-card", has_text="Player 04")
    card.get_by_label("Late, minutes").fill("4")
    card.get_by_role("button", name="Late arrival").click()
    question = "Confirm: late arrival · 4 min · -4,000 points (before placement) for Player 04?"
    expect(referee.locator("#confirm")).to_have_text(question)
    referee.locator("#confirm").click()
    expect(referee.locator(".messages")).to_contain_text("Saved: late arrival for Player 04")
    expect(referee.locator(".messages")).to_contain_text("before placement")
    expect(referee.locator(".seat-card", has_text="Player 04")).to_contain_text("4 min")
    referee.screenshot(path=str(e2e.SCREENSHOTS / "referee-late.png"), full_page=True)

    public.reload()
    # 32,000 − 4,000 = 28,000 < 30,000: Player 02 is second now, Player 04 third
    expect(standings.locator("tbody tr").nth(1)).to_contain_text("Player 02")
    expect(standings.locator("tbody tr").nth(2)).to_contain_text("Player 04")
    expect(standings.locator("tbody tr").nth(2)).to_contain_text("-12,000")
    public.screenshot(path=str(e2e.SCREENSHOTS / "standings-after-late.png"), full_page=True)
