"""Issue 36: the filled protocols carry every penalty of the table's session, each with its
amount in the rule set's unit and when it counts, and the figures the standings count, in the
game's own words. The PDFs are fetched through the desk's real URL and read back with pypdf;
the counted figures are held equal to the standings feed.

Riichi, EMA 2012:
- 000 §5.6: "При запізненні на 10 хвилин і менше, гравець отримує штраф в 1000 очок за кожну
  хвилину запізнення ... Даний штраф стягується з гравця негайно, що може змінити турнірні
  місця": four minutes late is −4,000 points, before the uma.
- 000 §5.5: misconduct "штрафами в 8000 або 12000 очок", deducted at once: −8,000 points.
Sichuan, SBR 2025:
- 002 §2.8.4 item 5: "если игрок опоздал на срок до 10 минут, он штрафует на 8 игровых очков;
  если он опоздал на срок от 10 до 15 минут, то он штрафует на 16 игровых очков ... Из
  полученных опоздавшим игроком игровых очков (ИО) вычитаются соответствующие штрафы для
  определения турнирных очков (ТО)": −8 GP and −16 GP, before the TP.
- 002 §2.8.2: minor violations "по совокупности" along 0 (warning), −2, −4 …: the third stands
  at −4 GP (0, −2, −2).
- 002 §2.8.2: past the scale "штраф в турнирных очках": a TP penalty after placement.
- 002 §2.7.5: the session's GP "с учётом штрафов" give the TP 4, 3, 2, 1 by rank.
"""

import io
import re

import pytest
from pypdf import PdfReader

from core.tables import fmt
from referee.services import record_penalty, substitute, void_penalty
from scoring.feed import feed
from scoring.services import record_hand
from tests.support import factories as f
from tests.support.hands import SICHUAN_HANDS
from tournament.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF")
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]


def fetch(staff, path) -> list[str]:
    response = f.login(staff["desk1"]).get(path)
    assert response.status_code == 200, path
    assert response["Content-Type"] == "application/pdf"
    return pages(response.content)


def lines(t, session=1) -> dict:
    """The standings feed's lines of `session`, by player key, with each player's tiebreak."""
    out = {}
    for row in feed(t)["standings"]:
        for line in row["sessions"]:
            if line["session"] == session:
                out[row["player"]["key"]] = {**line, "tiebreak": row["tiebreak"]}
    return out


def row(label, values) -> str:
    return " ".join([label, *(fmt(v) for v in values)])


