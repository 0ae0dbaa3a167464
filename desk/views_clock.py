"""The session clock at the desk: its controls and the table board (the projector page and the
JSON status the phones poll are the visitors', in public/views_clock.py)."""

from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django_tables2 import RequestConfig

from core.collation import collated
from core.errors import ActionRefused
from core.roles import (
    DeskRequired,
    DirectorRequired,
    TournamentStaffRequired,
    is_desk,
    is_director,
)
from core.tables import isolated_names, isolated_seats
from core.views import first_error, show_refusal
from desk.forms_clock import ClockForm
from desk.tables import ClockEventTable, TableBoardTable
from mahjong import clock
from scoring.selectors import TableState, session_sheets, table_states
from seating.models import WINDS, Seat, Wind
from seating.selectors import pending_tables
from tournament import timekeeping as tk
from tournament.mixins import SessionMixin
from tournament.models import ClockEvent, Session
from tournament.sessions import can_reopen, start_clock


def _minutes(seconds: int) -> str:
    minutes = seconds / 60
    text = f"{minutes:+g}".replace("-", "\u2212")
    return _("%(minutes)s min") % {"minutes": text}


def _sheet_cells(sheet, seats) -> dict:
    """The board's view of a table's score sheet: its scores by seat, how many hands (and how
    many wait for a player's confirmation), and whether it is on its last hand."""
    if sheet is None:
        return {"hands": "", "scores": ""}
    notes = [ngettext("%(n)d hand", "%(n)d hands", sheet.hands) % {"n": sheet.hands}]
    if sheet.pending:
        notes.append(_("%(n)d unconfirmed") % {"n": sheet.pending})
    if sheet.over:
        notes.append(_("game over"))
    elif sheet.last_hand and sheet.hands + 1 == sheet.last_hand:
        notes.append(_("on its last hand"))
    elif sheet.last_hand and sheet.hands + 1 > sheet.last_hand:
        notes.append(_("past its last hand"))
    if sheet.problem:
        notes.append(sheet.problem)
    scores = isolated_seats(
        (Wind(s.wind).label, number_format(sheet.scores[s.wind], force_grouping=True))
        for s in seats
        if s.wind in sheet.scores
    )
    return {"hands": " · ".join(notes), "scores": scores}


def _players(seats, pending: bool, language: str):
    """The board's players of a table: by wind, or, while its winds are still to be drawn at the
    table, by name with no wind and a note that they are not drawn yet (issue 37: the desk's
    seat order is no wind)."""
    if not pending:
        return isolated_seats((Wind(s.wind).label, s.player.name) for s in seats)
    names = isolated_names(collated((s.player.name for s in seats), language))
    return format_html('{}<br><small class="pending">{}</small>', names, _("winds not drawn yet"))


def board(session: Session, now=None):
    """Each table of the session with its state and time, and the counts by state."""
    now = now or timezone.now()
    rules = session.tournament.rule_set()
    events = tk.events_of(session)
    length, warning = session.clock_seconds(rules)
    state = tk.as_shown(clock.state_at(length, warning, events, now), session.ended_at)
    extra = clock.extra_time(events)
    counting = state.state in (clock.RUNNING, clock.WARNING, clock.TIME_UP, clock.PAUSED)
    states = table_states(session)
    sheets = session_sheets(
        session,
        {
            "session": session.number,
            "remaining": state.remaining,
            "warning_at": state.warning_at,
            "server_time": now.timestamp() * 1000,
        },
    )
    tables = session.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    rows, counts = [], dict.fromkeys(TableState, 0)
    pending = pending_tables(session.tournament)
    language = session.tournament.language
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: WINDS.index(s.wind))
        code = states[table.pk]
        counts[code] += 1
        left = state.remaining + extra.get(table.number, 0)
        overtime = code == "playing" and counting and left <= 0
        rows.append(
            {
                "number": table.number,
                "url": reverse(
                    "desk:result", args=[session.tournament.slug, session.number, table.number]
                ),
                "players": _players(seats, table.pk in pending, language),
                # in words too, not only by the row's red
                "state": _("playing past time up") if overtime else code.label,
                "state_code": code.value,
                "extra": _minutes(extra[table.number]) if table.number in extra else "",
                "extra_seconds": extra.get(table.number, 0),
                "left": clock.mmss(left) if counting and code == "playing" else "",
                "overtime": overtime,
                **_sheet_cells(sheets.get(table.number), seats),
            }
        )
    return rows, counts, state


