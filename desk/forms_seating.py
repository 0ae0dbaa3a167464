from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import CollatedChoiceField, model_field
from seating.models import SeatingChange, Wind
from seating.services import taken
from tournament.models import SESSIONS_MAX, Player


class TableForm(forms.Form):
    """Players by wind. Only East is required here: the service checks the table's size."""

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        players = session.tournament.players.exclude(pk__in=taken(session)).exclude(
            status__in=[Player.Status.EXCLUDED, Player.Status.DISQUALIFIED]
        )
        for wind in Wind:
            self.fields[wind.value] = CollatedChoiceField(
                players,
                language=session.tournament.language,
                first=lambda player: player.substitute,
                label=wind.label,
                required=wind == Wind.EAST,
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


KEEP_APART = [
    ("", _("nobody")),
    ("club", _("club")),
    ("country", _("country")),
    ("team", _("team")),
]


class SwissForm(forms.Form):
    seed = forms.IntegerField(label=_("seed"), required=False, min_value=0, max_value=2**63 - 1)


class PlanForm(forms.Form):
    first = forms.IntegerField(label=_("first session"), min_value=1, max_value=SESSIONS_MAX)
    last = forms.IntegerField(label=_("last session"), min_value=1, max_value=SESSIONS_MAX)
    keep_apart = forms.ChoiceField(label=_("keep apart"), choices=KEEP_APART, required=False)
    seed = forms.IntegerField(
        label=_("seed"),
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=_("Leave empty for a fresh plan; the same seed gives the same plan."),
    )

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("last") and data["last"] < data["first"]:
            self.add_error("last", _("The last session comes after the first."))
        return data


class SeatChangeForm(forms.Form):
    """Swap two players, or move one to an empty seat (table + wind)."""

    a = forms.CharField(label=_("player"))
    b = forms.CharField(label=_("swap with"), required=False)
    table = forms.IntegerField(label=_("or move to table"), required=False, min_value=1)
    wind = forms.ChoiceField(label=_("wind"), choices=[("", "—"), *Wind.choices], required=False)
    override = forms.BooleanField(
        label=_("this session has results: change it anyway"), required=False
    )
    reason = model_field(SeatingChange, "reason", label=_("reason"), required=False)

    def clean(self):
        data = super().clean()
        if not data.get("b") and not (data.get("table") and data.get("wind")):
            raise forms.ValidationError(
                _("Choose a player to swap with, or a table and wind to move to.")
            )
        return data
