"""Issue 34, finding 6: "Two people who sat at the same club game can be merged: the kept
person's rating counts the game twice (3 -> 6 games), and every later club backup is refused
('a person has two seats'). `restore_club` does not check drafts (one with the same person
twice restored), and confirming a club game re-checks nothing."

Through the real URLs (the desk's merge page, the club game's confirm button) and the
restore_club command, on the real database."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from archive.club_file import export_club, restore_club
from archive.tournament_file import TournamentFileError, dumps
from club.models import Club, GameScore, GameVersion, Member
from club.selectors import rating
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
)
from core.roles import CLUB_OFFICER, DIRECTOR
from people.models import Person, PersonChange
from tests.support import factories as f
from tests.support.rows import snapshot

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 20)
STATE = ("people", "club")


@pytest.fixture
def desk():
    """A director, two officers, a club and six members (Ann, Ann K., Bob, Cat, Dan, Eve)."""
    director = f.user("dir", DIRECTOR)
    one, two = f.user("officer1", CLUB_OFFICER), f.user("officer2", CLUB_OFFICER)
    club = save_club(None, {"name": "Furiten", "slug": "furiten"}, one)
    members = {
        name: add_member(club, Person.objects.create(name=name), one, joined_on=DAY)
        for name in ("Ann", "Ann K.", "Bob", "Cat", "Dan", "Eve")
    }
    return {"director": director, "one": one, "two": two, "club": club, "m": members}


def seats(members, names, scores=(40000, 30000, 30000, 20000)):
    return [(members[n], s, 0) for n, s in zip(names, scores, strict=True)]


def games_of(club, name):
    table = rating(club).table
    return {r.person.name: r.games for r in (*table.rows, *table.unranked)}.get(name)


def merge_page(client, kept, other):
    return client.post(
        f"/desk/people/{kept.pk}/merge/", {"other": other.pk, "reason": "the same"}, follow=True
    )


def restores(club) -> bool:
    """The club's file, as its backup would be written now, restores on this desk."""
    restore_club(dumps(export_club(club)), slug=f"{club.slug}-check")
    return True


def test_people_who_sat_at_one_confirmed_game_are_not_merged(desk):
    m, one, two = desk["m"], desk["one"], desk["two"]
    club = desk["club"]
    for _n in range(3):
        version = record_game(club, seats(m, ["Ann", "Ann K.", "Bob", "Cat"]), one, played_on=DAY)
        confirm_game(version, two)
    assert games_of(club, "Ann") == 3
    ann, twin = m["Ann"].person, m["Ann K."].person
    before = snapshot(STATE)

    r = merge_page(f.login(desk["director"]), ann, twin)

    assert r.status_code == 200
    text = r.content.decode()
    assert (
        "Ann and Ann K. sat at the same game (Furiten, 20 November 2026, table 1): one person "
        "cannot hold two seats of it. They sat together at 2 more games."
    ) in text
    assert snapshot(STATE) == before
    assert not PersonChange.objects.exists()
    assert games_of(club, "Ann") == 3  # not 6
    assert restores(club)


def test_a_draft_or_a_drawn_table_counts_as_sitting_together(desk):
    m, one = desk["m"], desk["one"]
    club = desk["club"]
    client = f.login(desk["director"])
    # A draft not yet confirmed.
    record_game(club, seats(m, ["Bob", "Ann", "Cat", "Ann K."]), one, played_on=DAY)
    r = merge_page(client, m["Ann K."].person, m["Ann"].person)
    text = r.content.decode()
    assert "Ann K. and Ann sat at the same game (Furiten, 20 November 2026, table 1)" in text
    # A table drawn on the evening, before its scores.
    evening = evening_on(club, DAY, one)
    for name in ("Bob", "Cat", "Dan", "Eve"):
        check_in(evening, m[name], one)
    (drawn,) = draw_evening(evening, one, seed=1)
    r = merge_page(client, m["Dan"].person, m["Eve"].person)
    said = f"Dan and Eve sat at the same game (Furiten, 20 November 2026, table {drawn.number})"
    assert said in r.content.decode()
    assert not PersonChange.objects.exists()


def test_people_who_never_sat_together_are_merged_and_the_backup_restores(desk):
    m, one, two = desk["m"], desk["one"], desk["two"]
    club = desk["club"]
    for names in (["Ann", "Bob", "Cat", "Dan"], ["Ann K.", "Bob", "Cat", "Dan"]):
        confirm_game(record_game(club, seats(m, names), one, played_on=DAY), two)
    r = merge_page(f.login(desk["director"]), m["Ann"].person, m["Ann K."].person)
    assert "Ann K. merged into Ann." in r.content.decode()
    assert games_of(club, "Ann") == 2
    assert restores(club)


