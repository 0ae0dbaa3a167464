"""Backups after every change, their folder's retention, download, and restore (page and
command), down to a restore on a fresh machine giving the same standings feed."""

import html
import json
import os
import re
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from archive import backups
from archive.backups import restore_rows, restoring, writer
from archive.tournament_file import changes, export_tournament
from referee.appeals import file_appeal, review_appeal
from referee.services import record_incident, record_penalty, void_penalty
from scoring.feed import feed_json
from scoring.models import Penalty, Result
from seating.manual import swap_players
from seating.models import SeatingPlan, Table
from tests.support import factories as f
from tests.support import live_desk
from tournament.models import ClockEvent, Restore, Tournament

# Real commits, as in the hall: a backup is written when its change commits.
pytestmark = pytest.mark.django_db(transaction=True)


def seat(t, number, groups=None):
    """A whole session seated in one transaction, as the draw does it."""
    with transaction.atomic():
        return f.seat_session(t, number, groups)


def build(staff, draft=True):
    """Eight players, two sessions: confirmed results, a late penalty, a void one, a draft."""
    t = f.tournament(slug="bk-open")
    s1 = seat(t, 1)
    for table, scores in zip(
        s1.tables.order_by("number"),
        ([42000, 31000, 27000, 20000], [35000, 33000, 30000, 22000]),
        strict=True,
    ):
        f.play(table, scores, staff["desk1"], staff["desk2"])
    s2 = seat(t, 2, [["p01", "p05", "p02", "p06"], ["p03", "p07", "p04", "p08"]])
    late = record_penalty(s2, t.players.get(key="p03"), "late", staff["referee"], minutes=4)
    void_penalty(late, staff["director"], "clock was wrong")
    record_penalty(s2, t.players.get(key="p07"), "late", staff["referee"], minutes=2)
    tables = list(s2.tables.order_by("number"))
    f.play(tables[0], [50000, 30000, 25000, 15000], staff["desk1"], staff["desk2"])
    if draft:  # a draft writes no backup of its own; the next change's file has it
        f.play(tables[1], [28000, 26000, 34000, 32000], staff["desk2"], None)
    return Tournament.objects.get(pk=t.pk)


def test_every_change_that_commits_writes_a_whole_tournament_file():
    staff = f.staff()
    t = build(staff, draft=False)
    made = backups.listing(t.slug)
    # 2 seatings, 3 confirmations, 3 penalty changes: eight changes, eight files (a draft
    # writes none; it is in the next one). A seating of two tables is one file, not two.
    assert len(made) == 8
    assert made[0].session == 2 and made[-1].session == 1
    newest = json.loads(made[0].path.read_text())
    assert newest == json.loads(json.dumps(export_tournament(t)))
    assert not list(backups.folder_of(t.slug).glob(".*.tmp"))


def test_check_in_at_the_desk_writes_a_backup_with_it():
    """The README's promise: check-in is one of the changes that write a backup (it was the one
    write that forgot; now every write's touch() sends the signal the backups listen to)."""
    staff = f.staff()
    t = f.tournament(slug="checkin-backup")
    player = t.players.get(key="p01")
    before = len(backups.listing(t.slug))
    desk = f.login(staff["desk1"])
    url = reverse("desk:checkin_toggle", args=[t.slug, player.pk])
    assert desk.post(url, {"checked_in": "1"}).status_code in (200, 302)
    made = backups.listing(t.slug)
    assert len(made) == before + 1
    players = json.loads(made[0].path.read_text())["players"]
    assert next(p for p in players if p["key"] == "p01")["checked_in"] is True


def test_an_incident_note_and_an_appeal_under_review_each_write_a_backup():
    """Both are in the tournament file (incidents, appeals[].status), so both are changes the
    backups keep, like every other referee record."""
    staff = f.staff()
    t = f.tournament(slug="notes-backup")
    session = seat(t, 1)
    player = t.players.get(key="p01")
    before = len(backups.listing(t.slug))
    record_incident(session, staff["referee"], "a tile fell", player=player)
    assert len(backups.listing(t.slug)) == before + 1
    appeal = file_appeal(session, player, "x", staff["referee"], text="y")
    assert len(backups.listing(t.slug)) == before + 2
    review_appeal(appeal, staff["director"])
    made = backups.listing(t.slug)
    assert len(made) == before + 3
    data = json.loads(made[0].path.read_text())
    assert data["incidents"][0]["text"] == "a tile fell"
    assert data["appeals"][0]["status"] == "under_review"


