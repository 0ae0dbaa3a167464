"""Result entry and confirmation at the desk, with the table's full version history."""

from django.contrib import messages
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View

from core.errors import ActionRefused, StaleEdit
from core.forms import AskedForm
from core.roles import DeskRequired
from core.views import act, ask_first, show_refusal
from desk.forms_results import ConfirmForm, ResultForm, TableWindsForm
from desk.tables import ResultHistoryTable, ResultTable
from mahjong.table import is_awarded
from mahjong.units import placement_label
from scoring.models import Result
from scoring.selectors import TableState, done, standings_row, table_lines, table_states
from scoring.services import (
    CONFIRMED,
    UNCHANGED,
    confirm_result,
    latest_result,
    save_result,
    seats_in_order,
)
from seating.keys import table_code, table_path
from seating.models import Table, Wind
from seating.selectors import winds_pending
from seating.services import record_table_winds, winds_refused
from tournament.mixins import SessionMixin
from tournament.sessions import end_session, reopen_session


def _stamp(name, when):
    if not when:
        return None
    return f"{name}, {date_format(timezone.localtime(when), 'SHORT_DATETIME_FORMAT')}"


def _history(table):
    rows = []
    results = table.results.select_related("entered_by", "confirmed_by").prefetch_related("scores")
    for r in results.order_by("-version"):
        scores = {s.wind: s for s in r.scores.all()}
        order = [w for w in "ESWN" if w in scores]
        rows.append(
            {
                "version": r.version,
                "status": r.get_status_display(),
                "scores": " / ".join(str(scores[w].score) for w in order),
                "chombo": " / ".join(str(scores[w].chombo) for w in order),
                "entered": _stamp(r.entrant(), r.entered_at),
                "confirmed": _stamp(
                    r.confirmed_by.get_username() if r.confirmed_by else "?", r.confirmed_at
                ),
                "note": r.note,
            }
        )
    return ResultHistoryTable(rows)


def _outcome_table(tournament, session, table, result):
    """The confirmed table as the standings count it (selectors.table_lines): places, uma,
    penalties and results, a substitute marked with whom they replace, and the replaced
    player's own line after the table's."""
    if result is None:
        return None
    rows = []
    replaced = []
    for line in table_lines(tournament, session.number, table.number):
        note = ""
        if line.replaces is not None:
            note = _("substitute for %(name)s") % {"name": line.replaces.name}
            replaced.append((line.replaces, line.player))
        rows.append(_outcome_row(Wind(line.line.wind).label, line.player, line.line, note))
    for player, substitute in replaced:
        for own in standings_row(tournament, player.key).sessions:
            if own.session == session.number and own.replaced:
                note = _("replaced by %(name)s") % {"name": substitute.name}
                rows.append(_outcome_row("–", player, own, note))
    return ResultTable(rows, placement=placement_label(tournament.rule_set()))


def _outcome_row(wind, player, line, note):
    return {
        "wind": wind,
        "name": player.name,
        "note": note,
        "score": line.score,
        "place": line.place,
        "uma": line.uma,
        "penalty": line.penalty,
        "result": line.result,
    }


def _onwards(session, table, unentered=False):
    """After a save: the next table of the session still waiting for its result (after a draft:
    the next with nothing entered yet, the one whose protocol comes next), else the session."""
    states = table_states(session)
    if unentered:
        waiting = [pk for pk, state in states.items() if state == TableState.PLAYING]
    else:
        waiting = [pk for pk, state in states.items() if not done(state)]
    numbers = session.tables.filter(pk__in=waiting).exclude(pk=table.pk)
    after = numbers.filter(number__gt=table.number).order_by("number").first()
    following = after or numbers.order_by("number").first()
    slug, number = session.tournament.slug, session.number
    if following is not None:
        return redirect("desk:result", slug=slug, number=number, table=following.number)
    if unentered:
        return redirect("desk:result", slug=slug, number=number, table=table.number)
    return redirect("desk:session", slug=slug, number=number)


