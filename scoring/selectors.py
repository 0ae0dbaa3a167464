"""What several pages, printouts, workbooks, the feed and the file ask of the results: the
bridge from the database to the pure standings module, the penalties with what each is worth,
and the state of each table. Written once here so that no two of them can disagree.

A fixed number of queries per tournament whatever its size, read once per tournament revision
and kept as objects shared by every caller (core.kept), who must not change them: any confirmed
result, penalty, substitution, rule change or player change bumps the revision, so what is
kept is never stale and never needs a timeout.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date
from operator import attrgetter
from typing import NamedTuple

from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.collation import collated
from core.errors import rule_message
from core.kept import per_revision
from core.numbers import plain_number
from scoring.hands import HandError, Outcome, play
from scoring.hands import stats as hand_stats
from scoring.models import Hand, HandConfirmation, Penalty, Result, ResultScore
from scoring.penalties import MINOR, Resolved, resolve
from scoring.rules import RuleError, is_awarded
from scoring.standings import (
    PenaltyRow,
    PlayerRow,
    SeatRow,
    SessionLine,
    TableRow,
    compute_standings,
)
from seating.models import WINDS, Seat, Table
from seating.selectors import winds_at_table
from tournament.models import ClockEvent, Player, Session


def has_confirmed_results(tournament) -> bool:
    return Result.objects.filter(
        table__session__tournament=tournament, status=Result.Status.CONFIRMED
    ).exists()


def standings_order(tournament) -> list[str] | None:
    """Player keys in standings order (penalties included, as the standings count them), for
    seating by standings; None while no result is confirmed."""
    if not has_confirmed_results(tournament):
        return None
    return [row.player.key for row in standings(tournament).rows]


def player_rows(tournament) -> list[PlayerRow]:
    """The players in the tournament language's order of their names (core.collation): the
    order the standings keep between tied players. Read once per seating revision and shared
    (core.kept): callers must not change the list."""
    return per_revision(
        "players",
        tournament,
        lambda: _read_players(tournament),
        revision=f"{tournament.seating_revision}:{tournament.language}",
    )


def _read_players(tournament) -> list[PlayerRow]:
    fields = ("key", "name", "status", "substitute", "ema_id", "country", "club", "team")
    rows = [
        PlayerRow(**row) for row in Player.objects.filter(tournament=tournament).values(*fields)
    ]
    return collated(rows, tournament.language, attrgetter("name"))


def _snapshot(tournament) -> dict:
    """Seating and confirmed scores of the whole tournament, read once per revision and shared
    (core.kept): callers must not change what it holds. The seating is read once per seating
    revision (Tournament.seating_revision): after a confirmation only the scores are read."""
    return per_revision("snapshot", tournament, lambda: _read_snapshot(tournament))


NEW_BY_ID = 200  # confirmed versions asked for by id; more, and the tournament's are read


def _read_snapshot(tournament) -> dict:
    seated = per_revision(
        "seated", tournament, lambda: _read_seating(tournament), tournament.seating_revision
    )
    # A confirmed version's scores never change (a correction is a new version), so each is
    # read once, by its id, and kept for every later revision: a confirmation reads the ids
    # of the confirmed results and the new one's scores.
    read = per_revision("confirmed-scores", tournament, dict, revision="any")
    results = dict(
        Result.objects.filter(
            status=Result.Status.CONFIRMED, table__session__tournament=tournament
        ).values_list("table_id", "pk")
    )
    new = [pk for pk in results.values() if pk not in read]
    if len(new) > NEW_BY_ID:  # the first read: the whole tournament's at once, every version
        # (a version the query above found confirmed may be superseded by now)
        scores = ResultScore.objects.filter(result__table__session__tournament=tournament)
    else:  # by id, whatever their status now: a version's scores are what they were
        scores = ResultScore.objects.filter(result_id__in=new)
    fetched = defaultdict(dict)  # whole before it is kept: another thread may be reading
    for result_id, wind, score, chombo in scores.values_list(
        "result_id", "wind", "score", "chombo"
    ):
        fetched[result_id][wind] = {"score": score, "chombo": chombo}
    read.update(fetched)
    results = {table_id: pk for table_id, pk in results.items() if pk in read}
    confirmed = {table_id: read[pk] for table_id, pk in results.items()}
    return {**seated, "confirmed": confirmed, "results": results}


def _read_seating(tournament) -> dict:
    seats = list(
        Seat.objects.filter(session__tournament=tournament).values(
            "table_id",
            "table__number",
            "session__number",
            "wind",
            "player__key",
            "player__name",
            "player__ema_id",
            "replaces__key",
            "joined",
        )
    )
    # A table whose winds are still to be drawn shows none (issue 24). Asked apart, and only
    # when the tournament draws winds at the table: a moment for each of thousands of seats
    # was a fifth of the read.
    pending = set()
    if winds_at_table(tournament):
        pending = set(
            Table.objects.filter(
                session__tournament=tournament, winds_drawn_at__isnull=True
            ).values_list("pk", flat=True)
        )
    for s in seats:
        s["winds_pending"] = s["table_id"] in pending
    seating = defaultdict(lambda: defaultdict(list))
    table_ids = {}
    for s in sorted(seats, key=lambda s: WINDS.index(s["wind"])):
        seating[s["session__number"]][s["table__number"]].append(s)
        table_ids[(s["session__number"], s["table__number"])] = s["table_id"]
    return {"seating": {n: dict(tables) for n, tables in seating.items()}, "table_ids": table_ids}


def table_rows(tournament) -> list[TableRow]:
    """Confirmed tables, plus Sichuan awarded tables (one or two players) that need no result.

    A table's row is made once per seating revision and confirmed version (which never
    changes) and shared: after a confirmation only that table's row is new."""
    snap = _snapshot(tournament)
    rules = tournament.rule_set()
    made = per_revision("table-rows", tournament, dict, tournament.seating_revision)
    tables = []
    for session, session_tables in snap["seating"].items():
        # An awarded table counts once its session has results, not as soon as it is drawn.
        started = any(snap["table_ids"][(session, n)] in snap["confirmed"] for n in session_tables)
        for number, seats in session_tables.items():
            awarded = is_awarded(rules, len(seats)) and started
            table_id = snap["table_ids"][(session, number)]
            result = snap["confirmed"].get(table_id)
            if result is None and not awarded:
                continue
            key = (table_id, None if awarded else snap["results"][table_id])
            row = made.get(key)
            if row is None:
                row = made[key] = TableRow(
                    session=session,
                    table=number,
                    seats=[
                        SeatRow(
                            wind=s["wind"],
                            player=s["player__key"],
                            score=None if awarded else result[s["wind"]]["score"],
                            chombo=0 if awarded else result[s["wind"]]["chombo"],
                            replaces=s["replaces__key"],
                            joined=s["joined"],
                        )
                        for s in seats
                    ],
                )
            tables.append(row)
    tables.sort(key=lambda t: (t.session, t.table))
    return tables


