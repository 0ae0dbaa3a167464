"""The one refusal of the hand arithmetic, for both games."""

import json

from mahjong.hands.messages import CODES


class Shown(str):
    """A value the hands hold where no such value belongs, as its message writes it: a riichi
    message as Python writes the value (`style` "repr": 'X', None), a Sichuan one as JSON cut
    at 40 characters ("json": "X", null). It is that text; the refusal's JSON carries the value
    itself and its style, and the table page writes it (static/sheet/words.js)."""

    def __new__(cls, value, style: str):
        if style == "repr":
            text = repr(value)
        else:
            try:
                text = json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError):
                text = repr(value)
            text = text if len(text) <= 40 else text[:39] + "…"
        self = super().__new__(cls, text)
        self.value, self.style = value, style
        return self


class HandError(Exception):
    """An impossible hand: `path` inside the hands ("hands[3].wins[0].fu"; inside one Sichuan
    hand, "events[2].hu[0].seat", and "" for the hand itself), an English message template
    marked for the catalogue with its params, and the formatted `message`. `code` names the
    template (its constant in messages.py: "NOT_A_SEAT"): the refusal travels to the table
    page as its code and params (mahjong.hands.browser.error_json). The Django layer
    translates the template and fills it (core.errors.rule_message)."""

    def __init__(self, path: str, template: str, **params):
        self.path = path
        self.template = template
        self.code = CODES.get(template)  # None: the desk's notation's own (notation.py)
        self.params = params
        self.message = template.format(**params)
        super().__init__(f"{path}: {self.message}" if path else self.message)
