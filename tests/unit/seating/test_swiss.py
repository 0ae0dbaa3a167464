"""Swiss seating (seating.algorithms.swiss): tables by standings, repeats and clashes avoided.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_swiss.py`.
"""

import random
from itertools import combinations

import pytest

from seating.algorithms import swiss
from seating.algorithms.draw import DrawError, draw_tables
from seating.algorithms.quality import meetings, quality
from seating.algorithms.winds import wind_counts


def swiss_round(*args, **kwargs) -> list[list]:
    """Every seating here without a wall-clock cap: only step counts decide the tables."""
    return swiss.swiss_round(*args, budget=None, **kwargs)


def players(count: int, digits: int = 2) -> list[str]:
    """Players named so that sorting by name is the standings order: p00 leads."""
    return [f"p{i:0{digits}d}" for i in range(count)]


def as_sets(tables: list[list]) -> list[set]:
    return [set(t) for t in tables]


def repeats(tables: list[list], history: list) -> int:
    met = meetings(history)
    return sum(met[pair] for t in tables for pair in combinations(sorted(t), 2))


def play(tables: list[list], rng: random.Random, totals: dict) -> None:
    """One session's results: places shuffled at each table, plus a little noise."""
    for table in tables:
        places = [15, 5, -5, -15][: len(table)]
        rng.shuffle(places)
        for player, place in zip(table, places, strict=True):
            totals[player] += place + rng.gauss(0, 10)


def tournament(
    count: int,
    sessions: int,
    seed: int,
    three_player: bool = False,
    planned: bool = False,
    digits: int = 2,
) -> list:
    """A drawn first session, then Swiss sessions seated from simulated standings; `planned`:
    the seating knows the session count. With `digits=3`, the tournaments of
    benchmarks/swiss_sim.py (the same names, draw and results)."""
    rng = random.Random(seed)
    field = players(count, digits)
    totals = dict.fromkeys(field, 0.0)
    rounds = [draw_tables(field, seed, three_player)]
    play(rounds[0], rng, totals)
    for _ in range(1, sessions):
        ranking = sorted(field, key=lambda p: (-totals[p], p))
        rounds.append(
            swiss_round(
                ranking,
                rounds,
                seed=seed,
                three_player=three_player,
                sessions=sessions if planned else None,
            )
        )
        play(rounds[-1], rng, totals)
    return rounds


@pytest.mark.parametrize(
    ("count", "three_player", "sizes"),
    [
        (16, False, [4, 4, 4, 4]),
        (14, True, [4, 4, 3, 3]),
        (13, True, [4, 3, 3, 3]),
        (5, True, [4, 1]),
    ],
)
def test_everyone_seated_once_at_tables_of_the_drawn_sizes(count, three_player, sizes):
    rounds = tournament(count, 4, seed=7, three_player=three_player)
    for tables in rounds[1:]:
        assert [len(t) for t in tables] == sizes
        seated = [p for t in tables for p in t]
        assert sorted(seated) == players(count)


def test_no_history_seats_the_standings_in_fours_best_first():
    ranking = players(12)
    random.Random(3).shuffle(ranking)  # standings order, whatever the names
    tables = swiss_round(ranking, [])
    assert as_sets(tables) == [set(ranking[0:4]), set(ranking[4:8]), set(ranking[8:12])]


def test_empty_field_seats_nobody():
    assert swiss_round([], []) == []


def test_riichi_needs_a_multiple_of_four():
    with pytest.raises(DrawError):
        swiss_round(players(10), [])


def test_a_pair_that_met_is_split_at_the_least_spread():
    p = players(8)
    history = [[[p[2], p[3], "x1", "x2"]]]  # p02 and p03 met in another event's session
    tables = swiss_round(p, history)
    # Swapping p03 with p04 costs the least spread: both tables then span four places.
    assert as_sets(tables) == [{p[0], p[1], p[2], p[4]}, {p[3], p[5], p[6], p[7]}]


def test_a_round_without_repeats_is_found_when_one_exists():
    p = players(16)
    history = [[p[0:4], p[4:8], p[8:12], p[12:16]]]  # last session: the standings in fours
    tables = swiss_round(p, history)
    assert repeats(tables, history) == 0
    # Each table takes one player from each earlier table, so the leader's table reaches p12.
    assert max(p.index(x) for x in tables[0]) == 12


def test_a_pair_that_met_twice_is_split_before_pairs_that_met_once():
    p = players(8)
    # Every split of two foursomes repeats four pairs; p00 and p01 also met in another event.
    history = [[p[0:4], p[4:8]], [[p[0], p[1], "x1", "x2"]]]
    tables = swiss_round(p, history)
    assert not any({p[0], p[1]} <= t for t in as_sets(tables))
    assert repeats(tables, history) == 4