def test_nothing_is_written_for_a_change_that_is_rolled_back():
    staff = f.staff()
    t = f.tournament(slug="rolled")
    session = seat(t, 1)
    with pytest.raises(RuntimeError), transaction.atomic():
        record_penalty(session, t.players.first(), "late", staff["referee"], minutes=3)
        raise RuntimeError("the desk crashed")
    assert len(backups.listing(t.slug)) == 1  # the seating's, none for the rolled-back penalty
    assert not Penalty.objects.exists()


def test_the_folder_keeps_the_newest_n_and_the_newest_of_every_session(settings):
    settings.DESK_BACKUPS_KEEP = 3
    t = f.tournament(slug="keep")
    written = set()  # every file, including the ones a seating writes itself
    for number in (1, 1, 1, 2, 2, 3, 3, 3, 3):
        if not t.sessions.filter(number=number).exists():
            session = f.seat_session(t, number)  # and its play begins: the file is the session's
            ClockEvent.objects.create(session=session, kind="start", at=timezone.now())
        backups.write_backup(t)
        written |= {b.name for b in backups.listing(t.slug)}
    names = sorted(written)  # the names sort by time
    by_session = {}
    for name in names:
        by_session.setdefault(name.split("-s")[1][:2], []).append(name)
    kept = {b.name for b in backups.listing(t.slug)}
    assert kept == set(names[-3:]) | {by_session["01"][-1], by_session["02"][-1]}
    assert len(kept) == 5 and by_session["02"][-1] not in names[-3:]


def test_restore_page_shows_the_changes_then_replaces_and_keeps_the_state_before():
    staff = f.staff()
    t = build(staff)
    # The newest file of session 1 holds session 2's seating (made before its play began); the
    # one before it is session 1 alone.
    of_session_1 = [b for b in backups.listing(t.slug) if b.session == 1]
    assert [len(json.loads(b.path.read_text())["sessions"]) for b in of_session_1[:2]] == [2, 1]
    after_session_1 = of_session_1[1]
    director = f.login(staff["director"])
    page = director.get(reverse("archive:backups", args=[t.slug]))
    assert page.status_code == 200
    assert after_session_1.name in page.content.decode()
    download = director.get(reverse("archive:backup_download", args=[t.slug, after_session_1.name]))
    assert json.loads(b"".join(download.streaming_content)) == json.loads(
        after_session_1.path.read_bytes()
    )

    url = reverse("archive:backup_restore", args=[t.slug, after_session_1.name])
    preview = director.get(url).content.decode()
    assert "session 2</td>" in preview and "only here: the restore removes it" in preview
    assert "session 1, table 1" not in preview  # session 1 is the same in both
    assert Tournament.objects.get(slug=t.slug).pk == t.pk  # looking changes nothing

    response = director.post(url)
    assert response.status_code == 302
    restored = Tournament.objects.get(slug=t.slug)
    assert restored.pk != t.pk
    assert list(restored.sessions.values_list("number", flat=True)) == [1]
    assert (
        Result.objects.filter(table__session__tournament=restored, status="confirmed").count() == 2
    )
    assert not Penalty.objects.filter(session__tournament=restored).exists()
    record = Restore.objects.get()
    assert (record.slug, record.backup, record.restored_by) == (
        t.slug,
        after_session_1.name,
        staff["director"],
    )
    before = backups.find(t.slug, record.before)
    assert before.tag == backups.BEFORE_RESTORE
    # The state before is complete: restoring it brings session 2 and its penalties back.
    assert len(json.loads(before.path.read_text())["sessions"]) == 2
    # The deleted rows stay in the history tables, with who deleted them.
    assert Penalty.history.filter(history_type="-").count() == 2


def test_a_backup_name_that_is_not_in_the_folder_is_not_found():
    staff = f.staff()
    t = f.tournament(slug="names")
    seat(t, 1)
    director = f.login(staff["director"])
    for name in ("../../secret_key", "x.json", "..", "20260101-000000-000000-s01.json"):
        assert director.get(f"/desk/{t.slug}/backups/{name}").status_code == 404
        assert director.post(f"/desk/{t.slug}/backups/{name}/restore/").status_code == 404