@pytest.fixture
def sichuan():
    """Table 1 plays 2, 0, 10, −12 GP; E was five minutes late, S made three minor violations,
    N took a TP penalty. Table 2 records its hands (tests/support/hands.py: 10, 15, −39, 14);
    its E was twelve minutes late."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=8, slug="chengdu", name="Chengdu Cup")
    session = f.seat_session(t)
    one, two = session.tables.order_by("number")
    p = {player.key: player for player in t.players.all()}
    record_penalty(session, p["p01"], "late", staff["director"], minutes=5)
    for _n in range(3):
        record_penalty(session, p["p02"], "minor", staff["referee"])
    record_penalty(
        session, p["p04"], "other", staff["director"], amount=-1, stage="after", note="scale"
    )
    record_penalty(session, p["p05"], "late", staff["director"], minutes=12)
    f.play(one, [2, 0, 10, -12], staff["desk1"], staff["desk2"])
    for hand in SICHUAN_HANDS:
        record_hand(two, hand, staff["desk1"])
    f.play(two, [10, 15, -39, 14], staff["desk1"], staff["desk2"])
    return t, staff


def test_the_filled_sichuan_protocol_carries_the_gp_penalties_and_places_as_the_standings(
    sichuan,
):
    """002 §2.8.4 item 5: E's 2 GP less the late −8 is −6, behind S's 0 less −4 (002 §2.8.2):
    E third with 2 TP, S second with 3 (002 §2.7.5). The sheet used to show E's 2 GP,
    "penalty 0" and the place 3 with nothing to say why."""
    t, staff = sichuan
    first, second = fetch(staff, "/desk/chengdu/s/1/protocols.pdf?filled=1")
    assert "Final GP 2 0 10 -12" in first
    assert "late arrival · 5 min · -8 GP (before placement)" in first
    for step in ("0", "-2", "-2"):  # 0 (warning), −2, −4 on the scale
        assert f"minor violation · {step} GP (before placement)" in first
    assert first.count("minor violation") == 3
    assert "other · -1 TP (after placement)" in first
    feed_lines = lines(t)
    table = [feed_lines[k] for k in ("p01", "p02", "p03", "p04")]
    assert row("GP after penalties", [x["tiebreak"] for x in table]) in first
    assert row("GP after penalties", [-6, -4, 10, -12]) in first
    assert row("Place", [x["place"] for x in table]) == "Place 3 2 1 4"
    assert row("Place", [x["place"] for x in table]) in first
    assert row("TP", [x["uma"] for x in table]) == "TP 2 3 4 1"
    assert row("TP", [x["uma"] for x in table]) in first
    assert row("TP penalty", [x["penalty"] for x in table]) == "TP penalty 0 0 0 -1"
    assert row("TP penalty", [x["penalty"] for x in table]) in first
    assert row("Result", [x["result"] for x in table]) == "Result 2 3 4 0"
    assert row("Result", [x["result"] for x in table]) in first
    # the hands' protocol: 10 GP less −16 for twelve minutes late is −6, third of four
    assert "late arrival · 12 min · -16 GP (before placement)" in second
    table = [feed_lines[k] for k in ("p05", "p06", "p07", "p08")]
    assert row("GP after penalties", [x["tiebreak"] for x in table]) in second
    assert "GP after penalties -6 15 -39 14 Place 3 1 4 2" in second
    assert row("Result", [x["result"] for x in table]) in second
    for page in (first, second):  # the game's own words: TP and GP, no uma
        assert "Uma" not in page and "uma" not in page


def test_the_filled_riichi_protocol_carries_the_penalties_in_points():
    """000 §5.6: S four minutes late, −4,000 points; 000 §5.5: W's misconduct −8,000. Both
    count before the uma: S 30,100 − 4,000 = 26,100 stays second, W 25,000 − 8,000 = 17,000
    falls behind N's 19,600 to fourth (−30,000 uma, 000 §3.6.1)."""
    staff = f.staff()
    t = f.tournament(players=4, slug="krakow", name="Kraków Riichi Open 2026")
    session = f.seat_session(t)
    p = {player.key: player for player in t.players.all()}
    record_penalty(session, p["p02"], "late", staff["director"], minutes=4)
    record_penalty(session, p["p03"], "misconduct", staff["director"], amount=-8000)
    f.play(session.tables.get(), [45300, 30100, 25000, 19600], staff["desk1"], staff["desk2"])
    (page,) = fetch(staff, "/desk/krakow/s/1/protocols.pdf?filled=1")
    assert "Final score 45,300 30,100 25,000 19,600 Chombo 0 0 0 0" in page
    assert "late arrival · 4 min · -4,000 points (before placement)" in page
    assert "misconduct · -8,000 points (before placement)" in page
    table = [lines(t)[k] for k in ("p01", "p02", "p03", "p04")]
    expected = (
        row("Place", [x["place"] for x in table]),
        row("Uma", [x["uma"] for x in table]),
        row("Penalty", [x["penalty"] for x in table]),
        row("Result", [x["result"] for x in table]),
    )
    assert expected == (
        "Place 1 2 4 3",
        "Uma 30,000 10,000 -30,000 -10,000",
        "Penalty 0 -4,000 -8,000 0",
        "Result 45,300 6,100 -43,000 -20,400",
    )
    assert " ".join(expected) in page
    assert "TP" not in page and "GP" not in page


def test_a_void_penalty_is_left_out_and_the_blank_protocol_has_a_row_to_write_them_in(
    sichuan,
):
    """A void penalty counts nowhere (the standings leave it out): the protocol too. The blank
    protocol has a penalties row for each seat, to be written in at the table."""
    t, staff = sichuan
    session = t.sessions.get(number=1)
    late = session.penalties.get(player__key="p01")
    void_penalty(late, staff["director"], "arrived on time after all")
    first = fetch(staff, "/desk/chengdu/s/1/protocols.pdf?filled=1")[0]
    assert "late arrival" not in first
    assert "GP after penalties 2 -4 10 -12 Place 2 3 1 4" in first
    blank = fetch(staff, "/desk/chengdu/s/1/protocols.pdf")[0]
    assert "Final GP Penalties Signatures" in blank
    assert "GP (before placement)" not in blank and "TP" not in blank


def test_the_replaced_players_line_in_the_game_s_words():
    """002 §2.8.4 item 5: more than 15 minutes late, "фиксированный результат в 0 турнирных очков
    (ТО) и 0 игровых очков (ИО)"; a substitute plays. The protocol's note gives the replaced
    player's line in TP and GP, and the late record that made it."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=4, slug="sbr", name="Chengdu Cup")
    sub = Player.objects.create(tournament=t, key="s01", name="Substitute", substitute=True)
    session = f.seat_session(t)
    late = t.players.get(key="p03")
    record_penalty(session, late, "late", staff["director"], minutes=20)
    substitute(session, late, sub, "start", staff["director"])
    f.play(session.tables.get(), [2, 0, 10, -12], staff["desk1"], staff["desk2"])
    (page,) = fetch(staff, "/desk/sbr/s/1/protocols.pdf?filled=1")
    assert "substitute for Player 03" in page
    assert (
        "Player 03 (replaced by Substitute): GP after penalties 0 · TP 0 · TP penalty 0 · "
        "Result 0 · late arrival · 20 min · fixed result for the session (a substitute plays)"
    ) in page
