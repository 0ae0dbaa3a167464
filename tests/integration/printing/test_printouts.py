"""The printed paper (printing.pdf) opened as PDF text with pypdf: one protocol page per
table, Cyrillic and Polish names present as text, totals equal to the standings feed.

000 §3.6.1 (EMA): uma +30,000 / +10,000 / −10,000 / −30,000 — the printed totals below.
"""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from pypdf import PdfReader

from core.tables import fmt
from printing.pdf.appeals import appeals_pdf
from printing.pdf.protocols import protocols_pdf
from printing.pdf.seating import seating_pdf
from printing.pdf.standings import standings_pdf
from referee.appeals import decide_appeal, file_appeal
from referee.services import record_penalty, void_penalty
from scoring.feed import feed
from tests.support import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

NAMES = ["Юлія Ґудзь", "Łukasz Żółć", "Олександр Щербаков", "Anna Kowalska"]


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF")
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def krakow():
    staff = f.staff()
    t = f.tournament(players=12, slug="krakow", name="Kraków Riichi Open 2026")
    for player, name in zip(t.players.order_by("key"), NAMES, strict=False):
        player.name = name
        player.ema_id = f"0400{player.pk:04d}"
        player.save()
    session = f.seat_session(t)
    tables = list(session.tables.order_by("number"))
    f.play(tables[0], [45300, 30100, 25000, 19600], staff["desk1"], staff["desk2"])
    f.play(tables[1], [32000, 31000, 29000, 28000], staff["desk1"], staff["desk2"])
    return t, session, staff


def test_one_protocol_page_per_table_with_seats_and_names_as_text(krakow):
    t, session, _staff = krakow
    text = pages(protocols_pdf(session))
    assert len(text) == 3
    first = flat(text[0])
    assert "Kraków Riichi Open 2026 — session 1 — table 1" in first
    for name in NAMES:
        assert name in first
    assert f"EMA 0400{t.players.get(key='p01').pk:04d}" in first
    assert "East" in first and "North" in first and "Riichi" in first and "Honba" in first
    assert "16" in first  # the sixteenth hand row
    assert "Finish the current hand and play one more." in first  # 000 §5.8 in small print
    assert "Player 05" in flat(text[1]) and "Player 09" in flat(text[2])
    assert "45,300" not in first  # blank for writing on


def test_filled_protocols_carry_the_confirmed_scores_and_chombo(krakow):
    _t, session, _staff = krakow
    text = [flat(p) for p in pages(protocols_pdf(session, filled=True))]
    for score in ("45,300", "30,100", "25,000", "19,600"):
        assert score in text[0]
    assert "32,000" in text[1]
    assert "Final score" in text[2] and "28,000" not in text[2]  # table 3 has no result


def test_sichuan_protocols_have_three_seats_at_a_three_player_table():
    t = f.tournament("sbr-2025", players=7, slug="sbr")
    session = f.seat_session(t, groups=[["p01", "p02", "p03", "p04"], ["p05", "p06", "p07"]])
    text = [flat(p) for p in pages(protocols_pdf(session))]
    assert len(text) == 2
    assert "Final GP" in text[1] and "Player 07" in text[1] and "North" not in text[1]
    assert "play out the hand in progress and record it" in text[1]  # 002 §2.4.4


def test_seating_charts_by_table_and_by_name(krakow):
    _t, session, _staff = krakow
    text = [flat(p) for p in pages(seating_pdf(session))]
    assert len(text) == 2
    assert "Session 1 — seating" in text[0]
    assert "Юлія Ґудзь" in text[0] and "Player 12" in text[0]
    assert "find your table" in text[1]
    assert re.search(r"Łukasz Żółć 1 South", text[1])
    assert re.search(r"Player 07 2 West", text[1])


def test_standings_totals_equal_the_feed(krakow):
    t, _session, _staff = krakow
    text = flat(" ".join(pages(standings_pdf(t))))
    assert "Standings after 1 of 4 sessions" in text
    rows = feed(t)["standings"]
    assert rows[0]["player"]["name"] == "Юлія Ґудзь" and rows[0]["total"] == 45300
    for row in rows:
        expected = fmt(row["total"])
        assert re.search(rf"{re.escape(row['player']['name'])} .*?{re.escape(expected)}", text)
    # 45,300 − 30,000 + 30,000 = 45,300 for the winner; 19,600 − 30,000 − 30,000 = −40,400
    assert "45,300" in text and "-40,400" in text
    assert "Page 1 of 1" in text


