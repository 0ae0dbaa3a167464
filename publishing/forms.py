"""The publishing page's form: its values are declared once, by the model's own fields and
validators (publishing.models), which the service checks again."""

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .models import KEY_MAX, URL_MAX, Publication, validate_key, validate_server_url


def _label(name):
    return capfirst(Publication._meta.get_field(name).verbose_name)


def _help(name):
    return Publication._meta.get_field(name).help_text


class PublicationForm(forms.Form):
    url = forms.CharField(
        label=_label("url"),
        max_length=URL_MAX,
        validators=[validate_server_url],
        help_text=_help("url"),
        widget=forms.TextInput(attrs={"size": "40", "inputmode": "url", "spellcheck": "false"}),
    )
    key = forms.CharField(
        label=_label("key"),
        max_length=KEY_MAX,
        required=False,
        validators=[validate_key],
        # The key is the hall's secret: never written into a page, typed in once.
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off", "size": "40"}),
        help_text=_(
            "The key the federation server showed for this event: id.secret. "
            "Leave empty to keep the key already set."
        ),
    )
    enabled = forms.BooleanField(
        label=_label("enabled"), required=False, help_text=_help("enabled")
    )


class StandbyForm(PublicationForm):
    """Where the main desk sends everything: the standby's address and its pairing key (the
    same values as a federation server's, under the standby's own names)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        url, key, enabled = self.fields["url"], self.fields["key"], self.fields["enabled"]
        url.label = _("Standby's address")
        url.help_text = _("As the standby's page shows it, e.g. http://192.168.1.12:8000")
        key.label = _("Pairing key")
        key.help_text = _(
            "The key the standby's page shows: id.secret. Leave empty to keep the key already set."
        )
        enabled.label = _("Send to the standby")
        enabled.help_text = _(
            "Send every change of every tournament and club rating to the standby."
        )


class TakeOverForm(forms.Form):
    sure = forms.BooleanField(
        label=_("The main desk is down, and this laptop becomes the desk"),
        help_text=_(
            "Everyone then logs in here with the main desk's accounts; the table links and "
            "codes keep working."
        ),
    )
