import os

import pytest

# Tests never touch the director's real data folder.
os.environ.setdefault("DESK_SECRET_KEY", "tests-only-secret-key-not-for-the-hall-0123456789")


@pytest.fixture(autouse=True)
def _clear_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Real hashing is deliberately slow; tests need users, not security.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
