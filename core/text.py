"""What a line of text typed into the desk may be, declared once (issue 22): the models'
validators, the player lists and the tournament file (with its JSON Schema) all read these.

Text is Unicode without control characters: C0 and C1 controls and DEL are refused (a bell, an
escape or a NUL breaks the workbook and the terminal, and means nothing in a name); a one-line
field takes no tab or newline either. A name needs one visible character: not only spaces,
zero-width or direction marks.
"""

import re
from dataclasses import dataclass

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

CONTROL = r"\x00-\x1f\x7f-\x9f"
# Spaces and the marks that show nothing: soft hyphen, zero-width and direction marks, joiners,
# the byte-order mark.
INVISIBLE = r"\s\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff"


@dataclass(frozen=True)
class Shape:
    """A whole value's shape as one regular expression `body` that Python and ECMA-262 (JSON
    Schema) read alike, anchored for each: Python's `$` would let a final newline through."""

    body: str
    message: str

    @property
    def regex(self) -> re.Pattern:
        return re.compile(rf"\A(?:{self.body})\Z")

    @property
    def ecma(self) -> str:
        return f"^(?:{self.body})$"

    @property
    def validator(self) -> RegexValidator:
        return RegexValidator(self.regex, self.message)


LINE = Shape(
    rf"[^{CONTROL}]*",
    _("Control characters (such as a tab, a bell or an escape) are not allowed."),
)
NAME = Shape(
    rf"(?=[^{CONTROL}]*[^{CONTROL}{INVISIBLE}])[^{CONTROL}]*",
    _("A name needs a visible character, and control characters are not allowed."),
)
validate_line = LINE.validator
validate_name = NAME.validator
