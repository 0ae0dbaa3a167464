"""Seating pages of the desk: the session's tables, the draw, tables by hand."""

from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from scoring.models import Result
from scoring.tables import SessionTablesTable, session_rows
from tournament.models import Session
from tournament.roles import DeskRequired, DirectorRequired
from tournament.services import ActionRefused
from tournament.views_desk import TournamentMixin

from .forms import DrawForm, TableForm
from .models import WINDS, Seat, Table, Wind
from .services import add_table, delete_table, draw_pool, draw_session
from .tables import SeatingByNameTable, SeatingByTableTable


class SessionMixin(TournamentMixin):
    def dispatch(self, request, *args, **kwargs):
        self.session = get_object_or_404(
            Session.objects.select_related("tournament"),
            tournament__slug=kwargs["slug"],
            number=kwargs["number"],
        )
        return super().dispatch(request, *args, **kwargs)


RESULT_STATES = {
    "none": gettext_lazy("not entered"),
    "draft": gettext_lazy("draft — to confirm"),
    "confirmed": gettext_lazy("confirmed"),
    "superseded": gettext_lazy("replaced"),
}


class SessionDetail(DeskRequired, SessionMixin, View):
    def get(self, request, slug, number):
        session = self.session
        tables = session.tables.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
        latest = {}
        for r in Result.objects.filter(table__session=session).order_by("table_id", "version"):
            latest[r.table_id] = r
        states = {k: str(v) for k, v in RESULT_STATES.items()}
        rows = session_rows(session, tables, latest, states)
        confirmed = sum(1 for r in rows if r["state_code"] == "confirmed")
        context = {
            "tournament": self.tournament,
            "session": session,
            "table": SessionTablesTable(rows),
            "confirmed": confirmed,
            "total": len(rows),
            "pool": len(draw_pool(session)),
            "removable": [r["number"] for r in rows if r["state_code"] == "none"],
            "draw_form": DrawForm(),
            "table_form": TableForm(session=session),
        }
        return render(request, "desk/session.html", context)


class SeatingPrint(DeskRequired, SessionMixin, View):
    """Seating lists for the wall: by table, and by name ("name → table, wind")."""

    def get(self, request, slug, number):
        seats = list(self.session.seats.select_related("player", "table").order_by("table__number"))
        by_table = {}
        for seat in sorted(seats, key=lambda s: (s.table.number, WINDS.index(s.wind))):
            by_table.setdefault(seat.table.number, {"number": seat.table.number})[seat.wind] = (
                seat.player.name
            )
        by_name = [
            {"name": s.player.name, "table": s.table.number, "wind": Wind(s.wind).label}
            for s in sorted(seats, key=lambda s: s.player.name.casefold())
        ]
        context = {
            "tournament": self.tournament,
            "session": self.session,
            "by_table": SeatingByTableTable(list(by_table.values())),
            "by_name": SeatingByNameTable(by_name),
        }
        return render(request, "desk/seating_print.html", context)


class SessionDraw(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number):
        form = DrawForm(request.POST)
        if form.is_valid():
            try:
                draw_session(self.session, form.cleaned_data["seed"])
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
                add_table(self.session, form.players())
            except ActionRefused as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("Table added."))
        else:
            for field, errors in form.errors.items():
                label = form.fields[field].label if field in form.fields else ""
                messages.error(request, f"{label}: {' '.join(errors)}")
        return redirect("desk:session", slug=slug, number=number)


class TableDelete(DirectorRequired, SessionMixin, View):
    def post(self, request, slug, number, table):
        table = get_object_or_404(Table, session=self.session, number=table)
        try:
            delete_table(table)
        except ActionRefused as e:
            messages.error(request, e.message)
        return redirect("desk:session", slug=slug, number=number)
