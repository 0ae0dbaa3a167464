"""Hands typed at the desk from a paper protocol (issue 24, "From hands to the desk"): the sheet
made the typed hands, the scores they give the table's draft result; and a confirmed table's
hands corrected by the director (issue 34)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.entries import supersede
from core.errors import ActionRefused, StaleEdit
from core.roles import is_director
from mahjong.hands import in_file_order
from mahjong.hands.notation import write
from scoring.models import Hand, Result, Via
from scoring.selectors import hands_entries
from scoring.services.hands import (
    checked_hand,
    draft_from_hands,
    follow_hands,
    lock_sheet,
    next_hand_version,
    refuse_hands,
)
from scoring.services.results import enter_result, latest_result
from seating.models import Table
from seating.selectors import winds_pending
from tournament.changes import touch
from tournament.services import refuse_if_finished


def _new_hand(table: Table, number: int, data: dict, user, when) -> Hand:
    hand = checked_hand(
        Hand(
            table=table,
            number=number,
            version=next_hand_version(table, number),
            data=in_file_order(data),
            via=Via.DESK,
            recorded_by=user,
            recorded_at=when,
        )
    )
    hand._history_user = user
    hand.save()
    return hand


def _supersede(hand: Hand, user, when, reason: str) -> None:
    hand.superseded_at, hand.superseded_by, hand.reason = when, user, reason
    checked_hand(hand)._history_user = user
    hand.save(update_fields=["superseded_at", "superseded_by", "reason"])


@transaction.atomic
def record_hands(table: Table, hands: list, user) -> list[Hand]:
    """Several hands after the table's current ones, all or none: the whole sheet must hold
    (docs/rules.md §5) before any is kept."""
    table = lock_sheet(table)
    if winds_pending(table):
        raise ActionRefused(_("Record who drew each wind at this table first."), field="winds")
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    refuse_hands(table, [h.data for h in current] + list(hands))
    now = timezone.now()
    recorded = [
        _new_hand(table, len(current) + i, data, user, now) for i, data in enumerate(hands, 1)
    ]
    if recorded:
        follow_hands(table, user)
        touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return recorded


@transaction.atomic
def replace_hands(table: Table, hands: list, user, reason: str = "", seen=None) -> int:
    """The table's sheet made `hands`: a hand that differs from the current one at its place is
    superseded with the reason and recorded again as a new version (correct_hand), a current hand
    past the end is superseded (undo_last_hand), the new ones are appended; nothing is deleted.
    A reason is needed when a kept hand changes. `seen`: the ids of the current hands the page
    showed; if they changed since, the edit is refused rather than overwriting a phone's hands.
    A draft result the new hands contradict is withdrawn (follow_hands).
    Returns how many places of the sheet changed."""
    table = lock_sheet(table)
    if winds_pending(table):
        raise ActionRefused(_("Record who drew each wind at this table first."), field="winds")
    changed = _replace(table, hands, user, reason, seen)
    if changed:
        follow_hands(table, user)
        touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return changed


def _replace(table: Table, hands: list, user, reason: str, seen) -> int:
    """replace_hands on a table already locked, whatever its result: how many places of the
    sheet changed."""
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if seen is not None and [h.pk for h in current] != list(seen):
        raise StaleEdit(_("The table's hands changed since this page was loaded — reload it."))
    hands = list(hands)
    refuse_hands(table, hands)
    # The same hand written otherwise (a flag false rather than left out) is the same hand.
    changed = [
        h
        for i, h in enumerate(current)
        if i >= len(hands) or (h.data != hands[i] and write(h.data) != write(hands[i]))
    ]
    if changed and not reason.strip():
        raise ActionRefused(_("Give the reason for the correction."), field="reason")
    now = timezone.now()
    for hand in changed:
        _supersede(hand, user, now, reason.strip())
    kept = {h.number for h in current} - {h.number for h in changed}
    for number, data in enumerate(hands, 1):
        if number not in kept:
            _new_hand(table, number, data, user, now)
    return len(changed) + max(0, len(hands) - len(current))


@transaction.atomic
def save_typed_hands(table: Table, hands: list, user, reason: str = "", seen=None):
    """A paper protocol's hands typed at the desk: the sheet becomes `hands` (replace_hands),
    and the scores they give become the table's draft result (draft_from_hands, as a table's own
    hands do), which a second desk user confirms as any other; a draft that already holds
    these scores is kept. Returns (the draft, how many hands changed)."""
    if not hands:
        raise ActionRefused(_("There are no hands to save: type one a line."), field="hands")
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    changed = replace_hands(table, hands, user, reason, seen)
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    return draft_from_hands(table, current, user), changed


NOTE_MAX = Result._meta.get_field("note").max_length


@transaction.atomic
def correct_confirmed_hands(table: Table, hands: list, user, reason: str, seen=None):
    """A confirmed table that records hands, corrected at the desk (issue 34): its sheet
    becomes `hands` (the hands that differ are superseded with the reason and recorded again as
    new versions, as replace_hands does) and the scores they give become a new version of its
    result, confirmed at once in the same transaction; the confirmed version before is
    superseded. Nothing is deleted: the earlier hands and results stay in the history.

    The director's alone, with a reason: it replaces a confirmed result in one step, without a
    second desk user, so the reason is kept on every superseded hand and in the new version's
    note, with who (entered and confirmed by the director) and when. Returns (the new confirmed
    result, how many places of the sheet changed)."""
    if not is_director(user):
        raise ActionRefused(
            _("Only the director corrects the hands of a table whose result is confirmed.")
        )
    if not hands:
        raise ActionRefused(_("There are no hands to save: type one a line."), field="hands")
    if not reason.strip():
        raise ActionRefused(_("Give the reason for the correction."), field="reason")
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    confirmed = table.results.filter(status=Result.Status.CONFIRMED).first()
    if confirmed is None:
        raise ActionRefused(
            _("The table's result is not confirmed: save the hands as its draft result.")
        )
    if not table.hands.filter(superseded_at__isnull=True).exists():
        raise ActionRefused(
            _("The table recorded no hands: correct its result on the result page.")
        )
    changed = _replace(table, hands, user, reason, seen)
    if not changed:
        raise ActionRefused(_("The hands are these already: there is nothing to correct."))
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    latest = latest_result(table)
    note = _("Correction of the confirmed version %(version)d: %(reason)s") % {
        "version": confirmed.version,
        "reason": " ".join(reason.split()),
    }
    if len(note) > NOTE_MAX:
        note = note[: NOTE_MAX - 1] + "…"
    result = enter_result(table, hands_entries(table, current), user, latest.version, note)
    supersede(table.results, Result.Status.CONFIRMED, result.entered_at)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by, result.confirmed_at = user, result.entered_at
    result.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return result, changed
