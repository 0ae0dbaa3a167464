"""The main desk's standby page once paired: its table of what goes to the standby (one row per
tournament and club and the accounts) names each kind in words."""

import pytest

from publishing.services import set_standby
from tests.support import factories as f

pytestmark = pytest.mark.django_db


def test_the_page_lists_the_stream_once_paired():
    """Found by tests/e2e/test_standby_kill.py: the page answered 500 after the pairing (a
    model's field with choices comes to django-tables2's render_kind as its label already, and
    Publication.Kind(label) raised)."""
    people = f.staff()
    f.tournament(players=8, slug="open")
    set_standby("http://127.0.0.1:9", "a1b2c3.secret-of-the-pairing", True, people["director"])
    page = f.login(people["director"]).get("/desk/standby/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "accounts and the desk&#x27;s secret" in text
    assert ">tournament<" in text
    assert "open" in text
