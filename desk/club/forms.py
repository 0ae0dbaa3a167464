"""Forms of a club rating's desk pages (issue 25). Every value the models store is declared by
the model (core.forms.model_field); the services say what is wrong with a whole game."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Club, GameVersion, Season
from club.services import CLUB_FIELDS
from core.entries import VERSION_MAX
from core.forms import CollatedChoiceField, model_field
from core.roles import is_director
from core.text import address_slug
from core.zones import ZoneSelect, default_zone
from desk.forms import get_language_code
from desk.forms_results import chombo_field, score_field
from people.models import Person
from seating.models import WINDS, Wind

# Addresses under /desk/club/ that are the desk's own pages, not a club's.
TAKEN_SLUGS = {"new"}


class ClubForm(forms.Form):
    """A club rating's settings, as club.services.save_club takes them. Single confirmation is
    the director's (issue 34): an officer's form has no such field."""

    def __init__(self, *args, club: Club | None = None, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        for name in CLUB_FIELDS:
            self.fields[name] = model_field(Club, name)
        if not (user is not None and is_director(user)):
            del self.fields["single_confirmation"]
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "Part of the club's web address, after /r/; made from the name if empty."
        )
        self.fields["time_zone"].widget = ZoneSelect()
        self.fields["time_zone"].required = False
        if club is not None:
            self.initial = {name: getattr(club, name) for name in CLUB_FIELDS}
        else:
            self.initial = {
                "language": get_language_code(),
                "time_zone": default_zone(),
                "ruleset": Club._meta.get_field("ruleset").default,
            }

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in TAKEN_SLUGS:
            raise forms.ValidationError(_("This address is one of the desk's own pages."))
        return slug

    def clean_time_zone(self):
        return self.cleaned_data["time_zone"] or default_zone()

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        if not data["slug"]:
            data["slug"] = address_slug(data["name"], data.get("language", ""))[:80] or "club"
        return data


class SeasonForm(forms.Form):
    name = model_field(Season, "name")
    start = model_field(Season, "start", widget=forms.DateInput(attrs={"type": "date"}))
    end = model_field(Season, "end", widget=forms.DateInput(attrs={"type": "date"}))


class MemberSearchForm(forms.Form):
    """An existing person to add (found by a search of names, folded as the check-in's)."""

    person = forms.ModelChoiceField(
        queryset=Person.objects.filter(merged_into__isnull=True),
        label=_("person"),
        widget=forms.HiddenInput,
    )


class PersonForm(forms.Form):
    """A new person, who becomes a member at once."""

    name = model_field(Person, "name")
    country = model_field(Person, "country")
    club = model_field(Person, "club")
    ema_id = model_field(Person, "ema_id")


class ActiveForm(forms.Form):
    active = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")], coerce=lambda value: value == "1", empty_value=False
    )


class PresenceForm(forms.Form):
    """The check-in button's state to set: 1 checks the member in, anything else out (the same
    field name as the tournament's check-in, so the page's script serves both)."""

    checked_in = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")],
        coerce=lambda value: value == "1",
        required=False,
        empty_value=False,
    )


class DayForm(forms.Form):
    """A date in the address's query (the games list, a new game)."""

    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class SeasonChoiceForm(forms.Form):
    """The rating's period: a season, or all time (empty)."""

    season = forms.ModelChoiceField(queryset=Season.objects.none(), required=False)

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(club=club).order_by("-start")
        self.fields["season"].label = _("season")
        self.fields["season"].empty_label = _("all time")


class GamesFilterForm(DayForm):
    season = forms.ModelChoiceField(queryset=Season.objects.none(), required=False)

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(club=club).order_by("-start")
        self.fields["season"].label = _("season")
        self.fields["season"].empty_label = _("all seasons")
        self.fields["date"].label = _("date")


class GameForm(forms.Form):
    """Four seats (member, score, chombo) in wind order, the note and, for a game dated in a
    closed season, the override. A new game has its date; a recorded one its version."""

    played_on = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}))
    base_version = forms.IntegerField(
        label=_("Version"),
        widget=forms.HiddenInput,
        min_value=0,
        max_value=VERSION_MAX,
        required=False,
        error_messages={
            key: _("the form's version is missing or damaged — reload the page.")
            for key in ("invalid", "min_value", "max_value")
        },
    )
    note = model_field(GameVersion, "note", label=_("Note"), required=False)
    override_closed = forms.BooleanField(
        label=_("The season is closed: record anyway"), required=False
    )

    def __init__(self, *args, club: Club, new: bool, closed: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.new = new
        if not new:
            del self.fields["played_on"]
        if not closed:
            self.fields["override_closed"].widget = forms.HiddenInput()
        members = club.members.select_related("person")
        for wind in WINDS:
            label = str(Wind(wind).label)
            self.fields[f"member_{wind}"] = CollatedChoiceField(
                members,
                language=club.language,
                label=label,
                required=False,
                empty_label="—",
                error_messages={
                    "invalid_choice": _("%(seat)s: not a member of this club.") % {"seat": label}
                },
            )
            self.fields[f"member_{wind}"].label_from_instance = lambda m: m.person.name
            self.fields[f"score_{wind}"] = score_field(
                _("%(seat)s: score") % {"seat": label}, label
            )
            self.fields[f"chombo_{wind}"] = chombo_field(
                _("%(seat)s: chombo") % {"seat": label}, label
            )

    def refusal_field(self, name):
        """The service names a seat by its wind; on this form it is the seat's player."""
        if name in WINDS:
            return f"member_{name}"
        return name

    def clean(self):
        # The page has no error line under the hidden version or the note: say it at the top.
        for name in ("base_version", "note"):
            for message in self.errors.get(name, ()):
                self.add_error(None, f"{self.fields[name].label}: {message}")
        return super().clean()

    def rows(self):
        """(wind label, member field, score field, chombo field) in wind order."""
        for wind in WINDS:
            yield (
                Wind(wind).label,
                self[f"member_{wind}"],
                self[f"score_{wind}"],
                self[f"chombo_{wind}"],
            )

    def seats(self) -> list:
        data = self.cleaned_data
        return [
            (data.get(f"member_{w}"), data.get(f"score_{w}"), data.get(f"chombo_{w}") or 0)
            for w in WINDS
        ]


class VoidForm(forms.Form):
    base_version = forms.IntegerField(min_value=0, max_value=VERSION_MAX, widget=forms.HiddenInput)
    note = model_field(GameVersion, "note", label=_("reason"), required=False)
    override_closed = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)


class ConfirmVersionForm(forms.Form):
    version = forms.IntegerField(min_value=0, max_value=VERSION_MAX)
