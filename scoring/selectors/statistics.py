"""Statistics from the tables' hands (the pure mahjong.hands.stats works them out): the
player page, the workbook and statistics.json read these, so they cannot disagree."""

import hashlib
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Count, Max, Q, Sum

from core.kept import per_revision
from mahjong.hands import HandError, play
from mahjong.hands import stats as hand_stats
from mahjong.standings import PlayerRow
from scoring.models import Hand
from scoring.selectors.hands import current_hands
from scoring.selectors.snapshot import player_rows, players_and_rules, snapshot


class PlayerHands(NamedTuple):
    player: PlayerRow
    stats: object  # mahjong.hands.stats.RiichiStats or SichuanStats


@dataclass(frozen=True)
class HandStatistics:
    """What the tables' hands say of the players (mahjong.hands.stats): the player page, the
    workbook and statistics.json read this, so they cannot disagree. Empty (false) when no
    table of the counted sessions recorded hands."""

    game: str  # riichi or sichuan
    rows: list  # PlayerHands of every player who played a recorded hand, in name order
    players: dict  # player key → PlayerRow (every player of the tournament)
    largest: tuple  # mahjong.hands.stats.Largest, in play order
    most_wins: object  # mahjong.hands.stats.MostWins or None
    lines: list  # mahjong.hands.stats.HandLine: every hand, in play order

    def __bool__(self):
        return bool(self.lines)

    def of(self, key):
        """The stats of the player `key`, or None if they played no recorded hand."""
        return next((row.stats for row in self.rows if row.player.key == key), None)


def hand_statistics(tournament, sessions=None) -> HandStatistics:
    """Statistics from the current hands of every table (of `sessions`, a set of session
    numbers; None: all), each seat's hands counted for the player seated there. A table whose
    hands do not hold under the current rules (a rule change refuses to make one) is left out
    rather than failing every page. At most five queries (two of them the seating snapshot's,
    often read already; one says what they are made of), worked out once per revision and
    shared (core.kept), and kept for as long as what they are made of stays the same."""
    counted = "all" if sessions is None else ",".join(map(str, sorted(sessions)))
    return per_revision(
        f"hand-stats:{counted}",
        tournament,
        lambda: per_revision(
            "hand-stats-counted",
            tournament,
            lambda: _hand_statistics(tournament, sessions),
            revision=_counts(tournament, counted),
        ),
    )


def _counts(tournament, counted: str) -> str:
    """What the statistics are made of, in one query (issue 39): the sessions counted, the
    seating and the players' names (the seating revision), the rules, and the current hands of
    the counted sessions, as their count and sum of ids. A hand is never changed in place: a
    correction or an undo supersedes it and a new hand has a larger id than any before, so any
    change to the current hands changes one of them.

    The hands are read after this digest, so what is kept under it may count a hand saved in
    between: the digest must never come back once any hand was saved or undone, or an undo
    (which brings back the current hands of before) would find such a hand counted. So it also
    names every hand ever saved (their count and largest id, superseded ones too) and the
    hands undone or corrected (those superseded): each hand saved or undone moves them on.

    A write that changes none of this (a confirmation, a penalty, the clock, a hand of a
    session not counted) finds the statistics kept."""
    hands = Hand.objects.filter(table__session__tournament=tournament)
    if counted != "all":
        hands = hands.filter(table__session__number__in=[int(n) for n in counted.split(",") if n])
    current = Q(superseded_at__isnull=True)
    found = hands.aggregate(
        n=Count("pk", filter=current),
        sum=Sum("pk", filter=current),
        made=Count("pk"),
        top=Max("pk"),
        superseded=Count("superseded_at"),
    )
    parts = (
        counted,
        players_and_rules(tournament),
        found["n"],
        found["sum"],
        found["made"],
        found["top"],
        found["superseded"],
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _hand_statistics(tournament, sessions) -> HandStatistics:
    snap = snapshot(tournament)
    rules = tournament.rule_set()
    hands = current_hands(tournament)
    games = []
    for (session, table), table_id in sorted(snap["table_ids"].items()):
        if not hands.get(table_id) or (sessions is not None and session not in sessions):
            continue
        seats = snap["seating"][session][table]
        players = {s["wind"]: s["player__key"] for s in seats}
        try:
            outcome = play(rules, hands[table_id], tuple(players))
        except HandError:
            continue
        games.append(hand_stats.TableGame(session, table, players, hands[table_id], outcome.game))
    data = hand_stats.statistics(rules.game, games)
    everyone = player_rows(tournament)
    return HandStatistics(
        game=rules.game,
        rows=[PlayerHands(p, data.players[p.key]) for p in everyone if p.key in data.players],
        players={p.key: p for p in everyone},
        largest=data.largest,
        most_wins=data.most_wins,
        lines=hand_stats.hand_lines(rules.game, games),
    )
