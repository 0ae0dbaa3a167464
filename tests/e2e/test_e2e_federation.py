"""The federation server in Chromium (issue 38): an organiser's keys page and a new key at 360,
390 and 1366 px, and a mirrored tournament's standings on a phone saying "Live from the hall"
with its "Last heard from the desk" read again by the page's script (a heartbeat does not bump
the revision the page is kept by, so the kept page's own time would stay behind)."""

import datetime

import pytest

from archive.tournament_file import export_tournament
from federation.keys import key_text, make_key
from federation.models import Mirror
from federation.organisers import make_organiser
from tests.support import e2e_support as e2e
from tests.support import factories as f
from tests.support.federation import packed, send

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

WIDTHS = {360: 740, 390: 844, 1366: 900}


def no_sideways(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width, width


@pytest.mark.django_db(transaction=True)
def test_the_keys_pages_and_the_mirror_line(new_context):
    organiser, _made = make_organiser("org", "pw-org")
    people = f.staff()
    t = f.tournament(slug="hall-open")
    for name in ("desk1", "desk2"):
        f.grant(people[name], t)
    session = f.seat_session(t)
    for table in session.tables.order_by("number"):
        f.play(table, [45000, 35000, 25000, 15000], people["desk1"], people["desk2"])
    key = make_key(organiser, "tournament", "world-open", "Hall A, the main laptop")
    assert send(key_text(key), "tournament", 4, packed(export_tournament(t))).status_code == 200

    for width, height in WIDTHS.items():
        context = new_context(viewport={"width": width, "height": height})
        page = e2e.log_in(context, "org", "pw-org") if width == 360 else None
        page = page or _logged(context)
        page.goto("/federation/")
        expect(page.locator("#keys")).to_contain_text("/t/world-open/")
        no_sideways(page, width)
        page.screenshot(path=str(e2e.SCREENSHOTS / f"federation-keys-{width}.png"), full_page=True)
        page.goto("/federation/new/")
        page.fill("#id_slug", f"second-{width}")
        page.locator("#key-new button[type=submit]").click()
        expect(page.locator("#key-text code")).to_have_text(__import__("re").compile(r"^\d+\."))
        no_sideways(page, width)
        page.screenshot(path=str(e2e.SCREENSHOTS / f"federation-key-{width}.png"), full_page=True)

    phone = new_context(viewport={"width": 360, "height": 740}).new_page()
    phone.goto("/t/world-open/")
    expect(phone.locator("#mirror-line")).to_contain_text("Live from the hall, updated 14:05:09")
    # A heartbeat later: the kept page is the same, the script reads the new time.
    heard = datetime.datetime(2026, 11, 28, 13, 59, 58, tzinfo=datetime.UTC)  # 14:59:58 Warsaw
    Mirror.objects.filter(slug="world-open").update(heard_at=heard)
    phone.reload()
    expect(phone.locator("#mirror-line .mirror-heard")).to_have_text("14:59:58")
    no_sideways(phone, 360)
    phone.screenshot(path=str(e2e.SCREENSHOTS / "federation-mirror-360.png"), full_page=True)
    projector = new_context(viewport={"width": 1366, "height": 768}).new_page()
    projector.goto("/t/world-open/clock/")
    expect(projector.locator("#mirror-line .mirror-heard")).to_have_text("14:59:58")
    projector.screenshot(path=str(e2e.SCREENSHOTS / "federation-clock-1366.png"))


def _logged(context):
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-org")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    return page
