"""Issue 23: accessible by default. axe-core (tests/support/axe.py: a test-only asset, fetched
from the npm registry and injected here, never served) checks every page of the phones'
tournament (test_e2e_phones.PAGES: the public pages, the referee's, the projector and the desk's)
against WCAG 2.1 A and AA, with everything folded away unfolded, and finds nothing. The login
page and the error pages are checked as well.
"""

import pytest

from tests.e2e.test_e2e_phones import HEIGHT, LAPTOP, PAGES, PHONES, PROJECTOR, SLUG, build
from tests.support import axe
from tests.support import e2e_support as e2e

browser = e2e.browser
new_context = e2e.new_context

# Each page once at each kind of screen it is read on: a phone, the laptop, the projector.
SCREENS = {PHONES: 390, LAPTOP: 1366, PROJECTOR: 1920}
EXTRA = [
    (None, "/login/", PHONES),
    (None, "/t/no-such-tournament/", PHONES),  # the 404 page
    ("chief", "/desk/{slug}/players/", PHONES),  # a referee without the desk's role: 403
]


def screens(widths):
    return sorted({SCREENS[kind] for kind in SCREENS if set(kind) & set(widths)})


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
