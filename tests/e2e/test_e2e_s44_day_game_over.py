"""Issue 37 (untrue words), found by the s44 day run: when an EMA hanchan was over, the table
page's line still read "South 1 · 1 counters · The game is over." and marked East "dealer",
a round and a dealer of a hand that will never be played. 000 §5.8 (the game ends after South
4): once it is over the line says only that, with the sticks still on the table, and no seat
card is the dealer's. At 360 and 390 px."""

import pytest

from scoring.services import record_hand
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

# The run's hanchan, each hand by docs/rules.md §5.1 (start 30,000; one dealer after another):
# E1 S 3 han 30 fu on E's discard 3,900. E2 W tsumo 2 han 30 fu, 500/1,000. E3 N riichi, 2 han
# 30 fu on E's discard 2,000 and takes back the stick. E4 E mangan on W's discard 8,000.
# S1 W 4 han 30 fu on N's discard 7,700. S2 E tsumo 1 han 30 fu, 300/500. S3 S 1 han 40 fu on
# N's discard 1,300. S4 drawn, only E tenpai: 1,000 from each; N, the dealer, is noten and the
# game is over (one counter would have followed): E 35,700, S 32,700, W 30,400, N 21,200.
HANCHAN = [
    {"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 3, "fu": 30}], "riichi": []},
    {"result": "tsumo", "wins": [{"seat": "W", "han": 2, "fu": 30}], "riichi": []},
    {"result": "ron", "from": "E", "wins": [{"seat": "N", "han": 2, "fu": 30}], "riichi": ["N"]},
    {"result": "ron", "from": "W", "wins": [{"seat": "E", "han": 5}], "riichi": []},
    {"result": "ron", "from": "N", "wins": [{"seat": "W", "han": 4, "fu": 30}], "riichi": []},
    {"result": "tsumo", "wins": [{"seat": "E", "han": 1, "fu": 30}], "riichi": []},
    {"result": "ron", "from": "N", "wins": [{"seat": "S", "han": 1, "fu": 40}], "riichi": []},
    {"result": "draw", "tenpai": ["E"], "riichi": []},
]  # fmt: skip


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_a_finished_hanchan_shows_no_next_round_counters_or_dealer(new_context, width):
    staff = f.staff()
    t = f.tournament(players=4, slug=f"over-{width}", name="Over Open")
    table = f.seat_session(t).tables.get()
    for hand in HANCHAN[:7]:
        record_hand(table, hand, staff["desk1"])
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(table_path(table))
    # before the last hand: South 4, N deals, the round and the dealer are shown
    expect(page.locator("#info")).to_have_text("South 4")
    expect(page.locator("#scores .seat.dealer")).to_have_count(1)
    record_hand(table, HANCHAN[7], staff["desk1"])
    page.reload()
    expect(page.locator("#info")).to_have_text("The game is over.")
    expect(page.locator("#scores .seat")).to_have_text(
        [
            "E\nPlayer 01\n35,700",
            "S\nPlayer 02\n32,700",
            "W\nPlayer 03\n30,400",
            "N\nPlayer 04\n21,200",
        ],
        use_inner_text=True,
    )
    expect(page.locator("#scores .seat.dealer")).to_have_count(0)
    assert "dealer" not in page.locator("#scores").inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    e2e.SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"s44-day-game-over-{width}.png"), full_page=True)
