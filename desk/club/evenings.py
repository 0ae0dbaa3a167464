"""The club evening: who is present (check-in) and the tables drawn."""

import datetime

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import View

from club.models import Evening, Member
from club.selectors import club_counts, day_games, members, present, sitting_out
from club.services import check_in, draw_evening, evening_on
from core.errors import ActionRefused
from core.forms import SearchForm
from core.moments import within_calendar
from core.roles import ClubRequired
from core.views import act
from desk.club.forms import PresenceForm
from desk.club.mixins import ClubMixin
from desk.club.tables import GameStatesTable, PresenceTable


def _day(text: str) -> datetime.date:
    """An evening's date from its address; a date the desk keeps no evening on is no page."""
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError as e:
        raise Http404 from e
    if not within_calendar(day):
        raise Http404
    return day


def _names(found) -> str:
    return ", ".join(m.person.name for m in found)


class EveningToday(ClubRequired, ClubMixin, View):
    def get(self, request, club):
        return redirect("desk:club_evening", club=club, day=self.today().isoformat())


def _presence_counts(club, evening) -> dict:
    here = len(present(evening)) if evening else 0
    return {"present": here, "active": club_counts(club)["members"]}


class EveningPage(ClubRequired, ClubMixin, View):
    """The evening's check-in (search, Enter checks in the one found: desk.js, as the
    tournament's check-in page), the draw and the evening's games."""

    def get(self, request, club, day):
        day = _day(day)
        evening = Evening.objects.filter(club=self.club, date=day).first()
        active = members(self.club, active=True)
        search = SearchForm(request.GET)
        needle = search.needle()
        if request.headers.get("x-requested-with") == "fetch":
            found = [m.pk for m in active if needle.matches(m.person.name)]
            return JsonResponse({"players": found})
        here = {m.pk for m in present(evening)} if evening else set()
        for m in active:
            m.found = needle.matches(m.person.name)
            m.checked_in = m.pk in here
            m.day = day
            m.club = self.club
        context = {
            "club": self.club,
            "day": day,
            "is_today": day == self.today(),
            "table": PresenceTable(active),
            "query": search.query(),
            "games": GameStatesTable(day_games(self.club, day), exclude=("played_on",)),
            "sitting_out": _names(sitting_out(evening)),
            **_presence_counts(self.club, evening),
        }
        return render(request, "desk/club/evening.html", context)


class EveningCheckIn(ClubRequired, ClubMixin, View):
    def post(self, request, club, day, pk):
        day = _day(day)
        member = get_object_or_404(Member.objects.select_related("person"), club=self.club, pk=pk)
        form = PresenceForm(request.POST)
        wanted = form.is_valid() and form.cleaned_data["checked_in"]
        back = self.here("desk:club_evening", day=day.isoformat())
        fetch = request.headers.get("x-requested-with") == "fetch"
        try:
            evening = evening_on(self.club, day, request.user)
            check_in(evening, member, request.user, present=wanted)
        except ActionRefused as e:
            if fetch:
                return JsonResponse({"error": e.message}, status=400)
            messages.error(request, e.message)
            return redirect(back)
        if fetch:
            counts = _presence_counts(self.club, evening)
            counts_html = render_to_string(
                "desk/club/_presence_counts.html", counts, request=request
            )
            return JsonResponse(
                {"checked_in": wanted, **counts, "counts_html": counts_html.strip()}
            )
        return redirect(back)


class EveningDraw(ClubRequired, ClubMixin, View):
    def post(self, request, club, day):
        day = _day(day)
        back = self.here("desk:club_evening", day=day.isoformat())

        def draw():
            return draw_evening(evening_on(self.club, day, request.user), request.user)

        def done(games):
            numbers = ", ".join(str(g.number) for g in games)
            out = _names(sitting_out(games[0].evening))
            if out:
                return _("Tables drawn: %(numbers)s. Sitting out: %(names)s.") % {
                    "numbers": numbers,
                    "names": out,
                }
            return _("Tables drawn: %(numbers)s.") % {"numbers": numbers}

        return act(request, back, draw, done)
