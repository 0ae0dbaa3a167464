"""A tournament file's rows: `import_tournament` creates the tournament the reader planned, all
of it in one transaction, or nothing.

It runs in two steps so that a big file does not stall the hall: `prepare_import` reads and
checks the whole file and looks up the users it names, outside any transaction (everything
that can refuse a file happens here); `create_tournament` then writes the rows with bulk
inserts in one short transaction, which is as long as SQLite's write lock is held and every
check-in and result save in the hall waits (issue 22: 20,000 players held it 23.6 s, and
saves made meanwhile failed with "database is locked").
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from core.marks import with_mark
from referee.models import Appeal, Incident
from scoring.models import Hand, HandConfirmation, Penalty, Result, ResultScore
from seating.models import Seat, Table
from tournament.changes import touch
from tournament.models import ClockEvent, Player, RuleChange, Session, Tournament

from .errors import TournamentFileError, show
from .reader import Reader, parse
from .schema import NOTE_MAX, PENALTY_NOTE_MAX, UNDO_PLAYERS

# Rows per INSERT. SQLite's backend lowers it to its limit of 999 variables a statement (about
# 90 players); PostgreSQL takes it as it is.
BATCH = 500


@dataclass
class Import:
    """A file ready to be created: its checked plan, who imports, and the users it names that
    this desk has (by user name)."""

    plan: Reader
    user: object
    users: dict


def _acting(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _save(instance, user):
    if user is not None:
        instance._history_user = user  # django-simple-history: who made the change
    instance.save()
    return instance


def _bulk(model, rows: list, user) -> list:
    """Insert the rows; for a model with a history, also the history rows save() would have
    written (created, by the importing user, or by the request's user as save() takes it)."""
    if not hasattr(model, "history"):
        return model.objects.bulk_create(rows, batch_size=BATCH)
    if not rows:
        return rows  # bulk_create_with_history would look for rows it did not get ids of
    if user is not None:
        for row in rows:
            row._history_user = user  # django-simple-history: who made the change
    return bulk_create_with_history(rows, model, batch_size=BATCH)


def import_tournament(content, user=None) -> Tournament:
    """Create the tournament of a version 1 file; all of it, or nothing and TournamentFileError.

    content: the file's bytes or text, or the already parsed dict. user: who imports (the
    entering and confirming user of results that come without a history).
    """
    return create_tournament(prepare_import(content, user))


def prepare_import(content, user=None, replacing: Tournament | None = None) -> Import:
    """Read and check the whole file, or raise TournamentFileError; writes nothing and holds
    no transaction. replacing: the tournament a restore deletes first (its slug is not taken).
    """
    data = parse(content)
    plan = Reader(data, replacing=replacing).read()
    User = get_user_model()
    names = plan.usernames()
    users = {
        u.get_username(): u
        for u in User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": names})
    }
    return Import(plan, _acting(user), users)


def create_tournament(ready: Import) -> Tournament:
    """Create the rows of a prepared file in one transaction (a savepoint inside another)."""
    try:
        with transaction.atomic():
            return _create(ready.plan, ready.user, ready.users)
    except IntegrityError as e:
        # The slug was free when the file was read; another import may have taken it since.
        if Tournament.objects.filter(slug=ready.plan.tournament["slug"]).exists():
            raise TournamentFileError(
                "tournament.slug",
                _("a tournament with the slug %(value)s already exists")
                % {"value": show(ready.plan.tournament["slug"])},
            ) from e
        raise


def _create(plan: Reader, user, users: dict) -> Tournament:
    now = timezone.now()
    finish = {role: users.get(name) for role, name in plan.finish.items()}
    tournament = _save(Tournament(**plan.tournament, **finish), user)
    created = _bulk(Player, [Player(tournament=tournament, **row) for row in plan.players], user)
    players = {p.key: p for p in created}
    created = _bulk(
        Session,
        [
            Session(
                tournament=tournament,
                number=s.number,
                method=s.method,
                seed=s.seed,
                ended_at=s.ended_at,
                length_seconds=s.length_seconds,
                warning_seconds=s.warning_seconds,
            )
            for s in plan.sessions
        ],
        user,
    )
    sessions = {s.number: s for s in created}  # by number
    _bulk(
        ClockEvent,
        [
            ClockEvent(
                session=sessions[s.number], kind=k, at=at, seconds=sec, table=t, by=users.get(by)
            )
            for s in plan.sessions
            for k, at, sec, t, by in s.clock
        ],
        user,
    )
    created = _bulk(
        Table,
        [
            Table(
                session=sessions[s.number],
                number=t.number,
                winds_drawn_at=t.winds_drawn[0] if t.winds_drawn else None,
                winds_drawn_by=users.get(t.winds_drawn[1]) if t.winds_drawn else None,
            )
            for s in plan.sessions
            for t in s.tables
        ],
        user,
    )
    tables = {(t.session.number, t.number): t for t in created}  # (session, table)
    created = _bulk(
        Seat,
        [
            Seat(
                table=tables[(s.number, t.number)],
                session=sessions[s.number],
                wind=wind,
                player=players[key],
                replaces=players[replaces] if replaces else None,
                joined=joined,
            )
            for s in plan.sessions
            for t in s.tables
            for wind, key, replaces, joined in t.seats
        ],
        user,
    )
    seats = {(s.session.number, s.table.number, s.wind): s for s in created}
    versions = [
        (tables[(s.number, t.number)], v)
        for s in plan.sessions
        for t in s.tables
        for v in t.versions
    ]
    results = _bulk(Result, [_result(table, v, user, users, now) for table, v in versions], user)
    ResultScore.objects.bulk_create(
        (
            ResultScore(result=result, wind=wind, player=players[key], score=score, chombo=chombo)
            for result, (_table, v) in zip(results, versions, strict=True)
            for wind, key, score, chombo in v.scores
        ),
        batch_size=BATCH,
    )
    hands = _bulk(
        Hand,
        [
            Hand(
                table=tables[(s.number, t.number)],
                number=number,
                data=data,
                recorded_by=user,
                recorded_at=now,
            )
            for s in plan.sessions
            for t in s.tables
            for number, data in enumerate(t.hands, start=1)
        ],
        user,
    )
    # The players' confirmations of each hand, as the table had them: a table in play goes on
    # without its players confirming every hand again. Who confirmed and when is not in the
    # file: the import's time, by nobody.
    by_place = {(h.table.session.number, h.table.number, h.number): h for h in hands}
    _bulk(
        HandConfirmation,
        [
            HandConfirmation(
                hand=by_place[(s.number, t.number, number)], wind=wind, confirmed_at=now
            )
            for s in plan.sessions
            for t in s.tables
            for number, winds in enumerate(t.confirmed, start=1)
            for wind in winds
        ],
        user,
    )
    _create_records(plan, user, users, tournament, players, sessions, tables, seats)
    for c in plan.rule_changes:
        changed_by = users.get(c["changed_by"])
        reason = with_mark(
            c["reason"], {"changed": c["changed_by"] if changed_by is None else None}, None
        )
        change = RuleChange.objects.create(
            tournament=tournament,
            changed_by=changed_by,
            old_ruleset=c["old_ruleset"],
            old_rules=c["old_rules"],
            new_ruleset=c["new_ruleset"],
            new_rules=c["new_rules"],
            reason=reason,
        )
        if c["changed_at"]:  # auto_now_add: set the recorded time afterwards
            RuleChange.objects.filter(pk=change.pk).update(changed_at=c["changed_at"])
    touch(tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _result(table, v, user, users, now) -> Result:
    """One version of a table's result; who entered and confirmed it, from the file or, for a
    table without a history, the importing user now."""
    if v.by_importer:
        entered_by, entered_at = user, now
        confirmed = v.status == Result.Status.CONFIRMED
        confirmed_by = user if confirmed else None
        confirmed_at = now if confirmed else None
        note = v.note
    else:
        entered_by = users.get(v.entered_by)
        confirmed_by = users.get(v.confirmed_by)
        entered_at, confirmed_at = v.entered_at or now, v.confirmed_at
        missing = {
            "entered": v.entered_by if entered_by is None else None,
            "confirmed": v.confirmed_by if confirmed_by is None else None,
        }
        note = with_mark(v.note, missing, NOTE_MAX)
    return Result(
        table=table,
        version=v.version,
        status=v.status,
        entered_by=entered_by,
        entered_at=entered_at,
        confirmed_by=confirmed_by,
        confirmed_at=confirmed_at,
        superseded_at=v.superseded_at,
        note=note,
    )


def _recorders(record, user, users) -> tuple:
    """(recorded_by, voided_by, names missing on this desk for the import mark)."""
    recorded_by = user if record["by_importer"] else users.get(record["recorded_by"])
    voided_by = users.get(record.get("voided_by"))
    missing = {
        "recorded": None if record["by_importer"] or recorded_by else record["recorded_by"],
        "voided": None if voided_by else record.get("voided_by"),
    }
    return recorded_by, voided_by, missing


def _kept(record, user, users, now) -> tuple[dict, dict]:
    """The who-and-when fields of a voidable record (a penalty, an incident), and the names
    missing on this desk for the import mark."""
    recorded_by, voided_by, missing = _recorders(record, user, users)
    fields = {
        "recorded_by": recorded_by,
        "recorded_at": record["recorded_at"] or now,
        "voided_by": voided_by,
        "voided_at": record["voided_at"],
        "void_reason": record["void_reason"],
    }
    return fields, missing


def _create_records(plan, user, users, tournament, players, sessions, tables, seats):
    """Penalties (live ones in the file's order, then void ones), incidents and appeals."""
    rows = []
    for p in (*plan.penalties, *plan.voided_penalties):
        kept, missing = _kept(p, user, users, plan.now)
        rows.append(
            Penalty(
                session=sessions[p["session"]],
                player=players[p["player"]],
                table=tables[(p["session"], p["table"])] if p["table"] else None,
                kind=p["kind"],
                minutes=p["minutes"],
                amount=p["amount"],
                stage=p["stage"],
                note=with_mark(p["note"], missing, PENALTY_NOTE_MAX),
                **kept,
            )
        )
    created = _bulk(Penalty, rows, user)
    live, voided = created[: len(plan.penalties)], created[len(plan.penalties) :]

    def undo_in(undo):
        out = {}
        for name, value in undo.items():
            if name in UNDO_PLAYERS:
                value = players[value.strip()].pk if value else None
            elif name == "table" and value is not None:
                value = tables[(value["session"], value["table"])].pk
            elif name == "seat" and value is not None:
                value = seats[(value["session"], value["table"], value["wind"])].pk
            elif name == "winds":
                value = {str(players[key.strip()].pk): wind for key, wind in value.items()}
            out[name] = value
        return out

    rows = []
    for i in plan.incidents:
        kept, missing = _kept(i, user, users, plan.now)
        rows.append(
            Incident(
                tournament=tournament,
                session=sessions[i["session"]] if i["session"] else None,
                table=tables[(i["session"], i["table"])] if i["table"] else None,
                kind=i["kind"],
                player=players[i["player"]] if i["player"] else None,
                substitute=players[i["substitute"]] if i["substitute"] else None,
                text=with_mark(i["text"], missing, None),
                undo=undo_in(i["undo"]),
                **kept,
            )
        )
    incidents = _bulk(Incident, rows, user)

    rows = []
    for a in plan.appeals:
        recorded_by, _voided_by, missing = _recorders(a, user, users)
        if a["penalty"] is not None:
            penalty = live[a["penalty"]]
        elif a["voided_penalty"] is not None:
            penalty = voided[a["voided_penalty"]]
        else:
            penalty = None
        rows.append(
            Appeal(
                tournament=tournament,
                session=sessions[a["session"]],
                table=tables[(a["session"], a["table"])] if a["table"] else None,
                appellant=players[a["appellant"]],
                captain=a["captain"],
                penalty=penalty,
                incident=incidents[a["incident"]] if a["incident"] is not None else None,
                subject=a["subject"],
                text=with_mark(a["text"], missing, None),
                filed_at=a["filed_at"],
                deposit=a["deposit"],
                late_override=a["late_override"],
                status=a["status"],
                decided_by=a["decided_by"],
                decision=a["decision"],
                decided_at=a["decided_at"],
                deposit_returned=a["deposit_returned"],
                recorded_by=recorded_by,
            )
        )
    _bulk(Appeal, rows, user)