def seating(tournament) -> dict:
    """Session number -> table number -> seats (dicts in wind order): every session at once,
    for who needs several."""
    return _snapshot(tournament)["seating"]


def session_seating(tournament, number) -> dict:
    """Table number -> seats (dicts in wind order) of one session."""
    return seating(tournament).get(number, {})


def confirmed_scores(tournament, number) -> dict:
    """Table number -> wind -> (score, chombo) of the session's confirmed results."""
    snap = _snapshot(tournament)
    return {
        table: {wind: (s["score"], s["chombo"]) for wind, s in snap["confirmed"][table_id].items()}
        for (session, table), table_id in snap["table_ids"].items()
        if session == number and table_id in snap["confirmed"]
    }


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
    snap = _snapshot(tournament)
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


def current_hands(tournament) -> dict[int, list[dict]]:
    """Table id → the hand objects of its current hands (a superseded version or an undone
    hand left out), in the order they were played: what the tournament file carries. One
    query for the whole tournament."""
    out = defaultdict(list)
    rows = (
        Hand.objects.filter(table__session__tournament=tournament, superseded_at__isnull=True)
        .order_by("table_id", "number")
        .values_list("table_id", "data")
    )
    for table_id, data in rows:
        out[table_id].append(data)
    return dict(out)


def table_hands(table) -> list[Hand]:
    """One table's current hands, in the order they were played."""
    return list(table.hands.filter(superseded_at__isnull=True).order_by("number"))


def hands_outcome(table, hands: list | None = None) -> Outcome:
    """What the table's hands give (scores per wind, chombo per wind for riichi, the game hand
    by hand) under its tournament's rule set, with the table's winds: its current hands, or
    the hand objects `hands` a service is about to keep. scoring.hands.HandError names the
    first hand that does not hold."""
    rules = table.session.tournament.rule_set()
    winds = sorted(table.seats.values_list("wind", flat=True), key=WINDS.index)
    if hands is None:
        hands = [hand.data for hand in table_hands(table)]
    return play(rules, hands, winds)


