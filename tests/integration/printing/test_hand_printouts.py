"""Issue 24, "paper still matters": the blank protocol carries the table's card (the QR code of
the table page's link at the desk's address, the short code, how to reach the page without the
QR), and the filled protocol prints every recorded hand with its running totals, over as many
pages as a long game needs, with the final scores and the signatures.

The PDFs are fetched through the desk's real URL and read back with pypdf. The hands and their
payments are tests/support/hands.py's, each worked out there from docs/rules.md §5:
- §5.1 (EMA 2012): S wins 3 han 40 fu on W's discard, 5,200 and N's and S's sticks: S +6,200,
  W −5,200, N −1,000; a draw with E and N tenpai: 1,500 each from S and W, N's riichi stick on
  the table; E self-draws a mangan with one counter: +9,300; N's chombo: 4,000 to each.
- §5.2 (SBR 2025): W's concealed kong 2 from each; S 2 fans on E's discard; W self-draws 1 fan;
  N 0 fans on E's discard: E −10, S +2, W +12, N −4. The wall runs out: E waits on 1 fan, N on 0,
  S not waiting, W an active pig: E +20, S +13, W −51, N +18.
"""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table

from core.addresses import lan_address
from core.tables import fmt
from printing.pdf.card import TableQr
from printing.pdf.protocols import protocol_story, protocols_pdf
from scoring.hand_text import hand_text
from scoring.services import record_hand
from seating.keys import table_code, table_path
from tests.integration.printing.test_printouts_fit import LONG, tables_in
from tests.support import factories as f
from tests.support.hands import EMA_SCORES, README_RIICHI, RIICHI_HANDS, SICHUAN_HANDS

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

HALL = "192.168.1.20:8000"  # the desk's address as the phones in the hall reach it


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF")
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]


def fetch(client, path) -> list[str]:
    response = client.get(path, HTTP_HOST=HALL)
    assert response.status_code == 200, path
    assert response["Content-Type"] == "application/pdf"
    return pages(response.content)


def qr_links(flowables) -> list[str]:
    """The link of every QR code among the flowables (tables' cells included)."""
    found = []
    for item in flowables:
        if isinstance(item, TableQr):
            found.append(item.value)
        elif isinstance(item, Table):
            for row in item._cellvalues:
                for cell in row:
                    found += qr_links(cell if isinstance(cell, list | tuple) else [cell])
    return found


def encoded(link: str) -> list[list[bool]]:
    """The QR code of `link` as reportlab's QR widget encodes it (level M): rows of modules."""
    widget = QrCodeWidget(link, barLevel="M")
    widget.qr.make()
    return [[bool(m) for m in row] for row in widget.qr.modules]


def drawn_qr(pdf: bytes, page: int, modules: int) -> list[list[bool]]:
    """The QR code as the page draws it: the filled path of square modules read back from the
    content stream (x y w h re ... f), put on a grid of `modules` a side."""
    stream = PdfReader(io.BytesIO(pdf)).pages[page].get_contents().get_data().decode("latin-1")
    path = re.search(r"\bn ((?:[\d.]+ [\d.]+ [\d.]+ [\d.]+ re\s*)+)f\b", stream)
    assert path, "no QR code drawn"
    rects = [
        tuple(map(float, r)) for r in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re", path[1])
    ]
    box = min(h for _x, _y, _w, h in rects)
    border = TableQr.BORDER
    grid = [[False] * modules for _r in range(modules)]
    top = max(y for _x, y, _w, _h in rects)
    for x, y, w, _h in rects:
        row = round((top - y) / box)
        first = round(x / box) - border
        for c in range(first, first + round(w / box)):
            grid[row][c] = True
    return grid


@pytest.fixture
def riichi():
    """Two riichi tables: table 1 recorded the four hands of tests/support/hands.py."""
    staff = f.staff()
    t = f.tournament(players=8, slug="krakow", name="Kraków Riichi Open 2026")
    session = f.seat_session(t)
    first, second = session.tables.order_by("number")
    for hand in RIICHI_HANDS:
        record_hand(first, hand, staff["desk1"])
    return session, first, second, staff


