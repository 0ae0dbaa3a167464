"""Seating writes: tables by hand, the random draw, Swiss seating, swaps and moves.

One function per action, each in a transaction, each leaving a SeatingChange line (who, when,
what, why) beside the seats' own history. A session with results is reseated only by the
director's explicit override with a reason.
"""

import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from mahjong.table import is_awarded, three_player
from seating.algorithms.draw import WINDS, DrawError, draw_tables, rotate_incomplete, separate
from seating.algorithms.swiss import short_trades, swiss_round
from seating.models import Seat, SeatingChange, Table, Wind
from seating.selectors import keep_apart_values, session_rounds
from tournament.changes import touch
from tournament.models import Player, Session, Tournament
from tournament.services import refuse_if_finished


def record(session, kind, detail, user=None, reason="", played=False):
    SeatingChange.objects.create(
        session=session,
        kind=kind,
        detail=detail[:500],
        reason=reason[:500],
        played=played,
        changed_by=user if user is not None and user.is_authenticated else None,
    )


def has_results(session) -> bool:
    """Any result, draft or confirmed, at one of the session's tables (scoring's Result, read
    through the tables' reverse relation: seating sits below scoring)."""
    return Table.objects.filter(session=session, results__isnull=False).exists()


def _too_few(count, missing):
    return ActionRefused(
        ngettext(
            "%(count)d players cannot fill tables of four and there are not enough "
            "substitutes: %(missing)d more player is needed.",
            "%(count)d players cannot fill tables of four and there are not enough "
            "substitutes: %(missing)d more players are needed.",
            missing,
        )
        % {"count": count, "missing": missing}
    )


def is_sichuan(session) -> bool:
    return is_sichuan_tournament(session.tournament)


def is_sichuan_tournament(tournament) -> bool:
    return three_player(tournament.rule_set())


def taken(session) -> set[int]:
    """Ids of the players the session has already placed: seated, or replaced by a substitute
    (a replaced player is out of the session; seating them again would give one player two
    lines of one session, which the tournament file refuses)."""
    seats = session.seats.values_list("player_id", "replaces_id")
    return {pk for pair in seats for pk in pair if pk is not None}


def draw_pool(session) -> list[Player]:
    """Who the draw seats: the checked-in players when check-in was used, else every active one,
    less anyone already seated by hand (or replaced) in this session. Substitutes are not in it."""
    seated = taken(session)
    players = list(session.tournament.players.filter(status=Player.Status.ACTIVE, substitute=False))
    # Check-in was used when anyone is checked in, seated or not: once the checked-in players
    # are seated, those who never checked in are not the draw's to seat.
    used = any(p.checked_in for p in players)
    return [p for p in players if p.pk not in seated and (p.checked_in or not used)]


def substitutes_to_fill(session, count: int) -> list[Player]:
    """Substitutes who make a riichi field a multiple of four: checked-in ones first."""
    missing = -count % 4
    if not missing:
        return []
    seated = taken(session)
    pool = [
        p
        for p in session.tournament.players.filter(status=Player.Status.ACTIVE, substitute=True)
        if p.pk not in seated
    ]
    pool.sort(key=lambda p: (not p.checked_in, p.name))
    return pool[:missing]


def create_tables(session, tables: list[list[Player]]):
    start = (session.tables.order_by("-number").values_list("number", flat=True).first()) or 0
    for offset, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=start + offset)
        for wind, player in zip(WINDS, players, strict=False):
            Seat.objects.create(table=table, session=session, wind=wind, player=player)


def _seated(session, tables, method, seed, detail, user) -> Session:
    """The end of a draw or a Swiss seating: the tables, the session's method and seed (so the
    seating can be re-run), the seating history's line."""
    create_tables(session, tables)
    session.method = Session.Method(method)
    session.seed = seed
    session.save(update_fields=["method", "seed"])
    record(session, SeatingChange.Kind(method), detail, user)
    touch(session.tournament_id)
    return session


def _field(session, seed):
    """Who a draw or Swiss seating seats (riichi filled from the substitutes), whether it is
    Sichuan, and the seed (a fresh one unless given)."""
    pool = draw_pool(session)
    if not pool:
        raise ActionRefused(_("There is nobody left to seat in this session."))
    sichuan = is_sichuan(session)
    if not sichuan:
        pool += substitutes_to_fill(session, len(pool))
    return pool, sichuan, secrets.randbits(48) if seed is None else seed


