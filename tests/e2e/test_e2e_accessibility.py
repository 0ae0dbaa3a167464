"""Issue 23: accessible by default. axe-core (tests/support/axe.py: a test-only asset, fetched
from the npm registry and injected here, never served) checks every page of the phones'
tournament (test_e2e_phones.PAGES: the public pages, the referee's, the projector and the desk's)
against WCAG 2.1 A and AA, with everything folded away unfolded, and finds nothing. The login
page and the error pages are checked as well.
"""

import re

import pytest
from django.utils import translation

from tests.e2e.test_e2e_phones import (
    HEIGHT,
    LAPTOP,
    MENU_LINES,
    PAGES,
    PHONES,
    PROJECTOR,
    SLUG,
    build,
)
from tests.support import axe
from tests.support import e2e_support as e2e
from tests.support import factories as f

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

# Each page once at each kind of screen it is read on: a phone, the laptop, the projector.
SCREENS = {PHONES: 390, LAPTOP: 1366, PROJECTOR: 1920}
EXTRA = [
    (None, "/login/", PHONES),
    (None, "/t/no-such-tournament/", PHONES),  # the 404 page
    ("chief", "/desk/{slug}/players/", PHONES),  # a referee without the desk's role: 403
]


def screens(widths):
    return sorted({SCREENS[kind] for kind in SCREENS if set(kind) & set(widths)})


@pytest.mark.long(45)
@pytest.mark.django_db(transaction=True)
def test_every_page_passes_wcag_21_aa(new_context):
    appeal = build()
    pages = {}
    failures = []
    checked = set()
    for who, template, widths, _languages in PAGES + [(*row, None) for row in EXTRA]:
        path = template.format(slug=SLUG, appeal=appeal)
        for width in screens(widths):
            if (who, path, width) in checked:
                continue
            checked.add((who, path, width))
            if (who, width) not in pages:
                context = new_context(viewport={"width": width, "height": HEIGHT[width]})
                pages[who, width] = e2e.log_in(context, who) if who else context.new_page()
            page = pages[who, width]
            page.goto(path)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            found = axe.violations(page)
            if found:
                failures.append(f"{who or 'visitor'} {path} @{width}:")
                failures += [f"  {line}" for line in found]
    assert len(checked) > 30
    assert not failures, "\n" + "\n".join(failures)


# What a mark drawn by the style sheet says (::before), as the screen shows it.
MARK = "el => getComputedStyle(el, '::before').content"


@pytest.mark.django_db(transaction=True)
def test_nothing_is_told_by_colour_alone(new_context):
    """The score sum says whether it adds up, by how much it does not; the clock's warning and
    time up carry a mark and words on the desk, the projector and a phone's top bar; a table
    still playing after time up says so on the board."""
    staff = f.staff()
    t = f.tournament(players=8, slug="colour-open", name="Colour Open")
    session = f.seat_session(t)

    desk = e2e.log_in(new_context(viewport={"width": 1366, "height": 768}), "desk1")
    desk.goto("/desk/colour-open/s/1/t/1/")
    total = desk.locator("#sum")
    for wind, score in zip("ESW", (40000, 30000, 20000), strict=True):
        desk.fill(f"#id_score_{wind}", str(score))
    expect(total).to_have_text("✗ 90,000 · 30,000 short")
    expect(total).to_have_class("bad")
    desk.fill("#id_score_N", "32000")
    expect(total).to_have_text("✗ 122,000 · 2,000 over")
    desk.locator("#result-form").screenshot(path=str(e2e.SCREENSHOTS / "sum-over.png"))
    desk.fill("#id_score_N", "30000")
    expect(total).to_have_text("✓ 120,000")
    expect(total).to_have_class("ok")

    # Ukrainian: its words and its number format
    uk = e2e.log_in(new_context(), "desk2")
    uk.goto("/language/?language=uk&next=/desk/colour-open/s/1/t/1/")
    uk.fill("#id_score_E", "100000")
    with translation.override("uk"):
        short = translation.gettext("%(points)s short") % {"points": "20\xa0000"}
    expect(uk.locator("#sum")).to_have_text(f"✗ 100\xa0000 · {short}")

    # The clock gives its warning at once and is up two seconds later.
    session.length_seconds, session.warning_seconds = 2, 2
    session.save()
    f.play(session.tables.get(number=1), [40000, 30000, 20000, 30000], staff["desk1"], None)
    phone = new_context(viewport=e2e.PHONE).new_page()
    projector = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    desk.goto("/desk/colour-open/s/1/clock/")
    desk.get_by_role("button", name="Start the clock").click()
    phone.goto("/t/colour-open/")
    projector.goto("/t/colour-open/clock/")
    for state in (
        desk.locator(".desk-state"),
        phone.locator(".mini-clock [data-clock-state]"),
        projector.locator(".projector-state"),
    ):
        expect(state).to_have_text(re.compile("warning given|time up"))
        assert state.evaluate(MARK) == '"⚠ "'
    phone.locator("header.top").screenshot(path=str(e2e.SCREENSHOTS / "mini-clock-warning.png"))
    expect(projector.locator(".projector-state")).to_have_text("time up", timeout=8000)
    assert projector.locator(".projector-state").evaluate(MARK) == '"⚠ "'
    expect(phone.locator(".mini-clock [data-clock-state]")).to_have_text("time up")

    desk.reload()
    expect(desk.locator("tr.overtime")).to_have_count(1)
    expect(desk.locator("tr.overtime td.board-playing")).to_have_text("playing past time up")
    expect(desk.locator("tr[data-state=finished] td.board-finished")).to_have_text(
        "finished — result entered"
    )


@pytest.mark.django_db(transaction=True)
def test_the_directors_menu_keeps_one_row_at_1366_in_every_language(new_context):
    """The director's menu, on the page with the most links (a table's result, with its
    session's link), in the four languages: one row at 1366 px, also with a long name."""
    build()
    context = new_context(viewport={"width": 1366, "height": 768})
    page = e2e.log_in(context, "director")
    for language in ("en", "uk", "ru", "pl"):
        page.goto(f"/language/?language={language}&next=/desk/{SLUG}/s/1/t/1/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        links = page.locator("header.top nav > a")
        assert links.count() >= 7  # brand, tournament, players, check-in, plans, referee, …
        assert page.evaluate(MENU_LINES) == [], language
        height = page.locator("header.top nav").evaluate("el => el.clientHeight")
        assert height < 80, (language, height)
