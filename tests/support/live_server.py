"""The live server the Chromium tests open, answering one request at a time.

pytest-django's live server answers each request in a thread of its own. On SQLite in memory
every one of those threads uses the test's single connection, and that connection's
transaction state with it. Two requests at once (four phones sending their hands) then run
inside each other's `atomic` blocks, and an error in one leaves the connection broken for
every request, and every test, that the worker runs after it: on CI the four-phone test, then
the next tests' logins, failed that way. Production has no such sharing (each thread opens its
own connection to the file), so the remedy belongs to the tests: the server still accepts
connections in threads, so a browser's idle preconnection blocks nobody, but the application
answers one request at a time."""

import os
import threading

import pytest


def one_at_a_time(application):
    """The WSGI application, entered by one request at a time."""
    turn = threading.Lock()

    def answer(environ, start_response):
        with turn:
            return application(environ, start_response)

    return answer


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's `live_server`, its application answering one request at a time.
    (Imported here: the unit tests run without Django.)"""
    from django.core.servers.basehttp import ThreadedWSGIServer
    from pytest_django.live_server_helper import LiveServer

    class OneAtATime(ThreadedWSGIServer):
        def set_app(self, application):
            super().set_app(one_at_a_time(application))

    addr = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    server.thread.server_class = OneAtATime
    server.start()
    yield server
    server.stop()
