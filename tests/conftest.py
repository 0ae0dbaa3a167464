"""Fixtures for every test. The settings all tests share are in config/settings_test.py; here
only what each test needs afresh. The unit tests run without Django (`-p no:django`), and then
these fixtures do nothing."""

import os

import pytest

from tests.support.live_server import live_server  # noqa: F401  (pytest-django's, one request at a time)

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
    - tests marked `any_engine`: they use the database, but what they check is decided above
      it, the same on either engine: who may open what and the refusals' untouched rows
      (config/test_permissions.py, test_security.py, desk/test_issue34_roles.py), the
      translations and error pages, the documents' layout (printing/), the public cache's
      wire format, the schema file. The pages and writes behind them run on both engines in
      the other tests and in the state machines;
    - the pages in Chromium (tests/e2e, the `browser` fixture): what they check is the page in
      the browser, the same on either database; the views and writes behind them run on both in
      the integration tests, and the real server on PostgreSQL in tests/e2e/test_hall*.py."""
    for item in items:
        fixtures = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("once") and (item.get_closest_marker("django_db") or fixtures):
            raise pytest.UsageError(f"{item.nodeid} is marked once but uses the database")
    if os.environ.get("DESK_TEST_ONCE_RAN") == "1":
        once = [item for item in items if runs_once(item)]
        if once:
            config.hook.pytest_deselected(items=once)
            items[:] = [item for item in items if not runs_once(item)]
    items[:] = long_ones_first(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def long_ones_first(items: list, workers: int) -> list:
    """The tests marked `long` start first, spread over the workers.

    pytest-xdist's work-stealing scheduler hands each worker an equal run of the collection, in
    order (worker 1 the first N/workers tests, and so on), and a worker that runs out takes
    half of what another still has waiting, from its end. A long test met near the end of a
    run leaves the other worker idle while it finishes. So the collection is cut into one lane
    per worker: the long tests are dealt to the lanes, longest first, each to the lane with the
    fewest seconds so far; then the rest, in their order, fill the lanes to the lengths xdist
    gives (the longest test still starts first on its worker). One process: one lane, long ones
    first."""
    long = [item for item in items if item.get_closest_marker("long")]
    if not long:
        return items
    rest = [item for item in items if not item.get_closest_marker("long")]
    lanes: list[list] = [[] for _ in range(max(1, workers))]
    seconds = [0.0] * len(lanes)
    for item in sorted(long, key=lambda item: -item.get_closest_marker("long").args[0]):
        lane = seconds.index(min(seconds))
        lanes[lane].append(item)
        seconds[lane] += item.get_closest_marker("long").args[0]
    # xdist's first hand-out: worker i takes len(pending) // (workers - i) of what is left.
    left, sizes = len(items), []
    for i in range(len(lanes)):
        sizes.append(left // (len(lanes) - i))
        left -= sizes[-1]
    ordered = []
    for lane, size in zip(lanes, sizes, strict=True):
        lane += [rest.pop(0) for _ in range(max(0, min(len(rest), size - len(lane))))]
        ordered += lane
    return ordered + rest


def runs_once(item) -> bool:
    return bool(
        item.get_closest_marker("once") or item.get_closest_marker("any_engine")
    ) or "browser" in getattr(item, "fixturenames", ())


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory):
    """DESK_TEST_SHARED: a folder the workers of one run share (pytest's temporary folder of the
    run, the parent of each worker's; pytest removes old runs' folders). The real-server tests
    keep their migrated database there (tests/support/live_desk.py)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    os.environ["DESK_TEST_SHARED"] = str(base)
    yield


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


@pytest.fixture(autouse=True)
def _public_page_store(request):
    """The public pages' store on disk (public.stored) is off: a test's rolled-back tournament
    may come back in the next test with the same id and revision. A test that tries the store
    turns it on in its own folder (settings.PUBLIC_PAGE_STORE = tmp_path)."""
    if not _django(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.PUBLIC_PAGE_STORE = None
    yield