def confirm_page(client, club, version):
    return client.post(
        f"/desk/club/{club.slug}/games/{version.game_id}/confirm/",
        {"version": version.version},
        follow=True,
    )


def test_confirming_a_draft_checks_it_again_as_recording_does(desk):
    m, one = desk["m"], desk["one"]
    club = desk["club"]
    # The director confirms (the roles of issue 34 give an officer their own clubs only).
    client = f.login(desk["director"])

    # A member who left since the draft was recorded plays no new game.
    draft = record_game(club, seats(m, ["Ann", "Bob", "Cat", "Dan"]), one, played_on=DAY)
    set_member_active(m["Dan"], False, one)
    before = snapshot(STATE)
    r = confirm_page(client, club, draft)
    assert "North: Dan is a former member." in r.content.decode()
    assert snapshot(STATE) == before
    set_member_active(m["Dan"], True, one)
    r = confirm_page(client, club, draft)
    assert "Table 1 confirmed (version 1)" in r.content.decode()
    # ... but a correction of a game they played is still confirmed.
    set_member_active(m["Dan"], False, one)
    fix = record_game(
        club,
        seats(m, ["Ann", "Bob", "Cat", "Dan"], (30000,) * 4),
        one,
        game=draft.game,
        base_version=1,
    )
    r = confirm_page(client, club, fix)
    assert "Table 1 confirmed (version 2)" in r.content.decode()

    # A draft that holds one person twice (two memberships merged into one person by a desk
    # before this check, kept in its database) is refused, naming the seats.
    draft = record_game(club, seats(m, ["Ann", "Ann K.", "Bob", "Cat"]), one, played_on=DAY)
    Member.objects.filter(pk=m["Ann K."].pk).update(person=m["Ann"].person)
    before = snapshot(STATE)
    r = confirm_page(client, club, draft)
    assert "Ann is seated twice (East and South)." in r.content.decode()
    assert snapshot(STATE) == before
    Member.objects.filter(pk=m["Ann K."].pk).update(person=m["Ann K."].person)

    # Scores the rule set does not take (a draft stored by an older desk) are refused.
    GameScore.objects.filter(version=draft, wind="E").update(score=41000)
    r = confirm_page(client, club, draft)
    assert draft.game.versions.get(version=1).status == GameVersion.Status.DRAFT
    assert "100,000" in r.content.decode() or "120,000" in r.content.decode()
    GameScore.objects.filter(version=draft, wind="E").update(score=40000)

    # A season closed since: only a version recorded with the override.
    save_season(club, None, "Autumn", DAY.replace(month=9), DAY.replace(day=30), one)
    close_season(club.seasons.get(), one)
    r = confirm_page(client, club, draft)
    assert "The season “Autumn” is closed" in r.content.decode()
    assert draft.game.versions.get(version=1).status == GameVersion.Status.DRAFT


def test_restore_club_refuses_a_draft_with_one_person_twice_naming_its_path(desk, tmp_path):
    m, one = desk["m"], desk["one"]
    club = desk["club"]
    record_game(club, seats(m, ["Ann", "Bob", "Cat", "Dan"]), one, played_on=DAY)
    data = export_club(club)
    assert data["games"][0]["versions"][0]["status"] == "draft"
    scores = data["games"][0]["versions"][0]["scores"]
    scores[1]["person"] = scores[0]["person"]  # Ann in East and South
    before = snapshot(STATE)

    with pytest.raises(TournamentFileError) as refused:
        restore_club(dumps(data), slug="copy")
    assert str(refused.value) == "games[0].versions[0].scores: a person has two seats"
    path = tmp_path / "club.json"
    path.write_text(dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("restore_club", str(path), "--slug", "copy", stdout=io.StringIO())
    assert "games[0].versions[0].scores: a person has two seats" in str(refused.value)
    assert snapshot(STATE) == before
    assert list(Club.objects.values_list("slug", flat=True)) == ["furiten"]

    # A draft whose scores the rule set does not take is refused too, at its seat.
    data = export_club(club)
    data["games"][0]["versions"][0]["scores"][0]["score"] = 41000
    with pytest.raises(TournamentFileError, match=r"^games\[0\]\.versions\[0\]\.scores"):
        restore_club(dumps(data), slug="copy")
    # The good file goes in, its draft still a draft.
    restored = restore_club(dumps(export_club(club)), slug="copy").club
    assert restored.games.get().versions.get().status == GameVersion.Status.DRAFT
