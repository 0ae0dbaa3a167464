"""The organisers' forms: a new publishing key."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Kind


class KeyForm(forms.Form):
    kind = forms.ChoiceField(label=_("kind"), choices=Kind.choices)
    slug = forms.CharField(
        label=_("address"),
        max_length=80,
        help_text=_(
            "Its address on this server: /t/<address>/ for a tournament, /r/<address>/ for a "
            "club rating. Letters, digits, - and _ only."
        ),
    )
    label = forms.CharField(
        label=_("label"),
        max_length=200,
        required=False,
        help_text=_("For you: which hall or laptop holds it."),
    )