class Sheet(NamedTuple):
    """A table's score sheet as the hall sees it (the board, the projector, the table page)."""

    table: int  # the table's number
    hands: int  # current hands recorded
    scores: dict  # wind → score after the hands; {} before the first hand
    over: bool  # riichi: the game is over (end of South; Furiten also below zero)
    last_hand: int | None  # the number of the table's last hand by the clock, once known
    pending: int  # hands some player has not confirmed yet
    problem: str  # the hands no longer hold (a rule change refused that), else ""


def last_hand(rules, status: dict, recorded: list) -> int | None:
    """The number of a table's last hand of the session by the clock's end rule (rule set's
    `end_of_session`): EMA 000 §5.8, after the warning the hand in progress and one more; SBR
    002 §2.4.4, at the end signal the hand in progress. `status` is the session's clock
    (tournament.timekeeping.status), `recorded` the times the table's hands were recorded.
    None while the clock has not got there."""
    remaining = status.get("remaining")
    if not status.get("session") or remaining is None:
        return None
    one_more = rules.end_of_session == "one_more_hand"
    threshold = status["warning_at"] if one_more else 0
    if remaining > threshold:
        return None
    moment = status["server_time"] / 1000 - (threshold - remaining)
    before = sum(1 for at in recorded if at.timestamp() <= moment)
    return before + (2 if one_more else 1)


def session_sheets(session, status: dict | None = None) -> dict[int, Sheet]:
    """Table number → its Sheet, for every table of the session that recorded hands: two
    queries for the session, whatever its size. `status`: the session's clock, for the last
    hand."""
    rules = session.tournament.rule_set()
    rows = (
        Hand.objects.filter(table__session=session, superseded_at__isnull=True)
        .order_by("table__number", "number")
        .values_list("pk", "table__number", "data", "recorded_at")
    )
    hands = defaultdict(list)
    for pk, table, data, at in rows:
        hands[table].append((pk, data, at))
    winds = defaultdict(list)
    for table, wind in Seat.objects.filter(session=session).values_list("table__number", "wind"):
        winds[table].append(wind)
    confirmed = Counter(
        HandConfirmation.objects.filter(
            hand__table__session=session, hand__superseded_at__isnull=True
        ).values_list("hand_id", flat=True)
    )
    out = {}
    for table, played in hands.items():
        seats = sorted(winds[table], key=WINDS.index)
        pending = sum(1 for pk, _d, _a in played if confirmed[pk] < len(seats))
        at_end = last_hand(rules, status or {}, [at for _p, _d, at in played])
        try:
            outcome = play(rules, [data for _p, data, _a in played], seats)
        except HandError as e:
            out[table] = Sheet(table, len(played), {}, False, at_end, pending, rule_message(e))
            continue
        over = bool(getattr(outcome.game, "over", False))
        out[table] = Sheet(table, len(played), outcome.scores, over, at_end, pending, "")
    return out


def hand_changes(table) -> list[dict]:
    """Every hand of the table that was corrected or undone, with who recorded it and who
    changed it, when and why, oldest first: what the referee sees of a table's sheet."""
    hands = list(table.hands.select_related("recorded_by", "superseded_by").order_by("number"))
    later = {(h.number, h.version) for h in hands}
    out = []
    for hand in sorted(hands, key=attrgetter("number", "version")):
        if hand.superseded_at is None:
            continue
        out.append(
            {
                "number": hand.number,
                "version": hand.version,
                "data": hand.data,
                "change": _("corrected")
                if (hand.number, hand.version + 1) in later
                else _("undone"),
                "recorded": _who(hand.recorded_by, hand.via, hand.device),
                "recorded_at": hand.recorded_at,
                "changed_at": hand.superseded_at,
                "changed": _who(hand.superseded_by, hand.via, ""),
                "reason": hand.reason,
            }
        )
    return out


def _who(user, via, device) -> str:
    if user is not None:
        return user.get_username()
    if device:
        return _("the table page (%(wind)s's device)") % {"wind": device}
    return _("the table page")


