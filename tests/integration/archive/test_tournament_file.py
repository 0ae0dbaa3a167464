"""The tournament file (docs/formats.md, "Tournament file, version 1"): export, import,
refusals."""

import copy
import io
import json
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from archive.tournament_file import (
    TournamentFileError,
    dumps,
    export_tournament,
    import_tournament,
)
from referee.models import Appeal, Incident
from scoring.feed import feed
from scoring.models import Penalty, Result, ResultScore
from scoring.selectors import penalty_rows
from seating.models import WINDS, Seat, Table
from seating.services import add_table
from tests.support.tournaments import at, build_riichi, make_user, rich_tournament
from tournament.models import Player, RuleChange, Session, Tournament

pytestmark = pytest.mark.django_db


# --- builders ---------------------------------------------------------------------------------


def wipe(t):
    """Delete a tournament. Seats and result scores protect their players, so they go first."""
    t.delete()


def without_slug(data):
    data = copy.deepcopy(data)
    data["tournament"].pop("slug", None)
    return data


def result_versions(t):
    rows = []
    results = Result.objects.filter(table__session__tournament=t).select_related(
        "table__session", "entered_by", "confirmed_by"
    )
    for r in results.order_by("table__session__number", "table__number", "version"):
        rows.append(
            (
                r.table.session.number,
                r.table.number,
                r.version,
                r.status,
                r.entered_by.username if r.entered_by else None,
                r.entered_at,
                r.confirmed_by.username if r.confirmed_by else None,
                r.confirmed_at,
                r.superseded_at,
                r.note,
                sorted(
                    (s.wind, s.player.key, s.score, s.chombo)
                    for s in r.scores.select_related("player")
                ),
            )
        )
    return rows


def seating(t):
    return sorted(
        (
            s.session.number,
            s.table.number,
            s.wind,
            s.player.key,
            s.replaces.key if s.replaces else None,
            s.joined,
        )
        for s in Seat.objects.filter(session__tournament=t).select_related(
            "session", "table", "player", "replaces"
        )
    )


def feed_without_slug(t):
    data = copy.deepcopy(feed(t))
    assert data["tournament"].pop("slug") == t.slug
    return data


# --- export -----------------------------------------------------------------------------------


def test_export_follows_the_format():
    t = build_riichi()
    data = export_tournament(t)
    assert data["format"] == "mahjong-tournament"
    assert data["version"] == 1
    assert data["penalties"] == [] and data["appeals"] == []
    head = data["tournament"]
    assert head["name"] == "Łódź Riichi Open 2026"
    assert head["slug"] == "lodz-2026"
    assert head["ruleset"] == "ema-2012"
    assert head["rules"] == {"chombo_mode": "after_placement", "chombo_amount": -20000}
    assert head["sessions"] == 2
    assert head["fee"] == 40.5
    assert head["start_date"] == "2026-02-17"
    first = data["players"][0]
    assert first == {
        "key": "p01",
        "name": "Anna Nowak",
        "ema_id": "07000001",
        "country": "PL",
        "club": "Kraków Riichi",
        "team": "North",
        "substitute": False,
        "status": "active",
        "checked_in": True,
    }
    s1, s2 = data["sessions"]
    assert (s1["number"], s1["method"], s1["seed"]) == (1, "draw", 12345)
    # The confirmed version is on the seats, though a newer draft correction exists.
    t11 = s1["tables"][0]
    assert "status" not in t11
    assert [(s["wind"], s["player"], s["score"], s["chombo"]) for s in t11["seats"]] == [
        ("E", "p01", 45300, 0),
        ("S", "p02", 30100, 1),
        ("W", "p03", 25000, 0),
        ("N", "p04", 19600, 0),
    ]
    assert [(h["version"], h["status"]) for h in t11["history"]] == [(1, "confirmed"), (2, "draft")]
    assert t11["history"][0]["entered_by"] == "desk1"
    assert t11["history"][0]["confirmed_by"] == "desk2"
    assert t11["history"][0]["entered_at"][-6] in "+-"  # ISO 8601 with an offset
    assert t11["history"][1]["note"] == "W and N swapped?"
    t12 = s1["tables"][1]
    assert [s["score"] for s in t12["seats"]] == [32000, 31000, 29000, 28000]
    assert [(h["version"], h["status"]) for h in t12["history"]] == [
        (1, "superseded"),
        (2, "confirmed"),
    ]
    t21, t22 = s2["tables"]
    assert "seed" not in s2
    assert t21["seats"][3] == {
        "wind": "N",
        "player": "s01",
        "score": 50000,
        "chombo": 0,
        "replaces": "p08",
        "joined": "during",
    }
    assert "replaces" not in t21["seats"][0] and "joined" not in t21["seats"][0]
    assert t22["status"] == "draft"
    assert [s["score"] for s in t22["seats"]] == [40000, 30000, 30000, 20000]
    # JSON through and through, non-ASCII kept as it is.
    text = dumps(data)
    assert "Łódź" in text and json.loads(text) == data


def test_a_table_without_results_has_no_score_keys():
    t = Tournament.objects.create(name="Empty", slug="empty", ruleset="ema-2012")
    players = [Player.objects.create(tournament=t, key=f"p{n}", name=f"P{n}") for n in range(4)]
    session = Session.objects.create(tournament=t, number=1)
    add_table(session, players)
    data = export_tournament(t)
    table = data["sessions"][0]["tables"][0]
    assert "history" not in table and "status" not in table
    assert all(set(seat) == {"wind", "player"} for seat in table["seats"])
    assert "start_date" not in data["tournament"]


# --- round trips ------------------------------------------------------------------------------


def test_riichi_round_trip_into_a_fresh_database_state():
    t = build_riichi()
    data = export_tournament(t)
    text = dumps(data)
    before_feed = feed_without_slug(t)
    before_versions = result_versions(t)
    before_seating = seating(t)
    assert before_feed["sessions_played"] == 2
    assert len(before_versions) == 6

    wipe(t)
    assert not Tournament.objects.exists()

    importer = make_user("importer")
    copy_ = import_tournament(text.encode("utf-8"), user=importer)
    assert copy_.slug == "lodz-2026"
    assert copy_.revision > 0
    assert feed_without_slug(copy_) == before_feed
    assert result_versions(copy_) == before_versions
    assert seating(copy_) == before_seating
    # Exporting again gives the same file.
    assert export_tournament(copy_) == data
    # Every row went through save(), so django-simple-history has them, by the importer.
    assert Player.history.filter(tournament_id=copy_.pk).count() == 9
    assert Seat.history.filter(session__tournament=copy_).count() == 16
    assert Table.history.filter(session__tournament=copy_).count() == 4
    assert set(
        Player.history.filter(tournament_id=copy_.pk).values_list(
            "history_user__username", flat=True
        )
    ) == {"importer"}


