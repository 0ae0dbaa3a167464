from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Player

from .models import Wind


class TableForm(forms.Form):
    """Players by wind. Only East is required here: the service checks the table's size."""

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        seated = session.seats.values_list("player_id", flat=True)
        players = (
            session.tournament.players.exclude(pk__in=seated)
            .exclude(status__in=[Player.Status.EXCLUDED, Player.Status.DISQUALIFIED])
            .order_by("substitute", "name")
        )
        for wind in Wind:
            self.fields[wind.value] = forms.ModelChoiceField(
                queryset=players, label=wind.label, required=wind == Wind.EAST
            )

    def players(self):
        return [self.cleaned_data.get(w.value) for w in Wind]


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("seed"),
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=_("Leave empty for a fresh random draw; give a stored seed to repeat one."),
    )
