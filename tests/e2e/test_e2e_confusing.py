"""Issue 23, "confusing on the day", in headless Chromium: a referee on a 390 px phone taps a
penalty, confirms it, sees "Saved" where they are and undoes it, the void amount struck through;
the desk checks players in with the keyboard alone."""

import pytest

from scoring.models import Penalty
from tests.support import e2e_support as e2e
from tests.support import factories as f
from tournament.models import Player

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


def in_view(page, locator) -> bool:
    """Whether the whole of `locator` is inside the window as it is scrolled now."""
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.django_db(transaction=True)
def test_a_referee_confirms_a_penalty_sees_it_saved_in_view_and_undoes_it(new_context):
    f.staff()
    t = f.tournament(players=8, slug="undo-open", name="Undo Open")
    f.seat_session(t)
    referee = e2e.log_in(new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True), "ref")
    referee.goto("/referee/undo-open/s/1/t/2/")
    # The last card of the table: the page has to scroll to reach it.
    card = referee.locator(".seat-card", has_text="Player 08")
    card.get_by_label("Late, minutes").fill("6")
    card.get_by_role("button", name="Late arrival").click()

    question = "Confirm: late arrival · 6 min · -6,000 points (before placement) for Player 08?"
    confirm = referee.get_by_role("button", name=question)
    expect(confirm).to_be_visible()
    assert not Penalty.objects.exists()  # the tap alone saves nothing
    assert in_view(referee, confirm)
    referee.screenshot(path=str(e2e.SCREENSHOTS / "referee-confirm-390.png"))
    confirm.click()

    saved = referee.locator(".seat-card", has_text="Player 08").locator(".messages")
    expect(saved).to_contain_text("Saved: late arrival for Player 08")
    assert referee.evaluate("window.scrollY") > 0  # back where the referee was, not the top
    assert in_view(referee, saved)
    undo = referee.locator(".seat-card", has_text="Player 08").get_by_role("button", name="Undo")
    assert in_view(referee, undo)
    referee.screenshot(path=str(e2e.SCREENSHOTS / "referee-saved-390.png"))
    assert Penalty.objects.get().voided_at is None

    undo.click()
    done = referee.locator(".seat-card", has_text="Player 08").locator(".messages")
    expect(done).to_contain_text("Undone: late arrival for Player 08 is void")
    assert in_view(referee, done)
    struck = referee.locator(".seat-card", has_text="Player 08").locator("del.void-worth")
    expect(struck).to_contain_text("-6,000")
    expect(struck.locator(".sr-only")).to_have_text("void:")
    expect(
        referee.locator(".seat-card", has_text="Player 08").get_by_role("button", name="Undo")
    ).to_have_count(0)
    referee.screenshot(path=str(e2e.SCREENSHOTS / "referee-undone-390.png"))
    penalty = Penalty.objects.get()
    assert penalty.is_void and penalty.void_reason == "undone by ref"


@pytest.mark.django_db(transaction=True)
def test_the_desk_checks_players_in_with_the_keyboard_alone(new_context):
    f.staff()
    t = f.tournament(players=8, slug="keys-open", name="Keys Open")
    t.players.filter(key="p03").update(name="Łukasz Nowak")
    Player.objects.create(tournament=t, key="s01", name="Zofia Zapas", substitute=True)
    desk = e2e.log_in(new_context(viewport={"width": 1366, "height": 768}), "desk1")
    desk.goto("/desk/keys-open/checkin/")
    search = desk.locator("#checkin-search")
    expect(search).to_be_focused()  # the page opens in the search

    # Tab from the search goes to the first check-in button, not to a sort link.
    desk.keyboard.press("Tab")
    first = desk.locator("#checkin-table tbody tr").first.get_by_role("button")
    expect(first).to_be_focused()
    desk.keyboard.press("Shift+Tab")
    expect(search).to_be_focused()

    # One found: Enter checks them in, and the search is ready for the next name.
    desk.keyboard.type("lukasz")
    desk.keyboard.press("Enter")
    expect(desk.locator("#checked")).to_have_text("1")
    row = desk.locator("#checkin-table tbody tr", has_text="Łukasz Nowak")
    expect(row.get_by_role("button")).to_have_text("Checked in ✓")
    expect(search).to_be_focused()
    # A second Enter does not check them out: it goes to their button, which would.
    desk.keyboard.press("Enter")
    expect(row.get_by_role("button")).to_be_focused()
    expect(desk.locator("#checked")).to_have_text("1")
    desk.keyboard.press("Shift+Tab")
    expect(search).to_be_focused()

    # Several found: Enter goes to the first of them; Enter there checks them in.
    desk.keyboard.press("Control+A")
    desk.keyboard.type("player 0")
    desk.keyboard.press("Enter")
    shown = desk.locator("#checkin-table tbody tr:visible")
    expect(shown).to_have_count(7)
    expect(shown.first.get_by_role("button")).to_be_focused()
    desk.keyboard.press("Enter")
    expect(desk.locator("#checked")).to_have_text("2")
    expect(shown.first.get_by_role("button")).to_have_text("Checked in ✓")

    # The substitute is marked in words, not colour alone.
    desk.keyboard.press("Control+A")
    desk.keyboard.type("zofia")
    sub = desk.locator("#checkin-table tbody tr:visible")
    expect(sub).to_have_count(1)
    expect(sub.locator(".badge")).to_have_text("substitute")
    desk.screenshot(path=str(e2e.SCREENSHOTS / "checkin-keyboard-1366.png"))
    assert set(t.players.filter(checked_in=True).values_list("key", flat=True)) == {"p01", "p03"}
