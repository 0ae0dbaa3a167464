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


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_the_winds_draw_of_a_three_player_table_asks_for_its_three_winds(new_context, width):
    """Sichuan at a table of three (002 §3.1) with winds drawn at the table (002 §2.4.6): the
    form said "record who drew East, South, West and North" over three choices, and at 360 px
    with short names the choices ran on one line after another's label ("… [—] Who drew
    West"). Found by the s44 day run: each "Who drew …" now stands above its own choice."""
    from seating.models import Table
    from seating.services import add_table
    from tournament.models import Player, Session, Tournament

    t = Tournament.objects.create(
        name="Three Cup", slug=f"three-{width}", ruleset="sbr-2025", winds=Tournament.Winds.TABLE
    )
    names = ["Bartosz Žák", "Viktor Smirnov", "Дмитро Коваленко"]
    players = [
        Player.objects.create(tournament=t, key=f"p{n}", name=name) for n, name in enumerate(names)
    ]
    add_table(Session.objects.create(tournament=t, number=1), players)
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(table_path(Table.objects.get()))
    expect(page.locator("#entry h2")).to_have_text("Who drew which wind")
    help_text = page.locator("#entry p").first.inner_text()
    assert "North" not in help_text and "each wind" in help_text, help_text
    picks = page.locator("#entry form .pick")
    expect(picks).to_have_count(3)
    form = page.locator("#entry form").bounding_box()
    for n, wind in enumerate(["East", "South", "West"]):
        expect(picks.nth(n)).to_contain_text(f"Who drew {wind}")
        label = picks.nth(n).bounding_box()
        select = picks.nth(n).locator("select").bounding_box()
        assert select["y"] >= label["y"] + 10  # below its words, not beside them
        assert abs(select["x"] - form["x"]) < 1 and select["width"] >= form["width"] - 1
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.screenshot(path=str(e2e.SCREENSHOTS / f"s44-day-three-draw-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_one_counter_and_one_stick_are_not_plural(new_context, width):
    """The s44 day run: the line read "1 counters". 000 §3.4.9-§3.4.10 (a counter is added
    after an exhaustive draw; the dealer stays when tenpai), and a riichi stick put down in a
    drawn hand stays on the table: after East 1 drawn with East in riichi and tenpai, the line
    is "East 1 · counters: 1 · riichi sticks on the table: 1"."""
    staff = f.staff()
    t = f.tournament(players=4, slug=f"counter-{width}", name="Counter Open")
    table = f.seat_session(t).tables.get()
    record_hand(table, {"result": "draw", "tenpai": ["E"], "riichi": ["E"]}, staff["desk1"])
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(table_path(table))
    expect(page.locator("#info")).to_have_text(
        "East 1 · counters: 1 · riichi sticks on the table: 1"
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