def test_riichi_round_trip_beside_the_original_with_another_slug():
    t = build_riichi()
    data = export_tournament(t)
    data["tournament"]["slug"] = "lodz-2026-copy"
    copy_ = import_tournament(data)
    assert copy_.slug == "lodz-2026-copy"
    assert feed_without_slug(copy_) == feed_without_slug(t)
    assert result_versions(copy_) == result_versions(t)
    assert seating(copy_) == seating(t)
    assert without_slug(export_tournament(copy_)) == without_slug(export_tournament(t))


def test_history_users_missing_on_this_desk_are_kept_in_the_note():
    t = build_riichi()
    data = export_tournament(t)
    wipe(t)
    User.objects.filter(username__in=["desk1", "desk2"]).delete()

    copy_ = import_tournament(data)
    result = Result.objects.get(
        table__session__tournament=copy_, table__number=1, table__session__number=1, version=2
    )
    assert result.entered_by is None
    assert result.note == "W and N swapped? [imported: entered by desk1]"
    confirmed = Result.objects.get(
        table__session__tournament=copy_, table__number=2, table__session__number=1, version=2
    )
    assert confirmed.note == "typo in S [imported: entered by desk2; confirmed by desk1]"
    # ... and the next export names them again, so nothing is lost on the way back.
    assert export_tournament(copy_) == data


def test_without_history_the_importing_user_enters_and_confirms():
    data = readme_example()
    user = make_user("director")
    t = import_tournament(data, user=user)
    result = Result.objects.get(table__session__tournament=t)
    assert (result.version, result.status) == (1, "confirmed")
    assert result.entered_by == user and result.confirmed_by == user
    assert result.entered_at is not None and result.confirmed_at is not None


SICHUAN = {
    "format": "mahjong-tournament",
    "version": 1,
    "tournament": {
        "name": "Sichuan Cup",
        "slug": "sichuan-cup",
        "ruleset": "sbr-2025",
        "rules": {},
        "sessions": 2,
        "fee": 25,
    },
    "players": [{"key": f"q{n}", "name": f"Player Q{n}"} for n in range(1, 7)],
    "sessions": [
        {
            "number": 1,
            "tables": [
                {
                    "number": 1,
                    "seats": [
                        {"wind": "E", "player": "q1", "score": 20, "chombo": 0},
                        {"wind": "S", "player": "q2", "score": -5, "chombo": 0},
                        {"wind": "W", "player": "q3", "score": -10, "chombo": 0},
                        {"wind": "N", "player": "q4", "score": -5, "chombo": 0},
                    ],
                },
                {  # awarded: two players, no game
                    "number": 2,
                    "seats": [{"wind": "E", "player": "q5"}, {"wind": "S", "player": "q6"}],
                },
            ],
        },
        {
            "number": 2,
            "tables": [
                {
                    "number": 1,
                    "seats": [
                        {"wind": "E", "player": "q1", "score": 12, "chombo": 0},
                        {"wind": "S", "player": "q5", "score": -4, "chombo": 0},
                        {"wind": "W", "player": "q3", "score": -8, "chombo": 0},
                    ],
                },
                {
                    "number": 2,
                    "seats": [
                        {"wind": "E", "player": "q2", "score": 0, "chombo": 0},
                        {"wind": "S", "player": "q4", "score": 0, "chombo": 0},
                        {"wind": "W", "player": "q6", "score": 0, "chombo": 0},
                    ],
                },
            ],
        },
    ],
    "penalties": [],
    "appeals": [],
}


def test_sichuan_three_player_and_awarded_tables_round_trip():
    t = import_tournament(copy.deepcopy(SICHUAN))
    assert t.rule_set().game == "sichuan"
    awarded = Table.objects.get(session__tournament=t, session__number=1, number=2)
    assert awarded.seats.count() == 2 and not awarded.results.exists()
    three = Table.objects.get(session__tournament=t, session__number=2, number=1)
    assert sorted(three.seats.values_list("wind", flat=True)) == ["E", "S", "W"]

    data = export_tournament(t)
    for session in data["sessions"]:
        for table in session["tables"]:
            table.pop("history", None)
        session.pop("method")
    for player in data["players"]:
        assert player["status"] == "active" and player["checked_in"] is False
    assert data["sessions"] == SICHUAN["sessions"]

    standing = {row["player"]["key"]: row for row in feed(t)["standings"]}
    q5 = standing["q5"]["sessions"][0]
    assert (q5["session"], q5["uma"], q5["place"]) == (1, 3, None)  # awarded 3 TP
    assert standing["q1"]["total"] == 8  # 4 TP twice

    again = copy.deepcopy(export_tournament(t))
    again["tournament"]["slug"] = "sichuan-cup-2"
    copy_ = import_tournament(json.dumps(again))
    assert feed_without_slug(copy_) == feed_without_slug(t)
    assert seating(copy_) == seating(t)
    assert result_versions(copy_) == result_versions(t)


def readme_example():
    """The example of docs/formats.md with the players its seats name and the session 2 its
    second penalty names (no tables yet: p04's misconduct is a line of its own)."""
    return {
        "format": "mahjong-tournament",
        "version": 1,
        "tournament": {
            "name": "Kraków Riichi Open 2026",
            "slug": "krakow-2026",
            "ruleset": "ema-2012",
            "rules": {},
            "sessions": 8,
            "fee": 40,
            "start_date": "2026-02-17",
        },
        "players": [
            {
                "key": "p01",
                "name": "Anna Nowak",
                "ema_id": "07000123",
                "country": "PL",
                "club": "Kraków Riichi",
                "team": "",
                "substitute": False,
                "status": "active",
            },
            {"key": "p02", "name": "Piotr Kowalski"},
            {"key": "p03", "name": "Jan Wiśniewski"},
            {"key": "p04", "name": "Ewa Zielińska"},
            {"key": "s01", "name": "Marta Rezerwowa", "substitute": True},
        ],
        "sessions": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": [
                            {"wind": "E", "player": "p01", "score": 45300, "chombo": 0},
                            {"wind": "S", "player": "p02", "score": 30100},
                            {
                                "wind": "W",
                                "player": "s01",
                                "score": 25000,
                                "replaces": "p03",
                                "joined": "start",
                            },
                            {"wind": "N", "player": "p04", "score": 19600},
                        ],
                    },
                ],
            },
            {"number": 2, "tables": []},
        ],
        "penalties": [
            {"session": 1, "player": "p02", "kind": "late", "minutes": 4},
            {
                "session": 2,
                "player": "p04",
                "kind": "misconduct",
                "amount": -8000,
                "note": "loud",
            },
        ],
        "appeals": [
            {
                "session": 1,
                "table": 1,
                "appellant": "p02",
                "filed_at": "2026-02-17T12:20:00+01:00",
                "subject": "ruling on a late call",
                "deposit": 80,
                "status": "rejected",
                "decision": "ruling stands",
                "decided_by": "head referee",
            }
        ],
    }


