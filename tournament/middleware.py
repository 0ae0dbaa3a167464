"""The tournament's time zone for every page of it (issue 23): desk, referee, public, printouts."""

from django.utils import timezone

from core.zones import zone
from tournament.selectors import page_tournament


class TournamentZone:
    """Pages under a tournament's slug run in its time zone: typed times are read in it, shown
    times are in it. Other pages keep the desk's default (settings.TIME_ZONE). The tournament is
    read once a request (tournament.selectors.page_tournament): the view takes the same one.
    One indexed query per page that is not served from the public page cache."""

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
            tournament = page_tournament(request, slug)
            if tournament is not None and tournament.time_zone:
                timezone.activate(zone(tournament.time_zone))
        return None
