"""The publishing page: where a tournament (the director's) or a club rating (its officers')
is published, what the server holds, and "Send now"; the standby page (the director's): where
this desk sends everything, or this laptop as the standby; and the standby's /api/standby/."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core import signed
from core.addresses import client_address, hall_address
from core.errors import ActionRefused
from core.roles import ClubRequired, DirectorRequired
from core.views import show_refusal
from desk.club.mixins import ClubMixin
from tournament.mixins import TournamentMixin

from . import standby
from .forms import PublicationForm, StandbyForm, TakeOverForm
from .models import Publication
from .services import send_now, set_publication, set_standby
from .tables import ReceivedTable, StreamTable


class PublishPage(View):
    kind = ""
    base = ""

    def event(self):
        raise NotImplementedError

    def back(self):
        raise NotImplementedError

    def stored(self):
        return Publication.objects.filter(
            target=Publication.Target.FEDERATION, kind=self.kind, slug=self.event().slug
        ).first()

    def render_page(self, request, form, status=200):
        publication = self.stored()
        context = {
            "base": self.base,
            "form": form,
            "publication": publication,
            "kind": self.kind,
            "event": self.event(),
            self.kind if self.kind == "club" else "tournament": self.event(),
            "has_key": bool(publication and publication.key),
        }
        return render(request, "publishing/publish.html", context, status=status)

    def get(self, request, *args, **kwargs):
        publication = self.stored()
        initial = {"url": publication.url, "enabled": publication.enabled} if publication else {}
        return self.render_page(request, PublicationForm(initial=initial))

    def post(self, request, *args, **kwargs):
        slug = self.event().slug
        if "send" in request.POST:
            try:
                send_now(self.kind, slug)
            except ActionRefused as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("The newest public file is on its way."))
            return redirect(request.path)
        form = PublicationForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                set_publication(
                    self.kind, slug, data["url"], data["key"], data["enabled"], request.user
                )
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(
                    request,
                    _("Publishing is on: every change goes to the server.")
                    if data["enabled"]
                    else _("Publishing settings saved; publishing is off."),
                )
                return redirect(request.path)
        return self.render_page(request, form, status=400)


class TournamentPublish(DirectorRequired, TournamentMixin, PublishPage):
    kind = Publication.Kind.TOURNAMENT
    base = "staff.html"

    def event(self):
        return self.tournament


class ClubPublish(ClubRequired, ClubMixin, PublishPage):
    kind = Publication.Kind.CLUB
    base = "desk/club/base.html"

    def event(self):
        return self.club


class StandbyPage(DirectorRequired, View):
    """/desk/standby/: on the main desk, where it sends everything; on a standby, its pairing
    key, what it holds, and "Take over"."""

    def render_page(self, request, form=None, take=None, status=200):
        rows = Publication.objects.filter(target=Publication.Target.STANDBY)
        desk = rows.filter(kind=Publication.Kind.DESK).first()
        waiting = standby.waiting()
        if form is None:
            initial = {"url": desk.url, "enabled": desk.enabled} if desk else {}
            form = StandbyForm(initial=initial)
        context = {
            "form": form,
            "desk": desk,
            "has_key": bool(desk and desk.key),
            "stream": StreamTable(rows.order_by("kind", "slug")) if desk else None,
            "standby": waiting,
            "address": hall_address(request),
            "received": ReceivedTable(standby.received(waiting)) if waiting else None,
            "take": take or TakeOverForm(),
        }
        return render(request, "publishing/standby.html", context, status=status)

    def get(self, request):
        return self.render_page(request)

    def post(self, request):
        action = request.POST.get("action")
        try:
            if action == "make":
                standby.make_standby(request.user)
                messages.success(
                    request, _("This laptop is a standby now: pair it on the main desk.")
                )
            elif action == "stop":
                standby.stop_standby(request.user)
                messages.success(request, _("This laptop is no longer a standby."))
            elif action == "take":
                return self.take_over(request)
            else:
                return self.pair(request)
        except ActionRefused as e:
            messages.error(request, e.message)
        return redirect(request.path)

    def pair(self, request):
        form = StandbyForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                set_standby(data["url"], data["key"], data["enabled"], request.user)
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                messages.success(
                    request,
                    _("Every change now goes to the standby.")
                    if data["enabled"]
                    else _("Standby settings saved; nothing is sent."),
                )
                return redirect(request.path)
        return self.render_page(request, form=form, status=400)

    def take_over(self, request):
        take = TakeOverForm(request.POST)
        if not take.is_valid():
            return self.render_page(request, take=take, status=400)
        done = standby.take_over(request.user)
        # The desk's secret is the main desk's now: this session's cookie no longer holds, so
        # the answer is a page of its own, not a redirect with a message.
        return render(request, "publishing/taken_over.html", {"done": done})


@csrf_exempt
@require_POST
def receive(request):
    """POST /api/standby/: one request of the main desk's stream (publishing.standby)."""
    headers = request.headers
    answer = standby.receive(
        key_id=headers.get(signed.KEY),
        kind=headers.get(signed.KIND),
        slug=headers.get(signed.SLUG),
        revision=headers.get(signed.REVISION),
        signature=headers.get(signed.SIGNATURE),
        changed_at=headers.get(signed.CHANGED_AT),
        body=request.body,
        sender=client_address(request) or "",
    )
    return JsonResponse(answer.body, status=answer.status)
