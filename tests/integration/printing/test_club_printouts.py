"""A club rating's files (issue 25) fetched through the desk's real URLs: the rating table and
every game as PDF (read back with pypdf), the workbook (read back with openpyxl).

001 §13: a game's rating points are (score − 30,000) / 1,000 to one decimal, plus +9 / +3 / −3 /
−9 by place, chombo −20; a tie shares the places' points (docs/rules.md §2). So 40,000 first →
+19.0; two at 30,000 sharing second and third → (3 − 3) / 2 = 0.0 each; 20,000 last with a chombo →
−10 − 9 − 20 = −39.0.
"""

import datetime
import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from openpyxl import load_workbook
from pypdf import PdfReader

from club.services import add_member, confirm_game, record_game, save_club, save_season
from core.roles import CLUB_OFFICER
from people.models import Person
from tests.support import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

YULIA, LUKASZ, OLEKSANDR, ANNA, ZOE = (
    "Юлія Ґудзь",
    "Łukasz Żółć",
    "Олександр Щербаков",
    "Anna Kowalska",
    "Zoë Brandt",
)
WINTER = datetime.date(2025, 1, 15)
SPRING = datetime.date(2025, 4, 10)


def text_of(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    pages = PdfReader(io.BytesIO(pdf)).pages
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in pages))


@pytest.fixture
def club():
    first, second = f.user("off1", CLUB_OFFICER), f.user("off2", CLUB_OFFICER)
    club = save_club(None, {"name": "Furiten", "slug": "furiten", "min_games": 2}, first)
    f.grant(second, club)  # the creator keeps it by itself; the second officer is given it
    winter = save_season(
        club, None, "Winter 2025", datetime.date(2025, 1, 1), datetime.date(2025, 3, 31), first
    )
    spring = save_season(
        club, None, "Spring 2025", datetime.date(2025, 4, 1), datetime.date(2025, 6, 30), first
    )
    m = {
        name: add_member(club, Person.objects.create(name=name), first)
        for name in (YULIA, LUKASZ, OLEKSANDR, ANNA, ZOE)
    }

    def play(day, seats):
        version = record_game(
            club, [(m[n], score, chombo) for n, score, chombo in seats], first, played_on=day
        )
        confirm_game(version, second)

    play(WINTER, [(YULIA, 40000, 0), (LUKASZ, 30000, 0), (OLEKSANDR, 20000, 1), (ANNA, 30000, 0)])
    play(WINTER, [(ANNA, 45300, 0), (YULIA, 30100, 0), (LUKASZ, 25000, 0), (OLEKSANDR, 19600, 0)])
    play(SPRING, [(ZOE, 32000, 0), (ANNA, 31000, 0), (LUKASZ, 29000, 0), (YULIA, 28000, 0)])
    club.refresh_from_db()
    return club, winter, spring, f.login(second)


def fetch(client, name, club, **query):
    url = reverse(f"printing:{name}", kwargs={"club": club.slug})
    response = client.get(url, query)
    assert response.status_code == 200, response.status_code
    return response


def test_the_rating_table_prints_all_time_with_the_unranked_apart(club):
    c, _winter, _spring, client = club
    response = fetch(client, "club_rating_pdf", c, season="all")
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="furiten-rating-all.pdf"' in response["Content-Disposition"]
    text = text_of(response.content)
    assert "Furiten" in text and "Rating table" in text and "All time" in text
    assert "printed " + date_format(timezone.localdate(), "DATE_FORMAT") in text
    for name in (YULIA, LUKASZ, OLEKSANDR, ANNA, ZOE):
        assert name in text
    # all time: Anna 0.0 + 24.3 + 4.0, Юлія 19.0 + 3.1 − 11.0, Łukasz 0.0 − 8.0 − 4.0,
    # Олександр −39.0 − 19.4; Zoë's one game is below the minimum of two
    assert f"1 {ANNA} +28.3 3" in text
    assert f"2 {YULIA} +11.1 3" in text
    assert f"3 {LUKASZ} -12.0 3" in text
    assert f"4 {OLEKSANDR} -58.4 2" in text
    heading = "Not ranked: fewer than 2 rated games"
    assert heading in text
    assert text.index(OLEKSANDR) < text.index(heading) < text.index(f"– {ZOE} +11.0 1")
    assert "3 rated games in this period." in text


