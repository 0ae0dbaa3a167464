"""The club rating's pure core (mahjong.rating, issue 25), pinned to seed 001 §13 and §7.2 and
to docs/rules.md §1–§2 with exact numbers.

Seed 001 is the Furiten club's rating-game rule book (Russian).
"""

import datetime
import xml.etree.ElementTree as ET
from fractions import Fraction

from mahjong.presets import PRESETS
from mahjong.rating import (
    Game,
    GamePoints,
    RatedSeat,
    RatingBook,
    game_points,
    rating_svg,
    rating_table,
    timeline,
)
from mahjong.table import SeatInput, table_outcome

FURITEN = PRESETS["furiten-club"]
SVG = "{http://www.w3.org/2000/svg}"


def day(month, date, year=2024):
    return datetime.date(year, month, date)


def game(key, played_on, *seats):
    """seats: (person, score) or (person, score, chombo), in seat order E, S, W, N."""
    return Game(key, played_on, [RatedSeat(*seat) for seat in seats])


def ratings(table):
    return {row.person: row.rating for row in table.rows + table.unranked}


# 45,300 / 32,000 / 25,100 / 17,600: 120,000, no ties.
G1 = game("g1", day(1, 10), ("ann", 45300), ("bob", 32000), ("cat", 25100), ("dan", 17600))


def test_a_games_rating_points_are_the_score_over_1000_plus_placement():
    # 001 §13.3: "30 000 is subtracted from the player's score and the result divided by 1000";
    # §13.4: "first place plus 9 points, second plus 3, third minus 3, fourth minus 9";
    # §13.2: "to one tenth of a point". 45,300 → +15.3 + 9 = 24.3.
    assert game_points(FURITEN, G1) == [
        GamePoints("ann", 1, 9, 0, 24.3),
        GamePoints("bob", 2, 3, 0, 5),
        GamePoints("cat", 3, -3, 0, -7.9),
        GamePoints("dan", 4, -9, 0, -21.4),
    ]


def test_the_points_are_the_tables_own_arithmetic():
    # One concept, one place: the rating of a game is what mahjong.table gives the table.
    outcome = table_outcome(FURITEN, [SeatInput(s.person, s.score, s.chombo) for s in G1.seats])
    assert [p.rating for p in game_points(FURITEN, G1)] == [o.result for o in outcome]


def test_a_chombo_takes_20_after_placement_and_never_changes_places():
    # 001 §7.2 (docs/rules.md §2): a chombo deducts 20 rating points from the final result, after
    # placement: two chombos take first place's 24.3 to 24.3 − 40 = −15.7, still first (+9).
    g = game("c", day(1, 10), ("ann", 45300, 2), ("bob", 32000), ("cat", 25100), ("dan", 17600))
    points = game_points(FURITEN, g)
    assert [p.place for p in points] == [1, 2, 3, 4]
    assert points[0] == GamePoints("ann", 1, 9, -40, -15.7)
    assert [p.rating for p in points[1:]] == [5, -7.9, -21.4]


def test_a_two_way_tie_for_first_splits_9_and_3():
    # docs/rules.md §2: "Ties: split placement points as in §1"; §1: two tied for 1st share the
    # points of 1st and 2nd equally: (9 + 3) / 2 = 6 each. 40,000 → +10 + 6 = 16.
    g = game("t", day(1, 10), ("ann", 40000), ("bob", 40000), ("cat", 25000), ("dan", 15000))
    assert game_points(FURITEN, g) == [
        GamePoints("ann", 1, 6, 0, 16),
        GamePoints("bob", 1, 6, 0, 16),
        GamePoints("cat", 3, -3, 0, -8),
        GamePoints("dan", 4, -9, 0, -24),
    ]


def test_a_three_way_tie_for_second_splits_3_minus_3_minus_9():
    # docs/rules.md §1: three tied for 2nd share (3 − 3 − 9) / 3 = −3 each.
    g = game("t3", day(1, 10), ("ann", 60000), ("bob", 20000), ("cat", 20000), ("dan", 20000))
    assert [(p.place, p.rating) for p in game_points(FURITEN, g)] == [
        (1, 39),
        (2, -13),
        (2, -13),
        (2, -13),
    ]


def test_sticks_left_on_the_table_are_accepted():
    # docs/rules.md §2, 001 §3.11: riichi sticks left at the end stay on the table, so the scores
    # may sum to less than 120,000: here 118,000 (two sticks), and the points sum to −2.
    g = game("s", day(1, 10), ("ann", 44000), ("bob", 30000), ("cat", 25000), ("dan", 19000))
    points = [p.rating for p in game_points(FURITEN, g)]
    assert points == [23, 3, -8, -20]
    assert sum(points) == -2


