"""The scoring writes, one module per job: `results` (a table's result entered, saved and
confirmed), `rule_changes` (the tournament's rule set changed), `finish` (the tournament finished
and reopened), `hands` (the table's own score sheet: hands recorded, undone, corrected,
confirmed, and sent to the desk) and `typed` (hands typed at the desk from a paper protocol, and
a confirmed table's hands corrected). This package publishes their names, so
`from scoring.services import confirm_result` reads as before; the modules import each other
directly."""

from scoring.services.finish import finish_tournament, reopen_tournament
from scoring.services.hands import (
    HandConflict,
    HandRefused,
    confirm_hand,
    correct_hand,
    may_send,
    record_hand,
    send_hands_result,
    undo_last_hand,
)
from scoring.services.results import (
    CONFIRMED,
    SAVED,
    UNCHANGED,
    confirm_result,
    enter_result,
    latest_result,
    refuse_scores,
    save_result,
    seats_in_order,
    wind_label,
)
from scoring.services.rule_changes import change_rules
from scoring.services.typed import (
    NOTE_MAX,
    correct_confirmed_hands,
    record_hands,
    replace_hands,
    save_typed_hands,
)

__all__ = [
    "CONFIRMED",
    "NOTE_MAX",
    "SAVED",
    "UNCHANGED",
    "HandConflict",
    "HandRefused",
    "change_rules",
    "confirm_hand",
    "confirm_result",
    "correct_confirmed_hands",
    "correct_hand",
    "enter_result",
    "finish_tournament",
    "latest_result",
    "may_send",
    "record_hand",
    "record_hands",
    "refuse_scores",
    "reopen_tournament",
    "replace_hands",
    "save_result",
    "save_typed_hands",
    "seats_in_order",
    "send_hands_result",
    "undo_last_hand",
    "wind_label",
]
