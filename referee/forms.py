"""The referee's forms: what the table page's actions send, appeals and their decisions.

The action forms only parse types; the services and the rule set decide what is allowed and
say why not (a kind the rule set lacks, an amount outside its range, a blank reason).
"""

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from core.forms import CollatedChoiceField, SearchForm, model_field
from mahjong.penalties import LATE, MISCONDUCT, OTHER
from referee.models import Appeal, Incident
from scoring.models import Penalty
from scoring.selectors import penalties_with_worth
from seating.models import Seat
from tournament.models import Player, Record

AMOUNT = Penalty._meta.get_field("amount")


class AmountField(forms.DecimalField):
    """A penalty amount as a phone types it: a typographic minus and spaces are fine."""

    def __init__(self, **kwargs):
        super().__init__(
            max_digits=AMOUNT.max_digits, decimal_places=AMOUNT.decimal_places, **kwargs
        )

    def to_python(self, value):
        if isinstance(value, str):
            value = value.replace("\u2212", "-").replace(" ", "")
        return super().to_python(value)

    def clean(self, value):
        amount = super().clean(value)
        # The rule math and the messages say -8000, not -8000.00.
        if amount is not None and amount == amount.to_integral_value():
            return int(amount)
        return amount


def _players(tournament):
    return forms.ModelChoiceField(
        label=_("player"), queryset=tournament.players.all(), widget=forms.HiddenInput
    )


class FindForm(SearchForm):
    """The referee's home and log filters (a GET): a number that does not parse is no filter;
    `q` finds a name as people type it (SearchForm.needle)."""

    session = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    kind = forms.CharField(required=False)
    void = forms.TypedChoiceField(
        choices=[("1", "1")], coerce=lambda value: value == "1", required=False, empty_value=False
    )

    def value(self, name):
        """The field's value, or its empty value when it does not parse."""
        self.is_valid()
        if name in self.cleaned_data:
            return self.cleaned_data[name]
        return self.fields[name].empty_value if name == "void" else None


class AppealFilterForm(forms.Form):
    """The appeals list's filters (a GET): a value that does not parse is no filter."""

    status = forms.ChoiceField(required=False, choices=[("", ""), *Appeal.Status.choices])
    session = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)

    def value(self, name):
        self.is_valid()
        return self.cleaned_data.get(name) or None


class PenaltyForm(forms.Form):
    """One penalty from the table page: the kind's own number (minutes late, an amount)."""

    kind = forms.ChoiceField(
        label=_("kind"),
        choices=Penalty.Kind.choices,
        error_messages={
            key: _("Choose what kind of penalty this is.") for key in ("required", "invalid_choice")
        },
    )
    minutes = model_field(Penalty, "minutes", label=_("minutes late"), required=False)
    amount = AmountField(label=_("amount"), required=False)
    stage = forms.ChoiceField(
        label=_("counts"),
        required=False,
        choices=Penalty.Stage.choices,
        error_messages={"invalid_choice": _("Choose before or after placement.")},
    )
    note = model_field(Penalty, "note", label=_("note"), required=False)
    # Off: the tap only asks to confirm (a page that posts the same fields with it on).
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"] = _players(tournament)

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == LATE and data.get("minutes") is None and "minutes" not in self.errors:
            self.add_error("minutes", self.fields["minutes"].error_messages["required"])
        # Only these kinds carry a number of their own; a stray one is not recorded.
        if kind != LATE:
            data["minutes"] = None
        if kind not in (MISCONDUCT, OTHER):
            data["amount"] = None
        return data


