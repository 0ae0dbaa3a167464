"""Issue 36 on the Sichuan table page in headless Chromium, phones at 360 and 390 px: the fan
checklist of a waiting hand at an exhausted wall offers only what 002 §2.7.4 (4) counts, in
appendix 1's order and names, and the hand it gives is paid as the desk pays it."""

import pytest

from mahjong.hands import play
from scoring.models import Hand
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

# Appendix 1 of seed 002, the fans a hu may count, in its order.
HU_FANS = [
    "kong, each (1)",
    "four of a kind, each (1)",
    "all pungs (1)",
    "golden wait (1)",
    "pure suit (2)",
    "seven pairs (2)",
    "win on replacement (1)",
    "discard after kong (1)",
    "robbing the kong (1)",
    "sea bottom (1)",
]
# 002 §2.7.4 (4): a waiting hand is valued "игнорируя варианты «Выигрыш на замене», «Наброс
# после конга», «Ограбление конга» и «Морское дно»".
WAITING_FANS = HU_FANS[:6]


def phone(new_context, live_server, path, width):
    context = new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(path)
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    page.locator("#device select").select_option("E")
    return page


def chip(page, legend, wind):
    fieldset = page.locator("#entry fieldset", has=page.locator("legend", has_text=legend))
    fieldset.locator("button.chip").nth("ESWN".index(wind)).click()


