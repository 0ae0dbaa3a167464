"""The referee's writes: penalties, substitutions, three-handed tables, disqualification and
incidents. One function per action, each in a transaction; every record keeps who and when,
and voiding marks a record void instead of deleting it.
"""

from collections import defaultdict
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from seating.models import WINDS, Seat, SeatingChange, Table
from tournament.models import Incident, Player, Session
from tournament.roles import is_director, is_head_referee
from tournament.services import ActionRefused, touch

from .models import Penalty, Result
from .penalties import MINOR, OTHER, Resolved, resolve
from .rules import RuleError
from .standings import PenaltyRow


def _number(value):
    """A stored Decimal amount as the int or float the rule math takes."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _refuse(error: RuleError):
    # The rule module speaks English templates; translate the template, then fill it.
    message = _(error.template).format(**error.params) if error.params else _(error.template)
    raise ActionRefused(message, field=error.field)


def resolve_all(penalties, rules) -> dict:
    """Penalty id → Resolved (or the RuleError it raises under `rules`), void ones left out.

    Minor violations take their place on the scale by their order within the session, so the
    penalties must come in recorded order.
    """
    out, minors = {}, defaultdict(int)
    for p in penalties:
        if p.voided_at is not None:
            continue
        if p.kind == MINOR:
            minors[(p.session_id, p.player_id)] += 1
        try:
            out[p.pk] = resolve(
                rules,
                p.kind,
                minutes=p.minutes,
                amount=_number(p.amount),
                order=minors[(p.session_id, p.player_id)],
                stage=p.stage or None,
            )
        except RuleError as e:
            out[p.pk] = e
    return out


def penalty_rows(tournament) -> list[PenaltyRow]:
    """The tournament's live penalties as the standings take them (one query)."""
    penalties = (
        Penalty.objects.filter(session__tournament=tournament)
        .order_by("recorded_at", "pk")
        .values_list(
            "session_id",
            "session__number",
            "player_id",
            "player__key",
            "kind",
            "minutes",
            "amount",
            "stage",
            "voided_at",
        )
    )
    rules = tournament.rule_set()
    rows, minors = [], defaultdict(int)
    for sid, number, pid, key, kind, minutes, amount, stage, voided in penalties:
        if voided is not None:
            continue
        if kind == MINOR:
            minors[(sid, pid)] += 1
        try:
            r = resolve(
                rules,
                kind,
                minutes=minutes,
                amount=_number(amount),
                order=minors[(sid, pid)],
                stage=stage or None,
            )
        except RuleError:
            continue  # not valid under the current rules: shown as such on the penalties page
        rows.append(PenaltyRow(number, key, r.amount, r.stage, kind, r.fixed))
    return rows
