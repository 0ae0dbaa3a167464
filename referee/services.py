"""The referee's writes: penalties, substitutions, three-handed tables, disqualification and
incidents. One function per action, each in a transaction; every record keeps who and when,
and voiding marks a record void instead of deleting it.
"""

from collections import defaultdict
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from core.errors import ActionRefused, refusal
from core.numbers import decimal_limit, fits, plain_number
from core.roles import is_director, is_head_referee
from core.undo import undo_open
from mahjong.messages import RuleError
from mahjong.penalties import MINOR, OTHER, resolve
from mahjong.table import three_player
from referee.models import Incident
from scoring.models import Penalty, Result
from seating.models import WINDS, Seat, SeatingChange, Table
from seating.services import record
from tournament.changes import touch
from tournament.models import Player, Session
from tournament.services import refuse_if_finished


def _player_table(session, player):
    seat = Seat.objects.filter(session=session, player=player).select_related("table").first()
    return seat.table if seat else None


def _check_player(session, player):
    if player.tournament_id != session.tournament_id:
        raise ActionRefused(_("This player is not in this tournament."), field="player")


@transaction.atomic
def record_penalty(
    session: Session,
    player: Player,
    kind: str,
    user,
    *,
    minutes=None,
    amount=None,
    stage: str = "",
    note: str = "",
    table: Table | None = None,
) -> Penalty:
    """Record one penalty; its amount comes from the rule set unless the kind takes one.

    A free amount ("other") is the director's; an amount outside the rule set's range, a kind
    the rule set does not have or a missing number is refused with the field named.
    """
    refuse_if_finished(session.tournament_id)
    _check_player(session, player)
    if kind not in Penalty.Kind.values:
        raise ActionRefused(_("Choose what kind of penalty this is."), field="kind")
    rules = session.tournament.rule_set()
    if (
        kind == OTHER
        and not is_director(user)
        and not _past_the_scale(session, player, rules, user)
    ):
        raise ActionRefused(_("Only the director records a penalty of another kind."), "kind")
    if amount is not None and not fits(Decimal(str(amount)), Penalty._meta.get_field("amount")):
        raise ActionRefused(
            _("The amount must be below %(limit)s, with at most two decimals.")
            % {"limit": number_format(decimal_limit(Penalty._meta.get_field("amount")))},
            field="amount",
        )
    order = 1
    if kind == MINOR:
        order += Penalty.objects.filter(
            session=session, player=player, kind=MINOR, voided_at=None
        ).count()
    try:
        resolve(
            rules,
            kind,
            minutes=minutes,
            amount=plain_number(amount),
            order=order,
            stage=(stage or None) if kind == OTHER else None,
        )
    except RuleError as e:
        raise refusal(e) from e
    penalty = Penalty.objects.create(
        session=session,
        player=player,
        table=table or _player_table(session, player),
        kind=kind,
        minutes=minutes if kind == "late" else None,
        amount=amount if kind in ("misconduct", OTHER) else None,
        stage=stage if kind == OTHER else "",
        note=note.strip(),
        recorded_by=user,
        recorded_at=timezone.now(),
    )
    touch(session.tournament_id, seating=False)
    return penalty


def _past_the_scale(session, player, rules, user) -> bool:
    """002 §2.8.2: past −48 GP the head referee may add a penalty in TP (after placement)."""
    if not rules.progressive_scale or not is_head_referee(user):
        return False
    done = Penalty.objects.filter(session=session, player=player, kind=MINOR, voided_at=None)
    return done.count() >= len(rules.progressive_scale)


def _void(record, user, reason: str, by_decision: bool = False):
    """by_decision: the caller checked who may void (decide_appeal who decides an appeal,
    undo_penalty that the one who recorded it takes it back at once)."""
    if not by_decision and not is_director(user):
        raise ActionRefused(_("Only the director voids a record."))
    if record.voided_at is not None:
        raise ActionRefused(_("This record is already void."))
    if not reason.strip():
        raise ActionRefused(_("Give the reason for voiding it."), field="reason")
    record.voided_by = user
    record.voided_at = timezone.now()
    record.void_reason = reason.strip()


@transaction.atomic
def void_penalty(penalty: Penalty, user, reason: str, by_decision: bool = False) -> Penalty:
    """Mark a penalty void: it stays in the records and the history, and leaves the standings."""
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    refuse_if_finished(penalty.session.tournament_id)
    _void(penalty, user, reason, by_decision)
    penalty.save(update_fields=["voided_by", "voided_at", "void_reason"])
    touch(penalty.session.tournament_id, seating=False)
    return penalty


