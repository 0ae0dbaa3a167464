"""A paper protocol's hands typed at the desk (issue 24, "From hands to the desk"): the table's
hands as text in the notation (mahjong.hands.notation), checked hand by hand with each seat's
change and running total, then saved; their scores become the table's draft result, which a
second desk user confirms on the result page as any other. Once the table's result is
confirmed, the director alone corrects its hands here, with a reason: the hands and a new,
confirmed version of the result together (issue 34, scoring.services.correct_confirmed_hands)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from core.errors import ActionRefused, StaleEdit
from core.forms import ButtonsForm
from core.roles import DeskRequired, is_director
from desk.forms_hands import HandsForm
from desk.tables_hands import hands_check_table
from mahjong.hands.notation import EXAMPLES, write_all
from mahjong.table import is_awarded
from scoring.models import Result
from scoring.selectors import table_hands
from scoring.services import correct_confirmed_hands, save_typed_hands, seats_in_order
from seating.models import Table
from tournament.mixins import SessionMixin


class HandsEntry(DeskRequired, SessionMixin, View):
    def _render(self, request, table, form, status=200):
        rules = self.tournament.rule_set()
        seats = seats_in_order(table)
        check = None
        if form.is_bound and form.is_valid():
            check = hands_check_table(form.lines, form.outcome, seats)
        context = {
            "tournament": self.tournament,
            "session": self.session,
            "table": table,
            "seats": seats,
            "rules": rules,
            "examples": EXAMPLES[rules.game],
            "form": form,
            "check": check,
            "outcome": form.outcome if check is not None else None,
            "awarded": is_awarded(rules, len(seats)),
            "confirmed": table.results.filter(status=Result.Status.CONFIRMED).exists(),
            "director": is_director(request.user),
            "hand_count": table.hands.filter(superseded_at__isnull=True).count(),
        }
        return render(request, "desk/hands.html", context, status=status)

    def _form(self, table, data=None):
        rules = self.tournament.rule_set()
        winds = [s.wind for s in table.seats.all()]
        winds = [w for w in "ESWN" if w in winds]
        if data is not None:
            return HandsForm(data, rules=rules, winds=winds)
        current = table_hands(table)
        initial = {
            # A line break after the last hand: the caret waits on the line of the next one.
            "text": write_all([h.data for h in current]) + ("\n" if current else ""),
            "seen": ",".join(str(h.pk) for h in current),
        }
        return HandsForm(initial=initial, rules=rules, winds=winds)

    def get(self, request, slug, number, table):
        table = get_object_or_404(Table, session=self.session, number=table)
        return self._render(request, table, self._form(table))

    def post(self, request, slug, number, table):
        table = get_object_or_404(Table, session=self.session, number=table)
        form = self._form(table, request.POST)
        if not form.is_valid():
            return self._render(request, table, form, status=400)
        if not ButtonsForm(request.POST, "save").pressed("save"):
            return self._render(request, table, form)
        if table.results.filter(status=Result.Status.CONFIRMED).exists():
            return self._correct(request, table, form)
        try:
            result, changed = save_typed_hands(
                table,
                form.hands(),
                request.user,
                form.cleaned_data["reason"],
                form.seen_ids(),
            )
        except ActionRefused as e:
            return self._refused(request, table, form, e)
        text = ngettext(
            "Table %(n)d: %(count)d hand saved; its scores are the draft result, version "
            "%(v)d, which a second desk user confirms.",
            "Table %(n)d: %(count)d hands saved; their scores are the draft result, version "
            "%(v)d, which a second desk user confirms.",
            len(form.lines),
        ) % {"n": table.number, "count": len(form.lines), "v": result.version}
        if not changed:
            text = _(
                "Table %(n)d: the hands were already these; the draft result is version %(v)d."
            ) % {
                "n": table.number,
                "v": result.version,
            }
        messages.success(request, text)
        return redirect("desk:result", slug=slug, number=number, table=table.number)

    def _refused(self, request, table, form, e, status=None):
        form.add_error("reason" if e.field == "reason" else None, e.message)
        status = status or (409 if isinstance(e, StaleEdit) else 400)
        return self._render(request, table, form, status=status)

    def _correct(self, request, table, form):
        """A confirmed table: its hands and a new confirmed version of its result, together,
        by the director with a reason (the service refuses anyone else too)."""
        try:
            if not is_director(request.user):
                raise ActionRefused(
                    _("Only the director corrects the hands of a table whose result is confirmed.")
                )
            result, _changed = correct_confirmed_hands(
                table,
                form.hands(),
                request.user,
                form.cleaned_data["reason"],
                form.seen_ids(),
            )
        except ActionRefused as e:
            return self._refused(
                request, table, form, e, status=None if is_director(request.user) else 403
            )
        messages.success(
            request,
            _(
                "Table %(n)d corrected: its hands and its result, version %(v)d, confirmed by "
                "you. The earlier versions stay in the history."
            )
            % {"n": table.number, "v": result.version},
        )
        return redirect(
            "desk:result", slug=self.tournament.slug, number=self.session.number, table=table.number
        )