def test_team_standings_are_printed_when_there_are_teams():
    staff = f.staff()
    t = f.tournament(players=8, slug="teams", scope="team")
    for player in t.players.all():
        player.team = "Smoki" if player.key in ("p01", "p02", "p05", "p06") else "Żubry"
        player.save()
    session = f.seat_session(t)
    for table in session.tables.all():
        f.play(table, [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    text = flat(" ".join(pages(standings_pdf(t))))
    assert "Teams" in text and "Smoki" in text and "Żubry" in text


def test_the_appeals_log_lists_appeals_and_penalties(krakow):
    t, session, staff = krakow
    player = t.players.get(key="p02")
    penalty = record_penalty(session, player, "late", staff["director"], minutes=4)
    file_appeal(session, player, "Late arrival penalty", staff["director"], text="The clock ran")
    text = flat(" ".join(pages(appeals_pdf(t))))
    assert "Late arrival penalty" in text and "The clock ran" in text
    assert "Łukasz Żółć" in text and "4 min" in text and "-4,000" in text
    assert penalty.pk


def test_a_void_penalty_keeps_its_amount_in_the_appeals_log(krakow):
    """Issue 37: a voided penalty's amount disappeared from the appeals PDF. 000 §5.6: late
    arrival costs 1,000 points a minute; void, it is listed with what it would be worth."""
    t, session, staff = krakow
    player = t.players.get(key="p02")
    penalty = record_penalty(session, player, "late", staff["director"], minutes=3)
    void_penalty(penalty, staff["director"], "clock was wrong")
    text = flat(" ".join(pages(appeals_pdf(t))))
    assert "late arrival · 3 min · -3,000 points (before placement), not counted" in text
    assert "void: clock was wrong" in text


def test_a_long_appeal_is_printed_whole_after_the_log(krakow):
    """The log shows the start of a long appeal and of its decision; "Appeals in full" prints
    each whole, its own line breaks kept as paragraphs."""
    t, session, staff = krakow
    player = t.players.get(key="p02")
    file_appeal(session, player, "Short", staff["director"], text="Only a line")
    words = " ".join(f"w{n}" for n in range(3000))
    text = "First paragraph.\n" + words + "\nLast paragraph."
    appeal = file_appeal(session, player, "Long one", staff["director"], text=text)
    decide_appeal(appeal, staff["director"], "rejected", "head referee", "Rejected: " + words)
    printed = flat(" ".join(pages(appeals_pdf(t))))
    log, full = printed.rsplit("Appeals in full", 1)
    assert "Only a line" in log and "Only a line" not in full
    assert "Printed in full under “Appeals in full”, no. 2." in log
    assert "w2999" not in log
    assert "2. Long one" in full and "First paragraph." in full and "Last paragraph." in full
    assert full.count("w2999") == 2  # the appeal and its decision, each whole
    assert full.split("Decision", 1)[1].count(" w1500 ") == 1


def test_print_command_writes_each_kind(krakow, tmp_path):
    for what in ("protocols", "seating", "standings", "appeals"):
        out = tmp_path / f"{what}.pdf"
        call_command("print_tournament", "krakow", "--what", what, "--session", "1", "-o", out)
        assert out.read_bytes().startswith(b"%PDF")
    out = tmp_path / "filled.pdf"
    call_command("print_tournament", "krakow", "--what", "protocols", "--session", "1",
                 "--filled", "-o", out)  # fmt: skip
    assert len(pages(out.read_bytes())) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "--what", "standings"], "No tournament with the slug nope."),
        (["krakow", "--what", "protocols"], "--session: say which session to print."),
        (["krakow", "--what", "seating", "--session", "9"], "--session: krakow has no session 9."),
    ],
)
def test_print_command_refuses_bad_arguments(krakow, tmp_path, args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("print_tournament", *args, "-o", tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_the_desk_downloads_pdfs_through_its_urls(krakow):
    _t, _session, staff = krakow
    desk = f.login(staff["desk1"])
    for path in (
        "/desk/krakow/s/1/protocols.pdf",
        "/desk/krakow/s/1/protocols.pdf?filled=1",
        "/desk/krakow/s/1/seating.pdf",
        "/desk/krakow/standings.pdf",
        "/desk/krakow/appeals.pdf",
    ):
        response = desk.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")
    for path in ("/desk/krakow/workbook.xlsx", "/desk/krakow/ema-results.xlsx"):
        response = desk.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"].endswith("spreadsheetml.sheet")
        assert response["Content-Disposition"].startswith("attachment;")
        assert response.content.startswith(b"PK")  # a zip, as every .xlsx
    assert Client().get("/desk/krakow/standings.pdf").status_code == 302  # login first
