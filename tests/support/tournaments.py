"""Tournaments built the way several test files need them, in one place.

`rich_tournament()` is the played tournament with a bit of everything the desk records: two
sessions with chombo, confirmed and pending corrections, a substitute who came in during play
and a draft table (`build_riichi`), then penalties of every kind, a voided one, incidents and
appeals (`add_records`). `played()` is the small one most page tests need: one session seated
and tables played. `source_files()` are two whole tournaments (riichi and Sichuan, with a
clock) as exported files, which the fuzzing and the JSON Schema tests take apart.
"""

import copy
from datetime import UTC, date, datetime
from decimal import Decimal

from django.contrib.auth.models import User

from archive.tournament_file import export_tournament
from referee.models import Appeal, Incident
from scoring.models import Penalty
from scoring.services import confirm_result, enter_result
from seating.models import Seat, Table
from seating.services import add_table
from tests.support import factories as f
from tournament.changes import touch
from tournament.models import ClockEvent, Player, Session, Tournament


def make_user(name):
    return User.objects.create_user(name, password="pw-" + name)


def enter(table, scores, by, chombo=None, note=""):
    seats = sorted(table.seats.all(), key=lambda s: s.wind_order)
    latest = table.results.order_by("-version").first()
    entries = {
        s.wind: (score, (chombo or {}).get(s.wind, 0))
        for s, score in zip(seats, scores, strict=True)
    }
    return enter_result(table, entries, by, latest.version if latest else 0, note=note)


def at(hour, minute=0, day=17):
    return datetime(2026, 2, day, hour, minute, tzinfo=UTC)


def build_riichi():
    """8 players and a substitute, 2 sessions: chombo, a correction, a pending correction,
    a substitute who came in during play, and a draft table."""
    desk1, desk2 = make_user("desk1"), make_user("desk2")
    t = Tournament.objects.create(
        name="Łódź Riichi Open 2026",
        slug="lodz-2026",
        ruleset="ema-2012",
        rules={"chombo_mode": "after_placement", "chombo_amount": -20000},
        planned_sessions=2,
        fee=Decimal("40.50"),
        start_date=date(2026, 2, 17),
        end_date=date(2026, 2, 18),
        venue="Hala Sportowa",
        scope=Tournament.Scope.TEAM,
    )
    names = [
        "Anna Nowak",
        "Bartosz Żak",
        "Céline Dubois",
        "Дмитро Коваль",
        "Eva Novák",
        "Fumio Sato",
        "Greta Berg",
        "Hiro Tanaka",
    ]
    players = {}
    for n, name in enumerate(names, start=1):
        players[f"p{n:02d}"] = Player.objects.create(
            tournament=t,
            key=f"p{n:02d}",
            name=name,
            ema_id=f"0700{n:04d}" if n % 2 else "",
            country="PL" if n <= 4 else "DE",
            club="Kraków Riichi" if n <= 2 else "",
            team="North" if n % 2 else "South",
            checked_in=n <= 6,
            status="withdrawn" if n == 7 else "active",
        )
    players["s01"] = Player.objects.create(
        tournament=t, key="s01", name="Sam Substitute", substitute=True
    )
    p = players
    s1 = Session.objects.create(tournament=t, number=1, method=Session.Method.DRAW, seed=12345)
    t11 = add_table(s1, [p["p01"], p["p02"], p["p03"], p["p04"]])
    t12 = add_table(s1, [p["p05"], p["p06"], p["p07"], p["p08"]])
    # Session 1 table 1: a chombo, confirmed; then a correction entered but not confirmed yet.
    confirm_result(enter(t11, [45300, 30100, 25000, 19600], desk1, {"S": 1}), desk2)
    enter(t11, [45300, 30100, 19600, 25000], desk1, {"S": 1}, note="W and N swapped?")
    # Session 1 table 2: confirmed, corrected, and the correction confirmed.
    confirm_result(enter(t12, [32000, 32000, 28000, 28000], desk2), desk1)
    confirm_result(enter(t12, [32000, 31000, 29000, 28000], desk2, note="typo in S"), desk1)
    s2 = Session.objects.create(tournament=t, number=2)
    # Session 2 table 1: the substitute came in during play for p08.
    t21 = Table.objects.create(session=s2, number=1)
    for wind, key in zip("ESWN", ["p01", "p05", "p02", "s01"], strict=True):
        Seat.objects.create(
            table=t21,
            session=s2,
            wind=wind,
            player=p[key],
            replaces=p["p08"] if key == "s01" else None,
            joined="during" if key == "s01" else "start",
        )
    confirm_result(enter(t21, [20000, 26000, 24000, 50000], desk1), desk2)
    # Session 2 table 2: a draft only.
    t22 = add_table(s2, [p["p03"], p["p06"], p["p04"], p["p07"]])
    enter(t22, [40000, 30000, 30000, 20000], desk2)
    return t


