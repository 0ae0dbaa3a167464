"""The sender (publishing.sender) against a federation server's stub (tests/support/
publish_stub.py, the standard library's http.server in a thread), as
docs/features/federation.md says:
headers, signature, gzip, revisions, coalescing, the spool on disk, 409, 400/401/403, the
heartbeat."""

import gzip
import json
import time

import pytest

from archive.tournament_file import dumps
from core import signed
from publishing import sender, spool
from publishing.models import Publication
from publishing.public_file import public_tournament_file
from publishing.services import set_publication
from tests.support import factories as f
from tournament.changes import touch

from .conftest import KEY, SECRET

pytestmark = pytest.mark.django_db
LATER = 10_000  # seconds: every wait is over


def publish(t, url, key=KEY, capture=None):
    return set_publication("tournament", t.slug, url, key, True, None)


def setup(t, stub, capture, key=KEY):
    with capture():
        publish(t, stub.url, key)
    return Publication.objects.get(slug=t.slug)


def confirm(t, number, people, capture, scores=(40000, 35000, 25000, 20000)):
    table = t.sessions.get(number=1).tables.get(number=number)
    with capture():
        f.play(table, list(scores), people["desk1"], people["desk2"])


def public(t):
    t.refresh_from_db()
    return json.loads(dumps(public_tournament_file(t)))


def later(seconds=LATER):  # noqa
    return sender.SENDER.run_pending(time.monotonic() + seconds)


def test_the_file_goes_signed_and_compressed_with_the_headers(t, stub, committed):
    """docs/features/federation.md, the wire: POST <url>/api/publish/,
    X-Desk-Key/Kind/Revision/Changed-At/Signature, gzip of the public file's JSON; the answer's
    `have` is kept."""
    publication = setup(t, stub, committed)
    (got,) = stub.received
    assert got.path == "/api/publish/" and got.status == 200
    h = got.headers
    assert (h[signed.KEY], h[signed.KIND], h[signed.REVISION]) == ("7", "tournament", "1")
    assert h["Content-Type"] == "application/json" and h["Content-Encoding"] == "gzip"
    assert signed.signed_by(SECRET, "tournament", 1, got.body, h[signed.SIGNATURE])
    assert not signed.signed_by(SECRET, "club", 1, got.body, h[signed.SIGNATURE])
    assert h[signed.CHANGED_AT][-6] in "+-"  # ISO 8601 with its offset
    assert got.data == public(t)
    assert gzip.decompress(got.body).decode() == dumps(public_tournament_file(t))
    assert (publication.revision, publication.sent_revision) == (1, 1)
    assert publication.sent_at and publication.heard_at and not publication.last_error
    # On disk: the body as sent and its revision.
    spooled = spool.read("tournament", t.slug)
    assert (spooled.revision, spooled.body) == (1, got.body)


def test_each_change_the_public_sees_is_a_new_revision_and_nothing_else_is(
    t, people, stub, committed
):
    setup(t, stub, committed)
    confirm(t, 1, people, committed)
    assert [r.headers[signed.REVISION] for r in stub.uploads] == ["1", "2"]
    assert stub.uploads[-1].data == public(t)
    # A draft changes nothing the public sees: no new revision, nothing sent.
    table = t.sessions.get(number=1).tables.get(number=2)
    with committed():
        f.play(table, [40000, 35000, 25000, 20000], people["desk1"], None)
    assert len(stub.uploads) == 2
    assert Publication.objects.get().revision == 2