def test_the_rating_is_the_sum_of_the_games_points():
    # 001 §13.5: "the rating points are added to the player's rating".
    g2 = game("g2", day(1, 17), ("cat", 40000), ("ann", 30000), ("dan", 28000), ("bob", 22000))
    table = rating_table(FURITEN, [G1, g2])
    # ann 24.3 + 3 = 27.3; cat −7.9 + 19 = 11.1; bob 5 − 17 = −12; dan −21.4 − 5 = −26.4
    assert [(r.rank, r.person, r.rating, r.games) for r in table.rows] == [
        (1, "ann", 27.3, 2),
        (2, "cat", 11.1, 2),
        (3, "bob", -12, 2),
        (4, "dan", -26.4, 2),
    ]
    assert table.rows[0].rating_exact == Fraction(273, 10)
    assert [r.last_played for r in table.rows] == [day(1, 17)] * 4


def test_sums_of_tenths_do_not_drift():
    # 001 §13.2 and §13.5: sums of one-decimal points are exact (0.1 + 0.2 is 0.3 here):
    # ten games of 30,100 in third place (0.1 − 3 = −2.9) sum to exactly −29.
    games = [
        game(i, day(2, 1), ("ann", 50000), ("bob", 39900), ("eve", 30100), ("dan", 0))
        for i in range(10)
    ]
    row = next(r for r in rating_table(FURITEN, games).rows if r.person == "eve")
    assert row.rating_exact == -29
    assert row.rating == -29


def test_average_place_and_share_of_first_places():
    g2 = game("g2", day(1, 17), ("cat", 40000), ("ann", 30000), ("dan", 28000), ("bob", 22000))
    g3 = game("g3", day(1, 24), ("ann", 40000), ("bob", 40000), ("cat", 25000), ("dan", 15000))
    rows = {r.person: r for r in rating_table(FURITEN, [G1, g2, g3]).rows}
    # ann: places 1, 2, 1 (a shared first counts as first) → 4/3 = 1.33; 2 of 3 firsts
    assert (rows["ann"].average_place, rows["ann"].firsts, rows["ann"].first_share) == (
        1.33,
        2,
        0.667,
    )
    # dan: 4, 3, 4 → 3.67; no first place
    assert (rows["dan"].average_place, rows["dan"].first_share) == (3.67, 0)


def test_a_season_takes_the_games_of_its_dates_boundaries_included():
    games = [
        game(
            "before",
            day(12, 31, 2023),
            ("ann", 45300),
            ("bob", 32000),
            ("cat", 25100),
            ("dan", 17600),
        ),
        game("first", day(1, 1), ("ann", 40000), ("bob", 30000), ("cat", 28000), ("dan", 22000)),
        game("last", day(3, 31), ("bob", 40000), ("ann", 30000), ("cat", 28000), ("dan", 22000)),
        game("after", day(4, 1), ("dan", 45300), ("bob", 32000), ("cat", 25100), ("ann", 17600)),
    ]
    season = rating_table(FURITEN, games, since=day(1, 1), until=day(3, 31))
    # ann 19 + 3, bob 3 + 19, cat −5 − 5, dan −17 − 17
    assert ratings(season) == {"ann": 22, "bob": 22, "cat": -10, "dan": -34}
    assert [r.games for r in season.rows] == [2, 2, 2, 2]
    assert (season.since, season.until) == (day(1, 1), day(3, 31))
    # None is open: all time takes every game
    assert [r.games for r in rating_table(FURITEN, games).rows] == [4, 4, 4, 4]
    assert ratings(rating_table(FURITEN, games, since=day(4, 1))) == {
        "dan": 24.3,
        "bob": 5,
        "cat": -7.9,
        "ann": -21.4,
    }


def test_people_below_the_minimum_number_of_games_are_shown_apart():
    g2 = game("g2", day(1, 17), ("ann", 40000), ("bob", 30000), ("eve", 28000), ("fay", 22000))
    table = rating_table(FURITEN, [G1, g2], min_games=2)
    assert [(r.rank, r.person, r.games) for r in table.rows] == [(1, "ann", 2), (2, "bob", 2)]
    # eve −5 before cat −7.9 before fay −17 before dan −21.4; never ranked
    assert [(r.rank, r.person) for r in table.unranked] == [
        (None, "eve"),
        (None, "cat"),
        (None, "fay"),
        (None, "dan"),
    ]
    assert len(rating_table(FURITEN, [G1, g2]).rows) == 6  # no minimum: everyone ranked


