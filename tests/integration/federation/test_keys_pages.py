"""The organisers' pages under /federation/ (issue 38): who may open them, a new key shown once,
a bad address refused naming the field, a revoke asked first. And the command that makes an
organiser."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from core import signed
from federation.keys import key_of, key_text, make_key, secret_of
from federation.models import PublishingKey
from federation.organisers import is_organiser, make_organiser
from tests.support import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    user, _made = make_organiser("org", "pw-org")
    return user


def test_anonymous_goes_to_the_login_and_a_non_organiser_gets_403(client):
    for address in ("/federation/", "/federation/new/"):
        response = client.get(address)
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    someone = f.login(f.user("someone"))
    assert someone.get("/federation/").status_code == 403
    assert someone.get("/federation/new/").status_code == 403
    assert someone.post("/federation/new/", {"kind": "club", "slug": "x"}).status_code == 403
    assert not PublishingKey.objects.exists()


def test_an_organiser_sees_only_their_own_keys(organiser):
    other, _made = make_organiser("other")
    make_key(organiser, "tournament", "my-open", "my hall")
    make_key(other, "club", "their-club", "their hall")
    page = f.login(organiser).get("/federation/").content.decode()
    assert "/t/my-open/" in page and "my hall" in page
    assert "their-club" not in page and "their hall" not in page


def test_a_new_key_is_shown_once_and_its_secret_is_not_stored(organiser):
    client = f.login(organiser)
    response = client.post(
        "/federation/new/", {"kind": "tournament", "slug": "world-open", "label": "Hall A"}
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    text = re.search(r"<code>(\d+\.[0-9a-f]{40})</code>", response.content.decode()).group(1)
    key = PublishingKey.objects.get()
    assert (key.owner, key.kind, key.slug, key.label) == (
        organiser,
        "tournament",
        "world-open",
        "Hall A",
    )
    assert text == key_text(key)
    key_id, secret = signed.split_key(text)
    assert key_of(key_id) == key and secret == secret_of(key)
    stored = [str(v) for v in PublishingKey.objects.values_list().get()]
    assert secret not in " ".join(stored)
    assert secret not in client.get("/federation/").content.decode()


@pytest.mark.parametrize(
    "slug, problem",
    [
        ("", "This field is required."),
        ("world open", "Enter a valid “slug”"),
        ("new", "kept for the desk's own pages"),
        ("taken", "has a live key already"),
    ],
)
def test_a_bad_address_is_refused_naming_the_field_and_nothing_is_stored(organiser, slug, problem):
    make_key(organiser, "tournament", "taken")
    response = f.login(organiser).post(
        "/federation/new/", {"kind": "tournament", "slug": slug, "label": ""}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert problem in form.errors["slug"][0]
    assert PublishingKey.objects.count() == 1


def test_a_revoked_address_can_have_a_new_key_and_a_club_may_share_a_tournaments_slug(
    organiser,
):
    from federation.keys import revoke_key

    first = make_key(organiser, "tournament", "open")
    make_key(organiser, "club", "open")
    revoke_key(first)
    second = make_key(organiser, "tournament", "open")
    assert second.pk != first.pk and second.live and not PublishingKey.objects.get(pk=first.pk).live


def test_revoke_asks_first_then_revokes_and_says_the_mirror_stays(organiser):
    key = make_key(organiser, "tournament", "world-open")
    client = f.login(organiser)
    asked = client.post(f"/federation/{key.pk}/revoke/")
    assert asked.status_code == 200 and 'name="confirm"' in asked.content.decode()
    assert PublishingKey.objects.get().live
    done = client.post(f"/federation/{key.pk}/revoke/", {"confirm": "1"}, follow=True)
    assert not PublishingKey.objects.get().live
    assert "mirror stays" in done.content.decode()


def test_an_organiser_cannot_revoke_anothers_key(organiser):
    other, _made = make_organiser("other")
    key = make_key(other, "tournament", "theirs")
    response = f.login(organiser).post(f"/federation/{key.pk}/revoke/", {"confirm": "1"})
    assert response.status_code == 404
    assert PublishingKey.objects.get().live


def test_the_command_makes_an_organiser_who_can_log_in(capsys):
    call_command("federation_organiser", "anna", "--password", "s3cret-pw")
    anna = get_user_model().objects.get(username="anna")
    assert is_organiser(anna) and "anna" in capsys.readouterr().out
    client = Client()
    logged = client.post("/login/", {"username": "anna", "password": "s3cret-pw"})
    assert logged.status_code == 302
    assert client.get("/federation/").status_code == 200
    call_command("federation_organiser", "anna")  # again: still one, still an organiser
    assert get_user_model().objects.filter(username="anna").count() == 1


def test_the_secret_is_the_designs_hmac_and_changes_with_the_servers_secret_key(
    organiser, settings
):
    """docs/features/federation.md, the keys:
    HMAC-SHA256(SECRET_KEY, "publishing-key:<id>:<created_at ISO>"), hex,
    the first 40 characters; the server works it out again, so a new SECRET_KEY voids it."""
    import hashlib
    import hmac

    key = make_key(organiser, "club", "furiten")
    again = PublishingKey.objects.get(pk=key.pk)  # as read back from the database
    message = f"publishing-key:{key.pk}:{again.created_at.isoformat()}".encode()
    expected = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:40]
    assert again.created_at.isoformat().endswith("+00:00")
    assert secret_of(again) == secret_of(key) == expected
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY
    assert secret_of(again) != expected
    assert key_of("x") is None and key_of("") is None and key_of(str(key.pk + 1)) is None


def test_the_account_menu_leads_an_organiser_to_their_keys(organiser):
    assert 'href="/federation/"' in f.login(organiser).get("/").content.decode()
    assert 'href="/federation/"' not in f.login(f.user("someone")).get("/").content.decode()
