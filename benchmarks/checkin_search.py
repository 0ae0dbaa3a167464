"""Check-in search at 2,000 players (issue 23): names are folded in Python (core.search), not
in the database, so this is what a desk user waits for at each keystroke.

Builds a 2,000-player field with Polish, German, Irish, Russian and Ukrainian names in a
scratch SQLite database and times, through the desk's real URL with a logged-in desk user:
the search the page's script asks at each pause in typing (`?q=…` as a fetch: the ids of the
players found), with the name cache cold (first search after a restart) and warm; and the whole
check-in page (2,000 rows, in the tournament language's order) with a query.
Run: .venv/bin/python benchmarks/checkin_search.py [--players 2000]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.contrib.auth.models import Group, User  # noqa: E402
from django.test import Client  # noqa: E402
from timing import timed  # noqa: E402

from core import collation, search  # noqa: E402
from core.roles import DESK, ensure_groups  # noqa: E402
from tournament.models import StaffGrant  # noqa: E402

FIRST = ["Łukasz", "Małgorzata", "Jürgen", "Seán", "Юлія", "Олег", "Ёлка", "Zofia", "Ivan"]
LAST = ["Wójcik", "Müller", "O'Brien", "Ґудзь", "Щербаков", "Żółć", "Nowak", "Straße"]
QUERIES = ["lukasz", "obrien", "o’brien", "muller", "гудзь", "wojcik lukasz", "zz-nobody"]


def name(i):
    return {"name": f"{FIRST[i % len(FIRST)]} {LAST[i // 9 % len(LAST)]} {i}", "country": "PL"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    args = parser.parse_args()
    fixture.migrate()
    t = fixture.build(args.players, 0, names=name)
    ensure_groups()
    desk = User.objects.create_user("desk")
    desk.groups.add(Group.objects.get(name=DESK))
    StaffGrant.objects.create(user=desk, tournament=t, role=DESK)  # roles per event (#34)
    client = Client()
    client.force_login(desk)
    url = f"/desk/{t.slug}/checkin/"
    fetch = {"headers": {"x-requested-with": "fetch"}}

    def ask(query):
        response = client.get(url, {"q": query}, **fetch)
        assert response.status_code == 200
        return response.json()["players"]

    print(f"check-in search, {args.players} players, SQLite")
    search.forms.cache_clear()
    cold = timed(lambda: ask("lukasz"), 1)[0]
    print(f"  first search (the first request, names not yet folded): {cold:6.1f} ms")
    for query in QUERIES:
        found = len(ask(query))
        median, _best, worst = timed(lambda q=query: ask(q), 30)
        print(f"  {query!r:16s} {found:5d} found: median {median:5.1f}, worst {worst:5.1f} ms")
    collation.sort_key.cache_clear()
    page_cold = timed(lambda: client.get(url, {"q": "lukasz"}), 1)[0]
    page = timed(lambda: client.get(url, {"q": "lukasz"}), 10)
    print(f"  whole page with ?q=lukasz: first {page_cold:6.1f} ms, then median {page[0]:6.1f} ms")


if __name__ == "__main__":
    main()
