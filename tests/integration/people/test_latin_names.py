"""First, last and Latin names (issue 23) through the desk's real URLs: the player form, the
player list, the list import (CSV and XLSX), the tournament file and the EMA results sheet."""

import html
import io
import json

import pytest
from openpyxl import Workbook, load_workbook

from archive.tournament_file.schema import json_schema
from core.text import LATIN
from tests.support import factories as f
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return f.staff()


def upload(c, t, name, content):
    fh = io.BytesIO(content)
    fh.name = name
    return c.post(f"/desk/{t.slug}/players/import/", {"file": fh})


def page(response) -> str:
    return html.unescape(response.content.decode())


def test_the_form_makes_the_name_of_first_and_last_and_lists_the_latin_name(staff):
    t = f.tournament(players=0)
    c = f.login(staff["director"])
    r = c.post(
        f"/desk/{t.slug}/players/add/",
        {"first_name": "Юрко", "last_name": "Зеленюк", "country": "Ukraine", "status": "active"},
    )
    assert r.status_code == 302
    p = t.players.get()
    assert (p.name, p.first_name, p.last_name) == ("Юрко Зеленюк", "Юрко", "Зеленюк")
    assert (p.latin_first_name, p.latin_last_name) == ("", "")  # empty: transliterated
    listing = page(c.get(f"/desk/{t.slug}/players/"))
    # From Ukraine: the Ukrainian national system (Yu), not the Russian passports' (Iu).
    assert "Latin name (last, first)" in listing and "Zeleniuk, Yurko" in listing
    # The form shows what an empty Latin name stands for.
    form = page(c.get(f"/desk/{t.slug}/players/{p.pk}/"))
    assert 'placeholder="Yurko"' in form and 'placeholder="Zeleniuk"' in form


def test_the_form_keeps_a_typed_name_and_a_typed_latin_name(staff):
    t = f.tournament(players=0, language="ru")
    c = f.login(staff["director"])
    data = {
        "name": "Юра",
        "first_name": "Юрий",
        "last_name": "Щербаков",
        "latin_first_name": "Yury",
        "status": "active",
    }
    assert c.post(f"/desk/{t.slug}/players/add/", data).status_code == 302
    p = t.players.get()
    assert p.name == "Юра"  # the name shown stays as typed
    listing = page(c.get(f"/desk/{t.slug}/players/"))
    # The typed Latin first name; the last name by ICAO Doc 9303 (a Russian-language event).
    assert "Shcherbakov, Yury" in listing


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "Give the name, or the first and last name."),
        (
            {"name": "Anna", "latin_last_name": "Ґудзь"},
            "A Latin name is Latin letters, spaces, apostrophes, hyphens and dots only.",
        ),
        ({"name": "Anna", "latin_first_name": "x" * 100}, "at most 99 characters"),
        ({"first_name": "Bell\x07"}, "Control characters"),
        ({"first_name": "Jan", "last_name": "van den Berg"}, "already registered"),
    ],
)
def test_the_form_refuses(staff, data, message):
    t = f.tournament(players=0)
    Player.objects.create(tournament=t, key="p001", name="Jan van den Berg")
    r = f.login(staff["director"]).post(
        f"/desk/{t.slug}/players/add/", {"status": "active", **data}
    )
    assert r.status_code == 200 and message in page(r)
    assert t.players.count() == 1


def test_csv_import_with_first_last_and_latin_columns(staff):
    t = f.tournament(players=0)
    c = f.login(staff["director"])
    content = (
        "First name,Last name,Latin first name,Latin last name,Country\n"
        "Олександр,Шевченко,,,UA\n"
        "Jan,van den Berg,,,NL\n"
        "Юлия,Щербакова,Julia,,RU\n"
    ).encode()
    preview = upload(c, t, "players.csv", content)
    text = page(preview)
    assert "Preview: 3 players" in text and "Latin first name" in text
    assert "Latin last name" not in text  # only the columns the list fills
    f.confirm_import(c, t, preview)
    players = {p.name: p for p in t.players.all()}
    assert set(players) == {"Олександр Шевченко", "Jan van den Berg", "Юлия Щербакова"}
    assert players["Jan van den Berg"].last_name == "van den Berg"
    assert players["Юлия Щербакова"].latin_first_name == "Julia"
    listing = page(c.get(f"/desk/{t.slug}/players/"))
    assert "Shevchenko, Oleksandr" in listing
    assert "van den Berg, Jan" in listing
    assert "Shcherbakova, Julia" in listing


def test_a_list_without_name_parts_previews_without_their_columns(staff):
    t = f.tournament(players=0)
    preview = upload(f.login(staff["director"]), t, "a.csv", b"name\nAnna Nowak\n")
    assert "Latin first name" not in page(preview)


