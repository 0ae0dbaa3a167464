"""A stateful property test of the tables' hands (issue 34, "The state machine covers every
write path"): a sibling of tests/integration/desk/test_state_machine.py, sharing its requests, its
pages and its comparisons (tests/support/machine.py), that plays a session's tables hand by
hand through the real URLs and holds the desk to one truth between a table's hands, its
result, its backup and a restore.

The steps (one rule each, `HandsMachine`):

- the table page (`/h/<slug>/<session>/<table>/<key>/act/`, JSON, no login): record a hand
  (the next number, or a stale or odd one), send the same change again (its `client_id`),
  record a different hand at a number another device already filled (a conflict), confirm
  hands (one seat, or every seat), undo the last hand, correct an earlier one, send the result
  to the desk, and play on: several hands in one step, each confirmed by every seat, so that a
  riichi game reaches its end (and its draft) within a few steps;
- the desk's typed hands (the hands page: hands added after the table's, an earlier hand
  changed with a reason, the last dropped), which make the table's draft;
- the desk's result form (the scores the hands give, or others), and the desk confirming a
  draft (a second desk user, or the single confirmation);
- removing a table, adding one by hand, adding and drawing a second session;
- a backup written on the backups page and restored at once on its restore page, while tables
  are in play.

After every step that wrote:

(a) no request of the step answered 500 (each request is checked as it returns);
(b) every page of the tournament answers 200: `pages()` and, for each table, its own page, its
    `state.json` and the desk's hands page (`hand_pages()`);
(d) the newest backup — the tournament file as the backup writer writes it after the step
    (archive.backups.write_backup) — imports under another slug (in a savepoint rolled back)
    with the same standings feed and the same tables: each table's current hands and its
    confirmed result, else its draft, else in play (`tables_as_kept()`);
(e) every table's result agrees with its hands: a table with current hands has its newest
    draft or confirmed result equal to what scoring.selectors.hands_outcome gives.

Two rules check their own step: removing a table never deletes its recorded hands, and a
restore of the backup just written changes nothing (the tables as kept, the standings feed).
A riichi "send to the desk" before the game is over is refused (the machine never starts the
clock, so the clock never ended the game).

CI runs a fixed set (derandomized, no example database, no shrinking); a longer run:

    DESK_STATEFUL_EXAMPLES=50 DESK_STATEFUL_STEPS=30 \\
        pytest tests/integration/sheet/test_state_machine_hands.py

(DESK_STATEFUL_SHRINK=1 shrinks a failure to fewer steps.)
"""

import json
import sys
import uuid

import pytest
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
)

from archive import backups
from archive.tournament_file import parse
from mahjong.hands import HandError, play
from mahjong.hands.notation import write_all
from scoring.models import Hand, Result
from scoring.selectors import hands_outcome, table_hands
from seating.keys import table_path
from seating.models import Table
from tests.support import factories as f
from tests.support.hands import SICHUAN_HANDS
from tests.support.machine import (
    Machine,
    comparable,
    difference,
    disagreements,
    explore,
    hand_pages,
    pages,
    tables_as_kept,
)
from tests.support.odd_input import TEXT, either, form_on
from tournament.models import StaffGrant, Tournament

pytestmark = pytest.mark.django_db


WINDS = "ESWN"
# (han, fu) a riichi win may have; fu None: a limit hand, no fu counted.
VALUES = [(1, 30), (2, 30), (3, 40), (4, 30), (5, None), (13, None)]


@st.composite
def riichi_hand(draw, dealer: str, winds: tuple, progress: bool) -> dict:
    """One riichi hand. `progress`: a non-dealer's self-drawn win, so that the deal moves on
    and the game nears its end; otherwise any kind of hand, of any seat."""
    if progress:
        winner = draw(st.sampled_from([w for w in winds if w != dealer]))
        return {"result": "tsumo", "wins": [{"seat": winner, "han": 2, "fu": 30}], "riichi": []}
    kind = draw(st.sampled_from(["tsumo", "ron", "draw", "chombo", "tsumo", "ron"]))
    riichi = draw(st.lists(st.sampled_from(winds), unique=True, max_size=2))
    if kind == "draw":
        tenpai = draw(st.lists(st.sampled_from(winds), unique=True))
        return {"result": "draw", "tenpai": sorted(tenpai, key=WINDS.index), "riichi": riichi}
    if kind == "chombo":
        return {"result": "chombo", "seat": draw(st.sampled_from(winds)), "riichi": []}
    winner = draw(st.sampled_from(winds))
    han, fu = draw(st.sampled_from(VALUES))
    win = {"seat": winner, "han": han} if fu is None else {"seat": winner, "han": han, "fu": fu}
    if kind == "tsumo":
        return {"result": "tsumo", "wins": [win], "riichi": riichi}
    loser = draw(st.sampled_from([w for w in winds if w != winner]))
    return {"result": "ron", "from": loser, "wins": [win], "riichi": riichi}


