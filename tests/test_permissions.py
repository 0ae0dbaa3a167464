"""Every desk URL refuses the roles without the right, on the server (not only in templates)."""

import pytest
from django.apps import apps
from django.test import Client
from django.urls import get_resolver, reverse
from django.utils import timezone

from scoring.models import Penalty
from seating.models import SeatingPlan
from tests import factories as f
from tournament.models import Appeal, Incident

pytestmark = pytest.mark.django_db

DIRECTOR_ONLY = {"director"}
DESK = {"director", "desk"}
REFEREE = {"director", "referee"}

# name -> (method, allowed roles). Every desk URL must be listed: a new view without an entry
# here fails test_every_desk_url_is_covered.
RULES = {
    "home": ("get", DESK | REFEREE),
    "tournament_add": ("post", DIRECTOR_ONLY),
    "import_file": ("post", DIRECTOR_ONLY),
    "tournament": ("get", DESK),
    "tournament_edit": ("post", DIRECTOR_ONLY),
    "rules": ("post", DIRECTOR_ONLY),
    "export_file": ("get", DIRECTOR_ONLY),
    "players": ("get", DESK),
    "player_add": ("post", DIRECTOR_ONLY),
    "player_edit": ("post", DIRECTOR_ONLY),
    "player_import": ("post", DIRECTOR_ONLY),
    "checkin": ("get", DESK),
    "checkin_toggle": ("post", DESK),
    "session_add": ("post", DIRECTOR_ONLY),
    "session": ("get", DESK),
    "session_draw": ("post", DIRECTOR_ONLY),
    "seating_print": ("get", DESK),
    "table_add": ("post", DIRECTOR_ONLY),
    "table_delete": ("post", DIRECTOR_ONLY),
    "result": ("post", DESK),
    "result_confirm": ("post", DESK),
    "session_swiss": ("post", DIRECTOR_ONLY),
    "seat_change": ("post", DIRECTOR_ONLY),
    "plans": ("post", DIRECTOR_ONLY),
    "plan": ("get", DIRECTOR_ONLY),
    "plan_status": ("get", DIRECTOR_ONLY),
    "plan_apply": ("post", DIRECTOR_ONLY),
    "session_end": ("post", DESK),
    "clock": ("get", DESK | REFEREE),
    "clock_control": ("post", DESK),
    "clock_reset": ("post", DIRECTOR_ONLY),
    "protocols_pdf": ("get", DESK),
    "seating_pdf": ("get", DESK),
    "standings_pdf": ("get", DESK),
    "appeals_pdf": ("get", DESK | REFEREE),
    "workbook": ("get", DESK),
    "ema_results": ("get", DESK),
    "referee": ("get", REFEREE),
    "referee_table": ("get", REFEREE),
    "penalty_add": ("post", REFEREE),
    "substitute": ("post", REFEREE),
    "three_handed": ("post", REFEREE),
    "incident_add": ("post", REFEREE),
    "disqualify": ("post", REFEREE),
    "referee_log": ("get", REFEREE),
    "penalty_void": ("post", DIRECTOR_ONLY),
    "incident_void": ("post", DIRECTOR_ONLY),
    "appeals": ("get", REFEREE),
    "appeal_add": ("post", REFEREE),
    "appeal": ("post", REFEREE),
}


def desk_url_names():
    resolver = get_resolver()
    desk = resolver.namespace_dict["desk"][1]
    return {p.name for p in desk.url_patterns}


def test_every_desk_url_is_covered():
    assert desk_url_names() == set(RULES)


def kwargs_for(name, t, player):
    pattern = {p.name: p for p in get_resolver().namespace_dict["desk"][1].url_patterns}[name]
    pk = player.pk
    if name.startswith("plan"):
        plan = SeatingPlan.objects.create(
            tournament=t, first=2, last=3, seed=1, status="done", rounds=[], figures={}
        )
        pk = plan.pk
    session = t.sessions.get(number=1)
    if name == "penalty_void":
        pk = Penalty.objects.create(
            session=session, player=player, kind="late", minutes=3, recorded_at=timezone.now()
        ).pk
    if name == "incident_void":
        pk = Incident.objects.create(
            tournament=t, session=session, kind="note", text="x", recorded_at=timezone.now()
        ).pk
    if name == "appeal":
        pk = Appeal.objects.create(
            tournament=t, session=session, appellant=player, subject="x", filed_at=timezone.now()
        ).pk
    values = {"slug": t.slug, "number": 1, "table": 1, "pk": pk}
    return {k: values[k] for k in pattern.pattern.regex.groupindex}


def snapshot():
    """Row counts of every model and the fields of every row that a refused write might touch."""
    state = {}
    for model in apps.get_models():
        if model._meta.app_label in ("tournament", "seating", "scoring"):
            state[model._meta.label] = sorted(map(repr, model.objects.values()))
    return state