def test_the_readme_example_imports():
    t = import_tournament(json.dumps(readme_example(), ensure_ascii=False).encode("utf-8"))
    assert (t.name, t.slug, t.ruleset, t.rules) == (
        "Kraków Riichi Open 2026",
        "krakow-2026",
        "ema-2012",
        {},
    )
    assert (t.planned_sessions, t.fee, t.start_date) == (8, Decimal(40), date(2026, 2, 17))
    anna = t.players.get(key="p01")
    assert (anna.ema_id, anna.country, anna.club) == ("07000123", "PL", "Kraków Riichi")
    assert t.players.get(key="s01").substitute
    seat = Seat.objects.get(session__tournament=t, wind="W")
    assert (seat.player.key, seat.replaces.key, seat.joined) == ("s01", "p03", "start")
    scores = ResultScore.objects.filter(result__table__session__tournament=t)
    assert sorted(scores.values_list("wind", "score", "chombo")) == [
        ("E", 45300, 0),
        ("N", 19600, 0),
        ("S", 30100, 0),
        ("W", 25000, 0),
    ]
    rows = {row["player"]["key"]: row for row in feed(t)["standings"]}
    assert rows["p01"]["total"] == 45300 - 30000 + 30000
    assert rows["p03"]["total"] == -30000  # replaced: 0 points and −30,000


def test_the_slug_is_derived_from_the_name_when_absent():
    data = readme_example()
    del data["tournament"]["slug"]
    assert import_tournament(data).slug == "krakow-riichi-open-2026"
    data = readme_example()
    del data["tournament"]["slug"]
    assert import_tournament(data).slug == "krakow-riichi-open-2026-2"


def test_rule_changes_travel_with_the_file():
    t = build_riichi()
    director = make_user("dir")
    RuleChange.objects.create(
        tournament=t,
        changed_by=director,
        old_ruleset="ema-2012",
        old_rules={},
        new_ruleset="ema-2012",
        new_rules=t.rules,
        reason="chombo after uma, as announced",
    )
    data = export_tournament(t)
    assert data["rule_changes"][0]["changed_by"] == "dir"
    wipe(t)
    copy_ = import_tournament(data)
    assert export_tournament(copy_) == data


# --- refusals ---------------------------------------------------------------------------------


def base_file():
    return {
        "format": "mahjong-tournament",
        "version": 1,
        "tournament": {"name": "Small Open", "slug": "small", "ruleset": "ema-2012"},
        "players": [
            {"key": "p1", "name": "One"},
            {"key": "p2", "name": "Two"},
            {"key": "p3", "name": "Three"},
            {"key": "p4", "name": "Four", "ema_id": "12345678"},
            {"key": "s1", "name": "Sub", "substitute": True},
        ],
        "sessions": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": [
                            {"wind": "E", "player": "p1", "score": 45300, "chombo": 1},
                            {"wind": "S", "player": "p2", "score": 30100},
                            {"wind": "W", "player": "p3", "score": 25000},
                            {"wind": "N", "player": "p4", "score": 19600},
                        ],
                    }
                ],
            }
        ],
        "penalties": [],
        "appeals": [],
    }


def test_the_base_file_imports():
    assert import_tournament(base_file()).slug == "small"


def edit(change):
    def make():
        data = base_file()
        change(data)
        return data

    return make


def seats(data):
    return data["sessions"][0]["tables"][0]["seats"]


def table(data):
    return data["sessions"][0]["tables"][0]


def second_table(data, players=("p1", "p2", "p3", "p4")):
    data["sessions"][0]["tables"].append(
        {"number": 2, "seats": [{"player": key} for key in players]}
    )


def sichuan(data):
    data["tournament"]["ruleset"] = "sbr-2025"
    for seat, score in zip(seats(data), [20, -5, -10, -5], strict=True):
        seat["score"] = score


def with_history(data, **changes):
    rows = [
        {
            "wind": s["wind"],
            "player": s["player"],
            "score": s["score"],
            "chombo": s.get("chombo", 0),
        }
        for s in seats(data)
    ]
    version = {
        "version": 1,
        "status": "confirmed",
        "entered_by": "someone",
        "entered_at": "2026-02-17T12:00:00+01:00",
        "scores": rows,
    }
    version.update(changes)
    table(data)["history"] = [version]


