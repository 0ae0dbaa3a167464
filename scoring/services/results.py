"""A table's result entered and confirmed: each save a new version, confirmed by a second desk
user (core.entries); nothing is overwritten. A table that records hands has the result its
hands give."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from core.entries import mark_confirmed, refuse_confirmation, refuse_stale, supersede
from core.errors import ActionRefused, StaleEdit, rule_message
from mahjong.hands import HandError
from mahjong.table import is_awarded, validate_scores
from scoring.models import Result, ResultScore
from scoring.selectors import hands_entries
from seating.models import WINDS, Table, Wind
from seating.selectors import winds_pending
from tournament.changes import touch, touch_tables
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
        given = hands_entries(table, hands)
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
    touch_tables(table.session.tournament_id, [table.pk])  # the table's page shows its draft
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
        given = hands_entries(table, hands)
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
    touch(table.session.tournament_id, seating=False, tables=[table.pk])
    return result
