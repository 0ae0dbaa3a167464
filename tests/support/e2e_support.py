"""Fixtures and helpers for the browser tests: headless Debian Chromium driven by Playwright.

`playwright install` cannot download browsers here, so the system Chromium is launched.
Bind the fixtures in a test module: `browser = e2e_support.browser` (and `new_context`).
"""

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module.

    While Playwright runs, the test thread has a running asyncio loop and Django's ORM refuses
    to work there unless DJANGO_ALLOW_ASYNC_UNSAFE is set. Both live only as long as this
    module's tests, so every other test keeps Django's async-safety check.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with pytest.MonkeyPatch.context() as mp, sync_api.sync_playwright() as pw:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        sync_api.expect.set_options(timeout=TIMEOUT_MS)
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser, live_server):
    """A factory of fresh browser contexts (each its own cookie jar) bound to the live server."""
    contexts = []

    def make(viewport=DESKTOP, **kwargs):
        context = browser.new_context(
            base_url=live_server.url, viewport=viewport, locale="en-GB", **kwargs
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def log_in(context, username, password=None):
    """Log in through the real login form; returns the page, left on the desk home."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password or f"pw-{username}")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/desk/")
    expect(page.locator("header.top")).to_contain_text(f"Log out {username}")
    return page