def test_xlsx_import_reads_surname_and_given_name_headers(staff):
    t = f.tournament(players=0)
    wb = Workbook()
    ws = wb.active
    ws.append(["Name", "Given name", "Surname", "Latin surname"])
    ws.append(["Ґудзь Юлія", "Юлія", "Ґудзь", "Gudz-Kowalska"])
    buf = io.BytesIO()
    wb.save(buf)
    c = f.login(staff["director"])
    f.confirm_import(c, t, upload(c, t, "list.xlsx", buf.getvalue()))
    p = t.players.get()
    assert (p.name, p.first_name, p.last_name, p.latin_last_name) == (
        "Ґудзь Юлія",
        "Юлія",
        "Ґудзь",
        "Gudz-Kowalska",
    )
    assert p.latin_parts(t.language) == ("Yuliia", "Gudz-Kowalska")


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "name,latin last name\nАнна,Анна\n",
            "Row 2, column “latin_last_name”: A Latin name is Latin letters",
        ),
        (
            "first name,last name\nАнна," + "Ш" * 100 + "\n",
            "Row 2, column “last_name”: longer than 99 characters.",
        ),
        (
            "first name,last name,country\n,,PL\nАнна,Б,UA\n",
            "Row 2, column “name”: the name is missing.",
        ),
        ("first name,last name\nАнна,Б\nАнна,б\n", "Анна б appears twice (also row 2)."),
    ],
)
def test_bad_name_parts_import_nothing(staff, content, message):
    t = f.tournament(players=0)
    r = upload(f.login(staff["director"]), t, "bad.csv", content.encode())
    assert message in page(r)
    assert "Preview:" not in page(r) and t.players.count() == 0


def test_the_tournament_file_carries_the_name_parts(staff):
    t = f.tournament(players=0, slug="latin-open")
    Player.objects.create(
        tournament=t,
        key="p1",
        name="Юлія Ґудзь",
        first_name="Юлія",
        last_name="Ґудзь",
        latin_first_name="Julia",
        latin_last_name="Gudz",
    )
    Player.objects.create(tournament=t, key="p2", name="Jan van den Berg")
    director = f.login(staff["director"])
    exported = director.get(f"/desk/{t.slug}/export/").content
    data = json.loads(exported)
    first, second = data["players"]
    assert (first["first_name"], first["last_name"]) == ("Юлія", "Ґудзь")
    assert (first["latin_first_name"], first["latin_last_name"]) == ("Julia", "Gudz")
    assert "first_name" not in second  # empty parts are left out
    t.delete()
    fh = io.BytesIO(exported)
    fh.name = "latin-open.json"
    assert director.post("/desk/import/", {"file": fh}).status_code == 302
    t = Tournament.objects.get()
    back = {p.key: p for p in t.players.all()}
    assert (back["p1"].first_name, back["p1"].last_name) == ("Юлія", "Ґудзь")
    assert (back["p1"].latin_first_name, back["p1"].latin_last_name) == ("Julia", "Gudz")
    assert back["p2"].latin_parts(t.language) == ("Jan", "van den Berg")
    # The exported file is the same again.
    assert (
        json.loads(director.get(f"/desk/{t.slug}/export/").content)["players"] == (data["players"])
    )


def test_the_tournament_file_refuses_a_cyrillic_latin_name(staff):
    director = f.login(staff["director"])
    fh = io.BytesIO(
        json.dumps(
            {
                "format": "mahjong-tournament",
                "version": 1,
                "tournament": {"name": "X", "ruleset": "ema-2012"},
                "players": [{"key": "p1", "name": "Анна", "latin_first_name": "Анна"}],
            }
        ).encode()
    )
    fh.name = "bad.json"
    r = director.post("/desk/import/", {"file": fh})
    assert "players[0].latin_first_name" in page(r)
    assert "is not a name in Latin letters" in page(r)
    assert not Tournament.objects.exists()


def test_the_json_schema_declares_the_latin_shape():
    player = json_schema()["properties"]["players"]["items"]["properties"]
    latin = player["latin_last_name"]
    assert latin["pattern"] == LATIN.ecma and latin["maxLength"] == 99
    assert "first_name" in player and "last_name" in player


@pytest.mark.parametrize(
    "value, ok",
    [
        ("van den Berg", True),
        ("Żółć", True),
        ("O'Neil", True),
        ("Zoë-Anne", True),
        ("", True),
        ("Ґудзь", False),
        (" ", False),
        ("Anna\n", False),
        ("Anna 2", False),
    ],
)
def test_latin_shape(value, ok):
    assert bool(LATIN.regex.match(value)) is ok


def test_ema_sheet_takes_the_latin_names_from_the_form(staff):
    """The chain a director follows: the form's first and last name, then the EMA sheet."""
    t = f.tournament(players=4, language="uk")
    c = f.login(staff["director"])
    p = t.players.get(key="p01")
    r = c.post(
        f"/desk/{t.slug}/players/{p.pk}/",
        {"name": "", "first_name": "Юрко", "last_name": "Зеленюк", "status": "active"},
    )
    assert r.status_code == 302
    f.play(f.seat_session(t, 1).tables.get(), [45000, 35000, 25000, 15000], *_two(staff))
    sheet = load_workbook(io.BytesIO(c.get(f"/desk/{t.slug}/ema-results.xlsx").content)).active
    top = [cell.value for cell in sheet[2]]
    # A tournament printed in Ukrainian: the Ukrainian national system.
    assert top[:4] == [1, None, "Zeleniuk", "Yurko"]


def _two(staff):
    return staff["desk1"], staff["desk2"]
