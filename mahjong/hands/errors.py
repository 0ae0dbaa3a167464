"""The one refusal of the hand arithmetic, for both games."""


class HandError(Exception):
    """An impossible hand: `path` inside the hands ("hands[3].wins[0].fu"; inside one Sichuan
    hand, "events[2].hu[0].seat", and "" for the hand itself), an English message template
    marked for the catalogue with its params, and the formatted `message`. The Django layer
    translates the template and fills it (core.errors.rule_message)."""

    def __init__(self, path: str, template: str, **params):
        self.path = path
        self.template = template
        self.params = params
        self.message = template.format(**params)
        super().__init__(f"{path}: {self.message}" if path else self.message)
