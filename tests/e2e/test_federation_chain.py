"""Issue 38 end to end, on real servers on loopback: the hall's desk (`manage.py serve`, SQLite)
publishes a tournament to the federation server (`scripts/federation`'s PostgreSQL and Redis,
two gunicorn app processes); an organiser's key made on the server's own pages and pasted into
the hall's publishing page; a result confirmed at the hall shows on both of the mirror's
processes; while the server is away the hall goes on (its writes answered as before) and keeps
the newest file, and the mirror catches up when the server comes back, with the hall's
standings.
"""

import re
import time

import pytest

from tests.support.federation_server import (
    FederationServer,
    confirm_table,
    fetch,
    standings,
    wait_for,
)
from tests.support.live_desk import Browser, LiveDesk, staff_seed

SLUG, ADDRESS = "hall-cup", "cup-live"
TABLES = 4

SEED = f"""
import json
from tests.support import factories as f
{staff_seed(director=True)}
t = f.tournament(players={TABLES * 4}, slug="{SLUG}")
f.seat_session(t)
print(json.dumps(t.sessions.get().tables.count()))
"""

pytestmark = [pytest.mark.once, pytest.mark.long(90)]


def play(enterer, confirmer, table: int, k: int) -> None:
    confirm_table(enterer, confirmer, SLUG, 1, table, k)


def organiser_key(server: FederationServer) -> str:
    """An organiser made by the operator's command; the key made on /federation/new/."""
    server.manage("federation_organiser", "anna", "--password", "pw-anna-organiser")
    organiser = Browser(server.urls()[0])
    organiser.request("/login/")
    status, url, _ = organiser.request(
        "/login/", {"username": "anna", "password": "pw-anna-organiser"}
    )
    assert status == 200 and url.endswith("/federation/"), (status, url)
    status, _url, text = organiser.request(
        "/federation/new/", {"kind": "tournament", "slug": ADDRESS, "label": "the hall's laptop"}
    )
    assert status == 200, text[-400:]
    return re.search(r"\b(\d+\.[0-9a-f]{40})\b", text)[1]


def test_the_hall_publishes_and_the_mirror_catches_up_after_the_server_was_away(tmp_path):
    (tmp_path / "federation").mkdir()
    (tmp_path / "hall").mkdir()
    server = FederationServer(tmp_path / "federation")
    hall = LiveDesk(tmp_path / "hall")
    try:
        server.start()
        key = organiser_key(server)
        hall.migrate()
        assert hall.python(SEED) == TABLES
        hall.start()
        mirrors = server.urls()

        director = Browser(hall.url).log_in("boss", "pw-boss")
        status, _url, text = director.request(
            f"/desk/{SLUG}/publish/", {"url": mirrors[0], "key": key, "enabled": "on"}
        )
        assert status == 200 and "Publishing is on" in text, text[-600:]
        # The first file goes at once: the tournament is on the mirror, on both processes.
        wait_for(lambda: all(fetch(f"{m}/t/{ADDRESS}/")[0] == 200 for m in mirrors), 30)
        status, page, _headers = fetch(f"{mirrors[1]}/t/{ADDRESS}/")
        assert "Live from the hall, updated" in page.decode()
        assert fetch(f"{mirrors[0]}/desk/{ADDRESS}/")[0] == 404  # no desk on the server

        desk1 = Browser(hall.url).log_in("desk1", "pw-desk1")
        desk2 = Browser(hall.url).log_in("desk2", "pw-desk2")
        play(desk1, desk2, table=1, k=5)
        hall_now = standings(hall.url, SLUG)
        assert hall_now[0][1] > 0
        took = wait_for(lambda: all(standings(m, ADDRESS) == hall_now for m in mirrors), 30)
        print(f"\na confirmation on both mirror processes after {took:.2f} s")

        # The server goes away: the hall's desk answers as before and keeps the newest file.
        server.stop_apps()
        started = time.monotonic()
        play(desk1, desk2, table=2, k=7)
        play(desk1, desk2, table=3, k=2)
        assert time.monotonic() - started < 10  # the desk is not held up by the sender
        status, _url, text = director.request(f"/desk/{SLUG}/publish/")
        hall_now = standings(hall.url, SLUG)
        assert len({total for _key, total in hall_now}) > 2
        time.sleep(3)  # a try or two has failed by now
        status, _url, text = director.request(f"/desk/{SLUG}/publish/")
        assert status == 200 and "No answer" in text, text[-800:]

        # Back: caught up within the sender's longest wait (30 s) and the upload.
        server.start_apps()
        back = time.monotonic()
        took = wait_for(lambda: all(standings(m, ADDRESS) == hall_now for m in mirrors), 60)
        print(f"caught up {took:.2f} s after the server came back")
        assert time.monotonic() - back < 60
    finally:
        hall.close()
        server.close()
