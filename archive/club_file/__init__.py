"""The club rating's file (issue 25, "nothing is lost"): a club as one JSON document, written as
its backup after every change (archive.backups) and read back by `manage.py restore_club`.

    {"format": "mahjong-desk-club", "version": 1,
     "club": {name, slug, ruleset, min_games, single_confirmation, language, time_zone},
     "people": [{id, name, first_name, last_name, latin_first_name, latin_last_name, ema_id,
                 country, club}],
     "members": [{person, joined_on, active}],
     "seasons": [{name, start, end, closed_at, closed_by}],
     "evenings": [{date, present: [{person, by, at}]}],
     "games": [{played_on, number, evening (its date, or null), created_by, created_at,
                seats: [{wind, person}] (a drawn table's),
                versions: [{version, status, void, closed_season_override, entered_by,
                            entered_at, confirmed_by, confirmed_at, superseded_at, note,
                            scores: [{wind, person, score, chombo}]}]}]}

Every version of every game is kept. Users are named by their username, people by an id of the
file's own (`people[].id`); dates are ISO 8601, times ISO 8601 with their offset.

A restore reads the file into a new club in one transaction: every value is checked by the
models' own declarations (full_clean), every reference by the file (a person, an evening, a
wind), and the scores of a confirmed version or a draft by the rule set
(mahjong.table.validate_scores), each person in one seat; the first problem is refused naming
its path ("games[3].versions[0].scores[2].score: ...") and nothing is stored. Games, their
seats, versions and scores are bulk inserted (a club of 10,000 games), so their values are
checked without their foreign keys and constraints, which the reader checks itself.

The package by job: `export` writes the file, `restore` reads it into a new club (or in the
place of the club of its slug: `replace_club`).
"""

from .export import FORMAT, VERSION, export_club
from .restore import Restored, delete_club, replace_club, restore_club

__all__ = [
    "FORMAT",
    "VERSION",
    "Restored",
    "delete_club",
    "export_club",
    "replace_club",
    "restore_club",
]
