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
    """Who the draw seats: the checked-in players when check-in was used, else every active one,
    less anyone already seated by hand in this session. Substitutes are not in it."""
    seated = set(session.seats.values_list("player_id", flat=True))
    players = [
        p
        for p in session.tournament.players.filter(status=Player.Status.ACTIVE, substitute=False)
        if p.pk not in seated
    ]
    checked = [p for p in players if p.checked_in]
    return checked if checked else players


def substitutes_to_fill(session, count: int) -> list[Player]:
    """Substitutes who make a riichi field a multiple of four: checked-in ones first."""
    missing = -count % 4
    if not missing:
        return []
    seated = set(session.seats.values_list("player_id", flat=True))
    pool = [
        p
        for p in session.tournament.players.filter(status=Player.Status.ACTIVE, substitute=True)
        if p.pk not in seated
    ]
    pool.sort(key=lambda p: (not p.checked_in, p.name))
    return pool[:missing]


def _create_tables(session, tables: list[list[Player]]):
    start = (session.tables.order_by("-number").values_list("number", flat=True).first()) or 0
    for offset, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=start + offset)
        for wind, player in zip(WINDS, players, strict=False):
            Seat.objects.create(table=table, session=session, wind=wind, player=player)


@transaction.atomic
def draw_session(session: Session, seed: int | None = None) -> Session:
    """Seat the draw pool at random tables with random winds; the seed is kept for a re-run.

    Tables already made by hand stay; the draw seats everyone else after them. A riichi field
    that is not a multiple of four is filled from the substitutes.
    """
    session = Session.objects.select_for_update().get(pk=session.pk)
    pool = draw_pool(session)
    if not pool:
        raise ActionRefused(_("There is nobody left to seat in this session."))
    sichuan = is_sichuan(session)
    if not sichuan:
        pool += substitutes_to_fill(session, len(pool))
    seed = secrets.randbits(48) if seed is None else seed
    by_key = {p.key: p for p in pool}
    try:
        drawn = draw_tables(list(by_key), seed, three_player=sichuan)
    except DrawError as e:
        missing = 4 - e.args[0]
        raise ActionRefused(
            ngettext(
                "%(count)d players cannot fill tables of four and there are not enough "
                "substitutes: %(missing)d more player is needed.",
                "%(count)d players cannot fill tables of four and there are not enough "
                "substitutes: %(missing)d more players are needed.",
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
