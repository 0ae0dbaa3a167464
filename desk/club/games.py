"""A club's games: recorded as played, corrected, confirmed by a second officer, voided;
the list of every game."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View
from django_tables2 import RequestConfig

from club.models import Game
from club.selectors import game_history, game_states, rating_book
from club.services import confirm_game, record_game, season_on, void_game
from core.errors import ActionRefused, StaleEdit
from core.roles import ClubRequired
from core.views import act, ask_first, refuse, show_refusal
from desk.club.forms import ConfirmVersionForm, DayForm, GameForm, GamesFilterForm, VoidForm
from desk.club.mixins import ClubMixin
from desk.club.tables import GamesTable, HistoryTable, signed, status_label
from seating.models import WINDS


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
            % {"n": game.number, "date": date_format(game.played_on, "DATE_FORMAT")},
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
                "date": date_format(game.played_on, "DATE_FORMAT"),
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