@transaction.atomic
def undo_penalty(penalty: Penalty, user) -> Penalty:
    """The referee who recorded a penalty takes it back within UNDO_SECONDS: it is voided as
    "undone by" them, and stays in the log and the history like any void record."""
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.recorded_by_id != user.pk:
        raise ActionRefused(_("Only the one who recorded this penalty can undo it."))
    if penalty.voided_at is not None:
        raise ActionRefused(_("This record is already void."))
    if not undo_open(penalty.recorded_by_id, penalty.recorded_at, user):
        raise ActionRefused(_("Too late to undo: the director voids it on the log page."))
    reason = _("undone by %(user)s") % {"user": user.get_username()}
    return void_penalty(penalty, user, reason, by_decision=True)


def _unplayed(table: Table):
    if Result.objects.filter(table=table, status=Result.Status.CONFIRMED).exists():
        raise ActionRefused(
            _("%(table)s has a confirmed result: the director corrects the result first.")
            % {"table": table},
        )


def _seat_of(session, player) -> Seat:
    seat = (
        # Lock the seat row only: PostgreSQL cannot lock the nullable side of an outer join.
        Seat.objects.select_for_update(of=("self",))
        .select_related("table", "player", "replaces")
        .filter(session=session, player=player)
        .first()
    )
    if seat is None:
        raise ActionRefused(
            _("%(name)s has no seat in %(session)s.") % {"name": player, "session": session},
            field="player",
        )
    return seat


def _incident(session, kind, user, **fields) -> Incident:
    return Incident.objects.create(
        tournament_id=session.tournament_id,
        session=session,
        kind=kind,
        recorded_by=user,
        recorded_at=timezone.now(),
        **fields,
    )


def _seat_change(session, change, detail, user, note, kind, **fields) -> Incident:
    """A referee's change to a seat: the seating history's line, the incident with what voiding
    it puts back, and the tournament's revision."""
    record(session, change, detail, user, reason=note.strip())
    incident = _incident(session, kind, user, text=note.strip(), **fields)
    touch(session.tournament_id)
    return incident


@transaction.atomic
def substitute(
    session: Session, player: Player, sub: Player, joined: str, user, note: str = ""
) -> Incident:
    """Put `sub` from the pool into `player`'s seat, from the start or during play.

    000 §5.7, 002 §2.8.4 item 5: the seat records whom it replaces and when the substitute
    joined; the standings give the replaced player the rule set's fixed line.
    """
    refuse_if_finished(session.tournament_id)
    _check_player(session, player)
    _check_player(session, sub)
    if joined not in Seat.Joined.values:
        raise ActionRefused(_("Say whether the substitute plays from the start."), "joined")
    if not sub.substitute:
        raise ActionRefused(_("Choose a player from the substitute pool."), field="substitute")
    if Seat.objects.filter(session=session, player=sub).exists():
        raise ActionRefused(
            _("%(name)s already has a seat in this session.") % {"name": sub}, field="substitute"
        )
    seat = _seat_of(session, player)
    _unplayed(seat.table)
    undo = {
        "seat": seat.pk,
        "player": seat.player_id,
        "replaces": seat.replaces_id,
        "joined": seat.joined,
        "now": sub.pk,
    }
    replaced = seat.replaces or seat.player  # a substitute for a substitute still replaces them
    seat.player, seat.replaces, seat.joined = sub, replaced, joined
    seat.save(update_fields=["player", "replaces", "joined"])
    detail = _("%(sub)s replaces %(name)s at %(table)s (%(joined)s)") % {
        "sub": sub,
        "name": player,
        "table": seat.table,
        "joined": seat.get_joined_display(),
    }
    return _seat_change(
        session,
        SeatingChange.Kind.SUBSTITUTE,
        detail,
        user,
        note,
        Incident.Kind.SUBSTITUTION,
        table=seat.table,
        player=player,
        substitute=sub,
        undo=undo,
    )


