"""What is still open when the director finishes the tournament."""

from dataclasses import dataclass
from typing import NamedTuple

from mahjong.table import is_awarded
from scoring.models import Result
from scoring.selectors.sessions import started_sessions
from scoring.selectors.snapshot import snapshot
from tournament.models import Session


class OpenTable(NamedTuple):
    session: int
    table: int
    draft: bool  # a result is entered and waits for its confirmation


@dataclass(frozen=True)
class Unfinished:
    """What is still open when the director finishes the tournament. Only `unconfirmed`
    refuses the finish; the rest is listed so that it is finished knowingly (with the open
    appeals, referee.selectors.open_appeals, which the finish page lists too)."""

    unconfirmed: list  # OpenTable: tables of played sessions without a confirmed result
    corrections: list  # OpenTable: confirmed tables with a newer draft waiting
    not_ended: list  # numbers of played sessions the desk has not ended
    unplayed: list  # numbers of seated sessions never played: they count nowhere

    def __bool__(self):
        return any((self.unconfirmed, self.corrections, self.not_ended))


def unfinished(tournament) -> Unfinished:
    """What is still open in the tournament (see Unfinished). A session is played once its
    clock started, a result or a penalty was recorded, or the desk ended it. Three queries."""
    snap = snapshot(tournament)
    rules = tournament.rule_set()
    ended = set(
        Session.objects.filter(tournament=tournament, ended_at__isnull=False).values_list(
            "number", flat=True
        )
    )
    played = started_sessions(tournament) | ended
    drafts = set(
        Result.objects.filter(
            table__session__tournament=tournament, status=Result.Status.DRAFT
        ).values_list("table_id", flat=True)
    )
    unconfirmed, corrections = [], []
    for (session, table), table_id in sorted(snap["table_ids"].items()):
        if session not in played or is_awarded(rules, len(snap["seating"][session][table])):
            continue
        line = OpenTable(session, table, table_id in drafts)
        if table_id not in snap["confirmed"]:
            unconfirmed.append(line)
        elif line.draft:
            corrections.append(line)
    seated = sorted(snap["seating"])
    return Unfinished(
        unconfirmed=unconfirmed,
        corrections=corrections,
        not_ended=[n for n in seated if n in played and n not in ended],
        unplayed=[n for n in seated if n not in played],
    )
