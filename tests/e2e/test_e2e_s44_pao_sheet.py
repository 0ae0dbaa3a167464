"""Issue 36 on the riichi table page at 360 and 390 px: the form records who is responsible for
a yakuman (pao, `wins[].pao`) and who gave the tile of an open kan whose replacement tile won
(Furiten's `kan_from`), only where the rule set has them (the start-up data's `pao_hands` and
`open_kan_rinshan`); the preview pays as the desk pays, the hand goes to the desk as the
formats README writes it, and the table's result is what the hands give.

000 §3.3.6 (EMA): the player who gave the third dragon set or the fourth wind set pays the whole
Big Three Dragons or Big Four Winds on a self-draw, and shares it equally with the discarder on a
ron. 001 §8.1–8.2 (Furiten): the same, Four Kongs too; only the discarder pays the counters.
001 §2.18: a win on the replacement tile after an open kan is paid by the player who gave the kan
tile, as a ron on their discard."""

import pytest

from scoring.models import Hand, Result
from seating.keys import table_path
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

DESK = "Everything is at the desk"


def phone(new_context, live_server, path, width, language=None):
    context = new_context(viewport={"width": width, "height": 800})
    if language:  # the language a phone chose before (django's language cookie)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
    page = context.new_page()
    page.goto(path)
    expect(page.locator("#hands")).not_to_be_empty()
    expect(page.locator("#entry fieldset.chips").first).to_be_visible()
    return page


def chip(page, selector, wind):
    """The chip of `wind` in the form's group of seats `selector` (a CSS selector, or the
    group's number among the form's groups)."""
    groups = page.locator("#entry fieldset.chips")
    group = groups.nth(selector) if isinstance(selector, int) else page.locator(selector)
    group.locator("button.chip").nth("ESWN".index(wind)).click()


def fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def payments(page):
    return page.locator("#preview .payments span").all_inner_texts()


def preview_rows(page):
    """The preview's table: wind → (change, score after), as the page writes them."""
    rows = {}
    for row in page.locator("#preview table.pay tr").all():
        head = row.locator("th").inner_text()
        cells = row.locator("td").all_inner_texts()
        rows[head.split()[0]] = tuple(cells)
    return rows