@transaction.atomic
def draw_session(
    session: Session, seed: int | None = None, user=None, keep_apart: str | None = None
) -> Session:
    """Seat the draw pool at random tables with random winds; the seed is kept for a re-run.

    Tables already made by hand stay; the draw seats everyone else after them. A riichi field
    that is not a multiple of four is filled from the substitutes. With a keep-apart field
    (the tournament's unless given) players sharing it are then swapped apart where possible.
    """
    session = Session.objects.select_for_update().get(pk=session.pk)
    refuse_if_finished(session.tournament_id)
    pool, sichuan, seed = _field(session, seed)
    by_key = {p.key: p for p in pool}
    try:
        drawn = draw_tables(list(by_key), seed, three_player=sichuan)
    except DrawError as e:
        raise _too_few(len(pool), 4 - e.args[0]) from e
    field = session.tournament.keep_apart if keep_apart is None else keep_apart
    drawn = separate(drawn, keep_apart_values(session.tournament, field), seed)
    if sichuan:
        drawn = rotate_incomplete(drawn, incomplete_before(session), seed)
    detail = ngettext(
        "%(count)d player drawn with seed %(seed)d",
        "%(count)d players drawn with seed %(seed)d",
        len(pool),
    ) % {"count": len(pool), "seed": seed}
    return _seated(session, [[by_key[k] for k in t] for t in drawn], "draw", seed, detail, user)


def incomplete_before(session) -> set:
    """Keys of players who sat at a three-player or awarded table in an earlier session."""
    rounds = session_rounds(session.tournament)
    return {
        key
        for number, tables in rounds.items()
        if number < session.number
        for table in tables
        if len(table) < 4
        for key in table
    }


def swiss_ranking(pool: list[Player], standings: list[str]) -> list[Player]:
    """The pool in standings order; players without a standings line, then substitutes, come
    last."""
    order = {key: i for i, key in enumerate(standings)}
    return sorted(pool, key=lambda p: (p.substitute, order.get(p.key, len(order)), p.name))


def last_planned(session) -> int:
    """The session by which Swiss seating plans the winds to come out even: the tournament's
    last planned one, or this one if the director went past the plan."""
    return max(session.tournament.planned_sessions, session.number)


