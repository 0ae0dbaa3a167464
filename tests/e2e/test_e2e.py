"""End to end: a director runs one session in a real browser, the public sees the winner.

Headless Debian Chromium through Playwright against pytest-django's live server. Every step goes
through the pages as a person would: the login form, the new-tournament form, the CSV import
with its preview, the seeded draw, keyboard-only result entry by one desk user and confirmation
by another, and finally the public standings on a phone.
"""

import re

import pytest

from scoring.models import Result
from tests.support import e2e_support as e2e
from tests.support import factories as f

# The browser fixtures live in tests/support/e2e_support.py; binding them here uses them.
browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

PLAYERS = [
    # name, ema_id, country, club — Cyrillic (Ukrainian, Russian), Polish and other diacritics.
    ("Юлія Ґудзь", "04000001", "UKR", "Київ Ріічі"),
    ("Łukasz Żółć", "06000002", "POL", "Kraków Riichi"),
    ("Щербаков Андрій", "04000003", "UKR", "Харків"),
    ("Małgorzata Świątek-Ćwik", "06000004", "POL", "Wrocław Mahjong"),
    ("Jürgen Weiß", "02000005", "DEU", "Düsseldorf"),
    ("Gražina Čepulė", "13000006", "LTU", "Vilnius"),
    ("Ólafur Þórsson", "20000007", "ISL", "Reykjavík"),
    ("Zoë Lefèvre", "03000008", "FRA", "Paris Riichi"),
]
# Final scores in seat order E, S, W, N: all different, so no shared placements.
SCORES = {1: [52000, 31000, 22000, 15000], 2: [40000, 35000, 25000, 20000]}
# EMA 2012: (score − 30000) + uma (+30000 for first), so table 1's East wins with 52,000.
WINNER_TOTAL = 52000


