"""A club rating's file (issue 25, "nothing is lost"): written as a backup after every change,
restored by `manage.py restore_club` with every version of every game and who/when, refused with
the file's path named when anything in it is wrong."""

import copy
import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from archive import backups
from archive.backups import writer
from archive.club_file import FORMAT, export_club, restore_club
from archive.tournament_file import TournamentFileError, dumps
from club.models import Club, GameScore, GameSeat, GameVersion, Presence
from club.selectors import evening_games, rating
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
    void_game,
)
from people.models import Person
from tests.support.factories import user

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def officers():
    return user("officer1"), user("officer2")


@pytest.fixture
def club(officers):
    """A club with a closed season, an evening with a drawn table, corrections, a draft and a
    void game: every kind of row the file holds."""
    one, two = officers
    club = save_club(None, {"name": "Furiten", "slug": "furiten", "min_games": 2}, one)
    people = [
        Person.objects.create(name="Anna Nowak", ema_id="12345678", country="Poland"),
        Person.objects.create(name="Bob", first_name="Bob", last_name="Smith"),
        *(Person.objects.create(name=n) for n in ("Cat", "Dan", "Eve", "Fay")),
    ]
    ann, bob, cat, dan, eve, fay = (add_member(club, p, one, joined_on=DAY) for p in people)
    spring = save_season(
        club, None, "Spring", datetime.date(2026, 3, 1), datetime.date(2026, 5, 31), one
    )

    def play(seats, scores, day, **kw):
        version = record_game(
            club, [(m, s, 0) for m, s in zip(seats, scores, strict=True)], one, **kw
        )
        return confirm_game(version, two) if day else version

    spring_day = datetime.date(2026, 4, 2)
    play([ann, bob, cat, dan], [42300, 31700, 26000, 20000], spring_day, played_on=spring_day)
    close_season(spring, one)
    first = play([eve, fay, ann, bob], [35000, 30000, 30000, 25000], DAY, played_on=DAY)
    # A correction: version 2 confirmed, version 1 superseded.
    play(
        [eve, fay, ann, bob],
        [25000, 30000, 30000, 35000],
        DAY,
        game=first.game,
        base_version=1,
        note="E and N swapped",
    )
    voided = play([cat, dan, eve, fay], [30000, 30000, 30000, 30000], DAY, played_on=DAY)
    confirm_game(void_game(voided.game, one, 1, "recorded twice"), two)
    evening = evening_on(club, DAY, one)
    for member in (ann, bob, cat, dan):
        check_in(evening, member, one)
    (drawn,) = draw_evening(evening, one, seed=3)
    state = evening_games(evening)[0]
    play([m for _w, m in state.seats], [40000, 30000, 30000, 20000], DAY, game=drawn)
    play([ann, cat, eve, fay], [30000, 30000, 30000, 30000], None, played_on=DAY)  # a draft
    return Club.objects.get(pk=club.pk)


def table(club):
    """The all-time rating table as names and figures, ranked and unranked."""
    t = rating(club).table
    return [
        (r.rank, r.person.name, r.rating, r.games, r.average_place, r.firsts, r.last_played)
        for r in (*t.rows, *t.unranked)
    ]


def empty_the_desk():
    # Leaves first: a member is protected from deletion while a game or a check-in names it.
    GameScore.objects.all().delete()
    GameSeat.objects.all().delete()
    Presence.objects.all().delete()
    Club.objects.all().delete()
    Person.objects.all().delete()
    get_user_model().objects.all().delete()


def test_a_restore_into_an_empty_desk_gives_the_same_club(club, capsys):
    text = dumps(export_club(club))
    before = table(club)
    empty_the_desk()
    restored = restore_club(text).club
    # The same file again: every game, every version with who and when, every check-in.
    assert export_club(restored) == json.loads(text)
    assert table(restored) == before
    assert len(before) == 6 and before[0][0] == 1
    superseded = GameVersion.objects.get(
        game__club=restored, game__number=1, game__played_on=DAY, version=1
    )
    users = get_user_model().objects.filter(username__in=["officer1", "officer2"])
    assert {u.username: (u.is_active, u.has_usable_password()) for u in users} == {
        "officer1": (False, False),
        "officer2": (False, False),
    }
    assert superseded.entered_by.username == "officer1"
    assert GameVersion.objects.filter(game__club=restored, void=True).count() == 1


def test_the_file_keeps_every_version(club):
    data = export_club(club)
    assert data["format"] == FORMAT and data["version"] == 1
    corrected = next(g for g in data["games"] if len(g["versions"]) == 2 and g["number"] == 1)
    first, second = corrected["versions"]
    assert (first["status"], second["status"]) == ("superseded", "confirmed")
    assert first["superseded_at"] and second["note"] == "E and N swapped"
    assert second["confirmed_by"] == "officer2" and second["entered_by"] == "officer1"
    drawn = next(g for g in data["games"] if g["evening"])
    assert [s["wind"] for s in drawn["seats"]] == ["E", "S", "W", "N"]
    assert [p["by"] for p in data["evenings"][0]["present"]] == ["officer1"] * 4
    assert data["seasons"][0]["closed_by"] == "officer1"


