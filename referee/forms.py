"""The referee's forms: appeals and their decisions."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import Penalty
from tournament.models import Appeal, Player


class AppealForm(forms.Form):
    """Filing an appeal (002 §2.9.2). The service checks the window and the deposit."""

    session = forms.TypedChoiceField(label=_("Session"), coerce=int)
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1)
    appellant = forms.ModelChoiceField(label=_("Appellant"), queryset=Player.objects.none())
    captain = forms.BooleanField(label=_("Filed by the team captain"), required=False)
    penalty = forms.ModelChoiceField(
        label=_("Penalty appealed"), queryset=Player.objects.none(), required=False
    )
    incident = forms.ModelChoiceField(
        label=_("Incident appealed"), queryset=Player.objects.none(), required=False
    )
    subject = forms.CharField(label=_("Decision appealed"), max_length=300)
    text = forms.CharField(label=_("Appeal text"), widget=forms.Textarea(attrs={"rows": 4}))
    filed_at = forms.DateTimeField(
        label=_("Filed at"),
        required=False,
        help_text=_("Leave empty for now."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    deposit = forms.DecimalField(label=_("Deposit"), min_value=0, required=False)
    override = forms.CharField(
        label=_("Accept after the window, because"),
        required=False,
        max_length=300,
        help_text=_("Head referee only, and only when the window has closed."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].choices = [
            (s.number, str(s)) for s in tournament.sessions.order_by("number")
        ]
        self.fields["appellant"].queryset = tournament.players.all()
        self.fields["penalty"].queryset = Penalty.objects.filter(
            session__tournament=tournament, voided_at=None
        ).select_related("player", "session")
        self.fields["incident"].queryset = tournament.incidents.filter(voided_at=None)
        self.fields["deposit"].initial = tournament.appeal_deposit


class AppealDecisionForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Decision"),
        choices=[("upheld", _("upheld")), ("rejected", _("rejected"))],
    )
    decided_by = forms.ChoiceField(label=_("Decided by"), choices=())
    decision = forms.CharField(label=_("Decision text"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["decided_by"].choices = Appeal.Body.choices
