"""A world built once for many tests: the rows a module's (or a class's) tests all start from,
written once inside a transaction that is rolled back when the last of them is done.

Each test still runs in a transaction of its own (a savepoint inside the world's, rolled back
after it), so a test that writes leaves the world as it found it for the next one: every test
sees the world exactly as it was built, as if built for it alone.

    @pytest.fixture(scope="class")
    def world(django_db_setup, django_db_blocker):
        with worlds.built_once(django_db_blocker):
            yield build_the_world()

Only tests that take the world belong under its scope: any other test there would see its rows.
Live-server and transactional tests (which commit) cannot share one.
"""

from contextlib import contextmanager

from django.db import connections, transaction


@contextmanager
def built_once(django_db_blocker):
    """Database access and an open transaction on every database for the `with` block; rolled
    back at its end."""
    with django_db_blocker.unblock():
        atomics = []
        for alias in connections:
            atomic = transaction.atomic(using=alias)
            # As Django's TestCase marks its own: a durable block inside a test stays allowed.
            atomic._from_testcase = True
            atomic.__enter__()
            atomics.append((alias, atomic))
        try:
            yield
        finally:
            for alias, atomic in reversed(atomics):
                transaction.set_rollback(True, using=alias)
                atomic.__exit__(None, None, None)
