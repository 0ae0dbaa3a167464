"""Time zones: each tournament is in its own (issue 23), the one every time is typed and shown in.

tournament.middleware.TournamentZone makes a page's tournament's zone the current one, so forms
read a typed time in it and templates show times in it; `in_zone` does the same for printouts
and commands (Tournament.printing).
"""

from contextlib import contextmanager
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


@cache
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def default_zone() -> str:
    """A new tournament's zone: the desk's (DESK_TIME_ZONE, else the laptop's)."""
    return settings.TIME_ZONE


def validate_zone(value):
    if value not in zone_names():
        raise ValidationError(
            _("%(value)s is not a time zone (such as Europe/Kyiv)."), params={"value": value}
        )


def zone(name) -> ZoneInfo:
    """The zone `name`; a bad or empty name: the desk's default."""
    return ZoneInfo(name if name in zone_names() else settings.TIME_ZONE)


@contextmanager
def in_zone(name):
    """Times read and shown in the zone `name`."""
    with timezone.override(zone(name)):
        yield