def sichuan_hand(winds: tuple):
    """One Sichuan hand: docs/rules.md §5.2's two worked hands (a four-player table), or the wall
    run out with each seat's state."""
    state = st.sampled_from(["not_waiting", "pig", {"waiting": 0}, {"waiting": 1}])
    exhausted = st.fixed_dictionaries(
        {"events": st.just([]), "exhausted": st.fixed_dictionaries({w: state for w in winds})}
    )
    if len(winds) == 4:
        return st.one_of(st.sampled_from(SICHUAN_HANDS), exhausted)
    return exhausted


def holds(rules, hands, winds) -> bool:
    try:
        play(rules, hands, winds)
    except HandError:
        return False
    return True


class HandsMachine(Machine):
    """One tournament's session, its tables' phones and the desk, driven through the URLs."""

    examples = 0

    def __init__(self):
        super().__init__()
        HandsMachine.examples += 1
        self.t = None
        self.sent = []  # (table pk, body) of every record and correction sent: to send again

    def teardown(self):
        try:
            if self.t is not None and not sys.exc_info()[0]:
                self.check_backup()
        finally:
            self.rollback()

    # --- what the tournament has now -----------------------------------------------------

    def tournament(self):
        return Tournament.objects.get(slug=self.t.slug)

    def rule_set(self):
        return self.tournament().rule_set()

    def tables(self, hands=False):
        tables = Table.objects.filter(session__tournament=self.t, seats__isnull=False)
        tables = tables.distinct().select_related("session__tournament")
        found = list(tables.order_by("session__number", "number"))
        return [t for t in found if table_hands(t)] if hands else found

    def has_tables(self):
        return self.t is not None and bool(self.tables())

    def has_hands(self):
        return (
            self.t is not None
            and Hand.objects.filter(
                table__session__tournament=self.t, superseded_at__isnull=True
            ).exists()
        )

    def winds(self, table) -> list[str]:
        return sorted(table.seats.values_list("wind", flat=True), key=WINDS.index)

    def hand(self, data, table, hands: list, progress=False) -> dict:
        """A hand to follow `hands` at the table: mostly one the rules take there."""
        rules = self.rule_set()
        winds = tuple(self.winds(table))
        if rules.game == "sichuan":
            return data.draw(sichuan_hand(winds))
        try:
            game = play(rules, hands, winds).game
        except HandError:
            return data.draw(riichi_hand("E", winds, progress))
        hand = data.draw(riichi_hand(game.dealer, winds, progress))
        if game.over or holds(rules, [*hands, hand], winds) or data.draw(st.integers(0, 9)) == 0:
            return hand  # now and then one the rules refuse there: the page must say why
        return data.draw(riichi_hand(game.dealer, winds, True))

    def act(self, table, body):
        """One change on the table page, as its script posts it."""
        url = table_path(table) + "act/"
        return self.request("anonymous", "post", url, json_body=body)

    def s_url(self, name, table, *args):
        return reverse(name, args=[self.t.slug, table.session.number, table.number, *args])

    def t_url(self, name, *args):
        return reverse(name, args=[self.t.slug, *args])

    # --- the tournament ------------------------------------------------------------------

    @initialize(
        ruleset=st.sampled_from(["ema-2012", "furiten-club", "sbr-2025"]),
        single=st.booleans(),
    )
    def a_tournament(self, ruleset, single):
        """A tournament of eight players, session 1 drawn by the director's button: two
        tables, their phones not yet used."""
        self.t = f.tournament(
            ruleset,
            players=8,
            slug=f"hands-{HandsMachine.examples}",
            single_confirmation=single,
        )
        self.post("director", self.t_url("desk:session_add"))
        session = self.t.sessions.get()
        self.post("director", self.t_url("desk:session_draw", session.number), {"seed": "7"})

    # --- the table page ------------------------------------------------------------------

    @precondition(lambda self: self.has_tables())
    @rule(data=st.data())
    def record(self, data):
        """A phone records the next hand; now and then at a number already taken (a stale
        device) or an odd one."""
        table = data.draw(st.sampled_from(self.tables()))
        current = table_hands(table)
        number = len(current) + 1
        if data.draw(st.integers(0, 5)) == 0:
            number = data.draw(st.sampled_from([max(1, len(current)), 0, -1, 10**6, "2", None]))
        body = {
            "action": "record",
            "data": self.hand(data, table, [h.data for h in current]),
            "number": number,
            "device": data.draw(st.sampled_from([*self.winds(table), ""])),
            "client_id": str(uuid.uuid4()),
        }
        self.act(table, body)
        self.sent.append((table.pk, body))

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def resend(self, data):
        """A phone that lost the answer sends the same change again: recorded once."""
        pk, body = data.draw(st.sampled_from(self.sent))
        table = Table.objects.filter(pk=pk).select_related("session__tournament").first()
        if table is None:
            return  # removed, or replaced by a restore
        self.act(table, body)
        cid = body["client_id"]
        assert Hand.objects.filter(client_id=cid).count() <= 1, f"{cid} recorded twice"

    @precondition(lambda self: self.has_hands())
    @rule(data=st.data())
    def conflict(self, data):
        """A second device, offline meanwhile, records its own hand at the number the table
        already has: a conflict (409) when it differs, nothing recorded."""
        table = data.draw(st.sampled_from(self.tables(hands=True)))
        current = table_hands(table)
        before = [h.data for h in current[:-1]]
        body = {
            "action": "record",
            "data": self.hand(data, table, before),
            "number": len(current),
            "device": data.draw(st.sampled_from(self.winds(table))),
            "client_id": str(uuid.uuid4()),
        }
        response = self.act(table, body)
        if response.status_code == 409:
            assert table_hands(table) == current, "a conflict changed the table's hands"

    @precondition(lambda self: self.has_hands())
    @rule(data=st.data(), every=st.booleans())
    def confirm(self, data, every):
        """Players tap "confirm" on a hand: one seat, or every seat."""
        table = data.draw(st.sampled_from(self.tables(hands=True)))
        hand = data.draw(st.sampled_from(table_hands(table)))
        winds = self.winds(table) if every else [data.draw(st.sampled_from(self.winds(table)))]
        version = either(data, st.just(hand.version), st.sampled_from([0, 99, "1", None]), odds=1)
        for wind in winds:
            body = {"action": "confirm", "number": hand.number, "version": version, "wind": wind}
            self.act(table, body)

    @precondition(lambda self: self.has_hands())
    @rule(data=st.data())
    def undo(self, data):
        """ "Undo last hand", naming the hand the device saw last (sent twice now and then)."""
        table = data.draw(st.sampled_from(self.tables(hands=True)))
        last = table_hands(table)[-1]
        body = {
            "action": "undo",
            "number": last.number,
            "version": last.version,
            "reason": either(data, st.just("Undone at the table."), TEXT, odds=1),
        }
        for _time in range(data.draw(st.integers(1, 2))):
            self.act(table, body)
        if data.draw(st.booleans()):  # and the phone records the hand again, as meant
            again = {
                "action": "record",
                "data": last.data,
                "number": last.number,
                "device": data.draw(st.sampled_from(self.winds(table))),
                "client_id": str(uuid.uuid4()),
            }
            self.act(table, again)
            self.sent.append((table.pk, again))

    @precondition(lambda self: self.has_hands())
    @rule(data=st.data())
    def correct(self, data):
        """An earlier hand corrected with a reason: a new version."""
        table = data.draw(st.sampled_from(self.tables(hands=True)))
        current = table_hands(table)
        hand = data.draw(st.sampled_from(current))
        before = [h.data for h in current if h.number < hand.number]
        body = {
            "action": "correct",
            "number": hand.number,
            "version": hand.version,
            "data": self.hand(data, table, before),
            "reason": either(data, st.just("wrong han"), st.sampled_from(["", " "]), odds=1),
            "client_id": str(uuid.uuid4()),
            "device": data.draw(st.sampled_from(self.winds(table))),
        }
        self.act(table, body)
        self.sent.append((table.pk, body))

    @precondition(lambda self: self.has_hands())
    @rule(data=st.data())
    def send(self, data):
        """ "Send the result to the desk". docs/using/table-page.md, "From the hands to the desk":
        at a Sichuan table, or a riichi game the clock ended; the machine never starts the clock, so
        a riichi game not over is refused."""
        table = data.draw(st.sampled_from(self.tables(hands=True)))
        rules = self.rule_set()
        over = rules.game == "sichuan" or hands_outcome(table).game.over
        response = self.act(table, {"action": "send"})
        assert over or response.status_code != 200, (
            "(f) a riichi game not over, the clock not ended, was sent to the desk: "
            f"table {table.number}, {len(table_hands(table))} hands"
        )

    @precondition(lambda self: self.has_tables())
    @rule(data=st.data(), count=st.sampled_from([1, 3, 8]))
    def play_on(self, data, count):
        """The table plays on: `count` hands, each recorded by one phone and confirmed by every
        seat (a riichi game's end makes the draft by itself)."""
        table = data.draw(st.sampled_from(self.tables()))
        winds = self.winds(table)
        for _hand in range(count):
            current = table_hands(table)
            body = {
                "action": "record",
                "data": self.hand(data, table, [h.data for h in current], progress=True),
                "number": len(current) + 1,
                "device": data.draw(st.sampled_from(winds)),
                "client_id": str(uuid.uuid4()),
            }
            if self.act(table, body).status_code != 200:
                return
            self.sent.append((table.pk, body))
            for wind in winds:
                self.act(table, {"action": "confirm", "number": len(current) + 1, "version": 1,
                                 "wind": wind})  # fmt: skip

    # --- the desk ------------------------------------------------------------------------

    @precondition(lambda self: self.has_tables())
    @rule(data=st.data())
    def typed_hands(self, data):
        """A paper protocol's hands typed at the desk: the table's hands and more, or one of
        them changed, or the last dropped (with a reason); saved as the table's draft — or, on
        a confirmed table, the director's correction: hands and result a new version together
        (a desk user is refused)."""
        table = data.draw(st.sampled_from(self.tables()))
        url = self.s_url("desk:hands", table)
        who = data.draw(st.sampled_from(["desk1", "desk2", "director"]))
        form = form_on(self.get(who, url).content.decode(), "text")
        hands = [h.data for h in table_hands(table)]
        change = data.draw(st.sampled_from(["add", "add", "change", "drop"]))
        if change == "add" or not hands:
            for _hand in range(data.draw(st.integers(1, 8))):
                hands.append(self.hand(data, table, hands, progress=data.draw(st.booleans())))
        elif change == "change":
            at = data.draw(st.integers(0, len(hands) - 1))
            hands[at] = self.hand(data, table, hands[:at])
        else:
            hands.pop()
        form.update(
            {
                "text": write_all(hands),
                "reason": either(data, st.just("protocol re-read"), TEXT, odds=1),
                "save": "1",
            }
        )
        form.pop("check", None)
        self.post(who, url, form)

    @precondition(lambda self: self.has_tables())
    @rule(data=st.data(), agree=st.booleans())
    def result_form(self, data, agree):
        """The desk's result form: the scores the table's hands give, or others."""
        table = data.draw(st.sampled_from(self.tables()))
        rules = self.rule_set()
        winds = self.winds(table)
        scores, chombo = None, {}
        if agree and table_hands(table):
            try:
                outcome = hands_outcome(table)
                scores, chombo = outcome.scores, outcome.chombo or {}
            except HandError:
                scores = None
        if scores is None:
            steps = [data.draw(st.integers(-300, 700)) * rules.score_step for _ in winds[1:]]
            total = 0 if rules.game == "sichuan" else rules.start_points * len(winds)
            scores = dict(zip(winds, [*steps, total - sum(steps)], strict=True))
        latest = table.results.order_by("-version").first()
        form = {"base_version": latest.version if latest else 0, "note": ""}
        for wind in winds:
            form[f"score_{wind}"] = scores[wind]
            if rules.game == "riichi":
                form[f"chombo_{wind}"] = chombo.get(wind, 0)
        who = data.draw(st.sampled_from(["desk1", "desk2", "director"]))
        self.post(who, self.s_url("desk:result", table), form)

    def has_draft(self):
        return (
            self.t is not None
            and Result.objects.filter(table__session__tournament=self.t, status="draft").exists()
        )

    @precondition(lambda self: self.has_draft())
    @rule(data=st.data())
    def confirm_result(self, data):
        """The desk confirms a draft: one made from the hands, or typed."""
        drafts = Result.objects.filter(table__session__tournament=self.t, status="draft")
        result = data.draw(st.sampled_from(list(drafts.select_related("table__session"))))
        others = [
            name
            for name in ("desk1", "desk2", "director")
            if self.users[name].pk != result.entered_by_id or self.t.single_confirmation
        ]
        who = data.draw(st.sampled_from(others))
        url = self.s_url("desk:result_confirm", result.table)
        self.post(who, url, {"version": result.version})

    @precondition(lambda self: self.has_tables())
    @rule(data=st.data())
    def remove_table(self, data):
        """The director removes a table: never its recorded hands with it."""
        table = data.draw(st.sampled_from(self.tables()))
        recorded = Hand.objects.filter(table=table).count()
        self.post("director", self.s_url("desk:table_delete", table))
        gone = not Table.objects.filter(pk=table.pk).exists()
        lost = recorded - Hand.objects.filter(table_id=table.pk).count()
        assert not (gone and lost), (
            f"(g) removing table {table.number} deleted its {lost} recorded hands"
        )

    @rule(data=st.data())
    def add_table(self, data):
        """A table by hand for the players the session has not seated."""
        session = data.draw(st.sampled_from(list(self.t.sessions.order_by("number"))))
        seated = set(session.seats.values_list("player_id", flat=True))
        free = [p.pk for p in self.t.players.order_by("pk") if p.pk not in seated]
        if len(free) < 4:
            return
        form = dict(zip(WINDS, data.draw(st.permutations(free))[:4], strict=True))
        self.post("director", reverse("desk:table_add", args=[self.t.slug, session.number]), form)

    @precondition(lambda self: self.t is not None)
    @rule(data=st.data())
    def users_page(self, data):
        """The director's users page (roles per event): a user added, a name drawn across its
        limits; desk2's desk role on the tournament taken back and given again (between the
        two, desk2's pages answer 403, and nothing else changes)."""
        name = either(data, st.just(f"desk-{self.steps}"), TEXT, odds=1)
        self.post("director", reverse("desk:user_add"), {"username": name, "password": ""})
        user = self.users["desk2"]
        detail = reverse("desk:user", args=[user.pk])
        grant = StaffGrant.objects.filter(user=user, tournament=self.t, role="desk").first()
        if grant is not None:
            self.post("director", detail, {"action": "take_role", "grant": grant.pk})
            assert not StaffGrant.objects.filter(pk=grant.pk).exists()
        give = {"action": "give_role", "tournament": self.t.pk, "role": "desk"}
        self.post("director", detail, give)
        assert StaffGrant.objects.filter(user=user, tournament=self.t, role="desk").exists()

    @precondition(lambda self: self.t is not None and self.t.sessions.count() < 2)
    @rule()
    def second_session(self):
        self.post("director", self.t_url("desk:session_add"))
        self.post("director", self.t_url("desk:session_draw", 2), {"seed": "11"})

    # --- a backup restored while the tables play -----------------------------------------

    @rule()
    def backup_and_restore(self):
        """The director writes a backup (the backups page) and restores it at once (its
        restore page): the tables come back as they were, in play or not."""
        before = tables_as_kept(self.t)
        feed = json.loads(self.get("anonymous", reverse("public:feed", args=[self.t.slug])).content)
        self.post("director", self.t_url("archive:backups"))
        newest = backups.listing(self.t.slug)[0]
        self.get("director", self.t_url("archive:backup_restore", newest.name))
        self.post("director", self.t_url("archive:backup_restore", newest.name))
        self.t = self.tournament()
        after = tables_as_kept(self.t)
        assert after == before, "(h) the restore changed the tables: " + difference(
            {str(k): v for k, v in before.items()}, {str(k): v for k, v in after.items()}, "tables"
        )
        again = json.loads(
            self.get("anonymous", reverse("public:feed", args=[self.t.slug])).content
        )
        assert comparable(again) == comparable(feed), (
            "(h) the restore changed the standings feed: "
            + difference(comparable(feed), comparable(again))
        )
        self.sent = []  # the restored hands are new rows: their ids are the file's

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def every_page_answers_and_every_result_agrees(self):
        """(b) every page answers, (e) every table's result agrees with its hands, (d) the
        newest backup restores with the same standings and tables."""
        if self.t is None or not self.wrote:
            return
        self.steps += 1
        self.t = self.tournament()
        self.open_pages(pages(self.t) + hand_pages(self.t))
        wrong = disagreements(self.t)
        assert not wrong, "(e) results that disagree with their hands:\n  " + "\n  ".join(wrong)
        self.check_backup()
        self.wrote = False

    def check_backup(self):
        """(d) the backup the writer writes now imports under another slug with the same
        standings feed and the same tables."""
        self.t = self.tournament()
        newest = backups.write_backup(self.t)
        data = parse(newest.path.read_bytes())
        with self.restored_copy(self.t, data, "the newest backup") as copy:
            kept, back = tables_as_kept(self.t), tables_as_kept(copy)
            assert back == kept, "(d) the restored backup's tables differ: " + difference(
                {str(k): v for k, v in kept.items()}, {str(k): v for k, v in back.items()}, "tables"
            )


@pytest.mark.long(115)
def test_the_tables_hands_and_results_hold_one_truth():
    explore(HandsMachine)
