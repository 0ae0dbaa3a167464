"""Issue 23, "Done when": a whole EMA day played through the pages in headless Chromium, as
the issue found it, and every finding checked where people on the floor see it.

Twelve players and a substitute. The director plans sessions 1–4 before play (every phone then
shows session 1, not the last planned); the plan's figures for twelve players are the proven
ones; the desk enters session 1 with the keyboard and the second desk user confirms with Enter,
Enter, Enter, Enter; a referee on a phone fines a player for misconduct, the player appeals, the
appeal is upheld and the standings move back; after two sessions a new plan of sessions 3–4
gives every player each wind once, as the history allows; a name typed without its accents is
found; and no referee or player page scrolls sideways at 390 px.
"""

import re
from collections import Counter

import pytest

from scoring.models import Penalty, Result
from seating.models import Seat
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

SLUG = "day-open"
NAMES = {
    "p01": "Łukasz Wójcik",
    "p02": "Hans Müller",
    "p03": "Seán O'Brien",
    "p04": "Gražina Čepulė",
    "p05": "Юлія Ґудзь",
    "p06": "Zoë Lefèvre",
}
WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}
# Session 1's scores, E S W N, all different: 40,000 + 35,000 + 25,000 + 20,000 = 120,000.
SCORES = [40000, 35000, 25000, 20000]