# Committed transactions: a backup is written when the change commits.
@pytest.mark.django_db(transaction=True)
def test_a_backup_is_written_after_a_confirmation(club, officers):
    before = backups.club_listing("furiten")
    assert before  # each of the fixture's changes committed and was backed up
    draft = GameVersion.objects.get(game__club=club, status="draft")
    confirm_game(draft, officers[1])
    after = backups.club_listing("furiten")
    assert after[0].name not in {b.name for b in before}
    assert after[0].path.parent == backups.club_folder_of("furiten")
    data = json.loads(after[0].path.read_text(encoding="utf-8"))
    assert data == export_club(club)
    assert not any(g["versions"][-1]["status"] == "draft" for g in data["games"])


def test_the_backups_keep_the_newest_n(club, officers, settings):
    settings.DESK_BACKUPS_KEEP = 3
    for _n in range(5):
        backups.write_club_backup(club)
    assert len(backups.club_listing("furiten")) == 3


@pytest.mark.django_db(transaction=True)
def test_a_failing_backup_does_not_break_the_write(club, officers, settings, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    settings.DESK_BACKUP_DIR = blocked
    draft = GameVersion.objects.get(game__club=club, status="draft")
    confirm_game(draft, officers[1])  # no exception: the change is committed
    assert GameVersion.objects.get(pk=draft.pk).status == "confirmed"
    assert writer._failures[(backups.CLUB, club.pk)].reason


def _confirmed(data, game):
    versions = data["games"][game]["versions"]
    return next(i for i, v in enumerate(versions) if v["status"] == "confirmed")


def _break_sum(data):
    v = _confirmed(data, 0)
    data["games"][0]["versions"][v]["scores"][2]["score"] += 1000
    return f"games[0].versions[{v}].scores"


def _unknown_person(data):
    data["games"][1]["versions"][0]["scores"][2]["person"] = 99
    return "games[1].versions[0].scores[2].person: no person has the id 99"


def _bad_date(data):
    data["games"][2]["played_on"] = "2026-02-30"
    return "games[2].played_on: "


def _bad_wind(data):
    data["games"][0]["versions"][0]["scores"][3]["wind"] = "X"
    return "games[0].versions[0].scores[3].wind: must be one of E, S, W, N"


def _two_confirmed(data):
    data["games"][1]["versions"][0]["status"] = "confirmed"
    return "games[1].versions[1].status: a game has one confirmed version"


def _bad_user(data):
    data["seasons"][0]["closed_by"] = 7
    return "seasons[0].closed_by: must be a user name"


def _naive_time(data):
    data["evenings"][0]["present"][1]["at"] = "2026-11-20T19:00:00"
    return "evenings[0].present[1].at: needs its offset from UTC"


@pytest.mark.parametrize(
    "spoil",
    [_break_sum, _unknown_person, _bad_date, _bad_wind, _two_confirmed, _bad_user, _naive_time],
)
def test_a_bad_file_is_refused_naming_the_path_and_nothing_is_stored(club, spoil):
    data = export_club(club)
    empty_the_desk()
    bad = copy.deepcopy(data)
    where = spoil(bad)
    with pytest.raises(TournamentFileError) as refused:
        restore_club(dumps(bad))
    assert str(refused.value).startswith(where), str(refused.value)
    # Nothing stored: no club, no person, no user (the refusal came after all of them).
    assert not Club.objects.exists()
    assert not Person.objects.exists()
    assert not get_user_model().objects.exists()
    restore_club(dumps(data))  # the good file goes in
    assert Club.objects.count() == 1


def test_an_existing_slug_is_refused(club):
    with pytest.raises(TournamentFileError, match=r"^club\.slug: a club rating \"furiten\""):
        restore_club(export_club(club))
    assert Club.objects.count() == 1


def test_the_command_restores_under_a_new_slug_and_says_who_is_who(
    club, tmp_path, django_capture_on_commit_callbacks
):
    path = tmp_path / "furiten.json"
    path.write_text(dumps(export_club(club)), encoding="utf-8")
    people = Person.objects.count()
    out = tmp_path / "out.txt"
    with open(out, "w") as stream, django_capture_on_commit_callbacks(execute=True):
        call_command("restore_club", str(path), "--slug", "furiten-copy", stdout=stream)
    lines = out.read_text().splitlines()
    anna = Person.objects.get(ema_id="12345678")
    assert lines[0] == f"Anna Nowak: the desk's person Anna Nowak (#{anna.pk}), by the same EMA id"
    assert [line.split(":")[0] for line in lines[1:6]] == ["Bob", "Cat", "Dan", "Eve", "Fay"]
    assert all(": a new person (#" in line for line in lines[1:6])
    assert lines[-1] == "Restored Furiten (furiten-copy): 5 games."
    assert Person.objects.count() == people + 5  # Anna is the same person in both clubs
    copy_ = Club.objects.get(slug="furiten-copy")
    assert table(copy_) == table(club)
    assert backups.club_listing("furiten-copy")


def test_the_command_refuses_a_bad_file_naming_the_path(club, tmp_path):
    data = export_club(club)
    data["games"][0]["versions"][0]["scores"][0]["person"] = "nobody"
    path = tmp_path / "bad.json"
    path.write_text(dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"games\[0\]\.versions\[0\]\.scores\[0\]\.person"):
        call_command("restore_club", str(path), "--slug", "other")
    with pytest.raises(CommandError, match="club.slug"):
        call_command("restore_club", str(path))
    assert list(Club.objects.values_list("slug", flat=True)) == ["furiten"]