def add_records(t):
    """On build_riichi: live penalties of every kind the rules take, one voided, incidents in
    the shapes referee.services writes (database ids in `undo`), and appeals against a penalty,
    a voided penalty and an incident."""
    referee, director = make_user("ref1"), make_user("dir1")
    s1, s2 = t.sessions.get(number=1), t.sessions.get(number=2)
    Session.objects.filter(pk=s1.pk).update(ended_at=at(14))
    p = {player.key: player for player in t.players.all()}
    t11 = s1.tables.get(number=1)
    t21 = s2.tables.get(number=1)

    def penalty(session, key, kind, minute, **fields):
        return Penalty.objects.create(
            session=session,
            player=p[key],
            kind=kind,
            recorded_by=referee,
            recorded_at=at(10, minute),
            **fields,
        )

    penalty(s1, "p02", "late", 1, minutes=4, table=t11)
    wrong = penalty(s1, "p03", "misconduct", 2, amount=Decimal(-12000), note="wrong player")
    Penalty.objects.filter(pk=wrong.pk).update(
        voided_by=director, voided_at=at(11), void_reason="it was p04"
    )
    penalty(s1, "p05", "chombo", 3)  # the rules' −20,000 after placement
    penalty(s1, "p06", "other", 4, amount=Decimal("-500"), stage="before", note="phone rang")
    loud = penalty(s2, "p04", "misconduct", 5, amount=Decimal(-8000), note="loud")
    penalty(s2, "p07", "late", 6, amount=Decimal(-2000))  # an explicit amount, no minutes

    seat = Seat.objects.get(table=t21, wind="N")
    substitution = Incident.objects.create(
        tournament=t,
        session=s2,
        table=t21,
        kind="substitution",
        player=p["p08"],
        substitute=p["s01"],
        text="p08 ill",
        undo={
            "seat": seat.pk,
            "player": p["p08"].pk,
            "replaces": None,
            "joined": "start",
            "now": p["s01"].pk,
        },
        recorded_by=referee,
        recorded_at=at(13),
    )
    Incident.objects.create(
        tournament=t,
        session=s1,
        table=t11,
        kind="note",
        player=p["p01"],
        text="dropped a tile",
        recorded_by=referee,
        recorded_at=at(10, 30),
        voided_by=director,
        voided_at=at(10, 45),
        void_reason="duplicate",
    )
    Incident.objects.create(
        tournament=t,
        kind="disqualification",
        player=p["p07"],
        text="left without notice",
        undo={"status": "active"},
        recorded_by=director,
        recorded_at=at(15),
    )
    Appeal.objects.create(
        tournament=t,
        session=s2,
        appellant=p["p04"],
        penalty=loud,
        subject="misconduct penalty",
        text="I was quiet",
        filed_at=at(10, 20),
        deposit=Decimal(80),
        status="rejected",
        decided_by="head referee",
        decision="penalty stands",
        decided_at=at(10, 40),
        deposit_returned=False,
        recorded_by=referee,
    )
    Appeal.objects.create(
        tournament=t,
        session=s1,
        table=t11,
        appellant=p["p03"],
        penalty=wrong,
        subject="wrong player penalised",
        filed_at=at(10, 10),
        deposit=Decimal("12.50"),
        late_override="the referee was busy",
        status="upheld",
        decided_by="arbitration committee",
        decision="void the penalty",
        decided_at=at(10, 50),
        deposit_returned=True,
        recorded_by=referee,
    )
    Appeal.objects.create(
        tournament=t,
        session=s2,
        table=t21,
        appellant=p["p08"],
        captain=True,
        incident=substitution,
        subject="substitution",
        filed_at=at(13, 30),
        recorded_by=director,
    )
    touch(t.pk)
    t.refresh_from_db()
    return t


def rich_tournament():
    """build_riichi with add_records: every kind of row a tournament file carries."""
    return add_records(build_riichi())


