"""What a line of text typed into the desk may be, declared once (issue 22): the models'
validators, the player lists and the tournament file (with its JSON Schema) all read these.

Text is Unicode without control characters: C0 and C1 controls and DEL are refused (a bell, an
escape or a NUL breaks the workbook and the terminal, and means nothing in a name), and so are
lone surrogates (a JSON file can spell them; no database can store them) and the noncharacters
U+FDD0–U+FDEF, U+FFFE and U+FFFF (no XML, so no workbook, can hold the last two). A one-line
field takes no tab or newline; a multi-line text (an incident, an appeal, a decision, a reason)
takes both.
A name needs one visible character: not only spaces, zero-width or direction marks.

The models carry these as validators (ShapeValidator); forms built from the model fields
(core.forms.model_field) and the tournament file (archive.tournament_file.schema) read them from
there, so no page accepts what the file refuses.
"""

import re
from dataclasses import dataclass

from django.core.validators import RegexValidator
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.names import latin, scheme_for

SURROGATES = r"\ud800-\udfff"
# Noncharacters of the first plane: U+FFFE and U+FFFF are no XML (a workbook with one does not
# open), U+FDD0–U+FDEF are reserved for a program's own use. None is a letter of any name.
NONCHARACTERS = r"\ufdd0-\ufdef\ufffe\uffff"
CONTROL = rf"\x00-\x1f\x7f-\x9f{SURROGATES}{NONCHARACTERS}"
# A multi-line text's controls: all of them but tab, newline and carriage return.
TEXT_CONTROL = rf"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{SURROGATES}{NONCHARACTERS}"
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
    def validator(self) -> "ShapeValidator":
        return ShapeValidator(self)


class ShapeValidator(RegexValidator):
    """A model field's shape, kept with the validator so that a reader of the field (the
    tournament file's schema) finds which shape it is."""

    def __init__(self, shape: Shape):
        super().__init__(shape.regex, shape.message)
        self.shape = shape

    def deconstruct(self):
        return RegexValidator(self.regex, self.message).deconstruct()


def shape_of(field) -> Shape | None:
    """The shape a model field's validators declare, if any."""
    for validator in field.validators:
        if isinstance(validator, ShapeValidator):
            return validator.shape
    return None


LINE = Shape(
    rf"[^{CONTROL}]*",
    _("Control characters (such as a tab, a bell or an escape) are not allowed."),
)
NAME = Shape(
    rf"(?=[^{CONTROL}]*[^{CONTROL}{INVISIBLE}])[^{CONTROL}]*",
    _("A name needs a visible character, and control characters are not allowed."),
)
TEXT = Shape(
    rf"[^{TEXT_CONTROL}]*",
    _("Control characters (such as a bell or an escape) are not allowed."),
)
# A name in Latin script, as the EMA takes it: Latin letters (with their accents, as in Polish
# or Czech names), combining accents, spaces, apostrophes, hyphens and dots; empty, or with a
# letter. Cyrillic or any other script is refused: this is the name spelled for the EMA.
LATIN_LETTERS = r"A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
LATIN_MARKS = r" '\u2019\u02bc.\-\u0300-\u036f"
LATIN = Shape(
    rf"(?:[{LATIN_MARKS}]*[{LATIN_LETTERS}][{LATIN_LETTERS}{LATIN_MARKS}]*)?",
    _("A Latin name is Latin letters, spaces, apostrophes, hyphens and dots only."),
)
validate_line = LINE.validator
validate_text = TEXT.validator
validate_name = NAME.validator
validate_latin = LATIN.validator


def address_slug(name: str, language: str = "") -> str:
    """The part of a web address made from a name: Cyrillic in Latin letters first (by the
    scheme `scheme_for` picks; "Кубок Харкова 2026" → "kubok-kharkova-2026", where slugify
    alone would keep only "2026")."""
    return slugify(latin(name, scheme_for(name, language=language)))