def checklist(details):
    details.locator("summary").click()
    return [text.strip() for text in details.locator("label.fan").all_inner_texts()]


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_the_waiting_checklist_offers_only_what_the_wall_end_counts(
    new_context, live_server, width
):
    """002 §2.7.4 (4): a player not waiting pays each waiting player the base points of the
    most valuable hand waited for, ignoring win on replacement, discard after kong, robbing the
    kong and sea bottom. The hu's checklist offers all ten fans of appendix 1; the waiting
    hand's offers the first six. A waiting hand of pure suit (2) with a four of a kind (1) is 3
    fans (§2.7.4, example 15): the player not waiting pays 2^3 = 8 (§2.7.3 (2))."""
    t = f.tournament(ruleset="sbr-2025", players=4, slug=f"wait-{width}", name="Waiting")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width)
    entry = page.locator("#entry")
    entry.locator(".kinds button", has_text="Hu").first.click()
    chip(page, "Winners", "S")
    assert checklist(entry.locator("details.fans")) == HU_FANS
    chip(page, "From", "E")
    entry.locator(".fansbox").fill("1")
    page.get_by_role("button", name="Add to the hand").click()
    entry.get_by_label("The wall ran out").check()
    entry.locator(".value select").nth(0).select_option("waiting")  # E
    details = entry.locator("details.fans.waiting")
    expect(details).to_have_count(1)
    assert checklist(details) == WAITING_FANS
    expect(details.locator(".note")).to_contain_text("§2.7.4 (4)")
    details.get_by_label("pure suit").fill("1")
    details.get_by_label("four of a kind, each").fill("1")
    expect(entry.locator(".value .fansbox")).to_have_value("3")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_role("button", name="Save the hand").click()
    expect(entry).to_contain_text("Hand 2")
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    data = {
        "events": [{"hu": [{"seat": "S", "fans": 1}], "from": "E"}],
        "exhausted": {"E": {"waiting": 3}, "W": "not_waiting", "N": "not_waiting"},
    }
    assert Hand.objects.get().data == data
    # A full-page screenshot before the tap on "Save" left that tap lost: it is taken after.
    shot = e2e.SCREENSHOTS / f"sheet-sichuan-waiting-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    # E pays S 2 for the hu; W and N each pay E 8.
    assert play(t.rule_set(), [data]).scores == {"E": -2 + 16, "S": 2, "W": -8, "N": -8}


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_the_form_records_a_dead_hand_a_false_hu_after_a_kong_and_a_pig_on_a_win(
    new_context, live_server, width
):
    """Issue 36 on the table page, each event as the formats README writes it:
    1. W's concealed kong: 2 from E, S and N (002 §2.7.2 (2)).
    2. S's false hu, waiting, on W's discard right after that kong: 8 to each of E, W and N
       (§2.8.4 (2)), and W's kong goes back (§2.8.4 (3)).
    3. N's open kong on E's discard: 2 from E (§2.7.2 (1)).
    4. N's hand is declared dead: N returns those 2 (§2.8.3).
    5. E wins 1 fan on W's discard (2, §2.7.3 (4)) with a tile of the forbidden suit: a pig,
       48 points, 16 to each of S, W and N (§2.5.8 (3), §2.8.4 (1)).
    The wall runs out: S waits for a pure suit (2 fans); W and dead N (not waiting, and the
    page does not offer waiting for a dead hand) each pay S 4 (§2.7.4 (4)).
    E −38, S 0, W +18, N +20."""
    t = f.tournament(ruleset="sbr-2025", players=4, slug=f"dead-{width}", name="Dead hand")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width)
    entry = page.locator("#entry")
    add = page.get_by_role("button", name="Add to the hand")
    entry.locator(".kinds button", has_text="Kong").click()
    entry.locator("select").first.select_option("concealed")
    chip(page, "By", "W")
    add.click()
    entry.locator(".kinds button", has_text="False hu").click()
    chip(page, "By", "S")
    chip(page, "robbing a kong: whose", "W")
    entry.get_by_label("discard after a kong").check()
    add.click()
    entry.locator(".kinds button", has_text="Kong").click()
    entry.locator("select").first.select_option("open")
    chip(page, "By", "N")
    chip(page, "From", "E")
    add.click()
    entry.locator(".kinds button", has_text="Dead hand").click()
    chip(page, "By", "N")
    add.click()
    entry.locator(".kinds button", has_text="Hu").first.click()
    chip(page, "Winners", "E")
    chip(page, "From", "W")
    entry.locator(".fansbox").fill("1")
    entry.get_by_label("pig (a tile of the forbidden suit)").check()
    add.click()
    expect(entry.locator("ol.events li")).to_have_count(5)
    expect(entry.locator("ol.events li").nth(3)).to_contain_text("Dead hand N")
    expect(entry.locator("ol.events li").nth(4)).to_contain_text("pig")
    entry.get_by_label("The wall ran out").check()
    states = entry.locator(".value select")
    expect(states).to_have_count(3)  # S, W, N
    n_options = states.nth(2).locator("option").all_inner_texts()
    assert n_options == ["not waiting", "pig", "passive pig"]
    states.nth(0).select_option("waiting")
    entry.locator(".value .fansbox").fill("2")
    data = {
        "events": [
            {"kong": "concealed", "seat": "W"},
            {"false_hu": "S", "from": "W", "after_kong": True, "waiting": True},
            {"kong": "open", "seat": "N", "from": "E"},
            {"dead": "N"},
            {"hu": [{"seat": "E", "fans": 1, "pig": True}], "from": "W"},
        ],
        "exhausted": {"S": {"waiting": 2}, "W": "not_waiting", "N": "not_waiting"},
    }
    points = play(t.rule_set(), [data]).scores
    assert points == {"E": -38, "S": 0, "W": 18, "N": 20}
    preview = page.locator("#preview")
    for wind in "ESWN":
        value = points[wind]
        text = f"+{value}" if value > 0 else (f"\u2212{-value}" if value < 0 else "0")
        expect(preview.locator("tr", has_text=f"{wind} Player")).to_contain_text(text)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_role("button", name="Save the hand").click()
    expect(entry).to_contain_text("Hand 2")
    expect(page.locator("#status")).to_contain_text("Everything is at the desk")
    assert Hand.objects.get().data == data
    shot = e2e.SCREENSHOTS / f"sheet-sichuan-dead-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
