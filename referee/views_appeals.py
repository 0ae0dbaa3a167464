"""The appeals log: file, review and decide appeals (002 §2.9); referees and the director."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from core.errors import ActionRefused
from core.roles import RefereeRequired, is_head_referee
from core.views import show_refusal
from referee.appeals import deadline, decide_appeal, file_appeal, review_appeal
from referee.forms import (
    AppealDecisionForm,
    AppealFilterForm,
    AppealForm,
    AppealStepForm,
    penalty_label,
)
from referee.models import Appeal
from referee.tables import AppealHistoryTable, AppealTable
from scoring.selectors import penalties_with_worth
from seating.models import Table
from tournament.mixins import TournamentMixin


class AppealList(RefereeRequired, TournamentMixin, View):
    def get(self, request, slug):
        appeals = Appeal.objects.filter(tournament=self.tournament).select_related(
            "tournament", "session", "table", "appellant"
        )
        filters = AppealFilterForm(request.GET)
        status, session = filters.value("status"), filters.value("session")
        if status:
            appeals = appeals.filter(status=status)
        if session:
            appeals = appeals.filter(session__number=session)
        return render(
            request,
            "referee/appeals.html",
            {
                "tournament": self.tournament,
                "table": AppealTable(appeals),
                "statuses": Appeal.Status.choices,
                "sessions": self.tournament.sessions.order_by("number"),
                "filters": {"status": status, "session": session},
            },
        )


class AppealAdd(RefereeRequired, TournamentMixin, View):
    def get(self, request, slug):
        initial = {}
        current = self.tournament.sessions.order_by("-number").first()
        if current:
            initial["session"] = current.number
        form = AppealForm(tournament=self.tournament, initial=initial)
        return self.page(request, form)

    def page(self, request, form):
        windows = [
            (s, deadline(s))
            for s in self.tournament.sessions.select_related("tournament").order_by("number")
        ]
        return render(
            request,
            "referee/appeal_form.html",
            {"tournament": self.tournament, "form": form, "windows": windows},
        )

    def post(self, request, slug):
        form = AppealForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, form)
        data = form.cleaned_data
        session = self.tournament.sessions.get(number=data["session"])
        table = None
        if data["table"]:
            table = Table.objects.filter(session=session, number=data["table"]).first()
            if table is None:
                form.add_error("table", _("There is no such table in this session."))
                return self.page(request, form)
        filed_at = data["filed_at"]
        try:
            appeal = file_appeal(
                session,
                data["appellant"],
                data["subject"],
                request.user,
                table=table,
                text=data["text"],
                filed_at=filed_at,
                penalty=data["penalty"],
                incident=data["incident"],
                captain=data["captain"],
                deposit=data["deposit"],
                override=data["override"],
            )
        except ActionRefused as e:
            show_refusal(form, e)
            return self.page(request, form)
        messages.success(request, _("Appeal logged."))
        return redirect("referee:appeal", slug=slug, pk=appeal.pk)


class AppealDetail(RefereeRequired, TournamentMixin, View):
    def get(self, request, slug, pk, form=None):
        appeal = get_object_or_404(
            Appeal.objects.select_related("session", "table", "appellant", "penalty", "incident"),
            tournament=self.tournament,
            pk=pk,
        )
        appealed = appeal.penalty and next(  # its worth, minutes and time, as the form named it
            penalty_label(w)
            for w in penalties_with_worth(self.tournament, appeal.penalty.session)
            if w.penalty.pk == appeal.penalty_id
        )
        return render(
            request,
            "referee/appeal.html",
            {
                "tournament": self.tournament,
                "appeal": appeal,
                "appealed": appealed,
                "deadline": deadline(appeal.session),
                "form": form or AppealDecisionForm(),
                "can_decide": is_head_referee(request.user),
                "history": AppealHistoryTable(appeal.history.select_related("history_user")),
            },
        )

    def post(self, request, slug, pk):
        appeal = get_object_or_404(Appeal, tournament=self.tournament, pk=pk)
        try:
            if AppealStepForm(request.POST).review():
                review_appeal(appeal, request.user)
                messages.success(request, _("The appeal is under review."))
            else:
                form = AppealDecisionForm(request.POST)
                if not form.is_valid():
                    return self.get(request, slug, pk, form=form)
                data = form.cleaned_data
                decided = decide_appeal(
                    appeal,
                    request.user,
                    data["status"],
                    data["decided_by"],
                    data["decision"],
                    keep_record=data["keep_record"],
                )
                messages.success(request, _("Decision recorded."))
                if decided.voided is not None:
                    messages.success(
                        request,
                        _("%(record)s is void: the standings no longer count it.")
                        % {"record": decided.voided},
                    )
                elif decided.status == Appeal.Status.UPHELD and (
                    decided.penalty or decided.incident
                ):
                    messages.warning(
                        request,
                        _("The appealed record still stands: change it on the log."),
                    )
        except ActionRefused as e:
            messages.error(request, e.message)
        return redirect("referee:appeal", slug=slug, pk=pk)
