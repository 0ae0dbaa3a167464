"""Seating through the desk's real URLs: balanced plans, Swiss, swaps and moves, the record."""

import io
import json
import re
from itertools import combinations

import pytest
from django.core.management import CommandError, call_command

from archive.tournament_file import export_tournament
from scoring.selectors import standings
from seating.algorithms.plan import balanced_plan
from seating.algorithms.winds import wind_counts
from seating.models import Seat, SeatingChange, SeatingPlan
from seating.selectors import session_rounds
from tests.support import factories as f
from tournament.models import Player, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return f.staff()


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def pairs(rounds):
    met = {}
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
    return met


def play_all(session, staff):
    """Confirm every table of the session: the seat order E, S, W, N takes places 1..4."""
    for table in session.tables.all():
        f.play(table, [45000, 35000, 25000, 15000], staff["desk1"], staff["desk2"])


def test_balanced_plan_made_seen_and_applied(staff):
    t = f.tournament(players=16, planned_sessions=5)
    c = f.login(staff["director"])
    response = c.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 5, "seed": 7})
    plan = SeatingPlan.objects.get()
    assert response.status_code == 302 and response["Location"] == f.plan_url(plan)
    assert plan.status == "done" and plan.figures["extra_meetings"] == 0
    page = c.get(f.plan_url(plan)).content.decode()
    assert "extra meetings" in page and "Apply the plan" in page
    assert json.loads(c.get(f.plan_url(plan) + "status/").content)["status"] == "done"
    assert not Session.objects.filter(tournament=t).exists()  # nothing seated before "apply"

    response = c.post(f.plan_url(plan) + "apply/")
    assert response.status_code == 302
    rounds = session_rounds(t)
    assert sorted(rounds) == [1, 2, 3, 4, 5]
    assert all(len(tables) == 4 for tables in rounds.values())
    assert set(pairs(rounds.values()).values()) == {1}  # all 120 pairs, each exactly once
    assert len(pairs(rounds.values())) == 120
    assert Session.objects.filter(tournament=t, method="balanced", seed=7).count() == 5
    change = SeatingChange.objects.filter(kind="plan").first()
    assert change.changed_by == staff["director"] and "seed 7" in change.detail
    plan.refresh_from_db()
    assert plan.status == "applied" and plan.applied_by == staff["director"]
    # the session page shows the figures; the tournament file carries the seating
    page = c.get(f"/desk/{t.slug}/s/5/").content.decode()
    assert 'id="quality"' in page and "most meetings of one pair" in page
    exported = export_tournament(t)
    assert [len(s["tables"]) for s in exported["sessions"]] == [4] * 5
    assert all(
        "score" not in seat
        for s in exported["sessions"]
        for tb in s["tables"]
        for seat in tb["seats"]
    )
    # applying twice is refused
    response = c.post(f.plan_url(plan) + "apply/", follow=True)
    assert "Only a finished plan" in " ".join(messages_of(response))


def test_plan_from_session_k_keeps_played_sessions(staff):
    t = f.tournament(players=16, planned_sessions=4)
    session = f.seat_session(t)
    play_all(session, staff)
    played = session_rounds(t)[1]
    c = f.login(staff["director"])
    response = c.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 4, "seed": 1})
    assert "Session 1 already has results" in response.content.decode()
    assert not SeatingPlan.objects.exists()
    c.post(f"/desk/{t.slug}/plans/", {"first": 2, "last": 4, "seed": 1})
    plan = SeatingPlan.objects.get()
    assert plan.figures["fixed_sessions"] == 1
    c.post(f.plan_url(plan) + "apply/")
    rounds = session_rounds(t)
    assert rounds[1] == played
    assert max(pairs(rounds.values()).values()) == 1


def test_plan_needs_a_multiple_of_four_in_riichi(staff):
    t = f.tournament(players=18)
    c = f.login(staff["director"])
    response = c.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 3})
    assert "18 active players cannot fill tables of four" in response.content.decode()
    Player.objects.create(tournament=t, key="s1", name="Sub One", substitute=True)
    Player.objects.create(tournament=t, key="s2", name="Sub Two", substitute=True)
    c.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 3, "seed": 2})
    plan = SeatingPlan.objects.get()
    assert plan.figures["players"] == 20
    assert {"s1", "s2"} <= {k for table in plan.rounds[0] for k in table}


