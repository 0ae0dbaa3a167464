"""Time zones: each tournament is in its own (issue 23), the one every time is typed and shown in.

tournament.middleware.TournamentZone makes a page's tournament's zone the current one, so forms
read a typed time in it and templates show times in it; `in_zone` does the same for printouts
and commands (Tournament.printing).
"""

from contextlib import contextmanager
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _


@cache
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


class ZoneSelect(forms.Select):
    """A choice of every zone (about 600), written as forms.Select writes it, option for option
    and space for space, but in Python: forms.Select renders each option through its own
    template, about 60 ms a form (the tournament's and the club's), paid on every page that
    shows one. tests/integration/core/test_zones.py holds the two to the same HTML."""

    def __init__(self, attrs=None):
        super().__init__(attrs, choices=[(name, name) for name in zone_names()])

    def render(self, name, value, attrs=None, renderer=None):
        values = self.format_value(value)
        attrs = _attrs(self.build_attrs(self.attrs, attrs))
        parts = [f'<select name="{conditional_escape(name)}"{attrs}>']
        chosen = False
        for option, start, end in _options():
            selected = not chosen and option in values
            chosen |= selected
            parts.append(start + " selected" + end if selected else start + end)
        parts.append("\n</select>")
        return mark_safe("".join(parts))


@cache
def _options() -> tuple[tuple[str, str, str], ...]:
    """Each zone's option, written once per process: its value, and its HTML before and after
    where " selected" goes."""
    return tuple(
        (
            name,
            f'\n  <option value="{conditional_escape(name)}"',
            f">{conditional_escape(name)}</option>\n",
        )
        for name in zone_names()
    )


def _attrs(attrs: dict) -> str:
    """An element's attributes as django/forms/widgets/attrs.html writes them."""
    return "".join(
        f" {conditional_escape(key)}" + ("" if value is True else f'="{conditional_escape(value)}"')
        for key, value in attrs.items()
        if value is not False
    )


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
