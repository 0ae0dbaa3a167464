"""Which dates and times the desk takes, declared once (issue 22): the models' validators, the
appeal form and the tournament file read these.

A time in year 1 or 9999 is a typo, and near those ends the calendar runs out as soon as a time
zone or the appeal window is added to it (a 500 on every page that showed it). Any tournament,
past or planned, falls between 1900 and 2999.
"""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

EARLIEST = date(1900, 1, 1)
LATEST = date(2999, 12, 31)


def within_calendar(value) -> bool:
    """A date, or a time (its own calendar day: converting it could run off the calendar),
    between EARLIEST and LATEST."""
    if isinstance(value, datetime):
        value = value.date()
    return EARLIEST <= value <= LATEST


def validate_calendar(value):
    if value is not None and not within_calendar(value):
        raise ValidationError(
            _("Enter a date between %(earliest)s and %(latest)s."),
            code="calendar",
            params={
                "earliest": date_format(EARLIEST, "SHORT_DATE_FORMAT"),
                "latest": date_format(LATEST, "SHORT_DATE_FORMAT"),
            },
        )
