"""What several pages ask of the tournament's players, written once."""

from django.db.models import Count, Q

from tournament.models import Player

ACTIVE = Q(status=Player.Status.ACTIVE)


def player_counts(tournament) -> dict:
    """One query: players not excluded (`total`); active regular players (`expected`) and how
    many of them are checked in (`checked`); substitutes (`substitutes`) and how many of the
    active ones are checked in (`substitutes_checked`). Substitutes are a pool, counted apart;
    `not_multiple`: the checked-in field cannot fill tables of four."""
    counts = tournament.players.aggregate(
        total=Count("id", filter=~Q(status=Player.Status.EXCLUDED)),
        expected=Count("id", filter=ACTIVE & Q(substitute=False)),
        checked=Count("id", filter=ACTIVE & Q(substitute=False, checked_in=True)),
        substitutes=Count("id", filter=Q(substitute=True)),
        substitutes_checked=Count("id", filter=ACTIVE & Q(substitute=True, checked_in=True)),
    )
    counts["not_multiple"] = counts["checked"] % 4 != 0
    return counts


def latin_names(tournament) -> dict[str, tuple[str, str]]:
    """One query: each player's key → (first name, last name) in Latin letters, as the EMA
    gets them (Player.latin_parts, in the tournament's printing language)."""
    return {p.key: p.latin_parts(tournament.language) for p in tournament.players.all()}