def test_keep_apart_values_separate_players_when_possible():
    p = players(8)
    keep_apart = {p[0]: "Kyiv club", p[1]: "Kyiv club", p[5]: ""}  # empty value: no constraint
    tables = swiss_round(p, [], keep_apart=keep_apart)
    assert as_sets(tables) == [{p[0], p[2], p[3], p[4]}, {p[1], p[5], p[6], p[7]}]


def test_keep_apart_that_cannot_be_met_still_seats_everyone():
    p = players(8)
    tables = swiss_round(p, [], keep_apart=dict.fromkeys(p, "PL"))
    assert sorted(x for t in tables for x in t) == p


def test_sichuan_short_tables_are_last_and_nobody_sits_at_one_twice():
    # docs/rules.md §3 (002 §3.1): "With 'programmed' or 'Danish' seating the incomplete table is
    # the last one (lowest standings) … A player who already sat at an incomplete table cannot be
    # put at one again."
    p = players(14)
    # Last session the bottom six played three-handed.
    history = [[p[0:4], p[4:8], p[8:11], p[11:14]]]
    tables = swiss_round(p, history, three_player=True)
    assert [len(t) for t in tables] == [4, 4, 3, 3]
    short = {x for t in tables[2:] for x in t}
    assert not short & set(p[8:14])


def test_sichuan_awarded_table_goes_to_someone_new():
    p = players(5)
    history = [[p[0:4], [p[4]]]]  # p04 was awarded last session
    tables = swiss_round(p, history, three_player=True)
    assert [len(t) for t in tables] == [4, 1]
    assert tables[1] != [p[4]]


def test_sichuan_over_a_tournament_short_seats_are_shared_out():
    rounds = tournament(13, 4, seed=5, three_player=True)  # 9 short seats a session
    short_seats = [p for tables in rounds for t in tables if len(t) < 4 for p in t]
    # 36 short seats among 13 players: nobody gets a fourth while someone has fewer than two.
    counts = [short_seats.count(x) for x in players(13)]
    assert max(counts) - min(counts) <= 1


def test_same_seed_same_tables():
    p = players(24)
    history = [draw_tables(p, 1), draw_tables(p, 2)]
    assert swiss_round(p, history, seed=4) == swiss_round(p, history, seed=4)


def test_no_budget_means_no_clock_and_a_spent_one_still_seats_everyone():
    p = players(24)
    history = [draw_tables(p, 1), draw_tables(p, 2)]
    unlimited = swiss.swiss_round(p, history, seed=4, budget=None)
    assert unlimited == swiss.swiss_round(p, history, seed=4, budget=3600.0)
    spent = swiss.swiss_round(p, history, seed=4, budget=0.0)  # stops at once, tables whole
    assert sorted(x for t in spent for x in t) == sorted(p) and {len(t) for t in spent} == {4}


def test_winds_stay_balanced_over_a_short_tournament():
    rounds = tournament(24, 5, seed=2)
    assert quality(rounds).worst_imbalance <= 2


def test_winds_over_eight_sessions_mostly_come_out_even():
    # Sessions 4 and 8 need every table to hold four players owing four different winds: the
    # winds are planned ahead for that, and weigh more from the fifth session on. (Seating each
    # table greedily, with the early weight throughout, left 17 of the first tournament's 32
    # players uneven.) Single tournaments vary, so the mean of four is held. Without the
    # session count the winds only guide: the local search of issue 26 trades a little of this
    # evenness for fewer repeats (these four: 67 % even; the annealing before it, 73 %).
    found = [quality(tournament(32, 8, seed=seed)) for seed in (1, 2, 3, 4)]
    assert max(q.worst_imbalance for q in found) <= 2
    assert sum(q.balanced_share for q in found) / 4 >= 0.65


def test_knowing_the_session_count_evens_the_winds_out_for_nearly_everyone():
    # Issue 3: "worst wind imbalance ≤ 2 with ≤ 1 for at least 95% of players", measured as the
    # mean of 3 simulated tournaments. Knowing that session 8 is the last, the seating keeps each
    # player's winds reachable (allowed_winds): over 8 sessions, each wind exactly twice.
    found = [quality(tournament(32, 8, seed=seed, planned=True)) for seed in (1, 2, 3)]
    assert max(q.worst_imbalance for q in found) <= 2
    assert sum(q.balanced_share for q in found) / 3 >= 0.95
    unplanned = quality(tournament(32, 8, seed=1))
    assert unplanned.balanced_share == 0.65625 < found[0].balanced_share  # 21 of 32 even


