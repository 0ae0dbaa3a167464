"""The clock page's controls: one form for every button (start, pause, resume, adjust, length)."""

from django import forms
from django.utils.translation import gettext_lazy as _

ACTIONS = ("start", "pause", "resume", "adjust", "length")


class MinutesField(forms.FloatField):
    """Minutes as a desk user types them: a decimal comma and a typographic minus are fine."""

    def __init__(self, **kwargs):
        super().__init__(required=False, error_messages={"invalid": _("Enter a number.")}, **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.replace(",", ".").replace("\u2212", "-")
        return super().to_python(value)


class ClockForm(forms.Form):
    """Parses what a button sends; the timekeeping service checks the limits and the table."""

    action = forms.ChoiceField(
        label=_("action"),
        choices=[(action, action) for action in ACTIONS],
        error_messages={key: _("Unknown clock action.") for key in ("required", "invalid_choice")},
    )
    table = MinutesField(label=_("table"))
    minutes = MinutesField(label=_("minutes"))
    warning_minutes = MinutesField(label=_("warning"))

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action == "adjust":
            if data.get("minutes") is None and "minutes" not in self.errors:
                self.add_error("minutes", _("Enter the minutes to add or remove."))
            table = data.get("table")
            if table is not None and not table.is_integer():
                self.add_error("table", _("Enter a table number."))
            elif table is not None:
                data["table"] = int(table)
        elif action == "length":
            for name in ("minutes", "warning_minutes"):
                value = data.get(name)
                if name in self.errors:
                    continue
                if value is None or not value.is_integer():
                    self.add_error(name, _("Enter whole minutes."))
                else:
                    data[name] = int(value)
        return data
