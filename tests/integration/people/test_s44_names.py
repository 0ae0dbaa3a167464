"""Issue 37 point 4 through the desk's real URLs: a player's Latin name follows the player's
own country; a list import says which column holds the family name and in which order a whole
name's words come, and its preview shows the split before anything is imported."""

import html
import io
import json
import re

import pytest

from tests.support import factories as f
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return f.staff()


def upload(c, t, name, content, **fields):
    fh = io.BytesIO(content)
    fh.name = name
    return c.post(f"/desk/{t.slug}/players/import/", {"file": fh, **fields})


def page(response) -> str:
    return html.unescape(response.content.decode())


def preview_name(response) -> str:
    return re.search(r'name="preview" value="(\w+)"', response.content.decode()).group(1)


def test_a_russian_player_in_a_ukrainian_tournament_gets_the_russian_spelling(staff):
    """ICAO Doc 9303 (Russian passports) for RU, the 2010 Ukrainian national system for UA:
    "Виктор Смирнов" is "Smirnov, Viktor" from Russia, "Smyrnov, Vyktor" from Ukraine; with
    no country the tournament's language (Ukrainian) decides, as before."""
    t = f.tournament(players=0, language="uk")
    c = f.login(staff["director"])
    content = "name,country\nВиктор Смирнов,RU\nВиктор Смирнова,UA\nВиктор Смирнин,\n".encode()
    preview = page(upload(c, t, "list.csv", content))
    assert "Smirnov, Viktor" in preview and "Smyrnova, Vyktor" in preview
    f.confirm_import(c, t, upload(c, t, "list.csv", content))
    listing = page(c.get(f"/desk/{t.slug}/players/"))
    assert "Smirnov, Viktor" in listing
    assert "Smyrnova, Vyktor" in listing
    assert "Smyrnyn, Vyktor" in listing  # no country: the Ukrainian-language tournament's rule
    # The EMA results sheet's names are the same (tournament.selectors.ema_names).
    p = t.players.get(name="Виктор Смирнов")
    assert p.latin_parts(t.language) == ("Viktor", "Smirnov")


def test_a_whole_name_family_name_first_is_split_so_and_survives_the_file(staff):
    t = f.tournament(players=0, language="ru", slug="names-open")
    c = f.login(staff["director"])
    content = "ФИО,Страна\nЩербаков Алексей,RU\nChen Wei,CN\n".encode()
    preview = upload(c, t, "list.csv", content, order="family", family_column="", given_column="")
    text = page(preview)
    assert "Names given whole are read family name first" in text
    assert "Shcherbakov, Aleksei" in text and "Chen, Wei" in text
    f.confirm_import(c, t, preview)
    players = {p.name: p for p in t.players.all()}
    assert (players["Щербаков Алексей"].first_name, players["Щербаков Алексей"].last_name) == (
        "Алексей",
        "Щербаков",
    )
    assert players["Chen Wei"].latin_parts(t.language) == ("Wei", "Chen")
    listing = page(c.get(f"/desk/{t.slug}/players/"))
    assert "Shcherbakov, Aleksei" in listing and "Chen, Wei" in listing
    # The split is kept in the name's parts, which the tournament file carries.
    exported = c.get(f"/desk/{t.slug}/export/").content
    t.delete()
    fh = io.BytesIO(exported)
    fh.name = "names-open.json"
    assert c.post("/desk/import/", {"file": fh}).status_code == 302
    back = Tournament.objects.get()
    restored = {p.name: p.latin_parts(back.language) for p in back.players.all()}
    assert restored == {"Щербаков Алексей": ("Aleksei", "Shcherbakov"), "Chen Wei": ("Wei", "Chen")}
    assert json.loads(exported)["players"][0]["last_name"] in {"Щербаков", "Chen"}


def test_the_preview_shows_the_desks_split_and_the_director_corrects_it(staff):
    """The desk's rule for a whole name: the last word is the last name. The preview says so,
    shows "Aleksei" as the last name, and "Split again" in the other order corrects it before
    anything is imported."""
    t = f.tournament(players=0, language="ru")
    c = f.login(staff["director"])
    first = upload(c, t, "list.csv", "name\nЩербаков Алексей\n".encode())
    text = page(first)
    assert "Names given whole are read first name first" in text
    assert "Aleksei, Shcherbakov" in text  # last, first: the wrong split, shown
    assert t.players.count() == 0
    again = c.post(
        f"/desk/{t.slug}/players/import/",
        {"reorder": "1", "preview": preview_name(first), "order": "family"},
    )
    text = page(again)
    assert "Shcherbakov, Aleksei" in text and "Names given whole are read family name first" in text
    assert t.players.count() == 0
    f.confirm_import(c, t, again)
    p = t.players.get()
    assert (p.name, p.first_name, p.last_name) == ("Щербаков Алексей", "Алексей", "Щербаков")


def test_the_import_says_which_columns_hold_the_family_and_the_given_name(staff):
    t = f.tournament(players=0)
    c = f.login(staff["director"])
    content = b"Family,Given,Country\nChen,Wei,CN\nNowak,Anna,PL\n"
    preview = upload(c, t, "list.csv", content, family_column="family", given_column="B")
    text = page(preview)
    assert "Chen, Wei" in text and "Nowak, Anna" in text
    assert "Ignored columns" not in text
    f.confirm_import(c, t, preview)
    chen = t.players.get(last_name="Chen")
    assert (chen.name, chen.first_name) == ("Wei Chen", "Wei")
    # The same list, family name first: the name shown is "Chen Wei"; the parts are the same.
    t2 = f.tournament(players=0, slug="second")
    preview = upload(
        c, t2, "list.csv", content, family_column="A", given_column="Given", order="family"
    )
    f.confirm_import(c, t2, preview)
    chen = t2.players.get(last_name="Chen")
    assert (chen.name, chen.first_name) == ("Chen Wei", "Wei")


@pytest.mark.parametrize(
    "content",
    [
        "Фамилия,Имя\nЩербаков,Алексей\n",
        "Прізвище,Ім’я\nЩербаков,Алексей\n",
        "Imię,Nazwisko\nAlexei,Щербаков\n",
    ],
)
def test_russian_ukrainian_and_polish_headings_are_read(staff, content):
    t = f.tournament(players=0)
    c = f.login(staff["director"])
    f.confirm_import(c, t, upload(c, t, "list.csv", content.encode()))
    assert t.players.get().last_name == "Щербаков"


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"family_column": "Surname2"},
            "Family name column “Surname2”: the list has no such column "
            "(its columns: A “Family”, B “Given”, C “Note”).",
        ),
        (
            {"given_column": "F"},
            "Given name column “F”: the list has no such column "
            "(its columns: A “Family”, B “Given”, C “Note”).",
        ),
        (
            {"family_column": "Note"},
            "Family name column “Note”: the column is empty in every row.",
        ),
        (
            {"family_column": "Family", "given_column": "a"},
            "The family name column and the given name column are the same column (A): "
            "name two columns.",
        ),
    ],
)
def test_a_wrong_column_is_named_and_nothing_is_imported(staff, fields, message):
    t = f.tournament(players=0)
    c = f.login(staff["director"])
    r = upload(c, t, "list.csv", b"Family,Given,Note\nChen,Wei,\n", **fields)
    assert message in page(r)
    assert "Preview:" not in page(r) and t.players.count() == 0
