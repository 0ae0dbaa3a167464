"""Seating writes: tables made by hand or by the random draw. One function per action."""

import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import Player, Session
from tournament.services import ActionRefused, touch

from .algorithms.draw import WINDS, DrawError, draw_tables
from .models import Seat, Table


def is_sichuan(session) -> bool:
    return session.tournament.rule_set().game == "sichuan"


def draw_pool(session) -> list[Player]:
    """Who the draw seats: the checked-in players when check-in was used, else every active one.

    Substitutes are a pool for the director to seat by hand, never drawn.
    """
    players = list(session.tournament.players.filter(status=Player.Status.ACTIVE, substitute=False))
    checked = [p for p in players if p.checked_in]
    return checked if checked else players


def _create_tables(session, tables: list[list[Player]]):
    start = (session.tables.order_by("-number").values_list("number", flat=True).first()) or 0
    for offset, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=start + offset)
        for wind, player in zip(WINDS, players, strict=False):
            Seat.objects.create(table=table, session=session, wind=wind, player=player)


@transaction.atomic
def draw_session(session: Session, seed: int | None = None) -> Session:
    """Seat the draw pool at random tables with random winds; the seed is kept for a re-run."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.tables.exists():
        raise ActionRefused(_("This session is already seated."))
    pool = draw_pool(session)
    if not pool:
        raise ActionRefused(_("There are no active players to seat."))
    seed = secrets.randbits(48) if seed is None else seed
    by_key = {p.key: p for p in pool}
    try:
        drawn = draw_tables(list(by_key), seed, three_player=is_sichuan(session))
    except DrawError as e:
        missing = 4 - e.args[0]
        raise ActionRefused(
            ngettext(
                "%(count)d players cannot fill tables of four: seat %(missing)d substitute "
                "by hand or check in one more player.",
                "%(count)d players cannot fill tables of four: seat %(missing)d substitutes "
                "by hand or check in more players.",
                missing,
            )
            % {"count": len(pool), "missing": missing}
        ) from e
    _create_tables(session, [[by_key[k] for k in table] for table in drawn])
    session.method = Session.Method.DRAW
    session.seed = seed
    session.save(update_fields=["method", "seed"])
    touch(session.tournament_id)
    return session


@transaction.atomic
def add_table(session: Session, players: list[Player]) -> Table:
    """A table made by hand: players in wind order E, S, W, N.

    Sichuan also has three-player tables (no North) and awarded tables of one or two players
    (RULES.md §3, 002 §3.1); riichi tables have four.
    """
    players = [p for p in players if p is not None]
    sizes = (1, 2, 3, 4) if is_sichuan(session) else (4,)
    if len(players) not in sizes:
        raise ActionRefused(
            _("A table needs four players (Sichuan: three, or one or two at an awarded table).")
        )
    if len({p.pk for p in players}) != len(players):
        raise ActionRefused(_("A player can sit only once at a table."))
    seated = set(session.seats.values_list("player_id", flat=True))
    for wind, p in zip(WINDS, players, strict=False):
        if p.pk in seated:
            raise ActionRefused(
                _("%(name)s is already seated in this session.") % {"name": p.name}, field=wind
            )
        if p.tournament_id != session.tournament_id:
            raise ActionRefused(_("%(name)s is not in this tournament.") % {"name": p.name})
    try:
        with transaction.atomic():
            _create_tables(session, [players])
    except IntegrityError as e:
        raise ActionRefused(_("The seating changed meanwhile: reload the page.")) from e
    touch(session.tournament_id)
    return session.tables.order_by("-number").first()


@transaction.atomic
def delete_table(table: Table):
    """Remove a table that has no result yet; seating with results stays as it was played."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.results.exists():
        raise ActionRefused(_("This table has results; its seating cannot be removed."))
    tournament_id = table.session.tournament_id
    table.delete()
    touch(tournament_id)
