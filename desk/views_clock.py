"""The session clock: the desk's controls and table board, the projector page, the JSON status."""

from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django_tables2 import RequestConfig

from core.errors import ActionRefused
from core.roles import DeskRequired, DirectorRequired, StaffRequired, is_desk, is_director
from desk.tables import ClockEventTable, TableBoardTable
from desk.views_seating import SessionMixin
from scoring.selectors import TableState, table_states
from seating.models import WINDS, Seat, Wind
from tournament import clock
from tournament import timekeeping as tk
from tournament.models import ClockEvent, Session


def _minutes(seconds: int) -> str:
    minutes = seconds / 60
    text = f"{minutes:+g}".replace("-", "\u2212")
    return _("%(minutes)s min") % {"minutes": text}


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
    tables = session.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    rows, counts = [], dict.fromkeys(TableState, 0)
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: WINDS.index(s.wind))
        code = states[table.pk]
        counts[code] += 1
        left = state.remaining + extra.get(table.number, 0)
        rows.append(
            {
                "number": table.number,
                "url": reverse(
                    "desk:result", args=[session.tournament.slug, session.number, table.number]
                ),
                "players": ", ".join(f"{Wind(s.wind).label}: {s.player.name}" for s in seats),
                "state": code.label,
                "state_code": code.value,
                "extra": _minutes(extra[table.number]) if table.number in extra else "",
                "extra_seconds": extra.get(table.number, 0),
                "left": clock.mmss(left) if counting and code == "playing" else "",
                "overtime": code == "playing" and counting and left <= 0,
            }
        )
    return rows, counts, state


class ClockDesk(StaffRequired, SessionMixin, View):
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
            "status_url": reverse("public:clock_json", args=[slug]) + f"?session={number}",
            "projector_url": reverse("public:clock", args=[slug]),
            "table_numbers": [r["number"] for r in rows],
        }
        template = "desk/_clock_board.html" if request.GET.get("partial") else "desk/clock.html"
        return render(request, template, context)


def _number(value, field):
    if value in (None, ""):
        return None
    try:
        return float(str(value).replace(",", ".").replace("\u2212", "-"))
    except ValueError:
        raise ActionRefused(_("Enter a number."), field) from None


class ClockControl(DeskRequired, SessionMixin, View):
    """Start, pause, resume, add or remove minutes, or set the planned length: one POST each."""

    def post(self, request, slug, number):
        session, user, post = self.session, request.user, request.POST
        action = post.get("action", "")
        try:
            if action == "start":
                tk.start_clock(session, user)
                done = _("The clock is running.")
            elif action == "pause":
                tk.pause_clock(session, user)
                done = _("The clock is paused.")
            elif action == "resume":
                tk.resume_clock(session, user)
                done = _("The clock is running again.")
            elif action == "adjust":
                table = _number(post.get("table"), "table")
                minutes = _number(post.get("minutes"), "minutes")
                if minutes is None:
                    raise ActionRefused(_("Enter the minutes to add or remove."), "minutes")
                if table is not None and not table.is_integer():
                    raise ActionRefused(_("Enter a table number."), "table")
                tk.adjust_clock(session, user, minutes, int(table) if table is not None else None)
                done = (
                    _("Table %(table)s: %(change)s.")
                    % {"table": int(table), "change": _minutes(round(minutes * 60))}
                    if table is not None
                    else _("All tables: %(change)s.") % {"change": _minutes(round(minutes * 60))}
                )
            elif action == "length":
                minutes = _number(post.get("minutes"), "minutes")
                warning = _number(post.get("warning_minutes"), "warning_minutes")
                for value, field in ((minutes, "minutes"), (warning, "warning_minutes")):
                    if value is None or not value.is_integer():
                        raise ActionRefused(_("Enter whole minutes."), field)
                tk.set_clock_length(session, user, int(minutes), int(warning))
                done = _("Session length saved.")
            else:
                raise ActionRefused(_("Unknown clock action."), "action")
        except ActionRefused as e:
            field = {
                "minutes": _("minutes"),
                "warning_minutes": _("warning"),
                "table": _("table"),
                "action": _("action"),
            }.get(e.field)
            messages.error(request, f"{field}: {e.message}" if field else e.message)
        else:
            messages.success(request, done)
        return redirect("desk:clock", slug=slug, number=number)


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


# --- public ----------------------------------------------------------------------------------