def save(page, count):
    page.locator("#save").click()
    expect(page.locator("#hands tbody")).to_have_count(count)
    expect(page.locator("#status")).to_contain_text(DESK)


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_furiten_records_pao_on_a_ron_and_a_tsumo_and_a_win_on_an_open_kans_tile(
    new_context, live_server, width
):
    """Furiten (start 30,000; the game ends when a score falls below zero):

    1. E deals. Ron: S wins a yakuman on W's discard, N responsible. 001 §8.1 (000 §3.3.6): a
       non-dealer's yakuman, 32,000, shared equally: W pays 16,000 and N 16,000.
       E 30,000, S 62,000, W 14,000, N 14,000.
    2. S deals. Tsumo: E wins 3 han 30 fu on the replacement tile of the open kan W's discard
       made. 001 §2.18: W pays it as a ron on its discard, 4 × 960 rounded up: 3,900.
       E 33,900, W 10,100.
    3. W deals. Tsumo: N wins a yakuman, W responsible. 001 §8.1: on a self-draw the responsible
       player pays it all, 32,000. W −21,900, N 46,000: below zero, the game is over.

    The table's result is E 33,900, S 62,000, W −21,900, N 46,000."""
    t = f.tournament("furiten-club", players=4, slug=f"pao-{width}", name="Pao Open")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width)
    entry = page.locator("#entry")

    # 1. Ron from W, S a yakuman, N pao.
    chip(page, 0, "W")
    chip(page, 1, "S")
    expect(entry.locator("fieldset.pao")).to_have_count(0)  # 3 han 30 fu: no pao offered
    entry.locator(".value .limits button", has_text="yakuman").click()
    pao = entry.locator("fieldset.pao")
    expect(pao.locator("legend")).to_have_text("Pao: who is responsible for South's yakuman")
    expect(pao).to_contain_text("Big Three Dragons, Big Four Winds, Four Kongs (Furiten 001 §8.2)")
    expect(pao.locator("button.chip").nth(1)).to_be_disabled()  # not the winner herself
    chip(page, "#entry fieldset.pao", "N")
    expect(page.locator("#preview")).to_contain_text("N → S 16,000")
    assert payments(page) == ["W → S 16,000 (ron)", "N → S 16,000 (pao (responsibility))"]
    assert preview_rows(page) == {
        "E": ("0", "30,000"),
        "S": ("+32,000", "62,000"),
        "W": ("−16,000", "14,000"),
        "N": ("−16,000", "14,000"),
    }
    fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-pao-ron-{width}.png"), full_page=True)
    save(page, 1)

    # 2. Tsumo E 3 han 30 fu on the replacement tile of W's open kan.
    entry.locator(".kinds button", has_text="Tsumo").click()
    chip(page, 0, "E")
    entry.locator(".value select").nth(1).select_option("3")  # han; 30 fu is the default
    kan = entry.locator("fieldset.kan-from")
    expect(kan.locator("legend")).to_have_text(
        "Won on the replacement tile after an open kan: who gave the kan tile"
    )
    expect(kan).to_contain_text("(001 §2.18)")
    expect(kan.locator("button.chip").nth(0)).to_be_disabled()  # not the winner himself
    # an ordinary tsumo first: every other player pays (1,000 each, the dealer S 2,000)
    expect(page.locator("#preview")).to_contain_text("S → E 2,000 (tsumo)")
    chip(page, "#entry fieldset.kan-from", "W")
    expect(page.locator("#preview")).to_contain_text("W → E 3,900")
    assert payments(page) == ["W → E 3,900 (win on the replacement tile of their kan)"]
    assert preview_rows(page) == {
        "E": ("+3,900", "33,900"),
        "S": ("0", "62,000"),
        "W": ("−3,900", "10,100"),
        "N": ("0", "14,000"),
    }
    fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-kan-from-{width}.png"), full_page=True)
    save(page, 2)

    # 3. Tsumo N yakuman, W pao.
    entry.locator(".kinds button", has_text="Tsumo").click()
    chip(page, 0, "N")
    entry.locator(".value .limits button", has_text="yakuman").click()
    chip(page, "#entry fieldset.pao", "W")
    chip(page, "#entry fieldset.kan-from", "E")  # tapped by mistake,
    chip(page, "#entry fieldset.kan-from", "E")  # and tapped again: no kan
    expect(entry.locator("fieldset.kan-from button.chip.on")).to_have_count(0)
    expect(page.locator("#preview")).to_contain_text("W → N 32,000")
    assert payments(page) == ["W → N 32,000 (pao (responsibility))"]
    assert preview_rows(page) == {
        "E": ("0", "33,900"),
        "S": ("0", "62,000"),
        "W": ("−32,000", "−21,900"),
        "N": ("+32,000", "46,000"),
    }
    fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-pao-tsumo-{width}.png"), full_page=True)
    save(page, 3)
    expect(page.locator("#info")).to_contain_text("The game is over.")

    # what the desk keeps: the formats README's hands, key for key
    ron = {"result": "ron", "from": "W", "wins": [{"seat": "S", "yakuman": 1, "pao": "N"}]}
    kan = {"result": "tsumo", "wins": [{"seat": "E", "han": 3, "fu": 30}]}
    tsumo = {"result": "tsumo", "wins": [{"seat": "N", "yakuman": 1, "pao": "W"}]}
    assert [h.data for h in Hand.objects.filter(table=table).order_by("number")] == [
        ron | {"riichi": []},
        kan | {"riichi": [], "kan_from": "W"},
        tsumo | {"riichi": []},
    ]
    # the hands in words on the sheet
    rows = page.locator("#hands tbody tr:first-child td:nth-child(2)")
    expect(rows.nth(2)).to_contain_text("Ron S yakuman, pao: N ← W")
    expect(rows.nth(1)).to_contain_text("Tsumo E 3 han 30 fu · paid by W, who gave the kan tile")
    expect(rows.nth(0)).to_contain_text("Tsumo N yakuman, pao: W")

    # a kept hand back in the form for a correction keeps its kan giver and its pao
    page.locator("#hands tbody").nth(1).get_by_role("button", name="Correct").click()
    expect(entry.locator("h2")).to_have_text("Correcting hand 2")
    expect(entry.locator("fieldset.kan-from button.chip.on")).to_contain_text("W")
    entry.get_by_role("button", name="Cancel").click()
    page.locator("#hands tbody").nth(0).get_by_role("button", name="Correct").click()
    expect(entry.locator("fieldset.pao button.chip.on")).to_contain_text("W")
    entry.get_by_role("button", name="Cancel").click()

    # every player confirms every hand: the game over below zero is the table's draft result
    for number in (1, 2, 3):
        for wind in "ESWN":
            button = page.get_by_role("button", name=f"Confirm hand {number} as {wind}")
            button.click()
            expect(button).to_be_disabled()
    expect(page.locator("#end")).to_contain_text(
        "The table's result is at the desk, waiting for its confirmation."
    )
    expect(page.locator("#status")).to_contain_text(DESK)
    result = Result.objects.get(table=table, status=Result.Status.DRAFT)
    assert {s.wind: s.score for s in result.scores.all()} == {
        "E": 33900,
        "S": 62000,
        "W": -21900,
        "N": 46000,
    }
    fits(page, width)


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.django_db(transaction=True)
def test_ema_offers_pao_on_a_yakuman_no_kan_giver_and_a_refusal_in_the_readers_words(
    new_context, live_server, width
):
    """EMA: 000 §3.3.6 lists Big Three Dragons and Big Four Winds for pao; a win on an open
    kan's replacement tile is a self-draw every other player pays (000 names no other payer),
    so the tsumo offers no kan giver. A dealer's self-drawn yakuman with N responsible: N pays
    it all, 48,000 (E 78,000, N −18,000).

    The desk decides: when the rules changed after the page opened (no pao any more), the
    desk refuses the hand the page still offered, and the page says why in its reader's
    language, from the code and params the desk sent and the page's own start-up messages;
    nothing is recorded."""
    t = f.tournament(players=4, slug=f"ema-pao-{width}", name="EMA Pao")
    table = f.seat_session(t).tables.get()
    page = phone(new_context, live_server, table_path(table), width, language="ru")
    entry = page.locator("#entry")
    entry.locator(".kinds button").nth(1).click()  # Tsumo
    chip(page, 0, "E")
    expect(entry.locator("fieldset.kan-from")).to_have_count(0)
    expect(entry.locator("fieldset.pao")).to_have_count(0)
    entry.locator(".value select").nth(0).select_option("1")  # yakuman
    pao = entry.locator("fieldset.pao")
    expect(pao).to_have_count(1)
    chip(page, "#entry fieldset.pao", "N")
    expect(page.locator("#preview")).to_contain_text("48")
    changes = page.locator("#preview table.pay td:nth-child(2)").all_inner_texts()
    after = page.locator("#preview table.pay td:nth-child(3)").all_inner_texts()
    digits = [c.translate({0xA0: None, 0x202F: None, 0x20: None}) for c in changes + after]
    assert digits == ["+48000", "0", "0", "−48000", "78000", "30000", "30000", "−18000"]
    fits(page, width)
    page.screenshot(path=str(e2e.SCREENSHOTS / f"sheet-pao-ema-ru-{width}.png"), full_page=True)

    # the director turns pao off meanwhile; the page still has the rules it opened with
    t.rules = {"pao_hands": "none"}
    t.save(update_fields=["rules"])
    with page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
        page.locator("#save").click()
    body = answer.value.json()
    assert answer.value.status == 400
    assert body["refusal"] == {
        "path": "hands[0].wins[0].pao",
        "code": "NO_PAO",
        "params": {},
        "kinds": {},
    }
    refused = page.locator("#decide .refused")
    expect(refused).to_contain_text(
        "hands[0].wins[0].pao: В этих правилах нет ответственности (пао)."
    )
    assert not Hand.objects.filter(table=table).exists()
    fits(page, width)
