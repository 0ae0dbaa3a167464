"""The publishing page through its real address: who may, the form (a bad address or key
refused naming its field, nothing changed), the status in plain words, "Send now", the links."""

import pytest

from club.services import save_club
from publishing.models import Publication
from tests.support import factories as f

from .conftest import KEY

pytestmark = pytest.mark.django_db


URL = "/desk/open/publish/"


def test_only_the_director_opens_the_tournaments_page(t, people, client):
    assert client.get(URL).status_code == 302  # to the login
    for name in ("desk1", "referee"):
        assert f.login(people[name]).get(URL).status_code == 403
        assert f.login(people[name]).post(URL, {"url": "https://x.example.org"}).status_code == 403
    page = f.login(people["director"]).get(URL)
    assert page.status_code == 200
    assert "Publish to a federation server" in page.content.decode()
    assert f.login(people["director"]).get("/desk/nothing/publish/").status_code == 404


def test_the_dashboard_links_to_it(t, people):
    page = f.login(people["director"]).get("/desk/open/").content.decode()
    assert f'href="{URL}"' in page


def test_settings_saved_and_the_status_shown(t, people, stub, committed):
    director = f.login(people["director"])
    with committed():
        answer = director.post(URL, {"url": stub.url, "key": KEY, "enabled": "on"})
    assert answer.status_code == 302
    publication = Publication.objects.get()
    assert publication.history.get().history_user == people["director"]
    page = director.get(URL).content.decode()
    assert "revision 1 — everything is on the server" in page
    assert KEY.split(".")[1] not in page  # the secret is never written into a page
    # Send now: the same file again, nothing new to send: a heartbeat.
    with committed():
        assert director.post(URL, {"send": "1"}).status_code == 302
    assert len(stub.received) == 2 and stub.received[-1].body == b""
    # The server goes away; the page says so in plain words.
    stub.down = True
    with committed():
        director.post(URL, {"send": "1"})
    page = director.get(URL).content.decode()
    assert "Failing since" in page and "No answer from 127.0.0.1: " in page


@pytest.mark.parametrize(
    "data, field, problem",
    [
        ({"url": "ftp://x.example.org", "key": KEY}, "url", "must start with https://"),
        ({"url": "http://x.example.org", "key": KEY}, "url", "http:// only to this machine"),
        ({"url": "https://x.example.org", "key": "abc"}, "key", "is not a publishing key"),
        ({"url": "https://x.example.org", "key": ""}, "key", "This field cannot be blank"),
    ],
)
def test_a_bad_address_or_key_is_refused_naming_the_field(t, people, data, field, problem):
    answer = f.login(people["director"]).post(URL, {**data, "enabled": "on"})
    assert answer.status_code == 400
    assert problem in " ".join(answer.context["form"].errors[field])
    assert not Publication.objects.exists()


def test_send_now_when_publishing_is_off_is_refused(t, people):
    director = f.login(people["director"])
    director.post(URL, {"url": "https://x.example.org", "key": KEY})
    page = director.post(URL, {"send": "1"}, follow=True).content.decode()
    assert "Publishing is off: switch it on and save first." in page


def test_a_club_officer_publishes_the_clubs_rating(people, stub, committed):
    officer, other = f.user("officer", "club officer"), f.user("other", "club officer")
    club = save_club(None, {"name": "Furiten", "slug": "furiten"}, officer)
    url = "/desk/club/furiten/publish/"
    assert f.login(other).get(url).status_code == 403
    assert f.login(people["desk1"]).get(url).status_code == 403
    page = f.login(officer).get("/desk/club/furiten/").content.decode()
    assert f'href="{url}"' in page
    with committed():
        answer = f.login(officer).post(url, {"url": stub.url, "key": KEY, "enabled": "on"})
    assert answer.status_code == 302
    (got,) = stub.received
    assert got.headers["X-Desk-Kind"] == "club" and got.data["club"]["slug"] == club.slug
    assert f.login(people["director"]).get(url).status_code == 200


def test_a_club_slugged_publish_keeps_its_dashboard(people):
    officer = f.user("officer", "club officer")
    save_club(None, {"name": "Publish", "slug": "publish"}, officer)
    assert f.login(officer).get("/desk/club/publish/").status_code == 200
