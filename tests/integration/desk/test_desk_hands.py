"""Issue 24, "From hands to the desk": a desk user types a paper protocol's hands at the keyboard
(the notation of mahjong.hands.notation), checks them hand by hand, saves them; their scores
become the table's draft result, which a second desk user confirms as any other. Through the
real URLs and the real database."""

import html
import re

import pytest

from scoring.models import Hand, Result
from scoring.selectors import table_hands
from scoring.services import record_hand
from tests.support import factories as f
from tests.support.hands import EMA_SCORES, RIICHI_HANDS, SICHUAN_HANDS, SICHUAN_POINTS
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

RIICHI_TEXT = "ron S<W 3/40 r:SN\ndraw t:EN r:N\ntsumo E mangan r:E\nchombo N\n"
SICHUAN_TEXT = "kong concealed W; hu S 2<E; hu W 1 tsumo; hu N 0<E\nend E:w1 S:nw W:pig N:w0\n"


@pytest.fixture
def staff():
    return f.staff()


@pytest.fixture
def riichi():
    t = f.tournament(players=4)
    f.seat_session(t)
    return t


@pytest.fixture
def sichuan():
    t = f.tournament(ruleset="sbr-2025", players=4, slug="sichuan-open")
    f.seat_session(t)
    return t


def url(t, action="hands/"):
    return f"/desk/{t.slug}/s/1/t/1/{action}"


def text_of(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def scores(result) -> dict:
    return {s.wind: (s.score, s.chombo) for s in result.scores.all()}


def test_the_result_page_links_to_the_typed_hands(riichi, staff):
    page = f.login(staff["desk1"]).get(url(riichi, ""))
    assert 'href="/desk/test-open/s/1/t/1/hands/"' in page.content.decode()
    assert "Type the hands from the paper protocol" in page.content.decode()


def test_the_page_is_for_the_desk_only(riichi, staff):
    assert f.login(staff["referee"]).get(url(riichi)).status_code == 403
    anonymous = f.login(f.user("visitor")).get(url(riichi))
    assert anonymous.status_code == 403


def test_a_riichi_game_typed_checked_and_saved_is_the_draft_result(riichi, staff):
    desk = f.login(staff["desk1"])
    page = desk.get(url(riichi))
    assert page.status_code == 200
    body = page.content.decode()
    assert "autofocus" in body and 'id="hands-help"' in body and "ron S&lt;W 3/40 r:SN" in body

    check = desk.post(url(riichi), {"text": RIICHI_TEXT, "seen": "", "check": "1"})
    assert check.status_code == 200
    shown = text_of(check)
    # Hand 1: S +6,200 to 36,200, W −5,200, N −1,000 (tests/support/hands.py); the footer holds
    # the final scores.
    assert "+6,200" in shown and "36,200" in shown and "-5,200" in shown
    assert "tsumo E 5 r:E" in shown  # the line as read: mangan is 5 han
    for score in EMA_SCORES:
        assert f"{score:,}" in shown
    assert not Hand.objects.exists() and not Result.objects.exists()  # a check saves nothing

    saved = desk.post(url(riichi), {"text": RIICHI_TEXT, "seen": "", "save": "1"})
    assert saved.status_code == 302 and saved.url == url(riichi, "")
    table = riichi.sessions.get().tables.get()
    assert [h.data for h in table_hands(table)] == RIICHI_HANDS
    result = Result.objects.get()
    assert (result.status, result.version, result.entered_by) == ("draft", 1, staff["desk1"])
    assert scores(result) == {
        "E": (44800, 0),
        "S": (36600, 0),
        "W": (23200, 0),
        "N": (15400, 1),  # N's chombo is counted for the protocol
    }
    message = text_of(desk.get(url(riichi, "")))
    assert "Table 1: 4 hands saved; their scores are the draft result, version 1" in message

    # The desk confirms it as any other draft: a second person.
    assert desk.post(url(riichi, "confirm/"), {"version": 1}).status_code == 302
    assert Result.objects.get().status == "draft"
    f.login(staff["desk2"]).post(url(riichi, "confirm/"), {"version": 1})
    assert Result.objects.get().status == "confirmed"

    # Once confirmed, the hands stay as they are: only the director corrects them (issue 34,
    # test_issue34_truth.py), with a reason, as a new confirmed version.
    again = desk.get(url(riichi))
    assert (
        "only the director corrects its hands now" in text_of(again)
        and 'id="save"' not in again.content.decode()
    )
    refused = desk.post(
        url(riichi), {"text": "draw\n", "seen": ",".join(str(h.pk) for h in table_hands(table)),
                      "save": "1"},
    )  # fmt: skip
    assert refused.status_code == 403
    assert "Only the director corrects the hands" in text_of(refused)
    assert Hand.objects.count() == 4 and Result.objects.count() == 1


def test_a_sichuan_session_typed_is_the_draft_result(sichuan, staff):
    desk = f.login(staff["desk1"])
    assert "kong open S&lt;E" in desk.get(url(sichuan)).content.decode()  # its own help
    check = desk.post(url(sichuan), {"text": SICHUAN_TEXT, "seen": "", "check": "1"})
    assert check.status_code == 200
    shown = text_of(check)
    # Hand 1: E −10, S +2, W +12, N −4 (tests/support/hands.py).
    assert "-10" in shown and "+12" in shown and "hu W 1 tsumo" in shown

    saved = desk.post(url(sichuan), {"text": SICHUAN_TEXT, "seen": "", "save": "1"})
    assert saved.status_code == 302
    table = sichuan.sessions.get().tables.get()
    assert [h.data for h in table_hands(table)] == SICHUAN_HANDS
    result = Result.objects.get()
    assert scores(result) == {w: (p, 0) for w, p in zip("ESWN", SICHUAN_POINTS, strict=True)}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ron S<W 3/40 r:SN\nron S<W 3/x\n",
         "Line 2, column 11: expected a number, not “x”."),
        ("ron S<W 3/40 r:SN\n\ntsumo Q 3/30\n",
         "Line 3, column 7: expected a seat (E, S, W or N), not “Q”."),
        # Read, but impossible: the arithmetic's refusal, named by its line.
        ("ron S<W 3/40 r:SN\n\nron N<N 2/30\n",
         "Line 3: The discarder cannot win on their own tile."),
        ("ron S<W 3/40 r:SN\nron E<N 1/25\n",
         "Line 2: No hand of 1 han 25 fu wins on a discard (the scoring table is empty)."),
    ],
)  # fmt: skip
def test_a_bad_line_is_named_and_nothing_is_saved(riichi, staff, text, message):
    desk = f.login(staff["desk1"])
    for button in ("check", "save"):
        r = desk.post(url(riichi), {"text": text, "seen": "", button: "1"})
        assert r.status_code == 400
        assert message in text_of(r)
    assert 'data-line="' in r.content.decode()  # the page puts the caret on that line
    assert not Hand.objects.exists() and not Result.objects.exists()


