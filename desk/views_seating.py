"""Seating pages of the desk: the session's tables, the draw, tables by hand."""

from django.contrib import messages
from django.db.models import Prefetch
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from core.collation import collated
from core.errors import ActionRefused
from core.roles import DeskRequired, DirectorRequired
from core.views import error_messages
from desk.forms_seating import DrawForm, SeatChangeForm, SwissForm, TableForm
from desk.tables import (
    QualityTable,
    SeatingByNameTable,
    SeatingByTableTable,
    SeatingChangeTable,
    SessionTablesTable,
    WindTable,
    players_text,
    session_rows,
    wind_columns,
)
from referee.appeals import deadline
from scoring.selectors import (
    confirmed_scores,
    done,
    draft_scores,
    standings_order,
    table_states,
)
from seating.manual import move_player, move_warnings, swap_players, swap_warnings
from seating.models import WINDS, Seat, SeatingChange, Table, Wind
from seating.selectors import (
    FIGURES,
    TILES_FIGURE,
    TILES_TEXT,
    WIND_FIGURES,
    bound_text,
    bounds_of,
    figures,
    pending_tables,
    tournament_quality,
    wind_rows,
    winds_at_table,
)
from seating.services import (
    add_table,
    delete_table,
    draw_pool,
    draw_session,
    has_results,
    last_planned,
    removable_tables,
    swiss_session,
)
from tournament.mixins import SessionMixin
from tournament.sessions import can_reopen


def quality_rows(values: dict, tiles: bool = False) -> list[dict]:
    """Figures for a QualityTable, each with the best possible beside it where there is one:
    the bare number where it is proven reachable, "at least …" where it is only a bound.
    `tiles`: the winds are drawn at the table, so the wind figures say so instead."""
    if not values.get("players") or not values.get("sessions"):
        # Nobody seated yet: no figure means anything ("best possible 1" beside a 0 did not).
        return []
    bounds = bounds_of(values)
    rows = []
    for key, label in FIGURES:
        if key == "extra_floor":  # shown as the bound of extra meetings
            continue
        if tiles and key in WIND_FIGURES:
            if key == WIND_FIGURES[0]:
                rows.append({"figure": TILES_FIGURE, "value": TILES_TEXT, "bound": ""})
            continue
        value = values.get(key)
        if value is None:
            continue
        if key == "zero_repeat_ceiling":  # itself a bound: at most …, or the known maximum
            value = bound_text(key, bounds.get(key)) or value
            bound = ""
        else:
            bound = bound_text(key, bounds.get(key))
        rows.append({"figure": label, "value": value, "bound": bound})
    return rows


