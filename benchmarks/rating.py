"""The club rating at full size (issue 25): 150 members, 10,000 games over 5 seasons.

Seeds a club in a scratch SQLite database (bulk inserts: seeding is not measured), then prints:

1. the rating table read through the selector (`club.selectors.rating`): cold (every game
   read from the database and scored, the book kept for the revision) and warm (the next
   request of the same revision: one table from the scored games);
2. a correction of the first game through the services (record the new version, a second
   officer confirms it), then everything it changes read again: the 5 seasons' tables and the
   all-time table, and every member's timeline — goal <= 1 s for the whole;
3. the public rating page `/r/<slug>/` on the README's server (`manage.py serve`, waitress) on
   loopback against a static file of the same size from the same server, as
   benchmarks/load.py measures (keep-alive clients asking again as soon as they have their
   answer) — goal >= 50 % of the static file's requests per second.

Run: .venv/bin/python benchmarks/rating.py [--seconds 15] [--clients 50]
"""

import argparse
import datetime
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rating_core import DAYS_PER_SEASON, FIRST_DAY, GAMES, PEOPLE, SEASONS, build_games  # noqa: E402
from timing import timed  # noqa: E402

SLUG = "bench-club"
GOAL_TABLE_MS, GOAL_CORRECTION_MS, GOAL_RATIO = 100.0, 1000.0, 0.5


def seed(fixture):
    """The club, its members and seasons, and 10,000 confirmed games (the same games as
    benchmarks/rating_core.py)."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from club.models import Club, Game, GameScore, GameVersion, Member, Season
    from people.models import Person

    fixture.migrate()
    now = timezone.now()
    officers = [User.objects.create_user(f"officer{i}") for i in (1, 2)]
    games = build_games()
    with transaction.atomic():
        club = Club.objects.create(name="Benchmark Club", slug=SLUG, min_games=10)
        people = Person.objects.bulk_create(
            Person(name=f"Member {i:03d}", country="UA") for i in range(PEOPLE)
        )
        members = Member.objects.bulk_create(
            Member(club=club, person=p, joined_on=FIRST_DAY) for p in people
        )
        by_key = {f"person-{i:03d}": m for i, m in enumerate(members)}
        Season.objects.bulk_create(
            Season(
                club=club,
                name=f"Season {i + 1}",
                start=FIRST_DAY + datetime.timedelta(days=i * DAYS_PER_SEASON),
                end=FIRST_DAY + datetime.timedelta(days=(i + 1) * DAYS_PER_SEASON - 1),
            )
            for i in range(SEASONS)
        )
        numbers = {}
        rows = []
        for g in games:
            numbers[g.played_on] = numbers.get(g.played_on, 0) + 1
            rows.append(
                Game(
                    club=club,
                    played_on=g.played_on,
                    number=numbers[g.played_on],
                    created_by=officers[0],
                    created_at=now,
                )
            )
        rows = Game.objects.bulk_create(rows, batch_size=2000)
        versions = GameVersion.objects.bulk_create(
            (
                GameVersion(
                    game=row,
                    version=1,
                    status=GameVersion.Status.CONFIRMED,
                    entered_by=officers[0],
                    entered_at=now,
                    confirmed_by=officers[1],
                    confirmed_at=now,
                )
                for row in rows
            ),
            batch_size=2000,
        )
        GameScore.objects.bulk_create(
            (
                GameScore(
                    version=v, wind=w, member=by_key[s.person], score=s.score, chombo=s.chombo
                )
                for v, g in zip(versions, games, strict=True)
                for w, s in zip("ESWN", g.seats, strict=True)
            ),
            batch_size=4000,
        )
    return club, officers, rows[0]


def everything(club):
    """What a correction changes, read again: each season's table, all time, every timeline."""
    from club.selectors import rating, rating_book, seasons

    tables = [rating(club, s) for s in seasons(club)]
    tables.append(rating(club))
    lines = rating_book(club).book.timelines()
    return tables, lines


