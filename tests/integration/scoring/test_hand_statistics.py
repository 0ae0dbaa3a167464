"""Issue 24, statistics from hands: hands recorded through scoring.services.record_hand, then read
through the real URLs — the player page's Hands table, the highlights under the standings,
statistics.json — and the workbook's Hands and Player statistics sheets (openpyxl). The numbers
are tests/support/hands.py's, worked out there from docs/rules.md §5."""

import io
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from printing.xlsx.tournament import workbook_bytes
from scoring.selectors import hand_statistics
from scoring.services import record_hand
from tests.support import factories as f
from tests.support.hands import RIICHI_HANDS, SICHUAN_HANDS

pytestmark = pytest.mark.django_db

# Table 2 of the riichi session: the dealer E (p05) wins 2 han 30 fu and S (p06) a yakuman on
# one discard of N (p08). docs/rules.md §5.1: "Several players may win on one discard: the discarder
# pays each winner separately": 6 × 480 = 2,880 → 2,900 for the dealer, 4 × 8,000 = 32,000.
DOUBLE_RON = {
    "result": "ron",
    "from": "N",
    "wins": [{"seat": "E", "han": 2, "fu": 30}, {"seat": "S", "yakuman": 1}],
    "riichi": [],
}


def rows(ws):
    values = list(ws.iter_rows(values_only=True))
    return [dict(zip(values[0], row, strict=True)) for row in values[1:]]


@pytest.fixture
def riichi():
    """Eight players, one session: table 1 (p01–p04) plays RIICHI_HANDS, table 2 (p05–p08) the
    double ron."""
    staff = f.staff()
    t = f.tournament(players=8, slug="hands-open")
    one, two = f.seat_session(t).tables.order_by("number")
    for hand in RIICHI_HANDS:
        record_hand(one, hand, staff["desk1"])
    record_hand(two, DOUBLE_RON, staff["desk1"])
    t.refresh_from_db()
    return t, staff