def leading_tables(session, status: dict, count: int) -> list[dict]:
    """The `count` tables of the session where the tournament's leaders play (by the best
    standings place among each table's players; by table number before any result), with the
    scores their hands give now: what the projector shows of the hall's top tables."""
    order = standings_order(session.tournament) or []
    rank = {key: i for i, key in enumerate(order)}
    seats = defaultdict(list)
    for table, wind, key, name in Seat.objects.filter(session=session).values_list(
        "table__number", "wind", "player__key", "player__name"
    ):
        seats[table].append((wind, key, name))
    sheets = session_sheets(session, status)

    def lead(table):
        return (min(rank.get(key, len(rank)) for _w, key, _n in seats[table]), table)

    out = []
    for table in sorted(seats, key=lead)[:count]:
        sheet = sheets.get(table)
        out.append(
            {
                "table": table,
                "label": _("Table %(table)s") % {"table": table},
                "hands": sheet.hands if sheet else 0,
                "last": bool(sheet and sheet.last_hand and sheet.hands + 1 >= sheet.last_hand),
                "over": bool(sheet and sheet.over),
                "seats": [
                    {
                        "wind": wind,
                        "name": name,
                        "score": sheet.scores.get(wind) if sheet else None,
                    }
                    for wind, _key, name in sorted(seats[table], key=lambda s: WINDS.index(s[0]))
                ],
            }
        )
    return out


def substitutions(tournament) -> dict:
    """Session number -> {substitute's key: (replaced player's key, joined)}."""
    out = {}
    for number, tables in seating(tournament).items():
        for seats in tables.values():
            for s in seats:
                if s["replaces__key"] is not None:
                    out.setdefault(number, {})[s["player__key"]] = (s["replaces__key"], s["joined"])
    return out


def session_on(tournament, number) -> bool:
    """A session is on while some of its played tables have no confirmed result."""
    if number is None:
        return False
    snap = _snapshot(tournament)
    rules = tournament.rule_set()
    return any(
        snap["table_ids"][(number, t)] not in snap["confirmed"]
        and not is_awarded(rules, len(seats))
        for t, seats in snap["seating"].get(number, {}).items()
    )


class Now(NamedTuple):
    """Which session it is now: its number (None before any seating) and why: "playing" (being
    played), "next" (the next to be played) or "last" (the last one played; all are over)."""

    number: int | None
    state: str


def session_now(tournament) -> Now:
    """The one answer to "which session is it now" that every page gives (phones, projector,
    the top bar's clock, the desk, the backups): the session being played, else the next one
    to be played, else the last one played.

    Being played: not over, and started (its clock started, or a result entered). The next: the
    first seated session that is not over. A plan that seats sessions 1–4 at once still sends
    everyone to session 1 until it is played.
    """
    return per_revision("now", tournament, lambda: _session_now(tournament))


def _session_now(tournament) -> Now:
    seated = sorted(seating(tournament))
    if not seated:
        now = Now(None, "")
    else:
        ended = set(
            Session.objects.filter(tournament=tournament, ended_at__isnull=False).values_list(
                "number", flat=True
            )
        )
        open_ = [n for n in seated if n not in ended and session_on(tournament, n)]
        started = _started(tournament)
        playing = [n for n in open_ if n in started]
        if playing:
            now = Now(playing[0], "playing")
        elif open_:
            now = Now(open_[0], "next")
        else:
            now = Now(seated[-1], "last")
    return now


def _started(tournament) -> set[int]:
    """Numbers of the sessions whose clock was started, or with a result or a penalty."""
    clocks = ClockEvent.objects.filter(session__tournament=tournament).values_list(
        "session__number", flat=True
    )
    # Every version of every table's result: the database says which sessions, not each row.
    results = (
        Result.objects.filter(table__session__tournament=tournament)
        .values_list("table__session__number", flat=True)
        .order_by()  # Result's own ordering would go into the DISTINCT
        .distinct()
    )
    penalties = Penalty.objects.filter(session__tournament=tournament).values_list(
        "session__number", flat=True
    )
    return set(clocks) | set(results) | set(penalties)


def last_started(tournament) -> int | None:
    """The newest session whose play has begun: whose state a backup holds (a plan that seats
    sessions 1–4 at once has begun none of them)."""
    return max(_started(tournament), default=None)


def session_over(tournament, number) -> bool:
    """Play of a seated session is over: ended by the desk, or every played table confirmed."""
    if number is None:
        return False
    if Session.objects.filter(
        tournament=tournament, number=number, ended_at__isnull=False
    ).exists():
        return True
    return number in seating(tournament) and not session_on(tournament, number)