def test_a_damaged_backup_is_refused_and_changes_nothing():
    staff = f.staff()
    t = build(staff)
    newest = backups.listing(t.slug)[0]
    newest.path.write_text(newest.path.read_text()[:-40])  # cut off: a disk that filled up
    director = f.login(staff["director"])
    before = export_tournament(t)
    url = reverse("archive:backup_restore", args=[t.slug, newest.name])
    response = director.post(url, follow=True)
    assert "Nothing restored: The file is not valid JSON" in response.content.decode()
    assert export_tournament(Tournament.objects.get(slug=t.slug)) == before
    assert not Restore.objects.exists()


def test_file_changes_name_each_difference():
    now = {
        "tournament": {"name": "Open", "ruleset": "ema-2012"},
        "players": [{"key": "p1", "name": "A"}, {"key": "p2", "name": "B", "club": "X"}],
        "sessions": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": [
                            {"wind": "E", "player": "p1", "score": 30000},
                            {"wind": "S", "player": "p2", "score": 30000},
                        ],
                    }
                ],
            }
        ],
        "penalties": [{"session": 1, "player": "p1", "kind": "late", "minutes": 3}],
    }
    then = json.loads(json.dumps(now))
    then["tournament"]["name"] = "Open 2026"
    then["players"][1]["club"] = "Y"
    then["players"].append({"key": "p3", "name": "C"})
    then["sessions"][0]["tables"][0]["seats"][0]["score"] = 40000
    then["sessions"][0]["tables"][0]["seats"][1]["score"] = 20000
    then["penalties"] = []
    codes = [(c.code, c.values) for c in changes(now, then)]
    assert codes == [
        ("tournament", {"field": "name", "now": "Open", "then": "Open 2026"}),
        ("player_added", {"key": "p3", "name": "C"}),
        (
            "player_changed",
            {
                "key": "p2",
                "name": "B",
                "fields": ["club"],
                "now": {"club": "X"},
                "then": {"club": "Y"},
            },
        ),
        (
            "result_changed",
            {
                "session": 1,
                "table": 1,
                "now": "A 30000 / B 30000",
                "then": "A 40000 / B 20000",
                "draft_now": False,
                "draft_then": False,
                "version_now": None,
                "version_then": None,
            },
        ),
        (
            "record_removed",
            {
                "kind": "penalty",
                "record": {"session": 1, "player": "p1", "kind": "late", "minutes": 3, "name": "A"},
            },
        ),
    ]
    assert changes(now, json.loads(json.dumps(now))) == []


def test_backup_command_writes_lists_and_copies(tmp_path, capsys):
    f.tournament(slug="cmd")
    out = tmp_path / "usb" / "copy.json"
    out.parent.mkdir()
    call_command("backup", "cmd", "-o", str(out))
    written = capsys.readouterr().out.split()
    assert Path(written[0]).name.endswith("-s00-manual.json")
    assert json.loads(out.read_text())["tournament"]["slug"] == "cmd"
    call_command("backup", "--list")
    assert "manual" in capsys.readouterr().out


@pytest.mark.long(30)
def test_restore_of_the_latest_backup_on_a_fresh_machine_gives_the_same_standings_feed(
    tmp_path,
):
    staff = f.staff()
    t = build(staff)
    latest = backups.listing(t.slug)[0]
    expected = json.loads(feed_json(t))
    assert expected["standings"][0]["total"]  # a feed with real numbers in it

    # A fresh machine: its own data folder and a new SQLite database, nothing else shared.
    fresh = tmp_path / "fresh-laptop"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DESK_DATA_DIR=str(fresh), DESK_SECRET_KEY="fresh-machine-key-" + "x" * 40)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"  # the hall's settings, not the tests'

    def manage(*args):
        return live_desk.manage(env, *args)

    # Migrated as `manage.py migrate` makes it from nothing (the first of the process does).
    live_desk.migrated(env)
    assert "Imported bk-open." in manage("restore", str(latest.path), "--yes")
    body = manage(
        "shell",
        "-c",
        "import sys; from scoring.feed import feed_json;"
        " from tournament.models import Tournament;"
        " sys.stdout.write(feed_json(Tournament.objects.get(slug='bk-open')).decode())",
    )
    assert json.loads(body.splitlines()[-1]) == expected
    # ...and restoring it again over itself changes nothing.
    out = manage("restore", str(latest.path), "--yes")
    assert "  nothing" in out


def test_a_manual_seating_swap_writes_a_backup():
    staff = f.staff()
    t = f.tournament(slug="swap")
    session = seat(t, 1)
    swap_players(session, "p01", "p05", staff["director"])
    made, _seated = backups.listing(t.slug)
    seats = json.loads(made.path.read_text())["sessions"][0]["tables"][0]["seats"]
    assert seats[0]["player"] == "p05"


