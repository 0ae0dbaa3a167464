"""Forms of the people pages (issue 25): a person's fields, the matches of a tournament's
players, a merge and a split. Every label and message is marked for translation."""

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import model_field
from core.names import joined
from people.models import NAMED_FIELDS, Person, PersonChange
from tournament.services import NEW_PERSON


class PersonForm(forms.ModelForm):
    class Meta:
        model = Person
        fields = list(NAMED_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The name may be left empty when the first and last name are given (README).
        self.fields["name"].required = False
        self.fields["name"].help_text = _("Empty: the first name and the last name.")

    def clean(self):
        data = super().clean()
        if "name" not in data:  # refused already
            return data
        name = data["name"].strip() or joined(data.get("first_name", ""), data.get("last_name", ""))
        if not name:
            self.add_error("name", _("Give the name, or the first and last name."))
        data["name"] = name
        return data

    def _post_clean(self):
        # The name made from its parts is the instance's before the model checks it.
        if self.cleaned_data.get("name"):
            self.instance.name = self.cleaned_data["name"]
        super()._post_clean()


def person_label(person) -> str:
    """A person as a choice: the name, then what tells namesakes apart."""
    details = [d for d in (person.ema_id, person.country, person.club) if d]
    return f"{person.name} ({', '.join(details)})" if details else person.name


class MatchesForm(forms.Form):
    """One choice per player without a person: one of its candidates, a new person, or none.
    A candidate with the player's EMA id is chosen already; otherwise "leave unlinked"."""

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for player in self.players:
            choices = [("", _("leave unlinked")), (NEW_PERSON, _("new person"))]
            choices += [(str(person.pk), person_label(person)) for person in player.candidates]
            same_ema = [p for p in player.candidates if player.ema_id and p.ema_id == player.ema_id]
            self.fields[self.field_name(player)] = forms.ChoiceField(
                label=player.name,
                choices=choices,
                required=False,
                initial=str(same_ema[0].pk) if same_ema else "",
                widget=forms.RadioSelect,
            )

    @staticmethod
    def field_name(player) -> str:
        return f"player_{player.pk}"

    def choices(self) -> dict:
        """Player id -> what link_players takes (a person's id, NEW_PERSON, or None)."""
        return {
            player.pk: self.cleaned_data[self.field_name(player)] or None for player in self.players
        }


class MergeForm(forms.Form):
    other = forms.ModelChoiceField(
        queryset=Person.objects.none(),
        label=_("person to merge into this one"),
    )
    reason = model_field(PersonChange, "reason", required=False)

    def __init__(self, *args, person=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = Person.objects.filter(merged_into__isnull=True).exclude(
            pk=person.pk
        )
        self.fields["other"].label_from_instance = person_label


class SplitForm(forms.Form):
    reason = model_field(PersonChange, "reason", required=False)
