"""Issue 34 on the table page in headless Chromium, at 360 and 390 px: a phone that is one
player's confirms only that seat; a confirmation tapped offline goes up with the version the
player saw, and when the desk refuses it (another device corrected the hand meanwhile) the
page shows the desk's words, sets it aside and sends the rest; a desk error (5xx) is retried
and the change arrives once."""

import json
import uuid

import pytest
from django.test import Client

from scoring.models import Hand, HandConfirmation
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

CHANGED = "Hand 1 has changed since version 1 was shown: look at version 2 and confirm it."


def phone(new_context, path, width, device):
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(path)
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    page.locator("#device select").select_option(device)
    return page


def chip(page, legend, wind):
    fieldset = page.locator("#entry fieldset", has=page.locator("legend", has_text=legend))
    fieldset.locator("button.chip").nth("ESWN".index(wind)).click()


def ron(page, winner, discarder, han):
    page.locator("#entry .kinds button", has_text="Ron").click()
    chip(page, "From", discarder)
    chip(page, "Winners", winner)
    page.locator("#entry .value select").nth(1).select_option(str(han))
    page.get_by_role("button", name="Save the hand").click()


def current():
    return [
        (h.number, h.version)
        for h in Hand.objects.filter(superseded_at__isnull=True).order_by("number")
    ]


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_a_refused_confirmation_is_set_aside_and_the_rest_goes_on(new_context, width):
    t = f.tournament(players=4, slug=f"refused-{width}", name="Refused Open")
    table = f.seat_session(t).tables.get()
    path = table_path(table)
    east = phone(new_context, path, width, "E")
    ron(east, "S", "W", 1)
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    # Issue 34 (11): East's phone confirms East's seat only
    expect(east.get_by_role("button", name="Confirm hand 1 as S")).to_be_disabled()
    expect(east.get_by_role("button", name="Confirm hand 1 as E")).to_be_enabled()

    # Offline: hand 2, then East confirms hand 1 as it shows it (version 1), then hand 3.
    east.context.set_offline(True)
    ron(east, "W", "N", 1)
    east.get_by_role("button", name="Confirm hand 1 as E").click()
    ron(east, "N", "E", 1)
    expect(east.locator("#status")).to_contain_text("No network")
    queued = json.loads(east.evaluate("JSON.stringify(window.sheetDebug.queue)"))
    # the number, the version and the device as they were at the tap
    assert [(q["kind"], q["number"], q.get("version"), q["device"]) for q in queued] == [
        ("record", 2, None, "E"),
        ("confirm", 1, 1, "E"),
        ("record", 3, None, "E"),
    ]

    # Meanwhile another device corrects hand 1 (version 2).
    fix = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 2, "fu": 30}]}
    correction = {
        "action": "correct",
        "number": 1,
        "version": 1,
        "data": fix | {"riichi": []},
        "reason": "2 han",
        "client_id": str(uuid.uuid4()),
    }
    other = Client().post(path + "act/", json.dumps(correction), content_type="application/json")
    assert other.status_code == 200

    # Back online: hand 2 goes up (its answer shows hand 1 in version 2); the confirmation
    # carries version 1, what East saw, and is refused; hand 3 goes up behind it.
    east.context.set_offline(False)
    east.evaluate("window.dispatchEvent(new Event('online'))")
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    decide = east.locator("#decide")
    expect(decide).to_contain_text(CHANGED)
    expect(decide).to_contain_text("Confirm hand 1 as E")
    assert current() == [(1, 2), (2, 1), (3, 1)]
    assert not HandConfirmation.objects.exists()
    assert east.evaluate("document.documentElement.scrollWidth") <= width
    east.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-refused-{width}.png"), full_page=True)
    if width == 360:
        from tests.support import axe

        assert not axe.violations(east)
    # what is set aside stays on the device until a player discards it
    east.reload()
    expect(east.locator("#decide")).to_contain_text(CHANGED)
    east.locator("#decide").get_by_role("button", name="Discard this change").click()
    expect(east.locator("#decide")).to_be_empty()
    assert (
        east.evaluate("JSON.parse(localStorage.getItem('sheet:' + location.pathname)).parked") == []
    )

    # East confirms version 2 now it sees it; a confirmation tapped on a hand still waiting on
    # the phone goes up with the version the desk gave that hand.
    east.evaluate("window.dispatchEvent(new Event('focus'))")
    east.get_by_role("button", name="Confirm hand 1 as E").click()
    expect(east.get_by_role("button", name="Confirm hand 1 as E")).to_be_disabled()
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    east.context.set_offline(True)
    ron(east, "E", "S", 2)
    east.get_by_role("button", name="Confirm hand 4 as E").click()
    east.context.set_offline(False)
    east.evaluate("window.dispatchEvent(new Event('online'))")
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    assert sorted(
        HandConfirmation.objects.values_list("hand__number", "hand__version", "wind", "device")
    ) == [(1, 2, "E", "E"), (4, 1, "E", "E")]
    east.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_desk_error_is_retried_and_a_refusal_is_not(new_context):
    """Only the network and the desk's own errors (5xx) are sent again; a refusal (4xx) is
    set aside at once, with the desk's words, or the status code when it has none."""
    t = f.tournament(players=4, slug="retry-open", name="Retry Open")
    table = f.seat_session(t).tables.get()
    east = phone(new_context, table_path(table), 390, "E")
    calls = []

    def flaky(route):
        calls.append(route.request.post_data)
        if len(calls) == 1:
            route.fulfill(status=500, body="<h1>Server Error</h1>", content_type="text/html")
        elif len(calls) == 3:
            route.fulfill(status=404, body="<h1>Not Found</h1>", content_type="text/html")
        else:
            route.continue_()

    east.route("**/act/", flaky)
    ron(east, "S", "W", 1)
    expect(east.locator("#status")).to_contain_text("The desk answered with an error")
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    assert len(calls) == 2 and current() == [(1, 1)]
    ron(east, "W", "N", 1)  # answered 404 with a page, not JSON: set aside, not retried
    expect(east.locator("#decide")).to_contain_text("The desk refused this change (error 404).")
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    ron(east, "N", "E", 1)
    expect(east.locator("#hands tbody")).to_have_count(2)
    expect(east.locator("#status")).to_contain_text("Everything is at the desk")
    assert len(calls) == 4 and current() == [(1, 1), (2, 1)]
    east.context.close()
