"""The one error a tournament file can raise, and how it quotes the value it refuses."""

import json


class TournamentFileError(Exception):
    """The first problem found in a tournament file, with the JSON path of the value."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def show(value) -> str:
    """A value as the file has it, cut short for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