def correct_first(club, officers, game):
    from club.services import confirm_game, latest_version, record_game

    latest = latest_version(game)
    lines = latest.scores.order_by("pk")
    seats = [(s.member, s.score, s.chombo) for s in lines][::-1]
    version = record_game(
        club, seats, officers[0], game=game, base_version=latest.version, note="benchmark"
    )
    confirm_game(version, officers[1])
    return everything(club)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15, help="length of each server phase")
    parser.add_argument("--clients", type=int, default=50, help="concurrent public clients")
    parser.add_argument(
        "--no-server", action="store_true", help="only the selector figures (1 and 2)"
    )
    parser.add_argument("--keep-data", action="store_true", help="keep the scratch data folder")
    args = parser.parse_args()

    import fixture  # sets Django up on a scratch database in a new temporary data folder
    import load

    data_dir = Path(os.environ["DESK_DATA_DIR"])
    static_file = fixture.ROOT / "staticfiles" / f"rating-benchmark-{os.getpid()}.html"
    server = None
    try:
        start = time.perf_counter()
        club, officers, first = seed(fixture)
        print(
            f"{PEOPLE} members, {GAMES:,} confirmed games over {SEASONS} seasons;"
            f" seeded in {time.perf_counter() - start:.1f} s"
        )
        goals = selector_figures(club, officers, first)
        if not args.no_server:
            goals += server_figures(args, fixture, load, data_dir, static_file, servers := [])
            server = servers[0] if servers else None
        print("\ngoals")
        for what, measured, goal, met in goals:
            print(f"  {what:34s} {measured:44s} {goal:10s} {'met' if met else 'NOT MET'}")
    finally:
        if server is not None:
            load.stop_server(server)
        static_file.unlink(missing_ok=True)
        if args.keep_data:
            print(f"data kept in {data_dir}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)


def selector_figures(club, officers, first) -> list:
    from club import selectors
    from club.selectors import rating, seasons
    from club.services import save_club

    last = seasons(club)[0]

    def from_scratch():
        selectors._BOOKS.clear()  # as after the server starts: every game read and scored
        return rating(club, last)

    def after_change():
        save_club(club, {}, officers[0])  # a new revision, as any change makes
        club.refresh_from_db()
        return timed(lambda: rating(club, last), 1).median

    scratch = timed(from_scratch, 5).median
    changed_runs = [after_change() for _ in range(7)]
    changed = sorted(changed_runs)[len(changed_runs) // 2]
    warm = timed(lambda: rating(club, last), 20).median
    correction = timed(lambda: correct_first(club, officers, first), 5)
    table = rating(club, last).table
    assert len(table.rows) + len(table.unranked) == PEOPLE
    print("\nfigures (median; milliseconds)")
    for what, ms, how in (
        ("rating table, from scratch", scratch, "every game read and scored (a start)"),
        ("rating table, after a change", changed, "a new revision: new versions scored"),
        ("rating table, same revision", warm, "the kept book"),
        ("correction of the first game", correction.median, "record, confirm, read all again"),
    ):
        print(f"  {what:32s} {ms:8.1f} ms   {how}")
    return [
        (
            "rating table after a change",
            f"{changed:.1f} ms (from scratch {scratch:.1f} ms)",
            f"<= {GOAL_TABLE_MS:g} ms",
            changed <= GOAL_TABLE_MS,
        ),
        (
            "correction of the first game",
            f"{correction.median:.1f} ms (best {correction.best:.1f})",
            f"<= {GOAL_CORRECTION_MS:g} ms",
            correction.median <= GOAL_CORRECTION_MS,
        ),
    ]


def server_figures(args, fixture, load, data_dir, static_file, servers) -> list:
    from django.db import connections
    from django.test import Client

    page = Client().get(f"/r/{SLUG}/")
    assert page.status_code == 200, page.status_code
    static_file.write_bytes(page.content)
    connections.close_all()
    log_path = data_dir / "server.log"
    port = load.free_port()
    with open(log_path, "w") as log:
        servers.append(load.start_server(fixture.ROOT, port, data_dir, None, log))
    server = servers[0]
    served = load.wait_until_ready(server, port, f"/r/{SLUG}/", log_path)
    static_url = f"/static/{static_file.name}"
    load.wait_until_ready(server, port, static_url, log_path, timeout=5)
    print(f"\nrating page {len(served):,} bytes; a static file of the same size {static_url}")
    pages = load.run_phase(
        "public rating page", server, port, args.seconds, args.clients,
        lambda r: ("rating page", f"/r/{SLUG}/"),
    )  # fmt: skip
    load.still_running(server, log_path)
    static = load.run_phase(
        "static file of the same size", server, port, args.seconds, args.clients,
        lambda r: ("static file", static_url),
    )  # fmt: skip
    ratio = load.rps(pages) / load.rps(static) if load.rps(static) else 0.0
    errors = pages.total_errors() + static.total_errors()
    return [
        (
            "rating page / static file req/s",
            f"{ratio:.0%} ({load.rps(pages):.0f} / {load.rps(static):.0f})",
            f">= {GOAL_RATIO:.0%}",
            ratio >= GOAL_RATIO,
        ),
        ("errors", f"{errors}", "0", errors == 0),
    ]


if __name__ == "__main__":
    main()
