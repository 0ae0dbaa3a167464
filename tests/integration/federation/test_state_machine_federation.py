"""A stateful property test of the federation server (issue 38): organisers make and revoke
publishing keys on their pages, halls send files (newer, the same, older revisions; a bad
signature; a revoked key; the other kind) and heartbeats on the real /api/publish/.

After every step:

(a) no request answered 500, and each answer is the one docs/features/federation.md "The wire" gives
    for the state the model holds (200 stored or held, 409 older, 401 bad signature, 403
    revoked or the other kind);
(b) every public page of each mirror (standings, feed, statistics, find, a player, the heard
    JSON) and the organisers' pages answer 200;
(c) a mirror's revision never goes down while one key holds it (a new key, its old one
    revoked, starts again from its own hall's revision);
(d) a mirror's public standings are those of the file last accepted for it.

The hall's files are made once per example: two states of one played tournament.
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, initialize, invariant, multiple, rule

from archive.tournament_file import export_tournament
from federation.models import Mirror, PublishingKey
from federation.organisers import make_organiser
from tests.support import factories as f
from tests.support.federation import packed, send
from tests.support.machine import Machine, explore

pytestmark = pytest.mark.django_db

SLUGS = ["alpha", "beta"]
KEY_TEXT = re.compile(r"<code>(\d+\.[0-9a-f]{40})</code>")


def standings(response) -> list:
    return json.loads(response.content)["standings"]


class FederationMachine(Machine):
    roles = {}

    keys = Bundle("keys")

    def __init__(self):
        super().__init__()
        organiser, _made = make_organiser("organiser")
        client = Client(raise_request_exception=False)
        client.force_login(organiser)
        self.clients["organiser"] = client
        self.hall_files = []  # (the gzip of the file, the hall's standings then)
        self.live = {}  # key pk -> its text, while it is live
        self.texts = {}  # key pk -> its text
        self.slug_of = {}  # key pk -> slug
        self.held = {}  # slug -> (key pk, revision)
        self.accepted = {}  # slug -> the standings of the file last accepted
        self.seen = {}  # slug -> (key pk, revision) seen by the last check (c)

    def teardown(self):
        self.rollback()

    @initialize(target=keys)
    def a_hall(self):
        """The hall: a tournament of eight, one session; a file after its first table is
        confirmed and one after both. And the organiser's first key, for "alpha"."""
        people = f.staff()
        t = f.tournament(slug="hall")
        for name in ("desk1", "desk2"):
            f.grant(people[name], t)
        session = f.seat_session(t)
        for table in session.tables.order_by("number"):
            f.play(table, [45000, 35000, 25000, 15000], people["desk1"], people["desk2"])
            feed = self.get("anonymous", reverse("public:feed", args=["hall"]))
            self.hall_files.append((packed(export_tournament(t)), standings(feed)))
        return self.make_key("alpha")

    # --- the organiser's pages

    @rule(target=keys, slug=st.sampled_from(SLUGS))
    def make_key(self, slug):
        response = self.post(
            "organiser", "/federation/new/", {"kind": "tournament", "slug": slug, "label": "x"}
        )
        taken = any(self.slug_of[pk] == slug for pk in self.live)
        if taken:
            assert response.status_code == 400, "(a) a second live key for one address"
            return multiple()
        assert response.status_code == 200, f"(a) new key: {response.status_code}"
        text = KEY_TEXT.search(response.content.decode()).group(1)
        pk = int(text.split(".")[0])
        self.live[pk] = self.texts[pk] = text
        self.slug_of[pk] = slug
        return pk

    @rule(pk=keys)
    def revoke(self, pk):
        self.post("organiser", f"/federation/{pk}/revoke/", {"confirm": "1"})
        self.live.pop(pk, None)
        assert PublishingKey.objects.get(pk=pk).revoked_at is not None

    # --- the hall

    def have(self, pk) -> int:
        held = self.held.get(self.slug_of[pk])
        return held[1] if held and held[0] == pk else 0

    @rule(
        pk=keys,
        which=st.integers(0, 1),
        step=st.sampled_from([1, 1, 2, 0, -1]),
        forged=st.sampled_from([False, False, False, True]),
        kind=st.sampled_from(["tournament"] * 5 + ["club"]),
    )
    def a_hall_sends(self, pk, which, step, forged, kind):
        have = self.have(pk)
        revision = max(have + step, 0)
        body, hall_standings = self.hall_files[which]
        response = send(
            self.texts[pk],
            kind,
            revision,
            body,
            secret="forged" if forged else None,
            client=self.clients["anonymous"],
        )
        status = response.status_code
        assert status < 500, f"(a) {status} for a file"
        answer = json.loads(response.content)
        slug = self.slug_of[pk]
        if forged:
            expected = 401
        elif pk not in self.live or kind != "tournament":
            expected = 403
        elif revision < have:
            expected = 409
        else:
            expected = 200
        assert status == expected, f"(a) {status} for r{revision} (held {have}): {answer}"
        if status == 200 and revision > have:
            self.held[slug] = (pk, revision)
            self.accepted[slug] = hall_standings
        if status != 401:
            assert answer["have"] == self.have(pk), f"(a) have {answer} for r{revision}"

    @rule(pk=keys)
    def a_heartbeat(self, pk):
        response = send(self.texts[pk], "tournament", 99, b"", client=self.clients["anonymous"])
        expected = 200 if pk in self.live else 403
        assert response.status_code == expected, f"(a) heartbeat: {response.status_code}"
        assert json.loads(response.content)["have"] == self.have(pk)

    # --- after every step

    @invariant()
    def mirrors_hold(self):
        if not self.hall_files:
            return
        self.open_pages([("organiser", "/federation/", "html")])
        for slug, (pk, revision) in self.held.items():
            mirror = Mirror.objects.get(kind="tournament", slug=slug)
            assert (mirror.key_id, mirror.revision) == (pk, revision), "(c) the mirror's row"
            seen = self.seen.get(slug)
            if seen and seen[0] == pk:
                assert revision >= seen[1], f"(c) {slug} went down from r{seen[1]} to r{revision}"
            self.seen[slug] = (pk, revision)
            self.open_pages(
                [
                    ("anonymous", reverse("public:standings", args=[slug]), "html"),
                    ("anonymous", reverse("public:feed", args=[slug]), "json"),
                    ("anonymous", reverse("public:statistics", args=[slug]), "json"),
                    ("anonymous", reverse("public:find", args=[slug]), "html"),
                    ("anonymous", reverse("public:player", args=[slug, "p01"]), "html"),
                    ("anonymous", reverse("federation:heard", args=["tournament", slug]), "json"),
                ]
            )
            feed = self.get("anonymous", reverse("public:feed", args=[slug]))
            assert standings(feed) == self.accepted[slug], f"(d) {slug}'s standings"


@pytest.mark.long(30)
def test_the_mirrors_hold_whatever_halls_and_organisers_send():
    explore(FederationMachine)
