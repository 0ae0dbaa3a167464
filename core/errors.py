"""Refusals the desk shows a person, and the rule module's errors in the reader's language."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _


class ActionRefused(Exception):
    """An action the desk must refuse, with a message for the person who asked."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.message = message
        self.field = field


class StaleEdit(ActionRefused):
    """Someone saved this table after the form was loaded."""


def rule_message(error) -> str:
    """A scoring.rules RuleError or Problem in the active language.

    The rule module imports nothing from Django, so it keeps the English template and its
    params apart: translate the template first, then fill it.
    """
    message = _(error.template)
    if not error.params:
        return message
    params = {
        name: number_format(value, force_grouping=True)
        if isinstance(value, int) and not isinstance(value, bool)
        else value
        for name, value in error.params.items()
    }
    return message.format(**params)


def refusal(error) -> ActionRefused:
    """A RuleError as the refusal a desk page shows, on the field it names."""
    return ActionRefused(rule_message(error), field=error.field)
