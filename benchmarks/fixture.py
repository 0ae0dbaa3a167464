"""A full-size tournament in a scratch SQLite database, shared by the benchmarks.

Importing this module points Django at a new temporary data folder and sets it up; `build()`
then writes `players` × `sessions` with every table confirmed (random riichi scores summing to
120,000), straight through bulk inserts so that building is not what gets measured.
"""

import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DESK_DATA_DIR"] = tempfile.mkdtemp(prefix="desk-bench-")
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import Result, ResultScore  # noqa: E402
from seating.models import Seat, Table  # noqa: E402
from tests.support.live_desk import staff_seed  # noqa: E402
from tournament.models import Player, Session, Tournament  # noqa: E402


def hall_seed(session: int, shows: str) -> str:
    """The seed (`LiveDesk.python`) of a real hall holding `bench` (imported as its file): the
    staff (desk1 and desk2 given `bench`, the superuser boss), session `session` seated; it
    prints `shows` (an expression of `session`; `table_path` at hand) as JSON."""
    return f"""
import json
from seating.keys import table_path
from tests.support import factories as f
from tournament.models import Tournament
{staff_seed(director=True)}
t = Tournament.objects.get(slug="bench")
for name in ("desk1", "desk2"):
    f.grant(User.objects.get(username=name), t)
session = f.seat_session(t, number={session})
print(json.dumps({shows}))
"""


def migrate():
    call_command("migrate", verbosity=0)


def build(players=400, sessions=12, *, names=None, each_session=None, rng_seed=2026):
    """The tournament `bench`. `names(i)` gives player i's fields (default "Player 007", PL);
    `each_session(t, session, tables, order, user, now)` adds what a benchmark needs more."""
    rng = random.Random(rng_seed)
    user = User.objects.create_user("bench")
    now = timezone.now()
    names = names or (lambda i: {"name": f"Player {i:03d}", "country": "PL"})
    with transaction.atomic():
        t = Tournament.objects.create(
            name="Benchmark Open", slug="bench", ruleset="ema-2012", planned_sessions=sessions
        )
        people = Player.objects.bulk_create(
            Player(tournament=t, key=f"p{i:03d}", **names(i)) for i in range(players)
        )
        for number in range(1, sessions + 1):
            session = Session.objects.create(tournament=t, number=number)
            order = people[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                Table(session=session, number=n + 1) for n in range(players // 4)
            )
            seats, results, scores = [], [], []
            for n, table in enumerate(tables):
                four = order[4 * n : 4 * n + 4]
                seats += [
                    Seat(table=table, session=session, wind=w, player=p)
                    for w, p in zip("ESWN", four, strict=True)
                ]
                results.append(
                    Result(
                        table=table,
                        version=1,
                        status="confirmed",
                        entered_by=user,
                        entered_at=now,
                        confirmed_by=user,
                        confirmed_at=now,
                    )
                )
            Seat.objects.bulk_create(seats)
            Result.objects.bulk_create(results)
            for n, result in enumerate(results):
                points = [rng.randrange(50, 550) * 100 for _ in range(3)]
                points.append(120000 - sum(points))
                scores += [
                    ResultScore(result=result, wind=w, player=p, score=s)
                    for w, p, s in zip("ESWN", order[4 * n : 4 * n + 4], points, strict=True)
                ]
            ResultScore.objects.bulk_create(scores)
            if each_session:
                each_session(t, session, tables, order, user, now)
    return t
