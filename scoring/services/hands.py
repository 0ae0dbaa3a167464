"""The table's own score sheet (issue 24): hands recorded, undone, corrected and confirmed by
the players, the draft result the hands make when the game is over, and the send rule."""

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused, rule_message
from mahjong import clock
from mahjong.hands import HandError, in_file_order, play
from scoring.models import Hand, HandConfirmation, Result, Via
from scoring.selectors import hands_entries, hands_outcome, last_hand
from scoring.services.results import enter_result, latest_result, wind_label
from seating.models import Table
from seating.selectors import winds_pending
from tournament import timekeeping as tk
from tournament.changes import touch, touch_tables
from tournament.services import refuse_if_finished


def lock_sheet(table: Table) -> Table:
    """The table locked for a change of its hands, refused once its result is confirmed (the
    hands then are the result) or the tournament finished."""
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    if Result.objects.filter(table=table, status=Result.Status.CONFIRMED).exists():
        raise ActionRefused(
            _("The table's result is confirmed: its hands can no longer change."), field="hand"
        )
    return table


class HandRefused(ActionRefused):
    """A hand the arithmetic refused: the message, and the refusal itself (`error`, its code
    and params) for the table page to say in its reader's words, as it says its own preview's
    refusals (sheet/views.py, static/sheet/wire.js)."""

    def __init__(self, error: HandError):
        super().__init__(f"{error.path}: {rule_message(error)}", field="hand")
        self.error = error


def refuse_hands(table: Table, hands: list) -> None:
    """The hands, in order, under the tournament's rules; HandRefused naming the first hand
    that does not hold (docs/rules.md §5)."""
    try:
        hands_outcome(table, hands)
    except HandError as e:
        raise HandRefused(e) from e


def checked_hand(hand: Hand) -> Hand:
    # The related rows are the ones this service locked or was given: no query to find them.
    related = ["table", "recorded_by", "superseded_by"]
    try:
        hand.full_clean(exclude=related, validate_unique=False, validate_constraints=False)
    except ValidationError as e:
        field, messages = next(iter(e.message_dict.items()))
        raise ActionRefused(f"{field}: {messages[0]}", field="hand") from e
    return hand


def next_hand_version(table: Table, number: int) -> int:
    """The version a new hand at `number` takes: after every version that place ever had (an
    undone hand keeps its version, so a hand recorded there again is the next one)."""
    versions = table.hands.filter(number=number).values_list("version", flat=True)
    return max(versions, default=0) + 1


class HandConflict(ActionRefused):
    """Two devices recorded the same hand differently: `hand` is the one the table already
    has at that number; the device decides what its own becomes (nothing is dropped)."""

    def __init__(self, hand: Hand):
        super().__init__(
            _("Hand %(number)d was recorded by another device meanwhile.")
            % {"number": hand.number},
            field="hand",
        )
        self.hand = hand


@transaction.atomic
def record_hand(
    table: Table,
    data: dict,
    user,
    client_id=None,
    number: int | None = None,
    via: str = Via.DESK,
    device: str = "",
) -> Hand:
    """The next hand of the table's sheet. A phone that sends the same hand again (the same
    `client_id`, offline and retrying) gets the hand it recorded, and nothing is recorded
    twice. `number` is the place the device meant the hand for: if the table already has a
    hand there, another device was first — the same hand is taken as recorded, a different one
    is a HandConflict."""
    if client_id is not None:
        sent = Hand.objects.filter(client_id=client_id).first()
        if sent is not None:
            if sent.table_id != table.pk:
                raise ActionRefused(_("This hand was recorded at another table."), field="hand")
            return sent
    table = lock_sheet(table)
    if winds_pending(table):
        raise ActionRefused(_("Record who drew each wind at this table first."), field="winds")
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if number is not None and number != len(current) + 1:
        if not 1 <= number <= len(current):
            raise ActionRefused(
                _("Hand %(number)d cannot be recorded: the table has %(count)d hands.")
                % {"number": number, "count": len(current)},
                field="hand",
            )
        there = current[number - 1]
        if there.data == in_file_order(data):
            return there
        raise HandConflict(there)
    refuse_hands(table, [h.data for h in current] + [data])
    hand = checked_hand(
        Hand(
            table=table,
            number=len(current) + 1,
            # An undone hand keeps its version: the one recorded at its place takes the next.
            version=next_hand_version(table, len(current) + 1),
            data=in_file_order(data),
            client_id=client_id,
            via=via,
            device=device,
            recorded_by=user,
            recorded_at=timezone.now(),
        )
    )
    hand._history_user = user
    hand.save()
    follow_hands(table, user)
    touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return hand


