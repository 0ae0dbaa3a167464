"""People across events (issue 25): the matches of a tournament's players (the director's), the
desk's people and a person's page with their events (club officers' and the director's); merges
and splits (the director's alone since issue 34: a merge reaches every tournament and club the
two people played in)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django_tables2 import RequestConfig

from club.selectors import person_games
from core.errors import ActionRefused
from core.forms import ButtonsForm, SearchForm
from core.roles import ClubRequired, DirectorRequired, is_director
from core.views import show_refusal
from desk.forms_people import MatchesForm, MergeForm, PersonForm, SplitForm
from desk.tables_people import (
    LinkedTable,
    MatchesTable,
    PeopleTable,
    PersonChangesTable,
    PersonEventsTable,
    PersonRatedGamesTable,
)
from people.models import Person, PersonChange
from people.selectors import people_list, person_changes
from people.services import create_person, merge_people, split_people, update_person
from scoring.selectors import person_events
from tournament.mixins import TournamentMixin
from tournament.selectors import people_matches
from tournament.services import NEW_PERSON, link_players


class PeopleMatches(DirectorRequired, TournamentMixin, View):
    """Every player of the tournament without a person and the people each may be; nothing is
    linked until the director accepts."""

    def _render(self, request, form, matches):
        for player in matches.unlinked:
            player.choice = form[form.field_name(player)]
        context = {
            "tournament": self.tournament,
            "form": form,
            "table": MatchesTable(matches.unlinked),
            "linked": LinkedTable(matches.linked),
            "unmatched": sum(1 for p in matches.unlinked if not p.candidates),
        }
        return render(request, "desk/people_matches.html", context)

    def get(self, request, slug):
        matches = people_matches(self.tournament)
        return self._render(request, MatchesForm(players=matches.unlinked), matches)

    def post(self, request, slug):
        matches = people_matches(self.tournament)
        form = MatchesForm(request.POST, players=matches.unlinked)
        if ButtonsForm(request.POST, "all_new").pressed("all_new"):
            choices = {p.pk: NEW_PERSON for p in matches.unlinked if not p.candidates}
        elif form.is_valid():
            choices = form.choices()
        else:
            return self._render(request, form, matches)
        try:
            count = link_players(self.tournament, choices, request.user)
        except ActionRefused as e:
            messages.error(request, e.message)
            return self._render(request, form, matches)
        messages.success(
            request,
            ngettext("%(n)d player linked to a person.", "%(n)d players linked to people.", count)
            % {"n": count},
        )
        return redirect("desk:people_matches", slug=slug)


class PeopleList(ClubRequired, View):
    def get(self, request):
        search = SearchForm(request.GET)
        table = PeopleTable(people_list(search.query()), language=request.LANGUAGE_CODE)
        if search.query():  # people there are, the search found none of them (issue 37)
            table.empty_text = _("Nobody on the desk matches this search.")
        RequestConfig(request, paginate=False).configure(table)
        return render(request, "desk/people.html", {"table": table, "query": search.query()})


class PersonAdd(ClubRequired, View):
    def _render(self, request, form):
        return render(request, "desk/person_form.html", {"form": form, "title": _("New person")})

    def get(self, request):
        return self._render(request, PersonForm())

    def post(self, request):
        form = PersonForm(request.POST)
        if form.is_valid():
            try:
                person = create_person(form.cleaned_data, request.user)
            except ActionRefused as e:
                show_refusal(form, e)
                return self._render(request, form)
            messages.success(request, _("Person saved."))
            return redirect("desk:person", pk=person.pk)
        return self._render(request, form)


class PersonDetail(ClubRequired, View):
    """A person: their fields, every event, the merges and splits; a form to merge another
    person into this one."""

    def get(self, request, pk):
        person = get_object_or_404(Person.objects.select_related("merged_into"), pk=pk)
        return _person_page(request, person)

    def post(self, request, pk):
        person = get_object_or_404(Person.objects.select_related("merged_into"), pk=pk)
        form = PersonForm(request.POST, instance=person)
        if form.is_valid():
            try:
                update_person(person, form.cleaned_data, request.user)
            except ActionRefused as e:
                show_refusal(form, e)
                return _person_page(request, _stored(person), form=form)
            messages.success(request, _("Person saved."))
            return redirect("desk:person", pk=pk)
        return _person_page(request, _stored(person), form=form)


def _person_page(request, person, form=None, merge=None):
    merged = person.merged_into_id is not None
    context = {
        "person": person,
        "form": None if merged else (form or PersonForm(instance=person)),
        "merge": None
        if merged or not is_director(request.user)
        else (merge or MergeForm(person=person)),
        "events": PersonEventsTable(person_events(person)),
        "changes": PersonChangesTable(person_changes(person)),
        "rated_games": PersonRatedGamesTable(rated_game_rows(person)),
        "history": person.history.select_related("history_user")[:50],
    }
    return render(request, "desk/person.html", context)


def rated_game_rows(person) -> list[dict]:
    """The person's line of each confirmed rated game, with who else sat at the table."""
    rows = []
    for club, game in person_games(person):
        mine = next(line for line in game.lines if line.person.pk == person.pk)
        rows.append(
            {
                "club": club,
                "played_on": game.played_on,
                "number": game.number,
                "place": mine.place,
                "score": mine.score,
                "points": mine.points,
                "others": ", ".join(
                    line.person.name for line in game.lines if line.person.pk != person.pk
                ),
            }
        )
    return rows


def _stored(person):
    """The person as stored: a refused form has copied its values onto the instance."""
    return Person.objects.select_related("merged_into").get(pk=person.pk)


class PersonMerge(DirectorRequired, View):
    def post(self, request, pk):
        person = get_object_or_404(Person.objects.select_related("merged_into"), pk=pk)
        form = MergeForm(request.POST, person=person)
        if form.is_valid():
            try:
                merge_people(
                    person, form.cleaned_data["other"], request.user, form.cleaned_data["reason"]
                )
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(
                    request,
                    _("%(other)s merged into %(kept)s.")
                    % {"other": form.cleaned_data["other"].name, "kept": person.name},
                )
                return redirect("desk:person", pk=pk)
        return _person_page(request, person, merge=form)


class PersonSplit(DirectorRequired, View):
    def post(self, request, pk):
        change = get_object_or_404(PersonChange, pk=pk, kind=PersonChange.Kind.MERGE)
        form = SplitForm(request.POST)
        if not form.is_valid():
            messages.error(request, form.errors["reason"][0])
            return redirect("desk:person", pk=change.kept_id)
        try:
            split_people(change, request.user, form.cleaned_data["reason"])
        except ActionRefused as e:
            messages.error(request, e.message)
        else:
            messages.success(
                request,
                _("%(other)s split from %(kept)s again.")
                % {"other": change.other.name, "kept": change.kept.name},
            )
        return redirect("desk:person", pk=change.kept_id)
