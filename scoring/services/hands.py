"""Result entry and confirmation (each correction is a new version; nothing is overwritten),
and the rule changes that recompute them."""

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.entries import mark_confirmed, refuse_confirmation, refuse_stale, supersede
from core.errors import ActionRefused, StaleEdit, refusal, rule_message
from core.roles import is_director
from mahjong import clock
from mahjong.hands import HandError, in_file_order, play
from mahjong.hands.notation import write
from mahjong.messages import RuleError
from mahjong.presets import rules_overrides, ruleset_from
from mahjong.table import is_awarded, table_size_problems, validate_scores
from scoring.models import Hand, HandConfirmation, Result, ResultScore, Via
from scoring.selectors import (
    hands_outcome,
    has_confirmed_results,
    last_hand,
    recorded_tables,
    unfinished,
)
from seating.models import WINDS, Table, Wind
from seating.selectors import winds_pending
from tournament import timekeeping as tk
from tournament.changes import touch
from tournament.models import RuleChange, Tournament
from tournament.services import refuse_if_finished


def wind_label(wind: str) -> str:
    return str(Wind(wind).label)


def refuse_scores(rules, seats) -> None:
    """Refuse a table's final scores the rule set does not take (mahjong.table.validate_scores),
    naming the seat and the player. seats: [(wind, name, score)] in seat order."""
    problems = validate_scores(rules, [score for _wind, _name, score in seats])
    if problems:
        problem = problems[0]
        message = rule_message(problem)
        if problem.seat < 0:
            raise ActionRefused(message, field="__all__")
        wind, name, _score = seats[problem.seat]
        raise ActionRefused(
            _("%(seat)s (%(name)s): %(problem)s")
            % {"seat": wind_label(wind), "name": name, "problem": message},
            field=wind,
        )


def seats_in_order(table: Table):
    seats = table.seats.select_related("player", "replaces")
    return sorted(seats, key=lambda s: WINDS.index(s.wind))


def latest_result(table: Table):
    return table.results.order_by("-version").select_related("entered_by").first()


@transaction.atomic
def enter_result(table: Table, entries: dict, user, base_version: int, note: str = "") -> Result:
    """Save a table's scores as a new draft version.

    entries: wind -> (score, chombo). base_version is the latest version the person saw; if
    somebody saved since, the save is refused rather than silently replacing their work.
    """
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    rules = table.session.tournament.rule_set()
    seats = seats_in_order(table)
    if is_awarded(rules, len(seats)):
        raise ActionRefused(_("An awarded table has no scores to enter."))
    if winds_pending(table):  # the scores go by wind: the table's draw comes first
        raise ActionRefused(_("Record who drew each wind at this table first."))
    latest = latest_result(table)
    refuse_stale(latest, base_version)
    missing = [s for s in seats if s.wind not in entries or entries[s.wind][0] is None]
    if missing:
        raise ActionRefused(
            _("%(seat)s: the score is missing.") % {"seat": wind_label(missing[0].wind)},
            field=missing[0].wind,
        )
    refuse_scores(rules, [(s.wind, s.player.name, entries[s.wind][0]) for s in seats])
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if hands:
        # The sheet and the result never disagree (the tournament file refuses that): a table
        # that recorded hands has the result its hands give; a wrong one is a hand to correct.
        given = _entries(table, hands)
        for s in seats:
            if (entries[s.wind][0], entries[s.wind][1] or 0) != given[s.wind]:
                raise ActionRefused(
                    _(
                        "%(seat)s: the table's hands give %(score)s and %(chombo)s chombo; "
                        "correct a hand to change it."
                    )
                    % {
                        "seat": wind_label(s.wind),
                        "score": number_format(given[s.wind][0], force_grouping=True),
                        "chombo": given[s.wind][1],
                    },
                    field=s.wind,
                )
    now = timezone.now()
    version = (latest.version if latest else 0) + 1
    # No touch(): a draft changes nothing the visitors see or the standings count; it gets into
    # the next backup with the change that confirms it (docs/running/backups.md, "Backups").
    try:
        with transaction.atomic():
            result = Result.objects.create(
                table=table, version=version, entered_by=user, entered_at=now, note=note
            )
    except IntegrityError as e:
        raise StaleEdit(latest_result(table).stale_message()) from e
    ResultScore.objects.bulk_create(
        ResultScore(
            result=result,
            wind=s.wind,
            player=s.player,
            score=entries[s.wind][0],
            chombo=entries[s.wind][1] or 0,
        )
        for s in seats
    )
    # An unconfirmed older draft is replaced by this one; it stays in the history.
    supersede(table.results.exclude(pk=result.pk), Result.Status.DRAFT, now)
    return result


