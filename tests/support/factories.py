"""Small builders for tests: real rows in the real (test) database, no mocks."""

import re

from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from club.models import Club, OfficerGrant
from core.roles import DESK, DIRECTOR, REFEREE, TOURNAMENT_ROLES, ensure_groups
from scoring.services import confirm_result, enter_result
from seating.models import Table
from seating.services import add_table
from tournament.models import Player, Session, StaffGrant, Tournament


def user(name, role=None):
    ensure_groups()
    u = User.objects.create_user(name, password="pw-" + name)
    if role:
        u.groups.add(Group.objects.get(name=role))
    return u


def plan_url(plan):
    """The desk's page of a seating plan (a seating plan names no page of the desk itself)."""
    return reverse("desk:plan", kwargs={"slug": plan.tournament.slug, "pk": plan.pk})


def login(person):
    """A test client logged in as `person`."""
    c = Client()
    c.force_login(person)
    return c


# The tournaments tournament() gave to the staff of the moment: staff() made after them gets
# them too, so that a test's fixtures may come in either order. Emptied before every test
# (tests/conftest.py), as the rows it names are rolled back after it.
GIVEN: set[int] = set()


def staff():
    """A director, two desk users and a referee, given every tournament tournament() has given
    its staff in this test."""
    people = {
        "director": user("dir", DIRECTOR),
        "desk1": user("desk1", DESK),
        "desk2": user("desk2", DESK),
        "referee": user("ref", REFEREE),
    }
    for t in Tournament.objects.filter(pk__in=GIVEN):
        for name in ("desk1", "desk2", "referee"):
            grant(people[name], t)
    return people


def tournament(ruleset="ema-2012", players=8, slug="test-open", granted=True, **kw):
    """A tournament with `players` players. Roles are per tournament (issue 34): with `staff`
    every desk user, referee and head referee there is at this moment is given their roles on
    it, as the director would; granted=False leaves it to nobody but the director."""
    t = Tournament.objects.create(
        name=kw.pop("name", "Test Open"), slug=slug, ruleset=ruleset, **kw
    )
    for n in range(1, players + 1):
        Player.objects.create(tournament=t, key=f"p{n:02d}", name=f"Player {n:02d}")
    if granted:
        GIVEN.add(t.pk)
        for u in User.objects.filter(groups__name__in=TOURNAMENT_ROLES).distinct():
            grant(u, t)
    return t


def grant(person, event, role=None):
    """Give `person` `event`: a tournament with `role` (default: each tournament role of their
    groups), or a club rating (its officer)."""
    if isinstance(event, Club):
        OfficerGrant.objects.get_or_create(user=person, club=event)
        return
    roles = (
        [role]
        if role
        else person.groups.filter(name__in=TOURNAMENT_ROLES).values_list("name", flat=True)
    )
    for name in roles:
        StaffGrant.objects.get_or_create(user=person, tournament=event, role=name)


def seat_session(t, number=1, groups=None):
    """Seat players p01.. in order, four per table (or the given key groups)."""
    session, _ = Session.objects.get_or_create(tournament=t, number=number)
    players = list(t.players.filter(substitute=False).order_by("key"))
    if groups is None:
        groups = [players[i : i + 4] for i in range(0, len(players), 4)]
    else:
        by_key = {p.key: p for p in players}
        groups = [[by_key[k] for k in g] for g in groups]
    for g in groups:
        add_table(session, g)
    return session


def play(table: Table, scores, enter_by, confirm_by, chombo=None):
    seats = sorted(table.seats.all(), key=lambda s: "ESWN".index(s.wind))
    latest = table.results.order_by("-version").first()
    entries = {
        s.wind: (score, (chombo or {}).get(s.wind, 0))
        for s, score in zip(seats, scores, strict=True)
    }
    result = enter_result(table, entries, enter_by, latest.version if latest else 0)
    if confirm_by:
        confirm_result(result, confirm_by)
    return result


def confirm_import(client, t, preview):
    """Press "Import these players" on the preview page `preview` (its form names the list)."""
    name = re.search(r'name="preview" value="(\w+)"', preview.content.decode())
    data = {"confirm": "1", "preview": name.group(1) if name else ""}
    return client.post(f"/desk/{t.slug}/players/import/", data, follow=True)
