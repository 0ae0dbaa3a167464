"""Start the desk for the hall: migrate, first director account, static files, waitress. With
--prepare-only, all but the serving: the federation server's start (scripts/federation), whose
app processes are gunicorn's (config/gunicorn.py)."""

import gc
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.core.wsgi import get_wsgi_application
from waitress import serve

from core.addresses import lan_address
from core.roles import DIRECTOR, ensure_groups
from core.uploads import wire_limit

CONNECTION_LIMIT = 1000  # open connections at once: every phone in a large hall and the desk


def ensure_director(stdout) -> None:
    """On first start, make a director account and print its one-time password."""
    User = get_user_model()
    if User.objects.exists():
        return
    password = secrets.token_urlsafe(12)
    user = User.objects.create_superuser("director", "", password)
    user.groups.add(Group.objects.get(name=DIRECTOR))
    stdout.write("")
    stdout.write("=" * 64)
    stdout.write("  First start: a director account was created.")
    stdout.write("    user:     director")
    stdout.write(f"    password: {password}")
    if settings.DESK_HOSTED:  # the federation server has no desk: its accounts are the admin's
        stdout.write(
            "  Log in at /admin/ and change it (Admin → Users); the organisers'\n"
            "  accounts are made there too."
        )
    else:
        stdout.write(
            "  Log in and change it (Admin → Users), then add the desk users and give\n"
            "  them their tournaments on the desk's Users and roles page (/desk/users/)."
        )
    stdout.write("=" * 64)
    stdout.write("")


class Command(BaseCommand):
    help = "Prepare the database and serve the desk on the LAN with waitress."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0")
        parser.add_argument("--port", type=int, default=8000)
        # Waitress's own default. Requests take turns on one interpreter lock, so more threads
        # only add switching: 4 served the load benchmark's hall about 15 % more requests per
        # second than 8 did, in 7 alternating runs. Slow visitors do not hold a thread: waitress
        # reads and writes their sockets on its own loop.
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument(
            "--prepare-only",
            action="store_true",
            help="migrate, the static files and the first account, then stop without serving "
            "(scripts/federation serves with gunicorn)",
        )

    def handle(self, *args, host, port, threads, prepare_only=False, **options):
        call_command("migrate", interactive=False, verbosity=0)
        ensure_groups()
        call_command("collectstatic", interactive=False, verbosity=0)
        ensure_director(self.stdout)
        if prepare_only:
            return
        self.stdout.write(
            f"The desk is at http://{lan_address()}:{port}/ (desk: /desk/, admin: /admin/)"
        )
        application = get_wsgi_application()
        # What is loaded by now (Django, the apps, their modules) lives as long as the server:
        # frozen, the collector no longer walks it. A full collection in a hall at 400 players
        # took about 106 ms without this and 28 ms with it, and each one holds every request up.
        gc.freeze()
        serve(
            application,
            host=host,
            port=port,
            threads=threads,
            ident="mahjong-desk",
            # The hall's phones each keep a connection open between refreshes: waitress's
            # default of 100 connections shut out the 101st phone (and the desk) until an idle
            # one timed out after 2 minutes (benchmarks/load.py --phones 300). poll() rather
            # than select(), which cannot watch more than about 1,000 sockets.
            connection_limit=CONNECTION_LIMIT,
            asyncore_use_poll=True,
            # Waitress reads a whole body (into a file) before the desk sees it: a body past a
            # few times the upload limit, chunked or not, is cut off there (its default: 1 GB).
            max_request_body_size=wire_limit(),
        )