# What save_result did.
CONFIRMED = "confirmed"
UNCHANGED = "unchanged"
SAVED = "saved"


@transaction.atomic
def save_result(table: Table, entries: dict, user, base_version: int, note: str = ""):
    """The result form's one action: (result, what happened: CONFIRMED, UNCHANGED or SAVED).

    The draft the page showed, sent back unchanged by a desk user who may confirm it (not the
    one who entered it, unless the tournament takes one confirmation), is confirmed: pressing
    Enter through a prefilled form confirms and never makes an identical new version; sent back
    unchanged by the one who entered it, nothing is saved. Anything changed is a new draft
    version (enter_result)."""
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    latest = latest_result(table)
    unchanged = (
        latest is not None
        and latest.status == Result.Status.DRAFT
        and latest.version == base_version
        and latest.note == note
        and {s.wind: (s.score, s.chombo) for s in latest.scores.all()}
        == {wind: (score, chombo or 0) for wind, (score, chombo) in entries.items()}
    )
    if unchanged and latest.may_confirm(user):
        return confirm_result(latest, user), CONFIRMED
    if unchanged:
        return latest, UNCHANGED
    return enter_result(table, entries, user, base_version, note), SAVED


def _refuse_unlike_hands(table: Table, result: Result) -> None:
    """A draft of a table that records hands is confirmed only while it holds what the hands
    give now (issue 34: a draft left behind by an undo must never count, nor reach a backup
    the restore then refuses). The services withdraw such a draft as the hands change; this
    catches one a database kept from before."""
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if not hands:
        return
    try:
        given = _entries(table, hands)
    except HandError as e:
        raise ActionRefused(f"{e.path}: {rule_message(e)}", field="hand") from e
    drafted = {s.wind: (s.score, s.chombo) for s in result.scores.all()}
    for wind in sorted(given, key=WINDS.index):
        if drafted.get(wind) != given[wind]:
            score, chombo = drafted.get(wind, (None, 0))
            raise StaleEdit(
                _(
                    "%(seat)s: version %(version)d has %(draft)s and %(draft_chombo)s chombo, "
                    "but the table's hands give %(score)s and %(chombo)s chombo: the hands "
                    "changed after it was made. Nothing is confirmed; save the hands' scores as "
                    "a new version, or correct a hand."
                )
                % {
                    "seat": wind_label(wind),
                    "version": result.version,
                    "draft": "–" if score is None else number_format(score, force_grouping=True),
                    "draft_chombo": chombo,
                    "score": number_format(given[wind][0], force_grouping=True),
                    "chombo": given[wind][1],
                },
                field=wind,
            )


@transaction.atomic
def confirm_result(result: Result, user) -> Result:
    """A second desk user confirms a draft; the confirmed version replaces the previous one."""
    table = (
        Table.objects.select_for_update()
        .select_related("session__tournament")
        .get(pk=result.table_id)
    )
    refuse_if_finished(table.session.tournament_id)
    # Through the locked table: the result reads its tournament's single confirmation from it.
    result = table.results.select_related("entered_by").get(pk=result.pk)
    refuse_confirmation(result, latest_result(table), user)
    _refuse_unlike_hands(table, result)
    mark_confirmed(result, user)
    touch(table.session.tournament_id, seating=False)
    return result