def test_the_background_writer_folds_quick_changes_and_always_writes_the_last(
    settings, monkeypatch
):
    """The thread's timing alone (the file writing is the inline tests' business): the
    in-memory test database cannot be read by a second thread while this one writes."""
    settings.BACKUP_THREAD = True
    settings.DESK_BACKUP_INTERVAL = 0.4
    staff = f.staff()
    t = f.tournament(slug="quick")
    session = seat(t, 1)
    backups.wait_for_backups()
    written = []
    monkeypatch.setattr(writer, "_backup", lambda pk: written.append((pk, time.monotonic())))
    changes = []
    for key in ("p01", "p02", "p03", "p04", "p05"):
        record_penalty(session, t.players.get(key=key), "late", staff["referee"], minutes=2)
        changes.append(time.monotonic())
    backups.wait_for_backups()
    assert 1 <= len(written) <= 3 and {key for key, _ in written} == {(backups.TOURNAMENT, t.pk)}
    assert written[-1][1] >= changes[-1]  # the last change is in a file written after it
    gaps = [b - a for (_, a), (_, b) in zip(written, written[1:], strict=False)]
    assert all(gap >= 0.39 for gap in gaps)


def test_a_failing_backup_is_shown_to_the_director_until_one_succeeds(settings, tmp_path):
    """Issue 22: a backup that cannot be written (a full disk, a folder gone) was only a line
    in the log. The director's dashboard now says when and why until a backup succeeds; the
    Backups page's "back up now" and `manage.py backup` refuse with the reason (the command
    exits non-zero)."""
    staff = f.staff()
    t = f.tournament(slug="failing")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backups folder should be")
    settings.DESK_BACKUP_DIR = blocked
    director = f.login(staff["director"])
    dashboard = reverse("desk:tournament", args=[t.slug])
    assert 'id="backup-failed"' not in director.get(dashboard).content.decode()
    player = t.players.get(key="p01")
    f.login(staff["desk1"]).post(
        reverse("desk:checkin_toggle", args=[t.slug, player.pk]), {"checked_in": "1"}
    )
    page = director.get(dashboard).content.decode()
    assert 'id="backup-failed"' in page and "The last backup failed at" in page
    assert 'id="backup-failed"' not in f.login(staff["desk1"]).get(dashboard).content.decode()
    refused = director.post(reverse("archive:backups", args=[t.slug]), follow=True)
    assert "The backup failed:" in refused.content.decode()
    with pytest.raises(CommandError, match="The backup failed:"):
        call_command("backup", t.slug)
    settings.DESK_BACKUP_DIR = tmp_path / "backups-again"
    written = director.post(reverse("archive:backups", args=[t.slug]), follow=True)
    assert "written." in written.content.decode()
    assert 'id="backup-failed"' not in director.get(dashboard).content.decode()


def test_a_restore_that_fails_midway_keeps_no_before_restore_copy(monkeypatch):
    """Issue 22: every failed restore left a before-restore backup behind, kept until deleted
    by hand. The swap is one transaction; when it fails nothing was restored, so the copy of
    the state before is removed with it and the tournament is as it was."""
    staff = f.staff()
    t = build(staff)
    content = backups.listing(t.slug)[-1].path.read_bytes()
    before_files = {b.name for b in backups.listing(t.slug)}

    def breaks(*args, **kwargs):
        raise IntegrityError("the database refused a row")

    monkeypatch.setattr(restoring, "create_tournament", breaks)
    with pytest.raises(IntegrityError):
        backups.restore(content, staff["director"])
    assert {b.name for b in backups.listing(t.slug)} == before_files
    assert not [b for b in backups.listing(t.slug) if b.tag == backups.BEFORE_RESTORE]
    assert Tournament.objects.get(slug=t.slug).pk == t.pk


