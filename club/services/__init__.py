"""A club rating's writes (issue 25): each one function in one transaction, ending with
`touch_club()`, one module per thing written: `clubs` (the club's settings and its seasons),
`members`, `evenings` (who is present, and the tables drawn from them) and `games` (each entry
or correction a new version, confirmed by a second officer, as a tournament's results,
scoring.services); `checks` holds the model check they all start with. This package publishes
their names, so `from club.services import record_game` reads as before."""

from .clubs import CLUB_FIELDS, close_season, save_club, save_season, season_on
from .evenings import check_in, draw_evening, evening_on
from .games import SEATS, confirm_game, latest_version, record_game, void_game
from .members import add_member, add_new_member, set_member_active

__all__ = [
    "CLUB_FIELDS",
    "SEATS",
    "add_member",
    "add_new_member",
    "check_in",
    "close_season",
    "confirm_game",
    "draw_evening",
    "evening_on",
    "latest_version",
    "record_game",
    "save_club",
    "save_season",
    "season_on",
    "set_member_active",
    "void_game",
]