class SubstituteForm(forms.Form):
    substitute = forms.ModelChoiceField(
        label=_("substitute"),
        queryset=Player.objects.none(),
        error_messages={
            key: _("Choose a substitute from the pool.") for key in ("required", "invalid_choice")
        },
    )
    joined = forms.ChoiceField(
        label=_("joined"),
        required=False,
        choices=Seat.Joined.choices,
        error_messages={"invalid_choice": _("Say whether the substitute plays from the start.")},
    )
    note = model_field(Incident, "text", label=_("note"), required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"] = _players(tournament)
        # Any player of the tournament: the service says why one is not a substitute.
        self.fields["substitute"].queryset = tournament.players.all()

    def clean_joined(self):
        return self.cleaned_data["joined"] or Seat.Joined.START


class ThreeHandedForm(forms.Form):
    note = model_field(Incident, "text", label=_("note"), required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"] = _players(tournament)


class IncidentForm(forms.Form):
    """A note on what happened, about a player or a table of the session, or neither."""

    text = model_field(Incident, "text", label=_("what happened"), required=False)

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.ModelChoiceField(
            label=_("player"), queryset=session.tournament.players.all(), required=False
        )
        self.fields["table"] = forms.ModelChoiceField(
            label=_("table"), queryset=session.tables.all(), to_field_name="number", required=False
        )


class DisqualifyForm(forms.Form):
    text = model_field(Incident, "text", label=_("reason"), required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"] = forms.ModelChoiceField(
            label=_("session"),
            queryset=tournament.sessions.all(),
            to_field_name="number",
            required=False,
        )


class VoidForm(forms.Form):
    """The director's reason for voiding a record; the service refuses a blank one."""

    reason = model_field(Record, "void_reason", label=_("reason for voiding"), required=False)


def penalty_label(w) -> str:
    """A penalty as a list names it: session and player, then what every log says of it
    (PenaltyWorth.summary: kind, minutes, worth), and when it was recorded (two minor
    violations of one player differ by the worth and the time)."""
    penalty = w.penalty
    when = date_format(timezone.localtime(penalty.recorded_at), "SHORT_DATETIME_FORMAT")
    return f"{penalty.session} {penalty.player}: {w.summary} · {when}"


class AppealForm(forms.Form):
    """Filing an appeal (002 §2.9.2). The service checks the window and the deposit."""

    session = forms.TypedChoiceField(label=_("Session"), coerce=int)
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1)
    appellant = CollatedChoiceField(Player.objects.none(), language="", label=_("Appellant"))
    captain = forms.BooleanField(label=_("Filed by the team captain"), required=False)
    penalty = forms.ModelChoiceField(
        label=_("Penalty appealed"), queryset=Player.objects.none(), required=False
    )
    incident = forms.ModelChoiceField(
        label=_("Incident appealed"), queryset=Player.objects.none(), required=False
    )
    subject = model_field(Appeal, "subject", label=_("Decision appealed"))
    text = model_field(
        Appeal,
        "text",
        label=_("Appeal text"),
        required=True,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    filed_at = model_field(
        Appeal,
        "filed_at",
        label=_("Filed at"),
        required=False,
        help_text=_("Leave empty for now."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    # The column's own digits (Appeal.deposit): what the page takes, the database holds.
    deposit = model_field(Appeal, "deposit", label=_("Deposit"), min_value=0, required=False)
    override = model_field(
        Appeal,
        "late_override",
        label=_("Accept after the window, because"),
        required=False,
        help_text=_("Head referee only, and only when the window has closed."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].choices = [
            (s.number, str(s)) for s in tournament.sessions.order_by("number")
        ]
        self.fields["appellant"].queryset = tournament.players.all()
        self.fields["appellant"].language = tournament.language
        self.fields["penalty"].queryset = Penalty.objects.filter(
            session__tournament=tournament, voided_at=None
        ).select_related("player", "session")
        labels = {w.penalty.pk: penalty_label(w) for w in penalties_with_worth(tournament)}
        self.fields["penalty"].label_from_instance = lambda p: labels.get(p.pk, str(p))
        self.fields["incident"].queryset = tournament.incidents.filter(voided_at=None)
        self.fields["deposit"].initial = tournament.appeal_deposit


class AppealStepForm(forms.Form):
    """Which of the appeal page's buttons was pressed: take it under review, or decide it."""

    action = forms.CharField(required=False)

    def review(self) -> bool:
        return self.is_valid() and self.cleaned_data["action"] == "review"


class AppealDecisionForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Decision"),
        choices=[("upheld", _("upheld")), ("rejected", _("rejected"))],
    )
    decided_by = forms.ChoiceField(label=_("Decided by"), choices=())
    keep_record = forms.BooleanField(
        label=_("Keep the appealed penalty or incident"),
        required=False,
        help_text=_(
            "Upheld, the appealed record is voided with the decision as the reason. Tick this "
            "for a partial decision, and change the record by hand."
        ),
    )
    decision = model_field(
        Appeal,
        "decision",
        label=_("Decision text"),
        required=True,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["decided_by"].choices = Appeal.Body.choices
