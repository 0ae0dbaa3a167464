"""Forms of the desk. Every label and message is marked for translation."""

from django import forms
from django.utils.translation import get_language, get_supported_language_variant
from django.utils.translation import gettext_lazy as _

from scoring.rules import PRESETS, RULE_FIELDS, RuleSet

from .models import Player, Tournament


def get_language_code() -> str:
    """The active language as one of settings.LANGUAGES (a new tournament prints in it)."""
    return get_supported_language_variant(get_language() or "en")


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "start_date",
            "end_date",
            "venue",
            "ruleset",
            "planned_sessions",
            "fee",
            "scope",
            "keep_apart",
            "single_confirmation",
            "language",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "Part of the public address; made from the name if empty."
        )
        if self.instance.pk:
            # The rule set is changed on the rules page, where the freeze is enforced.
            del self.fields["ruleset"]
        else:
            self.fields["language"].initial = get_language_code()

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return data


def _text(value) -> str:
    if isinstance(value, tuple):
        return ", ".join(
            ":".join(str(x) for x in v) if isinstance(v, tuple) else str(v) for v in value
        )
    return str(value)


def _parse_tuple(text: str, example: tuple):
    parts = [p.strip() for p in text.split(",") if p.strip()]
    nested = bool(example) and isinstance(example[0], tuple)
    try:
        if nested:
            return tuple(tuple(_number(x) for x in p.split(":")) for p in parts)
        return tuple(_number(p) for p in parts)
    except ValueError as e:
        raise forms.ValidationError(_("Write numbers separated by commas.")) from e


def _number(text: str):
    text = text.strip()
    return float(text) if "." in text else int(text)


def _shown_rules():
    """The rule fields the rules page shows, in the rule set's order."""
    return [rule for rule in RULE_FIELDS.values() if rule.label is not None]


class RulesForm(forms.Form):
    """Every field of the rule set, prefilled with the tournament's current values."""

    ruleset = forms.ChoiceField(
        label=_("preset"), choices=[(k, _(r.name)) for k, r in PRESETS.items()]
    )
    reason = forms.CharField(
        label=_("reason for the change"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Required once results are confirmed: the change is recorded and every result "
            "recomputed."
        ),
    )

    def __init__(self, *args, rules: RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["ruleset"].initial = rules.key
        for rule in _shown_rules():
            value = getattr(rules, rule.name)
            label = _(rule.label)
            if rule.choices:
                choices = [(choice, _(text)) for choice, text in rule.choices]
                field = forms.ChoiceField(
                    label=label, choices=choices, initial=value, required=False
                )
            elif isinstance(value, bool):
                field = forms.BooleanField(label=label, required=False, initial=value)
            elif isinstance(value, int):
                field = forms.IntegerField(label=label, initial=value, required=False)
            elif isinstance(value, float):
                field = forms.FloatField(label=label, initial=value, required=False)
            else:
                field = forms.CharField(label=label, initial=_text(value), required=False)
            self.fields[f"rule_{rule.name}"] = field

    def overrides(self) -> dict:
        """The submitted values by rule field name (the service stores only the differences)."""
        values = {}
        preset = PRESETS[self.cleaned_data["ruleset"]]
        for rule in _shown_rules():
            name = f"rule_{rule.name}"
            if name not in self.cleaned_data:
                continue
            value = self.cleaned_data[name]
            example = getattr(preset, rule.name)
            if value is None or (value == "" and not isinstance(example, tuple)):
                continue  # left empty: the preset's value
            if isinstance(example, tuple):
                value = _parse_tuple(value or "", example)
            values[rule.name] = value
        return values

    def clean(self):
        data = super().clean()
        if "ruleset" in data and data["ruleset"] != self.rules.key:
            # Switching presets starts from the new preset as it is.
            self.switch_preset = True
        else:
            self.switch_preset = False
            for rule in _shown_rules():
                name = f"rule_{rule.name}"
                example = getattr(self.rules, rule.name)
                if name in data and isinstance(example, tuple):
                    try:
                        _parse_tuple(data[name] or "", example)
                    except forms.ValidationError as e:
                        self.add_error(name, e)
        return data


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "ema_id", "country", "club", "team", "substitute", "status", "checked_in"]

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if tournament is not None:
            self.instance.tournament = tournament

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        clash = Player.objects.filter(tournament=self.tournament, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("A player of this name is already registered."))
        return name

    def clean_ema_id(self):
        ema = self.cleaned_data["ema_id"].strip()
        if ema:
            clash = Player.objects.filter(tournament=self.tournament, ema_id=ema)
            if self.instance.pk:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(_("Another player has this EMA id."))
        return ema


class UploadForm(forms.Form):
    file = forms.FileField(label=_("file"))


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
        from scoring.models import Penalty

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
        from .models import Appeal

        super().__init__(*args, **kwargs)
        self.fields["decided_by"].choices = Appeal.Body.choices
