"""People across events (issue 25): a person exists once on the desk; a tournament's player and a
club's member link to one. Their name fields are declared here once (`Named`) and shared by the
tournament's Player, so a page, a list and the file take the same values for both."""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.names import latin, parts_of, scheme_for
from core.text import validate_latin, validate_line, validate_name

# A first or last name, and its Latin spelling: two of them and a space fit in a name.
NAME_PART = 99

LATIN_HELP = _(
    "For the EMA. Empty: spelled from the name by the Ukrainian or Russian national system."
)


def name_part(verbose_name, validator, help_text=""):
    """A first or last name, or its Latin spelling: optional, one line, NAME_PART long."""
    return models.CharField(
        verbose_name, max_length=NAME_PART, blank=True, validators=[validator], help_text=help_text
    )


class Named(models.Model):
    """A person's name, its parts and Latin spelling, EMA id, country and club."""

    # The name shown everywhere. First and last name are kept apart when they are known (the
    # EMA sheet's columns); a name left empty in a form or a list is made from them (README).
    name = models.CharField(_("name"), max_length=200, validators=[validate_name])
    first_name = name_part(_("first name"), validate_line)
    last_name = name_part(
        _("last name"), validate_line, _("With its particles: “van den Berg”, “de la Cruz”.")
    )
    # The name the EMA gets, in Latin letters; empty: transliterated (latin_parts).
    latin_first_name = name_part(_("Latin first name"), validate_latin, LATIN_HELP)
    latin_last_name = name_part(_("Latin last name"), validate_latin, LATIN_HELP)
    ema_id = models.CharField(
        _("EMA id"),
        max_length=8,
        blank=True,
        validators=[RegexValidator(r"^\d{8}$", _("An EMA id is exactly 8 digits."))],
    )
    country = models.CharField(_("country"), max_length=60, blank=True, validators=[validate_line])
    club = models.CharField(_("club"), max_length=120, blank=True, validators=[validate_line])

    class Meta:
        abstract = True

    def __str__(self):
        return self.name

    def name_parts(self) -> tuple[str, str]:
        """(first name, last name): as typed, or, when neither was, split from the name with
        the surname's particles (core.names.first_and_last)."""
        return parts_of(self.name, self.first_name, self.last_name)

    def latin_parts(self, language: str) -> tuple[str, str]:
        """(first name, last name) in Latin letters: as typed, or transliterated from
        name_parts by the Ukrainian or Russian national standard (core.names) — the
        tournament's printing `language` and the person's country choose which."""
        first, last = self.name_parts()
        scheme = scheme_for(f"{first} {last}", country=self.country, language=language)
        return (
            self.latin_first_name or latin(first, scheme),
            self.latin_last_name or latin(last, scheme),
        )


# The fields a person and a player share, in the order forms show them.
NAMED_FIELDS = (
    "name",
    "first_name",
    "last_name",
    "latin_first_name",
    "latin_last_name",
    "ema_id",
    "country",
    "club",
)


class Person(Named):
    """One human being, whatever events they play. A person merged into another stays, pointing
    at the one kept (`merged_into`), so a split can bring them back."""

    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")


class PersonChange(models.Model):
    """A merge of two people, or the split that undoes it: who, when, and every link moved."""

    class Kind(models.TextChoices):
        MERGE = "merge", _("merged")
        SPLIT = "split", _("split")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    kept = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    other = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    # The links moved from `other` to `kept` (a merge) or back (a split), by kind:
    # {"players": [ids], "members": [ids]}.
    moved = models.JSONField(default=dict)
    undoes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="undone_by"
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True, validators=[validate_line])
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.kept} / {self.other}"
