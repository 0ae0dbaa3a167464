"""A club rating's writes and reads (issue 25): games recorded as they are played, confirmed by
a second officer, and the rating they add up to (seed 001 §13, §7.2; docs/rules.md §2)."""

import datetime

import pytest

from club.models import Game, GameScore, GameVersion
from club.selectors import evening_games, person_club_games, rated_games, rating, rating_book
from club.services import (
    add_member,
    check_in,
    close_season,
    confirm_game,
    draw_evening,
    evening_on,
    record_game,
    save_club,
    save_season,
    set_member_active,
    void_game,
)
from core.errors import ActionRefused, StaleEdit
from core.roles import CLUB_OFFICER, DIRECTOR
from people.models import Person
from people.services import merge_people, split_people
from tests.support.factories import login, user

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def officers():
    return user("officer1"), user("officer2")


@pytest.fixture
def club(officers):
    return save_club(None, {"name": "Furiten", "slug": "furiten"}, officers[0])


@pytest.fixture
def members(club, officers):
    """Ann, Bob, Cat, Dan, Eve, Fay: members of the club."""
    return [
        add_member(club, Person.objects.create(name=name), officers[0])
        for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    ]


def played(club, officers, seats, scores, day=DAY, chombo=(0, 0, 0, 0), **kw):
    """Record and confirm a game: seats are members in wind order E, S, W, N."""
    version = record_game(
        club,
        list(zip(seats, scores, chombo, strict=True)),
        officers[0],
        played_on=day,
        **kw,
    )
    return confirm_game(version, officers[1])


def points(club, season=None):
    """name → (rank, rating, games) of the rating table's ranked rows."""
    table = rating(club, season).table
    return {r.person.name: (r.rank, r.rating, r.games) for r in table.rows}


def test_a_games_rating_points_are_001_13(club, officers, members):
    """001 §13.2–13.4: "(final score − 30,000) / 1,000, to one decimal, plus placement points
    +9 / +3 / −3 / −9" (docs/rules.md §2)."""
    ann, bob, cat, dan = members[:4]
    played(club, officers, [ann, bob, cat, dan], [42300, 31700, 26000, 20000])
    assert points(club) == {
        "Ann": (1, 21.3, 1),  # 12.3 + 9
        "Bob": (2, 4.7, 1),  # 1.7 + 3
        "Cat": (3, -7.0, 1),  # −4.0 − 3
        "Dan": (4, -19.0, 1),  # −10.0 − 9
    }


def test_a_tie_for_first_splits_9_and_3(club, officers, members):
    """docs/rules.md §2: "Ties: split placement points as in §1" — two players tied for 1st share
    (9 + 3) / 2 = 6 each."""
    ann, bob, cat, dan = members[:4]
    played(club, officers, [ann, bob, cat, dan], [35000, 35000, 30000, 20000])
    assert points(club) == {
        "Ann": (1, 11.0, 1),  # 5.0 + 6
        "Bob": (1, 11.0, 1),
        "Cat": (3, -3.0, 1),
        "Dan": (4, -19.0, 1),
    }


def test_a_chombo_deducts_20_after_placement(club, officers, members):
    """001 §7.2: chombo "−20 rating" from the player's final result, after placement: the
    places stay as the scores give them."""
    ann, bob, cat, dan = members[:4]
    played(club, officers, [ann, bob, cat, dan], [40000, 30000, 30000, 20000], chombo=(1, 0, 0, 0))
    assert points(club)["Ann"] == (3, -1.0, 1)  # 10 + 9 − 20, below Bob and Cat (0.0 each)
    game = rated_games(club)[0]
    assert [(line.person.name, line.place, line.points) for line in game.lines] == [
        ("Ann", 1, -1.0),
        ("Bob", 2, 0.0),  # a tie for 2nd: (3 − 3) / 2
        ("Cat", 2, 0.0),
        ("Dan", 4, -19.0),
    ]


def test_the_rating_is_the_sum_over_games_and_evenings(club, officers, members):
    """001 §13.5: the game's result "is added to the player's rating"."""
    ann, bob, cat, dan, eve, _fay = members
    played(club, officers, [ann, bob, cat, dan], [42300, 31700, 26000, 20000])
    played(
        club, officers, [eve, ann, bob, cat], [30100, 29900, 30000, 30000], day=DAY.replace(day=27)
    )
    table = rating(club).table
    ann_row = next(r for r in table.rows if r.person.name == "Ann")
    # 21.3, then 4th: −0.1 − 9 → 12.2 in all
    assert (ann_row.rating, ann_row.games, ann_row.average_place, ann_row.first_share) == (
        12.2,
        2,
        2.5,
        0.5,
    )
    assert ann_row.last_played == DAY.replace(day=27)


