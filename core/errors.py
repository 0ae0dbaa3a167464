"""The refusals every room raises and every page shows: the message names the field."""


class ActionRefused(Exception):
    """An action the desk must refuse, with a message for the person who asked."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.message = message
        self.field = field
