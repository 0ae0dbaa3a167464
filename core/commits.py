"""Work done once a transaction commits, once per transaction however many writes asked for it
(the backup writer's and the publishing sender's: a session's end touches a tournament many
times in one transaction, and one file is enough)."""

from collections.abc import Callable

from django.db import transaction


def once_on_commit(key: tuple, run: Callable[[], None]) -> None:
    """`run()` after the current transaction commits (at once outside one), unless a callback
    of the same `key` already waits for this transaction's commit."""
    for _savepoints, waiting, _robust in transaction.get_connection().run_on_commit:
        if getattr(waiting, "once_key", None) == key:
            return

    def callback():
        run()

    callback.once_key = key
    transaction.on_commit(callback)
