"""A club rating's desk pages (issue 25): the club officers' settings, seasons, members, the
evening's check-in and draw, games recorded and confirmed, the rating. Every write is one
service of club.services; every page is ClubRequired."""

import datetime

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django_tables2 import RequestConfig

from club.grants import clubs_of, enter_club
from club.models import Club, Evening, Game, Member, Season
from club.selectors import (
    club_counts,
    day_games,
    drafts,
    game_history,
    game_states,
    members,
    person_chart,
    person_club_games,
    present,
    rating,
    rating_book,
    seasons,
)
from club.services import (
    add_member,
    add_new_member,
    check_in,
    close_season,
    confirm_game,
    draw_evening,
    evening_on,
    record_game,
    save_club,
    save_season,
    season_on,
    set_member_active,
    void_game,
)
from core.errors import ActionRefused, StaleEdit
from core.forms import AskedForm, SearchForm
from core.moments import within_calendar
from core.roles import ClubRequired
from core.views import act, ask_first, refuse, show_refusal
from core.zones import zone
from desk.forms_club import (
    ActiveForm,
    ClubForm,
    ConfirmVersionForm,
    DayForm,
    GameForm,
    GamesFilterForm,
    MemberSearchForm,
    PersonForm,
    PresenceForm,
    SeasonChoiceForm,
    SeasonForm,
    VoidForm,
)
from desk.tables_club import (
    ClubsTable,
    GamesTable,
    GameStatesTable,
    HistoryTable,
    MemberGamesTable,
    MembersTable,
    PeopleFoundTable,
    PresenceTable,
    RatingTable,
    SeasonsTable,
    signed,
    status_label,
)
from people.models import Person
from seating.models import WINDS

PEOPLE_SHOWN = 20  # people a member search lists at most


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


def _day(text: str) -> datetime.date:
    """An evening's date from its address; a date the desk keeps no evening on is no page."""
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError as e:
        raise Http404 from e
    if not within_calendar(day):
        raise Http404
    return day


# --- clubs and their settings ----------------------------------------------------------------


class ClubList(ClubRequired, View):
    def get(self, request):
        table = ClubsTable(clubs_of(request.user))
        return render(request, "desk/club/list.html", {"table": table})


class ClubCreate(ClubRequired, View):
    def _render(self, request, form, status=200):
        context = {"form": form, "title": _("New club rating")}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request):
        return self._render(request, ClubForm(user=request.user))

    def post(self, request):
        form = ClubForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                club = save_club(None, form.data_for_service(), request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Club rating created."))
                return redirect("desk:club", club=club.slug)
        return self._render(request, form, status=400)


class ClubEdit(ClubRequired, ClubMixin, View):
    def _render(self, request, form, status=200):
        stored = Club.objects.get(pk=self.club.pk)
        context = {"form": form, "title": _("Club settings"), "club": stored}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request, club):
        return self._render(request, ClubForm(club=self.club, user=request.user))

    def post(self, request, club):
        form = ClubForm(request.POST, club=self.club, user=request.user)
        if form.is_valid():
            try:
                saved = save_club(self.club, form.data_for_service(), request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Club settings saved; the rating is recomputed."))
                return redirect("desk:club", club=saved.slug)
        return self._render(request, form, status=400)


class ClubDashboard(ClubRequired, ClubMixin, View):
    def get(self, request, club):
        c = self.club
        waiting = drafts(c)
        all_seasons = seasons(c)
        for season in all_seasons:
            season.club = c  # the table's links, without a query a row
        context = {
            "club": c,
            "counts": club_counts(c),
            "seasons": SeasonsTable(all_seasons),
            "drafts": GameStatesTable(waiting),
            "n_drafts": len(waiting),
            "today": self.today(),
            "rules": c.rule_set(),
        }
        return render(request, "desk/club/dashboard.html", context)


class SeasonEdit(ClubRequired, ClubMixin, View):
    def _season(self, pk):
        return get_object_or_404(Season, club=self.club, pk=pk) if pk else None

    def _render(self, request, form, season, status=200):
        title = _("Edit season") if season else _("New season")
        context = {"form": form, "title": title, "club": self.club}
        return render(request, "desk/club/form.html", context, status=status)

    def get(self, request, club, pk=None):
        season = self._season(pk)
        initial = {}
        if season:
            initial = {"name": season.name, "start": season.start, "end": season.end}
        return self._render(request, SeasonForm(initial=initial), season)

    def post(self, request, club, pk=None):
        season = self._season(pk)
        form = SeasonForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                save_season(
                    self.club, season, data["name"], data["start"], data["end"], request.user
                )
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _("Season saved."))
                return redirect("desk:club", club=club)
        return self._render(request, form, season, status=400)