@pytest.fixture
def sichuan():
    """A Sichuan session: table 1 of four players, table 2 of three; both recorded hands."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=7, slug="chengdu", name="Chengdu Cup")
    session = f.seat_session(t, groups=[["p01", "p02", "p03", "p04"], ["p05", "p06", "p07"]])
    four, three = session.tables.order_by("number")
    for hand in SICHUAN_HANDS:
        record_hand(four, hand, staff["desk1"])
    # Three players (docs/rules.md §5.2): S open kong on E's discard (2 from E); W wins 2 fans on
    # E's discard (4 from E); S self-draws 3 fans (8 + 1 from E, the only one not yet hu):
    # E −15, S +11, W +4. Then the wall runs out: E waits on 2 fans, S is not waiting, W is
    # an active pig: S and W pay E 4 each, W pays the pig's 48, 24 to each: E +32, S +20, W −52.
    for hand in (
        {"events": [
            {"kong": "open", "seat": "S", "from": "E"},
            {"hu": [{"seat": "W", "fans": 2}], "from": "E"},
            {"hu": [{"seat": "S", "fans": 3}], "self_draw": True},
        ]},
        {"events": [], "exhausted": {"E": {"waiting": 2}, "S": "not_waiting", "W": "pig"}},
    ):  # fmt: skip
        record_hand(three, hand, staff["desk1"])
    return session, four, three, staff


def test_the_blank_protocol_carries_each_tables_short_code_and_the_desks_address(riichi):
    session, first, second, staff = riichi
    desk = f.login(staff["desk1"])
    text = fetch(desk, "/desk/krakow/s/1/protocols.pdf")
    assert len(text) == 2
    for page, table in zip(text, (first, second), strict=True):
        assert f"Table code {table_code(table)}" in page
        assert (
            "Record this table's hands on a phone: scan the QR code, or open "
            f"http://{HALL}/h/ and type the table code." in page
        )
        assert "Ron from" not in page  # blank: the hands are written at the table
    assert table_code(first) != table_code(second)
    # the QR code as drawn on each page reads as the table page's link at the hall's address
    pdf = desk.get("/desk/krakow/s/1/protocols.pdf", HTTP_HOST=HALL).content
    for index, table in enumerate((first, second)):
        expected = encoded(f"http://{HALL}{table_path(table)}")
        assert drawn_qr(pdf, index, len(expected)) == expected
    assert encoded(f"http://{HALL}{table_path(first)}") != encoded(
        f"http://{HALL}{table_path(second)}"
    )


def test_a_protocol_printed_on_the_laptop_itself_names_its_lan_address(riichi):
    """A director browsing http://localhost:8000 on the desk laptop: no phone opens that, so
    the card names the address `serve` announces for the hall, on the same port."""
    _session, first, _second, staff = riichi
    response = f.login(staff["desk1"]).get(
        "/desk/krakow/s/1/protocols.pdf", HTTP_HOST="localhost:8000"
    )
    page = pages(response.content)[0]
    assert f"open http://{lan_address()}:8000/h/ and type the table code" in page
    assert "localhost" not in page
    assert f"Table code {table_code(first)}" in page


def test_the_qr_code_is_the_table_pages_link_at_the_desks_address(riichi):
    session, first, second, _staff = riichi
    story = protocol_story(session, address=f"http://{HALL}/")
    assert qr_links(story) == [f"http://{HALL}{table_path(t)}" for t in (first, second)]
    assert table_path(first).startswith("/h/krakow/1/1/")
    # a printout from the command line without an address: the short code, no QR code
    story = protocol_story(session)
    assert qr_links(story) == []
    text = pages(protocols_pdf(session))
    assert f"Table code {table_code(first)}" in text[0]
    assert "open the desk's address followed by /h/ and type the table code" in text[0]


def test_the_filled_protocol_prints_every_riichi_hand_with_running_totals(riichi):
    session, _first, second, staff = riichi
    text = fetch(f.login(staff["desk1"]), "/desk/krakow/s/1/protocols.pdf?filled=1")
    assert len(text) == 2
    page = text[0]
    # hand, dealer (round), what happened, E S W N as change and running total, honba, riichi;
    # a seat the hand did not touch has no change
    rows = [
        "1 E (E1) Ron from W: S 3 han 40 fu 30,000 +6,200 36,200 -5,200 24,800 -1,000 29,000 S, N",
        "2 S (E2) Exhaustive draw, tenpai: E, N +1,500 31,500 -1,500 34,700 -1,500 23,300 "
        "+500 29,500 N",
        "3 W (E3) Tsumo: E 5 han +9,300 40,800 -2,100 32,600 -4,100 19,200 -2,100 27,400 1 E",
        "4 N (E4) Chombo: N +4,000 44,800 +4,000 36,600 +4,000 23,200 -12,000 15,400",
    ]
    for row in rows:
        assert row in page
    assert page.index(rows[0]) < page.index(rows[1]) < page.index(rows[2]) < page.index(rows[3])
    final = " ".join(f"{s:,}" for s in EMA_SCORES)
    assert f"Final score {final} Chombo 0 0 0 1" in page
    assert "Signatures East: South: West: North: Referee:" in page
    assert "Table code" not in page  # the archive's copy: the link grants nothing any more
    # a table that recorded no hands: the grid as before, to write on
    assert "Ron from" not in text[1] and "16 Final score" in text[1]
    assert table_code(second) not in text[1]


def test_a_confirmed_table_prints_its_hands_and_the_lines_the_standings_count(riichi):
    """000 §3.6.1: uma +30,000 / +10,000 / −10,000 / −30,000 by place."""
    session, first, _second, staff = riichi
    f.play(first, EMA_SCORES, staff["desk1"], staff["desk2"], chombo={"N": 1})
    page = pages(protocols_pdf(session, filled=True))[0]
    assert "Tsumo: E 5 han" in page
    assert "Final score 44,800 36,600 23,200 15,400 Chombo 0 0 0 1" in page
    assert "Place 1 2 3 4" in page


def test_sichuan_hands_in_words_with_three_and_four_seats(sichuan):
    session, _four, _three, staff = sichuan
    text = fetch(f.login(staff["desk1"]), "/desk/chengdu/s/1/protocols.pdf?filled=1")
    assert len(text) == 2
    four, three = text
    assert (
        "1 E W concealed kong; Hu from E: S 2 fans; Self-drawn hu: W 1 fan; Hu from E: N 0 fans "
        "-10 -10 +2 2 +12 12 -4 -4"
    ) in four
    assert (
        "2 S Wall exhausted: E waiting (1 fan), S not waiting, W active pig, N waiting (0 fans) "
        "+20 10 +13 15 -51 -39 +18 14"
    ) in four
    assert "Final GP 10 15 -39 14" in four
    assert "Player 04" in four and "North:" in four
    assert (
        "1 E S open kong from E; Hu from E: W 2 fans; Self-drawn hu: S 3 fans -15 -15 +11 11 +4 4"
    ) in three
    assert (
        "2 W Wall exhausted: E waiting (2 fans), S not waiting, W active pig +32 17 +20 31 -52 -48"
    ) in three
    assert "Final GP 17 31 -48" in three
    assert "North" not in three and "Signatures East: South: West: Referee:" in three


def test_a_long_game_splits_across_pages_with_the_totals_on_the_last(riichi):
    """200 hands: an exhaustive draw with only the dealer E tenpai keeps E dealing, each
    noten player paying 1,000 (docs/rules.md §5.1), the counters growing by one a hand."""
    session, _first, second, staff = riichi
    for _n in range(200):
        record_hand(second, {"result": "draw", "tenpai": ["E"], "riichi": []}, staff["desk1"])
    text = pages(protocols_pdf(session, filled=True))
    table2 = text[1:]
    assert len(table2) >= 5
    assert "table 2 (continued)" not in table2[0]
    for page in table2[1:]:
        assert "Kraków Riichi Open 2026 — session 1 — table 2 (continued)" in page
        assert "Hand Dealer Result East Player 05" in page  # the players over every page
    joined = " ".join(table2)
    for n in range(1, 201):
        expected = (
            f"{n} E (E1) Exhaustive draw, tenpai: E +3,000 {30000 + 3000 * n:,} -1,000 "
            f"{30000 - 1000 * n:,} -1,000"
        )
        assert expected in joined, n
    assert "+3,000 630,000 -1,000 -170,000 -1,000 -170,000 -1,000 -170,000 199" in table2[-1]
    assert "Final score 630,000 -170,000 -170,000 -170,000" in table2[-1]
    assert all("Final score" not in page for page in table2[:-1])
    assert joined.count("Signatures") == 1 and "Signatures" in table2[-1]
    # the closing lines keep some hands with them
    assert re.search(r"\b198 E \(E1\)", table2[-1])


def test_the_words_of_every_kind_of_hand():
    """The format's examples (docs/formats.md, "Hands") in words, riichi and
    Sichuan (every event and every state at an exhausted wall)."""
    riichi = [json.loads(line) for line in README_RIICHI.strip().splitlines()]
    assert [hand_text(h) for h in riichi] == [
        "Ron from W: S 3 han 40 fu",
        "Ron from N: E 2 han 30 fu, S yakuman",
        "Tsumo: E 5 han",
        "Exhaustive draw, tenpai: E, N",
        "Abortive draw",
        "Chombo: N",
        "Nagashi mangan: W; tenpai: W, S",
    ]
    assert hand_text({"result": "draw", "tenpai": [], "riichi": []}) == (
        "Exhaustive draw, all noten"
    )
    assert hand_text({"result": "tsumo", "wins": [{"seat": "W", "yakuman": 2}], "riichi": []}) == (
        "Tsumo: W double yakuman"
    )
    sichuan = {
        "events": [
            {"kong": "open", "seat": "S", "from": "E"},
            {"kong": "concealed", "seat": "W"},
            {"kong": "added", "seat": "N"},
            {"kong": "added", "seat": "N", "from_hand": True},
            {"hu": [{"seat": "S", "fans": 2}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 1}, {"seat": "N", "fans": 0}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 3}], "self_draw": True},
            {"hu": [{"seat": "S", "fans": 1}], "from": "N", "robbing_kong": True},
            {"hu": [{"seat": "S", "fans": 1}], "from": "W", "after_kong": True},
            {"false_hu": "N", "waiting": True},
            {"false_hu": "E", "waiting": False},
        ],
        "exhausted": {"E": {"waiting": 2}, "W": "not_waiting", "N": "pig", "S": "pig_passive"},
    }
    assert hand_text(sichuan).split("; ") == [
        "S open kong from E",
        "W concealed kong",
        "N added kong",
        "N added kong, tile from the hand",
        "Hu from E: S 2 fans",
        "Hu from E: W 1 fan, N 0 fans",
        "Self-drawn hu: W 3 fans",
        "Hu robbing N's kong: S 1 fan",
        "Hu on W's discard after a kong: S 1 fan",
        "False hu: N (waiting)",
        "False hu: E (not waiting)",
        "Wall exhausted: E waiting (2 fans), S passive pig, W not waiting, N active pig",
    ]


def test_the_print_command_puts_the_address_in_the_qr_code(riichi, tmp_path):
    session, first, _second, _staff = riichi
    out = tmp_path / "protocols.pdf"
    call_command("print_tournament", "krakow", "--what", "protocols", "--session", "1",
                 "--address", "http://desk.local:8000", "-o", out)  # fmt: skip
    text = pages(out.read_bytes())
    assert "open http://desk.local:8000/h/ and type the table code" in text[0]
    assert f"Table code {table_code(first)}" in text[0]


def too_wide(grid: Table) -> list[str]:
    """Every piece of a cell wider than the cell less its padding: a string measured, a
    paragraph that had to cut a word. Issue 23's measure, reading also the paragraphs that
    reportlab keeps as a cell's list once it has measured a row of free height."""
    grid.wrap(A4[1], 10**6)
    found = []
    for r, row in enumerate(grid._cellvalues):
        for c, value in enumerate(row):
            span = (getattr(grid, "_spanRanges", None) or {}).get((c, r), (c, r, c, r))
            if span is None:
                continue  # under another cell's span
            style = grid._cellStyles[r][c]
            width = sum(grid._colWidths[span[0] : span[2] + 1])
            width -= style.leftPadding + style.rightPadding
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str):
                    used = stringWidth(item, style.fontname, style.fontsize)
                    if used > width + 0.01:
                        found.append(f"{item!r}: {used:.1f} pt in {width:.1f}")
                elif isinstance(item, Paragraph):
                    item.wrap(width, 10**6)
                    if item._splitLongWordCount:
                        found.append(f"{item.getPlainText()!r}: a word cut to fit {width:.1f}")
    return found


