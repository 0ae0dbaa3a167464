"""The director downloads and imports tournament files from the desk pages."""

import io
import json

import pytest
from django.test import Client

from scoring.feed import feed
from tests.support import factories as f
from tests.support import tournaments
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_download_then_import_from_the_pages():
    staff = f.staff()
    t = tournaments.played(staff, confirmed=True, tables=(1, 2))
    director = Client()
    director.force_login(staff["director"])
    response = director.get(f"/desk/{t.slug}/export/")
    assert response["Content-Disposition"] == 'attachment; filename="test-open.json"'
    data = json.loads(response.content)
    assert data["format"] == "mahjong-tournament" and data["version"] == 1
    before = feed(t)
    t.delete()
    upload = io.BytesIO(response.content)
    upload.name = "test-open.json"
    response = director.post("/desk/import/", {"file": upload})
    assert response.status_code == 302
    imported = Tournament.objects.get()
    assert feed(imported) == before


def test_a_bad_file_is_refused_on_the_page_and_creates_nothing():
    staff = f.staff()
    director = Client()
    director.force_login(staff["director"])
    upload = io.BytesIO(
        json.dumps(
            {
                "format": "mahjong-tournament",
                "version": 1,
                "tournament": {"name": "X", "ruleset": "ema-2012"},
                "players": [{"key": "p1", "name": "A", "ema_id": "123"}],
            }
        ).encode()
    )
    upload.name = "bad.json"
    response = director.post("/desk/import/", {"file": upload})
    assert response.status_code == 200
    assert "players[0].ema_id" in response.content.decode()
    assert not Tournament.objects.exists()
