"""A club rating's settings and its seasons (date ranges with their own table)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.changes import touch_club
from club.grants import give_creator
from club.models import Club, Season
from core.errors import ActionRefused
from core.roles import is_director

from .checks import checked

CLUB_FIELDS = (
    "name",
    "slug",
    "ruleset",
    "min_games",
    "single_confirmation",
    "language",
    "time_zone",
)


@transaction.atomic
def save_club(club: Club | None, data: dict, user) -> Club:
    """Create a club rating (club None) or change its settings. A rule set change recomputes
    every game (the rating is always computed from the current rules)."""
    # The stored club, locked: its revision is touch_club's alone, never written back stale.
    given = club
    club = Club.objects.select_for_update().get(pk=club.pk) if club and club.pk else Club()
    # Single confirmation is the director's (issue 34): an officer who could switch it on would
    # confirm their own game alone.
    single = data.get("single_confirmation", club.single_confirmation)
    if bool(single) != club.single_confirmation and not (user and is_director(user)):
        raise ActionRefused(
            _("Only the director switches single-person confirmation."),
            field="single_confirmation",
        )
    for name in CLUB_FIELDS:
        if name in data:
            setattr(club, name, data[name])
    checked(club)
    if club.pk:
        club.save(update_fields=CLUB_FIELDS)
    else:
        club.save()
        give_creator(club, user)
    touch_club(club.pk)
    club.refresh_from_db()
    if given is not None and given is not club:
        given.refresh_from_db()  # the caller's copy shows what is stored
    return club


@transaction.atomic
def save_season(club: Club, season: Season | None, name, start, end, user) -> Season:
    """A season is a date range with its own table; seasons of a club do not overlap."""
    season = season or Season(club=club)
    season.name, season.start, season.end = name, start, end
    checked(season, exclude=["club"])
    if start and end and start > end:
        raise ActionRefused(_("The first day comes after the last day."), field="end")
    clash = (
        Season.objects.filter(club=club, start__lte=end, end__gte=start)
        .exclude(pk=season.pk)
        .first()
    )
    if clash:
        raise ActionRefused(
            _("These dates overlap the season “%(name)s” (%(start)s – %(end)s).")
            % {"name": clash.name, "start": clash.start, "end": clash.end},
            field="start",
        )
    if season.closed:
        raise ActionRefused(_("This season is closed: reopen it to change its dates."))
    # The club is left out of the model's own check above, so its one name per club is here.
    if Season.objects.filter(club=club, name=season.name).exclude(pk=season.pk).exists():
        raise ActionRefused(
            _("The club has a season named “%(name)s” already.") % {"name": season.name},
            field="name",
        )
    season.save()
    touch_club(club.pk)
    return season


@transaction.atomic
def close_season(season: Season, user, close: bool = True) -> Season:
    """Close a season (its games then take a change only with the override), or reopen it."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if close:
        season.closed_at, season.closed_by = timezone.now(), user
    else:
        season.closed_at, season.closed_by = None, None
    season.save(update_fields=["closed_at", "closed_by"])
    touch_club(season.club_id)
    return season


def season_on(club: Club, day: datetime.date) -> Season | None:
    return Season.objects.filter(club=club, start__lte=day, end__gte=day).first()
