"""A club evening: who is present, and the tables drawn from them."""

import datetime
import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.changes import touch_club
from club.models import Club, Evening, Game, GameScore, GameSeat, GameVersion, Member, Presence
from club.selectors import free_members, waiting_seats
from core.errors import ActionRefused
from seating.algorithms.draw import draw_tables
from seating.models import WINDS

from .checks import checked
from .games import SEATS, next_game_number


@transaction.atomic
def evening_on(club: Club, day: datetime.date, user) -> Evening:
    found = Evening.objects.filter(club=club, date=day).first()
    if found:
        return found
    evening = Evening(club=club, date=day)
    checked(evening, exclude=["club"])
    evening.save()
    return evening


@transaction.atomic
def check_in(evening: Evening, member: Member, user, present: bool = True) -> None:
    if member.club_id != evening.club_id:
        raise ActionRefused(_("Not a member of this club."), field="member")
    if present:
        if not member.active:
            raise ActionRefused(
                _("%(name)s is not an active member.") % {"name": member.person.name},
                field="member",
            )
        Presence.objects.get_or_create(
            evening=evening, member=member, defaults={"by": user, "at": timezone.now()}
        )
    else:
        if waiting_seats(evening).filter(member=member).exists():
            raise ActionRefused(
                _("%(name)s is seated at a table not yet played.") % {"name": member.person.name},
                field="member",
            )
        Presence.objects.filter(evening=evening, member=member).delete()
    touch_club(evening.club_id)


@transaction.atomic
def draw_evening(evening: Evening, user, seed: int | None = None) -> list[Game]:
    """Draw tables from the members present and not already waiting at a table (the desk's
    random draw, seating.algorithms.draw). When they are not a multiple of four, those who
    have played most this evening sit out first (ties by the draw)."""
    Club.objects.select_for_update().get(pk=evening.club_id)  # the day's table numbers
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    present = free_members(evening)
    if len(present) < SEATS:
        raise ActionRefused(
            _("%(count)d members are free to play: a table needs four.") % {"count": len(present)}
        )
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    played = {}
    for member_id in GameScore.objects.filter(
        version__game__evening=evening, version__status=GameVersion.Status.CONFIRMED
    ).values_list("member_id", flat=True):
        played[member_id] = played.get(member_id, 0) + 1
    order = sorted(m.pk for m in present)
    random.Random(seed).shuffle(order)
    order.sort(key=lambda pk: played.get(pk, 0))  # stable: the draw orders equals
    seated = order[: len(order) - len(order) % SEATS]
    now = timezone.now()
    number = next_game_number(evening.club, evening.date)
    games = []
    for table in draw_tables(seated, seed):
        game = Game.objects.create(
            club=evening.club,
            played_on=evening.date,
            number=number,
            evening=evening,
            created_by=user,
            created_at=now,
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=game, wind=w, member_id=m) for w, m in zip(WINDS, table, strict=True)
        )
        games.append(game)
        number += 1
    touch_club(evening.club_id)
    return games
