"""Settings for the test suite (pytest.ini names this module): the hall's settings, with what
every test wants the same way. Per-test settings (each test's backup folder, a clean cache)
are fixtures in tests/conftest.py."""

import os

# Tests never touch the director's real data folder for a secret key.
os.environ.setdefault("DESK_SECRET_KEY", "tests-only-secret-key-not-for-the-hall-0123456789")

from config.settings import *  # noqa: E402, F403

# The tests' times are written for one zone, whatever the machine's is.
TIME_ZONE = "Europe/Warsaw"

# Real hashing is deliberately slow; tests need users, not security.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Balanced plans search inline: the test database is not shared with threads.
SEATING_PLAN_THREAD = False

# Backups are written when the change commits, not later by a thread.
BACKUP_THREAD = False

# Swiss seating stops at its step counts only, never at a wall clock: the tables a test pins
# must not depend on how fast the machine is.
SWISS_SECONDS = None

# The static files are listed once per test process, not once per test client (the hall's
# server lists them once at start): tests/support/static.py.
MIDDLEWARE = [
    "tests.support.static.ListedOnce" if m == "whitenoise.middleware.WhiteNoiseMiddleware" else m
    for m in MIDDLEWARE  # noqa: F405
]

# Publishing (publishing.sender) sends inline once the change commits, not later by a thread.
PUBLISH_THREAD = False
