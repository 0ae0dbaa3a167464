"""The publishing page: where a tournament (the director's) or a club rating (its officers')
is published, what the server holds, and "Send now"."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from core.errors import ActionRefused
from core.roles import ClubRequired, DirectorRequired
from core.views import show_refusal
from desk.club.mixins import ClubMixin
from tournament.mixins import TournamentMixin

from .forms import PublicationForm
from .models import Publication
from .services import send_now, set_publication


class PublishPage(View):
    kind = ""
    base = ""

    def event(self):
        raise NotImplementedError

    def back(self):
        raise NotImplementedError

    def stored(self):
        return Publication.objects.filter(kind=self.kind, slug=self.event().slug).first()

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
