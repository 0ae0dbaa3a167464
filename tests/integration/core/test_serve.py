"""`manage.py serve`: what the desk hands waitress when it starts for the hall.

The server itself is exercised for real by tests/e2e/test_hall.py and benchmarks/load.py; here
waitress's `serve` is replaced by a recorder, so that the options it gets can be read.
"""

import gc

import pytest
from django.core.management import call_command

from core.management.commands import serve as command


@pytest.mark.django_db
def test_serve_lets_the_hall_in_and_freezes_what_it_loaded(monkeypatch, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path  # collectstatic writes here, not into the project
    frozen_before = gc.get_freeze_count()
    handed = {}

    def recorder(application, **options):
        handed.update(options, application=application, frozen=gc.get_freeze_count())

    monkeypatch.setattr(command, "serve", recorder)
    try:
        call_command("serve", port=8123)
    finally:
        gc.unfreeze()
    # Issue 26: the long-lived objects loaded by the start are frozen before the first request,
    # so the collector's full passes do not walk them (106 -> 28 ms a pass at 400 players).
    assert handed["frozen"] > frozen_before
    assert callable(handed["application"])
    # Every phone in a large hall keeps a connection open: 1,000 of them, watched with poll().
    assert handed["connection_limit"] == command.CONNECTION_LIMIT == 1000
    assert handed["asyncore_use_poll"] is True
    assert (handed["host"], handed["port"], handed["threads"]) == ("0.0.0.0", 8123, 4)
