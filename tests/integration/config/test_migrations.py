"""The migrations and the models say the same (issue 35): the suite's test databases are made
from the models (scripts/test passes --no-migrations), so this holds the migrations to them,
and a database migrated from nothing is used as a hall uses it by the tests that start the desk
the way the README does (tests/e2e/test_hall*.py) and restore a backup on a fresh machine
(tests/integration/archive/test_backups.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.once  # no test database: the PostgreSQL run leaves it out

ROOT = Path(__file__).resolve().parents[3]


def test_the_models_need_no_migration_the_project_does_not_have(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DESK_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No changes detected" in done.stdout