def test_the_rating_table_of_a_season(club):
    c, winter, spring, client = club
    text = text_of(fetch(client, "club_rating_pdf", c, season=winter.pk).content)
    assert "Winter 2025 (15/01/2025" not in text  # the season's own dates, not a game's
    assert "Winter 2025 (01/01/2025 – 31/03/2025)" in text
    assert f"1 {ANNA} +24.3 2 1.50 50% 15/01/2025" in text
    assert f"2 {YULIA} +22.1 2 1.50 50% 15/01/2025" in text
    assert ZOE not in text and "Not ranked" not in text
    # spring: one game each, everyone below the minimum
    text = text_of(fetch(client, "club_rating_pdf", c, season=spring.pk).content)
    assert "Nobody has played the 2 games the rating needs yet." in text
    assert "Not ranked: fewer than 2 rated games" in text
    assert f"– {ZOE} +11.0 1 1.00 100% 10/04/2025" in text


def test_without_a_season_the_season_of_today_else_all_time(club):
    c, _winter, _spring, client = club
    assert "All time" in text_of(fetch(client, "club_rating_pdf", c).content)
    today = timezone.localdate()
    save_season(c, None, "Now", today, today, None)
    text = text_of(fetch(client, "club_rating_pdf", c).content)
    assert "All time" not in text and "Now (" in text
    assert "No rated games in this period." in text


def test_an_unknown_or_foreign_season_is_not_found(club):
    c, winter, _spring, client = club
    other = save_club(None, {"name": "Other", "slug": "other"}, None)
    theirs = save_season(
        other, None, "Theirs", datetime.date(2025, 1, 1), datetime.date(2025, 1, 2), None
    )
    for name in ("club_rating_pdf", "club_games_pdf", "club_xlsx"):
        url = reverse(f"printing:{name}", kwargs={"club": c.slug})
        for season in (theirs.pk, "soon", "9" * 40, "²"):
            assert client.get(url, {"season": season}).status_code == 404, (name, season)
        missing = reverse(f"printing:{name}", kwargs={"club": "nobody"})
        assert client.get(missing).status_code == 404


def test_every_game_prints_seat_by_seat(club):
    c, winter, _spring, client = club
    text = text_of(fetch(client, "club_games_pdf", c).content)
    assert "Rated games" in text and "All time" in text
    assert f"15/01/2025 1 1 East {YULIA} 40,000 1 +19.0" in text
    assert f"South {LUKASZ} 30,000 2 0.0" in text
    assert f"West {OLEKSANDR} 20,000 1 4 -39.0" in text
    assert f"North {ANNA} 30,000 2 0.0" in text
    assert f"15/01/2025 2 1 East {ANNA} 45,300 1 +24.3" in text
    assert f"North {OLEKSANDR} 19,600 4 -19.4" in text
    assert f"10/04/2025 1 1 East {ZOE} 32,000 1 +11.0" in text
    # in the order played
    assert text.index("+19.0") < text.index("+24.3") < text.index("+11.0")
    text = text_of(fetch(client, "club_games_pdf", c, season=winter.pk).content)
    assert "Winter 2025" in text and ZOE not in text and "+24.3" in text


def test_many_games_break_across_pages_with_the_heading_repeated(club):
    c, _winter, _spring, client = club
    members = list(c.members.order_by("pk"))[:4]
    officer, second = f.user("off3", CLUB_OFFICER), f.user("off4", CLUB_OFFICER)
    for n in range(40):
        day = datetime.date(2025, 5, 1) + datetime.timedelta(days=n % 20)
        scores = [35000, 30000, 30000, 25000]
        seats = [(members[(i + n) % 4], scores[i], 0) for i in range(4)]
        confirm_game(record_game(c, seats, officer, played_on=day), second)
    pdf = fetch(client, "club_games_pdf", c).content
    pages = [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]
    assert len(pages) >= 3
    for page in pages:
        assert "Date Table Version Wind Name Score Chombo Place Points" in page
        # a game's four seats never part: every page's seats come in fours
        assert len(re.findall(r"\b(East|South|West|North)\b", page)) % 4 == 0