def standings(tournament):
    """The tournament's standings (scoring.standings.Standings), worked out once per revision
    and shared (core.kept): callers must not change them."""
    return per_revision(
        "standings",
        tournament,
        lambda: compute_standings(
            tournament.rule_set(),
            player_rows(tournament),
            table_rows(tournament),
            penalty_rows(tournament),
        ),
    )


def released_sessions(tournament) -> set[int] | None:
    """The one answer to "whose results may the public see": None for every session (the
    usual), or, when the tournament releases results by session, the numbers of the seated
    sessions whose every played table is confirmed (an awarded table needs no result). A
    session with one table still open shows nothing of itself, penalties included, so nobody
    at a late table plays to standings they can already see. Desk and referee pages never ask:
    they show everything."""
    if not tournament.release_by_session:
        return None
    return {number for number in seating(tournament) if not session_on(tournament, number)}


def public_standings(tournament):
    """The standings every public page and the feed show: those of the released sessions
    (released_sessions), the same as standings() unless results are released by session.
    Cached per revision: the confirmation of a session's last table bumps it, so the session
    shows on the next request."""
    released = released_sessions(tournament)
    if released is None:
        return standings(tournament)
    return per_revision(
        "public-standings",
        tournament,
        lambda: compute_standings(
            tournament.rule_set(),
            player_rows(tournament),
            [t for t in table_rows(tournament) if t.session in released],
            [p for p in penalty_rows(tournament) if p.session in released],
        ),
    )


class TableLine(NamedTuple):
    """One player's line of a confirmed table as the standings count it: the desk's table page,
    the player pages and the printouts read these, so they cannot disagree (issue 23)."""

    player: PlayerRow
    line: SessionLine
    replaces: PlayerRow | None  # a substitute's line: whom they replace


def session_lines(tournament, session) -> dict[int, list[TableLine]]:
    """Table number -> its lines in wind order, for every confirmed table of a session: the
    standings read once (a printout of a hundred tables asks for all of them)."""
    data = standings(tournament)
    rows = data.rows + data.substitutes
    players = {row.player.key: row.player for row in rows}
    tables = defaultdict(list)
    for row in rows:
        for line in row.sessions:
            if line.session == session and line.table is not None:
                tables[line.table].append(TableLine(row.player, line, players.get(line.replaces)))
    return {
        table: sorted(lines, key=lambda t: WINDS.index(t.line.wind))
        for table, lines in tables.items()
    }


def table_lines(tournament, session, table) -> list[TableLine]:
    """The lines of one table in wind order, straight from the standings."""
    return session_lines(tournament, session).get(table, [])


def standings_row(tournament, key):
    """The standings row of the player `key` (ranked or substitute), or None."""
    data = standings(tournament)
    return next((row for row in data.rows + data.substitutes if row.player.key == key), None)


# --- penalties ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyWorth:
    """A penalty and what it is worth under the tournament's current rules: a Resolved, the
    RuleError it raises now (a rule change made it invalid), or None when it is void. A void
    one keeps what it would be worth in its place (`voided_worth`), which the pages strike
    through: it counts nowhere."""

    penalty: Penalty
    worth: Resolved | RuleError | None
    voided_worth: Resolved | RuleError | None = None

    @property
    def text(self) -> str:
        return "" if self.worth is None else worth_text(self.worth)

    @property
    def voided_text(self) -> str:
        return "" if self.voided_worth is None else worth_text(self.voided_worth)


def penalties_with_worth(tournament, session=None) -> list[PenaltyWorth]:
    """Every penalty of the tournament (or of one session), void ones too, in the order they
    were recorded, each with its worth. One query.

    A minor violation takes its place on the progressive scale by its order among the player's
    live ones in the session (002 §2.8.2), which is why the worth is worked out here, over the
    whole session in recorded order, and never for a filtered list.
    """
    penalties = Penalty.objects.filter(session__tournament=tournament)
    if session is not None:
        penalties = penalties.filter(session=session)
    penalties = penalties.select_related(
        "session", "table", "player", "recorded_by", "voided_by"
    ).order_by("recorded_at", "pk")
    rules = tournament.rule_set()
    out, minors = [], defaultdict(int)
    for p in penalties:
        void = p.voided_at is not None
        # A void minor violation takes no place on the scale: its worth is the next place's.
        order = minors[(p.session_id, p.player_id)] + 1
        if p.kind == MINOR and not void:
            minors[(p.session_id, p.player_id)] = order
        try:
            worth = resolve(
                rules,
                p.kind,
                minutes=p.minutes,
                amount=plain_number(p.amount),
                order=order,
                stage=p.stage or None,
            )
        except RuleError as e:
            worth = e
        out.append(PenaltyWorth(p, None, worth) if void else PenaltyWorth(p, worth))
    return out