@transaction.atomic
def change_rules(tournament: Tournament, ruleset: str, rules, user, reason: str = ""):
    """Set the tournament's rule set; once results are confirmed only with a recorded reason.

    Standings are always computed from the current rules, so the change recomputes everything.
    """
    try:
        new = ruleset_from(ruleset, rules)
    except RuleError as e:
        raise refusal(e) from e
    overrides = rules_overrides(new)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.ruleset == ruleset and tournament.rules == overrides:
        return tournament
    refuse_if_finished(tournament.pk)
    frozen = has_confirmed_results(tournament)
    if frozen and not reason.strip():
        raise ActionRefused(
            _("The rules are frozen: results are confirmed. Give a reason to change them."),
            field="reason",
        )
    # A table or a result the new rules would not accept (a score step, a start-points sum, a
    # three-handed table in riichi), confirmed or still a draft, would leave the tournament one
    # that no longer restores from its own file.
    for t in recorded_tables(tournament):
        problems = table_size_problems(new, len(t.winds))
        for scores in t.scores if not problems else ():
            problems = validate_scores(new, scores)
            if problems:
                break
        problem = rule_message(problems[0]) if problems else None
        if problem is None and t.hands:
            # The file computes a table's scores from its hands: they must still agree.
            try:
                given = play(new, t.hands, t.winds).scores
            except HandError as e:
                problem = rule_message(e)
            else:
                if t.scores and [given[w] for w in t.winds] != t.scores[0]:
                    problem = _("Its hands would give other scores.")
        if problem:
            raise ActionRefused(
                _(
                    "Session %(session)d, table %(table)d does not hold under these rules: "
                    "%(problem)s Correct the result first, or keep the rules."
                )
                % {"session": t.session, "table": t.table, "problem": problem},
                field="ruleset",
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


def _tables_text(tables) -> str:
    return ", ".join(
        _("session %(session)d table %(table)d") % {"session": t.session, "table": t.table}
        for t in tables
    )


@transaction.atomic
def finish_tournament(tournament: Tournament, user) -> Tournament:
    """The director's last step: the results are final. Refused while a table of a played
    session has no confirmed result; what else is open (drafts, appeals, sessions not ended)
    the confirmation page lists. Until reopened, every write that would change the results is
    refused (tournament.services.refuse_if_finished) and the public pages say "Final"."""
    if not is_director(user):
        raise ActionRefused(_("Only the director finishes the tournament."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished:
        raise ActionRefused(_("The tournament is already finished."))
    open_tables = unfinished(tournament).unconfirmed
    if open_tables:
        raise ActionRefused(
            ngettext(
                "%(n)d table of a played session has no confirmed result: %(tables)s.",
                "%(n)d tables of played sessions have no confirmed result: %(tables)s.",
                len(open_tables),
            )
            % {"n": len(open_tables), "tables": _tables_text(open_tables[:10])}
        )
    tournament.finished_at = timezone.now()
    tournament.finished_by = user
    tournament.save(update_fields=["finished_at", "finished_by"])
    touch(tournament.pk)
    return tournament


@transaction.atomic
def reopen_tournament(tournament: Tournament, user, reason: str) -> Tournament:
    """Undo the finish, with a reason kept with who and when (the history keeps every one)."""
    if not is_director(user):
        raise ActionRefused(_("Only the director reopens the tournament."))
    if not reason.strip():
        raise ActionRefused(_("Give the reason for reopening the tournament."), field="reason")
    try:
        Tournament._meta.get_field("reopen_reason").run_validators(reason.strip())
    except ValidationError as e:
        raise ActionRefused(e.messages[0], field="reason") from e
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.finished:
        raise ActionRefused(_("The tournament is not finished."))
    tournament.finished_at = None
    tournament.finished_by = None
    tournament.reopened_at = timezone.now()
    tournament.reopened_by = user
    tournament.reopen_reason = reason.strip()
    tournament.save(
        update_fields=["finished_at", "finished_by", "reopened_at", "reopened_by", "reopen_reason"]
    )
    touch(tournament.pk)
    return tournament


# --- hands (issue 24): the table's own score sheet --------------------------------------------


def _sheet(table: Table) -> Table:
    """The table locked for a change of its hands, refused once its result is confirmed (the
    hands then are the result) or the tournament finished."""
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    if Result.objects.filter(table=table, status=Result.Status.CONFIRMED).exists():
        raise ActionRefused(
            _("The table's result is confirmed: its hands can no longer change."), field="hand"
        )
    return table


def _holds(table: Table, hands: list) -> None:
    """The hands, in order, under the tournament's rules; ActionRefused naming the first hand
    that does not hold (docs/rules.md §5)."""
    try:
        hands_outcome(table, hands)
    except HandError as e:
        raise ActionRefused(f"{e.path}: {rule_message(e)}", field="hand") from e


def _checked(hand: Hand) -> Hand:
    # The related rows are the ones this service locked or was given: no query to find them.
    related = ["table", "recorded_by", "superseded_by"]
    try:
        hand.full_clean(exclude=related, validate_unique=False, validate_constraints=False)
    except ValidationError as e:
        field, messages = next(iter(e.message_dict.items()))
        raise ActionRefused(f"{field}: {messages[0]}", field="hand") from e
    return hand


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
    table = _sheet(table)
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
    _holds(table, [h.data for h in current] + [data])
    hand = _checked(
        Hand(
            table=table,
            number=len(current) + 1,
            # An undone hand keeps its version: the one recorded at its place takes the next.
            version=_next_version(table, len(current) + 1),
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
    _follow_hands(table, user)
    touch(table.session.tournament_id, seating=False)
    return hand


@transaction.atomic
def undo_last_hand(table: Table, user, reason: str = "", number=None, version=None) -> Hand:
    """Takes back the last hand: it is superseded (kept, with who, when and why). A device
    names the hand it saw last (`number`, `version`): sent twice, the undo happens once, and a
    hand another device recorded since is not undone by mistake."""
    table = _sheet(table)
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
    _checked(last)._history_user = user
    last.save(update_fields=["superseded_at", "superseded_by", "reason"])
    _follow_hands(table, user)
    touch(table.session.tournament_id, seating=False)
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
    table = _sheet(hand.table)
    old = Hand.objects.select_for_update().get(pk=hand.pk)
    if old.superseded_at is not None or old.table_id != table.pk:
        raise ActionRefused(_("This hand has been corrected or undone since."), field="hand")
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    _holds(table, [data if h.pk == old.pk else h.data for h in current])
    old.superseded_at, old.superseded_by, old.reason = timezone.now(), user, reason.strip()
    _checked(old)._history_user = user
    old.save(update_fields=["superseded_at", "superseded_by", "reason"])
    new = _checked(
        Hand(
            table=table,
            number=old.number,
            version=_next_version(table, old.number),
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
    _follow_hands(table, user)
    touch(table.session.tournament_id, seating=False)
    return new


@transaction.atomic
def confirm_hand(
    hand: Hand, wind: str, user, via: str = Via.DESK, device: str = ""
) -> HandConfirmation:
    """The player at `wind` confirms the hand (002 §2.5.8 (4)); once per wind. `hand` is the
    version the player saw: a hand corrected or undone since is refused, naming it. `device`:
    the wind of the phone that says whose it is, which confirms only that seat (blank: a table's
    shared device, one tap per player, or the desk)."""
    table = _sheet(hand.table)
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


def _entries(table: Table, hands: list[Hand]) -> dict:
    """wind → (score, chombo) of what the hands give: the result the table sends the desk."""
    outcome = hands_outcome(table, [h.data for h in hands])
    chombo = outcome.chombo or {}
    return {wind: (score, chombo.get(wind, 0)) for wind, score in outcome.scores.items()}


def _draft_when_over(table: Table, user) -> None:
    """A riichi game that is over (end of South; Furiten also below zero) with every hand
    confirmed becomes the table's draft result by itself (issue 24); the desk confirms it."""
    hands = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if not hands or _pending(table, hands):
        return
    if table.session.tournament.rule_set().game == "sichuan":
        return
    if hands_outcome(table, [h.data for h in hands]).game.over:
        _draft_from(table, hands, user)


def _follow_hands(table: Table, user) -> None:
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
    if hands and drafted == _entries(table, hands):
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


def _draft_from(table: Table, hands: list[Hand], user) -> Result:
    entries = _entries(table, hands)
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
    table = _sheet(table)
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
    return _draft_from(table, hands, user)


# --- hands typed at the desk from a paper protocol (issue 24, "From hands to the desk") -------


def _next_version(table: Table, number: int) -> int:
    """The version a new hand at `number` takes: after every version that place ever had (an
    undone hand keeps its version, so a hand recorded there again is the next one)."""
    versions = table.hands.filter(number=number).values_list("version", flat=True)
    return max(versions, default=0) + 1


def _new_hand(table: Table, number: int, data: dict, user, when) -> Hand:
    hand = _checked(
        Hand(
            table=table,
            number=number,
            version=_next_version(table, number),
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
    _checked(hand)._history_user = user
    hand.save(update_fields=["superseded_at", "superseded_by", "reason"])


@transaction.atomic
def record_hands(table: Table, hands: list, user) -> list[Hand]:
    """Several hands after the table's current ones, all or none: the whole sheet must hold
    (docs/rules.md §5) before any is kept."""
    table = _sheet(table)
    if winds_pending(table):
        raise ActionRefused(_("Record who drew each wind at this table first."), field="winds")
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    _holds(table, [h.data for h in current] + list(hands))
    now = timezone.now()
    recorded = [
        _new_hand(table, len(current) + i, data, user, now) for i, data in enumerate(hands, 1)
    ]
    if recorded:
        _follow_hands(table, user)
        touch(table.session.tournament_id, seating=False)
    return recorded


@transaction.atomic
def replace_hands(table: Table, hands: list, user, reason: str = "", seen=None) -> int:
    """The table's sheet made `hands`: a hand that differs from the current one at its place is
    superseded with the reason and recorded again as a new version (correct_hand), a current hand
    past the end is superseded (undo_last_hand), the new ones are appended; nothing is deleted.
    A reason is needed when a kept hand changes. `seen`: the ids of the current hands the page
    showed; if they changed since, the edit is refused rather than overwriting a phone's hands.
    A draft result the new hands contradict is withdrawn (_follow_hands).
    Returns how many places of the sheet changed."""
    table = _sheet(table)
    if winds_pending(table):
        raise ActionRefused(_("Record who drew each wind at this table first."), field="winds")
    changed = _replace(table, hands, user, reason, seen)
    if changed:
        _follow_hands(table, user)
        touch(table.session.tournament_id, seating=False)
    return changed


def _replace(table: Table, hands: list, user, reason: str, seen) -> int:
    """replace_hands on a table already locked, whatever its result: how many places of the
    sheet changed."""
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    if seen is not None and [h.pk for h in current] != list(seen):
        raise StaleEdit(_("The table's hands changed since this page was loaded — reload it."))
    hands = list(hands)
    _holds(table, hands)
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
    and the scores they give become the table's draft result (_draft_from, as a table's own
    hands do), which a second desk user confirms as any other; a draft that already holds
    these scores is kept. Returns (the draft, how many hands changed)."""
    if not hands:
        raise ActionRefused(_("There are no hands to save: type one a line."), field="hands")
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    changed = replace_hands(table, hands, user, reason, seen)
    current = list(table.hands.filter(superseded_at__isnull=True).order_by("number"))
    return _draft_from(table, current, user), changed


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
    result = enter_result(table, _entries(table, current), user, latest.version, note)
    supersede(table.results, Result.Status.CONFIRMED, result.entered_at)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by, result.confirmed_at = user, result.entered_at
    result.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    touch(table.session.tournament_id, seating=False)
    return result, changed
