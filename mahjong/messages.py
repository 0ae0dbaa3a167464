"""How the ground floor speaks: English templates marked for the catalogue, with their params.

The pure modules raise and return these; the Django layer (core.errors.rule_message) translates
the template and formats it itself. Stdlib only.
"""


def gettext_noop(message: str) -> str:
    """Marks `message` for the translation catalogue (makemessages looks for this name).

    Returns it unchanged: the Django layer translates the template when it shows it.
    """
    return message


class Words(str):
    """A message's param that is itself words of the catalogue ("on a discard"), not a value:
    core.errors.rule_message translates it with the template."""

    translatable = True


class RuleError(Exception):
    """A bad preset key or override. `field` names the override field ("ruleset" for the key).

    `message` is English; `template` and `params` let the Django layer translate the template
    and format it itself.
    """

    def __init__(self, field: str, message: str, **params):
        self.field = field
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        super().__init__(f"{field}: {self.message}")


class Problem(tuple):
    """(seat index, message); seat −1 is the whole table. Keeps template and params too."""

    def __new__(cls, seat: int, template: str, **params):
        self = super().__new__(cls, (seat, template.format(**params)))
        self.template = template
        self.params = params
        return self

    @property
    def seat(self) -> int:
        return self[0]

    @property
    def message(self) -> str:
        return self[1]