@transaction.atomic
def undo_last_hand(table: Table, user, reason: str = "", number=None, version=None) -> Hand:
    """Takes back the last hand: it is superseded (kept, with who, when and why). A device
    names the hand it saw last (`number`, `version`): sent twice, the undo happens once, and a
    hand another device recorded since is not undone by mistake."""
    table = lock_sheet(table)
    if number is not None:
        named = table.hands.filter(number=number, version=version).first()
        if named is not None and named.superseded_at is not None and named.reason == reason:
            return named  # this undo arrived before
    last = table.hands.filter(superseded_at__isnull=True).order_by("-number").first()
    if last is None:
        raise ActionRefused(_("There is no hand to undo."), field="hand")
    if number is not None and (last.number, last.version) != (number, version):
        raise ActionRefused(
            _("Hand %(number)d is no longer the last hand: another device changed the sheet.")
            % {"number": number},
            field="hand",
        )
    last.superseded_at, last.superseded_by, last.reason = timezone.now(), user, reason.strip()
    checked_hand(last)._history_user = user
    last.save(update_fields=["superseded_at", "superseded_by", "reason"])
    follow_hands(table, user)
    touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return last


@transaction.atomic
def correct_hand(
    hand: Hand, data: dict, user, reason: str, client_id=None, via: str = Via.DESK, device=""
) -> Hand:
    """An earlier hand corrected: a new version of the same number, the old one kept and
    superseded with the reason; every hand after it must still hold. The same correction
    sent again (its `client_id`) is made once."""
    if not reason.strip():
        raise ActionRefused(_("Give the reason for the correction."), field="reason")
    if client_id is not None:
        sent = Hand.objects.filter(client_id=client_id, table_id=hand.table_id).first()
        if sent is not None:
            return sent
    table = lock_sheet(hand.table)
    old = Hand.objects.select_for_update().get(pk=hand.pk)
    if old.superseded_at is not None or old.table_id != table.pk:
        raise ActionRefused(_("This hand has been corrected or undone since."), field="hand")
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    refuse_hands(table, [data if h.pk == old.pk else h.data for h in current])
    old.superseded_at, old.superseded_by, old.reason = timezone.now(), user, reason.strip()
    checked_hand(old)._history_user = user
    old.save(update_fields=["superseded_at", "superseded_by", "reason"])
    new = checked_hand(
        Hand(
            table=table,
            number=old.number,
            version=next_hand_version(table, old.number),
            data=in_file_order(data),
            client_id=client_id,
            via=via,
            device=device,
            recorded_by=user,
            recorded_at=old.superseded_at,
        )
    )
    new._history_user = user
    new.save()
    follow_hands(table, user)
    touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return new


@transaction.atomic
def confirm_hand(
    hand: Hand, wind: str, user, via: str = Via.DESK, device: str = ""
) -> HandConfirmation:
    """The player at `wind` confirms the hand (002 §2.5.8 (4)); once per wind. `hand` is the
    version the player saw: a hand corrected or undone since is refused, naming it. `device`:
    the wind of the phone that says whose it is, which confirms only that seat (blank: a table's
    shared device, one tap per player, or the desk)."""
    table = lock_sheet(hand.table)
    hand = Hand.objects.get(pk=hand.pk)
    if hand.superseded_at is not None:
        current = table.hands.filter(number=hand.number, superseded_at__isnull=True).first()
        if current is None:
            message = _(
                "Hand %(number)d (version %(version)d) has been undone since: there is nothing "
                "to confirm."
            )
        else:
            message = _(
                "Hand %(number)d has changed since version %(version)d was shown: look at "
                "version %(current)d and confirm it."
            )
        raise ActionRefused(
            message
            % {
                "number": hand.number,
                "version": hand.version,
                "current": current.version if current else 0,
            },
            field="version",
        )
    if not table.seats.filter(wind=wind).exists():
        raise ActionRefused(_("Nobody sits at %(wind)s at this table.") % {"wind": wind}, "wind")
    if device and device != wind:
        raise ActionRefused(
            _("This device is %(device)s's: it confirms only %(device)s, not %(wind)s.")
            % {"device": wind_label(device), "wind": wind_label(wind)},
            field="wind",
        )
    confirmation, created = HandConfirmation.objects.get_or_create(
        hand=hand,
        wind=wind,
        defaults={
            "confirmed_by": user,
            "confirmed_at": timezone.now(),
            "via": via,
            "device": device,
        },
    )
    if created:
        _draft_when_over(table, user)
        # nothing the visitors see: only the table's own page shows who confirmed (sheet.state)
        touch_tables(table.session.tournament_id, [table.pk])
    return confirmation