def test_a_bad_sichuan_event_is_named_by_line_and_event(sichuan, staff):
    text = "hu S 2<E; hu S 1<W\n"
    r = f.login(staff["desk1"]).post(url(sichuan), {"text": text, "seen": "", "save": "1"})
    assert r.status_code == 400
    assert "Line 1, event 2: S has already declared hu and is out of the hand." in text_of(r)
    assert not Hand.objects.exists()


def test_hands_from_the_phones_are_shown_and_a_correction_needs_a_reason(riichi, staff):
    table = riichi.sessions.get().tables.get()
    for hand in RIICHI_HANDS[:2]:
        record_hand(table, hand, staff["desk2"])
    seen = ",".join(str(h.pk) for h in table_hands(table))
    desk = f.login(staff["desk1"])
    page = desk.get(url(riichi)).content.decode()
    assert "ron S&lt;W 3/40 r:SN\ndraw t:EN r:N\n</textarea>" in page
    assert f'value="{seen}"' in page

    # Appending needs no reason; the hands kept are not touched.
    appended = "ron S<W 3/40 r:SN\ndraw t:EN r:N\ntsumo E 5 r:E\n"
    r = desk.post(url(riichi), {"text": appended, "seen": seen, "save": "1"})
    assert r.status_code == 302
    assert [(h.number, h.version, h.recorded_by) for h in table_hands(table)] == [
        (1, 1, staff["desk2"]),
        (2, 1, staff["desk2"]),
        (3, 1, staff["desk1"]),
    ]
    seen = ",".join(str(h.pk) for h in table_hands(table))

    # Changing hand 1 without a reason is refused; with one, the old version is kept.
    changed = appended.replace("3/40", "4/30")
    r = desk.post(url(riichi), {"text": changed, "seen": seen, "save": "1"})
    assert r.status_code == 400 and "Give the reason for the correction." in text_of(r)
    r = desk.post(
        url(riichi), {"text": changed, "seen": seen, "save": "1", "reason": "protocol misread"}
    )
    assert r.status_code == 302
    first = Hand.objects.filter(number=1).order_by("version")
    assert [(h.version, h.is_current) for h in first] == [(1, False), (2, True)]
    assert first[0].reason == "protocol misread" and first[0].superseded_by == staff["desk1"]
    assert first[1].data["wins"] == [{"seat": "S", "han": 4, "fu": 30}]
    assert Hand.objects.filter(superseded_at__isnull=True).count() == 3
    # The draft follows the hands: a new version with the new scores.
    latest = Result.objects.order_by("-version").first()
    assert latest.version == 2 and latest.status == "draft"
    assert Result.objects.get(version=1).status == "superseded"

    # A line taken away undoes that hand (kept, superseded).
    seen = ",".join(str(h.pk) for h in table_hands(table))
    shorter = "\n".join(changed.splitlines()[:2])
    r = desk.post(url(riichi), {"text": shorter, "seen": seen, "save": "1", "reason": "not played"})
    assert r.status_code == 302
    assert [h.number for h in table_hands(table)] == [1, 2]
    assert Hand.objects.count() == 4