def test_statistics_json(riichi):
    t, _staff = riichi
    response = Client().get(f"/t/{t.slug}/statistics.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert data["game"] == "riichi" and data["hands"] == 5
    assert data["players"]["p01"] == {
        "name": "Player 01",
        "hands": 4,
        "wins": 1,
        "tsumo": 1,
        "deal_ins": 0,
        "riichi": 1,
        "riichi_won": 1,
        "average_win": 8000,  # the mangan tsumo: 4,000 + 2,000 + 2,000, counters left out
        "tsumo_share": 1.0,
        "chombo": 0,
    }
    assert data["players"]["p02"]["average_win"] == 5200  # 3 han 40 fu on a discard
    assert data["players"]["p02"]["tsumo_share"] == 0.0
    assert data["players"]["p03"]["deal_ins"] == 1
    assert (data["players"]["p04"]["riichi"], data["players"]["p04"]["chombo"]) == (2, 1)
    assert data["players"]["p08"]["deal_ins"] == 1  # two winners, one discard
    assert data["players"]["p07"]["average_win"] is None
    assert data["highlights"] == {
        "largest_hand": [
            {
                "player": "p06",
                "name": "Player 06",
                "session": 1,
                "table": 2,
                "hand": 1,
                "points": 32000,
            }
        ],
        "most_wins": {"players": ["p02", "p01", "p05", "p06"], "count": 1},
    }


def test_player_page_hands_block_and_the_highlights(riichi):
    t, staff = riichi
    page = Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "<h2>Hands</h2>" in page
    for label, value in [
        ("Hands played", "4"),
        ("Wins", "1"),
        ("Deal-ins", "0"),
        ("Riichi declared", "1"),
        ("Riichi won", "1"),
        ("Average win", "8,000"),
        ("Tsumo share", "100%"),
        ("Chombo", "0"),
    ]:
        assert f'data-label="{label}"><span class="cell">{value}</span>' in page
    standings = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Largest hand: 32,000 points — " in standings
    assert '<a href="/t/hands-open/p/p06/">Player 06</a>, session 1, table 2, hand 1' in standings
    assert "Most wins: " in standings
    # A hand recorded later shows on the next request (record_hand bumps the revision).
    two = t.sessions.get().tables.get(number=2)
    tsumo = {"result": "tsumo", "wins": [{"seat": "S", "han": 1, "fu": 30}], "riichi": ["S"]}
    record_hand(two, tsumo, staff["desk1"])
    page = Client().get(f"/t/{t.slug}/p/p06/").content.decode()
    assert 'data-label="Wins"><span class="cell">2</span>' in page
    standings = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'Most wins: <a href="/t/hands-open/p/p06/">Player 06</a> (2)' in standings


def test_no_hands_no_block():
    t = f.tournament(players=4, slug="paper")
    f.seat_session(t)
    assert "<h2>Hands</h2>" not in Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "Highlights" not in Client().get(f"/t/{t.slug}/").content.decode()
    data = json.loads(Client().get(f"/t/{t.slug}/statistics.json").content)
    assert data["players"] == {} and data["highlights"] == {"largest_hand": [], "most_wins": None}


def test_workbook_hands_and_player_statistics(riichi):
    t, _staff = riichi
    book = load_workbook(io.BytesIO(workbook_bytes(t)))
    hands = rows(book["Hands"])
    assert len(hands) == 5
    first = hands[0]
    assert {k: first[k] for k in ("Session", "Table", "Hand", "Dealer", "Result")} == {
        "Session": 1,
        "Table": 1,
        "Hand": 1,
        "Dealer": "Player 01",
        "Result": "ron",
    }
    assert (first["Winners"], first["Paid by"], first["Han / fu"]) == (
        "Player 02",
        "Player 03",
        "3 han 40 fu",
    )
    assert first["Riichi"] == "Player 02, Player 04"
    assert (first["South"], first["South ±"], first["South total"]) == ("Player 02", 6200, 36200)
    assert (first["North ±"], first["North total"]) == (-1000, 29000)
    assert [h["Result"] for h in hands[1:4]] == ["exhaustive draw", "tsumo", "chombo"]
    assert hands[2]["Han / fu"] == "5 han" and hands[3]["Paid by"] == "Player 04"
    final = [hands[3][f"{w} total"] for w in ("East", "South", "West", "North")]
    assert final == [44800, 36600, 23200, 15400]  # tests/support/hands.py's EMA_SCORES
    assert hands[4]["Han / fu"] == "2 han 30 fu; yakuman"
    assert hands[4]["Winners"] == "Player 05, Player 06"
    stats = {r["Player"]: r for r in rows(book["Player statistics"])}
    assert stats["Player 01"] == {
        "Player": "Player 01",
        "Hands played": 4,
        "Wins": 1,
        "Deal-ins": 0,
        "Riichi declared": 1,
        "Riichi won": 1,
        "Average win": 8000,
        "Tsumo share": 1,
        "Chombo": 0,
    }
    assert stats["Player 05"]["Average win"] == 2900 and stats["Player 08"]["Deal-ins"] == 1
    assert book["Player statistics"]["H2"].number_format == "0%"


def test_sichuan_through_the_pages_and_the_workbook():
    """tests/support/hands.py's Sichuan session: W (p03) makes a concealed kong (+6) and
    self-draws; the wall then runs out with W an active pig (docs/rules.md §5.2, "Pig: 48
    points")."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=4, slug="sichuan-open")
    table = f.seat_session(t).tables.get()
    for hand in SICHUAN_HANDS:
        record_hand(table, hand, staff["desk1"])
    data = json.loads(Client().get(f"/t/{t.slug}/statistics.json").content)
    assert data["game"] == "sichuan"
    assert data["players"]["p03"] == {
        "name": "Player 03",
        "hands": 2,
        "hu": 1,
        "self_draw": 1,
        "self_draw_share": 1.0,
        "kong_points": 6,
        "pigs": 1,
        "false_hu": 0,
        "dead": 0,
        "deal_ins": 0,
    }
    assert data["players"]["p01"]["deal_ins"] == 2
    assert data["highlights"]["largest_hand"] == [
        {"player": "p02", "name": "Player 02", "session": 1, "table": 1, "hand": 1, "fans": 2}
    ]
    page = Client().get(f"/t/{t.slug}/p/p03/").content.decode()
    assert 'data-label="Kong points"><span class="cell">6</span>' in page
    assert 'data-label="Self-draw share"><span class="cell">100%</span>' in page
    standings = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Most fans in a hu: 2 — " in standings and "Most hu: " in standings
    book = load_workbook(io.BytesIO(workbook_bytes(t)))
    first, second = rows(book["Hands"])
    assert (first["Result"], first["Winners"], first["Paid by"], first["Fans"]) == (
        "ended by hu",
        "Player 02, Player 03 (self-draw), Player 04",
        "Player 01",
        "2, 1, 0",
    )
    assert (first["West ±"], second["West ±"], second["West total"]) == (12, -51, -39)
    assert (second["Result"], second["Dealer"]) == ("wall exhausted", "Player 02")
    stats = {r["Player"]: r for r in rows(book["Player statistics"])}
    assert (stats["Player 03"]["Pigs"], stats["Player 03"]["Kong points"]) == (1, 6)


# 002 §2.8.3, «Мёртвая рука»: N's hand is declared dead twice, E's once. N's concealed kong
# (2 from each of the three others) goes back when its hand is declared dead: "он обязан вернуть
# все очки, полученные за объявления «конг»", so N's kong points are 0.
DEAD_HANDS = [
    {
        "events": [
            {"kong": "concealed", "seat": "N"},
            {"dead": "N"},
            {"hu": [{"seat": "S", "fans": 1}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 1}], "from": "E"},
            {"hu": [{"seat": "E", "fans": 0}], "self_draw": True},
        ]
    },
    {
        "events": [
            {"dead": "N"},
            {"dead": "E"},
            {"hu": [{"seat": "S", "fans": 2}], "from": "W"},
            {"hu": [{"seat": "W", "fans": 0}], "self_draw": True},
        ],
        "exhausted": {"E": "not_waiting", "N": "not_waiting"},
    },
]


def test_sichuan_dead_hands_through_the_pages_the_feed_and_the_workbook():
    """Issue 36: the hands each player had declared dead (002 §2.8.3) are counted wherever the
    other Sichuan hand statistics are: the player's public page, statistics.json and the
    workbook's Player statistics. N (p04) 2, E (p01) 1, S and W 0; N's kong points 0 (its kong
    went back)."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=4, slug="dead-open")
    table = f.seat_session(t).tables.get()
    for hand in DEAD_HANDS:
        record_hand(table, hand, staff["desk1"])
    data = json.loads(Client().get(f"/t/{t.slug}/statistics.json").content)
    assert {key: p["dead"] for key, p in data["players"].items()} == {
        "p01": 1,
        "p02": 0,
        "p03": 0,
        "p04": 2,
    }
    assert data["players"]["p04"]["kong_points"] == 0
    page = Client().get(f"/t/{t.slug}/p/p04/").content.decode()
    assert 'data-label="Dead hands"><span class="cell">2</span>' in page
    assert 'data-label="Kong points"><span class="cell">0</span>' in page
    page = Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert 'data-label="Dead hands"><span class="cell">1</span>' in page
    book = load_workbook(io.BytesIO(workbook_bytes(t)))
    stats = {r["Player"]: r for r in rows(book["Player statistics"])}
    assert {name: r["Dead hands"] for name, r in stats.items()} == {
        "Player 01": 1,
        "Player 02": 0,
        "Player 03": 0,
        "Player 04": 2,
    }
    headings = [c.value for c in book["Player statistics"][1]]
    assert headings[headings.index("False hu") + 1] == "Dead hands"


def test_released_sessions_only_when_results_are_released_by_session(riichi):
    """A session whose tables are not all confirmed shows nothing of itself on the public pages
    (docs/using/finishing.md, "Finishing the tournament"): its hands neither. The workbook has them
    all."""
    t, staff = riichi
    t.release_by_session = True
    t.save()
    data = json.loads(Client().get(f"/t/{t.slug}/statistics.json").content)
    assert data["players"] == {}
    assert hand_statistics(t).rows  # the desk's workbook reads every session
    for table, scores in zip(
        t.sessions.get().tables.order_by("number"),
        ([44800, 36600, 23200, 15400], [32900, 62000, 30000, -4900]),
        strict=True,
    ):
        f.play(
            table,
            scores,
            staff["desk1"],
            staff["desk2"],
            chombo={"N": 1} if scores[0] == 44800 else None,
        )
    data = json.loads(Client().get(f"/t/{t.slug}/statistics.json").content)
    assert data["players"]["p01"]["wins"] == 1


def test_hand_statistics_queries_do_not_grow_with_the_tables():
    staff = f.staff()

    def count(players, slug):
        t = f.tournament(players=players, slug=slug)
        for table in f.seat_session(t).tables.all():
            for hand in RIICHI_HANDS:
                record_hand(table, hand, staff["desk1"])
        t.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            stats = hand_statistics(t)
        assert len(stats.rows) == players
        return len(ctx.captured_queries)

    # Five: the seating snapshot's two, the hands, the players, and what the statistics are
    # made of (one aggregate: whether the current hands changed, issue 39).
    assert count(4, "one-table") == count(40, "ten-tables") <= 5