def test_equal_ratings_share_a_rank_and_more_games_come_first():
    games = [
        # pat: 0 in one game (27,000 in second place: −3 + 3)
        game(1, day(1, 1), ("win", 50000), ("pat", 27000), ("x1", 23000), ("x2", 20000)),
        # kim: +3 and −3, 0 in two games
        game(2, day(1, 2), ("y1", 50000), ("kim", 30000), ("y2", 25000), ("y3", 15000)),
        game(3, day(1, 3), ("z1", 45000), ("z2", 35000), ("kim", 30000), ("z3", 10000)),
    ]
    # win and y1 29 (20 + 9) each, one game each: a shared rank, by name; z1 15 + 9 = 24;
    # z2 5 + 3 = 8; kim and pat 0, kim first for more games; y2 −5 − 3; x1 −7 − 3;
    # x2 −10 − 9; y3 −15 − 9; z3 −20 − 9.
    assert [(r.rank, r.person, r.rating, r.games) for r in rating_table(FURITEN, games).rows] == [
        (1, "win", 29, 1),
        (1, "y1", 29, 1),
        (3, "z1", 24, 1),
        (4, "z2", 8, 1),
        (5, "kim", 0, 2),
        (5, "pat", 0, 1),
        (7, "y2", -8, 1),
        (8, "x1", -10, 1),
        (9, "x2", -19, 1),
        (10, "y3", -24, 1),
        (11, "z3", -29, 1),
    ]


def test_shared_ranks_one_two_two_four():
    games = [
        game(1, day(1, 1), ("a", 40000), ("b", 30000), ("c", 30000), ("d", 20000)),
    ]
    # a 10 + 9 = 19; b and c tie for second: 0 + (3 − 3)/2 = 0; d −10 − 9 = −19
    assert [(r.rank, r.person, r.rating) for r in rating_table(FURITEN, games).rows] == [
        (1, "a", 19),
        (2, "b", 0),
        (2, "c", 0),
        (4, "d", -19),
    ]


def test_timeline_gives_the_rating_after_each_game_in_date_order():
    g2 = game("g2", day(1, 17), ("cat", 40000), ("ann", 30000), ("dan", 28000), ("bob", 22000))
    g0 = game("g0", day(1, 3), ("ann", 30000), ("bob", 30000), ("cat", 30000), ("dan", 30000))
    # given out of order: the timeline goes by date. g0: four-way tie, 0 each.
    assert timeline(FURITEN, [G1, g2, g0], "ann") == [
        (day(1, 3), "g0", 0),
        (day(1, 10), "g1", 24.3),
        (day(1, 17), "g2", 27.3),
    ]
    assert timeline(FURITEN, [G1], "nobody") == []
    book = RatingBook(FURITEN, [G1, g2, g0])
    assert book.timelines()["bob"] == [
        (day(1, 3), "g0", 0),
        (day(1, 10), "g1", 5),
        (day(1, 17), "g2", -12),
    ]
    assert book.timelines()["ann"] == book.timeline("ann")


def test_the_chart_is_well_formed_titled_and_escapes_text():
    points = timeline(FURITEN, [G1], "ann")
    labels = {"title": "Rating of <Ann & Bob>", "desc": "Rating after each game: 24.3"}
    svg = rating_svg(points, width=390, height=200, labels=labels)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text == "Rating of <Ann & Bob>"
    assert "&lt;Ann &amp; Bob&gt;" in svg
    assert root.find(SVG + "desc").text == "Rating after each game: 24.3"
    assert root.find(SVG + "polyline") is not None
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "24.3" in texts and "2024-01-10" in texts


def test_the_chart_of_no_games_says_so():
    labels = {"title": "Rating", "desc": "No games yet", "empty": "No rated games <yet>"}
    root = ET.fromstring(rating_svg([], width=390, height=200, labels=labels))
    assert [t.text for t in root.iter(SVG + "text")] == ["No rated games <yet>"]
    assert root.find(SVG + "polyline") is None


def test_a_book_of_games_scored_one_by_one_is_the_same_book():
    """A book kept across changes scores only the new games (`score`, `scored=`): its tables
    and timelines are those of the book that scored everything at once."""
    games = [
        game(1, day(1, 10), ("ann", 42300), ("bob", 31700), ("cat", 26000), ("dan", 20000)),
        game(2, day(1, 17), ("eve", 35000), ("ann", 35000), ("bob", 30000), ("cat", 19000)),
    ]
    whole = RatingBook(FURITEN, games)
    parts = RatingBook(FURITEN, scored=[])
    parts.scored.extend(parts.score(g) for g in games)
    assert parts.scored == whole.scored
    assert parts.table(name=str) == whole.table(name=str)
    assert parts.timelines() == whole.timelines()
