"""Issue 34, the archive's part: a restore keeps every table as it was and its preview names
exactly what it changes (finding 3), a table with recorded hands is not removed with them
(finding 4), and a failed backup write leaves no temporary file behind (finding 12). Through the
real pages: the restore page, the backups page, the session's table removal and the table page.
"""

import copy
import errno
import html
import json
import os
import re
import time
import uuid

import pytest
from django.urls import reverse

from archive import backups
from archive.backups import files
from archive.tournament_file import export_tournament
from scoring.models import Hand, HandConfirmation, Result
from scoring.selectors import hands_outcome
from scoring.services import (
    confirm_hand,
    confirm_result,
    enter_result,
    record_hand,
    save_typed_hands,
    undo_last_hand,
)
from seating.keys import table_path
from seating.models import Table
from tests.support import factories as f
from tests.support.hands import RIICHI_HANDS
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

SLUG = "i34-archive"


# --- building the hall ------------------------------------------------------------------------


def hall(staff):
    """Sixteen players at four tables of session 1: table 1 in play (two hands recorded at the
    table, the first confirmed by every player and the second by East, no result), table 2 a
    draft made from four typed hands, table 3 confirmed from its hands, table 4 seated and not
    started."""
    t = f.tournament(slug=SLUG, players=16)
    session = f.seat_session(t)
    tables = {table.number: table for table in session.tables.all()}
    first, second = (
        record_hand(tables[1], data, None, client_id=uuid.uuid4(), via="table", device="E")
        for data in RIICHI_HANDS[:2]
    )
    for wind in "ESWN":  # every player confirmed the first hand, East the second
        confirm_hand(first, wind, None, via="table")
    confirm_hand(second, "E", None, via="table")
    save_typed_hands(tables[2], RIICHI_HANDS, staff["desk1"])
    draft, _changed = save_typed_hands(tables[3], RIICHI_HANDS, staff["desk1"])
    confirm_result(draft, staff["desk2"])
    return Tournament.objects.get(pk=t.pk)


def table(number, session=1):
    return Table.objects.get(session__tournament__slug=SLUG, session__number=session, number=number)


def later(staff):
    """What happens after a backup: table 1 records its other two hands (and South confirms
    the second), the desk confirms
    table 2's draft, table 4 is removed and a seventeenth player arrives."""
    for data in RIICHI_HANDS[2:]:
        record_hand(table(1), data, None, client_id=uuid.uuid4(), via="table", device="S")
    confirm_hand(table(1).hands.get(number=2), "S", None, via="table")
    confirm_result(table(2).results.get(status="draft"), staff["desk2"])
    director = f.login(staff["director"])
    response = director.post(reverse("desk:table_delete", args=[SLUG, 1, 4]))
    assert response.status_code == 302
    assert not Table.objects.filter(session__tournament__slug=SLUG, number=4).exists()
    t = Tournament.objects.get(slug=SLUG)
    Player.objects.create(tournament=t, key="p17", name="Player 17")


def backup_now():
    return backups.write_backup(Tournament.objects.get(slug=SLUG))


def file_backup(data: dict):
    """A tournament file put into the backups folder, as a backup written earlier."""
    made = backups.write_backup(Tournament.objects.get(slug=SLUG))
    made.path.write_text(json.dumps(data), encoding="utf-8")
    return made


# --- what the database holds, and how two states differ ---------------------------------------


def state():
    """The tournament as the restore could change it, read from the database: each player, and
    each table's seating, shown result (the confirmed one, else the newest draft), newest
    version, current hands and who confirmed them."""
    t = Tournament.objects.get(slug=SLUG)
    players = {
        p.key: (p.name, p.club, p.team, p.substitute, p.status, p.checked_in)
        for p in t.players.all()
    }
    tables = {}
    for row in Table.objects.filter(session__tournament=t).select_related("session"):
        results = list(row.results.order_by("version"))
        shown = next((r for r in results if r.status == Result.Status.CONFIRMED), None)
        if shown is None:
            drafts = [r for r in results if r.status == Result.Status.DRAFT]
            shown = drafts[-1] if drafts else None
        tables[(row.session.number, row.number)] = {
            "seating": sorted((s.wind, s.player.key) for s in row.seats.all()),
            "result": None
            if shown is None
            else (
                shown.status,
                sorted((s.wind, s.player.key, s.score, s.chombo) for s in shown.scores.all()),
            ),
            "version": max((r.version for r in results), default=None),
            "hands": [
                h.data
                for h in Hand.objects.filter(table=row, superseded_at__isnull=True).order_by(
                    "number"
                )
            ],
            "confirmed": set(
                HandConfirmation.objects.filter(
                    hand__table=row, hand__superseded_at__isnull=True
                ).values_list("hand__number", "wind")
            ),
        }
    return players, tables


