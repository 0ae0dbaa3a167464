"""A club's rating for the desk."""

from django.shortcuts import render
from django.views import View

from club.models import Member
from club.selectors import rating, seasons
from core.roles import ClubRequired
from desk.club.forms import SeasonChoiceForm
from desk.club.mixins import ClubMixin
from desk.club.tables import RatingTable


class RatingPage(ClubRequired, ClubMixin, View):
    """The rating for the desk: all time or a season; those below the minimum apart."""

    def get(self, request, club):
        all_seasons = seasons(self.club)
        form = SeasonChoiceForm(request.GET, club=self.club)
        season = form.cleaned_data["season"] if form.is_valid() else None
        found = rating(self.club, season)
        charts = {
            person: self.here("desk:club_member", pk=member)
            for member, person in Member.objects.filter(club=self.club).values_list(
                "pk", "person_id"
            )
        }
        context = {
            "club": self.club,
            "seasons": all_seasons,
            "form": form,
            "season": season,
            "rating": found,
            "table": RatingTable(found.table.rows, charts=charts, empty_text=found.empty_text),
            "unranked": RatingTable(found.table.unranked, charts=charts, exclude=("rank",)),
        }
        return render(request, "desk/club/rating.html", context)