def texts(grid: Table) -> str:
    cells = [v for row in grid._cellvalues for value in row
             for v in (value if isinstance(value, list | tuple) else [value])]  # fmt: skip
    return " ".join(v.getPlainText() if isinstance(v, Paragraph) else str(v) for v in cells)


@pytest.mark.parametrize("language", ["en", "uk", "ru", "pl"])
def test_the_hands_and_the_card_fit_their_cells_in_every_language(language):
    """Issue 23's measure (every label and figure inside its cell) on the hands' grid and the
    table's card, with long names and a dealer's yakuman's six-figure totals."""
    staff = f.staff()
    t = f.tournament(players=4, slug=f"fit-{language}", language=language)
    for player, name in zip(t.players.order_by("key"), LONG, strict=False):
        player.name = name
        player.save()
    session = f.seat_session(t)
    table = session.tables.get()
    for line in README_RIICHI.strip().splitlines():
        record_hand(table, json.loads(line), staff["desk1"])
    with t.printing():
        filled = protocol_story(session, filled=True)
        blank = protocol_story(session, address=f"http://{HALL}")
    grids = list(tables_in(filled + blank))
    assert [found for grid in grids for found in too_wide(grid)] == []
    seen = " ".join(texts(grid) for grid in grids)
    with t.printing():
        assert hand_text(json.loads(README_RIICHI.split("\n")[2])) in seen
        assert f"+{fmt(48000)}" in seen  # the dealer's yakuman, hand 2
    assert table_code(table) in seen and LONG[0] in seen