@transaction.atomic
def play_three_handed(session: Session, player: Player, user, note: str = "") -> Incident:
    """SBR 002 §2.8.4 item 5, §3.1: no substitute for a player more than 15 minutes late, so the
    table plays three-handed. The player leaves the table; the missing seat is North."""
    refuse_if_finished(session.tournament_id)
    _check_player(session, player)
    if not three_player(session.tournament.rule_set()):
        raise ActionRefused(_("Only a Sichuan table can play three-handed."))
    seat = _seat_of(session, player)
    table = seat.table
    _unplayed(table)
    seats = sorted(Seat.objects.select_for_update().filter(table=table), key=lambda s: s.wind_order)
    if len(seats) != 4:
        raise ActionRefused(_("Only a table of four can go three-handed."))
    undo = {"table": table.pk, "winds": {str(s.player_id): s.wind for s in seats}}
    rest = [s for s in seats if s.pk != seat.pk]
    seat.delete()
    for s, wind in zip(rest, WINDS, strict=False):
        if s.wind != wind:
            s.wind = wind
            s.save(update_fields=["wind"])  # one by one, so each seat's history has it
    detail = _("%(table)s plays three-handed without %(name)s") % {"table": table, "name": player}
    return _seat_change(
        session,
        SeatingChange.Kind.THREE_HANDED,
        detail,
        user,
        note,
        Incident.Kind.THREE_HANDED,
        table=table,
        player=player,
        undo=undo,
    )


@transaction.atomic
def disqualify(player: Player, user, reason: str, session: Session | None = None) -> Incident:
    """000 §5.5, §5.7: a disqualified player is placed last. The director or head referee."""
    if not is_head_referee(user):
        raise ActionRefused(_("Only the head referee or the director disqualifies a player."))
    refuse_if_finished(player.tournament_id)
    if not reason.strip():
        raise ActionRefused(_("Give the reason for the disqualification."), field="text")
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status == Player.Status.DISQUALIFIED:
        raise ActionRefused(_("%(name)s is already disqualified.") % {"name": player})
    undo = {"status": player.status}
    player.status = Player.Status.DISQUALIFIED
    player.save(update_fields=["status"])
    incident = Incident.objects.create(
        tournament_id=player.tournament_id,
        session=session,
        kind=Incident.Kind.DISQUALIFICATION,
        player=player,
        text=reason.strip(),
        undo=undo,
        recorded_by=user,
        recorded_at=timezone.now(),
    )
    touch(player.tournament_id)
    return incident


@transaction.atomic
def record_incident(session: Session, user, text: str, player=None, table=None) -> Incident:
    if not text.strip():
        raise ActionRefused(_("Say what happened."), field="text")
    if player is not None:
        _check_player(session, player)
    incident = _incident(
        session, Incident.Kind.NOTE, user, player=player, table=table, text=text.strip()
    )
    touch(session.tournament_id)
    return incident


@transaction.atomic
def void_incident(incident: Incident, user, reason: str, by_decision: bool = False) -> Incident:
    """Mark an incident void and put back what it changed (the seat, the table, the status)
    when nothing has changed since; otherwise refuse and say why."""
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    if incident.kind != Incident.Kind.NOTE:  # a note changes no seat, status or result
        refuse_if_finished(incident.tournament_id)
    _void(incident, user, reason, by_decision)
    undo = incident.undo or {}
    if incident.kind == Incident.Kind.SUBSTITUTION:
        seat = Seat.objects.select_for_update().filter(pk=undo.get("seat")).first()
        if seat is None or seat.player_id != undo.get("now"):
            raise ActionRefused(_("The seat has changed since: change it by hand instead."))
        _unplayed(seat.table)
        seat.player_id, seat.replaces_id, seat.joined = (
            undo["player"],
            undo["replaces"],
            undo["joined"],
        )
        seat.save(update_fields=["player", "replaces", "joined"])
    elif incident.kind == Incident.Kind.THREE_HANDED:
        table = Table.objects.select_for_update().filter(pk=undo.get("table")).first()
        winds = undo.get("winds", {})
        if table is None or table.seats.count() != len(winds) - 1:
            raise ActionRefused(_("The table has changed since: change it by hand instead."))
        _unplayed(table)
        if Seat.objects.filter(session=table.session, player_id=incident.player_id).exists():
            raise ActionRefused(_("The player has a seat again: change it by hand instead."))
        for seat in table.seats.all():
            seat.delete()
        for pk, wind in winds.items():
            Seat.objects.create(
                table=table, session_id=table.session_id, player_id=int(pk), wind=wind
            )
    elif incident.kind == Incident.Kind.DISQUALIFICATION:
        Player.objects.filter(pk=incident.player_id).update(status=undo.get("status", "active"))
    incident.save(update_fields=["voided_by", "voided_at", "void_reason"])
    touch(incident.tournament_id)
    return incident


def minor_counts(session) -> dict:
    """Player id → live minor violations in the session (for the progressive scale)."""
    counts = defaultdict(int)
    for pid in Penalty.objects.filter(session=session, kind=MINOR, voided_at=None).values_list(
        "player_id", flat=True
    ):
        counts[pid] += 1
    return counts