def test_the_workbook_holds_numbers_and_dates(club):
    c, winter, spring, client = club
    response = fetch(client, "club_xlsx", c, season="all")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    wb = load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["Rating", "Games", "Spring 2025", "Winter 2025"]
    rating = list(wb["Rating"].iter_rows(values_only=True))
    assert rating[0] == (
        "Rank", "Name", "Person id", "Rating", "Games", "Average place", "First places",
        "First-place share", "Last game", "Ranked",
    )  # fmt: skip
    anna = Person.objects.get(name=ANNA).pk
    last = datetime.datetime(2025, 4, 10)
    assert rating[1] == (1, ANNA, anna, 28.3, 3, 1.67, 1, 0.333, last, "yes")
    assert rating[4][:5] == (4, OLEKSANDR, Person.objects.get(name=OLEKSANDR).pk, -58.4, 2)
    assert rating[5][0] is None and rating[5][1:2] == (ZOE,) and rating[5][-1] == "no"
    assert rating[5][3] == 11
    cell = wb["Rating"]["D2"]
    assert cell.data_type == "n" and cell.number_format == "#,##0.0"
    assert wb["Rating"]["I2"].is_date and wb["Rating"]["H2"].number_format == "0%"

    games = list(wb["Games"].iter_rows(values_only=True))
    assert games[0] == (
        "Date", "Table", "Version", "Wind", "Name", "Person id", "Score", "Chombo", "Place",
        "Points",
    )  # fmt: skip
    assert len(games) == 1 + 3 * 4
    day = datetime.datetime(2025, 1, 15)
    yulia = Person.objects.get(name=YULIA).pk
    assert games[1] == (day, 1, 1, "East", YULIA, yulia, 40000, 0, 1, 19)
    assert games[3][4:] == (OLEKSANDR, Person.objects.get(name=OLEKSANDR).pk, 20000, 1, 4, -39)
    assert games[4][6:] == (30000, 0, 2, 0)
    assert games[6][6:] == (30100, 0, 2, 3.1)
    assert wb["Games"]["A2"].is_date and wb["Games"]["A2"].number_format == "yyyy-mm-dd"
    assert wb["Games"]["J2"].data_type == "n"

    winter_rows = list(wb["Winter 2025"].iter_rows(values_only=True))
    assert [r[:4] for r in winter_rows[1:3]] == [(1, ANNA, anna, 24.3), (2, YULIA, yulia, 22.1)]
    spring_rows = list(wb["Spring 2025"].iter_rows(values_only=True))
    assert all(r[0] is None and r[-1] == "no" for r in spring_rows[1:])


def test_the_workbook_of_a_season_adds_all_time(club):
    c, winter, _spring, client = club
    response = fetch(client, "club_xlsx", c, season=winter.pk)
    assert 'filename="furiten-rating-' in response["Content-Disposition"]
    wb = load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["Rating", "Games", "All time", "Spring 2025", "Winter 2025"]
    assert [r[1] for r in wb["Rating"].iter_rows(min_row=2, values_only=True)] == [
        ANNA, YULIA, LUKASZ, OLEKSANDR,
    ]  # fmt: skip
    assert wb["Games"].max_row == 13  # every game, whatever the season


def test_the_command_writes_each_file(club, tmp_path):
    c, _winter, _spring, _client = club
    out = tmp_path / "rating.pdf"
    call_command("club_export", "furiten", "--what", "rating", "--season", "Winter 2025",
                 "-o", str(out))  # fmt: skip
    assert "Winter 2025" in text_of(out.read_bytes())
    out = tmp_path / "games.pdf"
    call_command("club_export", "furiten", "--what", "games", "-o", str(out))
    assert ZOE in text_of(out.read_bytes())
    out = tmp_path / "rating.xlsx"
    call_command("club_export", "furiten", "--what", "workbook", "--season", "all", "-o", str(out))
    assert load_workbook(out).sheetnames[:2] == ["Rating", "Games"]
    with pytest.raises(CommandError, match="No club rating with the slug nobody"):
        call_command("club_export", "nobody", "--what", "rating", "-o", str(out))
    with pytest.raises(CommandError, match="has no season Summer"):
        call_command("club_export", "furiten", "--what", "rating", "--season", "Summer",
                     "-o", str(out))  # fmt: skip