@transaction.atomic
def swiss_session(
    session: Session,
    standings: list[str] | None,
    seed: int | None = None,
    user=None,
    keep_apart: str | None = None,
) -> Session:
    """Seat the session by the current standings (002 §3.1 "programmed"/"Danish" seating):
    the top four together and so on, avoiding repeat meetings and balancing winds; Sichuan's
    three-player and awarded tables go last.

    `standings`: the player keys in standings order, penalties included, as the scoring room's
    `standings_order()` gives them (None while no result is confirmed). Seating sits below
    scoring, so the caller asks for them."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    refuse_if_finished(session.tournament_id)
    if session.number < 2:
        raise ActionRefused(_("Seating by standings starts with session 2; use the draw."))
    if session.seats.exists():
        raise ActionRefused(_("Remove this session's tables first: Swiss seats everyone."))
    tournament = session.tournament
    if standings is None:
        raise ActionRefused(_("There are no confirmed results to seat by yet."))
    pool, sichuan, seed = _field(session, seed)
    ranking = swiss_ranking(pool, standings)
    by_key = {p.key: p for p in ranking}
    history = [
        tables for number, tables in session_rounds(tournament).items() if number < session.number
    ]
    field = tournament.keep_apart if keep_apart is None else keep_apart
    try:
        seated = swiss_round(
            [p.key for p in ranking],
            history,
            seed=seed,
            keep_apart=keep_apart_values(tournament, field),
            three_player=sichuan,
            sessions=last_planned(session),
            budget=settings.SWISS_SECONDS,
        )
    except DrawError as e:
        raise _too_few(len(pool), 4 - e.args[0]) from e
    detail = ngettext(
        "%(count)d player seated by standings, seed %(seed)d",
        "%(count)d players seated by standings, seed %(seed)d",
        len(pool),
    ) % {
        "count": len(pool),
        "seed": seed,
    }
    trades = short_trades(
        [p.key for p in ranking],
        history,
        seated,
        keep_apart=keep_apart_values(tournament, field),
        sessions=last_planned(session),
    )
    if trades:
        detail = f"{detail}. {short_trade_text(seated, [p.key for p in ranking], trades, by_key)}"
    return _seated(
        session,
        [[by_key[k] for k in t] for t in seated],
        "swiss",
        seed,
        detail[: SeatingChange._meta.get_field("detail").max_length],
        user,
    )


def short_trade_text(tables: list[list], ranking: list, trades: list, by_key: dict) -> str:
    """What seating by standings traded when the short tables are not the last places
    (002 §3.1 (3)), for the seating history: where they are, and why each of the last places
    is not at one."""
    place = {key: i + 1 for i, key in enumerate(ranking)}
    short = sorted(place[k] for t in tables if len(t) < 4 for k in t)
    reasons = []
    for trade in trades:
        name = {"place": trade.place, "name": by_key[trade.player].name}
        if trade.reason == "incomplete":
            text = _("place %(place)d, %(name)s, already sat at an incomplete table") % name
        elif trade.reason == "north":
            text = (
                _(
                    "place %(place)d, %(name)s, must sit North to end with even winds "
                    "(a table of three has no North)"
                )
                % name
            )
        else:
            text = ngettext(
                "place %(place)d, %(name)s, would leave %(count)d player's winds uneven",
                "place %(place)d, %(name)s, would leave %(count)d players' winds uneven",
                trade.count,
            ) % {**name, "count": trade.count}
        reasons.append(text)
    return _(
        "Incomplete tables at places %(places)s of %(count)d, not the last (002 §3.1 (3)): "
        "%(reasons)s; nobody placed lower can take a seat there without such a trade"
    ) % {"places": ", ".join(map(str, short)), "count": len(ranking), "reasons": "; ".join(reasons)}


@transaction.atomic
def add_table(session: Session, players: list[Player], user=None) -> Table:
    """A table made by hand: players in wind order E, S, W, N.

    Sichuan also has three-player tables (no North) and awarded tables of one or two players
    (docs/rules.md §3, 002 §3.1); riichi tables have four.
    """
    refuse_if_finished(session.tournament_id)
    players = [p for p in players if p is not None]
    sizes = (1, 2, 3, 4) if is_sichuan(session) else (4,)
    if len(players) not in sizes:
        raise ActionRefused(
            _("A table needs four players (Sichuan: three, or one or two at an awarded table).")
        )
    if len({p.pk for p in players}) != len(players):
        raise ActionRefused(_("A player can sit only once at a table."))
    seated = taken(session)
    for wind, p in zip(WINDS, players, strict=False):
        if p.pk in seated:
            raise ActionRefused(
                _("%(name)s is already seated (or replaced) in this session.") % {"name": p.name},
                field=wind,
            )
        if p.tournament_id != session.tournament_id:
            raise ActionRefused(_("%(name)s is not in this tournament.") % {"name": p.name})
    try:
        with transaction.atomic():
            create_tables(session, [players])
    except IntegrityError as e:
        raise ActionRefused(_("The seating changed meanwhile: reload the page.")) from e
    table = session.tables.order_by("-number").first()
    record(
        session,
        SeatingChange.Kind.TABLE,
        _("table %(number)d: %(names)s")
        % {"number": table.number, "names": ", ".join(p.name for p in players)},
        user,
    )
    touch(session.tournament_id)
    return table


def _refusal(
    rules, has_results_here: bool, seats: int, session_played: bool, number=None, hands: int = 0
) -> str | None:
    """Seating with results stays as it was played; so does a table with hands recorded at it
    (issue 34: removing it deleted them), and an awarded table once its session has results:
    its players' awarded points count from then on (002 §3.1.4)."""
    if has_results_here:
        return _("This table has results; its seating cannot be removed.")
    if hands:
        return ngettext(
            "Table %(number)s has %(count)d recorded hand: it cannot be removed while it has "
            "hands (undo them on the table's sheet first).",
            "Table %(number)s has %(count)d recorded hands: it cannot be removed while it has "
            "hands (undo them on the table's sheet first).",
            hands,
        ) % {"number": number, "count": hands}
    if is_awarded(rules, seats) and session_played:
        return _("This awarded table's session has results: its seating cannot be removed.")
    return None


def removal_refused(table: Table) -> str | None:
    """Why the table's seating may not be removed (the desk and the admin alike), or None."""
    session = table.session
    return _refusal(
        session.tournament.rule_set(),
        table.results.exists(),
        table.seats.count(),
        has_results(session),
        table.number,
        _current_hands(table),
    )


def _current_hands(table: Table) -> int:
    """How many hands the table's sheet holds now (an undone or corrected hand's old version
    left out). Read through the table's reverse relation: seating sits below scoring."""
    return table.hands.filter(superseded_at__isnull=True).count()


