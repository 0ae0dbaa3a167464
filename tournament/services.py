"""Every write to tournaments, players and sessions: one function per action, in a transaction."""

from django.db import transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from scoring.rules import RuleError, rules_overrides, ruleset_from

from .models import Player, RuleChange, Session, Tournament


def touch(tournament_id):
    """Mark everything the public pages show of this tournament as changed, and back it up
    once the change is committed (tournament.backups)."""
    from .backups import schedule
    from .public_cache import forget

    Tournament.objects.filter(pk=tournament_id).update(revision=F("revision") + 1)
    # Now (this request's next page) and after the commit (everybody else's next page).
    forget(tournament_id)
    transaction.on_commit(lambda: forget(tournament_id))
    schedule(tournament_id)


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "tournament"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def has_confirmed_results(tournament) -> bool:
    from scoring.models import Result

    return Result.objects.filter(
        table__session__tournament=tournament, status=Result.Status.CONFIRMED
    ).exists()


@transaction.atomic
def save_tournament(tournament: Tournament) -> Tournament:
    if not tournament.slug:
        tournament.slug = unique_slug(tournament.name)
    tournament.save()
    touch(tournament.pk)
    return tournament


@transaction.atomic
def change_rules(tournament: Tournament, ruleset: str, rules, user, reason: str = ""):
    """Set the tournament's rule set; once results are confirmed only with a recorded reason.

    Standings are always computed from the current rules, so the change recomputes everything.
    """
    try:
        new = ruleset_from(ruleset, rules)
    except RuleError as e:
        raise ActionRefused(e.message, field=e.field) from e
    overrides = rules_overrides(new)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.ruleset == ruleset and tournament.rules == overrides:
        return tournament
    frozen = has_confirmed_results(tournament)
    if frozen and not reason.strip():
        raise ActionRefused(
            _("The rules are frozen: results are confirmed. Give a reason to change them."),
            field="reason",
        )
    if frozen:
        RuleChange.objects.create(
            tournament=tournament,
            changed_by=user,
            old_ruleset=tournament.ruleset,
            old_rules=tournament.rules,
            new_ruleset=ruleset,
            new_rules=overrides,
            reason=reason.strip(),
        )
    tournament.ruleset = ruleset
    tournament.rules = overrides
    tournament.save(update_fields=["ruleset", "rules"])
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
    if not player.key:
        player.key = next_player_key(player.tournament)
    player.full_clean()
    player.save()
    touch(player.tournament_id)
    return player


@transaction.atomic
def import_players(tournament, rows: list[dict]) -> int:
    """Create the players of an already validated list (tournament.player_import)."""
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
    return player


@transaction.atomic
def add_session(tournament) -> Session:
    last = tournament.sessions.order_by("-number").first()
    session = Session.objects.create(tournament=tournament, number=(last.number + 1) if last else 1)
    touch(tournament.pk)
    return session
