"""The tournament's time zone for every page of it (issue 23): desk, referee, public, printouts."""

from django.utils import timezone

from core.zones import zone
from tournament.models import Tournament


class TournamentZone:
    """Pages under a tournament's slug run in its time zone: typed times are read in it, shown
    times are in it. Other pages keep the desk's default (settings.TIME_ZONE). One indexed
    query per page that is not served from the public page cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        slug = view_kwargs.get("slug")
        if slug:
            name = Tournament.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
            if name:
                timezone.activate(zone(name))
        return None
