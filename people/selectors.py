"""What several pages ask of people, written once: the people a player may be, the desk's list of
people, a person's history of merges and splits.

Matching (issue 25, "People"): a player matches a person who has the same EMA id, or the same
name and the same country. Names and countries are compared folded (core.search.fold: no case,
no accents, no apostrophes), a name's words in any order ("Wójcik Łukasz" is "lukasz wojcik");
an empty country matches an empty country only, so a player without a country is not offered
every namesake. Two different EMA ids are two different people, whatever their names. People
merged into another are never offered: the one they were merged into is, when their name or EMA
id matches (the person kept may be called otherwise).
"""

from collections import defaultdict

from django.db.models import Count, Q

from core.search import Needle, fold
from people.models import Person, PersonChange


def name_key(name: str, country: str) -> tuple[str, str]:
    """What a name and a country match by: the folded name's words in order, the folded country."""
    return " ".join(sorted(fold(name).split())), fold(country)


def candidates(players) -> dict[int, list[Person]]:
    """Player id -> the people it may be, for each player without a person (anything with pk,
    name, ema_id, country and person_id): those with its EMA id first, then its namesakes. One
    query for all people, grouped here, however many players."""
    people = {person.pk: person for person in Person.objects.all()}
    by_ema, by_name = defaultdict(list), defaultdict(list)
    for person in people.values():
        kept = _kept(person, people)
        if person.ema_id and kept not in by_ema[person.ema_id]:
            by_ema[person.ema_id].append(kept)
        key = name_key(person.name, person.country)
        if kept not in by_name[key]:
            by_name[key].append(kept)
    found = {}
    for player in players:
        if player.person_id is not None:
            continue
        same_ema = by_ema.get(player.ema_id, []) if player.ema_id else []
        namesakes = [
            person
            for person in by_name.get(name_key(player.name, player.country), [])
            if person not in same_ema
            and not (player.ema_id and person.ema_id and person.ema_id != player.ema_id)
        ]
        found[player.pk] = same_ema + namesakes
    return found


def _kept(person, people: dict) -> Person:
    """The person a merged one was merged into, however many merges on (itself if not merged)."""
    seen = set()
    while person.merged_into_id is not None and person.pk not in seen:
        seen.add(person.pk)
        person = people[person.merged_into_id]
    return person


def people_list(query: str = ""):
    """Every person not merged into another, with how many events (players) and club
    memberships each has, those a search finds (core.search.Needle, as at check-in)."""
    needle = Needle(query)
    people = Person.objects.filter(merged_into__isnull=True).annotate(
        events=Count("players", distinct=True), clubs=Count("memberships", distinct=True)
    )
    return [p for p in people if needle.matches(p.name) or (p.ema_id and p.ema_id == query.strip())]


def person_changes(person) -> list[PersonChange]:
    """The merges and splits a person took part in, newest first, each merge with `undone`
    (its split, or None)."""
    changes = list(
        PersonChange.objects.filter(Q(kept=person) | Q(other=person)).select_related(
            "kept", "other", "by"
        )
    )
    splits = {c.undoes_id: c for c in changes if c.kind == PersonChange.Kind.SPLIT}
    for change in changes:
        change.undone = splits.get(change.pk)
    return changes
