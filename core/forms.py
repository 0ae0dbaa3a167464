"""Forms every room's pages share."""

from django import forms
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from core.collation import sort_key
from core.search import Needle


class UploadForm(forms.Form):
    file = forms.FileField(label=_("file"))


class NextForm(forms.Form):
    """Where a page's action goes back to: a path on this site, or nowhere (the fallback).

    A full address, `//host` or `/\\host` (which browsers read as another host) is dropped, so
    a crafted form cannot send a person to another site after they save."""

    next = forms.CharField(required=False, max_length=2000)

    def clean_next(self) -> str:
        target = self.cleaned_data["next"]
        local = target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts=None
        )
        return target if local else ""

    def target(self) -> str:
        return self.cleaned_data["next"] if self.is_valid() else ""


class AskedForm(NextForm):
    """A write that asks first (core.views.ask_first): `confirm` is on once the person said yes."""

    confirm = forms.BooleanField(required=False)

    def confirmed(self) -> bool:
        return self.is_valid() and self.cleaned_data["confirm"]


class SearchForm(forms.Form):
    """A name typed into a search field (a GET), as core.search matches it."""

    LONGEST = 200  # a name's length: more can match nothing more

    q = forms.CharField(required=False)

    def query(self) -> str:
        self.is_valid()  # another field that does not parse leaves the query alone
        return (self.cleaned_data.get("q") or "")[: self.LONGEST]

    def needle(self) -> Needle:
        return Needle(self.query())


class CollatedChoiceIterator(forms.models.ModelChoiceIterator):
    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        field = self.field
        for obj in sorted(
            self.queryset,
            key=lambda o: (field.first(o), sort_key(field.label_from_instance(o), field.language)),
        ):
            yield self.choice(obj)


class CollatedChoiceField(forms.ModelChoiceField):
    """A choice of a tournament's rows (players) listed by name in the tournament language's
    order (core.collation), after `first(row)` if given (substitutes after players)."""

    iterator = CollatedChoiceIterator

    def __init__(self, queryset, *, language: str, first=None, **kwargs):
        super().__init__(queryset, **kwargs)
        self.language = language
        self.first = first or (lambda _row: 0)


class ButtonsForm(forms.Form):
    """Which of a page's named submit buttons was pressed (each sends its name with value 1)."""

    def __init__(self, data, *names: str):
        super().__init__(data)
        for name in names:
            self.fields[name] = forms.BooleanField(required=False)

    def pressed(self, name: str) -> bool:
        return self.is_valid() and self.cleaned_data[name]


def model_field(model, name, **kwargs) -> forms.Field:
    """The form field for a model field, with every limit the model declares: its length, its
    digits, and its validators (shape, range, calendar). A form that takes a value the model
    stores declares it this way, so the page, the admin and the tournament file agree."""
    field = model._meta.get_field(name)
    form_field = field.formfield(**kwargs)
    for validator in field.validators:
        if validator not in form_field.validators:
            form_field.validators.append(validator)
    return form_field
