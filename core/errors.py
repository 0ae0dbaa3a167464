"""Refusals the desk shows a person, and the rule module's errors in the reader's language."""

from decimal import Decimal

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


def _param(value):
    """A param as the reader reads it: numbers grouped and with the language's decimal mark
    ("−0,5" in Russian), words of the catalogue translated (the rule modules mark those with a
    `translatable` str, mahjong.messages.Words)."""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return number_format(value, force_grouping=True)
    if getattr(value, "translatable", False):
        return _(value)
    return value


def rule_message(error) -> str:
    """A mahjong.messages RuleError or Problem in the active language.

    The ground floor (mahjong) imports nothing from Django, so it keeps the English template and
    its params apart: translate the template first, then fill it.
    """
    message = _(error.template)
    if not error.params:
        return message
    params = {name: _param(value) for name, value in error.params.items()}
    return message.format(**params)


def refusal(error) -> ActionRefused:
    """A RuleError as the refusal a desk page shows, on the field it names."""
    return ActionRefused(rule_message(error), field=error.field)