class SessionDetail(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        session = self.session
        tables = session.tables.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
        states = table_states(session)
        tiles = winds_at_table(self.tournament)
        pending = pending_tables(self.tournament)
        rows = session_rows(
            session,
            tables,
            states,
            confirmed_scores(self.tournament, session.number),
            draft_scores(session),
            pending,
        )
        confirmed = sum(1 for state in states.values() if done(state))
        played = has_results(session)
        q = tournament_quality(self.tournament, upto=session.number)
        names = dict(self.tournament.players.values_list("key", "name"))
        seated = collated(
            Seat.objects.filter(session=session).select_related("player", "table"),
            self.tournament.language,
            lambda seat: seat.player.name,
        )
        context = {
            "tournament": self.tournament,
            "session": session,
            "table": SessionTablesTable(rows, **wind_columns(tiles)),
            "tiles": tiles,
            "pending": pending,
            "confirmed": confirmed,
            "total": len(rows),
            "pool": len(draw_pool(session)),
            "removable": removable_tables(session),
            "appeal_deadline": deadline(session),
            "can_reopen": can_reopen(session, request.user),
            "draw_form": DrawForm(),
            "swiss_form": SwissForm(),
            "wind_target": last_planned(session),
            "table_form": TableForm(session=session),
            "quality": QualityTable(quality_rows(figures(q), tiles)),
            "quality_sessions": q.sessions,
            "winds": WindTable(wind_rows(q, names, self.tournament.language)),
            "changes": SeatingChangeTable(
                SeatingChange.objects.filter(session=session).select_related("changed_by")
            ),
            "seated": seated,
            "played": played,
            "winds_choices": Wind.choices,
        }
        return render(request, "desk/session.html", context)


class SeatingPrint(DeskRequired, SessionMixin, View):
    """Seating lists for the wall: by table, and by name ("name → table, wind")."""

    def get(self, request, slug, number):
        seats = list(self.session.seats.select_related("player", "table").order_by("table__number"))
        tiles = winds_at_table(self.tournament)
        pending = pending_tables(self.tournament)
        language = self.tournament.language
        by_table = {}
        for seat in sorted(seats, key=lambda s: (s.table.number, WINDS.index(s.wind))):
            by_table.setdefault(seat.table.number, {"number": seat.table.number})[seat.wind] = (
                seat.player.name
            )
        for seat in seats:
            row = by_table[seat.table.number]
            row["players"] = players_text(
                [(w, row[w]) for w in WINDS if w in row], seat.table_id in pending, language
            )
        by_name = [
            {
                "name": s.player.name,
                "table": s.table.number,
                "wind": "" if s.table_id in pending else Wind(s.wind).label,
            }
            for s in collated(seats, language, lambda seat: seat.player.name)
        ]
        hidden = all(s.table_id in pending for s in seats)
        made = (
            SeatingChange.objects.filter(session=self.session)
            .exclude(
                kind__in=[
                    SeatingChange.Kind.SWAP,
                    SeatingChange.Kind.MOVE,
                    SeatingChange.Kind.WINDS,
                ]
            )
            .select_related("changed_by")
            .first()
        )
        context = {
            "tournament": self.tournament,
            "session": self.session,
            "made": made,
            "by_table": SeatingByTableTable(list(by_table.values()), **wind_columns(tiles)),
            "by_name": SeatingByNameTable(by_name, exclude=("wind",) if hidden else ()),
            "tiles": tiles,
        }
        with self.tournament.printing():
            return render(request, "desk/seating_print.html", context)


class SessionDraw(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number):
        form = DrawForm(request.POST)
        if form.is_valid():
            try:
                draw_session(self.session, form.cleaned_data["seed"], request.user)
            except ActionRefused as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("Session drawn."))
        else:
            messages.error(request, _("Seed: give a whole number or leave it empty."))
        return redirect("desk:session", slug=slug, number=number)


class TableAdd(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number):
        form = TableForm(request.POST, session=self.session)
        if form.is_valid():
            try:
                add_table(self.session, form.players(), request.user)
            except ActionRefused as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("Table added."))
        else:
            error_messages(request, form)
        return redirect("desk:session", slug=slug, number=number)


class TableDelete(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number, table):
        table = get_object_or_404(Table, session=self.session, number=table)
        try:
            delete_table(table, request.user)
        except ActionRefused as e:
            messages.error(request, e.message)
        return redirect("desk:session", slug=slug, number=number)


class SessionSwiss(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number):
        form = SwissForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Seed: give a whole number or leave it empty."))
        else:
            try:
                swiss_session(
                    self.session,
                    standings_order(self.tournament),
                    form.cleaned_data["seed"],
                    request.user,
                )
            except ActionRefused as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("Session seated by standings."))
        return redirect("desk:session", slug=slug, number=number)


class SeatChange(DirectorRequired, SessionMixin, View):
    """Swap two players or move one to an empty seat; GET ?check=1 only answers the warnings
    (for the page to show them live), POST makes the change."""

    def get(self, request, slug, number):
        form = SeatChangeForm(request.GET)
        if not form.is_valid():  # not yet a whole change: nothing to warn of
            return JsonResponse({"warnings": []})
        data = form.cleaned_data
        if data["b"]:
            found = swap_warnings(self.session, data["a"], data["b"])
        else:
            found = move_warnings(self.session, data["a"], data["table"], data["wind"])
        return JsonResponse({"warnings": found, "played": has_results(self.session)})

    def post(self, request, slug, number):
        form = SeatChangeForm(request.POST)
        if not form.is_valid():
            error_messages(request, form)
            return redirect("desk:session", slug=slug, number=number)
        data = form.cleaned_data
        try:
            if data["b"]:
                swap_players(
                    self.session,
                    data["a"],
                    data["b"],
                    request.user,
                    data["reason"],
                    data["override"],
                )
            else:
                move_player(
                    self.session,
                    data["a"],
                    data["table"],
                    data["wind"],
                    request.user,
                    data["reason"],
                    data["override"],
                )
        except ActionRefused as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("Seating changed."))
        return redirect("desk:session", slug=slug, number=number)
