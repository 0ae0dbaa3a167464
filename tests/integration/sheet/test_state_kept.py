"""Issue 39: the table page's state is kept per table revision, with an ETag and 304. A refresh
that finds nothing new is answered 304 with no body and builds nothing; every write that
changes what the state shows changes its tag (a hand, a confirmation, a correction, an undo,
the table's draft and confirmed result, a substitution, the clock, a rule change, the
tournament's end), and a write at another table does not."""

import json
import uuid

import pytest

from scoring.models import Result
from scoring.services import confirm_result, enter_result
from scoring.services.finish import finish_tournament
from seating.keys import table_path
from sheet import state as kept
from sheet.state import table_state
from tests.support import factories as f
from tournament.models import Player
from tournament.sessions import start_clock
from tournament.timekeeping import adjust_clock, pause_clock

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 2, "fu": 30}], "riichi": ["S"]}
TSUMO = {"result": "tsumo", "wins": [{"seat": "E", "han": 1, "fu": 30}], "riichi": []}


@pytest.fixture
def tables():
    t = f.tournament(players=8)
    return list(f.seat_session(t).tables.order_by("number"))


def poll(client, table, tag=None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(table_path(table) + "state.json", **headers)


def tag_of(client, table) -> str:
    answer = poll(client, table)
    assert answer.status_code == 200
    return answer["ETag"].removeprefix("W/")


def act(client, table, body):
    answer = client.post(
        table_path(table) + "act/", json.dumps(body), content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    return answer.json()["state"]


def without_moving(state: dict) -> dict:
    clock = state.get("clock")
    still = None if clock is None else {k: v for k, v in clock.items() if k not in kept.MOVING}
    return {**state, "clock": still}


def test_a_refresh_that_finds_nothing_new_is_a_304_with_no_body(client, tables):
    table = tables[0]
    first = poll(client, table)
    assert first.status_code == 200
    tag = first["ETag"].removeprefix("W/")
    assert tag.startswith('"') and tag.endswith('"')
    again = poll(client, table, tag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag
    # the gzip of the answer makes its ETag weak: the page sends it back so
    assert poll(client, table, "W/" + tag).status_code == 304
    assert poll(client, table, '"something else"').status_code == 200
    # the page starts with the state's tag: its first refresh is a 304
    page = client.get(table_path(table)).content.decode()
    boot = json.loads(page.split('id="boot" type="application/json">')[1].split("</script>")[0])
    assert boot["state_tag"] == tag
    assert poll(client, table, boot["state_tag"]).status_code == 304


def test_a_304_builds_nothing_and_asks_the_database_nothing(
    client, tables, monkeypatch, django_assert_num_queries
):
    table = tables[0]
    tag = tag_of(client, table)

    def built(*args):
        raise AssertionError("the state was built again")

    monkeypatch.setattr(kept, "_state", built)
    # the link's key is checked by its hash and the table found by its place: no query
    with django_assert_num_queries(0):
        assert poll(client, table, tag).status_code == 304
    # a 200 to a page without the tag comes from the kept state too, with the clock as it is now
    answer = poll(client, table)
    assert answer.status_code == 200 and answer["ETag"].removeprefix("W/") == tag
    # a wrong key is no table, kept or not
    wrong = table_path(table).replace(table_path(table).split("/")[-2], "x" * 22)
    assert client.get(wrong + "state.json", HTTP_IF_NONE_MATCH=tag).status_code == 404


def test_a_deleted_tournaments_tables_are_not_answered_from_what_was_kept(client, tables):
    """A tournament deleted and another made with its slug: the same link (the same place and
    key) finds the new table's state, never the old one's kept tag."""
    table = tables[0]
    tag = tag_of(client, table)
    table.session.tournament.delete()
    t = f.tournament(players=8)
    again = f.seat_session(t).tables.order_by("number").first()
    assert table_path(again) == table_path(table)
    assert poll(client, again, tag).status_code == 200


def test_every_write_the_state_shows_changes_its_tag(client, tables):
    """Each kind of write, in the order a session sees them: the clock, a substitution, a hand,
    a confirmation, a correction, an undo, the table's draft, the desk's confirmation of the
    result; after each the table's tag is new, the state is the one built from the database,
    and the other table's tag is as it was."""
    table, other = tables
    staff = f.staff()
    desk = staff["desk1"]
    tournament = table.session.tournament
    sub = Player.objects.create(tournament=tournament, key="s01", name="Щербаков", substitute=True)
    tags = [tag_of(client, table)]
    other_tag = tag_of(client, other)

    def changed(what):
        tag = tag_of(client, table)
        assert tag not in tags, f"{what}: the tag did not change"
        assert poll(client, table, tags[-1]).status_code == 200, what
        assert poll(client, table, tag).status_code == 304, what
        table.refresh_from_db()
        fresh = table_state(type(table).objects.get(pk=table.pk))
        assert without_moving(poll(client, table).json()) == without_moving(fresh), what
        tags.append(tag)

    start_clock(table.session, desk)
    changed("the clock started")
    other_tag = tag_of(client, other)  # the clock is every table's
    pause_clock(table.session, desk)
    changed("the clock paused")
    other_tag = tag_of(client, other)
    substitute_player = table.seats.get(wind="N").player
    from referee.services import substitute

    substitute(table.session, substitute_player, sub, "during", staff["director"])
    changed("a substitution")
    other_tag = tag_of(client, other)

    body = {"action": "record", "data": RON, "number": 1, "device": "E"}
    act(client, table, {**body, "client_id": str(uuid.uuid4())})
    changed("a hand recorded")
    for wind in "ES":
        act(client, table, {"action": "confirm", "number": 1, "version": 1, "wind": wind})
        changed(f"a confirmation by {wind}")
    fix = {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}
    correct = {"action": "correct", "number": 1, "version": 1, "data": fix, "reason": "3 han"}
    act(client, table, {**correct, "client_id": str(uuid.uuid4())})
    changed("a correction")
    act(client, table, {**body, "data": TSUMO, "number": 2, "client_id": str(uuid.uuid4())})
    changed("a second hand")
    act(client, table, {"action": "undo", "number": 2, "version": 1, "reason": "wrong"})
    changed("an undo")
    assert tag_of(client, other) == other_tag  # the hands of one table are not the other's

    # the desk enters the scores the hands give as a draft (no revision of the tournament)
    given = {"E": (30000, 0), "S": (33900, 0), "W": (26100, 0), "N": (30000, 0)}
    result = enter_result(table, given, desk, 0)
    changed("a draft result entered by the desk")
    for wind in "ESWN":
        act(client, table, {"action": "confirm", "number": 1, "version": 2, "wind": wind})
    changed("the confirmations of every player")
    confirm_result(Result.objects.get(table=table, status=Result.Status.DRAFT), staff["desk2"])
    assert poll(client, table).json()["locked"]
    changed("the result confirmed by the desk")
    assert tag_of(client, other) == other_tag
    assert result.version == 1

    adjust_clock(table.session, desk, 5, table=table.number)
    changed("the table's extra time")
    f.play(other, [40000, 30000, 30000, 20000], desk, staff["desk2"])
    other_tag = tag_of(client, other)
    finish_tournament(tournament, staff["director"])
    changed("the tournament finished")
    assert tag_of(client, other) != other_tag  # the end closes every table's sheet


def test_a_rule_change_changes_every_tables_tag(client, tables):
    from scoring.services.rule_changes import change_rules

    before = [tag_of(client, t) for t in tables]
    tournament = tables[0].session.tournament
    change_rules(tournament, "ema-2012", {"sticks_at_end": "table"}, None, reason="try")
    after = [tag_of(client, t) for t in tables]
    assert all(a != b for a, b in zip(before, after, strict=True))


def test_the_state_is_built_again_at_the_clocks_next_moment(client, tables, monkeypatch):
    """The clock changes what the state shows by itself (000 §5.8: after the warning the hand
    in progress and one more; the send rule once time is up): a state built while the clock
    runs is built again at its next moment, and at the latest SECONDS_KEPT later."""
    table = tables[0]
    start_clock(table.session, f.user("clock"))
    tag = tag_of(client, table)
    builds = []
    real = kept._state
    monkeypatch.setattr(kept, "_state", lambda *a: builds.append(1) or real(*a))
    assert poll(client, table, tag).status_code == 304 and builds == []
    later = kept.time.time() + kept.SECONDS_KEPT + 1
    monkeypatch.setattr(kept.time, "time", lambda: later)
    assert poll(client, table, tag).status_code == 304  # built again, the same: the same tag
    assert builds == [1]


def test_the_clocks_moments(tables):
    """The warning at 15 minutes left, the time up, a table's own extra time: each the moment
    the state is built again, the nearest first, never later than SECONDS_KEPT."""
    now = 1000.0
    running = {"counting": True, "remaining": 20 * 60, "warning_at": 15 * 60, "extra": []}
    assert kept._until(running, 1, now) == now + kept.SECONDS_KEPT
    warning = {**running, "remaining": 15 * 60 + 10}
    assert kept._until(warning, 1, now) == now + 10
    up = {**running, "remaining": 12, "extra": [{"table": 1, "seconds": 60}]}
    assert kept._until(up, 1, now) == now + 12
    extra = {**running, "remaining": -30, "extra": [{"table": 1, "seconds": 40}]}
    assert kept._until(extra, 1, now) == now + 10
    assert kept._until(extra, 2, now) == now + kept.SECONDS_KEPT
    paused = {**running, "counting": False, "remaining": 5}
    assert kept._until(paused, 1, now) == now + kept.SECONDS_KEPT