BAD = [
    (lambda: b"{not json", "not valid JSON"),
    (lambda: b'{"format": "mahjong-tournament", "name": "\xff"}', "not UTF-8"),
    (lambda: "[1, 2]", "one JSON object"),
    (lambda: '{"format": "mahjong-tournament", "version": NaN}', "NaN is not a number"),
    (edit(lambda d: d.update(format="tournament")), 'format: "tournament" is not'),
    (edit(lambda d: d.pop("format")), "format: null is not"),
    (edit(lambda d: d.update(version=2)), "version: version 2 is not supported"),
    (edit(lambda d: d.update(version="1")), 'version: version "1" is not supported'),
    (edit(lambda d: d["tournament"].update(ruleset="mcr")), "tournament.ruleset: Unknown rule set"),
    # Issue 22: a list was a 500 (TypeError), not a message.
    (edit(lambda d: d["tournament"].update(ruleset=["ema-2012"])),
     "tournament.ruleset: Unknown rule set ['ema-2012']"),
    (edit(lambda d: d["tournament"].pop("ruleset")), "tournament.ruleset: is required"),
    (edit(lambda d: d["tournament"].update(rules={"uma": [1, 2]})),
     "tournament.rules.uma: Must be a list of 4 numbers"),
    (edit(lambda d: d["tournament"].update(rules={"colour": "red"})),
     "tournament.rules.colour: Unknown rule field"),
    (edit(lambda d: d["tournament"].update(rules=[1])), "tournament.rules: Rule overrides must"),
    (edit(lambda d: d["tournament"].update(name=" ")), "tournament.name: is required"),
    (edit(lambda d: d["tournament"].update(slug="a b")), 'tournament.slug: "a b" is not a slug'),
    (edit(lambda d: d["tournament"].update(fee=-1)), "tournament.fee: -1 is not an amount"),
    (edit(lambda d: d["tournament"].update(fee=1.234)), "tournament.fee: 1.234 is not an amount"),
    (edit(lambda d: d["tournament"].update(sessions=0)), "tournament.sessions: 0 is not"),
    (edit(lambda d: d["tournament"].update(start_date="17.02.2026")),
     'tournament.start_date: "17.02.2026" is not a date'),
    (edit(lambda d: d["tournament"].update(scope="club")), 'tournament.scope: "club" is not one'),
    (edit(lambda d: d.update(players={})), "players: must be a list"),
    (edit(lambda d: d["players"][1].pop("key")), "players[1].key: is required"),
    (edit(lambda d: d["players"][1].update(key=2)), "players[1].key: must be text, not 2"),
    # Issue 22 (6): no control characters, and a name one can see.
    (edit(lambda d: d["players"][1].update(name="Bell\x07")),
     'players[1].name: "Bell\\u0007" needs a visible character and no control characters'),
    (edit(lambda d: d["players"][1].update(name="\u200b")),
     'players[1].name: "\u200b" needs a visible character and no control characters'),
    (edit(lambda d: d["players"][1].update(team="A\x1bB")),
     'players[1].team: "A\\u001bB" has a control character'),
    # Issue 22 (4): a key is part of the player's public address, /t/<slug>/p/<key>/.
    (edit(lambda d: d["players"][1].update(key="a/b")),
     'players[1].key: "a/b" is not a key: letters, digits and - _ . ~ only'),
    (edit(lambda d: d["players"][1].update(key="..")),
     'players[1].key: ".." is not a key: letters, digits and - _ . ~ only'),
    (edit(lambda d: d["players"][2].update(key="p1")),
     'players[2].key: "p1" is already the key of players[0]'),
    (edit(lambda d: d["players"][2].pop("name")), "players[2].name: is required"),
    (edit(lambda d: d["players"][2].update(name="One")),
     'players[2].name: "One" is already the name of players[0]'),
    (edit(lambda d: d["players"][3].update(ema_id="123")),
     'players[3].ema_id: "123" is not 8 digits'),
    (edit(lambda d: d["players"][3].update(ema_id=7000123)),
     "players[3].ema_id: 7000123 is not 8 digits"),
    (edit(lambda d: d["players"][0].update(status="gone")),
     'players[0].status: "gone" is not one of active, withdrawn, disqualified, excluded'),
    (edit(lambda d: d["players"][0].update(substitute="yes")),
     'players[0].substitute: must be true or false, not "yes"'),
    (edit(lambda d: seats(d)[1].update(player="zz")),
     'sessions[0].tables[0].seats[1].player: "zz" is not the key of a player'),
    (edit(lambda d: seats(d).reverse()),
     'sessions[0].tables[0].seats[0].wind: "N" is out of order'),
    (edit(lambda d: seats(d)[2].update(wind="N")), "seats[2].wind: \"N\" is out of order"),
    (edit(lambda d: seats(d)[3].update(player="p1")),
     'sessions[0].tables[0].seats[3].player: "p1" is already seated in this session at '
     "sessions[0].tables[0].seats[0]"),
    (edit(lambda d: second_table(d)),
     'sessions[0].tables[1].seats[0].player: "p1" is already seated in this session'),
    (edit(lambda d: d["sessions"].append(copy.deepcopy(d["sessions"][0]))),
     "sessions[1].number: session 1 is already sessions[0]"),
    (edit(lambda d: d["sessions"][0].update(number=0)), "sessions[0].number: 0 is not a whole"),
    (edit(lambda d: (second_table(d, ["s1"] * 4), d["sessions"][0]["tables"][1].update(number=1))),
     "sessions[0].tables[1].number: table 1 is already sessions[0].tables[0]"),
    (edit(lambda d: d["sessions"][0]["tables"].append({"number": 2})),
     "sessions[0].tables[1].seats: is required"),
    (edit(lambda d: seats(d).pop()),
     "sessions[0].tables[0].seats: a riichi table has 4 seats, not 3"),
    (edit(lambda d: (sichuan(d), seats(d).append({"player": "s1"}))),
     "sessions[0].tables[0].seats: a Sichuan table has 4 or 3 seats"),
    (edit(lambda d: (sichuan(d), seats(d).pop(), seats(d).pop())),
     "sessions[0].tables[0].seats[0].score: an awarded table (one or two players) has no scores"),
    (edit(lambda d: (sichuan(d), seats(d).pop())),
     "sessions[0].tables[0].seats: The scores add up to 5, 5 too many: they must add up to 0"),
    (edit(lambda d: seats(d)[1].update(score=30000)),
     "sessions[0].tables[0].seats: The scores add up to 119,900, 100 too few: they must add "
     "up to 120,000"),
    (edit(lambda d: (seats(d)[0].update(score=45350), seats(d)[1].update(score=30050))),
     "sessions[0].tables[0].seats[0].score: The score 45,350 is not a multiple of 100"),
    (edit(lambda d: seats(d)[0].update(score="45300")),
     "sessions[0].tables[0].seats[0].score: The score must be a whole number"),
    (edit(lambda d: seats(d)[3].pop("score")),
     "sessions[0].tables[0].seats[3].score: is missing: either every seat"),
    (edit(lambda d: seats(d)[0].update(chombo=-1)), "seats[0].chombo: -1 is not a whole number"),
    (edit(lambda d: seats(d)[0].update(chombo="one")), 'seats[0].chombo: "one" is not a whole'),
    (edit(lambda d: [s.pop("score") for s in seats(d)]),
     "seats[0].chombo: a chombo needs a score on the seat"),
    (edit(lambda d: seats(d)[2].update(player="s1", replaces="p3", joined="late")),
     'sessions[0].tables[0].seats[2].joined: "late" is not one of start, during'),
    (edit(lambda d: seats(d)[2].update(replaces="p9")),
     'sessions[0].tables[0].seats[2].replaces: "p9" is not the key of a player'),
    (edit(lambda d: seats(d)[2].update(player="s1", replaces="p1")),
     'seats[2].replaces: "p1" is already seated or replaced in this session'),
    (edit(lambda d: table(d).update(status="final")),
     'sessions[0].tables[0].status: "final" is not one of draft, confirmed'),
    (edit(lambda d: d.update(penalties={})), "penalties: must be a list"),
    (edit(lambda d: with_history(d, status="draft")),
     "sessions[0].tables[0].status: the table is confirmed but its history's current version 1 "
     "is draft"),
    (edit(lambda d: (with_history(d), seats(d)[0].update(chombo=0))),
     "sessions[0].tables[0].seats: the scores differ from version 1 in the history"),
    (edit(lambda d: (with_history(d), table(d)["history"].append(
        copy.deepcopy(table(d)["history"][0])))),
     "sessions[0].tables[0].history[1].version: version 1 is listed twice"),
    (edit(lambda d: (with_history(d), table(d)["history"].append(
        {**copy.deepcopy(table(d)["history"][0]), "version": 2}))),
     "history[1].status: a table has one confirmed version; version 1 is confirmed too"),
    (edit(lambda d: with_history(d, entered_at="2026-02-17T12:00:00")),
     'history[0].entered_at: "2026-02-17T12:00:00" has no offset from UTC'),
    (edit(lambda d: with_history(d, scores=[])),
     "history[0].scores: must have one score per seat, in the order E, S, W, N"),
    (edit(lambda d: with_history(d, status="archived")),
     'history[0].status: "archived" is not one of draft, confirmed, superseded'),
]  # fmt: skip