def differences(before, after) -> set:
    """What differs between two states: ("player", key), ("table", place) for a table only in
    one, ("seating" | "result" | "hands" | "confirmations", place) for a table in both."""
    (players_a, tables_a), (players_b, tables_b) = before, after
    out = {("player", key) for key in set(players_a) ^ set(players_b)}
    out |= {("player", k) for k in set(players_a) & set(players_b) if players_a[k] != players_b[k]}
    out |= {("table", place) for place in set(tables_a) ^ set(tables_b)}
    for place in set(tables_a) & set(tables_b):
        a, b = tables_a[place], tables_b[place]
        if a["seating"] != b["seating"]:
            out.add(("seating", place))
        if (a["result"], a["version"]) != (b["result"], b["version"]):
            out.add(("result", place))
        if a["hands"] != b["hands"]:
            out.add(("hands", place))
        if a["confirmed"] != b["confirmed"]:
            out.add(("confirmations", place))
    return out


def page_rows(page: str) -> list[list[str]]:
    body = page.split('id="restore-changes"')[1]
    rows = [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell).strip())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        ]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    return [r for r in rows if len(r) == 5]


KINDS = {"Player": "player", "Table": "table", "Seating": "seating", "Result": "result"}
KINDS.update({"Hands": "hands", "Confirmations of hands": "confirmations"})


def named(rows) -> set:
    """The restore page's rows as the changes they name (what, which player or table)."""
    out = set()
    for what, record, *_rest in rows:
        kind = KINDS[what]
        if kind == "player":
            out.add((kind, record.split()[0]))
        else:
            session, number = re.fullmatch(r"session (\d+), table (\d+)", record).groups()
            out.add((kind, (int(session), int(number))))
    return out


def restore_through_the_pages(staff, backup):
    """The restore page's changes, the restore, and the differences the restore made."""
    director = f.login(staff["director"])
    url = reverse("archive:backup_restore", args=[SLUG, backup.name])
    before = state()
    page = director.get(url)
    assert page.status_code == 200
    page = page.content.decode()
    rows = page_rows(page)
    response = director.post(url)
    assert response.status_code == 302, response
    after = state()
    return page, rows, differences(before, after), after


# --- finding 3: export and restore keep every table as it was --------------------------------


def test_a_table_in_play_is_exported_playing_with_its_hands_and_no_scores():
    """docs/formats.md: a table still being played carries "status": "playing", its hands
    kept, its seats with no score; a draft made from hands is "draft" with its hands."""
    staff = f.staff()
    t = hall(staff)
    tables = {row["number"]: row for row in export_tournament(t)["sessions"][0]["tables"]}
    assert tables[1]["status"] == "playing" and len(tables[1]["hands"]) == 2
    assert all("score" not in seat and "chombo" not in seat for seat in tables[1]["seats"])
    assert "history" not in tables[1]
    assert tables[1]["hands_confirmed"] == [["E", "S", "W", "N"], ["E"]]
    assert tables[2]["status"] == "draft" and len(tables[2]["hands"]) == 4
    assert [seat["score"] for seat in tables[2]["seats"]] == [44800, 36600, 23200, 15400]
    assert "status" not in tables[3] and len(tables[3]["hands"]) == 4  # confirmed
    assert "status" not in tables[4] and "hands" not in tables[4]


