"""Issue 37 point 7 on the table page at 360 and 390 px: "Everything is at the desk" stood alone
while hands still waited for the players' confirmation. 002 §2.5.8 (4): a hand's result is
final once the scorer has written it and every player has confirmed it; the status line says
how many hands still wait for that, and stands alone only when nothing waits."""

import pytest

from scoring.models import Hand
from scoring.services import confirm_hand, record_hand
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f
from tests.support.hands import SICHUAN_HANDS

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

ALL_AT_THE_DESK = "Everything is at the desk."


def waiting(n):
    return f"Everything is at the desk. Hands waiting for the players' confirmation: {n}."


def phone(new_context, path, width):
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(path)
    expect(page.locator("#hands")).not_to_be_empty()
    return page


def confirm_every_seat(page, number, winds="ESWN"):
    """A device the table shares: each player taps their own seat's chip."""
    for wind in winds:
        button = page.get_by_role("button", name=f"Confirm hand {number} as {wind}")
        button.click()
        expect(button).to_be_disabled()


def chip(page, legend, wind):
    fieldset = page.locator("#entry fieldset", has=page.locator("legend", has_text=legend))
    fieldset.locator("button.chip").nth("ESWN".index(wind)).click()


def status_fits(page, width):
    box = page.locator("#status").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_riichi_a_sent_hand_waits_for_the_players_and_the_line_says_so(new_context, width):
    t = f.tournament(players=4, slug=f"status-{width}", name="Status Open")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, table_path(table), width)
    expect(page.locator("#status")).to_have_text(ALL_AT_THE_DESK)  # nothing recorded yet
    # S wins 1 han 30 fu on W's discard, sent from this phone
    chip(page, "From", "W")
    chip(page, "Winners", "S")
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#status")).to_have_text(waiting(1))
    assert Hand.objects.get().confirmations.count() == 0
    status_fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-status-waits-{width}.png"), full_page=True)
    confirm_every_seat(page, 1, "ESW")
    expect(page.locator("#status")).to_have_text(waiting(1))  # North has not confirmed
    confirm_every_seat(page, 1, "N")
    expect(page.locator("#status")).to_have_text(ALL_AT_THE_DESK)
    assert Hand.objects.get().confirmations.count() == 4
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-status-all-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_sichuan_hands_another_device_sent_count_until_every_player_confirms(new_context, width):
    """Two hands recorded by another device (docs/rules.md §5.2's session, hands 1 and 2); the
    first confirmed by all four players, the second by none: one hand waits."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=4, slug=f"status-sbr-{width}", name="Status SBR")
    table = f.seat_session(t).tables.get()
    first = record_hand(table, SICHUAN_HANDS[0], staff["desk1"])
    for wind in "ESWN":
        confirm_hand(first, wind, staff["desk1"])
    record_hand(table, SICHUAN_HANDS[1], staff["desk1"])
    page = phone(new_context, table_path(table), width)
    expect(page.locator("#status")).to_have_text(waiting(1))
    status_fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-status-sbr-{width}.png"), full_page=True)
    confirm_every_seat(page, 2)
    expect(page.locator("#status")).to_have_text(ALL_AT_THE_DESK)