@pytest.mark.parametrize(("make", "fragment"), BAD, ids=[f for _m, f in BAD])
def test_bad_files_are_refused_whole(make, fragment):
    Tournament.objects.create(name="Already here", slug="already", ruleset="ema-2012")
    counts = (Tournament.objects.count(), Player.objects.count(), Seat.objects.count())
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(make())
    assert fragment in str(caught.value)
    assert (Tournament.objects.count(), Player.objects.count(), Seat.objects.count()) == counts


def test_a_taken_slug_is_refused():
    import_tournament(base_file())
    with pytest.raises(
        TournamentFileError, match='tournament.slug: a tournament with the slug "small"'
    ):
        import_tournament(base_file())
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("slug", ["people", "club", "new"])
def test_a_slug_of_a_desk_page_is_refused(slug):
    """/desk/people/, /desk/club/ and /desk/new/ are the desk's own pages: a tournament there
    could never be reached (issue 25)."""
    data = base_file()
    data["tournament"]["slug"] = slug
    with pytest.raises(TournamentFileError, match=f'tournament.slug: "{slug}" is the address'):
        import_tournament(data)
    assert Tournament.objects.count() == 0


def test_a_failure_while_creating_leaves_nothing(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ResultScore.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        import_tournament(base_file())
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_unknown_keys_are_ignored():
    data = base_file()
    data["generator"] = "a spreadsheet"
    data["tournament"]["colour"] = "green"
    data["players"][0]["nickname"] = "Uno"
    seats(data)[0]["comment"] = "fast"
    assert import_tournament(data).slug == "small"


# --- management commands ----------------------------------------------------------------------


def test_commands_export_to_a_file_and_import_it(tmp_path):
    t = build_riichi()
    expected = feed_without_slug(t)
    path = tmp_path / "lodz.json"
    call_command("export_tournament", "lodz-2026", "-o", str(path))
    text = path.read_text(encoding="utf-8")
    assert "Łódź" in text and json.loads(text) == export_tournament(t)

    wipe(t)
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert out.getvalue().strip() == "lodz-2026"
    assert feed_without_slug(Tournament.objects.get(slug="lodz-2026")) == expected


def test_export_command_writes_to_stdout():
    import_tournament(base_file())
    out = io.StringIO()
    call_command("export_tournament", "small", stdout=out)
    assert json.loads(out.getvalue())["tournament"]["slug"] == "small"


def test_export_command_refuses_an_unknown_slug():
    with pytest.raises(CommandError, match="nope"):
        call_command("export_tournament", "nope")


def test_import_command_refuses_a_bad_file(tmp_path):
    data = base_file()
    data["players"][3]["ema_id"] = "123"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match='players\\[3\\].ema_id: "123" is not 8 digits'):
        call_command("import_tournament", str(path))
    assert not Tournament.objects.exists()


def test_import_command_records_the_user(tmp_path):
    user = make_user("director")
    path = tmp_path / "small.json"
    path.write_bytes(dumps(base_file()).encode("utf-8"))
    call_command("import_tournament", str(path), "--user", "director", stdout=io.StringIO())
    assert Result.objects.get().entered_by == user
    with pytest.raises(CommandError, match="No user named ghost"):
        call_command("import_tournament", str(path), "--user", "ghost")


# --- penalties, incidents and appeals ---------------------------------------------------------


def line(t, key, session):
    rows = {row["player"]["key"]: row for row in feed(t)["standings"]}
    return next(s for s in rows[key]["sessions"] if s["session"] == session)


def records(data):
    return {
        name: data.get(name) for name in ("penalties", "voided_penalties", "incidents", "appeals")
    }


def test_the_readme_example_imports_with_its_penalties_and_appeal():
    user = make_user("director")
    t = import_tournament(readme_example(), user=user)
    late = line(t, "p02", 1)  # EMA: −1,000 a minute, before placement
    assert (late["table"], late["score"], late["place"], late["penalty"]) == (1, 30100, 2, -4000)
    loud = line(t, "p04", 2)  # no seat in session 2: a line of its own
    assert (loud["table"], loud["penalty"], loud["result"]) == (None, -8000, -8000)
    penalties = Penalty.objects.filter(session__tournament=t).order_by("pk")
    assert [(x.session.number, x.player.key, x.kind, x.minutes, x.amount, x.note) for x in
            penalties] == [(1, "p02", "late", 4, None, ""),
                           (2, "p04", "misconduct", None, Decimal(-8000), "loud")]  # fmt: skip
    assert all(x.recorded_by == user and x.recorded_at and not x.is_void for x in penalties)
    appeal = Appeal.objects.get(tournament=t)
    assert (appeal.session.number, appeal.table.number, appeal.appellant.key) == (1, 1, "p02")
    assert (appeal.status, appeal.decided_by, appeal.deposit) == (
        "rejected",
        "head referee",
        Decimal(80),
    )
    assert appeal.filed_at == datetime(2026, 2, 17, 11, 20, tzinfo=UTC)
    assert appeal.recorded_by == user and appeal.penalty is None
    # ... and it goes out as it came in, with the desk's keys added.
    data = export_tournament(t)
    for row in data["penalties"]:
        assert row.pop("recorded_by") == "director" and row.pop("recorded_at")
    assert data["penalties"] == readme_example()["penalties"]
    appeal = data["appeals"][0]
    assert {k: appeal[k] for k in readme_example()["appeals"][0]} == {
        **readme_example()["appeals"][0],
        "filed_at": "2026-02-17T12:20:00+01:00",
    }