# A plausible body for each write, so a refusal is not just a form error.
def body(name, t, player):
    return {
        "tournament_add": {
            "name": "Other",
            "ruleset": "ema-2012",
            "planned_sessions": 4,
            "fee": 0,
            "scope": "individual",
        },
        "tournament_edit": {
            "name": "Renamed",
            "planned_sessions": 4,
            "fee": 0,
            "scope": "individual",
        },
        "rules": {"ruleset": "furiten-club"},
        "player_add": {"name": "New Player", "status": "active"},
        "player_edit": {"name": "Renamed Player", "status": "active"},
        "checkin_toggle": {"checked_in": "1"},
        "session_draw": {"seed": "1"},
        "table_add": {"E": player.pk},
        "result": {
            "base_version": 0,
            "score_E": 30000,
            "score_S": 30000,
            "score_W": 30000,
            "score_N": 30000,
        },
        "result_confirm": {"version": 1},
        "session_swiss": {"seed": "1"},
        "seat_change": {"a": "p01", "b": "p05", "override": "on", "reason": "mix-up"},
        "plans": {"first": 2, "last": 3, "seed": 5},
        "penalty_add": {"player": player.pk, "kind": "late", "minutes": 3},
        "incident_add": {"player": player.pk, "text": "spilled tea"},
        "three_handed": {"player": player.pk},
        "substitute": {"player": player.pk, "substitute": player.pk, "joined": "start"},
        "disqualify": {"text": "cheating"},
        "penalty_void": {"reason": "typo"},
        "incident_void": {"reason": "typo"},
        "appeal_add": {"session": 1, "appellant": player.pk, "subject": "x", "text": "y"},
        "appeal": {"action": "review"},
        "clock_control": {"action": "start"},
    }.get(name, {})


@pytest.mark.parametrize("name", sorted(RULES))
@pytest.mark.parametrize("role", ["anonymous", "referee", "desk", "director"])
def test_role_refusals(name, role):
    staff = f.staff()
    t = f.tournament()
    f.seat_session(t)
    # A draft by desk1 so that confirm has something to refuse.
    f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    player = t.players.first()
    method, allowed = RULES[name]
    c = Client()
    user = {"referee": staff["referee"], "desk": staff["desk2"], "director": staff["director"]}.get(
        role
    )
    if user:
        c.force_login(user)
    target = reverse(f"desk:{name}", kwargs=kwargs_for(name, t, player))
    before = snapshot()
    response = getattr(c, method)(target, body(name, t, player))
    if role in allowed:
        assert response.status_code in (200, 302, 400, 409), (name, role, response.status_code)
        if response.status_code == 302:
            assert "/login/" not in response["Location"]
        return
    if role == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    else:
        assert response.status_code == 403
    assert snapshot() == before, f"{name} changed data for {role}"


def test_public_pages_show_no_draft_and_need_no_login():
    staff = f.staff()
    t = f.tournament()
    f.seat_session(t)
    f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    c = Client()
    for path in (f"/t/{t.slug}/", f"/t/{t.slug}/p/p01/", f"/t/{t.slug}/standings.json"):
        response = c.get(path)
        assert response.status_code == 200
        assert (
            "40000" not in response.content.decode() and "40,000" not in response.content.decode()
        )
    assert c.post(f"/t/{t.slug}/").status_code == 405


def test_admin_is_for_the_director_and_results_are_read_only_there():
    staff = f.staff()
    staff["director"].is_staff = True
    staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    result = f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    desk = Client()
    desk.force_login(staff["desk1"])
    assert desk.get("/admin/").status_code == 302  # not staff: sent to the admin login
    director = Client()
    director.force_login(staff["director"])
    assert director.get("/admin/").status_code == 200
    page = director.get(f"/admin/scoring/result/{result.pk}/change/")
    assert page.status_code == 200
    assert 'name="status"' not in page.content.decode()  # shown, not editable
    response = director.post(f"/admin/scoring/result/{result.pk}/change/", {"status": "confirmed"})
    assert response.status_code == 403
    result.refresh_from_db()
    assert result.status == "draft"


def test_admin_cannot_change_rules_or_played_seating():
    staff = f.staff()
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    t = f.tournament()
    f.seat_session(t)
    f.play(
        t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], staff["desk1"], None
    )
    director = Client()
    director.force_login(staff["director"])
    page = director.get(f"/admin/tournament/tournament/{t.pk}/change/").content.decode()
    assert 'name="ruleset"' not in page
    played = t.sessions.get().tables.get(number=1)
    seat = played.seats.first()
    assert (
        director.post(f"/admin/seating/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert played.seats.count() == 4
    unplayed = t.sessions.get().tables.get(number=2)
    assert director.get(f"/admin/seating/table/{unplayed.pk}/change/").status_code == 200