def test_sticks_left_on_the_table_are_accepted_and_other_sums_refused(club, officers, members):
    """docs/rules.md §2 (001 §3.11): sticks left on the table make the sum less than 120,000 by
    1,000 per stick; "the sum is never more"."""
    four = members[:4]
    played(club, officers, four, [40000, 30000, 30000, 19000])  # one stick left: accepted
    for scores in ([40000, 30000, 30000, 21000], [40000, 30000, 30000, 19500]):
        with pytest.raises(ActionRefused) as refused:
            record_game(
                club,
                [(m, s, 0) for m, s in zip(four, scores, strict=True)],
                officers[0],
                played_on=DAY,
            )
        assert "must add up to 120,000" in refused.value.message
    assert Game.objects.count() == 1


def test_bad_games_are_refused_and_nothing_is_stored(club, officers, members):
    ann, bob, cat, dan = members[:4]
    stranger_club = save_club(None, {"name": "Other", "slug": "other"}, officers[0])
    stranger = add_member(stranger_club, Person.objects.create(name="Zed"), officers[0])
    scores = [40000, 30000, 30000, 20000]
    cases = {
        "Ann is seated twice (East and West).": [ann, bob, ann, dan],
        "North: Zed is not a member of this club.": [ann, bob, cat, stranger],
    }
    for message, seats in cases.items():
        with pytest.raises(ActionRefused) as refused:
            record_game(
                club,
                [(m, s, 0) for m, s in zip(seats, scores, strict=True)],
                officers[0],
                played_on=DAY,
            )
        assert refused.value.message == message
    with pytest.raises(ActionRefused) as refused:
        record_game(club, [(ann, 40000, 0)] * 3, officers[0], played_on=DAY)
    assert refused.value.message == "A rated game has four players."
    with pytest.raises(ActionRefused) as refused:
        record_game(
            club,
            [
                (m, s, 0)
                for m, s in zip([ann, bob, cat, dan], [40050, 30000, 29950, 20000], strict=True)
            ],
            officers[0],
            played_on=DAY,
        )
    assert refused.value.field == "E"
    assert (Game.objects.count(), GameVersion.objects.count(), GameScore.objects.count()) == (
        0,
        0,
        0,
    )


def test_a_closed_season_takes_a_game_only_with_the_override(club, officers, members):
    autumn = save_season(
        club, None, "Autumn 2026", DAY.replace(month=9, day=1), DAY.replace(day=30), officers[0]
    )
    close_season(autumn, officers[0])
    seats = [(m, s, 0) for m, s in zip(members[:4], [40000, 30000, 30000, 20000], strict=True)]
    with pytest.raises(ActionRefused) as refused:
        record_game(club, seats, officers[0], played_on=DAY)
    assert refused.value.field == "played_on"
    assert "Autumn 2026" in refused.value.message
    assert Game.objects.count() == 0
    version = record_game(club, seats, officers[0], played_on=DAY, override_closed=True)
    assert version.closed_season_override
    # Outside the season, no override is needed.
    later = record_game(club, seats, officers[0], played_on=DAY.replace(month=12, day=4))
    assert not later.closed_season_override


def test_a_second_officer_confirms(club, officers, members):
    seats = [(m, s, 0) for m, s in zip(members[:4], [40000, 30000, 30000, 20000], strict=True)]
    version = record_game(club, seats, officers[0], played_on=DAY)
    assert rating(club).table.rows == []  # a draft counts for nothing
    with pytest.raises(ActionRefused, match="a second officer must confirm"):
        confirm_game(version, officers[0])
    confirm_game(version, officers[1])
    assert len(rating(club).table.rows) == 4
    # Single confirmation is the director's to switch (issue 34), not an officer's.
    with pytest.raises(ActionRefused, match="Only the director"):
        save_club(club, {"single_confirmation": True}, officers[0])
    save_club(club, {"single_confirmation": True}, user("director", DIRECTOR))
    alone = record_game(club, seats, officers[0], played_on=DAY)
    assert confirm_game(alone, officers[0]).status == GameVersion.Status.CONFIRMED