def test_penalties_incidents_and_appeals_round_trip():
    t = rich_tournament()
    data = export_tournament(t)
    text = dumps(data)
    assert json.loads(text) == data
    assert [(r["session"], r["player"], r["kind"]) for r in data["penalties"]] == [
        (1, "p02", "late"),
        (1, "p05", "chombo"),
        (1, "p06", "other"),
        (2, "p04", "misconduct"),
        (2, "p07", "late"),
    ]
    assert data["penalties"][0] == {
        "session": 1,
        "player": "p02",
        "kind": "late",
        "minutes": 4,
        "table": 1,
        "recorded_by": "ref1",
        "recorded_at": data["penalties"][0]["recorded_at"],
    }
    assert datetime.fromisoformat(data["penalties"][0]["recorded_at"]) == at(10, 1)
    assert "amount" not in data["penalties"][1]  # chombo: from the rule set
    assert data["penalties"][2]["amount"] == -500 and data["penalties"][2]["stage"] == "before"
    assert data["penalties"][4]["amount"] == -2000 and "minutes" not in data["penalties"][4]
    (void,) = data["voided_penalties"]
    assert (void["player"], void["amount"], void["voided_by"], void["void_reason"]) == (
        "p03",
        -12000,
        "dir1",
        "it was p04",
    )
    assert (
        data["sessions"][0]["ended_at"]
        == at(14)
        .astimezone(datetime.fromisoformat(data["sessions"][0]["ended_at"]).tzinfo)
        .isoformat()
    )
    assert "ended_at" not in data["sessions"][1]
    note, substitution, disqualification = data["incidents"]
    assert substitution["undo"] == {
        "seat": {"session": 2, "table": 1, "wind": "N"},
        "player": "p08",
        "replaces": None,
        "joined": "start",
        "now": "s01",
    }
    assert (note["kind"], note["voided_by"], note["void_reason"]) == ("note", "dir1", "duplicate")
    assert (disqualification["session"], disqualification["undo"]) == (None, {"status": "active"})
    upheld, rejected, about_sub = data["appeals"]  # in filing order
    assert rejected["penalty"] == 3 and "voided_penalty" not in rejected
    assert upheld["voided_penalty"] == 0 and "penalty" not in upheld
    assert (upheld["deposit"], upheld["deposit_returned"]) == (12.5, True)
    assert about_sub["incident"] == 1 and about_sub["captain"] is True
    assert about_sub["decided_by"] == "" and about_sub["decided_at"] is None

    # The standings count the live penalties only.
    assert line(t, "p02", 1)["penalty"] == -4000 - 20000  # late, and the chombo on the sheet
    assert line(t, "p03", 1)["penalty"] == 0  # the voided −12,000
    assert line(t, "p05", 1)["penalty"] == -20000
    assert line(t, "p04", 2)["penalty"] == -8000
    before_feed = feed_without_slug(t)

    data["tournament"]["slug"] = "lodz-2026-copy"
    copy_ = import_tournament(text.replace('"lodz-2026"', '"lodz-2026-copy"'), user=None)
    assert feed_without_slug(copy_) == before_feed
    again = export_tournament(copy_)
    assert records(again) == records(data)
    assert without_slug(again) == without_slug(data)
    assert penalty_rows(copy_) == penalty_rows(t)
    voided = Penalty.objects.get(session__tournament=copy_, player__key="p03")
    assert voided.is_void and voided.voided_by.username == "dir1"
    assert Appeal.objects.get(tournament=copy_, status="upheld").penalty == voided
    # The undo holds this desk's ids, so voiding the incident puts back the right seat.
    incident = Incident.objects.get(tournament=copy_, kind="substitution")
    seat = Seat.objects.get(session__tournament=copy_, session__number=2, table__number=1, wind="N")
    assert (
        incident.undo["seat"]
        == seat.pk
        != Seat.objects.get(session__tournament=t, session__number=2, table__number=1, wind="N").pk
    )
    assert incident.undo["now"] == copy_.players.get(key="s01").pk
    assert incident.undo["player"] == copy_.players.get(key="p08").pk


def test_every_imported_row_has_its_history_row_by_the_importer():
    """The rows are inserted in bulk (issue 22: a big file held the database too long), and
    django-simple-history still gets what save() gave it: one "created" row each, by the
    importing user."""
    t = rich_tournament()
    data = export_tournament(t)
    data["tournament"]["slug"] = "lodz-2026-copy"
    copy_ = import_tournament(data, user=make_user("importer"))
    imported = {
        Tournament: Tournament.objects.filter(pk=copy_.pk),
        Player: Player.objects.filter(tournament=copy_),
        Session: Session.objects.filter(tournament=copy_),
        Table: Table.objects.filter(session__tournament=copy_),
        Seat: Seat.objects.filter(session__tournament=copy_),
        Penalty: Penalty.objects.filter(session__tournament=copy_),
        Incident: Incident.objects.filter(tournament=copy_),
        Appeal: Appeal.objects.filter(tournament=copy_),
    }
    for model, rows in imported.items():
        ids = sorted(rows.values_list("pk", flat=True))
        assert ids, model
        history = model.history.filter(id__in=ids)
        assert sorted(history.values_list("id", flat=True)) == ids, model
        assert set(
            history.values_list("history_type", "history_user__username", "history_change_reason")
        ) == {("+", "importer", None)}, model
    appeal = Appeal.objects.filter(tournament=copy_, penalty__isnull=False).first()
    assert appeal.history.get().penalty_id == appeal.penalty_id  # the row as inserted


def test_record_users_missing_on_this_desk_are_kept_in_the_note():
    t = rich_tournament()
    data = export_tournament(t)
    wipe(t)
    assert not Penalty.objects.exists() and not Appeal.objects.exists()
    User.objects.filter(username__in=["ref1", "dir1"]).delete()
    importer = make_user("importer")

    copy_ = import_tournament(data, user=importer)
    voided = Penalty.objects.get(session__tournament=copy_, player__key="p03")
    assert voided.recorded_by is None and voided.voided_by is None
    assert voided.note == "wrong player [imported: recorded by ref1; voided by dir1]"
    late = Penalty.objects.get(session__tournament=copy_, player__key="p02")
    assert late.note == "[imported: recorded by ref1]"
    appeal = Appeal.objects.get(tournament=copy_, status="rejected")
    assert appeal.text == "I was quiet [imported: recorded by ref1]"
    assert export_tournament(copy_) == data


def sbr_with_minors():
    """SICHUAN with q2's minor violations in session 1: three live ones around a void one, and
    one with an explicit amount; an incident of a table gone three-handed in session 2."""
    data = copy.deepcopy(SICHUAN)

    def minor(**fields):
        return {"session": 1, "player": "q2", "kind": "minor", **fields}

    data["penalties"] = [  # fmt: skip
        minor(recorded_at="2026-03-01T10:00:00+01:00"),
        minor(recorded_at="2026-03-01T10:10:00+01:00"),
        {
            "session": 1,
            "player": "q1",
            "kind": "late",
            "minutes": 12,
            "table": 1,
            "recorded_at": "2026-03-01T10:15:00+01:00",
        },
        minor(recorded_at="2026-03-01T10:20:00+01:00"),
        minor(recorded_at="2026-03-01T10:30:00+01:00", amount=-1.5, note="by the head referee"),
        {
            "session": 2,
            "player": "q4",
            "kind": "other",
            "amount": -1,
            "recorded_at": "2026-03-01T11:00:00+01:00",
        },
    ]
    data["voided_penalties"] = [
        minor(
            recorded_at="2026-03-01T10:05:00+01:00",
            voided_at="2026-03-01T10:06:00+01:00",
            void_reason="not a violation",
        )
    ]
    data["incidents"] = [
        {
            "kind": "three_handed",
            "session": 2,
            "table": 1,
            "player": "q4",
            "text": "q4 more than 15 minutes late",
            "undo": {"table": {"session": 2, "table": 1},
                     "winds": {"q1": "E", "q5": "S", "q3": "W", "q4": "N"}},
        }
    ]  # fmt: skip
    data["appeals"] = [
        {
            "session": 1,
            "appellant": "q2",
            "filed_at": "2026-03-01T10:40:00+01:00",
            "subject": "the amount of the last minor violation",
            "penalty": 4,
            "status": "under_review",
        }
    ]
    return data


