"""One consistent read of the database that never makes the desk's writers wait: what the
backups (archive.backups), the publishing sender and the standby stream read a whole tournament
or club through."""

from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def snapshot():
    """One consistent read of the database that never makes the desk's writers wait.

    Inside another transaction (a test's) it is that one. Else on SQLite a deferred BEGIN (the
    desk's transactions are IMMEDIATE, which would hold every writer while the file is read):
    WAL gives the reader the state of its first read until it ends. On PostgreSQL a READ ONLY
    REPEATABLE READ transaction: one snapshot for every query."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()  # a new thread's connection knows its mode once open
        mode = connection.transaction_mode
        connection.transaction_mode = None  # Django's SQLite backend: a plain BEGIN (deferred)
        try:
            with transaction.atomic():
                connection.transaction_mode = mode
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