def fits(page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= e2e.PHONE["width"], f"{page.url} is {width} px wide at 390 px"


def seat_of(key, number):
    seat = Seat.objects.select_related("table").get(
        session__tournament__slug=SLUG, session__number=number, player__key=key
    )
    return seat.table.number, WINDS[seat.wind]


def quality_row(page, label):
    """The figure and its best possible from the plan page's quality table."""
    cells = page.locator("#quality table tr", has_text=label).first.locator("td")
    return cells.nth(1).inner_text().strip(), cells.nth(2).inner_text().strip()


def total_of(key):
    from django.test import Client

    feed = Client().get(f"/t/{SLUG}/standings.json").json()
    return next(row["total"] for row in feed["standings"] if row["player"]["key"] == key)


@pytest.mark.long(30)
@pytest.mark.django_db(transaction=True)
def test_a_whole_tournament_day_from_the_floor(new_context):
    staff = f.staff()
    t = f.tournament(players=12, planned_sessions=4, slug=SLUG, name="Day Open")
    for key, name in NAMES.items():
        t.players.filter(key=key).update(name=name)
    t.players.create(key="s01", name="Jürgen Weiß", substitute=True)
    director = e2e.log_in(new_context(viewport={"width": 1366, "height": 900}), "dir")

    # 1. Plan sessions 1–4 before play. For twelve players only one session can be without a
    # repeat (a second session's table of four draws from three first-session tables).
    director.goto(f"/desk/{SLUG}/")
    director.get_by_role("link", name="Seating plans").click()
    director.fill("#id_seed", "7")
    director.locator("#make-plan").click()
    expect(director.locator("h1")).to_have_text("Plan of sessions 1–4")
    # The plan's figures are proven: the one repeat-free session, and the bounds it cannot beat
    # labelled as bounds ("at least"), never as a best possible it failed to reach.
    got, _best = quality_row(director, "sessions possible without any repeat")
    assert got == "1"
    got, best = quality_row(director, "extra meetings")
    assert best.startswith("at least ") and int(got) >= int(best.split()[-1]) >= 6, (got, best)
    got, best = quality_row(director, "pairs meeting twice or more")
    assert best.startswith("at least "), (got, best)
    director.screenshot(path=str(e2e.SCREENSHOTS / "day-plan.png"), full_page=True)
    director.locator("#apply-plan").click()
    expect(director.locator(".messages")).to_contain_text("Plan applied to sessions 1–4.")

    # 2. Every phone page shows session 1, found without typing the accents.
    phone = new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"/t/{SLUG}/find/")
    phone.locator("#q").press_sequentially("lukasz wojcik")
    table, wind = seat_of("p01", 1)
    result = phone.locator("#live")
    expect(result).to_contain_text("Session 1")
    expect(result).to_contain_text("Łukasz Wójcik")
    expect(result.locator("tbody tr").first).to_contain_text(str(table))
    expect(result.locator("tbody tr").first).to_contain_text(wind)
    fits(phone)
    phone.locator("#q").fill("")
    phone.locator("#q").press_sequentially("o’brien")  # a phone's curly apostrophe
    expect(result).to_contain_text("Seán O'Brien")
    result.get_by_role("link", name="Seán O'Brien").click()
    table, wind = seat_of("p03", 1)
    expect(phone.locator("main")).to_contain_text(re.compile(rf"Session 1\b.*{table}"))
    expect(phone.locator("main")).not_to_contain_text("Session 4 ·")
    fits(phone)
    phone.goto(f"/t/{SLUG}/")
    expect(phone.locator("header")).to_contain_text("Session 1")
    fits(phone)

    # 3. Session 1 at the desk: desk1 types each protocol; desk2 confirms with Enter ×4.
    desk1 = e2e.log_in(new_context(), "desk1")
    desk2 = e2e.log_in(new_context(), "desk2")
    for number in (1, 2, 3):
        url = f"/desk/{SLUG}/s/1/t/{number}/"
        desk1.goto(url)
        expect(desk1.locator("#id_score_E")).to_be_focused()
        for score in SCORES:
            desk1.keyboard.type(str(score))
            desk1.keyboard.press("Enter")
        expect(desk1.locator(".messages")).to_contain_text(f"Table {number} saved as a draft")
        desk2.goto(url)
        expect(desk2.locator("#id_score_E")).to_be_focused()
        for _ in range(4):
            desk2.keyboard.press("Enter")
        expect(desk2.locator(".messages")).to_contain_text(f"Table {number} confirmed.")
        versions = Result.objects.filter(
            table__session__tournament=t, table__session__number=1, table__number=number
        ).values_list("version", "status")
        assert list(versions) == [(1, "confirmed")]

    # 4. A referee on a phone fines Hans Müller for misconduct; he appeals and it is upheld.
    before = total_of("p02")
    table, _wind = seat_of("p02", 1)
    referee = e2e.log_in(new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True), "ref")
    referee.goto(f"/referee/{SLUG}/s/1/t/{table}/")
    fits(referee)
    card = referee.locator(".seat-card", has_text="Hans Müller")
    card.get_by_role("button", name=re.compile(r"^Misconduct")).first.click()
    referee.locator("#confirm").click()  # a penalty tap asks first
    expect(referee.locator(".messages")).to_contain_text("Hans Müller")
    penalty = Penalty.objects.get(player__key="p02")
    fined = total_of("p02")
    assert penalty.amount < 0 and fined < before  # before placement: uma may move too
    fits(referee)

    head = e2e.log_in(new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True), "dir")
    head.goto(f"/referee/{SLUG}/appeals/new/")
    head.select_option("#id_session", "1")
    head.select_option("#id_appellant", label="Hans Müller")
    head.select_option("#id_penalty", index=1)
    head.fill("#id_subject", "Misconduct penalty")
    head.fill("#id_text", "I did not speak at the table.")
    head.get_by_role("button", name="Log the appeal").click()
    expect(head.locator(".messages")).to_contain_text("Appeal")
    fits(head)
    head.select_option("#id_status", "upheld")
    head.fill("#id_decision", "The referee misheard; the penalty is lifted.")
    head.get_by_role("button", name="Record the decision").click()
    expect(head.locator("main")).to_contain_text("upheld")
    fits(head)
    penalty.refresh_from_db()
    assert penalty.is_void
    assert total_of("p02") == before
    phone.goto(f"/t/{SLUG}/")
    fits(phone)

    # 5. Session 2 is played; a new plan of sessions 3–4 gives each wind once where the
    # history allows: after two sessions with two different winds, every player can sit the
    # other two.
    for table in t.sessions.get(number=2).tables.order_by("number"):
        f.play(table, SCORES, staff["desk1"], staff["desk2"])
    director.goto(f"/desk/{SLUG}/plans/")
    director.fill("#id_first", "3")
    director.fill("#id_last", "4")
    director.fill("#id_seed", "7")
    director.locator("#make-plan").click()
    expect(director.locator("h1")).to_have_text("Plan of sessions 3–4")
    got, best = quality_row(director, "worst wind imbalance")
    assert got == best, (got, best)
    director.locator("#apply-plan").click()
    expect(director.locator(".messages")).to_contain_text("Plan applied to sessions 3–4.")
    for key in t.players.filter(substitute=False).values_list("key", flat=True):
        winds = Counter(
            Seat.objects.filter(session__tournament=t, player__key=key).values_list(
                "wind", flat=True
            )
        )
        assert winds == Counter("ESWN"), (key, winds)
