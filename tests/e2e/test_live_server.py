"""The live server of the Chromium tests answers one request at a time
(tests/support/live_server.py says why: on SQLite in memory its threads share one connection)."""

import threading
import time

import pytest

from tests.support.live_server import one_at_a_time


@pytest.mark.once
def test_the_application_is_entered_by_one_request_at_a_time():
    inside, most = [], []

    def application(environ, start_response):
        inside.append(environ["n"])
        most.append(len(inside))
        time.sleep(0.05)
        inside.remove(environ["n"])
        return [b"ok"]

    answer = one_at_a_time(application)
    threads = [threading.Thread(target=answer, args=({"n": n}, None)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(most) == 4
    assert max(most) == 1


def test_the_tests_live_server_is_that_one(live_server, transactional_db):
    assert type(live_server.thread.httpd).__name__ == "OneAtATime"
    assert live_server.thread.httpd.get_app().__qualname__ == "one_at_a_time.<locals>.answer"
