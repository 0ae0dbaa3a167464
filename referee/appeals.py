"""The appeals log (002 §2.9): filing, review and decision, one function per action.

An appeal is filed in writing no later than the rule set's window after the session ends
(SBR: 30 minutes), with a deposit of the rule set's multiple of the fee (SBR: 2F), returned in
full when the appeal is upheld and kept when it is rejected. Every change stays in the history.
"""

from datetime import timedelta
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from core.numbers import decimal_limit, fits
from core.roles import is_head_referee
from referee.models import Appeal
from referee.services import void_incident, void_penalty
from scoring.models import Penalty
from tournament.changes import touch
from tournament.models import Session


def deadline(session: Session):
    """When the appeal window of `session` closes, or None while the session has not ended."""
    if session.ended_at is None:
        return None
    minutes = session.tournament.rule_set().appeal_window_minutes
    return session.ended_at + timedelta(minutes=minutes)


@transaction.atomic
def file_appeal(
    session: Session,
    appellant,
    subject: str,
    user,
    *,
    table=None,
    text: str = "",
    filed_at=None,
    penalty=None,
    incident=None,
    captain: bool = False,
    deposit=None,
    override: str = "",
) -> Appeal:
    """Log an appeal. After the window it is refused unless the head referee (or the director)
    accepts it with a reason, which is kept with the appeal."""
    tournament = session.tournament
    if appellant.tournament_id != tournament.pk:
        raise ActionRefused(_("The appellant is not in this tournament."), field="appellant")
    if not subject.strip():
        raise ActionRefused(_("Say which decision is appealed."), field="subject")
    filed_at = filed_at or timezone.now()
    closes = deadline(session)
    override = override.strip()
    if closes is not None and filed_at > closes:
        if not override:
            raise ActionRefused(
                ngettext(
                    "Too late: the appeal window closed at %(time)s (%(minutes)d minute after "
                    "the session ended). The head referee may accept it with a reason.",
                    "Too late: the appeal window closed at %(time)s (%(minutes)d minutes after "
                    "the session ended). The head referee may accept it with a reason.",
                    tournament.rule_set().appeal_window_minutes,
                )
                % {
                    "time": time_format(timezone.localtime(closes)),
                    "minutes": tournament.rule_set().appeal_window_minutes,
                },
                field="filed_at",
            )
        if not is_head_referee(user):
            raise ActionRefused(
                _("Only the head referee accepts an appeal after the window."), field="override"
            )
    elif override:
        override = ""  # nothing to override: the appeal is in time
    if deposit in (None, ""):
        deposit = tournament.appeal_deposit
    try:
        deposit = Decimal(str(deposit))
    except InvalidOperation:
        raise ActionRefused(_("The deposit must be a number."), field="deposit") from None
    if deposit < 0:
        raise ActionRefused(_("The deposit cannot be negative."), field="deposit")
    field = Appeal._meta.get_field("deposit")
    if not fits(deposit, field):  # also a fee times the rule set's multiple that grew too big
        raise ActionRefused(
            _("The deposit must be below %(limit)s, with at most two decimals.")
            % {"limit": number_format(decimal_limit(field), force_grouping=True)},
            field="deposit",
        )
    owners = (
        (penalty and penalty.session.tournament_id, "penalty"),
        (incident and incident.tournament_id, "incident"),
    )
    for owner, field in owners:
        if owner and owner != tournament.pk:
            raise ActionRefused(_("That record is from another tournament."), field=field)
    appeal = Appeal.objects.create(
        tournament=tournament,
        session=session,
        table=table,
        appellant=appellant,
        captain=captain,
        penalty=penalty,
        incident=incident,
        subject=subject.strip(),
        text=text.strip(),
        filed_at=filed_at,
        deposit=deposit,
        late_override=override,
        recorded_by=user,
    )
    touch(tournament.pk)
    return appeal


@transaction.atomic
def review_appeal(appeal: Appeal, user) -> Appeal:
    """filed → under review."""
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    if appeal.status != Appeal.Status.FILED:
        raise ActionRefused(_("Only a filed appeal goes under review."))
    appeal.status = Appeal.Status.UNDER_REVIEW
    appeal.save(update_fields=["status"])
    touch(appeal.tournament_id)
    return appeal


@transaction.atomic
def decide_appeal(
    appeal: Appeal, user, status: str, body: str, decision: str, keep_record: bool = False
) -> Appeal:
    """Uphold or reject. The deposit is returned in full when upheld and kept when rejected
    (002 §2.9.2). A dissatisfied appellant may take it further (002 §2.9.3): deciding again
    is allowed and the earlier decision stays in the history.

    Upholding an appeal against a penalty or an incident voids it in the same transaction, with
    the decision as the reason (a disqualification or a substitution is put back), unless
    `keep_record` (a partial decision: the record is then changed by hand). The record voided,
    if any, is in the returned appeal's `voided`."""
    if not is_head_referee(user):
        raise ActionRefused(_("Only the head referee or the director records a decision."))
    if status not in (Appeal.Status.UPHELD, Appeal.Status.REJECTED):
        raise ActionRefused(_("Choose upheld or rejected."), field="status")
    if body not in Appeal.Body.values:
        raise ActionRefused(_("Say who decided."), field="decided_by")
    if not decision.strip():
        raise ActionRefused(_("Write the decision."), field="decision")
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    appeal.status = status
    appeal.decided_by = body
    appeal.decision = decision.strip()
    appeal.decided_at = timezone.now()
    appeal.deposit_returned = status == Appeal.Status.UPHELD
    appeal.save(
        update_fields=["status", "decided_by", "decision", "decided_at", "deposit_returned"]
    )
    appeal.voided = None
    record = appeal.penalty or appeal.incident
    if status == Appeal.Status.UPHELD and not keep_record and record and not record.is_void:
        limit = Penalty._meta.get_field("void_reason").max_length
        reason = _("Appeal upheld: %(decision)s") % {"decision": appeal.decision}
        void = void_penalty if appeal.penalty else void_incident
        appeal.voided = void(record, user, reason[:limit], by_decision=True)
    touch(appeal.tournament_id)
    return appeal