def played(staff, scores=(40000, 35000, 25000, 20000), confirmed=False, tables=(1,), **kw):
    """f.tournament(**kw) with session 1 seated four to a table and `tables` played: entered by
    desk1, confirmed by desk2 when `confirmed`, else left a draft."""
    t = f.tournament(**kw)
    session = f.seat_session(t)
    for number in tables:
        table = session.tables.get(number=number)
        f.play(table, list(scores), staff["desk1"], staff["desk2"] if confirmed else None)
    return t


def riichi_source(people):
    """EMA: corrections, a pending draft, an unplayed table, penalties, an incident, an appeal
    and a clock."""
    t = f.tournament("ema-2012", players=8, slug="src-riichi", rules={"session_minutes": 80})
    names = ["Zoë Müller", "Дмитро Коваль", "Łukasz Żółć"]
    for player, name in zip(t.players.order_by("key"), names, strict=False):
        player.name, player.ema_id, player.country = name, f"0700{player.key[1:]:0>4}", "PL"
        player.save()
    Player.objects.create(tournament=t, key="s01", name="Sam Substitute", substitute=True)
    desk1, desk2 = people["desk1"], people["desk2"]
    s1, s2 = f.seat_session(t, 1), f.seat_session(t, 2)
    t11, t12 = s1.tables.order_by("number")
    f.play(t11, [45300, 30100, 25000, 19600], desk1, desk2, chombo={"S": 1})
    f.play(t11, [45300, 30100, 19600, 25000], desk2, desk1)  # a confirmed correction
    f.play(t12, [32000, 32000, 28000, 28000], desk2, desk1)
    f.play(t12, [32000, 31000, 29000, 28000], desk1, None)  # a correction still pending
    f.play(s2.tables.get(number=1), [40000, 30000, 30000, 20000], desk1, None)
    p = {player.key: player for player in t.players.all()}
    made = {"recorded_by": people["referee"], "recorded_at": at(10)}
    Penalty.objects.create(session=s1, player=p["p02"], kind="late", minutes=4, table=t11, **made)
    loud = Penalty.objects.create(
        session=s2, player=p["p04"], kind="misconduct", amount=Decimal(-8000), **made
    )
    Penalty.objects.create(
        session=s1, player=p["p06"], kind="other", amount=Decimal("-500"), stage="before", **made
    )
    Penalty.objects.create(
        session=s1,
        player=p["p03"],
        kind="misconduct",
        amount=Decimal(-12000),
        voided_by=people["director"],
        voided_at=at(11),
        void_reason="wrong player",
        **made,
    )
    Incident.objects.create(
        tournament=t,
        session=s1,
        table=t11,
        kind="note",
        player=p["p01"],
        text="a tile fell",
        **made,
    )
    Appeal.objects.create(
        tournament=t,
        session=s2,
        appellant=p["p04"],
        penalty=loud,
        subject="misconduct",
        filed_at=at(10, 20),
        deposit=Decimal(80),
        status="rejected",
        decided_by="head referee",
        decision="stands",
        decided_at=at(10, 40),
        deposit_returned=False,
        recorded_by=people["referee"],
    )
    for kind, minute in [("start", 0), ("pause", 30), ("resume", 35), ("end", 55)]:
        ClockEvent.objects.create(session=s1, kind=kind, at=at(9, minute), by=desk1)
    return t


def sichuan_source(people):
    """SBR: a four-, a three-player and an awarded table, and a minor violation."""
    t = f.tournament("sbr-2025", players=9, slug="src-sbr", name="Sichuan Cup")
    keys = [f"p{n:02d}" for n in range(1, 10)]
    s1 = f.seat_session(t, 1, groups=[keys[:4], keys[4:7], keys[7:]])
    f.play(s1.tables.get(number=1), [20, -5, -10, -5], people["desk1"], people["desk2"])
    f.play(s1.tables.get(number=2), [6, -3, -3], people["desk2"], people["desk1"])
    Penalty.objects.create(
        session=s1,
        player=t.players.get(key="p05"),
        kind="minor",
        recorded_by=people["referee"],
        recorded_at=at(10),
    )
    return t


_SOURCES = {}


def source_files():
    """The two exported files, made once: plain data, so they outlive the test that made them.
    Their slugs are changed so they import beside the tournaments they came from."""
    if not _SOURCES:
        roles = ("director", "desk1", "desk2", "referee")
        people = {role: f.user(f"source-{role}") for role in roles}
        for name, build in [("riichi", riichi_source), ("sichuan", sichuan_source)]:
            data = export_tournament(build(people))
            data["tournament"]["slug"] += "-copy"
            _SOURCES[name] = data
    return copy.deepcopy(_SOURCES)