def test_every_repeat_weight_is_a_whole_number():
    # The search takes moves back by negating their price and adds costs in any order: exact
    # only while every cost is whole (issue 26). 1500 × 32 / 36 = 1333.3 is rounded to 1333.
    assert swiss.repeat_weight(36) == 1333.0
    assert swiss.repeat_weight(32) == 1500.0 and swiss.repeat_weight(48) == 1000.0
    assert all(swiss.repeat_weight(n).is_integer() for n in range(4, 1001))


# --- 002 §3.1 (3): the three-player table is the last one (issue 36) ----------------------------


def test_sichuan_15_three_player_table_takes_places_13_14_15_even_with_a_repeat():
    # 002 §3.1 (3): "При «программной» или «датской» рассадке отсутствующий игрок смещается на
    # последний стол (с минимальными результатами по турнирному положению)". 15 players: tables
    # of 4, 4, 4 and 3. Session 1 seated the top three at the table of three and places 12-15
    # together, so places 13, 14 and 15 met before; the seed still gives them the table of
    # three (the desk only avoids repeats), and there is nothing to explain.
    p = players(15)
    history = [[p[0:3], p[3:7], p[7:11], p[11:15]]]
    tables = swiss_round(p, history, three_player=True, sessions=4)
    assert [len(t) for t in tables] == [4, 4, 4, 3]
    assert sorted(tables[3]) == [p[12], p[13], p[14]]
    assert swiss.short_trades(p, history, tables, sessions=4) == []


def test_sichuan_15_places_that_already_sat_short_are_explained():
    # 002 §3.1 (3) and (4): places 13 and 15 of 15 sat at the table of three in session 1
    # ("Повторная игра на неполном столе ... невозможна"), so it takes place 14 and the next
    # two lowest who have not: places 11 and 12; the page is told why 13 and 15 are not there.
    p = players(15)
    history = [[[p[12], p[14], p[0]], p[1:5], p[5:9], [*p[9:12], p[13]]]]
    tables = swiss_round(p, history, three_player=True, sessions=4)
    assert sorted(tables[3]) == [p[10], p[11], p[13]]
    trades = swiss.short_trades(p, history, tables, sessions=4)
    assert [(t.place, t.player, t.reason) for t in trades] == [
        (13, p[12], "incomplete"),
        (15, p[14], "incomplete"),
    ]


def last_session_of_15(seed: int):
    """A Sichuan tournament of 15 players and 4 planned sessions, seated by standings as the
    desk does, up to its last session: (ranking, history) for session 4."""
    rng = random.Random(seed)
    field = players(15)
    totals = dict.fromkeys(field, 0.0)
    rounds = [draw_tables(field, seed, True)]
    play(rounds[0], rng, totals)
    for _ in range(2):
        ranking = sorted(field, key=lambda p: (-totals[p], p))
        rounds.append(swiss_round(ranking, rounds, seed=seed, three_player=True, sessions=4))
        play(rounds[-1], rng, totals)
    return sorted(field, key=lambda p: (-totals[p], p)), rounds


@pytest.mark.parametrize(("seed", "places"), [(1, [7, 10, 15]), (2, [6, 7, 13]), (3, [8, 10, 13])])
def test_sichuan_15_last_session_seats_the_lowest_who_can_sit_three_handed(seed, places):
    # Issue 36: the last session of 15 Sichuan players put the table of three at places 8, 11
    # and 12 and said nothing. In session 4 of 4, 9 players have sat at the table of three and
    # may not again (002 §3.1 (4)), and each of the 6 others owes one wind: the table of three
    # needs three of them owing East, South and West. It now takes the lowest such players
    # (before: places 8, 9, 11 / 2, 7, 9 / 3, 4, 9 for these seeds; now 7, 10, 15 / 6, 7, 13 /
    # 8, 10, 13), and every one of places 13-15 not there is explained.
    ranking, history = last_session_of_15(seed)
    tables = swiss_round(ranking, history, three_player=True, sessions=4)
    short = tables[-1]
    assert len(short) == 3
    place = {p: i + 1 for i, p in enumerate(ranking)}
    assert sorted(place[p] for p in short) == places
    trades = swiss.short_trades(ranking, history, tables, sessions=4)
    explained = {t.player for t in trades}
    assert {p for p in ranking[12:] if p not in short} == explained
    sat_short = {p for tables in history for t in tables if len(t) < 4 for p in t}
    assert not sat_short & set(short)
    # every player placed lower than one at the table of three, who has not sat at one, would
    # leave someone's winds uneven there: no single swap keeps the rules
    counts = wind_counts(history)
    for q in short:
        for p in ranking[place[q] :]:
            if p in short or p in sat_short:
                continue
            owe = [w for w in range(4) if counts[p][w] == 0]
            mates = [x for x in short if x != q]
            owed = {w for x in mates for w in range(4) if counts[x][w] == 0}
            assert owe == [3] or set(owe) <= owed, (seed, place[p], place[q])
    assert {t.reason for t in trades} <= {"incomplete", "north", "winds"}


