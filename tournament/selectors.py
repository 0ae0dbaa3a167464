"""What several pages ask of the tournament's players, written once."""

from operator import attrgetter
from typing import NamedTuple

from django.db.models import Count, Q

from core.collation import collated
from mahjong.mers import weight
from people.selectors import candidates
from tournament.models import Player, Tournament

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


class Mers(NamedTuple):
    weight: object  # mahjong.mers.Weight
    missing_ema: list  # names of the counted players without an EMA id, in the reader's order
    dated: bool  # the start date is known (else one day is assumed)


def mers(tournament) -> Mers:
    """What the EMA ranking will count the tournament for (mahjong.mers), from what the desk
    knows: the days from its start to its end date, the players not excluded and the
    substitutes who sat at a table (at most three count), their countries, the qualification
    flag; and who among them has no EMA id yet. Two queries."""
    counted = tournament.players.exclude(status=Player.Status.EXCLUDED).filter(
        Q(substitute=False) | Q(seats__isnull=False)
    )
    rows = list(counted.distinct().values_list("name", "substitute", "country", "ema_id"))
    start, end = tournament.start_date, tournament.end_date
    days = (end - start).days + 1 if start and end and end >= start else 1
    found = weight(
        days,
        sum(1 for _n, sub, _c, _e in rows if not sub),
        sum(1 for _n, sub, _c, _e in rows if sub),
        len({country.strip().upper() for _n, _s, country, _e in rows if country.strip()}),
        tournament.mers_qualification,
    )
    missing = collated((name for name, _s, _c, ema in rows if not ema.strip()), tournament.language)
    return Mers(found, missing, start is not None)


class Matches(NamedTuple):
    unlinked: list  # players without a person, in name order, each with `candidates`
    linked: list  # players linked to a person, in name order (person loaded)


def people_matches(tournament) -> Matches:
    """The tournament's players and the people they may be (people.selectors.candidates): the
    desk's matches page, and what an import or a restore says about them. Two queries."""
    players = collated(
        tournament.players.select_related("person"), tournament.language, attrgetter("name")
    )
    found = candidates(players)
    unlinked = []
    for player in players:
        if player.person_id is None:
            player.candidates = found[player.pk]
            unlinked.append(player)
    return Matches(unlinked, [p for p in players if p.person_id is not None])


def unlinked_counts(tournament) -> tuple[int, int]:
    """(players without a person who match someone, players without a person): what the import
    and restore pages say before they offer the matches page."""
    unlinked = people_matches(tournament).unlinked
    return sum(1 for p in unlinked if p.candidates), len(unlinked)


def page_tournament(request, slug) -> Tournament | None:
    """The tournament at a page's address, read once a request: the time-zone middleware
    (tournament.middleware.TournamentZone) reads it before the view, and the view
    (tournament.mixins.TournamentMixin) takes the same one. None when no tournament has the
    slug."""
    read = request.__dict__.setdefault("tournaments_read", {})
    if slug not in read:
        read[slug] = Tournament.objects.filter(slug=slug).first()
    return read[slug]
