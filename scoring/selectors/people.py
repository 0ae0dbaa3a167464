"""People across events (issue 25): every tournament a person played and how it ended."""

from datetime import date
from typing import NamedTuple

from scoring.selectors.ranking import has_confirmed_results, standings_row
from tournament.models import Player


class PersonEvent(NamedTuple):
    """One event of a person: the tournament, the player it was there, and how it ended."""

    tournament: object  # tournament.models.Tournament
    player: Player
    rank: int | None  # None: unranked (a substitute, or no result yet)
    total: int | float | None


def person_events(person) -> list[PersonEvent]:
    """Every tournament a person played (each player linked to them), newest first, with the
    player's rank and total from the standings the desk shows (standings(): every session,
    as on the desk's pages; a finished tournament's are the final ones). One query for the
    players, then each tournament's cached standings."""
    players = Player.objects.filter(person=person).select_related("tournament")
    events = []
    for player in players:
        tournament = player.tournament
        row = standings_row(tournament, player.key) if has_confirmed_results(tournament) else None
        events.append(
            PersonEvent(
                tournament,
                player,
                row.rank if row else None,
                row.total if row else None,
            )
        )
    events.sort(key=lambda e: (e.tournament.start_date or date.min, e.tournament.pk), reverse=True)
    return events
