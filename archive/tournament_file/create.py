"""A tournament file's rows: `import_tournament` creates the tournament the reader planned, all
of it in one transaction, or nothing."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Penalty, Result, ResultScore
from seating.models import Seat, Table
from tournament.changes import touch
from tournament.models import (
    Appeal,
    ClockEvent,
    Incident,
    Player,
    RuleChange,
    Session,
    Tournament,
)

from .errors import TournamentFileError, show
from .marks import with_mark
from .reader import Reader, parse
from .schema import NOTE_MAX, PENALTY_NOTE_MAX, UNDO_PLAYERS


def _acting(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _save(instance, user):
    if user is not None:
        instance._history_user = user  # django-simple-history: who made the change
    instance.save()
    return instance


def import_tournament(content, user=None) -> Tournament:
    """Create the tournament of a version 1 file; all of it, or nothing and TournamentFileError.

    content: the file's bytes or text, or the already parsed dict. user: who imports (the
    entering and confirming user of results that come without a history).
    """
    data = parse(content)
    user = _acting(user)
    with transaction.atomic():
        plan = Reader(data).read()
        User = get_user_model()
        names = plan.usernames()
        users = {
            u.get_username(): u
            for u in User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": names})
        }
        try:
            with transaction.atomic():
                return _create(plan, user, users)
        except IntegrityError as e:
            if Tournament.objects.filter(slug=plan.tournament["slug"]).exists():
                raise TournamentFileError(
                    "tournament.slug",
                    _("a tournament with the slug %(value)s already exists")
                    % {"value": show(plan.tournament["slug"])},
                ) from e
            raise


def _create(plan: Reader, user, users: dict) -> Tournament:
    now = timezone.now()
    tournament = _save(Tournament(**plan.tournament), user)
    players = {}
    for row in plan.players:
        players[row["key"]] = _save(Player(tournament=tournament, **row), user)
    sessions, tables, seats = {}, {}, {}  # by number; (session, table); (session, table, wind)
    for s in plan.sessions:
        session = _save(
            Session(
                tournament=tournament,
                number=s.number,
                method=s.method,
                seed=s.seed,
                ended_at=s.ended_at,
                length_seconds=s.length_seconds,
                warning_seconds=s.warning_seconds,
            ),
            user,
        )
        sessions[s.number] = session
        ClockEvent.objects.bulk_create(
            ClockEvent(session=session, kind=k, at=at, seconds=sec, table=t, by=users.get(by))
            for k, at, sec, t, by in s.clock
        )
        for t in s.tables:
            table = _save(Table(session=session, number=t.number), user)
            tables[(s.number, t.number)] = table
            for wind, key, replaces, joined in t.seats:
                seats[(s.number, t.number, wind)] = _save(
                    Seat(
                        table=table,
                        session=session,
                        wind=wind,
                        player=players[key],
                        replaces=players[replaces] if replaces else None,
                        joined=joined,
                    ),
                    user,
                )
            for v in t.versions:
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
                result = Result.objects.create(
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
                ResultScore.objects.bulk_create(
                    ResultScore(
                        result=result,
                        wind=wind,
                        player=players[key],
                        score=score,
                        chombo=chombo,
                    )
                    for wind, key, score, chombo in v.scores
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
    created = []
    for p in (*plan.penalties, *plan.voided_penalties):
        kept, missing = _kept(p, user, users, plan.now)
        created.append(
            _save(
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
                ),
                user,
            )
        )
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

    incidents = []
    for i in plan.incidents:
        kept, missing = _kept(i, user, users, plan.now)
        incidents.append(
            _save(
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
                ),
                user,
            )
        )

    for a in plan.appeals:
        recorded_by, _voided_by, missing = _recorders(a, user, users)
        if a["penalty"] is not None:
            penalty = live[a["penalty"]]
        elif a["voided_penalty"] is not None:
            penalty = voided[a["voided_penalty"]]
        else:
            penalty = None
        _save(
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
            ),
            user,
        )
