"""Fixtures for every test. The settings all tests share are in config/settings_test.py; here
only what each test needs afresh. The unit tests run without Django (`-p no:django`), and then
these fixtures do nothing."""

import os

import pytest

# What a test asks for when it uses a database (pytest-django's marker aside).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "client",
    "admin_client",
    "admin_user",
    "django_user_model",
}


def pytest_collection_modifyitems(config, items):
    """What one run checks as well as two, run once: with DESK_TEST_ONCE_RAN=1 (scripts/test,
    on PostgreSQL after the same tests ran on SQLite) these are left out:
    - tests marked `once`: they use no database (a test so marked that asks for one stops the
      run);
    - the pages in Chromium (tests/e2e, the `browser` fixture): what they check is the page in
      the browser, the same on either database; the views and writes behind them run on both in
      the integration tests, and the real server on PostgreSQL in tests/e2e/test_hall*.py."""
    for item in items:
        fixtures = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("once") and (item.get_closest_marker("django_db") or fixtures):
            raise pytest.UsageError(f"{item.nodeid} is marked once but uses the database")
    if os.environ.get("DESK_TEST_ONCE_RAN") != "1":
        return
    once = [item for item in items if runs_once(item)]
    if once:
        config.hook.pytest_deselected(items=once)
        items[:] = [item for item in items if not runs_once(item)]


def runs_once(item) -> bool:
    return bool(item.get_closest_marker("once")) or "browser" in getattr(item, "fixturenames", ())


def _django(request) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _clear_cache(request):
    """Each test starts and leaves with an empty cache (the public pages are kept there)."""
    if not _django(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _given_tournaments(request):
    """The factories' note of the tournaments given to the staff starts empty in every test."""
    if not _django(request):
        yield
        return
    from tests.support import factories

    factories.GIVEN.clear()
    yield


@pytest.fixture(autouse=True)
def _backup_folder(request):
    """Backups go to the test's own folder, and no test sees another's failed backup."""
    if not _django(request):
        yield
        return
    from archive.backups import writer

    settings = request.getfixturevalue("settings")
    settings.DESK_BACKUP_DIR = request.getfixturevalue("tmp_path") / "backups"
    writer._failures.clear()
    yield
    writer._failures.clear()


@pytest.fixture(autouse=True)
def _revision_kept_through_the_test(request, monkeypatch):
    """The public pages keep a tournament's revision for a second (public.cache.keys): a test
    that asks twice and counts the queries of the second ask must not depend on the machine
    answering within that second (a loaded 2-core machine running two workers may not). Every
    change the tests make goes through touch()/touch_club(), which forget the revision at once,
    so keeping it longer changes nothing else."""
    if not _django(request):
        yield
        return
    from public.cache import keys

    monkeypatch.setattr(keys, "REVISION_SECONDS", 60)
    yield
