"""The desk's form for a paper protocol's hands typed in the notation (mahjong.hands.notation)."""

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import rule_message
from core.forms import model_field
from mahjong.hands import HandError, play
from mahjong.hands.notation import NotationError, read
from scoring.models import HANDS_MAX, Hand

LINE_MAX = 400  # characters of one typed hand: a Sichuan hand of many events fits
_PLACE = re.compile(r"^hands\[(\d+)\](?:\.events\[(\d+)\])?")


class HandsForm(forms.Form):
    """The hands, one a line; `seen` carries the ids of the current hands the page showed."""

    text = forms.CharField(
        label=gettext_lazy("Hands, one a line"),
        max_length=HANDS_MAX * LINE_MAX,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 16,
                "autofocus": True,
                "spellcheck": "false",
                "autocapitalize": "characters",
                "autocomplete": "off",
                "class": "hands-text",
            }
        ),
        error_messages={"required": gettext_lazy("Type the hands, one a line.")},
    )
    reason = model_field(
        Hand,
        "reason",
        label=gettext_lazy("Reason, when hands already recorded change"),
        required=False,
        widget=forms.TextInput,
    )
    # ids of at most 18 digits (a database's bigint), HANDS_MAX of them: never a 500 from int()
    seen = forms.RegexField(
        regex=r"^(?:[0-9]{1,18}(?:,[0-9]{1,18})*)?,?$",
        max_length=HANDS_MAX * 19,
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, rules, winds, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules, self.winds = rules, winds
        self.lines, self.outcome = [], None
        self.error_line = None  # the line an error names, for the page to put the caret on

    def clean_text(self):
        """The lines read and played: the first that cannot be is named by its line."""
        text = self.cleaned_data["text"]
        try:
            self.lines = read(text, self.rules.game)
        except NotationError as e:
            self.error_line = e.line
            raise forms.ValidationError(rule_message(e)) from e
        if not self.lines:
            raise forms.ValidationError(_("Type the hands, one a line."))
        if len(self.lines) > HANDS_MAX:
            raise forms.ValidationError(
                _("At most %(count)d hands make one table's sheet.") % {"count": HANDS_MAX}
            )
        try:
            self.outcome = play(self.rules, self.hands(), self.winds)
        except HandError as e:
            raise forms.ValidationError(self._placed(e)) from e
        return text

    def clean(self):
        # `seen` is hidden: its refusal is said where the page shows the form's errors
        if self.has_error("seen"):
            self.add_error(None, _("seen: the page's list of hands is damaged; reload the page."))
        return super().clean()

    def _placed(self, error: HandError) -> str:
        """The arithmetic's refusal, named by the line (and the Sichuan event) it is about."""
        place = _PLACE.match(error.path)
        if place is None:
            return rule_message(error)
        line = self.error_line = self.lines[int(place.group(1))].number
        if place.group(2) is not None:
            return _("Line %(line)d, event %(event)d: %(problem)s") % {
                "line": line,
                "event": int(place.group(2)) + 1,
                "problem": rule_message(error),
            }
        return _("Line %(line)d: %(problem)s") % {"line": line, "problem": rule_message(error)}

    def hands(self) -> list[dict]:
        return [line.hand for line in self.lines]

    def seen_ids(self) -> list[int]:
        return [int(pk) for pk in self.cleaned_data["seen"].split(",") if pk]
