import os

import pytest

# Tests never touch the director's real data folder.
os.environ.setdefault("DESK_SECRET_KEY", "tests-only-secret-key-not-for-the-hall-0123456789")


def _django(request) -> bool:
    """The pure rule tests also run without Django: `pytest -p no:django tests/test_rules.py`."""
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _clear_cache(request):
    if not _django(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(request):
    if _django(request):
        # Real hashing is deliberately slow; tests need users, not security.
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # Balanced plans search inline in tests: the test database is not shared with threads.
        settings.SEATING_PLAN_THREAD = False
        # Backups go to the test's own folder, written when the change commits, not later.
        settings.DESK_BACKUP_DIR = request.getfixturevalue("tmp_path") / "backups"
        settings.BACKUP_THREAD = False
