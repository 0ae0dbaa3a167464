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