def penalty_rows(tournament) -> list[PenaltyRow]:
    """The tournament's live penalties as the standings take them. One not valid under the
    current rules is left out; the log shows it as such."""
    return [
        PenaltyRow(
            w.penalty.session.number,
            w.penalty.player.key,
            w.worth.amount,
            w.worth.stage,
            w.penalty.kind,
            w.worth.fixed,
        )
        for w in penalties_with_worth(tournament)
        if isinstance(w.worth, Resolved)
    ]


def worth_text(worth) -> str:
    """A penalty's worth (or the RuleError it raised) for a person: amount and stage."""
    if isinstance(worth, RuleError):
        return _("not valid under the current rules: %(problem)s") % {
            "problem": rule_message(worth)
        }
    if worth.fixed:
        return _("fixed result for the session (a substitute plays)")
    stage = _("before placement") if worth.stage == "before" else _("after placement")
    return f"{number_format(worth.amount, force_grouping=True)} ({stage})"


# --- finishing the tournament ------------------------------------------------------------------


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
    snap = _snapshot(tournament)
    rules = tournament.rule_set()
    ended = set(
        Session.objects.filter(tournament=tournament, ended_at__isnull=False).values_list(
            "number", flat=True
        )
    )
    played = _started(tournament) | ended
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


# --- the state of each table -------------------------------------------------------------------


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


# --- statistics from hands ---------------------------------------------------------------------


class PlayerHands(NamedTuple):
    player: PlayerRow
    stats: object  # scoring.hands.stats.RiichiStats or SichuanStats


@dataclass(frozen=True)
class HandStatistics:
    """What the tables' hands say of the players (scoring.hands.stats): the player page, the
    workbook and statistics.json read this, so they cannot disagree. Empty (false) when no
    table of the counted sessions recorded hands."""

    game: str  # riichi or sichuan
    rows: list  # PlayerHands of every player who played a recorded hand, in name order
    players: dict  # player key → PlayerRow (every player of the tournament)
    largest: tuple  # scoring.hands.stats.Largest, in play order
    most_wins: object  # scoring.hands.stats.MostWins or None
    lines: list  # scoring.hands.stats.HandLine: every hand, in play order

    def __bool__(self):
        return bool(self.lines)

    def of(self, key):
        """The stats of the player `key`, or None if they played no recorded hand."""
        return next((row.stats for row in self.rows if row.player.key == key), None)


def hand_statistics(tournament, sessions=None) -> HandStatistics:
    """Statistics from the current hands of every table (of `sessions`, a set of session
    numbers; None: all), each seat's hands counted for the player seated there. A table whose
    hands do not hold under the current rules (a rule change refuses to make one) is left out
    rather than failing every page. At most four queries (two of them the seating snapshot's,
    often read already), worked out once per revision and shared (core.kept)."""
    counted = "all" if sessions is None else ",".join(map(str, sorted(sessions)))
    return per_revision(
        f"hand-stats:{counted}", tournament, lambda: _hand_statistics(tournament, sessions)
    )


def _hand_statistics(tournament, sessions) -> HandStatistics:
    snap = _snapshot(tournament)
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


# --- people across events (issue 25) -----------------------------------------------------------


class PersonEvent(NamedTuple):
    """One event of a person: the tournament, the player it was there, and how it ended."""

    tournament: object  # tournament.models.Tournament
    player: Player
    rank: int | None  # None: unranked (a substitute, or no result yet)
    total: int | float | None


def person_events(person) -> list[PersonEvent]:
    """Every tournament a person played (each player linked to them), newest first, with the
    player's rank and total from the standings the desk shows (standings(): every session,
    as on the desk's pages; a finished tournament's are the final ones). One query for the
    players, then each tournament's cached standings."""
    players = Player.objects.filter(person=person).select_related("tournament")
    events = []
    for player in players:
        tournament = player.tournament
        row = standings_row(tournament, player.key) if has_confirmed_results(tournament) else None
        events.append(
            PersonEvent(
                tournament,
                player,
                row.rank if row else None,
                row.total if row else None,
            )
        )
    events.sort(key=lambda e: (e.tournament.start_date or date.min, e.tournament.pk), reverse=True)
    return events
