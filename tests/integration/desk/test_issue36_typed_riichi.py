"""Issue 36 at the desk's typed-hands page (mahjong.hands.notation, mahjong.hands.riichi):
a paper protocol with a yakuman someone was responsible for (pao) is typed, checked and saved,
and gives the scores 000 §3.3.6 pays; a Furiten protocol with a hand its rules forbid (two
winners on one discard, a nagashi mangan) is refused saying why, and nothing is saved. Through
the real URLs and the real database."""

import html
import re

import pytest

from scoring.models import Hand, Result
from scoring.selectors import table_hands
from tests.support import factories as f

pytestmark = pytest.mark.django_db

# 1. E deals; S wins 3 han 40 fu on W's discard, S and N in riichi: S +6,200, W −5,200,
#    N −1,000. 2. S deals; N self-draws Big Three Dragons, E gave the third dragon pung:
#    000 §3.3.6, E pays the whole 32,000 (S and W nothing).
PAO_TEXT = "ron S<W 3/40 r:SN\ntsumo N Y pao:E\n"
PAO_SCORES = {"E": -2000, "S": 36200, "W": 24800, "N": 61000}


@pytest.fixture
def staff():
    return f.staff()


def seated(ruleset, slug):
    t = f.tournament(ruleset=ruleset, players=4, slug=slug)
    f.seat_session(t)
    return t


def url(t, action="hands/"):
    return f"/desk/{t.slug}/s/1/t/1/{action}"


def text_of(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_a_pao_hand_typed_checked_and_saved(staff):
    t = seated("ema-2012", "pao-open")
    desk = f.login(staff["desk1"])
    assert "tsumo N Y pao:E" in desk.get(url(t)).content.decode()  # the page's help
    check = desk.post(url(t), {"text": PAO_TEXT, "seen": "", "check": "1"})
    assert check.status_code == 200
    shown = text_of(check)
    assert "tsumo N Y pao:E" in shown  # the line as read
    assert "-32,000" in shown and "+32,000" in shown
    for score in PAO_SCORES.values():
        assert f"{score:,}" in shown
    saved = desk.post(url(t), {"text": PAO_TEXT, "seen": "", "save": "1"})
    assert saved.status_code == 302
    table = t.sessions.get().tables.get()
    assert table_hands(table)[1].data == {
        "result": "tsumo",
        "wins": [{"seat": "N", "yakuman": 1, "pao": "E"}],
        "riichi": [],
    }
    result = Result.objects.get()
    assert {s.wind: s.score for s in result.scores.all()} == PAO_SCORES
    # the page shows the saved hands as the text it edits, pao and all
    assert "ron S&lt;W 3/40 r:SN\ntsumo N Y pao:E\n</textarea>" in desk.get(url(t)).content.decode()


@pytest.mark.parametrize(
    ("ruleset", "text", "message"),
    [
        ("furiten-club", "ron S<W 3/40\nron S,E<N 3/40 2/30\n",
         "Line 2: Only one player wins on a discard under these rules: the first in turn after "
         "the discarder, E, takes it."),
        ("furiten-club", "ron E,S,W<N 1/30 1/30 1/30\n",
         "Line 1: Three players winning on one discard is a redeal under these rules: record an "
         "abortive draw."),
        ("furiten-club", "draw t:E\nnagashi W t:E\n",
         "Line 2: These rules have no nagashi mangan: record the exhaustive draw."),
        ("ema-2012", "ron S<N 5 pao:W\n", "Line 1: Responsibility (pao) is only for a yakuman."),
        ("ema-2012", "tsumo S Y pao:S\n",
         "Line 1: The winner cannot be responsible (pao) for their own hand."),
        ("ema-2012", "tsumo S 3/40 kan:N\n",
         "Line 1: Under these rules a win on the replacement tile after an open kan is a "
         "self-draw that every other player pays: leave out kan_from."),
        ("furiten-club", "tsumo S 3/40 kan:S\n",
         "Line 1: The winner cannot have given the tile of their own kan."),
    ],
)  # fmt: skip
def test_a_hand_the_rules_forbid_is_refused_saying_why(staff, ruleset, text, message):
    t = seated(ruleset, "forbid-open")
    desk = f.login(staff["desk1"])
    for button in ("check", "save"):
        r = desk.post(url(t), {"text": text, "seen": "", button: "1"})
        assert r.status_code == 400
        assert message in text_of(r)
    assert not Hand.objects.exists() and not Result.objects.exists()


def test_the_rules_page_shows_and_sets_the_fields_of_issue_36(staff):
    """The rule-set fields where EMA and Furiten differ, shown where every rule field is: Furiten
    one winner per discard (001 §10.4), three winners a redeal (001 §5.5), no nagashi mangan
    (001 appendix В), pao for Big Three Dragons, Big Four Winds and Four Kongs (001 §8.2)."""
    t = f.tournament(ruleset="furiten-club", players=4, slug="rules-open")
    director = f.login(staff["director"])
    page = director.get(f"/desk/{t.slug}/rules/")
    body = html.unescape(page.content.decode())
    for label in (
        "Winners on one discard",
        "Three players winning on one discard",
        "Nagashi mangan",
        "Responsibility (pao) for a yakuman",
    ):
        assert label in body
    form = page.context["form"]
    assert form["rule_ron_winners"].initial == "one"
    assert form["rule_triple_ron"].initial == "redeal"
    assert form["rule_nagashi"].initial is False
    assert form["rule_pao_hands"].initial == "dragons_winds_kongs"
    assert "one: the first in turn after the discarder (Furiten 001 §10.4)" in body
    data = {"ruleset": "furiten-club"}
    raw = page.content.decode()
    for name, value in re.findall(r'name="(rule_[a-z0-9_]+)"[^>]*value="([^"]*)"', raw):
        data[name] = html.unescape(value)
    for name in re.findall(r'type="checkbox" name="(rule_[a-z0-9_]+)"[^>]*checked', raw):
        data[name] = "on"  # as a browser sends a ticked box
    data |= {"rule_ron_winners": "several", "rule_nagashi": "on"}
    response = director.post(f"/desk/{t.slug}/rules/", data)
    assert response.status_code == 302, response.context["form"].errors
    t.refresh_from_db()
    assert t.rules == {"ron_winners": "several", "nagashi": True}
    assert t.rule_set().ron_winners == "several"


def test_a_furiten_win_on_the_kan_replacement_tile_typed_and_saved(staff):
    """001 §2.18: the dealer E wins 3 han 40 fu on the replacement tile of W's open kan
    tile: W pays 7,700 as for a ron; the check shows it and the draft result holds it."""
    t = seated("furiten-club", "kan-open")
    desk = f.login(staff["desk1"])
    check = desk.post(url(t), {"text": "tsumo E 3/40 kan:W\n", "seen": "", "check": "1"})
    assert check.status_code == 200
    assert "tsumo E 3/40 kan:W" in text_of(check) and "-7,700" in text_of(check)
    saved = desk.post(url(t), {"text": "tsumo E 3/40 kan:W\n", "seen": "", "save": "1"})
    assert saved.status_code == 302
    assert table_hands(t.sessions.get().tables.get())[0].data["kan_from"] == "W"
    result = Result.objects.get()
    assert {s.wind: s.score for s in result.scores.all()} == {
        "E": 37700,
        "S": 30000,
        "W": 22300,
        "N": 30000,
    }
