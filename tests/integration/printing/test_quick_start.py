"""Issue 37, "a first-timer's questions the desk does not answer": the director's printable
quick-start, an A4 page per role — the desk users, the referees, and the players at the table
page, a page per table with that table's QR code — printed by the desk at the address the
phones in the hall reach it by, in the tournament's language.

The PDFs are fetched through the desk's real URLs and read back with pypdf; each QR code is
read back from the page's drawing (tests/integration/printing/test_hand_printouts.drawn_qr)
and compared with the code of the address it must hold.
"""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from pypdf import PdfReader
from reportlab.platypus import Paragraph

from core.addresses import lan_address
from printing.pdf.kit import register_fonts
from printing.pdf.quick_start import WIDTH, address_line, quick_start_story
from seating.keys import table_code, table_path
from tests.integration.printing.test_hand_printouts import drawn_qr, encoded
from tests.integration.printing.test_printouts_fit import overflowing, tables_in
from tests.support import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

HALL = "192.168.1.20:8000"  # the desk's address as the phones in the hall reach it


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF")
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]


def fetch(client, path, host=HALL) -> bytes:
    response = client.get(path, HTTP_HOST=host)
    assert response.status_code == 200, path
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.fixture
def hall():
    """Twelve players seated at three tables in session 1."""
    staff = f.staff()
    t = f.tournament(players=12, slug="krakow", name="Kraków Riichi Open 2026")
    session = f.seat_session(t)
    return t, session, staff


def test_a_page_per_role_and_per_table_each_with_the_desks_address_and_its_qr_code(hall):
    t, session, staff = hall
    desk = f.login(staff["desk1"])
    pdf = fetch(desk, "/desk/krakow/s/1/quick-start.pdf")
    text = pages(pdf)
    tables = list(session.tables.order_by("number"))
    assert len(text) == 2 + len(tables) == 5  # the desk users, the referees, a page per table
    assert "Quick start: desk users" in text[0]
    assert f"http://{HALL}/desk/" in text[0]
    assert "open Kraków Riichi Open 2026" in text[0]
    assert "a second desk user confirms it" in text[0]
    assert "Check-in" in text[0] and "Play has ended" in text[0]
    assert "Quick start: referees" in text[1]
    assert f"http://{HALL}/referee/krakow/" in text[1]
    assert "Log an appeal" in text[1] and "Undo" in text[1]
    for page, table in zip(text[2:], tables, strict=True):
        assert f"Quick start: players at table {table.number}, session 1" in page
        assert f"Table code {table_code(table)}" in page
        assert f"open this address and type the table code: http://{HALL}/h/" in page
        assert f"Standings and your own results: http://{HALL}/t/krakow/" in page
        assert "Each player confirms the hand with their own seat's button." in page
        assert "winds you drew" not in page  # the desk's draw gave the winds
    assert all("Page" in page and "Quick start" in page for page in text)  # the footer
    # the QR codes as drawn: the desk's, the referees' page, and each table page's own link
    links = [f"http://{HALL}/desk/", f"http://{HALL}/referee/krakow/"]
    links += [f"http://{HALL}{table_path(table)}" for table in tables]
    for index, link in enumerate(links):
        expected = encoded(link)
        assert drawn_qr(pdf, index, len(expected)) == expected, link
    assert len({str(encoded(link)) for link in links}) == len(links)


def test_in_russian_with_winds_drawn_at_the_table(hall):
    t, session, staff = hall
    t.language, t.winds = "ru", t.Winds.TABLE
    t.single_confirmation = True
    t.save()
    pdf = fetch(f.login(staff["desk1"]), "/desk/krakow/s/1/quick-start.pdf")
    text = pages(pdf)
    assert len(text) == 5
    first = session.tables.order_by("number").first()
    for page, wanted in (
        (0, "Памятка: секретариат"),
        (1, "Памятка: судьи"),
        (2, "Что вы делаете"),
        (2, "Памятка: игроки за столом 1, сессия 1"),
        (2, "До этого раздачи не принимаются."),
        (0, "в этом турнире результат засчитывается по подтверждению одного сотрудника"),
    ):
        assert wanted in text[page], wanted
    assert f"Код стола {table_code(first)}" in text[2]  # translated already
    assert "Страница 1 из 5" in text[0]
    assert f"http://{HALL}/h/" in text[2]


