"""End to end in headless Chromium: the desk starts a ten-second SBR session and the projector
page, on a device whose own clock is ten minutes wrong, shows the server's second, gives the
warning and the time-up state and rings the bells (seen through the page's test hook,
window.deskClock.rings, not by listening). The table board highlights the table still playing.

002 §2.4.4: "Когда до конца сессии остаётся 15 минут, главный судья оповещает об этом всех
игроков. Каждая сессия играется с доигрыванием ... гонг, обозначающий конец сессии".
"""

import pytest

from tests.support import e2e_support as e2e
from tests.support import factories as f
from tournament import timekeeping

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

PROJECTOR = {"width": 1920, "height": 1080}
# The projector's laptop runs ten minutes fast: every figure must still be the server's.
WRONG_CLOCK = "(() => { const now = Date.now; Date.now = () => now() + 600000; })();"


def rings(page):
    return page.evaluate("window.deskClock.rings.map(r => r.kind)")


@pytest.mark.long(21)
@pytest.mark.django_db(transaction=True)
def test_a_short_session_warns_rings_and_ends_on_every_screen(new_context):
    staff = f.staff()
    t = f.tournament("sbr-2025", players=8, slug="clock-open", name="Clock Open")
    session = f.seat_session(t)
    f.play(session.tables.get(number=1), [30, 10, -10, -30], staff["desk1"], None)
    session.length_seconds, session.warning_seconds = 10, 5
    session.save()

    projector_context = new_context(viewport=PROJECTOR)
    projector_context.add_init_script(WRONG_CLOCK)
    projector = projector_context.new_page()
    projector.goto("/t/clock-open/clock/")
    expect(projector.locator(".projector-state")).to_have_text("waiting to start")
    expect(projector.locator("[data-clock-time]")).to_have_text("0:10")
    expect(projector.locator("[data-clock-seating]")).to_be_visible()  # find your table
    expect(projector.locator("[data-clock-seating]")).to_contain_text("Player 05")
    # headless Chromium starts with sound blocked until a click: the page says so
    expect(projector.locator("[data-audio-note]")).to_be_visible()
    projector.locator("[data-clock-time]").click()
    expect(projector.locator("[data-audio-note]")).to_be_hidden()
    projector.get_by_role("button", name="Test bell").click()
    assert projector.evaluate("window.deskClock.rings") == [
        {**projector.evaluate("window.deskClock.rings[0]"), "kind": "warning", "test": True}
    ]
    expect(projector.locator("#flash")).to_have_class("on warning")

    phone = new_context(viewport=e2e.PHONE).new_page()
    phone.goto("/t/clock-open/")

    desk = e2e.log_in(new_context(), "desk1")
    desk.goto("/desk/clock-open/s/1/clock/")
    desk.get_by_role("button", name="Start the clock").click()
    expect(desk.locator(".messages")).to_contain_text("The clock is running.")

    expect(projector.locator(".projector-state")).to_have_text("playing", timeout=5000)
    # the same second as the server, though this device's clock is ten minutes off
    shown = projector.evaluate("window.deskClock.remaining")
    assert abs(shown - timekeeping.state(session).remaining) < 1.0
    assert abs(projector.evaluate("window.deskClock.offset") + 600000) < 2000

    expect(projector.locator(".projector-state")).to_have_text("warning given", timeout=8000)
    expect(projector.locator("[data-clock-text]")).to_have_text(
        "The end is near: at the end signal the hand in progress is played out."
    )
    projector.screenshot(path=str(e2e.SCREENSHOTS / "projector-warning.png"))
    expect(phone.locator(".mini-clock")).to_be_visible()
    expect(phone.locator(".mini-clock")).to_contain_text("Session 1")

    expect(projector.locator(".projector-state")).to_have_text("time up", timeout=8000)
    expect(projector.locator("[data-clock-text]")).to_have_text(
        "Time is up: play out the hand in progress and record it."
    )
    assert rings(projector) == ["warning", "start", "warning", "time_up"]
    assert all(r["audible"] for r in projector.evaluate("window.deskClock.rings"))
    expect(projector.locator("#flash")).to_have_class("on time_up")
    expect(projector.locator("body")).to_have_attribute("data-state", "time_up")
    projector.screenshot(path=str(e2e.SCREENSHOTS / "projector-time-up.png"))

    # a reload shows the same state and rings nothing again
    projector.reload()
    expect(projector.locator(".projector-state")).to_have_text("time up")
    projector.wait_for_timeout(1000)
    assert rings(projector) == []

    # the desk's board: table 1 finished, table 2 still playing after time up
    desk.reload()
    expect(desk.locator("tr[data-state=finished]")).to_contain_text("Player 01")
    expect(desk.locator("tr.overtime")).to_contain_text("Player 05")
    expect(desk.locator("#board-counts")).to_contain_text("1 table still playing after time up")
    desk.screenshot(path=str(e2e.SCREENSHOTS / "clock-desk-board.png"), full_page=True)