def test_changes_while_the_server_is_down_go_as_one_upload_of_the_newest(
    t, people, stub, committed
):
    """A newer change replaces what waits: three changes while the server is down, one upload
    when it is back; the waits between tries 1, 2, 4 … 30 s."""
    setup(t, stub, committed)
    stub.down = True
    confirm(t, 1, people, committed)
    job = sender.SENDER.jobs[("tournament", t.slug)]
    assert job.delay == 1
    publication = Publication.objects.get()
    assert publication.failing_since is not None
    assert publication.error_text().startswith("No answer from 127.0.0.1: ")
    table = t.sessions.get(number=1).tables.get(number=2)
    with committed():
        f.play(table, [30000, 30000, 30000, 30000], people["desk1"], people["desk2"])
    with committed():
        f.play(table, [31000, 30000, 30000, 29000], people["desk1"], people["desk2"])
    assert Publication.objects.get().revision == 4  # each change spooled, none sent yet
    delays = []
    for _ in range(7):
        waited = job.due
        assert sender.SENDER.run_pending(waited - 0.01) == 0  # not before its time
        sender.SENDER.run_pending(waited)
        delays.append(job.delay)
    assert delays == [2, 4, 8, 16, 30, 30, 30]
    stub.down = False
    sender.SENDER.run_pending(job.due)
    (upload,) = stub.uploads[1:]
    assert upload.headers[signed.REVISION] == "4" and upload.data == public(t)
    publication = Publication.objects.get()
    assert publication.sent_revision == 4
    assert publication.failing_since is None and publication.last_error == ""


def test_what_is_spooled_is_sent_by_the_next_sender(t, people, stub, committed):
    """The desk restarts while the server was away: a new sender sends what waited on disk."""
    setup(t, stub, committed)
    stub.down = True
    confirm(t, 1, people, committed)
    stub.down = False
    restarted = sender.Sender()
    restarted.resume()
    restarted.run_pending()
    assert [r.headers[signed.REVISION] for r in stub.uploads] == ["1", "2"]
    assert stub.uploads[-1].data == public(t)
    assert Publication.objects.get().sent_revision == 2


def test_a_server_holding_a_newer_revision_gets_ours_above_it(t, stub, committed):
    """409 with `have` above ours (the hall's database was restored): our revision moves above
    it and the file goes again."""
    stub.have["7"] = 50
    publication = setup(t, stub, committed)
    assert [(r.headers[signed.REVISION], r.status) for r in stub.received] == [
        ("1", 409),
        ("51", 200),
    ]
    assert (publication.revision, publication.sent_revision) == (51, 51)
    assert spool.read("tournament", t.slug).revision == 51


@pytest.mark.parametrize(
    "case, message",
    [
        (
            "wrong key",
            "The federation server refused the key: no such key, or the signature does not match",
        ),
        ("revoked", "The federation server refused the key: revoked"),
        ("bad file", "The federation server refused the file: refused by the test"),
    ],
)
def test_a_refusal_stops_sending_that_revision(t, stub, committed, case, message):
    key = f"7.{'0' * 40}" if case == "wrong key" else KEY
    if case == "revoked":
        stub.revoked.add("7")
    if case == "bad file":
        stub.refuse_with = 400
    publication = setup(t, stub, committed, key)
    assert publication.error_text() == message
    assert publication.sent_revision == 0 and publication.failing_since is not None
    later()
    later()
    assert len(stub.received) == 1  # not again, not even a heartbeat
    # "Send now" (or a new setting) tries again.
    stub.revoked.clear()
    stub.refuse_with = None
    with committed():
        sender.publication_changed("tournament", t.slug)
    assert len(stub.received) == 2


def test_a_server_error_is_tried_again(t, stub, committed):
    stub.refuse_with = 503
    publication = setup(t, stub, committed)
    assert publication.error_text() == "The federation server answered 503: refused by the test"
    stub.refuse_with = None
    later()
    assert [r.status for r in stub.received] == [503, 200]


def test_a_heartbeat_every_minute_and_the_newest_file_to_a_server_that_lost_it(t, stub, committed):
    setup(t, stub, committed)
    assert later(sender.HEARTBEAT - 1) == 0  # nothing due within the minute
    later(sender.HEARTBEAT + 1)
    beat = stub.received[-1]
    assert beat.body == b"" and beat.status == 200
    assert beat.headers[signed.REVISION] == "1" and "Content-Encoding" not in beat.headers
    assert signed.signed_by(SECRET, "tournament", 1, b"", beat.headers[signed.SIGNATURE])
    # The server lost what it held (restored from an old copy): the heartbeat's `have` says so.
    stub.have.clear()
    later()
    assert [(bool(r.body), r.status) for r in stub.received] == [
        (True, 200),
        (False, 200),
        (False, 200),
        (True, 200),
    ]
    assert stub.have["7"] == 1


