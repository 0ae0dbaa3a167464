"""End to end in headless Chromium, the desk details a director reads on the day (issue 23):
the session page's Result column shows the scores, counts read "1 substitute", an empty
session shows no seating figures, and a Sichuan sheet's sum is no green 0 before anything is
typed."""

import pytest
from django.db import transaction

from tests.support import e2e_support as e2e
from tests.support import factories as f
from tournament.models import Player, Session

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect
DESK = {"width": 1366, "height": 900}


@pytest.mark.django_db(transaction=True)
def test_session_page_shows_confirmed_and_draft_scores(new_context):
    staff = f.staff()
    t = f.tournament(players=8, slug="scores-open")
    with transaction.atomic():
        session = f.seat_session(t, 1)
    first, second = session.tables.order_by("number")
    f.play(first, [42000, 31000, 27000, 20000], staff["desk1"], staff["desk2"])
    f.play(second, [28000, 26000, 34000, 32000], staff["desk2"], None)  # a draft
    director = e2e.log_in(new_context(viewport=DESK), "dir")
    director.goto("/desk/scores-open/s/1/")
    rows = director.locator("main table").first.locator("tbody tr")
    expect(rows.nth(0).locator("td").last).to_have_text(
        "confirmed42,000 · 31,000 · 27,000 · 20,000"
    )
    expect(rows.nth(0).locator(".scores")).to_be_visible()
    draft = rows.nth(1).locator("td").last
    expect(draft).to_contain_text("finished — result entered")
    expect(draft.locator(".scores.draft")).to_have_text("draft: 28,000 · 26,000 · 34,000 · 32,000")
    expect(director.locator("p.meta").first).to_contain_text("1 of 2 tables confirmed")
    director.screenshot(path=str(e2e.SCREENSHOTS / "session-scores.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_an_empty_session_shows_no_seating_figures(new_context):
    f.staff()
    t = f.tournament(players=0, slug="empty-open")
    Session.objects.create(tournament=t, number=1)
    director = e2e.log_in(new_context(viewport=DESK), "dir")
    director.goto("/desk/empty-open/s/1/")
    quality = director.locator("#quality")
    expect(quality).to_contain_text("Nobody is seated yet: there is nothing to measure.")
    expect(quality.locator("td.num")).to_have_count(0)
    expect(director.get_by_role("heading", name="Seating quality", exact=True)).to_be_visible()
    director.screenshot(path=str(e2e.SCREENSHOTS / "session-empty.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_checkin_counts_say_one_substitute(new_context):
    f.staff()
    t = f.tournament(players=4, slug="subs-open")
    Player.objects.create(tournament=t, key="s01", name="Zofia Zastępca", substitute=True)
    desk = e2e.log_in(new_context(viewport=DESK), "desk1")
    desk.goto("/desk/subs-open/checkin/")
    counts = desk.locator("#checkin-counts")
    expect(counts).to_contain_text("0 / 4 players checked in")
    expect(counts).to_contain_text("0 substitutes")
    desk.locator("#checkin-table tr", has_text="Zofia").get_by_role("button").click()
    expect(counts).to_contain_text("1 substitute")
    expect(counts).not_to_contain_text("1 substitutes")
    desk.goto("/desk/subs-open/")
    expect(desk.locator(".cards")).to_contain_text("1 substitute")
    expect(desk.locator(".cards")).not_to_contain_text("1 substitutes")
    expect(desk.locator(".cards")).to_contain_text("4 players")


@pytest.mark.django_db(transaction=True)
def test_sichuan_sum_is_neutral_until_a_score_is_typed(new_context):
    f.staff()
    t = f.tournament("sbr-2025", players=4, slug="sbr-open")
    with transaction.atomic():
        f.seat_session(t, 1)
    desk = e2e.log_in(new_context(viewport=DESK), "desk1")
    desk.goto("/desk/sbr-open/s/1/t/1/")
    total = desk.locator("#sum")
    expect(total).to_have_text("—")
    expect(total).not_to_have_class("ok")
    color = total.evaluate("e => getComputedStyle(e).color")
    assert color == "rgb(93, 104, 120)"  # --muted, not the accent green
    desk.screenshot(path=str(e2e.SCREENSHOTS / "sichuan-sum-empty.png"), full_page=True)
    scores = desk.locator("input.score")
    scores.nth(0).fill("12")
    expect(total).to_have_text("✗ 12 · 12 over")
    expect(total).to_have_class("bad")
    scores.nth(1).fill("-12")
    expect(total).to_have_text("✓ 0")
    expect(total).to_have_class("ok")
    for n in (0, 1):
        scores.nth(n).fill("")
    expect(total).to_have_text("—")
