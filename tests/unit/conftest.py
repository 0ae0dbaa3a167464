"""The unit tests: pure rule math and algorithms, no database and no Django.

scripts/test runs them once, with `pytest -p no:django tests/unit`. Run that way, a unit test
whose code imports Django stops the run at collection: it belongs in tests/integration/.
"""

import sys

import pytest


def pytest_collection_finish(session):
    if session.config.pluginmanager.hasplugin("django"):
        return  # run together with the other folders: Django is loaded for them anyway
    loaded = sorted(name for name in sys.modules if name.split(".")[0] == "django")
    if loaded:
        raise pytest.UsageError(f"a unit test imported Django ({', '.join(loaded[:3])}, …)")
