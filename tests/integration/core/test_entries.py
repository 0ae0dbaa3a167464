"""The versioned entry a second person confirms (issue 35, core.entries): a table's result and a
club game's version follow one rule, refuse the same self-confirmation the same way — the
service and the page alike — and tell a stale page who changed the entry and when."""

import datetime
import re

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from club.models import Club, GameVersion, Member
from club.services import add_member, confirm_game, record_game, save_club
from core.entries import Entry
from core.errors import ActionRefused, StaleEdit
from core.roles import CLUB_OFFICER
from people.models import Person
from scoring.models import Result
from scoring.services import confirm_result, enter_result
from tests.support import factories as f

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 3, 14)
SCORES = [40000, 35000, 25000, 20000]


class TableResults:
    """A tournament table's result: entered and confirmed by desk users."""

    model = Result
    refusal = "You entered this result: a second desk user must confirm it."
    stale = "This table was changed by {who} at "

    def __init__(self):
        staff = f.staff()
        self.event = f.tournament()
        f.seat_session(self.event)
        self.table = self.event.sessions.get().tables.get(number=1)
        self.first, self.second = staff["desk1"], staff["desk2"]

    def enter(self, user, base=0):
        seats = sorted(self.table.seats.all(), key=lambda s: "ESWN".index(s.wind))
        entries = {s.wind: (score, 0) for s, score in zip(seats, SCORES, strict=True)}
        return enter_result(self.table, entries, user, base)

    def confirm(self, entry, user):
        return confirm_result(entry, user)

    def page(self):
        return f"/desk/{self.event.slug}/s/1/t/1/"


class ClubGames:
    """A club game's version: recorded and confirmed by the club's officers."""

    model = GameVersion
    refusal = "You recorded this game: a second officer must confirm it."
    stale = "This game was changed by {who} at "

    def __init__(self):
        self.first = f.user("officer1", CLUB_OFFICER)
        self.second = f.user("officer2", CLUB_OFFICER)
        self.event = save_club(None, {"name": "Furiten", "slug": "furiten"}, self.first)
        f.grant(self.second, self.event)
        for name in ("Anna", "Boris", "Chen", "Dmytro"):
            add_member(self.event, Person.objects.create(name=name), self.first, joined_on=DAY)
        self.game = None

    def enter(self, user, base=0):
        members = list(Member.objects.filter(club=self.event).order_by("person__name"))
        seats = [(m, score, 0) for m, score in zip(members, SCORES, strict=True)]
        version = record_game(
            self.event, seats, user, played_on=DAY, game=self.game, base_version=base
        )
        self.game = version.game
        return version

    def confirm(self, entry, user):
        return confirm_game(entry, user)

    def page(self):
        return f"/desk/club/{self.event.slug}/games/{self.game.pk}/"


@pytest.fixture(params=[TableResults, ClubGames], ids=["result", "club game"])
def kind(request):
    return request.param()


def shown(response) -> str:
    return response.content.decode()


def test_both_kinds_are_the_one_entry():
    assert issubclass(Result, Entry) and issubclass(GameVersion, Entry)
    assert Result.Status is GameVersion.Status is Entry.Status


def test_the_one_who_entered_it_may_not_confirm_it_and_is_told_why(kind):
    draft = kind.enter(kind.first)
    assert not draft.may_confirm(kind.first)
    assert draft.confirm_refusal(kind.first) == kind.refusal
    with pytest.raises(ActionRefused) as refused:
        kind.confirm(draft, kind.first)
    assert not isinstance(refused.value, StaleEdit)
    assert refused.value.message == kind.refusal
    draft.refresh_from_db()
    assert (draft.status, draft.confirmed_by, draft.confirmed_at) == ("draft", None, None)
    # The page decides by the same rule: no confirm button for the one who entered it.
    assert 'id="confirm"' not in shown(f.login(kind.first).get(kind.page()))
    assert 'id="confirm"' in shown(f.login(kind.second).get(kind.page()))


def test_a_second_person_confirms_and_the_version_before_is_superseded(kind):
    first = kind.enter(kind.first)
    assert first.may_confirm(kind.second) and first.confirm_refusal(kind.second) is None
    kind.confirm(first, kind.second)
    correction = kind.enter(kind.second, base=1)
    assert not correction.may_confirm(kind.second)
    kind.confirm(correction, kind.first)
    first.refresh_from_db()
    correction.refresh_from_db()
    assert first.status == "superseded" and first.superseded_at is not None
    assert (correction.status, correction.confirmed_by) == ("confirmed", kind.first)
    # A confirmed version is confirmed no more, by anyone.
    assert not correction.may_confirm(kind.second)


def test_single_confirmation_lets_the_one_who_entered_it_confirm(kind):
    kind.event.single_confirmation = True
    kind.event.save(update_fields=["single_confirmation"])
    draft = kind.enter(kind.first)
    assert draft.may_confirm(kind.first) and draft.confirm_refusal(kind.first) is None
    assert 'id="confirm"' in shown(f.login(kind.first).get(kind.page()))
    kind.confirm(draft, kind.first)
    draft.refresh_from_db()
    assert (draft.status, draft.confirmed_by) == ("confirmed", kind.first)


def test_a_stale_save_or_confirmation_names_who_changed_it_and_when(kind):
    first = kind.enter(kind.first)
    kind.confirm(first, kind.second)
    at = timezone.localtime(kind.model.objects.get(pk=first.pk).confirmed_at).strftime("%H:%M:%S")
    expected = kind.stale.format(who=kind.second.get_username()) + at + " — reload the page."
    with pytest.raises(StaleEdit) as stale:
        kind.enter(kind.first, base=0)  # a page drawn before the first version
    assert stale.value.message == expected
    with pytest.raises(StaleEdit) as stale:
        kind.confirm(first, kind.first)  # confirmed already
    assert stale.value.message == expected
    assert kind.model.objects.count() == 1


def test_a_draft_nobody_entered_is_confirmed_by_any_desk_user():
    kind = TableResults()
    draft = kind.enter(None)
    assert draft.entered_by is None
    assert draft.may_confirm(kind.first) and draft.may_confirm(kind.second)
    # issue 37: a draft without a user was made by the table page, and says so
    assert re.search(
        r"This table was changed by the table page at \d\d:\d\d:\d\d", draft.stale_message()
    )


def test_the_database_keeps_one_confirmed_version_of_each(kind):
    first = kind.enter(kind.first)
    kind.confirm(first, kind.second)
    second = kind.enter(kind.first, base=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        kind.model.objects.filter(pk=second.pk).update(status="confirmed")
    with pytest.raises(IntegrityError), transaction.atomic():
        kind.model.objects.filter(pk=second.pk).update(version=1)


def test_the_club_is_the_game_versions_event_and_the_tournament_the_results():
    game, result = ClubGames(), TableResults()
    assert isinstance(game.enter(game.first).event, Club)
    assert result.enter(result.first).event == result.event
