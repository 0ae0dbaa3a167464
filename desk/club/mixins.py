"""What every page of a club's desk shares: the club of the address."""

import datetime

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from club.grants import enter_club
from club.models import Club
from core.zones import zone


class ClubMixin:
    """The club of the address (`club`), its time zone the page's."""

    def dispatch(self, request, *args, **kwargs):
        self.club = get_object_or_404(Club, slug=kwargs["club"])
        enter_club(self, request, self.club)  # its officers' and the director's (issue 34)
        timezone.activate(zone(self.club.time_zone))
        return super().dispatch(request, *args, **kwargs)

    def today(self) -> datetime.date:
        return timezone.localdate()

    def here(self, name="desk:club", **kwargs):
        return reverse(name, kwargs={"club": self.club.slug, **kwargs})
