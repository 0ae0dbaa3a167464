"""gunicorn's settings for the federation server's app processes (DESK_HOSTED=1, issue 38):
`gunicorn -c config/gunicorn.py`, as scripts/federation and deploy/ start it.

Any number of these processes, on one machine or several, behind one PostgreSQL and one cache
give the same answers: everything they keep is in the database or the shared cache
(DESK_CACHE_URL), but for values worked out once per revision (core.kept), which each keeps for
itself by the revision they are of.

    DESK_PORT     the port on 127.0.0.1 (8100); DESK_BIND instead gives the whole address
                  (a unix socket: unix:/run/desk/gunicorn.sock)
    DESK_WORKERS  processes (2): one per core is plenty, requests wait on the database and
                  the cache more than on the interpreter
    DESK_THREADS  threads in each (4), each with its own database connection: the database
                  sees DESK_WORKERS × DESK_THREADS connections from each machine
"""

import gc
import os
import socket

wsgi_app = "config.wsgi:application"
bind = os.environ.get("DESK_BIND") or f"127.0.0.1:{os.environ.get('DESK_PORT', '8100')}"
workers = int(os.environ.get("DESK_WORKERS", "2"))
# Threads, so that a visitor's connection is kept open between refreshes (keep-alive) and a
# slow database answer holds one thread, not the process.
worker_class = "gthread"
threads = int(os.environ.get("DESK_THREADS", "4"))
keepalive = 5
# A new connection the kernel holds back until its first bytes arrive (Linux's
# TCP_DEFER_ACCEPT, on TCP addresses; see when_ready), for at most this many seconds.
DEFER_ACCEPT = 30
# A stop lets the requests under way finish.
graceful_timeout = 20
proc_name = "desk-federation"
# No control socket (gunicorn's runtime management): one fixed path per user, which two servers
# on one machine (the tests') would fight over; a stop and a start are the host's services'.
control_socket_disable = True


def when_ready(server):
    """gthread hands each connection it accepts to a thread, which then waits up to 5 s for the
    request; a phone that opens a connection and says nothing yet (a browser's preconnect, or
    one whose visitor has not reloaded) holds one of the DESK_THREADS threads meanwhile. 1,000
    phones connected at once, each waiting a few seconds before its refresh, then held the
    phones that did ask for up to 7 s (benchmarks/federation.py --at-once, p95). With
    TCP_DEFER_ACCEPT the kernel hands over a connection only once it has a request to read.
    Set on the listening sockets before the workers inherit them (unix sockets: no such wait)."""
    for listener in server.LISTENERS:
        if listener.sock.family in (socket.AF_INET, socket.AF_INET6) and hasattr(
            socket, "TCP_DEFER_ACCEPT"
        ):
            listener.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, DEFER_ACCEPT)


def post_worker_init(worker):
    """What is loaded by now (Django, the apps) lives as long as the process: frozen, the
    collector no longer walks it (as manage.py serve does in the hall)."""
    gc.freeze()