def three_winds_sat(count: int, seed: int) -> tuple[list, list]:
    """A field of `count` whose every player has sat three different winds in three sessions
    of random tables, so that in the fourth (the last of 4 planned) each owes one wind, a
    quarter of the field each; and a random standings order."""
    rng = random.Random(seed)
    field = [f"p{i:04d}" for i in range(count)]
    rng.shuffle(field)
    owes = {p: i % 4 for i, p in enumerate(field)}  # the wind each will owe
    history = []
    for session in range(3):
        groups = [[p for p in field if owes[p] == w] for w in range(4)]
        for group in groups:
            rng.shuffle(group)
        tables = []
        for table in zip(*groups, strict=True):
            seats = [""] * 4
            for p in table:  # in session s, the player owing w sits w + 1 + s
                seats[(owes[p] + 1 + session) % 4] = p
            tables.append(seats)
        history.append(tables)
    ranking = field[:]
    rng.shuffle(ranking)
    return ranking, history


def test_a_large_field_ends_with_every_players_winds_even():
    # Issue 39: Swiss seating at 2,000 players, the last session of 4 planned, every player
    # owing the one wind they have not sat (500 of each): each of the 500 tables must seat one
    # player owing each wind, and every player ends with each wind exactly once (⌊4/4⌋ =
    # ⌈4/4⌉ = 1, docs/features/seating.md "By standings"). Before issue 39 the search stopped
    # on its time cap at this size with 2.9 % of players uneven (12 sessions).
    ranking, history = three_winds_sat(2000, seed=1)
    tables = swiss_round(ranking, history, seed=1, sessions=4)
    assert sorted(p for t in tables for p in t) == sorted(ranking)
    counts = wind_counts(history + [tables])
    assert all(c == [1, 1, 1, 1] for c in counts.values())
    assert quality(history + [tables]).worst_imbalance == 0
    # the standings still decide: the leader's table is near the top
    assert max(ranking.index(p) for p in tables[0]) < 40


@pytest.mark.parametrize("count", [400, 1000])
def test_banded_fields_stay_even_and_avoid_repeats(count):
    # From swiss.BAND_FROM players the field is seated in bands (issue 39); the winds first,
    # each band from a seating that suits everyone. Three random sessions leave few pairs to
    # avoid among 400: none is seated again.
    ranking, history = three_winds_sat(count, seed=2)
    tables = swiss_round(ranking, history, seed=2, sessions=4)
    counts = wind_counts(history + [tables])
    assert all(c == [1, 1, 1, 1] for c in counts.values())
    assert repeats(tables, history) == 0
    assert swiss_round(ranking, history, seed=2, sessions=4) == tables  # same seed, same tables


def test_a_miss_the_search_would_trade_is_repaired_when_a_seating_suits_everyone(monkeypatch):
    # Even winds are the rule, never traded for spread or repeats (issue 39): were a miss
    # cheap (here a hundredth of a repeat), the search would leave players at tables that
    # cannot give them their owed wind; since a seating that suits everyone exists, the
    # search runs again from it with a miss outweighing everything (`swiss._even_winds`).
    ranking, history = three_winds_sat(32, seed=3)
    monkeypatch.setattr(swiss, "MISS_PER_REPEAT", 0.01)
    monkeypatch.setattr(swiss, "_even_winds", lambda costs, groups, *args: groups)
    cheap = swiss_round(ranking, history, seed=3, sessions=4)
    assert quality(history + [cheap]).worst_imbalance > 0  # the trade the rule forbids
    monkeypatch.undo()
    monkeypatch.setattr(swiss, "MISS_PER_REPEAT", 0.01)
    tables = swiss_round(ranking, history, seed=3, sessions=4)
    assert all(c == [1, 1, 1, 1] for c in wind_counts(history + [tables]).values())


@pytest.mark.parametrize("seed", [1, 7, 12])
def test_no_benchmark_seed_leaves_anyone_uneven_at_400(seed):
    # Issue 39: benchmarks/swiss_sim.py's 400-player tournaments of 12 sessions, seeds 1, 7
    # and 12, ended with 2, 6 and 2 players at wind imbalance 2 before (the whole field in one
    # search, a miss weighing four repeats); every player now sits each wind 3 times (⌊12/4⌋ =
    # ⌈12/4⌉, docs/features/seating.md "By standings"). Seeds 1–40 all end even.
    rounds = tournament(400, 12, seed=seed, planned=True, digits=3)
    assert all(c == [3, 3, 3, 3] for c in wind_counts(rounds).values())