def test_a_disabled_publication_sends_nothing(t, people, stub, committed):
    setup(t, stub, committed)
    with committed():
        set_publication("tournament", t.slug, stub.url, "", False, None)
    confirm(t, 1, people, committed)
    later()
    assert len(stub.received) == 1


def test_a_change_never_fails_because_publishing_does(t, people, committed, monkeypatch):
    with committed():
        publish(t, "http://127.0.0.1:9")  # nothing listens there

    def broken(*args):
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(spool, "write", broken)
    confirm(t, 1, people, committed)
    publication = Publication.objects.get()
    assert publication.error_text() == "The public file could not be made: the disk is gone"
    with committed():
        touch(t.pk)


# --- the settings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://results.example.org",
        "https://results.example.org/mahjong/",
        "http://127.0.0.1:8000",
        "http://192.168.1.20",
        "http://localhost:8001",
        "http://[::1]:8000",
    ],
)
def test_a_good_address_is_taken(t, url):
    publication = set_publication("tournament", t.slug, url, KEY, True, None)
    assert publication.url == url and publication.history.count() == 1


@pytest.mark.parametrize(
    "url, problem",
    [
        ("results.example.org", "must start with https://"),
        ("ftp://results.example.org", "must start with https://"),
        ("https://", "must start with https://"),
        ("http://results.example.org", "http:// only to this machine or the hall's network"),
        ("http://8.8.8.8", "http:// only to this machine or the hall's network"),
        ("https://results.example.org/?x=1", "without a user, ? or #"),
        ("https://results.example.org:port", "is not a web address"),
    ],
)
def test_a_bad_address_is_refused_naming_the_field(t, url, problem):
    from core.errors import ActionRefused

    with pytest.raises(ActionRefused) as e:
        set_publication("tournament", t.slug, url, KEY, True, None)
    assert e.value.field == "url"
    assert e.value.message.startswith("Federation server: ") and problem in e.value.message
    assert not Publication.objects.exists()


@pytest.mark.parametrize("key", ["7", "7.", ".secret", "   "])
def test_a_bad_key_is_refused_naming_the_field(t, key):
    from core.errors import ActionRefused

    set_publication("tournament", t.slug, "https://a.example.org", KEY, False, None)
    with pytest.raises(ActionRefused) as e:
        set_publication(
            "tournament",
            t.slug,
            "https://b.example.org",
            key.replace(" ", "x") if key.strip() else "7",
            True,
            None,
        )
    assert e.value.field == "key" and e.value.message.startswith(
        "Publishing key: is not a publishing key"
    )
    publication = Publication.objects.get()
    assert (publication.url, publication.key, publication.enabled) == (
        "https://a.example.org",
        KEY,
        False,
    )


def test_an_empty_key_keeps_the_stored_one_and_a_new_server_starts_over(t):
    set_publication("tournament", t.slug, "https://a.example.org", KEY, True, None)
    Publication.objects.update(sent_revision=5, last_error="x")
    publication = set_publication("tournament", t.slug, "https://a.example.org", "", True, None)
    assert publication.key == KEY and publication.sent_revision == 5
    publication = set_publication("tournament", t.slug, "https://b.example.org", "", True, None)
    assert publication.sent_revision == 0 and publication.last_error == ""
    assert publication.history.count() == 3


def test_a_spool_broken_by_a_crash_never_gives_its_revision_again(t, stub, committed, people):
    """A crash between the body's write and the meta's leaves a pair that reads as nothing
    spooled; the next file is made above the revision the meta names, not at it again."""
    publication = setup(t, stub, committed)
    assert publication.revision == 1
    body = spool.folder() / "tournament-open.json.gz"
    body.write_bytes(b"half a file")
    assert spool.read("tournament", "open") is None
    Publication.objects.filter(pk=publication.pk).update(revision=0)  # the database behind
    confirm(t, 1, people, committed)
    assert spool.read("tournament", "open").revision == 2