class ClockDesk(TournamentStaffRequired, SessionMixin, View):
    """The clock's controls (director and desk) and the table board (also for referees)."""

    def get(self, request, slug, number):
        session = self.session
        rows, counts, state = board(session)
        events = [
            {
                "at": e.at,
                "kind": e.get_kind_display(),
                "change": _minutes(e.seconds) if e.kind == clock.ADJUST else "",
                "table": e.table,
                "by": e.by.get_username() if e.by else "",
            }
            for e in ClockEvent.objects.filter(session=session)
            .select_related("by")
            .order_by("-at", "-id")
        ]
        history = ClockEventTable(events)
        RequestConfig(request, paginate={"per_page": 50}).configure(history)
        length, warning = session.clock_seconds()
        context = {
            "tournament": self.tournament,
            "session": session,
            "state": state,
            "state_label": tk.STATE_LABELS[state.state],
            "remaining": clock.mmss(state.remaining),
            "board": TableBoardTable(rows),
            "counts": [(code.value, code.label, n) for code, n in counts.items() if n],
            "overtime": sum(1 for r in rows if r["overtime"]),
            "history": history,
            "length_minutes": length // 60,
            "warning_minutes": warning // 60,
            "own_length": session.length_seconds is not None,
            "can_control": is_desk(request.user),
            "can_reset": is_director(request.user),
            "can_reopen": is_desk(request.user) and can_reopen(session, request.user),
            "status_url": reverse("public:clock_json", args=[slug]) + f"?session={number}",
            "projector_url": reverse("public:clock", args=[slug]),
            "table_numbers": [r["number"] for r in rows],
        }
        template = "desk/_clock_board.html" if request.GET.get("partial") else "desk/clock.html"
        return render(request, template, context)


class ClockControl(DeskRequired, SessionMixin, View):
    """Start, pause, resume, add or remove minutes, or set the planned length: one POST each."""

    def post(self, request, slug, number):
        session, user = self.session, request.user
        form = ClockForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                done = self.run(session, user, data["action"], data)
            except ActionRefused as e:
                show_refusal(form, e)
        if form.errors:
            messages.error(request, first_error(form))
        else:
            messages.success(request, done)
        return redirect("desk:clock", slug=slug, number=number)

    @staticmethod
    def run(session, user, action, data) -> str:
        if action == "start":
            start_clock(session, user)
            return _("The clock is running.")
        if action == "pause":
            tk.pause_clock(session, user)
            return _("The clock is paused.")
        if action == "resume":
            tk.resume_clock(session, user)
            return _("The clock is running again.")
        if action == "adjust":
            table, minutes = data["table"], data["minutes"]
            tk.adjust_clock(session, user, minutes, table)
            change = _minutes(round(minutes * 60))
            if table is not None:
                return _("Table %(table)s: %(change)s.") % {"table": table, "change": change}
            return _("All tables: %(change)s.") % {"change": change}
        tk.set_clock_length(session, user, data["minutes"], data["warning_minutes"])
        return _("Session length saved.")


class ClockReset(DirectorRequired, SessionMixin, View):
    """Back to waiting after a false start (the director only); kept in the history."""

    def post(self, request, slug, number):
        try:
            tk.reset_clock(self.session, request.user)
        except ActionRefused as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("The clock is back to waiting."))
        return redirect("desk:clock", slug=slug, number=number)