def write_csv(path):
    lines = ["name,ema_id,country,club"] + [",".join(p) for p in PLAYERS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def enter_scores_with_enter(page, scores, before_submit=None):
    """Type each score and press Enter: desk.js moves to the next score; on the last it saves."""
    for n, score in enumerate(scores):
        page.keyboard.type(str(score))
        if n < len(scores) - 1:
            page.keyboard.press("Enter")  # to the next seat's score
    expect(page.locator("#id_score_N")).to_be_focused()
    if before_submit:
        before_submit()
    page.keyboard.press("Enter")  # Enter in the last score saves


def enter_scores_with_tab(page, scores):
    """The same with Tab: score, chombo, … then the note, the Save button, and Enter."""
    for score in scores:
        page.keyboard.type(str(score))
        page.keyboard.press("Tab")  # chombo
        page.keyboard.press("Tab")  # next score (after North: the note)
    expect(page.locator("#id_note")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#save")).to_be_focused()
    page.keyboard.press("Enter")


@pytest.mark.long(19)
def test_director_runs_a_session_and_the_public_sees_the_winner(
    new_context, transactional_db, live_server, tmp_path
):
    f.staff()
    e2e.SCREENSHOTS.mkdir(exist_ok=True)
    names = [p[0] for p in PLAYERS]

    # 1. The director logs in through the form.
    director = e2e.log_in(new_context(), "dir")

    # 2. A new tournament through the form; the slug is made from the name.
    director.get_by_role("link", name="New tournament").click()
    director.fill("#id_name", "Kraków Riichi Open")
    director.select_option("#id_ruleset", "ema-2012")
    director.get_by_role("button", name="Save").click()
    expect(director.locator(".messages")).to_contain_text("Tournament created.")
    expect(director.locator("h1")).to_have_text("Kraków Riichi Open")
    expect(director.locator("p.meta").first).to_contain_text("EMA Riichi Competition Rules 2012")
    slug = re.search(r"/desk/([^/]+)/$", director.url).group(1)
    assert slug == "krakow-riichi-open"
    desk_url = f"/desk/{slug}/"

    # 3. Import the player list: upload, preview, confirm.
    director.get_by_role("link", name="Import players").click()
    director.set_input_files("#id_file", str(write_csv(tmp_path / "players.csv")))
    director.get_by_role("button", name="Preview").click()
    expect(director.locator("h2")).to_have_text("Preview: 8 players")
    preview = director.locator("main .scroll").first.locator("table tbody tr")
    expect(preview).to_have_count(8)
    for name in names:
        expect(director.locator("main .scroll table")).to_contain_text(name)
    director.locator("#confirm-import").click()
    expect(director.locator(".messages")).to_contain_text("8 players imported.")
    expect(director.locator("h1")).to_have_text("Players")
    expect(director.locator("main table tbody tr")).to_have_count(8)
    for name in names:
        expect(director.get_by_role("link", name=name, exact=True)).to_be_visible()

    # 4. Session 1, drawn with a fixed seed: two tables of four.
    director.goto(desk_url)
    director.get_by_role("button", name="Add a session").click()
    expect(director.locator("h1")).to_have_text("Session 1")
    director.fill("#id_seed", "12345")
    director.locator("#draw").click()
    expect(director.locator(".messages")).to_contain_text("Session drawn.")
    expect(director.locator("p.meta").first).to_contain_text("random draw · seed 12345")
    tables = director.locator("main .scroll").first.locator("table tbody tr")
    expect(tables).to_have_count(2)
    seated = [tables.nth(i).locator("td").nth(w).inner_text() for i in (0, 1) for w in (1, 2, 3, 4)]
    assert sorted(seated) == sorted(names)
    east_of_table_1 = tables.nth(0).locator("td").nth(1).inner_text()

    # 5. The director gives the tournament to the two desk users on the users page (issue 34).
    for user in ("desk1", "desk2"):
        director.goto("/desk/users/")
        director.get_by_role("link", name=user, exact=True).click()
        director.select_option("#id_tournament", label="Kraków Riichi Open")
        director.select_option("#id_role", "desk")
        director.get_by_role("button", name="Give the role").click()
        expect(director.locator(".messages")).to_contain_text(
            f"Kraków Riichi Open: {user} has the role desk."
        )
    director.goto(f"{desk_url}s/1/")  # back to the session, which the director watches

    # 6. Each table: desk1 types the scores with the keyboard only, desk2 confirms.
    desk1 = e2e.log_in(new_context(), "desk1")
    desk2 = e2e.log_in(new_context(), "desk2")
    for number, scores in SCORES.items():
        url = f"{desk_url}s/1/t/{number}/"
        desk1.goto(url)
        expect(desk1.locator("h1")).to_have_text(f"Session 1 · Table {number}")
        expect(desk1.locator("#id_score_E")).to_be_focused()
        labels = desk1.locator("table.entry tbody th label")
        expect(labels).to_have_count(4)
        for label, wind in zip(labels.all(), ("East", "South", "West", "North"), strict=True):
            expect(label).to_have_text(re.compile(rf"^{wind} — "))
        if number == 1:
            expect(labels.first).to_have_text(f"East — {east_of_table_1}")

            def shoot():
                expect(desk1.locator("#sum")).to_have_text("✓ 120,000")
                expect(desk1.locator("#sum")).to_have_class("ok")
                desk1.screenshot(path=e2e.SCREENSHOTS / "desk-entry.png", full_page=True)

            enter_scores_with_enter(desk1, scores, before_submit=shoot)
        else:
            enter_scores_with_tab(desk1, scores)
        expect(desk1.locator(".messages")).to_contain_text(f"Table {number} saved as a draft")
        # On to the next protocol: the next table with nothing entered (the last stays put).
        following = number + 1 if number + 1 in SCORES else number
        expect(desk1.locator("h1")).to_have_text(f"Session 1 · Table {following}")
        desk1.goto(url)
        expect(desk1.locator("p.state-draft")).to_have_text("Latest: version 1, draft")
        expect(desk1.locator("main")).to_contain_text("You entered this draft")
        expect(desk1.locator("#confirm")).to_have_count(0)

        desk2.goto(url)
        expect(desk2.locator("#confirm")).to_have_text("Confirm version 1")
        if number == 1:
            # Issue 23 (3): the second desk user presses Enter through the prefilled form, the
            # documented keyboard path; that confirms version 1 and makes no version 2.
            expect(desk2.locator("#id_score_E")).to_be_focused()
            for _ in range(4):
                desk2.keyboard.press("Enter")
        else:
            desk2.locator("#confirm").click()
        expect(desk2.locator(".messages")).to_contain_text(f"Table {number} confirmed.")
        versions = Result.objects.filter(
            table__session__tournament__slug=slug, table__number=number
        ).values_list("version", "status")
        assert list(versions) == [(1, "confirmed")]

    director.reload()
    expect(director.locator("p.meta").first).to_contain_text("2 of 2 tables confirmed")

    # 7. The public standings on a phone, no login.
    public = new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True).new_page()
    public.goto(f"/t/{slug}/")
    expect(public.locator("h1")).to_have_text("Kraków Riichi Open")
    expect(public.locator("#live")).to_have_attribute("data-live", "0")
    rows = public.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    first = rows.first
    expect(first.locator("td.rank")).to_have_text("1")
    expect(first.get_by_role("link", name=east_of_table_1, exact=True)).to_be_visible()
    expect(first.locator("td.total")).to_have_text(f"{WINNER_TOTAL:,}")
    # Wide tables scroll inside their box; the page itself never scrolls sideways on a phone.
    assert public.evaluate("document.scrollingElement.scrollWidth") <= e2e.PHONE["width"]
    public.screenshot(path=e2e.SCREENSHOTS / "public-standings-phone.png", full_page=True)

    # The feed agrees.
    response = public.request.get(f"/t/{slug}/standings.json")
    assert response.ok
    feed = response.json()
    assert feed["sessions_played"] == 1
    top = feed["standings"][0]
    assert top["rank"] == 1
    assert top["player"]["name"] == east_of_table_1
    assert top["total"] == WINNER_TOTAL
    assert top["sessions"][0]["wind"] == "E" and top["sessions"][0]["score"] == 52000