def test_correcting_an_old_game_recomputes_everything_after_it(club, officers, members):
    """A correction is a new version; the rating, the season tables and the timelines follow
    it once confirmed, and the old version is kept."""
    ann, bob, cat, dan, eve, _fay = members
    first = played(club, officers, [ann, bob, cat, dan], [42300, 31700, 26000, 20000])
    for week in (27, 28, 29):
        played(club, officers, [ann, bob, cat, eve], [30000] * 4, day=DAY.replace(day=week))
    before = points(club)["Ann"]
    assert before[1] == 21.3 + 3 * 0.0 or before[1] == 21.3  # three 4-way ties: 0 each
    game = first.game
    fix = record_game(
        club,
        [
            (m, s, 0)
            for m, s in zip([ann, bob, cat, dan], [20000, 31700, 26000, 42300], strict=True)
        ],
        officers[0],
        game=game,
        base_version=1,
        note="East and North swapped on the sheet",
    )
    assert points(club)["Ann"] == before  # still the confirmed version
    with pytest.raises(StaleEdit):
        record_game(
            club,
            [(m, 30000, 0) for m in [ann, bob, cat, dan]],
            officers[0],
            game=game,
            base_version=1,
        )
    confirm_game(fix, officers[1])
    assert points(club)["Ann"][1] == -19.0
    assert points(club)["Dan"][1] == 21.3
    line = rating_book(club).book.timeline(ann.person.pk)
    assert [p[2] for p in line] == [-19.0, -19.0, -19.0, -19.0]
    assert list(game.versions.values_list("version", "status")) == [
        (2, "confirmed"),
        (1, "superseded"),
    ]


def test_a_void_game_leaves_the_rating_once_confirmed(club, officers, members):
    confirmed = played(club, officers, members[:4], [42300, 31700, 26000, 20000])
    void = void_game(confirmed.game, officers[0], 1, "recorded twice")
    assert len(rating(club).table.rows) == 4
    confirm_game(void, officers[1])
    assert rating(club).table.rows == []
    with pytest.raises(ActionRefused, match="Say why"):
        void_game(confirmed.game, officers[0], 2, " ")


def test_seasons_and_the_minimum_number_of_games(club, officers, members):
    ann, bob, cat, dan, eve, _fay = members
    spring = save_season(
        club, None, "Spring", datetime.date(2026, 3, 1), datetime.date(2026, 5, 31), officers[0]
    )
    autumn = save_season(
        club, None, "Autumn", datetime.date(2026, 9, 1), datetime.date(2026, 11, 30), officers[0]
    )
    with pytest.raises(ActionRefused, match="overlap"):
        save_season(
            club, None, "Clash", datetime.date(2026, 5, 31), datetime.date(2026, 6, 30), officers[0]
        )
    played(
        club,
        officers,
        [ann, bob, cat, dan],
        [42300, 31700, 26000, 20000],
        day=datetime.date(2026, 3, 1),
    )
    played(
        club,
        officers,
        [ann, bob, cat, eve],
        [40000, 30000, 30000, 20000],
        day=datetime.date(2026, 5, 31),
    )
    played(
        club,
        officers,
        [ann, bob, cat, eve],
        [40000, 30000, 30000, 20000],
        day=datetime.date(2026, 9, 1),
    )
    # The season's boundaries are inside it.
    assert {n: g for n, (_r, _p, g) in points(club, spring).items()} == {
        "Ann": 2,
        "Bob": 2,
        "Cat": 2,
        "Dan": 1,
        "Eve": 1,
    }
    assert set(points(club, autumn)) == {"Ann", "Bob", "Cat", "Eve"}
    assert points(club)["Ann"][2] == 3
    save_club(club, {"min_games": 2}, officers[0])
    table = rating(club, spring).table
    assert [r.person.name for r in table.rows] == ["Ann", "Bob", "Cat"]
    assert [(r.person.name, r.rank) for r in table.unranked] == [
        ("Dan", None),
        ("Eve", None),
    ]  # −19.0 each: by name


def test_an_evening_draws_tables_from_those_present(club, officers, members):
    """Nine members present: two tables are drawn and one sits out; the draw is the desk's
    (reproducible for a seed); who played more that evening sits out first."""
    more = [
        add_member(club, Person.objects.create(name=n), officers[0]) for n in ("Gus", "Hal", "Ivy")
    ]
    nine = members + more
    evening = evening_on(club, DAY, officers[0])
    for m in nine:
        check_in(evening, m, officers[0])
    games = draw_evening(evening, officers[0], seed=7)
    assert [g.number for g in games] == [1, 2]
    states = evening_games(evening)
    seated = [m for s in states for _w, m in s.seats]
    assert len(seated) == 8 and len(set(seated)) == 8
    assert [s.status for s in states] == ["waiting", "waiting"]
    (out,) = set(nine) - set(seated)
    # Nobody waiting at a drawn table can be drawn again, and the one left alone cannot play.
    with pytest.raises(ActionRefused, match="1 members are free"):
        draw_evening(evening, officers[0], seed=8)
    # Table 1 plays; its four and the one who sat out are drawn next, the four who played
    # first sit out first only when they are too many.
    state = states[0]
    version = record_game(
        club,
        [(m, s, 0) for (_w, m), s in zip(state.seats, [40000, 30000, 30000, 20000], strict=True)],
        officers[0],
        game=state.game,
    )
    confirm_game(version, officers[1])
    third = draw_evening(evening, officers[0], seed=9)
    (game,) = third
    again = {m for _w, m in evening_games(evening)[2].seats}
    assert out in again
    assert game.number == 3
    # A member seated at a waiting table cannot leave; an inactive member cannot check in.
    waiting_member = next(iter(again))
    with pytest.raises(ActionRefused, match="seated at a table"):
        check_in(evening, waiting_member, officers[0], present=False)
    set_member_active(out, False, officers[0])
    other_evening = evening_on(club, DAY.replace(day=21), officers[0])
    with pytest.raises(ActionRefused, match="not an active member"):
        check_in(other_evening, out, officers[0])