def removable_tables(session) -> list[int]:
    """The numbers of the session's tables whose seating may be removed: the same rule as
    removal_refused(), for the whole session in three queries (the session page's list)."""
    rules = session.tournament.rule_set()
    tables = session.tables.annotate(
        seated=Count("seats", distinct=True),
        results_count=Count("results", distinct=True),
        hands_count=Count("hands", filter=Q(hands__superseded_at__isnull=True), distinct=True),
    ).order_by("number")
    played = any(t.results_count for t in tables)
    return [
        t.number
        for t in tables
        if _refusal(rules, t.results_count > 0, t.seated, played, t.number, t.hands_count) is None
    ]


@transaction.atomic
def delete_table(table: Table, user=None):
    """Remove a table that has no result and no recorded hand yet; seating with results or
    hands stays as it was played."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    refuse_if_finished(table.session.tournament_id)
    refused = removal_refused(table)
    if refused:
        raise ActionRefused(refused)
    session = table.session
    names = ", ".join(s.player.name for s in table.seats.select_related("player"))
    record(
        session,
        SeatingChange.Kind.REMOVE,
        _("table %(number)d: %(names)s") % {"number": table.number, "names": names},
        user,
    )
    table.delete()
    touch(session.tournament_id)


# Winds drawn at the table (issue 24): the wind-tile seating of SBR 002 §2.4.6 and EMA 000
# §2.3. The desk's draw still places the players at tables; this records what the tiles said.


def winds_refused(table) -> str | None:
    """Why the winds of this table can no longer be recorded, or None. Results and hands
    are read through the table's reverse relations: seating sits below scoring."""
    if table.session.tournament.winds != Tournament.Winds.TABLE:
        return _("This tournament's winds come from the desk's draw, not from the table.")
    if table.results.exists():
        return _("This table has a result: its winds stay as the result was entered.")
    if table.hands.exists():
        return _("This table has recorded hands: its winds stay as they were played.")
    return None


@transaction.atomic
def record_table_winds(table: Table, winds: dict, user=None) -> Table:
    """Seat the table's players at the winds they drew: `winds` maps each of the table's
    winds ("E", "S", …) to a player's pk. The same players, every wind once; the seats change
    winds (their history keeps each step) and the seating history says who drew what.

    Refused in a tournament whose winds come from the desk, once the table has a result
    (draft or confirmed) or hands, and in a finished tournament. Recorded again before any of
    those, the new draw replaces the old one."""
    table = Table.objects.select_for_update().select_related("session__tournament").get(pk=table.pk)
    session = table.session
    refuse_if_finished(session.tournament_id)
    refused = winds_refused(table)
    if refused:
        raise ActionRefused(refused)
    seats = list(table.seats.select_related("player").order_by("wind"))
    seats.sort(key=lambda s: WINDS.index(s.wind))
    by_player = {s.player_id: s for s in seats}
    drawn = {}
    for seat in seats:
        wind = seat.wind
        label = Wind(wind).label
        pk = winds.get(wind)
        if pk in (None, ""):
            raise ActionRefused(_("%(wind)s: choose who drew it.") % {"wind": label}, field=wind)
        try:
            pk = int(pk)
        except (TypeError, ValueError):
            pk = None
        if pk not in by_player:
            raise ActionRefused(
                _("%(wind)s: that player is not at table %(number)d.")
                % {"wind": label, "number": table.number},
                field=wind,
            )
        if pk in drawn.values():
            raise ActionRefused(
                _("%(wind)s: %(name)s has already drawn another wind.")
                % {"wind": label, "name": by_player[pk].player.name},
                field=wind,
            )
        drawn[wind] = pk
    extra = sorted(set(winds) - set(drawn), key=lambda w: WINDS.index(w) if w in WINDS else 9)
    if any(winds[w] not in (None, "") for w in extra):
        raise ActionRefused(
            _("Table %(number)d has no seat for that wind.") % {"number": table.number},
            field=extra[0],
        )
    moving = [(by_player[pk], wind) for wind, pk in drawn.items() if by_player[pk].wind != wind]
    # (table, wind) is unique: free labels first, then the drawn winds.
    for index, (seat, _wind) in enumerate(moving):
        seat.wind = str(index)
        seat.save(update_fields=["wind"])
    for seat, wind in moving:
        seat.wind = wind
        seat.save(update_fields=["wind"])
    table.winds_drawn_at = timezone.now()
    table.winds_drawn_by = user if user is not None and user.is_authenticated else None
    table.save(update_fields=["winds_drawn_at", "winds_drawn_by"])
    record(
        session,
        SeatingChange.Kind.WINDS,
        _("table %(number)d: %(winds)s")
        % {
            "number": table.number,
            "winds": ", ".join(
                f"{Wind(wind).label} {by_player[pk].player.name}" for wind, pk in drawn.items()
            ),
        },
        user,
    )
    touch(session.tournament_id)
    return table