class ResultEntry(DeskRequired, SessionMixin, View):
    def _table(self, number):
        return get_object_or_404(Table, session=self.session, number=number)

    def _render(self, request, table, form=None, status=200, winds_form=None):
        rules = self.tournament.rule_set()
        seats = seats_in_order(table)
        latest = latest_result(table)
        if winds_form is None and winds_pending(table) and winds_refused(table) is None:
            winds_form = TableWindsForm(seats=seats)
        if form is None:
            initial = {"base_version": latest.version if latest else 0}
            if latest:
                for s in latest.scores.all():
                    initial[f"score_{s.wind}"] = s.score
                    initial[f"chombo_{s.wind}"] = s.chombo
            form = ResultForm(initial=initial, seats=seats, riichi=rules.game == "riichi")
        confirmed = (
            table.results.filter(status=Result.Status.CONFIRMED).prefetch_related("scores").first()
        )
        can_confirm = latest is not None and latest.may_confirm(request.user)
        next_table = (
            self.session.tables.filter(number__gt=table.number)
            .order_by("number")
            .values_list("number", flat=True)
            .first()
        )
        context = {
            "tournament": self.tournament,
            "session": self.session,
            "table": table,
            "seats": seats,
            "form": form,
            "latest": latest,
            "can_confirm": can_confirm,
            "awarded": is_awarded(rules, len(seats)),
            "rules": rules,
            "target_sum": rules.start_points * len(seats),
            "history": _history(table),
            "outcome": _outcome_table(self.tournament, self.session, table, confirmed),
            "next_table": next_table,
            "winds_form": winds_form,
            "winds_pending": winds_pending(table),
            "sheet_code": table_code(table),
            "sheet_path": table_path(table),
            "hand_count": table.hands.filter(superseded_at__isnull=True).count(),
        }
        return render(request, "desk/result.html", context, status=status)

    def get(self, request, slug, number, table):
        return self._render(request, self._table(table))

    def post(self, request, slug, number, table):
        table = self._table(table)
        rules = self.tournament.rule_set()
        seats = seats_in_order(table)
        if is_awarded(rules, len(seats)):
            # An awarded table's page has no form to show the refusal on.
            messages.error(request, _("An awarded table has no scores to enter."))
            return self._render(request, table, status=400)
        form = ResultForm(request.POST, seats=seats, riichi=rules.game == "riichi")
        if not form.is_valid():
            return self._render(request, table, form, status=400)
        if form.cleaned_data["base_version"] and latest_result(table) is None:
            # A version the table never had: the service's stale message needs a saved one.
            form.add_error(None, _("This table has no saved result yet — reload the page."))
            return self._render(request, table, form, status=409)
        try:
            result, outcome = save_result(
                table,
                form.entries(),
                request.user,
                form.cleaned_data["base_version"],
                form.cleaned_data["note"],
            )
        except ActionRefused as e:
            form.add_error(None, e.message)
            return self._render(
                request, table, form, status=409 if isinstance(e, StaleEdit) else 400
            )
        if outcome == CONFIRMED:
            messages.success(request, _("Table %(n)d confirmed.") % {"n": table.number})
            return _onwards(self.session, table)
        if outcome == UNCHANGED:
            text = _(
                "Table %(n)d: nothing changed since version %(v)d; a second desk user confirms it."
            ) % {"n": table.number, "v": result.version}
            messages.info(request, text)
            return _onwards(self.session, table, unentered=True)
        if result.version > 1:
            text = _(
                "Table %(n)d: your changes are saved as a draft, version %(v)d; a second desk "
                "user confirms it."
            ) % {"n": table.number, "v": result.version}
        else:
            text = _("Table %(n)d saved as a draft; a second desk user confirms it.") % {
                "n": table.number
            }
        messages.success(request, text)
        return _onwards(self.session, table, unentered=True)


class TableWinds(ResultEntry):
    """The winds drawn at a table (tournaments whose winds are drawn there), recorded from
    the result page before its scores: then the result entry goes on as usual."""

    def get(self, request, slug, number, table):
        return redirect("desk:result", slug=slug, number=number, table=table)

    def post(self, request, slug, number, table):
        table = self._table(table)
        form = TableWindsForm(request.POST, seats=seats_in_order(table))
        if form.is_valid():
            try:
                record_table_winds(table, form.winds(), request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(
                    request, _("Table %(n)d: the winds drawn are recorded.") % {"n": table.number}
                )
                return redirect("desk:result", slug=slug, number=number, table=table.number)
        return self._render(request, table, status=400, winds_form=form)


class ResultConfirm(DeskRequired, SessionMixin, View):
    def post(self, request, slug, number, table):
        table = get_object_or_404(Table, session=self.session, number=table)
        form = ConfirmForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest(_("Version: a whole number is required."))
        result = get_object_or_404(Result, table=table, version=form.cleaned_data["version"])
        try:
            confirm_result(result, request.user)
        except ActionRefused as e:
            messages.error(request, e.message)
            return redirect("desk:result", slug=slug, number=number, table=table.number)
        messages.success(request, _("Table %(n)d confirmed.") % {"n": table.number})
        return _onwards(self.session, table)


class SessionEnd(DeskRequired, SessionMixin, View):
    """Mark the end of play, once asked: the appeal window runs from here."""

    def post(self, request, slug, number):
        here = reverse("desk:session", kwargs={"slug": slug, "number": number})
        if not AskedForm(request.POST).confirmed():
            question = _("Confirm: play has ended in session %(number)s?") % {"number": number}
            return ask_first(request, question, ("next",), here, tournament=self.tournament)
        return act(
            request,
            here,
            lambda: end_session(self.session, request.user),
            lambda _s: _("Session ended; the appeal window is running."),
        )


class SessionReopen(DeskRequired, SessionMixin, View):
    """The Undo of the one who declared play over, a moment after (reopen_session)."""

    def post(self, request, slug, number):
        return act(
            request,
            reverse("desk:session", kwargs={"slug": slug, "number": number}),
            lambda: reopen_session(self.session, request.user),
            lambda _s: _("Undone: play goes on, and no appeal window runs."),
        )
