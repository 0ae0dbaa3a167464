"""Forms of the desk. Every label and message is marked for translation."""

import dataclasses

from django import forms
from django.utils.translation import get_language, get_supported_language_variant
from django.utils.translation import gettext_lazy as _

from scoring.rules import PRESETS, RuleSet
from tournament.models import Player, Tournament


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


RULE_CHOICES = {
    "game": [("riichi", _("riichi")), ("sichuan", _("Sichuan"))],
    "tie_mode": [("split", _("ties share the placement points equally"))],
    "result_unit": [
        ("points", _("points")),
        ("rating", _("rating points")),
        ("tp", _("tournament points (TP)")),
    ],
    "chombo_mode": [
        ("in_scores", _("paid at the table (inside the scores)")),
        ("after_placement", _("deducted after placement")),
    ],
    "tiebreak": [("none", _("none")), ("game_points", _("total game points"))],
    "late_stage": [
        ("before_placement", _("before placement (can change places)")),
        ("after_placement", _("after placement")),
    ],
    "substitute_mode": [("ema", _("EMA 2012 (000 §5.7)")), ("sbr", _("SBR 2025 (002 §2.8.4)"))],
    "end_of_session": [
        ("one_more_hand", _("after the warning: finish the hand and play one more (EMA 000 §5.8)")),
        ("finish_hand", _("at the end signal: play out the hand in progress (SBR 002 §2.4.4)")),
    ],
}
RULE_LABELS = {
    "game": _("Game"),
    "start_points": _("Start points"),
    "return_points": _("Return points"),
    "tie_mode": _("Ties"),
    "result_unit": _("Result unit"),
    "score_divisor": _("Score divisor"),
    "decimals": _("Decimals"),
    "score_step": _("Score step"),
    "chombo_mode": _("Chombo"),
    "chombo_amount": _("Chombo amount"),
    "tiebreak": _("Tiebreak"),
    "late_per_minute": _("Late arrival, per minute"),
    "late_max_minutes": _("Latest arrival (minutes)"),
    "late_stage": _("Late arrival penalty counts"),
    "misconduct_amounts": _("Misconduct amounts"),
    "serious_misconduct_range": _("Serious misconduct range"),
    "progressive_scale": _("Progressive scale for minor violations"),
    "substitute_mode": _("Substitutes"),
    "substitute_result": _("Substitute's result"),
    "appeal_window_minutes": _("Appeal window (minutes after the session)"),
    "uma": _("Uma / placement points (1st, 2nd, 3rd, 4th)"),
    "uma3": _("Placement points at three-player tables"),
    "awarded_tp": _("TP at an awarded table"),
    "late_steps": _("Late steps (minutes:amount, …)"),
    "appeal_deposit_fees": _("Appeal deposit (× fee)"),
    "session_minutes": _("Session length (minutes)"),
    "warning_minutes": _("Warning before the end (minutes)"),
    "end_of_session": _("End of a timed session"),
    "start_signal": _("Bell at the start"),
    "time_up_signal": _("Bell at time up"),
    "seating_display_minutes": _("Projector shows the seating for (minutes after the start)"),
}


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
        for f in dataclasses.fields(RuleSet):
            if f.name in ("key", "name"):
                continue
            value = getattr(rules, f.name)
            label = RULE_LABELS[f.name]
            if f.name in RULE_CHOICES:
                field = forms.ChoiceField(
                    label=label, choices=RULE_CHOICES[f.name], initial=value, required=False
                )
            elif isinstance(value, bool):
                field = forms.BooleanField(label=label, required=False, initial=value)
            elif isinstance(value, int):
                field = forms.IntegerField(label=label, initial=value, required=False)
            elif isinstance(value, float):
                field = forms.FloatField(label=label, initial=value, required=False)
            else:
                field = forms.CharField(label=label, initial=_text(value), required=False)
            self.fields[f"rule_{f.name}"] = field

    def overrides(self) -> dict:
        """The submitted values by rule field name (the service stores only the differences)."""
        values = {}
        preset = PRESETS[self.cleaned_data["ruleset"]]
        for f in dataclasses.fields(RuleSet):
            name = f"rule_{f.name}"
            if name not in self.cleaned_data:
                continue
            value = self.cleaned_data[name]
            example = getattr(preset, f.name)
            if value is None or (value == "" and not isinstance(example, tuple)):
                continue  # left empty: the preset's value
            if isinstance(example, tuple):
                value = _parse_tuple(value or "", example)
            values[f.name] = value
        return values

    def clean(self):
        data = super().clean()
        if "ruleset" in data and data["ruleset"] != self.rules.key:
            # Switching presets starts from the new preset as it is.
            self.switch_preset = True
        else:
            self.switch_preset = False
            for f in dataclasses.fields(RuleSet):
                name = f"rule_{f.name}"
                example = getattr(self.rules, f.name)
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