def test_sbr_minor_violations_count_by_their_order_and_round_trip():
    importer = make_user("importer")
    t = import_tournament(sbr_with_minors(), user=importer)
    rows = [(r.session, r.player, r.amount, r.stage, r.kind) for r in penalty_rows(t)]
    # Scale 0, −2, −4, ...: the nth costs the step from the (n−1)th; the void one does not count.
    assert rows == [
        (1, "q2", 0, "before", "minor"),
        (1, "q2", -2, "before", "minor"),
        (1, "q1", -16, "before", "late"),  # 10 to 15 minutes: −16 GP
        (1, "q2", -2, "before", "minor"),
        (1, "q2", -1.5, "before", "minor"),  # an explicit amount wins
        (2, "q4", -1, "after", "other"),  # no stage in the file: after placement
    ]
    assert Penalty.objects.get(session__tournament=t, voided_at__isnull=False).player.key == "q2"
    incident = Incident.objects.get(tournament=t)
    table = Table.objects.get(session__tournament=t, session__number=2, number=1)
    assert incident.undo["table"] == table.pk
    assert incident.undo["winds"] == {
        str(t.players.get(key=key).pk): wind
        for key, wind in zip(["q1", "q5", "q3", "q4"], WINDS, strict=True)
    }
    assert Appeal.objects.get(tournament=t).penalty.note == "by the head referee"

    data = export_tournament(t)
    assert [r.get("amount") for r in data["penalties"]] == [None, None, None, None, -1.5, -1]
    assert data["penalties"][5]["stage"] == "after"
    assert data["incidents"][0]["undo"] == sbr_with_minors()["incidents"][0]["undo"]
    assert data["appeals"][0]["penalty"] == 4
    data["tournament"]["slug"] = "sichuan-cup-2"
    copy_ = import_tournament(data, user=importer)
    assert feed_without_slug(copy_) == feed_without_slug(t)
    assert penalty_rows(copy_) == penalty_rows(t)
    assert without_slug(export_tournament(copy_)) == without_slug(export_tournament(t))


def penalty(**fields):
    return {"session": 1, "player": "p2", "kind": "late", "minutes": 4, **fields}


def appeal(**fields):
    return {
        "session": 1,
        "appellant": "p2",
        "filed_at": "2026-02-17T12:20:00+01:00",
        "subject": "a ruling",
        "status": "filed",
        **fields,
    }


def records_of(**lists):
    return edit(lambda d: d.update(lists))


def sbr_records(**lists):
    def make():
        data = copy.deepcopy(SICHUAN)
        data.update(lists)
        return data

    return make


BAD_RECORDS = [
    (records_of(penalties=[penalty(player="zz")]),
     'penalties[0].player: "zz" is not the key of a player'),
    (records_of(penalties=[penalty(kind="yellow card")]),
     'penalties[0].kind: "yellow card" is not one of late, misconduct, minor, chombo, other'),
    (records_of(penalties=[penalty(kind=None)]), "penalties[0].kind: is required"),
    (records_of(penalties=[penalty(minutes=None)]),
     "penalties[0].minutes: is required for a late arrival"),
    (records_of(penalties=[penalty(minutes=0)]),
     "penalties[0].minutes: 0 is not a whole number from 1"),
    (records_of(penalties=[penalty(minutes=4.5)]),
     "penalties[0].minutes: 4.5 is not a whole number from 1"),
    (records_of(penalties=[penalty(kind="misconduct", amount=-9000)]),
     "penalties[0].amount: A misconduct penalty here is one of: -8000, -12000; -12000 to -48000"),
    (records_of(penalties=[penalty(), penalty(kind="misconduct", amount=-50000)]),
     "penalties[1].amount: A misconduct penalty here is one of"),
    (records_of(penalties=[penalty(kind="misconduct", amount=8000)]),
     "penalties[0].amount: A penalty is zero or negative, not 8,000."),
    (records_of(penalties=[penalty(kind="other", amount=5, stage="after")]),
     "penalties[0].amount: A penalty is zero or negative, not 5."),
    (records_of(penalties=[penalty(kind="misconduct")]),
     "penalties[0].amount: Choose the misconduct penalty's amount."),
    (records_of(penalties=[penalty(kind="misconduct", amount="-8000")]),
     'penalties[0].amount: "-8000" is not a number with at most two decimals'),
    (records_of(penalties=[penalty(kind="other", amount=-1.234)]),
     "penalties[0].amount: -1.234 is not a number with at most two decimals"),
    (records_of(penalties=[penalty(kind="other", amount=-1, stage="during")]),
     'penalties[0].stage: "during" is not one of before, after'),
    (records_of(penalties=[penalty(kind="chombo")]),
     "penalties[0].kind: In this rule set chombo is paid at the table"),
    (records_of(penalties=[penalty(kind="minor")]),
     "penalties[0].kind: This rule set has no progressive scale"),
    (records_of(penalties=[penalty(session=2)]),
     "penalties[0].session: 2 is not the number of a session in this file"),
    (records_of(penalties=[penalty(session=None)]), "penalties[0].session: is required"),
    (records_of(penalties=[penalty(table=2)]),
     "penalties[0].table: 2 is not the number of a table of session 1 in this file"),
    (records_of(penalties=[penalty(recorded_at="10:00")]),
     'penalties[0].recorded_at: "10:00" is not a time like'),
    (records_of(penalties=[penalty(recorded_by="no one")]),
     'penalties[0].recorded_by: "no one" is not a user name'),
    (records_of(penalties=[penalty(voided_at="2026-02-17T12:20:00+01:00")]),
     "penalties[0].voided_at: a void penalty belongs in voided_penalties"),
    (records_of(penalties=["late"]), 'penalties[0]: must be an object, not "late"'),
    (records_of(voided_penalties=[penalty()]),
     "voided_penalties[0].voided_at: is required for a void record"),
    (records_of(voided_penalties=[penalty(player="zz", voided_at="2026-02-17T12:20:00+01:00")]),
     'voided_penalties[0].player: "zz" is not the key of a player'),
    (sbr_records(penalties=[
        {"session": 1, "player": "q2", "kind": "minor", "recorded_at": "2026-03-01T10:10:00Z"},
        {"session": 1, "player": "q2", "kind": "minor", "recorded_at": "2026-03-01T10:00:00Z"},
    ]), "penalties[1].recorded_at: is earlier than penalties[0], a minor violation"),
    (records_of(appeals=[appeal(status="pending")]),
     'appeals[0].status: "pending" is not one of filed, under_review, upheld, rejected'),
    (records_of(appeals=[appeal(filed_at="17.02.2026 12:20")]),
     'appeals[0].filed_at: "17.02.2026 12:20" is not a time like 2026-02-17T12:20:00+01:00'),
    (records_of(appeals=[appeal(filed_at="2026-02-17T12:20:00")]),
     'appeals[0].filed_at: "2026-02-17T12:20:00" has no offset from UTC'),
    (records_of(appeals=[appeal(filed_at=None)]), "appeals[0].filed_at: is required"),
    (records_of(appeals=[appeal(deposit=-80)]), "appeals[0].deposit: -80 is not an amount"),
    (records_of(appeals=[appeal(decided_by="judge")]),
     'appeals[0].decided_by: "judge" is not one of head referee, arbitration committee, '
     "organisers' committee"),
    (records_of(appeals=[appeal(appellant="zz")]),
     'appeals[0].appellant: "zz" is not the key of a player'),
    (records_of(appeals=[appeal(session=3)]),
     "appeals[0].session: 3 is not the number of a session in this file"),
    (records_of(appeals=[appeal(penalty=0)]),
     "appeals[0].penalty: 0: the file's penalties is empty"),
    (records_of(penalties=[penalty()], appeals=[appeal(penalty=1)]),
     "appeals[0].penalty: 1 is not the index of an entry of penalties (0 to 0)"),
    (records_of(appeals=[appeal(deposit_returned="yes")]),
     'appeals[0].deposit_returned: must be true or false, not "yes"'),
    (records_of(incidents=[{"kind": "fight"}]),
     'incidents[0].kind: "fight" is not one of note, substitution, three_handed, '
     "disqualification"),
    (records_of(incidents=[{"kind": "note", "table": 1}]),
     "incidents[0].table: a table needs the session it belongs to"),
    (records_of(incidents=[{"kind": "substitution", "undo": {"now": "zz"}}]),
     'incidents[0].undo.now: "zz" is not the key of a player'),
    (records_of(incidents=[{"kind": "substitution",
                            "undo": {"seat": {"session": 1, "table": 1, "wind": "X"}}}]),
     'incidents[0].undo.seat.wind: "X" is not a seat of table 1 of session 1'),
    (records_of(incidents=[{"kind": "note", "voided_by": "dir1"}]),
     "incidents[0].voided_at: is required for a void record"),
]  # fmt: skip