def test_swiss_puts_the_table_winners_together(staff):
    # The four winners all sat East. Over 8 planned sessions one of them may sit it again; over
    # 4 (the default) each must sit each wind once, and that would split them up (see below).
    t = f.tournament(players=16, planned_sessions=8)
    s1 = f.seat_session(t)
    play_all(s1, staff)
    Session.objects.create(tournament=t, number=2)
    c = f.login(staff["director"])
    response = c.post(f"/desk/{t.slug}/s/1/swiss/", {"seed": 1}, follow=True)
    assert "starts with session 2" in " ".join(messages_of(response))
    c.post(f"/desk/{t.slug}/s/2/swiss/", {"seed": 1})
    rounds = session_rounds(t)
    winners = {table[0] for table in rounds[1]}  # East took first place at every table
    top = [row.player.key for row in standings(t).rows[:4]]
    assert set(top) == winners
    assert set(rounds[2][0]) == winners
    assert max(pairs(rounds.values()).values()) == 1
    session = Session.objects.get(tournament=t, number=2)
    assert session.method == "swiss" and session.seed == 1
    assert SeatingChange.objects.filter(session=session, kind="swiss").exists()


# Sessions 1-3 of 16 players: three parallel classes of the affine plane of order 4, so no pair
# meets twice and two more repeat-free sessions exist; each player sits three different winds,
# so each owes one. East wins every table, so the standings sort the players by the wind they
# owe (those owing North lead): cut in fours, every table would owe one wind four times.
OWING_ONE_WIND = [
    [["p13", "p09", "p05", "p01"], ["p10", "p02", "p14", "p06"], ["p03", "p15", "p07", "p11"],
     ["p04", "p16", "p12", "p08"]],
    [["p01", "p06", "p11", "p16"], ["p15", "p12", "p02", "p05"], ["p09", "p08", "p03", "p14"],
     ["p07", "p10", "p13", "p04"]],
    [["p14", "p07", "p01", "p12"], ["p11", "p13", "p08", "p02"], ["p05", "p03", "p16", "p10"],
     ["p06", "p04", "p09", "p15"]],
]  # fmt: skip


@pytest.mark.parametrize(("planned", "even"), [(4, 16), (6, 16)])
def test_swiss_gives_the_winds_owed_when_the_session_is_the_last(staff, planned, even):
    # Issue 3: "worst wind imbalance ≤ 2 with ≤ 1 for at least 95% of players". With 4 planned
    # sessions, session 4 is the last chance to even the winds: everyone gets the wind they owe,
    # still without a repeat meeting. With 6 planned, two sessions remain to make it up and
    # nothing forces it, but the winds sat least still guide (W_WIND): the local search of
    # issue 26 finds tables that give all sixteen their wind here too (the annealing before it
    # stopped at ten).
    t = f.tournament(players=16, planned_sessions=planned)
    for number, groups in enumerate(OWING_ONE_WIND, start=1):
        play_all(f.seat_session(t, number, groups=groups), staff)
    Session.objects.create(tournament=t, number=4)
    c = f.login(staff["director"])
    page = c.get(f"/desk/{t.slug}/s/4/").content.decode()
    assert f"Winds are planned to come out even by session {planned}," in page
    c.post(f"/desk/{t.slug}/s/4/swiss/", {"seed": 1})
    rounds = session_rounds(t)
    assert [len(table) for table in rounds[4]] == [4, 4, 4, 4]
    counts = wind_counts(list(rounds.values()))
    assert sum(seen == [1, 1, 1, 1] for seen in counts.values()) == even
    assert max(pairs(rounds.values()).values()) == 1


def test_swap_warns_then_swaps_and_is_recorded(staff):
    t = f.tournament(players=8)
    f.seat_session(t)  # p01-p04, p05-p08
    s2 = f.seat_session(t, 2, groups=[["p01", "p05", "p02", "p06"], ["p03", "p07", "p04", "p08"]])
    c = f.login(staff["director"])
    url = f"/desk/{t.slug}/s/2/seats/"
    # p02 ⇄ p03: p03 would sit with p01 and p02's... p03 met p01 and p02 in session 1
    found = json.loads(c.get(url, {"a": "p02", "b": "p07"}).content)["warnings"]
    assert "Player 02 and Player 04 also sit together in session 1." in found
    response = c.post(url, {"a": "p02", "b": "p07"}, follow=True)
    assert "Seating changed." in " ".join(messages_of(response))
    seat = Seat.objects.get(session=s2, player__key="p02")
    assert (seat.table.number, seat.wind) == (2, "S")
    assert Seat.objects.get(session=s2, player__key="p07").table.number == 1
    change = SeatingChange.objects.get(session=s2, kind="swap")
    assert change.changed_by == staff["director"] and not change.played
    assert seat.history.first().history_user == staff["director"]


