"""The state of each table (playing, finished, confirmed, awarded), its draft waiting for a
second desk user, and what every table recorded that a rule change must survive."""

from collections import Counter, defaultdict
from typing import NamedTuple

from django.db import models
from django.utils.translation import gettext_lazy

from mahjong.table import is_awarded
from scoring.models import Result, ResultScore
from scoring.selectors.hands import current_hands
from scoring.selectors.snapshot import snapshot
from seating.models import Seat


class TableState(models.TextChoices):
    """The one vocabulary of a table's state: the session page, the clock board, the dashboard.
    The codes are the board's (its script and styles read them)."""

    PLAYING = "playing", gettext_lazy("playing")
    FINISHED = "finished", gettext_lazy("finished — result entered")
    CONFIRMED = "confirmed", gettext_lazy("confirmed")
    AWARDED = "awarded", gettext_lazy("awarded table")


def table_states(session) -> dict[int, TableState]:
    """Table id -> its state. A Sichuan table of one or two is awarded (no game, nothing to
    enter); a table whose newest version is a draft waits for a second desk user (also when it
    corrects a confirmed result); else confirmed once a version was, else no result yet. Two
    queries."""
    rules = session.tournament.rule_set()
    seated = Counter(Seat.objects.filter(session=session).values_list("table_id", flat=True))
    newest, confirmed = {}, set()
    results = Result.objects.filter(table__session=session).order_by("table_id", "version")
    for table_id, status in results.values_list("table_id", "status"):
        newest[table_id] = status
        if status == Result.Status.CONFIRMED:
            confirmed.add(table_id)
    states = {}
    for table_id in session.tables.values_list("pk", flat=True):
        if is_awarded(rules, seated[table_id]):
            states[table_id] = TableState.AWARDED
        elif newest.get(table_id) == Result.Status.DRAFT:
            states[table_id] = TableState.FINISHED
        elif table_id in confirmed:
            states[table_id] = TableState.CONFIRMED
        else:
            states[table_id] = TableState.PLAYING
    return states


def draft_scores(session) -> dict[int, dict[str, int | None]]:
    """Table id -> wind -> score of each table's draft waiting for a second desk user (a table
    has at most one: a newer version supersedes it). Confirmed scores are the standings' own
    (table_lines); the session page shows these beside them, marked as a draft. One query."""
    drafts = defaultdict(dict)
    scores = ResultScore.objects.filter(
        result__status=Result.Status.DRAFT, result__table__session=session
    ).values_list("result__table_id", "wind", "score")
    for table_id, wind, score in scores:
        drafts[table_id][wind] = score
    return dict(drafts)


def done(state: TableState) -> bool:
    """Nothing left to enter or confirm at the table."""
    return state in (TableState.CONFIRMED, TableState.AWARDED)


class Recorded(NamedTuple):
    session: int
    table: int
    winds: list  # the seats' winds, in order
    scores: list  # score lists in wind order: the confirmed one first, then each draft's
    hands: list  # the current hands' objects, in order


def recorded_tables(tournament) -> list[Recorded]:
    """Every seated table, in order, with what the tournament file checks against the rules
    (its size, the confirmed scores and each draft's, its hands), so a rule change that one of
    them would not survive can be refused before it is made."""
    snap = snapshot(tournament)
    drafts = defaultdict(lambda: defaultdict(dict))
    for sc in ResultScore.objects.filter(
        result__status=Result.Status.DRAFT, result__table__session__tournament=tournament
    ).values("result__table_id", "result_id", "wind", "score"):
        drafts[sc["result__table_id"]][sc["result_id"]][sc["wind"]] = sc["score"]
    hands = current_hands(tournament)
    out = []
    for (session, table), table_id in sorted(snap["table_ids"].items()):
        winds = [s["wind"] for s in snap["seating"][session][table]]
        scores = []
        if table_id in snap["confirmed"]:
            scores.append([snap["confirmed"][table_id][w]["score"] for w in winds])
        for _pk, draft in sorted(drafts[table_id].items()):
            scores.append([draft.get(w) for w in winds])
        out.append(Recorded(session, table, winds, scores, hands.get(table_id, [])))
    return out
