"""What several pages, printouts, workbooks, the feed and the file ask of the results: the
bridge from the database to the pure standings module, the penalties with what each is worth,
and the state of each table. Written once here so that no two of them can disagree.

One module per question: `snapshot` (the seating and confirmed scores, read once per revision),
`sessions` (which session it is now, which are over, which the public sees), `ranking` (the
standings and each table's lines), `penalties` (each penalty's worth), `hands` (the tables'
hands and score sheets), `tables` (each table's state and drafts), `finish` (what is still
open at the finish), `statistics` (from the hands) and `people` (a person across events). This
package publishes their names, so `from scoring.selectors import standings` reads as before.
"""

from scoring.selectors.finish import OpenTable, Unfinished, unfinished
from scoring.selectors.hands import (
    Sheet,
    current_hands,
    hand_changes,
    hands_entries,
    hands_outcome,
    last_hand,
    leading_tables,
    session_sheets,
    table_hands,
)
from scoring.selectors.penalties import (
    PenaltyWorth,
    penalties_with_worth,
    penalty_rows,
    worth_if_recorded,
    worth_text,
)
from scoring.selectors.people import PersonEvent, person_events
from scoring.selectors.ranking import (
    TableLine,
    has_confirmed_results,
    public_standings,
    session_lines,
    standings,
    standings_order,
    standings_row,
    table_lines,
)
from scoring.selectors.sessions import (
    Now,
    last_started,
    released_sessions,
    session_now,
    session_on,
    session_over,
)
from scoring.selectors.snapshot import (
    NEW_BY_ID,
    confirmed_scores,
    player_rows,
    seating,
    session_seating,
    substitutions,
    table_rows,
)
from scoring.selectors.statistics import HandStatistics, PlayerHands, hand_statistics
from scoring.selectors.tables import (
    Recorded,
    TableState,
    done,
    draft_scores,
    recorded_tables,
    table_states,
)

__all__ = [
    "NEW_BY_ID",
    "HandStatistics",
    "Now",
    "OpenTable",
    "PenaltyWorth",
    "PersonEvent",
    "PlayerHands",
    "Recorded",
    "Sheet",
    "TableLine",
    "TableState",
    "Unfinished",
    "confirmed_scores",
    "current_hands",
    "done",
    "draft_scores",
    "hand_changes",
    "hand_statistics",
    "hands_entries",
    "hands_outcome",
    "has_confirmed_results",
    "last_hand",
    "last_started",
    "leading_tables",
    "penalties_with_worth",
    "penalty_rows",
    "person_events",
    "player_rows",
    "public_standings",
    "recorded_tables",
    "released_sessions",
    "seating",
    "session_lines",
    "session_now",
    "session_on",
    "session_over",
    "session_seating",
    "session_sheets",
    "standings",
    "standings_order",
    "standings_row",
    "substitutions",
    "table_hands",
    "table_lines",
    "table_rows",
    "table_states",
    "unfinished",
    "worth_if_recorded",
    "worth_text",
]