def test_a_plan_that_seats_two_sessions_keeps_a_backup_of_each_session(settings):
    """Issue 23: one plan seats sessions 1 and 2 before play. The folder still keeps the state at
    the end of session 1 (its newest file: both its results, none of session 2's) after any
    number of later files, and the backups page tells the files apart to the second."""
    settings.DESK_BACKUPS_KEEP = 2
    staff = f.staff()
    t = f.tournament(slug="plan-two", players=8, planned_sessions=2)
    director = f.login(staff["director"])
    director.post(f"/desk/{t.slug}/plans/", {"first": 1, "last": 2, "seed": 3})
    plan = SeatingPlan.objects.get()
    assert director.post(f.plan_url(plan) + "apply/").status_code == 302
    assert [b.session for b in backups.listing(t.slug)] == [1]  # before play: the first's

    sheets = ([42000, 31000, 27000, 20000], [35000, 33000, 30000, 22000])
    for number in (1, 2):
        tables = Table.objects.filter(session__tournament=t, session__number=number)
        for table, scores in zip(tables.order_by("number"), sheets, strict=True):
            f.play(table, scores, staff["desk1"], staff["desk2"])
    kept = backups.listing(t.slug)
    assert len(kept) == 3  # the newest two (session 2's) and the newest of session 1
    assert [b.session for b in kept] == [2, 2, 1]
    end_of_1 = json.loads(kept[-1].path.read_text())
    scored = {
        (s["number"], table["number"]): any("score" in seat for seat in table["seats"])
        for s in end_of_1["sessions"]
        for table in s["tables"]
    }
    assert scored == {(1, 1): True, (1, 2): True, (2, 1): False, (2, 2): False}

    page = director.get(reverse("archive:backups", args=[t.slug])).content.decode()
    for backup in kept:
        shown = timezone.localtime(backup.made_at).strftime("%d/%m/%Y %H:%M:%S")  # en (issue 37)
        assert f">{shown}<" in page


def test_restore_preview_names_each_record_that_differs_not_only_counts(monkeypatch):
    """Issue 23: "Penalties: 2 now, 2 after" although they differed. After the backup, one
    penalty is voided and another recorded (two live penalties either way) and a confirmed
    result is corrected: the preview names each of them, with its version here and in the
    file, in a table bounded per kind."""
    staff = f.staff()
    t = build(staff, draft=False)
    backup = backups.listing(t.slug)[0]
    s2 = t.sessions.get(number=2)
    late = Penalty.objects.get(player__key="p07", voided_at__isnull=True)
    void_penalty(late, staff["director"], "he was on time")
    record_penalty(s2, t.players.get(key="p05"), "late", staff["referee"], minutes=5)
    table = t.sessions.get(number=1).tables.get(number=2)
    f.play(table, [36000, 32000, 30000, 22000], staff["desk1"], staff["desk2"])
    in_file = json.loads(backup.path.read_text())["penalties"]
    live_now = Penalty.objects.filter(session__tournament=t, voided_at__isnull=True)
    assert len(in_file) == live_now.count() == 1  # the same count, another penalty

    director = f.login(staff["director"])
    url = reverse("archive:backup_restore", args=[t.slug, backup.name])
    page = director.get(url).content.decode()
    rows = [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        ]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", page.split('id="restore-changes"')[1], re.S)
    ]
    rows = [[html.unescape(c) for c in r] for r in rows if r]
    assert [
        "Penalty",
        "p05 Player 05, session 2, table 1, late arrival, 5 min",
        "only here: the restore removes it",
        "",
        "",
    ] in rows
    voided = next(r for r in rows if r[0] == "Penalty" and r[1].startswith("p07 Player 07"))
    assert voided[2] == "void_reason, voided_at, voided_by"
    assert voided[3].startswith("void_reason: he was on time; voided_at: ")
    assert voided[4] == "void_reason: –; voided_at: –; voided_by: –"
    result = next(r for r in rows if r[0] == "Result")
    assert result[1:3] == ["session 1, table 2", "version 2 here, version 1 in the file"]
    assert result[3].startswith("Player 05 36000 / Player 06 32000")
    assert result[4].startswith("Player 05 35000 / Player 06 33000")

    monkeypatch.setattr(restore_rows, "PREVIEW_PER_KIND", 1)
    page = html.unescape(director.get(url).content.decode())
    assert "and 1 more" in page  # two penalties differ, one is listed
    assert Tournament.objects.get(slug=t.slug).pk == t.pk  # looking changes nothing


def test_no_backup_after_a_change_where_backups_on_change_are_off(settings):
    """The federation server (DESK_BACKUP_ON_CHANGE off, its default there, issue 38): a change
    to a mirrored tournament writes no file; a backup asked for by hand still does."""
    settings.DESK_BACKUP_ON_CHANGE = False
    t = f.tournament(slug="bk-mirror")
    seat(t, 1)
    assert backups.listing(t.slug) == []
    backups.back_up_now(t)
    assert len(backups.listing(t.slug)) == 1
