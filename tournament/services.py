"""Every write to tournaments, players and sessions: one function per action, in a transaction."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from core.text import address_slug
from people.models import NAMED_FIELDS, Person
from people.services import create_person
from tournament.changes import touch
from tournament.models import RESERVED_SLUGS, SESSIONS_MAX, Player, Session, Tournament


def refuse_if_finished(tournament_id) -> None:
    """The one guard of a finished tournament: every write that would change its results,
    penalties, seating, players or rules calls it first, and is refused until the director
    reopens the tournament. Read from the database, not from the caller's copy, which may
    have been loaded before the finish."""
    if Tournament.objects.filter(pk=tournament_id, finished_at__isnull=False).exists():
        raise ActionRefused(
            _(
                "The tournament is finished: its results are final. The director can reopen it "
                "on the dashboard (Finish the tournament) to change anything."
            )
        )


def unique_slug(name: str, language: str = "") -> str:
    base = address_slug(name, language)[:70] or "tournament"
    slug, n = (f"{base}-2", 3) if base in RESERVED_SLUGS else (base, 2)
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def save_tournament(tournament: Tournament) -> Tournament:
    if not tournament.slug:
        tournament.slug = unique_slug(tournament.name, tournament.language)
    tournament.save()
    touch(tournament.pk)
    return tournament


def next_player_key(tournament) -> str:
    keys = set(tournament.players.values_list("key", flat=True))
    n = len(keys) + 1
    while f"p{n:03d}" in keys:
        n += 1
    return f"p{n:03d}"


@transaction.atomic
def save_player(player: Player) -> Player:
    refuse_if_finished(player.tournament_id)
    if not player.key:
        player.key = next_player_key(player.tournament)
    player.full_clean()
    player.save()
    touch(player.tournament_id)
    return player


@transaction.atomic
def import_players(tournament, rows: list[dict]) -> int:
    """Create the players of an already validated list (tournament.player_import)."""
    refuse_if_finished(tournament.pk)
    existing = set(tournament.players.values_list("key", flat=True))
    n = len(existing)
    created = []
    for row in rows:
        key = row.get("key") or ""
        while not key or key in existing:
            n += 1
            key = f"p{n:03d}"
        existing.add(key)
        player = Player(tournament=tournament, **{**row, "key": key})
        player.full_clean()
        created.append(player)
    for player in created:
        player.save()  # one by one so each gets its history row
    touch(tournament.pk)
    return len(created)


@transaction.atomic
def set_checked_in(player: Player, checked_in: bool) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.checked_in != checked_in:
        player.checked_in = checked_in
        player.save(update_fields=["checked_in"])
        touch(player.tournament_id)
    return player


@transaction.atomic
def add_session(tournament) -> Session:
    refuse_if_finished(tournament.pk)
    last = tournament.sessions.order_by("-number").first()
    if last and last.number >= SESSIONS_MAX:
        raise ActionRefused(
            ngettext(
                "A tournament has at most %(max)d session.",
                "A tournament has at most %(max)d sessions.",
                SESSIONS_MAX,
            )
            % {"max": SESSIONS_MAX}
        )
    session = Session.objects.create(tournament=tournament, number=(last.number + 1) if last else 1)
    touch(tournament.pk)
    return session


NEW_PERSON = "new"


@transaction.atomic
def link_players(tournament, choices: dict, user) -> int:
    """Link the tournament's players to people as the director chose (issue 25): player id ->
    a person's id, NEW_PERSON (a person made from the player's name fields), or None (left as
    it is). All or nothing: an unknown player or person, or a person merged into another, is
    refused and links none. Returns how many players were linked."""
    players = {p.pk: p for p in Player.objects.select_for_update().filter(tournament=tournament)}
    wanted = {}
    for player_id, choice in choices.items():
        player = players.get(_id(player_id))
        if player is None:
            raise ActionRefused(_("No such player in this tournament."), field="player")
        if choice is None or choice == "":
            continue
        wanted[player.pk] = choice
    chosen_ids = {_id(c) for c in wanted.values() if c != NEW_PERSON}
    people = Person.objects.select_for_update().in_bulk([i for i in chosen_ids if i is not None])
    for choice in wanted.values():
        if choice == NEW_PERSON:
            continue
        person = people.get(_id(choice))
        if person is None:
            raise ActionRefused(_("No such person on the desk."), field="person")
        if person.merged_into_id:
            raise ActionRefused(
                _("%(name)s was merged into another person: choose that one.")
                % {"name": person.name},
                field="person",
            )
    linked = 0
    for player_id, choice in wanted.items():
        player = players[player_id]
        if choice == NEW_PERSON:
            person = create_person({name: getattr(player, name) for name in NAMED_FIELDS}, user)
        else:
            person = people[_id(choice)]
        if player.person_id == person.pk:
            continue
        player.person = person
        player._history_user = user
        player.save(update_fields=["person"])
        linked += 1
    if linked:
        touch(tournament.pk)
    return linked


def _id(value) -> int | None:
    """An id as a form or a caller gives it (a number or its digits); None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 12:
        return int(value)
    return None