def row_counts():
    return tuple(
        model.objects.count()
        for model in (Tournament, Player, Session, Table, Seat, Result, Penalty, Incident, Appeal)
    )


@pytest.mark.parametrize(("make", "fragment"), BAD_RECORDS, ids=[f for _m, f in BAD_RECORDS])
def test_bad_penalties_incidents_and_appeals_are_refused_whole(make, fragment):
    import_tournament(readme_example())  # something already there, penalties and appeal too
    counts = row_counts()
    assert counts[-3:] == (2, 0, 1)
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(make())
    assert fragment in str(caught.value)
    assert row_counts() == counts


def test_late_past_the_limit_and_an_explicit_late_amount_import():
    data = base_file()
    data["penalties"] = [penalty(minutes=11), penalty(player="p3", minutes=None, amount=-2500)]
    t = import_tournament(data)
    rows = penalty_rows(t)
    assert [(r.player, r.amount, r.fixed) for r in rows] == [("p2", 0, True), ("p3", -2500, False)]


# --- the session clock travels with the file ------------------------------------------------


def clock_of(**changes):
    def change(data):
        data["sessions"][0]["clock"] = {
            "length_seconds": 4500,
            "warning_seconds": 600,
            "events": [
                {"kind": "start", "at": "2026-02-17T10:00:00+01:00", "by": "desk1"},
                {"kind": "adjust", "at": "2026-02-17T10:30:00+01:00", "seconds": 300},
                {
                    "kind": "adjust",
                    "at": "2026-02-17T11:00:00+01:00",
                    "seconds": 120,
                    "table": 1,
                    "by": "desk1",
                },
            ],
            **changes,
        }

    return edit(change)


def test_the_session_clock_round_trips():
    make_user("desk1")
    t = import_tournament(clock_of()())
    session = t.sessions.get()
    assert (session.length_seconds, session.warning_seconds) == (4500, 600)
    events = list(session.clock_events.values_list("kind", "seconds", "table", "by__username"))
    assert events == [
        ("start", 0, None, "desk1"),
        ("adjust", 300, None, None),
        ("adjust", 120, 1, "desk1"),
    ]
    data = export_tournament(t)
    clock = data["sessions"][0]["clock"]
    assert clock["length_seconds"] == 4500
    assert [e["kind"] for e in clock["events"]] == ["start", "adjust", "adjust"]
    assert clock["events"][2] == {
        "kind": "adjust",
        "at": clock["events"][2]["at"],
        "seconds": 120,
        "table": 1,
        "by": "desk1",
    }
    assert datetime.fromisoformat(clock["events"][0]["at"]) == datetime(
        2026, 2, 17, 9, 0, tzinfo=UTC
    )
    wipe(t)
    assert export_tournament(import_tournament(data)) == data


def test_a_session_without_a_clock_has_no_clock_key():
    data = export_tournament(import_tournament(base_file()))
    assert "clock" not in data["sessions"][0]


BAD_CLOCKS = [
    (clock_of(length_seconds="long"), "sessions[0].clock.length_seconds"),
    (clock_of(events=[{"kind": "explode", "at": "2026-02-17T10:00:00+01:00"}]),
     "sessions[0].clock.events[0].kind"),
    (clock_of(events=[{"kind": "start"}]), "sessions[0].clock.events[0].at: is required"),
    (clock_of(events=[{"kind": "pause", "at": "2026-02-17T10:00:00+01:00"}]),
     "sessions[0].clock.events[0]: The clock is not running."),
    (clock_of(events=[{"kind": "start", "at": "2026-02-17T10:00:00+01:00"},
                      {"kind": "pause", "at": "2026-02-17T09:00:00+01:00"}]),
     "sessions[0].clock.events[1].at: the clock's events must be in time order"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "fragment"), BAD_CLOCKS, ids=[f for _m, f in BAD_CLOCKS])
def test_bad_clocks_are_refused_whole(make, fragment):
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(make())
    assert fragment in str(caught.value)
    assert not Tournament.objects.exists()


def test_the_files_text_is_the_standard_librarys_indented_json():
    """dumps writes with orjson (a backup after every change): the same text as the standard
    library's json.dumps(indent=2, ensure_ascii=False), names in any script and a note's control
    characters included; a value orjson refuses (an integer beyond 64 bits) is still written."""
    t = rich_tournament()
    first = Player.objects.filter(tournament=t).order_by("pk").first()
    Player.objects.filter(pk=first.pk).update(name="Łukasz Żółć «Ґ» \u2028 🀄")
    Result.objects.filter(table__session__tournament=t).update(note='tab\there "quoted" \\ \x01')
    data = export_tournament(t)
    text = dumps(data)
    assert "Łukasz Żółć «Ґ»" in text and "\\u0001" in text
    assert text == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    data["tournament"]["rules"] = {"huge": 2**70, 7: "a number as a key"}
    assert dumps(data) == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
