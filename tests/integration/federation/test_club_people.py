"""A club rating stored again and again on the federation server (docs/features/federation.md
"The wire": the old copy goes, the newer file takes its place): the people the old copy brought
go with it, but for a person something else on the server still names (another mirror's member,
a tournament's player), through the real /api/publish/ address and database."""

import datetime

import pytest

from archive.club_file import export_club
from club.models import Club
from club.services import add_member, confirm_game, record_game, save_club
from federation.keys import key_text, make_key
from people.models import Person
from tests.support import factories as f
from tests.support.federation import answer, packed, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_file():
    """The hall's club "furiten": four members (A, B, C, D), one confirmed game."""
    one, two = f.user("officer1"), f.user("officer2")
    club = save_club(None, {"name": "Furiten", "slug": "furiten"}, one)
    members = [add_member(club, Person.objects.create(name=n), one) for n in "ABCD"]
    seats = [(m, s, 0) for m, s in zip(members, [45000, 35000, 25000, 15000], strict=True)]
    confirm_game(record_game(club, seats, one, played_on=datetime.date(2026, 11, 20)), two)
    return export_club(Club.objects.get(pk=club.pk))


def mirror_people(slug: str) -> list[str]:
    return sorted(Club.objects.get(slug=slug).members.values_list("person__name", flat=True))


def test_the_same_club_file_stored_three_times_leaves_one_copy_of_its_people(club_file):
    key = make_key(f.user("org"), "club", "furiten-live")
    body = packed(club_file)
    counts = []
    for revision in (1, 2, 3):
        assert answer(send(key_text(key), "club", revision, body)) == (200, {"have": revision})
        counts.append(Person.objects.count())
    # The hall's 4 people and the mirror's 4, after each of the three files (was 8, 12, 16).
    assert counts == [8, 8, 8]
    assert mirror_people("furiten-live") == ["A", "B", "C", "D"]
    assert sorted(
        Person.objects.filter(memberships__club__slug="furiten").values_list("name", flat=True)
    ) == ["A", "B", "C", "D"]


def test_a_person_another_mirror_or_a_tournament_names_is_kept(club_file):
    """A (EMA id 04000001 in the file) is one person for both mirrors of the club (the file's
    reader links a known EMA id); B of the first mirror is also a tournament's player there."""
    club_file["people"][0]["ema_id"] = "04000001"  # the hall's own A has none
    body = packed(club_file)
    organiser = f.user("org")
    first, second = (
        make_key(organiser, "club", "furiten-a"),
        make_key(organiser, "club", "furiten-b"),
    )
    assert answer(send(key_text(first), "club", 1, body))[0] == 200
    assert answer(send(key_text(second), "club", 1, body))[0] == 200
    shared = Person.objects.get(ema_id="04000001")
    assert set(shared.memberships.values_list("club__slug", flat=True)) == {
        "furiten-a",
        "furiten-b",
    }
    b = Person.objects.get(memberships__club__slug="furiten-a", name="B")
    player = f.tournament(slug="other-open").players.first()
    player.person = b
    player.save()
    count = Person.objects.count()  # the hall's 4, A, the first mirror's B C D, the second's
    assert count == 4 + 1 + 3 + 3
    assert answer(send(key_text(first), "club", 2, body))[0] == 200
    assert Person.objects.filter(pk=shared.pk).exists()
    assert Person.objects.filter(pk=b.pk).exists()
    player.refresh_from_db()
    assert player.person_id == b.pk
    # The first mirror's old C and D went; its new B, C, D came; A is linked again.
    assert Person.objects.count() == count + 1
    assert mirror_people("furiten-a") == mirror_people("furiten-b") == ["A", "B", "C", "D"]
    assert Club.objects.get(slug="furiten-a").members.get(person__name="A").person_id == shared.pk