def test_a_stale_page_does_not_overwrite_a_phones_hand(riichi, staff):
    table = riichi.sessions.get().tables.get()
    record_hand(table, RIICHI_HANDS[0], staff["desk2"])
    desk = f.login(staff["desk1"])
    # The page was loaded before the phone's hand arrived: it saw no hands.
    r = desk.post(url(riichi), {"text": "draw t:EN r:N\n", "seen": "", "save": "1"})
    assert r.status_code == 409
    assert "hands changed since this page was loaded" in text_of(r)
    assert [h.data for h in table_hands(table)] == [RIICHI_HANDS[0]]
    assert not Result.objects.exists()


def test_saving_the_same_hands_again_keeps_the_draft(riichi, staff):
    desk = f.login(staff["desk1"])
    desk.post(url(riichi), {"text": RIICHI_TEXT, "seen": "", "save": "1"})
    table = riichi.sessions.get().tables.get()
    seen = ",".join(str(h.pk) for h in table_hands(table))
    r = desk.post(
        url(riichi), {"text": RIICHI_TEXT.upper(), "seen": seen, "save": "1"}, follow=True
    )
    assert "the hands were already these; the draft result is version 1" in text_of(r)
    assert Result.objects.count() == 1 and Hand.objects.count() == 4


def test_an_empty_sheet_is_refused(riichi, staff):
    r = f.login(staff["desk1"]).post(url(riichi), {"text": "\n  \n", "seen": "", "save": "1"})
    assert r.status_code == 400 and "Type the hands, one a line." in text_of(r)


def test_a_phones_hand_written_otherwise_is_the_same_hand(sichuan, staff):
    """A phone may send a flag as false rather than leave it out: the text the desk shows reads
    back as the same hand, so saving it changes nothing and asks no reason."""
    table = sichuan.sessions.get().tables.get()
    hand = {
        "events": [{"kong": "added", "seat": "S", "from_hand": False}],
        "exhausted": {"E": "not_waiting", "S": {"waiting": 1}, "W": "pig_passive", "N": "pig"},
    }
    record_hand(table, hand, staff["desk2"])
    desk = f.login(staff["desk1"])
    page = desk.get(url(sichuan)).content.decode()
    assert "kong added S; end E:nw S:w1 W:pigp N:pig\n</textarea>" in page
    seen = str(table_hands(table)[0].pk)
    text = "kong added S; end E:nw S:w1 W:pigp N:pig\n"
    r = desk.post(url(sichuan), {"text": text, "seen": seen, "save": "1"})
    assert r.status_code == 302
    assert Hand.objects.get().version == 1 and Hand.objects.get().is_current
    assert Result.objects.get().status == "draft"


def test_a_three_player_sichuan_table_types_its_three_winds(staff):
    """002 §2.6.2: two hu end a hand at three players. S wins 1 fan on E's discard (2 from E),
    W self-draws 0 fans (1 + 1 from E, the only one not yet hu). A line naming N is refused."""
    t = f.tournament(ruleset="sbr-2025", players=3, slug="three")
    f.seat_session(t)
    desk = f.login(staff["desk1"])
    bad = desk.post(url(t), {"text": "hu S 1<N; hu W 0 tsumo\n", "seen": "", "save": "1"})
    assert bad.status_code == 400
    assert "Line 1, event 1: " in text_of(bad) and "is not a seat at this table (E, S, W)" in (
        text_of(bad)
    )
    r = desk.post(url(t), {"text": "hu S 1<E; hu W 0 tsumo\n", "seen": "", "save": "1"})
    assert r.status_code == 302
    assert scores(Result.objects.get()) == {"E": (-4, 0), "S": (2, 0), "W": (2, 0)}


def test_hands_wait_for_the_winds_drawn_at_the_table(staff):
    """Seats are named by the wind each player drew: at a table that draws its winds, the desk
    records the draw (the result page) before any hand."""
    t = f.tournament(players=4, slug="tiles", winds=Tournament.Winds.TABLE)
    f.seat_session(t)
    r = f.login(staff["desk1"]).post(url(t), {"text": RIICHI_TEXT, "seen": "", "save": "1"})
    assert r.status_code == 400
    assert "Record who drew each wind at this table first." in text_of(r)
    assert not Hand.objects.exists() and not Result.objects.exists()
