"""Issue 25: the dashboard shows what the EMA ranking would count the tournament for (MERS
weight, the EMA's "Basics for ranking system": duration + players + countries + qualification)
and who has no EMA id yet; the qualification flag is a tournament setting the file carries."""

import datetime

import pytest

from archive.tournament_file import export_tournament, import_tournament
from tests.support import factories as f
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


def test_the_dashboard_shows_the_mers_weight_and_the_missing_ema_ids():
    """Two days, 44 players (41–80: +0.5) from 6 countries (6–10: +0.5), qualification (+1):
    2 + 0.5 + 0.5 + 1 = 4. A substitute who never sat does not count; an excluded player
    neither."""
    staff = f.staff()
    t = f.tournament(
        players=44,
        start_date=datetime.date(2026, 5, 2),
        end_date=datetime.date(2026, 5, 3),
        mers_qualification=True,
    )
    countries = ["PL", "UA", "DE", "FR", "NL", "DK"]
    for n, p in enumerate(t.players.order_by("key")):
        p.country = countries[n % 6]
        p.ema_id = "" if n in (3, 7) else f"0700{n:04d}"
        p.save()
    Player.objects.create(tournament=t, key="s01", name="Never Sat", substitute=True)
    Player.objects.create(tournament=t, key="x01", name="Left Out", status="excluded")
    client = f.login(staff["director"])
    page = client.get(f"/desk/{t.slug}/").content.decode()
    assert "This tournament would count for MERS weight 4" in page
    assert "2 days: 2 · 44 players: +0.5 · 6 countries: +0.5 · qualification: +1" in page
    assert "2 players have no EMA id yet" in page
    assert "Player 04, Player 08" in page
    assert "Never Sat" not in page and "Left Out" not in page


def test_a_small_club_event_counts_one_and_the_flag_survives_the_file():
    staff = f.staff()
    t = f.tournament(players=8)
    page = f.login(staff["director"]).get(f"/desk/{t.slug}/").content.decode()
    assert "MERS weight 1 " in page and "No start date yet: one day is assumed." in page
    t.mers_qualification = True
    t.save()
    data = export_tournament(t)
    assert data["tournament"]["mers_qualification"] is True
    data["tournament"]["slug"] = "copy"
    assert import_tournament(data).mers_qualification is True
    assert Tournament.objects.get(slug="copy").mers_qualification


def test_a_sichuan_tournament_shows_no_ema_weight():
    staff = f.staff()
    t = f.tournament(ruleset="sbr-2025", players=4)
    page = f.login(staff["director"]).get(f"/desk/{t.slug}/").content.decode()
    assert "MERS" not in page