def test_the_filled_protocols_read_the_hands_in_the_same_queries_for_any_number_of_tables():
    """current_hands: one query for the whole tournament, not one per table."""
    staff = f.staff()
    counts = []
    for players in (4, 16):
        t = f.tournament(players=players, slug=f"q{players}")
        session = f.seat_session(t)
        for table in session.tables.all():
            for hand in RIICHI_HANDS:
                record_hand(table, hand, staff["desk1"])
        with CaptureQueriesContext(connection) as queries:
            text = pages(protocols_pdf(session, filled=True))
        assert len(text) == players // 4
        assert all("Chombo: N" in page for page in text)
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_sticks_left_at_the_end_are_noted_and_given_as_the_rule_set_says(riichi):
    """000 §3.6: "all riichi bets left on the table go to the winner"; with first place shared
    the desk splits them in hundreds, the remainder to the first in seat order (riichi.py):
    W's 1,000 left after an abortive draw goes 400 to E, 300 to S and 300 to N."""
    session, _first, second, staff = riichi
    record_hand(second, {"result": "abortive", "riichi": ["W"]}, staff["desk1"])
    page = pages(protocols_pdf(session, filled=True))[1]
    assert "1 E (E1) Abortive draw 30,000 30,000 -1,000 29,000 30,000 W" in page
    assert "Final score 30,400 30,300 29,000 30,300" in page
    assert "Riichi sticks left on the table at the end: 1" in page