def test_a_person_is_a_member_once(club, officers, members):
    with pytest.raises(ActionRefused, match="already a member"):
        add_member(club, members[0].person, officers[0])
    assert person_club_games(club, members[0].person) == []


def test_a_merge_joins_two_memberships_ratings_and_a_split_parts_them(club, officers, members):
    """Issue 25: "people can be merged and split again with history kept" — a person recorded
    twice at the club has one rating once merged, and two again once split; the person page
    lists every rated game."""
    ann, bob, cat, dan = members[:4]
    twin = add_member(club, Person.objects.create(name="Ann K."), officers[0])
    played(club, officers, [ann, bob, cat, dan], [42300, 31700, 26000, 20000])  # Ann +21.3
    played(club, officers, [twin, bob, cat, dan], [30000, 40000, 30000, 20000])
    assert points(club)["Ann K."] == (3, 0.0, 1)  # a tie for 2nd at 30,000: 0 + 0
    merge = merge_people(ann.person, twin.person, officers[0], "the same Ann")
    assert points(club)["Ann"] == (2, 21.3, 2)  # Bob: 4.7 + 19.0 = 23.7
    assert "Ann K." not in points(club)
    officer = user("club-officer", CLUB_OFFICER)
    page = login(officer).get(f"/desk/people/{ann.person.pk}/").content.decode()
    assert page.count('href="/r/furiten/"') == 2  # both rated games, with their club
    split_people(merge, officers[0], "two Anns after all")
    assert points(club)["Ann"] == (2, 21.3, 1)
    assert points(club)["Ann K."][1:] == (0.0, 1)


def test_a_draft_is_not_confirmed_into_a_season_closed_since(club, officers, members):
    """A closed season's table is final: a draft recorded while it was open is confirmed only
    as a version recorded with the override."""
    autumn = save_season(
        club, None, "Autumn", DAY.replace(month=9, day=1), DAY.replace(day=30), officers[0]
    )
    seats = [(m, s, 0) for m, s in zip(members[:4], [40000, 30000, 30000, 20000], strict=True)]
    draft = record_game(club, seats, officers[0], played_on=DAY)
    close_season(autumn, officers[0])
    with pytest.raises(ActionRefused, match="Autumn"):
        confirm_game(draft, officers[1])
    assert rating(club).table.rows == []
    again = record_game(
        club, seats, officers[0], game=draft.game, base_version=1, override_closed=True
    )
    assert confirm_game(again, officers[1]).closed_season_override


def test_a_former_member_plays_no_new_game_but_their_games_can_be_corrected(
    club, officers, members
):
    ann, bob, cat, dan = members[:4]
    first = played(club, officers, [ann, bob, cat, dan], [42300, 31700, 26000, 20000])
    set_member_active(dan, False, officers[0])
    seats = [
        (m, s, 0) for m, s in zip([ann, bob, cat, dan], [40000, 30000, 30000, 20000], strict=True)
    ]
    with pytest.raises(ActionRefused) as refused:
        record_game(club, seats, officers[0], played_on=DAY)
    assert refused.value.message == "North: Dan is a former member."
    fixed = record_game(club, seats, officers[0], game=first.game, base_version=1)
    assert fixed.version == 2


def test_the_rating_follows_a_rule_set_change_made_elsewhere(club, officers, members):
    """The book is built by the rules stored with its revision, not by a club object loaded
    before the change."""
    played(club, officers, members[:4], [40000, 30000, 30000, 20000])
    stale = type(club).objects.get(pk=club.pk)
    rating(stale)
    save_club(club, {"ruleset": "ema-2012"}, officers[0])
    # EMA's result unit is points: 40,000 − 30,000 + 30,000 uma (000 §3.6.1).
    assert rating(stale).table.rows[0].rating == 40000
    # A settings form loaded before another write does not put the revision back.
    old = type(club).objects.get(pk=club.pk)
    check_in(evening_on(club, DAY, officers[0]), members[0], officers[0])
    revision = type(club).objects.get(pk=club.pk).revision
    save_club(old, {"min_games": 1}, officers[0])
    assert type(club).objects.get(pk=club.pk).revision == revision + 1


def test_an_evening_outside_the_calendar_is_refused(club, officers):
    with pytest.raises(ActionRefused):
        evening_on(club, datetime.date(1, 1, 1), officers[0])
    assert not club.evenings.exists()