class SeasonClose(ClubRequired, ClubMixin, View):
    """Close a season (its games then change only with the override) or reopen it, once asked."""

    def post(self, request, club, pk):
        season = get_object_or_404(Season, club=self.club, pk=pk)
        closing = not season.closed
        if not AskedForm(request.POST).confirmed():
            if closing:
                question = _("Close the season “%(name)s”?") % {"name": season.name}
            else:
                question = _("Reopen the season “%(name)s”?") % {"name": season.name}
            return ask_first(request, question, ("next",), self.here(), club=self.club)
        return act(
            request,
            self.here(),
            lambda: close_season(season, request.user, close=closing),
            lambda s: (
                (_("Season “%(name)s” closed.") if s.closed else _("Season “%(name)s” reopened."))
                % {"name": s.name}
            ),
        )


# --- members -------------------------------------------------------------------------------


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


# --- the evening: who is present, the tables drawn --------------------------------------------


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
            return _("Tables drawn: %(numbers)s.") % {
                "numbers": ", ".join(str(g.number) for g in games)
            }

        return act(request, back, draw, done)


# --- games ---------------------------------------------------------------------------------


def _closed(club, day) -> bool:
    season = season_on(club, day) if day else None
    return bool(season and season.closed)


class GameAdd(ClubRequired, ClubMixin, View):
    """A game recorded as played: its date, four seats, the scores."""

    def _render(self, request, form, day, status=200):
        context = {
            "club": self.club,
            "form": form,
            "day": day,
            "target_sum": self.club.rule_set().start_points * len(WINDS),
            "title": _("New game"),
        }
        return render(request, "desk/club/game.html", context, status=status)

    def get(self, request, club):
        query = DayForm(request.GET)
        day = (query.is_valid() and query.cleaned_data["date"]) or self.today()
        form = GameForm(
            initial={"played_on": day, "base_version": 0},
            club=self.club,
            new=True,
            closed=_closed(self.club, day),
        )
        return self._render(request, form, day)

    def post(self, request, club):
        day = DayForm({"date": request.POST.get("played_on")})
        day = day.cleaned_data["date"] if day.is_valid() else None
        form = GameForm(request.POST, club=self.club, new=True, closed=_closed(self.club, day))
        if form.is_valid():
            data = form.cleaned_data
            try:
                version = record_game(
                    self.club,
                    form.seats(),
                    request.user,
                    played_on=data["played_on"],
                    override_closed=data["override_closed"],
                    note=data["note"],
                )
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(request, _saved_message(version))
                return redirect("desk:club_game", club=club, pk=version.game_id)
        return self._render(request, form, day, status=400)


def _saved_message(version) -> str:
    if version.void:
        return _("Game taken out as a draft, version %(v)d; a second officer confirms it.") % {
            "v": version.version
        }
    if version.version > 1:
        return _(
            "Table %(n)d: the correction is saved as a draft, version %(v)d; a second officer "
            "confirms it."
        ) % {"n": version.game.number, "v": version.version}
    return _("Table %(n)d saved as a draft; a second officer confirms it.") % {
        "n": version.game.number
    }