def test_restoring_the_newest_backup_changes_nothing_and_the_table_plays_on():
    """The issue's finding: the newest backup of a session made every table in play a
    confirmed result, and the preview said "restoring changes nothing". Now it changes
    nothing, truly: table 1 comes back in play with its two hands and no result, a phone goes
    on recording at the same link, and the desk enters and confirms its result later."""
    staff = f.staff()
    hall(staff)
    page, rows, changed, after = restore_through_the_pages(staff, backup_now())
    assert rows == [] and "restoring changes nothing" in page
    assert changed == set()
    assert after[1][(1, 1)]["result"] is None and len(after[1][(1, 1)]["hands"]) == 2
    assert after[1][(1, 1)]["confirmed"] == {(1, "E"), (1, "S"), (1, "W"), (1, "N"), (2, "E")}
    assert after[1][(1, 2)]["result"][0] == "draft"
    assert after[1][(1, 3)]["result"][0] == "confirmed"

    in_play = table(1)
    assert not in_play.results.exists()
    body = {
        "action": "record",
        "data": RIICHI_HANDS[2],
        "number": 3,
        "device": "W",
        "client_id": str(uuid.uuid4()),
    }
    response = f.login(staff["desk1"]).post(
        table_path(in_play) + "act/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert [h["number"] for h in response.json()["state"]["hands"]] == [1, 2, 3]
    outcome = hands_outcome(in_play)
    entries = {wind: (score, outcome.chombo[wind]) for wind, score in outcome.scores.items()}
    draft = enter_result(in_play, entries, staff["desk1"], 0)
    assert confirm_result(draft, staff["desk2"]).status == Result.Status.CONFIRMED


def scenario_later_play(staff):
    """Back up the hall, play on (more hands, a confirmation, a removed table, a new player),
    then restore the backup."""
    hall(staff)
    backup = backup_now()
    later(staff)
    return backup


def scenario_back_to_later(staff):
    """The other way: the state after the later play backed up, the hall restored to the
    earlier backup, then the later backup restored over it (a table comes back only in the
    file, a draft becomes confirmed, a table in play gets its other hands, a player arrives)."""
    hall(staff)
    earlier = backup_now()
    later(staff)
    newer = backup_now()
    director = f.login(staff["director"])
    assert director.post(reverse("archive:backup_restore", args=[SLUG, earlier.name])).status_code
    return newer


def scenario_old_file(staff):
    """A file written before "playing" existed: table 1 has hands and no scores and no status.
    The format computes its scores from the hands and makes it a confirmed result; the preview
    says so before the restore does it."""
    hall(staff)
    data = json.loads(backup_now().path.read_text(encoding="utf-8"))
    old = copy.deepcopy(data)
    for row in old["sessions"][0]["tables"]:
        if row.get("status") == "playing":
            del row["status"]
    return file_backup(old)


def scenario_corrected(staff):
    """After the backup, the desk enters and confirms table 4's result from its paper sheet,
    and table 2's typed hands are corrected (the fourth was not played): its hands and its
    draft differ."""
    hall(staff)
    backup = backup_now()
    f.play(table(4), [36000, 32000, 30000, 22000], staff["desk1"], staff["desk2"])
    save_typed_hands(table(2), RIICHI_HANDS[:3], staff["desk1"], reason="the fourth was not")
    return backup


LATER = {
    ("hands", (1, 1)),
    ("confirmations", (1, 1)),
    ("result", (1, 2)),
    ("table", (1, 4)),
    ("player", "p17"),
}
SCENARIOS = {
    "later play": (scenario_later_play, LATER),
    "back to later": (scenario_back_to_later, LATER),
    "old file": (scenario_old_file, {("result", (1, 1))}),
    "corrected": (
        scenario_corrected,
        {("result", (1, 2)), ("hands", (1, 2)), ("result", (1, 4))},
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_restore_page_names_exactly_what_the_restore_changes(name):
    """The preview held to the restore: the changes the restore page lists (results, hands,
    tables, seating, players) are exactly the differences between the database before and
    after the restore, and the page's count is theirs."""
    staff = f.staff()
    build, expected = SCENARIOS[name]
    backup = build(staff)
    page, rows, changed, _after = restore_through_the_pages(staff, backup)
    assert changed == expected
    assert named(rows) == changed
    assert f"Restoring changes {len(changed)} thing" in page


def test_the_page_says_a_table_in_play_stays_in_play_or_becomes_a_result():
    """The rows say what a table is on each side: in play with its hands, or a result."""
    staff = f.staff()
    backup = scenario_old_file(staff)
    rows = page_rows(
        f.login(staff["director"])
        .get(reverse("archive:backup_restore", args=[SLUG, backup.name]))
        .content.decode()
    )
    assert rows == [
        [
            "Result",
            "session 1, table 1",
            "version – here, version 1 in the file",
            "in play, 2 hands, no result",
            # docs/rules.md §5.1, the first two hands of tests/support/hands.py; EMA gives the stick
            # left on the table to the first at the end.
            "Player 01 31500 / Player 02 35700 / Player 03 23300 / Player 04 29500",
        ]
    ]


def test_a_playing_table_with_scores_or_a_result_in_its_history_is_refused():
    """A table in play has no result: a file that gives it scores, or whose history's current
    version is a draft, is refused naming the place, and nothing is restored; so is a wind
    confirming a hand twice, or a confirmation of a hand the table does not have."""
    staff = f.staff()
    hall(staff)
    data = json.loads(backup_now().path.read_text(encoding="utf-8"))
    scored = copy.deepcopy(data)
    scored["sessions"][0]["tables"][0]["seats"][0]["score"] = 30000
    drafted = copy.deepcopy(data)
    drafted["sessions"][0]["tables"][1]["status"] = "playing"
    twice = copy.deepcopy(data)
    twice["sessions"][0]["tables"][0]["hands_confirmed"] = [["E", "E"]]
    extra = copy.deepcopy(data)
    extra["sessions"][0]["tables"][0]["hands_confirmed"] = [["E"], ["E"], ["S"]]
    for bad, where in (
        (scored, "sessions[0].tables[0].seats[0].score: the table is still in play"),
        (drafted, "sessions[0].tables[1].seats[0].score: the table is still in play"),
        (twice, "sessions[0].tables[0].hands_confirmed[0][1]: "),
        (extra, "sessions[0].tables[0].hands_confirmed[2]: the table has 2 hands"),
    ):
        backup = file_backup(bad)
        director = f.login(staff["director"])
        url = reverse("archive:backup_restore", args=[SLUG, backup.name])
        before = state()
        shown = html.unescape(director.get(url, follow=True).content.decode())
        assert "The backup cannot be read: " + where in shown
        refused = html.unescape(director.post(url, follow=True).content.decode())
        assert "Nothing restored: " + where in refused
        assert state() == before


# --- finding 4: a table with recorded hands is not removed with them -------------------------


def test_removing_a_table_with_hands_is_refused_naming_the_table_and_the_count():
    staff = f.staff()
    hall(staff)
    director = f.login(staff["director"])
    session_page = reverse("desk:session", args=[SLUG, 1])
    listed = director.get(session_page).content.decode()
    assert reverse("desk:table_delete", args=[SLUG, 1, 1]) not in listed  # not offered
    assert reverse("desk:table_delete", args=[SLUG, 1, 4]) in listed
    response = director.post(reverse("desk:table_delete", args=[SLUG, 1, 1]), follow=True)
    assert "Table 1 has 2 recorded hands: it cannot be removed while it has hands" in html.unescape(
        response.content.decode()
    )
    assert Hand.objects.filter(table=table(1), superseded_at__isnull=True).count() == 2
    # One hand undone, one left: still refused, and the count says one.
    in_play = table(1)
    undo_last_hand(in_play, staff["referee"], "recorded twice")
    response = director.post(reverse("desk:table_delete", args=[SLUG, 1, 1]), follow=True)
    assert "Table 1 has 1 recorded hand: it cannot" in html.unescape(response.content.decode())
    assert Table.objects.filter(pk=in_play.pk).exists()
    # A table without hands or results is removed as before.
    assert director.post(reverse("desk:table_delete", args=[SLUG, 1, 4])).status_code == 302
    assert not Table.objects.filter(session__tournament__slug=SLUG, number=4).exists()


# --- finding 12: a failed backup write leaves no temporary file ------------------------------


def temporaries():
    return sorted(p.name for p in backups.folder_of(SLUG).glob(".*.tmp"))


@pytest.mark.parametrize("call", ["fsync", "replace"])
def test_a_backup_write_that_fails_removes_its_temporary_file(monkeypatch, call):
    """A full disk fails the write at its flush (fsync), or the rename fails: the backups page
    says the backup failed, and neither a temporary file nor a backup is left."""
    staff = f.staff()
    f.tournament(slug=SLUG, players=4)
    backup_now()
    written = [b.name for b in backups.listing(SLUG)]

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, call, full)
    response = f.login(staff["director"]).post(reverse("archive:backups", args=[SLUG]), follow=True)
    assert "The backup failed: [Errno 28] No space left on device" in response.content.decode()
    monkeypatch.undo()
    assert temporaries() == []
    assert [b.name for b in backups.listing(SLUG)] == written


def test_pruning_removes_stale_temporary_files_and_leaves_a_write_in_progress():
    """A write killed midway (kill -9, a power cut) leaves its temporary file; the next backup's
    pruning removes it once it is older than a write could take, and leaves a young one."""
    staff = f.staff()
    f.tournament(slug=SLUG, players=4)
    backup_now()
    folder = backups.folder_of(SLUG)
    stale = folder / ".20260101-000000-000000-s01.json.tmp"
    young = folder / ".20260101-000001-000000-s01.json.tmp"
    for path in (stale, young):
        path.write_text('{"half": ', encoding="utf-8")
    old = time.time() - backups.TEMPORARY_STALE_SECONDS - 60
    os.utime(stale, (old, old))
    response = f.login(staff["director"]).post(reverse("archive:backups", args=[SLUG]), follow=True)
    assert "written." in response.content.decode()
    assert temporaries() == [young.name]