def test_the_dashboards_quick_start_has_one_players_page_whose_qr_opens_the_code_page(hall):
    _t, _session, staff = hall
    desk = f.login(staff["desk1"])
    dashboard = desk.get("/desk/krakow/").content.decode()
    assert 'href="/desk/krakow/quick-start.pdf"' in dashboard
    assert (
        'href="/desk/krakow/s/1/quick-start.pdf"' in desk.get("/desk/krakow/s/1/").content.decode()
    )
    pdf = fetch(desk, "/desk/krakow/quick-start.pdf")
    text = pages(pdf)
    assert len(text) == 3
    assert "Quick start: players at the table page" in text[2]
    assert f"type the code on your table's card: http://{HALL}/h/" in text[2]
    expected = encoded(f"http://{HALL}/h/")
    assert drawn_qr(pdf, 2, len(expected)) == expected


def test_printed_on_the_laptop_itself_it_names_the_lan_address(hall):
    """A director browsing http://localhost:8000: no phone opens that, so the pages name the
    address `serve` announces for the hall, on the same port."""
    _t, _session, staff = hall
    pdf = fetch(f.login(staff["desk1"]), "/desk/krakow/quick-start.pdf", host="localhost:8000")
    text = " ".join(pages(pdf))
    assert f"http://{lan_address()}:8000/desk/" in text
    assert "localhost" not in text


def test_only_the_desk_prints_it(hall):
    _t, _session, staff = hall
    assert Client().get("/desk/krakow/quick-start.pdf").status_code == 302  # log in first
    other = f.tournament(players=4, slug="other", granted=False)
    assert f.login(staff["desk1"]).get(f"/desk/{other.slug}/quick-start.pdf").status_code == 403


def test_the_print_command_writes_it_for_an_address(hall, tmp_path):
    out = tmp_path / "quick.pdf"
    call_command("print_tournament", "krakow", "--what", "quick-start", "--session", "1",
                 "--address", "http://10.0.0.5:8000", "-o", out)  # fmt: skip
    text = pages(out.read_bytes())
    assert len(text) == 5 and "http://10.0.0.5:8000/referee/krakow/" in text[1]
    with pytest.raises(CommandError, match=re.escape("--address: say the desk's address")):
        call_command("print_tournament", "krakow", "--what", "quick-start", "-o", out)
    with pytest.raises(CommandError, match=re.escape("--session: krakow has no session 9.")):
        call_command("print_tournament", "krakow", "--what", "quick-start", "--session", "9",
                     "--address", "http://10.0.0.5:8000", "-o", out)  # fmt: skip


def paragraphs(flowables):
    for item in flowables:
        if isinstance(item, Paragraph):
            yield item
        elif hasattr(item, "_cellvalues"):
            for row in item._cellvalues:
                for cell in row:
                    yield from paragraphs(cell if isinstance(cell, list | tuple) else [cell])


@pytest.mark.parametrize("language", ["en", "ru", "uk", "pl"])
def test_no_word_is_cut_and_every_page_is_one_page(language):
    """Issue 37: no word split inside a word on any printout. The longest slug and a long
    tournament name; every paragraph laid out at its width breaks only between words, and each
    role's page stays one A4 page."""
    register_fonts()
    staff = f.staff()
    slug = "kubok-kharkova-" + "z" * 60
    name = "Відкритий кубок Харкова з маджонгу Сичуань імені Тараса Шевченка 2026"
    t = f.tournament("sbr-2025", players=8, slug=slug, language=language, name=name)
    session = f.seat_session(t)
    address = "http://192.168.100.200:8000"
    with t.printing():
        story = quick_start_story(t, address, session)
    found = []
    for paragraph in paragraphs(story):
        paragraph.wrap(WIDTH, 10**6)
        if paragraph._splitLongWordCount:
            found.append(paragraph.getPlainText())
    for table in tables_in(story):
        found += overflowing(table)
    assert not found, found
    pdf = fetch(f.login(staff["director"]), f"/desk/{slug}/s/1/quick-start.pdf")
    assert len(pages(pdf)) == 4  # desk, referees, two tables: each on its own page


def test_an_address_too_long_for_one_line_breaks_after_a_slash():
    register_fonts()
    link = "http://192.168.100.200:8000/referee/" + "a" * 70 + "/"
    line = address_line(link, 100 * 2.83, Paragraph("x").style)
    line.wrap(100 * 2.83, 10**6)
    assert line._splitLongWordCount == 0
    assert line.getPlainText().replace("\n", "") == link
