"""The public-only file (publishing.public_file, issue 38): what a hall sends its federation
server is what the hall's public pages show, and it still imports with the same public
standings."""

import copy
import datetime

import pytest
from django.contrib.auth import get_user_model

from archive.club_file import export_club, restore_club
from archive.tournament_file import dumps, export_tournament, import_tournament
from club.models import Club, GameScore, GameSeat, Presence
from club.selectors import rated_games, rating
from club.services import (
    add_member,
    check_in,
    close_season,
    confirm_game,
    evening_on,
    record_game,
    save_club,
    save_season,
)
from people.models import Person
from publishing.public_file import (
    PUBLIC_USER,
    public_club_file,
    public_of_tournament_file,
    public_tournament_file,
)
from scoring.selectors import hand_statistics, public_standings, released_sessions
from scoring.services.typed import record_hands
from seating.services import add_table
from tests.support.factories import user
from tests.support.hands import RIICHI_HANDS
from tests.support.tournaments import make_user, rich_tournament
from tournament.changes import touch
from tournament.models import Session, Tournament

pytestmark = pytest.mark.django_db

USER_KEYS = {
    "entered_by",
    "confirmed_by",
    "recorded_by",
    "voided_by",
    "finished_by",
    "reopened_by",
    "winds_drawn_by",
    "changed_by",
    "closed_by",
    "created_by",
    "by",
}


def played():
    """rich_tournament (confirmed results, a correction waiting over a confirmed result, a
    draft-only table, penalties, a voided one, incidents, appeals) with a third session whose
    table is in play: hands recorded, no result."""
    t = rich_tournament()
    s3 = Session.objects.create(tournament=t, number=3)
    p = {x.key: x for x in t.players.all()}
    table = add_table(s3, [p["p01"], p["p02"], p["p03"], p["p04"]])
    record_hands(table, RIICHI_HANDS[:2], make_user("desk3"))
    touch(t.pk)
    return Tournament.objects.get(pk=t.pk)


