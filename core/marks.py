"""Names of users a desk does not have, kept at the end of a note or reason.

A user named in a file who does not exist on the importing desk is kept in the note as
"[imported: entered by NAME; confirmed by NAME]", and exported again under the same name, so a
file survives a trip through a desk without those accounts.
"""

import re

IMPORT_MARK = re.compile(r"\s*\[imported: (?P<body>[^\[\]]*)\]\Z")
ROLES = ("entered", "confirmed", "changed", "recorded", "voided")


def split_mark(text: str) -> tuple[str, dict]:
    """(text without the import mark, role → user name) of a note or reason."""
    if not text or "[imported: " not in text:  # most notes: no mark to look for
        return text or "", {}
    match = IMPORT_MARK.search(text)
    if not match:
        return text or "", {}
    names = {}
    for part in match["body"].split("; "):
        role, _sep, name = part.partition(" by ")
        if role in ROLES and name:
            names[role] = name
    return text[: match.start()], names


def with_mark(text: str, names: dict, limit: int | None) -> str:
    """`text` with the mark of `names` (role → missing user name) at its end, cut to fit."""
    parts = [f"{role} by {names[role]}" for role in ROLES if names.get(role)]
    if not parts:
        return text
    mark = "[imported: " + "; ".join(parts) + "]"
    if limit is not None:
        room = limit - len(mark) - 1
        if len(text) > room:
            text = text[: max(room - 1, 0)] + "…"
    return f"{text} {mark}" if text else mark
