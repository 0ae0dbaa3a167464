from django import forms
from django.utils.translation import gettext_lazy as _

from core.entries import VERSION_MAX
from core.forms import model_field
from scoring.models import CHOMBO_MAX, SCORE_LIMIT, Result
from seating.models import Wind


def chombo_field(label, seat) -> forms.IntegerField:
    """A seat's chombo count, 0 to CHOMBO_MAX, each refusal naming the seat."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=CHOMBO_MAX,
        initial=0,
        required=False,
        error_messages={
            "min_value": _("%(seat)s: chombo cannot be negative.") % {"seat": seat},
            "max_value": _("%(seat)s: at most %(max)d chombo.") % {"seat": seat, "max": CHOMBO_MAX},
            "invalid": _("%(seat)s: chombo is a count.") % {"seat": seat},
        },
        widget=forms.NumberInput(
            attrs={
                "class": "chombo",
                "inputmode": "numeric",
                "aria-label": _("%(seat)s: chombo") % {"seat": seat},
            }
        ),
    )


def score_field(label, seat) -> forms.IntegerField:
    """A seat's final score: a whole number within SCORE_LIMIT, each refusal naming the seat."""
    return forms.IntegerField(
        label=label,
        min_value=-SCORE_LIMIT,
        max_value=SCORE_LIMIT,
        error_messages={
            "required": _("%(seat)s: the score is missing.") % {"seat": seat},
            "invalid": _("%(seat)s: write a whole number.") % {"seat": seat},
            "min_value": _("%(seat)s: the score is far too low.") % {"seat": seat},
            "max_value": _("%(seat)s: the score is far too high.") % {"seat": seat},
        },
        widget=forms.NumberInput(attrs={"class": "score", "inputmode": "numeric"}),
    )


class ResultForm(forms.Form):
    """One score (and for riichi a chombo count) per seat, in seat order, for the keyboard."""

    base_version = forms.IntegerField(
        label=_("Version"),
        widget=forms.HiddenInput,
        min_value=0,
        max_value=VERSION_MAX,
        error_messages={
            key: _("the form's version is missing or damaged — reload the page.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )
    note = model_field(Result, "note", label=_("Note"), required=False)

    def __init__(self, *args, seats, riichi: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.riichi = riichi
        for seat in seats:
            label = f"{Wind(seat.wind).label} — {seat.player.name}"
            if seat.replaces_id is not None:
                label += " (%s)" % (_("substitute for %(name)s") % {"name": seat.replaces.name})
            self.fields[f"score_{seat.wind}"] = score_field(label, label)
            if riichi:
                self.fields[f"chombo_{seat.wind}"] = chombo_field(_("chombo"), label)

    def clean(self):
        # The page has no error line under the hidden version or the note: say it at the top.
        for name in ("base_version", "note"):
            for message in self.errors.get(name, ()):
                self.add_error(None, f"{self.fields[name].label}: {message}")
        return super().clean()

    def rows(self):
        """(seat, score field, chombo field) for the template, in seat order."""
        for seat in self.seats:
            yield (
                seat,
                self[f"score_{seat.wind}"],
                self[f"chombo_{seat.wind}"] if self.riichi else None,
            )

    def entries(self) -> dict:
        return {
            s.wind: (
                self.cleaned_data.get(f"score_{s.wind}"),
                self.cleaned_data.get(f"chombo_{s.wind}") or 0,
            )
            for s in self.seats
        }


class ConfirmForm(forms.Form):
    """Which saved version of a table the second desk user confirms."""

    version = forms.IntegerField(min_value=0, max_value=VERSION_MAX)


class TableWindsForm(forms.Form):
    """Who drew each wind at a table whose winds are drawn there: one select per seat's wind,
    of the table's players. The service (seating.services.record_table_winds) says what is
    wrong with a choice, under the wind it names."""

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        players = sorted(((s.player_id, s.player.name) for s in seats), key=lambda p: p[1])
        for seat in seats:
            self.fields[seat.wind] = forms.IntegerField(
                label=_("Who drew %(wind)s") % {"wind": Wind(seat.wind).label},
                required=False,
                widget=forms.Select(choices=[("", "—"), *players]),
            )

    def winds(self) -> dict:
        return {wind: self.cleaned_data.get(wind) for wind in self.fields}