def test_played_session_changes_only_with_override_and_reason(staff):
    t = f.tournament(players=8)
    s1 = f.seat_session(t)
    play_all(s1, staff)
    before = session_rounds(t)
    c = f.login(staff["director"])
    url = f"/desk/{t.slug}/s/1/seats/"
    response = c.post(url, {"a": "p01", "b": "p05"}, follow=True)
    assert "needs the director's explicit confirmation" in " ".join(messages_of(response))
    response = c.post(url, {"a": "p01", "b": "p05", "override": "on"}, follow=True)
    assert "Reason: say why" in " ".join(messages_of(response))
    assert session_rounds(t) == before and not SeatingChange.objects.filter(kind="swap").exists()
    c.post(url, {"a": "p01", "b": "p05", "override": "on", "reason": "seats were swapped"})
    assert session_rounds(t)[1][0][0] == "p05"
    change = SeatingChange.objects.get(kind="swap")
    assert change.played and change.reason == "seats were swapped"
    assert "seats were swapped" in c.get(f"/desk/{t.slug}/s/1/").content.decode()


def test_move_to_the_empty_north_seat_of_a_three_player_table(staff):
    t = f.tournament(ruleset="sbr-2025", players=11)
    session = f.seat_session(
        t,
        groups=[["p01", "p02", "p03", "p04"], ["p05", "p06", "p07", "p08"], ["p09", "p10", "p11"]],
    )
    c = f.login(staff["director"])
    url = f"/desk/{t.slug}/s/1/seats/"
    response = c.post(url, {"a": "p04", "table": 3, "wind": "E"}, follow=True)
    assert "that seat is taken" in " ".join(messages_of(response))
    c.post(url, {"a": "p04", "table": 3, "wind": "N"})
    seat = Seat.objects.get(session=session, player__key="p04")
    assert (seat.table.number, seat.wind) == (3, "N")
    assert "table 1 North → table 3 North" in SeatingChange.objects.get(kind="move").detail


def test_draw_keeps_club_mates_apart(staff):
    t = f.tournament(players=8, keep_apart="club")
    for p in t.players.all():
        p.club = f"club {(int(p.key[1:]) - 1) // 2}"  # four clubs of two
        p.save()
    c = f.login(staff["director"])
    for seed in (1, 2, 3):
        Session.objects.create(tournament=t, number=seed)
        c.post(f"/desk/{t.slug}/s/{seed}/draw/", {"seed": seed})
        clubs = dict(t.players.values_list("key", "club"))
        for table in session_rounds(t)[seed]:
            assert len({clubs[k] for k in table}) == 4, (seed, table)
    page = c.get(f"/desk/{t.slug}/s/1/print/").content.decode()
    assert "random draw" in page and "<code>1</code>" in page and "keep apart" in page


def test_seat_command_plans_draws_and_prints_figures(staff):
    t = f.tournament(players=16, slug="cmd-open")
    out = io.StringIO()
    call_command(
        "seat", "cmd-open", "--sessions", "1-5", "--method", "balanced", "--seed", "4", stdout=out
    )
    text = out.getvalue()
    assert "extra meetings (Σ meetings − 1): 0" in text
    assert "sessions possible without any repeat: 5" in text
    assert len(session_rounds(t)) == 5
    with pytest.raises(CommandError, match="already seated"):
        call_command("seat", "cmd-open", "--session", "5", "--method", "draw", stdout=out)
    out = io.StringIO()
    call_command(
        "seat", "cmd-open", "--session", "6", "--method", "draw", "--seed", "9", stdout=out
    )
    assert "seed 9" in out.getvalue()
    assert Session.objects.get(tournament=t, number=6).seed == 9
    with pytest.raises(CommandError, match="use --method balanced"):
        call_command("seat", "cmd-open", "--sessions", "7-8", "--method", "draw")
    with pytest.raises(CommandError, match="No tournament"):
        call_command("seat", "nope", "--session", "1", "--method", "draw")


def test_sichuan_draw_never_puts_anyone_at_an_incomplete_table_twice(staff):
    # docs/rules.md §3 (002 §3.1): "A player who already sat at an incomplete table cannot be put at
    # one again." 14 players: two tables of four and two of three each session, so over two
    # sessions 12 of them sit three-handed once and nobody twice.
    t = f.tournament(ruleset="sbr-2025", players=14)
    c = f.login(staff["director"])
    for number in (1, 2):
        Session.objects.create(tournament=t, number=number)
        c.post(f"/desk/{t.slug}/s/{number}/draw/", {"seed": 40 + number})
    rounds = session_rounds(t)
    assert [sorted(map(len, tables)) for tables in rounds.values()] == [[3, 3, 4, 4]] * 2
    turns = {}
    for tables in rounds.values():
        for table in tables:
            if len(table) < 4:
                for key in table:
                    turns[key] = turns.get(key, 0) + 1
    assert len(turns) == 12 and max(turns.values()) == 1