class GameDetail(ClubRequired, ClubMixin, View):
    """A game: its seats (as drawn or as last recorded), the entry or correction form, the
    confirmation, the void, and every version."""

    def _game(self, pk):
        return get_object_or_404(
            Game.objects.select_related("club", "evening"), club=self.club, pk=pk
        )

    def _render(self, request, game, form=None, status=200):
        state = game_states([game])[0]
        latest = state.latest
        closed = _closed(self.club, game.played_on)
        if form is None:
            initial = {"base_version": latest.version if latest else 0}
            for wind, member in state.seats:
                initial[f"member_{wind}"] = member.pk
            shown = next((v for v in game_history(game) if not v.void), None)
            if shown is not None:
                for s in shown.scores.all():
                    initial[f"score_{s.wind}"] = s.score
                    initial[f"chombo_{s.wind}"] = s.chombo
            form = GameForm(initial=initial, club=self.club, new=False, closed=closed)
        can_confirm = latest is not None and latest.may_confirm(request.user)
        rated = rating_book(self.club).games.get(game.pk)
        context = {
            "club": self.club,
            "game": game,
            "state": state,
            "status": status_label(state.status),
            "latest": latest,
            "form": form,
            "closed": closed,
            "can_confirm": can_confirm,
            "target_sum": self.club.rule_set().start_points * len(WINDS),
            "rated": [(line, signed(line.points)) for line in rated.lines] if rated else None,
            "history": HistoryTable(game_history(game)),
            "void_form": VoidForm(initial={"base_version": latest.version if latest else 0}),
            "title": _("Table %(n)d · %(date)s")
            % {"n": game.number, "date": game.played_on.isoformat()},
        }
        return render(request, "desk/club/game.html", context, status=status)

    def get(self, request, club, pk):
        return self._render(request, self._game(pk))

    def post(self, request, club, pk):
        game = self._game(pk)
        closed = _closed(self.club, game.played_on)
        form = GameForm(request.POST, club=self.club, new=False, closed=closed)
        if not form.is_valid():
            return self._render(request, game, form, status=400)
        data = form.cleaned_data
        try:
            version = record_game(
                self.club,
                form.seats(),
                request.user,
                game=game,
                base_version=data["base_version"] or 0,
                override_closed=data["override_closed"],
                note=data["note"],
            )
        except ActionRefused as e:
            show_refusal(form, e)
            return self._render(
                request, game, form, status=409 if isinstance(e, StaleEdit) else 400
            )
        messages.success(request, _saved_message(version))
        if game.evening_id:
            return redirect("desk:club_evening", club=club, day=game.played_on.isoformat())
        return redirect("desk:club_game", club=club, pk=game.pk)


class GameConfirm(ClubRequired, ClubMixin, View):
    def post(self, request, club, pk):
        game = get_object_or_404(Game, club=self.club, pk=pk)
        form = ConfirmVersionForm(request.POST)
        back = self.here("desk:club_game", pk=game.pk)
        if not form.is_valid():
            return refuse(request, form, back)
        version = get_object_or_404(game.versions, version=form.cleaned_data["version"])
        return act(
            request,
            back,
            lambda: confirm_game(version, request.user),
            lambda v: (
                _("Table %(n)d confirmed (version %(v)d); the rating counts it.")
                % {"n": game.number, "v": v.version}
            ),
        )


class GameVoid(ClubRequired, ClubMixin, View):
    """Take a game out of the rating (recorded by mistake), once asked; a second officer
    confirms the void like any version."""

    def post(self, request, club, pk):
        game = get_object_or_404(Game, club=self.club, pk=pk)
        back = self.here("desk:club_game", pk=game.pk)
        form = VoidForm(request.POST)
        if not form.is_valid():
            return refuse(request, form, back)
        data = form.cleaned_data
        if not data["confirm"]:
            question = _("Take table %(n)d of %(date)s out of the rating?") % {
                "n": game.number,
                "date": game.played_on.isoformat(),
            }
            return ask_first(
                request,
                question,
                ("base_version", "note", "override_closed", "next"),
                back,
                club=self.club,
            )
        return act(
            request,
            back,
            lambda: void_game(
                game,
                request.user,
                data["base_version"],
                data["note"] or "",
                override_closed=data["override_closed"],
            ),
            _saved_message,
        )


class Games(ClubRequired, ClubMixin, View):
    """Every game, newest first, filtered by season and date, a page at a time."""

    PER_PAGE = 50

    def get(self, request, club):
        form = GamesFilterForm(request.GET, club=self.club)
        games = Game.objects.filter(club=self.club).select_related("club")
        if form.is_valid():
            season, day = form.cleaned_data["season"], form.cleaned_data["date"]
            if season is not None:
                games = games.filter(played_on__gte=season.start, played_on__lte=season.end)
            if day:
                games = games.filter(played_on=day)
        table = GamesTable(games.order_by("-played_on", "-number"))
        RequestConfig(request, paginate={"per_page": self.PER_PAGE}).configure(table)
        shown = [row.record for row in table.page.object_list]
        table.states = {s.game.pk: s for s in game_states(shown)}
        table.rated = rating_book(self.club).games
        context = {"club": self.club, "table": table, "form": form}
        return render(request, "desk/club/games.html", context)


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
            "table": RatingTable(found.table.rows, charts=charts),
            "unranked": RatingTable(found.table.unranked, charts=charts, exclude=("rank",)),
        }
        return render(request, "desk/club/rating.html", context)