def _pending(table: Table, hands: list[Hand]) -> list[int]:
    """The numbers of the hands some player at the table has not confirmed yet."""
    winds = set(table.seats.values_list("wind", flat=True))
    confirmed = defaultdict(set)
    for hand_id, wind in HandConfirmation.objects.filter(hand__in=hands).values_list(
        "hand_id", "wind"
    ):
        confirmed[hand_id].add(wind)
    return [h.number for h in hands if not winds <= confirmed[h.pk]]


def _draft_when_over(table: Table, user) -> None:
    """A riichi game that is over (end of South; Furiten also below zero) with every hand
    confirmed becomes the table's draft result by itself (issue 24); the desk confirms it."""
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if not hands or _pending(table, hands):
        return
    if table.session.tournament.rule_set().game == "sichuan":
        return
    if hands_outcome(table, [h.data for h in hands]).game.over:
        draft_from_hands(table, hands, user)


def follow_hands(table: Table, user) -> None:
    """After the table's hands changed (recorded, undone, corrected, replaced): its draft
    result, if it no longer holds what the hands give, is withdrawn — superseded, kept in the
    history — and made again from the hands when the game is still over with every hand
    confirmed (_draft_when_over). One truth between the sheet and the result (issue 34): a
    draft the hands contradict would be confirmed as a wrong score, and every backup with it
    would be refused on restore."""
    latest = latest_result(table)
    if latest is None or latest.status != Result.Status.DRAFT:
        return
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    drafted = {s.wind: (s.score, s.chombo) for s in latest.scores.all()}
    if hands and drafted == hands_entries(table, hands):
        return
    latest.status, latest.superseded_at = Result.Status.SUPERSEDED, timezone.now()
    latest.save(update_fields=["status", "superseded_at"])
    _draft_when_over(table, user)


def _ended_by_clock(table: Table, hands: list[Hand]) -> bool:
    """The session's clock has ended this table's game: its time is up (with the table's own
    extra time) or play was declared over, or the table has played its last hand by the end
    rule (EMA 000 §5.8: after the warning, the hand in progress and one more; the same count
    as the table page's "last hand", scoring.selectors.last_hand)."""
    session = table.session
    now = timezone.now()
    state = tk.as_shown(tk.state(session, now, table.number), session.ended_at)
    if state.state in (clock.TIME_UP, clock.ENDED):
        return True
    status = {
        "session": session.number,
        "remaining": state.remaining if state.started_at is not None else None,
        "warning_at": state.warning_at,
        "server_time": now.timestamp() * 1000,
    }
    rules = session.tournament.rule_set()
    last = last_hand(rules, status, [h.recorded_at for h in hands])
    return last is not None and len(hands) >= last


def may_send(table: Table, hands: list[Hand]) -> bool:
    """The send rule: a table's current `hands` may go to the desk as its result when there are
    some and the game is over — a Sichuan table's at any time, a riichi table's at the end of
    South (or below zero where the rules end it so) or once the session's clock ended it
    (_ended_by_clock). The confirmations aside: send_hands_result names a hand that waits.
    The table page shows its send button from this (sheet.state.table_state, `sendable`)."""
    if not hands:
        return False
    rules = table.session.tournament.rule_set()
    if rules.game == "sichuan":
        return True
    # a riichi table has its four winds: no need to ask the database for its seats
    return play(rules, [h.data for h in hands]).game.over or _ended_by_clock(table, hands)


def draft_from_hands(table: Table, hands: list[Hand], user) -> Result:
    entries = hands_entries(table, hands)
    latest = latest_result(table)
    if (
        latest is not None
        and latest.status == Result.Status.DRAFT
        and {s.wind: (s.score, s.chombo) for s in latest.scores.all()} == entries
    ):
        return latest
    note = _("From the table's %(count)d hands.") % {"count": len(hands)}
    return enter_result(table, entries, user, latest.version if latest else 0, note)


@transaction.atomic
def send_hands_result(table: Table, user=None) -> Result:
    """The table's hands, every one confirmed by every player, become its draft result for the
    desk to confirm ("the game is over": Sichuan at the end of the session, riichi when the
    clock ended it before the end of South — refused before, docs/using/table-page.md "The table's
    own score sheet"; a riichi game over at the end of South is a draft by itself, and sent again it
    is the same draft)."""
    table = lock_sheet(table)
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if not hands:
        raise ActionRefused(_("The table has recorded no hand."), field="hand")
    pending = _pending(table, hands)
    if pending:
        raise ActionRefused(
            _("Every player confirms every hand first: hand %(numbers)s waits.")
            % {"numbers": ", ".join(str(n) for n in pending)},
            field="hand",
        )
    if not may_send(table, hands):
        raise ActionRefused(
            _(
                "The game is not over: South is not finished and the session's clock has not "
                "ended it. At the end of South the result goes to the desk by itself."
            ),
            field="hand",
        )
    return draft_from_hands(table, hands, user)