def quality_table(page: str) -> dict:
    """{figure: (value, bound)} from the page's quality table."""
    table = page.split('id="quality"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        if cells:
            rows[cells[0]] = tuple(cells[1:])
    return rows


def test_plan_page_figures_are_true_for_twelve_players(staff):
    # Issue 23: 12 players were told "sessions possible without any repeat: 3" and "best
    # possible 6" extra meetings over four sessions. One session is all there is (a second
    # one's tables draw on three first-session tables), and 6 was no seating's figure.
    t = f.tournament(players=12, planned_sessions=4)
    c = f.login(staff["director"])
    c.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 4, "seed": 3})
    plan = SeatingPlan.objects.get()
    rows = quality_table(c.get(f.plan_url(plan)).content.decode())
    assert rows["sessions possible without any repeat"] == ("1", "")
    value, bound = rows["extra meetings (Σ meetings − 1)"]
    assert bound == "at least 9" and int(value) >= 9
    assert rows["worst wind imbalance"] == ("0", "0")  # four sessions: each wind once
    assert rows["pairs meeting twice or more"][1] == "at least 3"  # 9 over three sessions
    c.post(f.plan_url(plan) + "apply/")
    out = io.StringIO()
    call_command("seat", t.slug, "--session", "5", "--method", "draw", "--seed", "1", stdout=out)
    text = out.getvalue()
    assert "sessions possible without any repeat: 1" in text
    assert "fewest extra meetings possible: at least " in text


def test_session_page_of_an_empty_session_claims_no_meeting(staff):
    t = f.tournament(players=12)
    Session.objects.create(tournament=t, number=1)
    c = f.login(staff["director"])
    page = c.get(f"/desk/{t.slug}/s/1/").content.decode()
    # Issue 23: nobody seated, so no figure at all (it showed "best possible 1" beside a 0).
    assert quality_table(page) == {"Nobody is seated yet: there is nothing to measure.": ()}


def test_swiss_says_why_the_tables_of_three_are_not_the_last_places(staff):
    # 002 §3.1 (3): under programmed seating the missing seats go to the last tables, the lowest
    # in the standings; docs/rules.md §3: nobody sits at an incomplete table a second time while
    # another has not. 13 players: one table of four and three of three. Session 1 seated p01-p04
    # at the table of four, so in session 2 those four must play three-handed, whatever their
    # places, and the session page's seating history says which of the last places gave way.
    t = f.tournament(ruleset="sbr-2025", players=13, planned_sessions=4)
    keys = [f"p{n:02d}" for n in range(1, 14)]
    s1 = f.seat_session(t, groups=[keys[0:4], keys[4:7], keys[7:10], keys[10:13]])
    for table in s1.tables.all():
        scores = [30, 10, -10, -30] if table.seats.count() == 4 else [20, 0, -20]
        f.play(table, scores, staff["desk1"], staff["desk2"])
    Session.objects.create(tournament=t, number=2)
    c = f.login(staff["director"])
    c.post(f"/desk/{t.slug}/s/2/swiss/", {"seed": 1})
    rounds = session_rounds(t)
    short = {p for table in rounds[2] if len(table) == 3 for p in table}
    assert set(keys[0:4]) <= short
    order = [row.player.key for row in standings(t).rows]
    places = sorted(order.index(p) + 1 for p in short)
    detail = SeatingChange.objects.get(session__number=2, kind="swiss").detail
    assert f"Incomplete tables at places {', '.join(map(str, places))} of 13" in detail
    assert "already sat at an incomplete table" in detail
    page = c.get(f"/desk/{t.slug}/s/2/").content.decode()
    assert "not the last (002 §3.1 (3))" in page


def test_plan_page_shows_what_even_winds_cost(staff):
    # Issue 36: 20 players, sessions 1-2 played (two classes of the 20-player design: no
    # repeats, every player two different winds); the plan of sessions 3-4 now gives everyone
    # each wind exactly once, and its page says what that cost against the plan of fewest
    # repeats (which had none and a worst imbalance of 2).
    t = f.tournament(players=20, planned_sessions=4)
    keys = [f"p{n:02d}" for n in range(1, 21)]
    design = balanced_plan(keys, 4, seed=0).rounds[:2]
    for number, groups in enumerate(design, start=1):
        play_all(f.seat_session(t, number, groups=groups), staff)
    c = f.login(staff["director"])
    c.post(f"/desk/{t.slug}/plans/", {"first": 3, "last": 4, "seed": 0})
    plan = SeatingPlan.objects.get()
    assert plan.figures["worst_imbalance"] == 0
    price = plan.figures["price"]
    assert price["imbalance"] == 2 and price["extra_meetings"] == plan.figures["extra_meetings"]
    assert 1 <= price["extra_meetings"] <= 2
    page = c.get(f.plan_url(plan)).content.decode()
    n = price["extra_meetings"]
    words = "extra meeting" if n == 1 else "extra meetings"
    assert f"Even winds cost {n} {words} more than the plan of fewest repeats" in page
    assert "worst wind imbalance was 2 higher" in page