def user_names(value, path=""):
    """(path, name) of every user name the file holds."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in USER_KEYS and item is not None:
                found.append((f"{path}.{key}", item))
            found += user_names(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += user_names(item, f"{path}[{i}]")
    return found


def tables(data):
    return {(s["number"], t["number"]): t for s in data["sessions"] for t in s["tables"]}


def test_what_is_left_out_of_a_tournament():
    t = played()
    full, public = export_tournament(t), public_tournament_file(t)
    # The referee's records the public pages never show: every one of them.
    assert full["incidents"] and full["appeals"] and full["voided_penalties"]
    assert public["incidents"] == public["appeals"] == public["voided_penalties"] == []
    assert public["rule_changes"] == []
    # Live penalties: kept, without notes or who recorded them.
    assert len(public["penalties"]) == len(full["penalties"]) == 5
    assert {"note", "recorded_by"} & {k for p in public["penalties"] for k in p} == set()
    assert [p["recorded_at"] for p in public["penalties"]] == [
        p["recorded_at"] for p in full["penalties"]
    ]
    # No user name anywhere, no desk note, no history.
    assert user_names(full) and user_names(public) == []
    assert "W and N swapped?" in dumps(full) and "W and N swapped?" not in dumps(public)
    assert "typo in S" not in dumps(public) and "I was quiet" not in dumps(public)
    assert "p08 ill" not in dumps(public) and "phone rang" not in dumps(public)
    full_tables, public_tables = tables(full), tables(public)
    assert all("history" not in x for x in public_tables.values())
    # 1/1: confirmed, a correction waits as a draft: the public sees the confirmed scores.
    assert [s["score"] for s in public_tables[1, 1]["seats"]] == [45300, 30100, 25000, 19600]
    assert [s["chombo"] for s in public_tables[1, 1]["seats"]] == [0, 1, 0, 0]
    assert "status" not in public_tables[1, 1]
    # 2/2: a draft only: no score, no status.
    assert full_tables[2, 2]["status"] == "draft"
    assert public_tables[2, 2]["seats"] == [
        {k: v for k, v in s.items() if k not in ("score", "chombo")}
        for s in full_tables[2, 2]["seats"]
    ]
    assert "status" not in public_tables[2, 2]
    # 3/1: in play: its hands, as the public statistics count them.
    assert public_tables[3, 1]["status"] == "playing"
    assert public_tables[3, 1]["hands"] == full_tables[3, 1]["hands"]
    assert "hands_confirmed" not in public_tables[3, 1]
    # The rest of the file is the tournament file itself.
    assert public["players"] == full["players"]
    assert public["tournament"] == full["tournament"]


def test_a_session_not_released_shows_its_seats_only():
    """release_by_session: session 2 has a draft table, so the public sees none of its results
    (scoring.selectors.released_sessions), its penalties included; session 3 is in play."""
    t = played()
    Tournament.objects.filter(pk=t.pk).update(release_by_session=True)
    t.refresh_from_db()
    assert released_sessions(t) == {1}
    public = public_tournament_file(t)
    for (session, _n), table in tables(public).items():
        if session == 1:
            continue
        assert "hands" not in table and "status" not in table
        assert all("score" not in s and "chombo" not in s for s in table["seats"])
    assert {p["session"] for p in public["penalties"]} == {1}
    assert len(public["penalties"]) == 3


def test_the_filter_changes_nothing_it_need_not():
    data = {
        "tournament": {"name": "x"},
        "sessions": [{"number": 1, "tables": []}],
        "penalties": [],
        "voided_penalties": [],
        "incidents": [],
        "appeals": [],
        "rule_changes": [],
    }
    assert public_of_tournament_file(copy.deepcopy(data), None) == data


def wipe_desk():
    Tournament.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.mark.parametrize("by_session", [False, True])
def test_the_public_file_imports_with_the_halls_public_standings(by_session):
    t = played()
    if by_session:
        Tournament.objects.filter(pk=t.pk).update(release_by_session=True)
        t.refresh_from_db()
    hall = public_standings(t)
    stats = hand_statistics(t, released_sessions(t)).lines
    text = dumps(public_tournament_file(t))
    wipe_desk()  # a fresh database: none of the hall's users or rows
    copy_ = import_tournament(text, user=make_user("federation"))
    assert public_standings(copy_) == hall
    assert hand_statistics(copy_, released_sessions(copy_)).lines == stats
    assert released_sessions(copy_) == ({1} if by_session else None)
    # The imported copy's own public file is the same file: nothing was lost on the way.
    again = public_tournament_file(copy_)
    assert dumps(again) == text


# --- a club rating ------------------------------------------------------------------------------

DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def club():
    """Confirmed games, a correction, a draft-only game, a correction waiting as a draft, an
    evening with check-ins and a closed season."""
    one, two = user("officer1"), user("officer2")
    club = save_club(None, {"name": "Furiten", "slug": "furiten", "min_games": 1}, one)
    people = [Person.objects.create(name=n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve")]
    ann, bob, cat, dan, eve = (add_member(club, p, one, joined_on=DAY) for p in people)
    spring = save_season(
        club, None, "Spring", datetime.date(2026, 3, 1), datetime.date(2026, 5, 31), one
    )

    def play(seats, scores, confirm=True, **kw):
        version = record_game(
            club, [(m, s, 0) for m, s in zip(seats, scores, strict=True)], one, **kw
        )
        return confirm_game(version, two) if confirm else version

    spring_day = datetime.date(2026, 4, 2)
    play([ann, bob, cat, dan], [42300, 31700, 26000, 20000], played_on=spring_day)
    close_season(spring, one)
    first = play([eve, ann, bob, cat], [35000, 30000, 30000, 25000], played_on=DAY)
    play([eve, ann, bob, cat], [25000, 30000, 30000, 35000], game=first.game, base_version=1)
    waiting = play([ann, bob, cat, dan], [40000, 30000, 20000, 10000], played_on=DAY)
    play(
        [ann, bob, cat, dan],
        [10000, 20000, 30000, 40000],
        confirm=False,
        game=waiting.game,
        base_version=1,
        note="officer's doubt",
    )
    play([bob, cat, dan, eve], [30000, 30000, 30000, 30000], confirm=False, played_on=DAY)
    evening = evening_on(club, DAY, one)
    for member in (ann, bob):
        check_in(evening, member, one)
    return Club.objects.get(pk=club.pk)


def test_what_is_left_out_of_a_club(club):
    full, public = export_club(club), public_club_file(club)
    assert {name for _p, name in user_names(public)} == {PUBLIC_USER}
    assert {name for _p, name in user_names(full)} == {"officer1", "officer2"}
    assert all(s["closed_by"] is None for s in public["seasons"])
    assert [e["present"] for e in public["evenings"]] == [[]]
    statuses = [[v["status"] for v in g["versions"]] for g in public["games"]]
    full_statuses = [[v["status"] for v in g["versions"]] for g in full["games"]]
    assert sorted(full_statuses) == sorted(
        [["confirmed"], ["superseded", "confirmed"], ["confirmed", "draft"], ["draft"]]
    )
    assert sorted(statuses) == sorted(
        [["confirmed"], ["superseded", "confirmed"], ["confirmed"], []]
    )
    assert "officer's doubt" not in dumps(public)
    assert public["people"] == full["people"] and public["members"] == full["members"]


def club_pages(club):
    table = rating(club).table
    games = [
        (
            g.played_on,
            g.number,
            g.version,
            [(x.wind, x.person.name, x.score, x.points) for x in g.lines],
        )
        for g in rated_games(club)
    ]
    rows = [(r.rank, r.person.name, r.rating, r.games) for r in (*table.rows, *table.unranked)]
    return rows, games


def test_the_public_club_file_restores_with_the_halls_rating(club):
    hall = club_pages(club)
    text = dumps(public_club_file(club))
    GameScore.objects.all().delete()
    GameSeat.objects.all().delete()
    Presence.objects.all().delete()
    Club.objects.all().delete()
    Person.objects.all().delete()
    get_user_model().objects.all().delete()
    copy_ = restore_club(text).club
    assert club_pages(copy_) == hall
    assert dumps(public_club_file(copy_)) == text
