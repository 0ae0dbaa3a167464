"""The views' tournament and session, looked up once from the address (every audience)."""

from django.shortcuts import get_object_or_404

from tournament.models import Session, Tournament


class TournamentMixin:
    def dispatch(self, request, *args, **kwargs):
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)


class SessionMixin(TournamentMixin):
    def dispatch(self, request, *args, **kwargs):
        self.session = get_object_or_404(
            Session.objects.select_related("tournament"),
            tournament__slug=kwargs["slug"],
            number=kwargs["number"],
        )
        return super().dispatch(request, *args, **kwargs)
