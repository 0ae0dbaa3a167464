"""The tournament file: a whole tournament as one JSON document.

The format is the contract of docs/formats.md, "Tournament file, version 1"; every
name and meaning there is kept. Keys this desk adds (an importer ignores keys it does not know):

- `tournament`: `end_date`, `venue`, `scope`, `single_confirmation`, `keep_apart` (club,
  country, team or empty: the seating's keep-apart field), `language` (en, ru, uk or pl: the
  language of the printouts), `time_zone` (an IANA zone such as Europe/Kyiv, in which every
  time is typed and shown; left out: the importing desk's), `release_by_session` (the public
  pages show a session's results once every table of it is confirmed), `winds` (desk: the
  winds come from the desk's draw; table: they are drawn at each table; left out: desk), and
  the finish:
  `finished_at` and `finished_by` (only while the tournament is finished), `reopened_at`,
  `reopened_by` and `reopen_reason` (the last reopening, only when there was one). A user who
  finished or reopened it and has no account on the importing desk is left out (null);
- `players[]`: `checked_in`; `first_name`, `last_name` (the name's parts, when known: the EMA
  sheet's columns), `latin_first_name`, `latin_last_name` (the name in Latin letters as typed;
  left out: transliterated from the name, docs/features/players-and-names.md "Latin names"), each
  only when not empty;
- `sessions[]`: `method` (manual, draw, balanced, swiss), `seed` (the draw's, plan's or Swiss
  seating's seed, so a seating can be re-run), `ended_at` (when play ended; only when set),
  `clock` (only when set: `length_seconds` and `warning_seconds` when the session has its own,
  and `events`, the session clock's history in order, each `kind` (start, pause, resume, adjust,
  end, reset, reopen: an end taken back at once), `at`, `seconds` (adjust), `table` (adjust for
  one table, else null), `by`);
- `sessions[].tables[]`: `hands_confirmed` (only with `hands`, when a player confirmed one):
  per hand, in order, the winds whose players confirmed it at the table (002 §2.5.8 (4)), so a
  table in play goes on without its players confirming every hand again; restored as confirmed
  at the import's time, by nobody; `winds_drawn_at` and `winds_drawn_by` (only once a table
  whose winds are drawn at the table has recorded its draw; the seats' winds are then the drawn
  ones, and a user with no account on the importing desk is left out); `history`, every
  version of the table's result, oldest first — also the one whose scores are on the seats —
  each with `version`, `status` (draft, confirmed, superseded), `entered_by`, `entered_at`,
  `confirmed_by`, `confirmed_at`, `superseded_at` (user names, ISO 8601 times with an offset),
  `note` and `scores` (per wind: `wind`, `player`, `score`, `chombo`). Without `history`, a
  table's scores become version 1, entered (and for a confirmed table confirmed) by the
  importing user, now;
- `penalties[]` (the live penalties, in the order they were recorded): `table` (the table's
  number in the penalty's session; only when set), `stage` (`before` or `after` placement;
  kind `other` only, and `after` when a file leaves it out), `recorded_by` (user name),
  `recorded_at`. `amount` is written only when the desk stores one (the kinds that take one,
  or an explicit amount from a file); otherwise it comes from the rule set. A minor violation
  takes its place on the progressive scale by its order within the session in this list. Without
  `recorded_by`, the importing user recorded it; without `recorded_at`, now;
- `voided_penalties` (top level): the void penalties, which count nowhere, with the keys of
  `penalties[]` and `voided_by`, `voided_at` (required), `void_reason`;
- `incidents` (top level): the referee's records that are not penalties, in the order they were
  recorded: `kind` (note, substitution, three_handed, disqualification), `session` and
  `table` (numbers, or null), `player` and `substitute` (keys, or null), `text`, `undo` (what
  voiding the incident puts back; players as keys, `table` as {`session`, `table`}, `seat` as
  {`session`, `table`, `wind`}, `winds` as player key → wind), `recorded_by`, `recorded_at`,
  `voided_by`, `voided_at`, `void_reason`;
- `appeals[]`: `captain` (filed by the team captain), `text`, `decided_at`, `deposit_returned`
  (true, false or null while undecided), `late_override` (why it was accepted after the
  window), `recorded_by`, and the decision appealed: `penalty` (the index of the penalty in
  `penalties[]`), `voided_penalty` (its index in `voided_penalties`, when it was voided since)
  or `incident` (its index in `incidents`). Without `recorded_by`, the importing user recorded it;
- `rule_changes`: the audited rule changes (tournament.models.RuleChange).

A user named in a file who does not exist on this desk is kept in the result's note (the rule
change's reason, the penalty's note, the incident's or appeal's text) as
"[imported: entered by NAME; confirmed by NAME]" (roles: entered, confirmed, changed, recorded,
voided), and exported again under the same name, so a file survives a trip through a desk
without those accounts.

A table's `hands` (the format's "Hands (optional)") are played through mahjong.hands.play:
seats without scores take what the hands give (and a riichi seat its chombo hands), seats with
scores or chombo that differ are refused naming the seat, an impossible hand is refused at its
path ("sessions[0].tables[0].hands[3].wins[0].fu: ..."); export writes the current hands. A
table with hands and no result (none sent to the desk, none entered) is written with
`"status": "playing"` and no scores, and read back so: its hands kept, no result made, the
table in play again. A seat with a score on a playing table, or a history whose current version
is a draft or confirmed, is refused. (A file without a status, from before "playing", is read
as the format says: its hands give the scores and the table a confirmed result; the restore
preview names each such table.)

Import checks every live penalty against the file's rule set as the standings will count it
(mahjong.penalties.resolve, minor violations by their order in the file) and refuses the file
at the first one that does not hold, naming it ("penalties[3].amount: ...").

The package, by job: schema.py declares every value once (values.py: the kinds of value) and
writes it as the JSON Schema tournament-file.schema.json; export.py writes a tournament;
reader.py (with tables.py, a session's tables, and records.py, the referee's records) reads a
file into a plan (plan.py) without writing; create.py looks up the users the plan names and
then makes its rows with bulk inserts in one short transaction (the file read and checked
before it, so that a big file holds the database only while it writes); changes.py tells what
a restore would change.
"""

from .changes import Change, changes
from .create import Import, create_tournament, import_tournament, prepare_import
from .errors import TournamentFileError
from .export import dumps, export_tournament
from .reader import UNPACKED_LIMIT, parse, unpacked
from .schema import json_schema

__all__ = [
    "UNPACKED_LIMIT",
    "Change",
    "Import",
    "TournamentFileError",
    "changes",
    "create_tournament",
    "dumps",
    "export_tournament",
    "import_tournament",
    "json_schema",
    "parse",
    "prepare_import",
    "unpacked",
]
