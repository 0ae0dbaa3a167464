"""A club's members: the list, a search for people to add, a new person, former members,
a member's chart and rated games."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from club.models import Member
from club.selectors import members, person_chart, person_club_games, rating_book
from club.services import add_member, add_new_member, set_member_active
from core.errors import ActionRefused
from core.forms import SearchForm
from core.roles import ClubRequired
from core.views import act, refuse, show_refusal
from desk.club.forms import ActiveForm, MemberSearchForm, PersonForm
from desk.club.mixins import ClubMixin
from desk.club.tables import MemberGamesTable, MembersTable, PeopleFoundTable
from people.models import Person

PEOPLE_SHOWN = 20  # people a member search lists at most


def _games_played(club) -> dict:
    """Rated games by member pk (the rating's count: confirmed, not void)."""
    counts = {}
    for game in rating_book(club).games.values():
        for line in game.lines:
            counts[line.member_id] = counts.get(line.member_id, 0) + 1
    return counts


class Members(ClubRequired, ClubMixin, View):
    def _render(self, request, new_form=None, status=200):
        c = self.club
        rows = members(c)
        played = _games_played(c)
        for m in rows:
            m.club = c
            m.games_played = played.get(m.pk, 0)
        rows.sort(key=lambda m: not m.active)  # former members after the active ones
        search = SearchForm(request.GET)
        found = None
        if search.query():
            needle = search.needle()
            active = {m.person_id for m in rows if m.active}
            people = [
                p
                for p in Person.objects.filter(merged_into__isnull=True).order_by("name", "pk")
                if p.pk not in active and needle.matches(p.name)
            ]
            found = PeopleFoundTable(people[:PEOPLE_SHOWN])
            already = [m.person.name for m in rows if m.active and needle.matches(m.person.name)]
            if not people and already:  # on the desk, and members already (issue 37)
                found.empty_text = _("Already a member: %(names)s.") % {"names": ", ".join(already)}
        context = {
            "club": c,
            "table": MembersTable(rows),
            "found": found,
            "query": search.query(),
            "new_form": new_form or PersonForm(initial={"name": search.query()}),
        }
        return render(request, "desk/club/members.html", context, status=status)

    def get(self, request, club):
        return self._render(request)

    def post(self, request, club):
        """Add an existing person (a search result's button)."""
        form = MemberSearchForm(request.POST)
        if not form.is_valid():
            return refuse(request, form, self.here("desk:club_members"))
        person = form.cleaned_data["person"]
        return act(
            request,
            self.here("desk:club_members"),
            lambda: add_member(self.club, person, request.user),
            lambda m: _("%(name)s is a member.") % {"name": m.person.name},
        )


class MemberNew(Members):
    """A person new to the desk, made a member at once."""

    def get(self, request, club):
        return redirect("desk:club_members", club=club)

    def post(self, request, club):
        form = PersonForm(request.POST)
        if form.is_valid():
            try:
                member = add_new_member(self.club, form.cleaned_data, request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("%(name)s is a member.") % {"name": member.person.name})
                return redirect("desk:club_members", club=club)
        return self._render(request, new_form=form, status=400)


class MemberActive(ClubRequired, ClubMixin, View):
    def post(self, request, club, pk):
        member = get_object_or_404(Member.objects.select_related("person"), club=self.club, pk=pk)
        form = ActiveForm(request.POST)
        if not form.is_valid():
            return refuse(request, form, self.here("desk:club_members"))
        active = form.cleaned_data["active"]
        return act(
            request,
            self.here("desk:club_members"),
            lambda: set_member_active(member, active, request.user),
            lambda m: (
                (
                    _("%(name)s is an active member again.")
                    if m.active
                    else _("%(name)s is a former member; their games stay.")
                )
                % {"name": m.person.name}
            ),
        )


class MemberDetail(ClubRequired, ClubMixin, View):
    """A member's rating chart and rated games (club.selectors)."""

    def get(self, request, club, pk):
        member = get_object_or_404(Member.objects.select_related("person"), club=self.club, pk=pk)
        person = member.person
        rows = []
        for game in person_club_games(self.club, person):
            for line in game.lines:
                if line.person.pk == person.pk:
                    rows.append(
                        {
                            "played_on": game.played_on,
                            "number": game.number,
                            "url": self.here("desk:club_game", pk=game.pk),
                            "wind": line.wind,
                            "place": line.place,
                            "score": line.score,
                            "chombo": line.chombo,
                            "points": line.points,
                        }
                    )
        context = {
            "club": self.club,
            "member": member,
            "chart": person_chart(self.club, person),
            "table": MemberGamesTable(rows),
        }
        return render(request, "desk/club/member.html", context)
