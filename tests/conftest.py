"""Fixtures for every test. The settings all tests share are in config/settings_test.py; here
only what each test needs afresh. The unit tests run without Django (`-p no:django`), and then
these fixtures do nothing."""

import pytest


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
    from archive import backups

    settings = request.getfixturevalue("settings")
    settings.DESK_BACKUP_DIR = request.getfixturevalue("tmp_path") / "backups"
    backups._failures.clear()
    yield
    backups._failures.clear()