def test_a_dead_hand_in_words():
    """Issue 36, 002 §2.8.3: the protocol names a dead hand, not a false hu."""
    hand = {"events": [{"kong": "concealed", "seat": "N"}, {"dead": "N"}], "exhausted": {}}
    assert hand_text(hand).split("; ")[:2] == ["N concealed kong", "Dead hand: N"]


def test_a_false_hu_on_a_kong_in_words():
    """Issue 36, 002 §2.8.4 (3): the protocol says whose kong the false hu robbed or followed."""
    hand = {
        "events": [
            {"kong": "concealed", "seat": "W"},
            {"false_hu": "S", "from": "W", "after_kong": True, "waiting": True},
            {"kong": "added", "seat": "N"},
            {"false_hu": "E", "from": "N", "robbing_kong": True, "waiting": False},
        ],
        "exhausted": {},
    }
    assert hand_text(hand).split("; ")[1:4] == [
        "False hu: S (waiting), on W's discard after a kong",
        "N added kong",
        "False hu: E (not waiting), robbing N's kong",
    ]


def test_a_pig_on_a_winning_hand_in_words():
    """Issue 36, 002 §2.5.8 (3): the protocol marks the winner who was a pig."""
    hand = {"events": [{"hu": [{"seat": "S", "fans": 2, "pig": True}], "from": "E"}]}
    assert hand_text(hand).startswith("Hu from E: S 2 fans (pig)")
