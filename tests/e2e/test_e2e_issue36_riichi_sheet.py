"""Issue 36 on the table page at 360 and 390 px: a ron on a discarder who declared riichi asks
whether the riichi discard itself dealt in. 000 §3.3.12: then the riichi does not stand and its
1,000 goes back; the form will not save the hand until the question is answered."""

import pytest

from scoring.models import Hand
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect


def phone(new_context, live_server, path, width):
    context = new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(path)
    expect(page.locator("#hands")).not_to_be_empty()
    return page


def seat_chip(page, fieldset, wind):
    """The chip of `wind` in the form's `fieldset`-th group of seats (0: from, 1: winners,
    2: riichi)."""
    group = page.locator("#entry fieldset.chips").nth(fieldset)
    group.locator("button.chip").nth("ESWN".index(wind)).click()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_a_ron_on_the_riichi_discard_asks_and_leaves_the_declaration_out(
    new_context, live_server, width
):
    t = f.tournament(players=4, slug=f"dealt-{width}", name="Dealt Open")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width)
    seat_chip(page, 0, "W")  # W discarded
    seat_chip(page, 1, "S")  # S wins 1 han 30 fu
    seat_chip(page, 2, "W")  # W had declared riichi
    question = page.locator("#riichi-dealt")
    expect(question).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("was it the riichi discard itself?")
    expect(page.locator("#save")).to_be_disabled()
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-riichi-dealt-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    question.get_by_role("button", name="Yes: the riichi does not stand").click()
    expect(question).to_contain_text("West's riichi is left out: it does not stand.")
    expect(page.locator("#save")).to_be_enabled()
    # 1 han 30 fu on a discard: 1,000 from W, and no stick: W 29,000, S 31,000
    expect(page.locator("#preview")).to_contain_text("29,000")  # W: no stick put down
    page.locator("#save").click()
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    assert Hand.objects.get().data == {
        "result": "ron",
        "from": "W",
        "wins": [{"seat": "S", "han": 1, "fu": 30}],
        "riichi": [],
    }
    # Declared earlier: the stick stays on the table for the winner (S takes W's 1,000).
    seat_chip(page, 0, "W")
    seat_chip(page, 1, "S")
    seat_chip(page, 2, "W")
    expect(page.locator("#save")).to_be_disabled()
    no = page.locator("#riichi-dealt").get_by_role("button", name="No: riichi was declared earlier")
    no.click()
    page.locator("#save").click()
    expect(page.locator("#hands tbody")).to_have_count(2)
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    assert Hand.objects.order_by("number").last().data["riichi"] == ["W"]


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_furiten_offers_one_winner_a_discard_and_no_nagashi(new_context, live_server, width):
    """001 §10.4: one player wins on a discard, the first in turn after the discarder; 001
    appendix В lists no nagashi mangan. The form offers neither a second winner nor a nagashi
    (the arithmetic refuses both: issue 36)."""
    t = f.tournament("furiten-club", players=4, slug=f"one-{width}", name="One Winner")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width)
    kinds = page.locator("#entry .kinds button")
    expect(kinds).to_have_text(["Ron", "Tsumo", "Draw", "Abortive draw", "Chombo"])
    seat_chip(page, 0, "W")
    seat_chip(page, 1, "S")
    seat_chip(page, 1, "N")  # a second tap chooses N instead of adding N
    winners = page.locator("#entry fieldset.chips").nth(1)
    expect(winners.locator("legend")).to_have_text("Winner")
    expect(winners.locator("button.chip.on")).to_have_count(1)
    expect(winners.locator("button.chip.on")).to_contain_text("N")
    expect(page.locator("#save")).to_be_enabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
