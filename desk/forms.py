"""Forms of the desk. Every label and message is marked for translation."""

from django import forms
from django.utils.translation import get_language, get_supported_language_variant
from django.utils.translation import gettext_lazy as _

from core.forms import UploadForm, model_field
from core.names import FAMILY_FIRST, GIVEN_FIRST, joined
from core.zones import ZoneSelect, default_zone
from mahjong.presets import PRESETS
from mahjong.rulesets import RULE_FIELDS, RuleSet
from people.models import NAMED_FIELDS
from tournament.models import RESERVED_SLUGS, Player, RuleChange, Tournament


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
            "winds",
            "single_confirmation",
            "release_by_session",
            "mers_qualification",
            "language",
            "time_zone",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "time_zone": ZoneSelect(),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["time_zone"].required = False  # left out: the desk's default
        self.fields["winds"].required = False  # left out: as it was (new: the desk's draw)
        self.fields["slug"].help_text = _(
            "Part of the public address; made from the name if empty."
        )
        if self.instance.pk:
            # The rule set is changed on the rules page, where the freeze is enforced.
            del self.fields["ruleset"]
        else:
            self.fields["language"].initial = get_language_code()

    def clean_time_zone(self):
        return self.cleaned_data["time_zone"] or default_zone()

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                _("“%(slug)s” is a page of the desk: choose another slug."), params={"slug": slug}
            )
        return slug

    def clean_winds(self):
        return self.cleaned_data["winds"] or self.instance.winds

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
    # Pairs and cells are written "a:b": an empty preset value gives no example to go by.
    nested = (bool(example) and isinstance(example[0], tuple)) or ":" in text
    try:
        if nested:
            return tuple(tuple(_number(x) for x in p.split(":")) for p in parts)
        return tuple(_number(p) for p in parts)
    except ValueError as e:
        raise forms.ValidationError(_("Write numbers separated by commas.")) from e


def _number(text: str):
    text = text.strip()
    return float(text) if "." in text else int(text)


def _shown_rules(game: str):
    """The rule fields the rules page shows a `game` tournament, in the rule set's order."""
    return [rule for rule in RULE_FIELDS.values() if rule.shown_in(game)]


class ReopenForm(forms.Form):
    """The director's reason for reopening a finished tournament; the service refuses a blank
    one."""

    reason = model_field(
        Tournament,
        "reopen_reason",
        label=_("reason for reopening"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RulesForm(forms.Form):
    """Every field of the rule set the tournament's game plays by, in that game's words,
    prefilled with the tournament's current values. The fields of the other game are not shown
    and keep their values."""

    ruleset = forms.ChoiceField(
        label=_("preset"), choices=[(k, _(r.name)) for k, r in PRESETS.items()]
    )
    reason = model_field(
        RuleChange,
        "reason",
        label=_("reason for the change"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Required once results are confirmed: the change is recorded and every result "
            "recomputed."
        ),
    )

    def refusal_field(self, name):
        """A rule set's refusal names the rule field; on this page it is `rule_<name>`."""
        return f"rule_{name}" if f"rule_{name}" in self.fields else name

    def __init__(self, *args, rules: RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["ruleset"].initial = rules.key
        for rule in _shown_rules(rules.game):
            value = getattr(rules, rule.name)
            words = rule.in_words_of(rules.game)
            label = _(words.label)
            if words.choices:
                choices = [(choice, _(text)) for choice, text in words.choices]
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
        """The submitted values by rule field name (the service stores only the differences).
        A field the page does not show this game keeps the tournament's value."""
        values = {}
        preset = PRESETS[self.cleaned_data["ruleset"]]
        for rule in RULE_FIELDS.values():
            name = f"rule_{rule.name}"
            if rule.label is not None and name not in self.fields:
                values[rule.name] = getattr(self.rules, rule.name)
                continue
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
            for rule in _shown_rules(self.rules.game):
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
        fields = [
            *NAMED_FIELDS,
            "team",
            "substitute",
            "status",
            "checked_in",
        ]

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if tournament is not None:
            self.instance.tournament = tournament
        # The name may be left empty when the first and last name are given (README).
        self.fields["name"].required = False
        self.fields["name"].help_text = _("Empty: the first name and the last name.")
        if self.instance.pk and tournament is not None:
            # What an empty Latin name stands for: the transliteration, shown in grey.
            first, last = self.instance.latin_parts(tournament.language)
            self.fields["latin_first_name"].widget.attrs["placeholder"] = first
            self.fields["latin_last_name"].widget.attrs["placeholder"] = last

    def clean(self):
        data = super().clean()
        if "name" not in data:  # refused already
            return data
        # Two parts of NAME_PART and a space fit in a name's length.
        name = data["name"].strip() or joined(data.get("first_name", ""), data.get("last_name", ""))
        if not name:
            self.add_error("name", _("Give the name, or the first and last name."))
            return data
        clash = Player.objects.filter(tournament=self.tournament, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            self.add_error("name", _("A player of this name is already registered."))
        data["name"] = name
        return data

    def clean_ema_id(self):
        ema = self.cleaned_data["ema_id"].strip()
        if ema:
            clash = Player.objects.filter(tournament=self.tournament, ema_id=ema)
            if self.instance.pk:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(_("Another player has this EMA id."))
        return ema


class CheckInForm(forms.Form):
    """The check-in button's state to set: 1 checks the player in, anything else out."""

    checked_in = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")],
        coerce=lambda value: value == "1",
        required=False,
        empty_value=False,
    )


# How the words of a list's name column are ordered (core.names): the desk's rule is the
# first name first; a list says otherwise through the import's form (issue 37).
NAME_ORDERS = [
    (GIVEN_FIRST, _("First name first (Anna Nowak)")),
    (FAMILY_FIRST, _("Family name first (Щербаков Алексей, Chen Wei)")),
]


def name_order_field():
    return forms.ChoiceField(
        label=_("Words of a name"),
        choices=NAME_ORDERS,
        initial=GIVEN_FIRST,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "How the list writes a whole name, and how a name is made of its first and last name."
        ),
    )


class PlayerListForm(UploadForm):
    """A player list to preview: the file, the order of a name's words, and the columns that
    hold the family and the given name when their headings do not say it."""

    order = name_order_field()
    family_column = forms.CharField(
        label=_("Family name column"),
        max_length=60,
        required=False,
        help_text=_("Its heading or letter (B), if the desk does not read it by its heading."),
    )
    given_column = forms.CharField(
        label=_("Given name column"),
        max_length=60,
        required=False,
        help_text=_("Its heading or letter (C), if the desk does not read it by its heading."),
    )

    def clean_order(self) -> str:
        return self.cleaned_data["order"] or GIVEN_FIRST


class ImportConfirmForm(forms.Form):
    """ "Import these players": which preview (desk.views.PlayerImport keeps a few by name);
    or "Split again": the same preview read in another order of a name's words."""

    confirm = forms.BooleanField(required=False)
    reorder = forms.BooleanField(required=False)
    preview = forms.CharField(max_length=32, required=False)
    order = name_order_field()

    def clean_order(self) -> str:
        return self.cleaned_data["order"] or GIVEN_FIRST
