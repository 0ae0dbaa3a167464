"""The public-only file: what a hall's desk sends its federation server (issue 38).

It is the tournament file (archive.tournament_file) or the club rating's file
(archive.club_file) of the newest state, with only what the hall's public pages show, and it
still imports: the mirror's pages are the hall's public pages over the imported copy.

Left out of a tournament:
- the results of a session the public may not see yet (scoring.selectors.released_sessions,
  the public pages' one rule): its tables keep their seats (find my table shows them), without
  scores or hands, and its penalties are left out;
- every table's result that is not confirmed: a table whose only result is a draft shows no
  score (it is "playing" when it has hands, as the format writes a table in play); a table with
  a confirmed result and a newer draft shows the confirmed one (as the public pages do), and
  its hands are left out when the draft is newer (they may be the draft's);
- every version's history (who entered and confirmed, the desk's notes, the drafts), the hands'
  confirmations at the table, who drew the winds, who started the clock, who finished or reopened
  the tournament and why;
- penalties' notes and who recorded them; voided penalties (they count nowhere), the referee's
  incidents, the appeals and the rule changes, none of which a public page shows.

Left out of a club rating: the drafts (a game whose only version is a draft is written with
no version, as a drawn table not played yet), the notes, who was present at an evening, who
closed a season. The club file requires a user for who created a game and who entered a version
(archive.club_file.restore): the file names `PUBLIC_USER` there, never a person.
"""

from archive.club_file import export_club
from archive.tournament_file import export_tournament
from club.models import Club
from scoring.selectors import released_sessions
from tournament.models import Tournament

# The user a public club file names where the club file requires one (archive.club_file).
PUBLIC_USER = "hall"

# What a tournament head may carry that names a person or is the desk's own words.
_HEAD_PRIVATE = ("finished_by", "reopened_by", "reopen_reason")
# What of a table never goes out: every version (users, notes, drafts), who confirmed which
# hand at the table, who drew the winds.
_TABLE_PRIVATE = ("history", "hands_confirmed", "winds_drawn_by")
# What of a live penalty never goes out.
_PENALTY_PRIVATE = ("note", "recorded_by", "voided_by", "voided_at", "void_reason")
_SCORE_KEYS = ("score", "chombo")


def public_tournament_file(tournament: Tournament) -> dict:
    """The tournament file of what the tournament's public pages show (the module's doc)."""
    data = export_tournament(tournament)
    return public_of_tournament_file(data, released_sessions(tournament))


def public_of_tournament_file(data: dict, released: set[int] | None) -> dict:
    """`data` (export_tournament's dict, changed in place and returned) with only what the
    public sees; `released` is released_sessions' answer for it (None: every session)."""
    head = data["tournament"]
    for name in _HEAD_PRIVATE:
        head.pop(name, None)
    for session in data["sessions"]:
        shown = released is None or session["number"] in released
        for event in session.get("clock", {}).get("events", ()):
            event["by"] = None
        for table in session["tables"]:
            _public_table(table, shown)
    data["penalties"] = [
        {k: v for k, v in p.items() if k not in _PENALTY_PRIVATE}
        for p in data["penalties"]
        if released is None or p["session"] in released
    ]
    data["voided_penalties"] = []
    data["incidents"] = []
    data["appeals"] = []
    data["rule_changes"] = []
    return data


def _public_table(table: dict, shown: bool) -> None:
    history = table.get("history") or []
    for name in _TABLE_PRIVATE:
        table.pop(name, None)
    unconfirmed = table.get("status") == "draft"
    if not shown or unconfirmed:
        for seat in table["seats"]:
            for name in _SCORE_KEYS:
                seat.pop(name, None)
        table.pop("status", None)
        if not shown:
            table.pop("hands", None)
        elif table.get("hands"):
            table["status"] = "playing"
    elif history and history[-1]["status"] == "draft" and table.get("hands"):
        # A correction waits at the desk: the seats hold the confirmed version, whose hands the
        # table may no longer have.
        del table["hands"]


def public_club_file(club: Club) -> dict:
    """The club rating's file of what its public pages show (the module's doc)."""
    return public_of_club_file(export_club(club))


def public_of_club_file(data: dict) -> dict:
    """`data` (export_club's dict, changed in place and returned) with only what the public
    sees."""
    for season in data["seasons"]:
        season["closed_by"] = None
    for evening in data["evenings"]:
        evening["present"] = []
    for game in data["games"]:
        game["created_by"] = PUBLIC_USER
        versions = [v for v in game["versions"] if v["status"] != "draft"]
        for version in versions:
            version["entered_by"] = PUBLIC_USER
            if version["confirmed_by"] is not None:
                version["confirmed_by"] = PUBLIC_USER
            version["note"] = ""
        game["versions"] = versions
    return data
