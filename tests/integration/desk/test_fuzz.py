"""Input fuzzing (hall-proof): generated bad input for the result form, the player import and
the tournament-file import. Every bad input is refused with a message and changes nothing;
generated good input is accepted and stored as given, so each test can fail both ways.

Each kind of fault is its own test (so every kind runs on every run); hypothesis varies the
rest. Examples are derandomized (the same ones on every run, no database of past failures),
and each one runs in a savepoint that is rolled back, so accepted examples leave nothing behind.
"""

import copy
import html
import io
import re
import tracemalloc
import zipfile
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from archive.tournament_file import (
    TournamentFileError,
    dumps,
    import_tournament,
)
from core.roles import DIRECTOR
from scoring.models import Result
from tests.support import factories as f
from tests.support import rows
from tests.support.tournaments import source_files
from tournament.models import Player
from tournament.player_import import MAX_ROWS, parse_player_list

pytestmark = pytest.mark.django_db


def fuzz(max_examples):
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        # No shrinking: a failure is reported as generated, in seconds rather than minutes.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def snapshot():
    """Every row of the tournament, seating, scoring and referee models."""
    return rows.snapshot(("tournament", "seating", "scoring", "referee"))


@contextmanager
def rolled_back():
    """Run one example, then undo whatever it wrote."""
    point = transaction.savepoint()
    try:
        yield
    finally:
        transaction.savepoint_rollback(point)


def page(response) -> str:
    return html.unescape(response.content.decode())


LETTERS = st.characters(codec="utf-8", categories=["L"])
NOT_DIGITS = st.characters(codec="utf-8", exclude_categories=["Nd", "Cs"])
# What a one-line note may hold (core.text.LINE): no control characters.
NOTE_CHARACTERS = st.characters(codec="utf-8", exclude_categories=["Nd", "Cs", "Cc"])


# --- the result form --------------------------------------------------------------------------

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


class Spot:
    """One table the form is fuzzed on: its URL, seats, the version to send and the rules."""

    def __init__(self, tournament, table, names, base, riichi):
        self.url = f"/desk/{tournament.slug}/s/1/t/{table}/"
        self.table = table
        self.tournament = tournament
        self.winds = "ESWN"[: len(names)]
        self.names = dict(zip(self.winds, names, strict=True))
        self.base = base
        self.riichi = riichi
        self.target = 120000 if riichi else 0
        self.step = 100 if riichi else 1

    def label(self, wind):
        return f"{WIND_NAMES[wind]} — {self.names[wind]}"

    def seat(self, wind):
        return f"{WIND_NAMES[wind]} ({self.names[wind]})"


@pytest.fixture
def hall():
    people = f.staff()
    riichi = f.tournament("ema-2012", players=4, slug="fuzz-riichi")
    f.seat_session(riichi)
    sbr = f.tournament("sbr-2025", players=9, slug="fuzz-sbr")
    keys = [f"p{n:02d}" for n in range(1, 10)]
    session = f.seat_session(sbr, groups=[keys[:4], keys[4:7], keys[7:]])
    # Sichuan table 1 already has a confirmed version 1, so its form must send version 1.
    f.play(session.tables.get(number=1), [10, -5, 0, -5], people["desk2"], people["director"])
    names = [f"Player {n:02d}" for n in range(1, 10)]
    return {
        "desk": f.login(people["desk1"]),
        "user": people["desk1"],
        "spots": [
            Spot(riichi, 1, names[:4], 0, riichi=True),
            Spot(sbr, 1, names[:4], 1, riichi=False),
            Spot(sbr, 2, names[4:7], 0, riichi=False),  # a three-player table
        ],
        "awarded": Spot(sbr, 3, names[7:], 0, riichi=False),
    }


@st.composite
def valid_scores(draw, spot):
    """Scores in the rules' steps that add up to the table's target."""
    low, high = (-500, 1500) if spot.riichi else (-300, 300)
    scores = [draw(st.integers(low, high)) * spot.step for _ in spot.winds[1:]]
    scores.append(spot.target - sum(scores))
    return dict(zip(spot.winds, scores, strict=True))


def written(draw, number):
    """A whole number as a desk user might type it."""
    forms = [str(number), f" {number} ", f"{number}.0"]
    if number >= 0:
        forms.append(f"+{number}")
    return draw(st.sampled_from(forms))


RIICHI_ONLY = {"step", "chombo_negative", "chombo_text", "chombo_high"}
RESULT_FAULTS = [
    "none",  # a valid entry: accepted, stored as typed
    "unknown_keys",  # valid plus keys the form does not know: ignored
    "letters",
    "fraction",
    "exponent",
    "huge",
    "many_digits",
    "missing",
    "empty",
    "step",
    "sum",
    "chombo_negative",
    "chombo_text",
    "chombo_high",
    "base_garbage",
    "base_negative",
    "base_missing",
    "base_stale",
    "note_long",
    "note_nul",
    "note_control",
]


@st.composite
def result_posts(draw, spots, fault):
    """(spot, POST data, expected message or None when valid, the rows to be stored)."""
    spot = draw(st.sampled_from([s for s in spots if s.riichi or fault not in RIICHI_ONLY]))
    scores = draw(valid_scores(spot))
    chombo = {w: draw(st.integers(0, 20)) if spot.riichi else 0 for w in spot.winds}
    data = {"base_version": str(spot.base)}
    for w in spot.winds:
        data[f"score_{w}"] = written(draw, scores[w])
        if spot.riichi:
            data[f"chombo_{w}"] = draw(st.sampled_from([str(chombo[w]), f" {chombo[w]} "]))
            if chombo[w] == 0:
                choice = draw(st.sampled_from(["keep", "empty", "absent"]))
                if choice == "empty":
                    data[f"chombo_{w}"] = ""
                elif choice == "absent":
                    del data[f"chombo_{w}"]
    if draw(st.booleans()):
        data["note"] = draw(st.text(NOTE_CHARACTERS, max_size=40))
    wind = draw(st.sampled_from(spot.winds))
    label = spot.label(wind)
    expected = None
    if fault == "unknown_keys":
        extra = draw(
            st.dictionaries(
                st.text(LETTERS, min_size=1, max_size=10),
                st.text(NOT_DIGITS, max_size=20),
                min_size=1,
                max_size=4,
            )
        )
        data.update({k: v for k, v in extra.items() if k not in data and k != "note"})
        if not spot.riichi:  # a Sichuan table has no chombo fields
            data[f"chombo_{wind}"] = draw(st.text(NOT_DIGITS, max_size=10))
    elif fault == "letters":
        data[f"score_{wind}"] = draw(st.text(NOT_DIGITS, max_size=10)) + draw(
            st.text(LETTERS, min_size=1, max_size=10)
        )
        expected = f"{label}: write a whole number."
    elif fault == "fraction":
        data[f"score_{wind}"] = f"{scores[wind]}.{draw(st.integers(1, 999))}"
        expected = f"{label}: write a whole number."
    elif fault == "exponent":
        data[f"score_{wind}"] = f"{draw(st.integers(1, 9))}e{draw(st.integers(1, 9))}"
        expected = f"{label}: write a whole number."
    elif fault == "huge":
        value = draw(st.integers(10**9 + 1, 10**40)) * draw(st.sampled_from([1, -1]))
        data[f"score_{wind}"] = str(value)
        expected = f"{label}: the score is far too {'high' if value > 0 else 'low'}."
    elif fault == "many_digits":  # past Python's 4,300-digit limit for int()
        data[f"score_{wind}"] = "9" * draw(st.integers(4301, 20000))
        expected = f"{label}: write a whole number."
    elif fault == "missing":
        del data[f"score_{wind}"]
        expected = f"{label}: the score is missing."
    elif fault == "empty":
        data[f"score_{wind}"] = ""
        expected = f"{label}: the score is missing."
    elif fault == "step":
        # Off the step at two seats, so the sum still holds and the step is the problem.
        first, second = draw(st.permutations(spot.winds))[:2]
        shift = draw(st.integers(1, 99))
        data[f"score_{first}"] = str(scores[first] + shift)
        data[f"score_{second}"] = str(scores[second] - shift)
        shown = min(first, second, key=spot.winds.index)
        value = scores[shown] + (shift if shown == first else -shift)
        expected = f"{spot.seat(shown)}: The score {value:,} is not a multiple of 100."
    elif fault == "sum":
        shift = draw(st.integers(1, 1000)) * spot.step * draw(st.sampled_from([1, -1]))
        data[f"score_{wind}"] = str(scores[wind] + shift)
        direction = "too many" if shift > 0 else "too few"
        expected = (
            f"The scores add up to {spot.target + shift:,}, {abs(shift):,} {direction}: "
            f"they must add up to {spot.target:,}."
        )
    elif fault == "chombo_negative":
        data[f"chombo_{wind}"] = str(-draw(st.integers(1, 10**12)))
        expected = f"{label}: chombo cannot be negative."
    elif fault == "chombo_text":
        data[f"chombo_{wind}"] = draw(
            st.text(LETTERS, min_size=1, max_size=8)
            | st.builds("{}.{}".format, st.integers(0, 20), st.integers(1, 9))
        )
        expected = f"{label}: chombo is a count."
    elif fault == "chombo_high":
        data[f"chombo_{wind}"] = str(draw(st.integers(21, 10**12)))
        expected = f"{label}: at most 20 chombo."
    elif fault == "base_garbage":
        data["base_version"] = draw(
            st.text(LETTERS, min_size=1, max_size=10)
            | st.just("")
            | st.builds("{}.{}".format, st.integers(0, 9), st.integers(1, 9))
        )
        expected = "Version: the form's version is missing or damaged — reload the page."
    elif fault == "base_negative":
        data["base_version"] = str(-draw(st.integers(1, 10**12)))
        expected = "Version: the form's version is missing or damaged — reload the page."
    elif fault == "base_missing":
        del data["base_version"]
        expected = "Version: the form's version is missing or damaged — reload the page."
    elif fault == "base_stale":
        data["base_version"] = str(draw(st.integers(0, 10**12).filter(lambda v: v != spot.base)))
        expected = "reload the page."
    elif fault == "note_long":
        data["note"] = draw(st.text(LETTERS, min_size=301, max_size=400))
        expected = "Note: Ensure this value has at most 300 characters"
    elif fault == "note_control":
        control = draw(st.sampled_from(["\x07", "\x1b", "\x85", "\n", "\t"]))
        # Inside the note: at its very start a form trims it as whitespace (Python's str.strip
        # counts a tab, a newline and NEL \x85 as spaces) and keeps the rest, which is no fault.
        data["note"] = draw(st.text(LETTERS, min_size=1, max_size=10)) + control + "x"
        expected = "Note: Control characters (such as a tab, a bell or an escape) are not allowed."
    elif fault == "note_nul":
        data["note"] = draw(st.text(LETTERS, max_size=10)) + "\x00"
        expected = "Note: Null characters are not allowed."
    stored = {w: (scores[w], chombo[w]) for w in spot.winds}
    return spot, data, expected, stored


@pytest.mark.parametrize("fault", RESULT_FAULTS)
@fuzz(5)
@given(case=st.data())
def test_result_form_refuses_bad_entries_and_stores_good_ones(hall, fault, case):
    spot, data, expected, stored = case.draw(result_posts(hall["spots"], fault))
    desk = hall["desk"]
    desk.cookies.pop("messages", None)
    with rolled_back():
        before = snapshot()
        response = desk.post(spot.url, data)
        if expected is None:
            assert response.status_code == 302, page(response)
            result = Result.objects.filter(
                table__session__tournament=spot.tournament, table__number=spot.table
            ).latest("version")
            assert result.version == spot.base + 1
            assert (result.status, result.entered_by) == ("draft", hall["user"])
            assert {s.wind: (s.score, s.chombo) for s in result.scores.all()} == stored
        else:
            assert response.status_code in (400, 409)
            assert expected in page(response)
            assert snapshot() == before


@fuzz(15)
@given(
    data=st.dictionaries(
        st.sampled_from(["base_version", "score_E", "score_S", "chombo_E", "note", "x"]),
        st.integers(-(10**6), 10**6).map(str) | st.text(NOT_DIGITS, max_size=8),
    )
)
def test_an_awarded_table_refuses_every_entry_with_a_message(hall, data):
    desk = hall["desk"]
    desk.cookies.pop("messages", None)
    with rolled_back():
        before = snapshot()
        response = desk.post(hall["awarded"].url, data)
        assert response.status_code == 400
        assert "An awarded table has no scores to enter." in page(response)
        assert snapshot() == before


# --- the player import ------------------------------------------------------------------------

NAME_LETTERS = list("abcdefghijklmnoprstuvwyzAEIOUŁÓŻĆąęłńóśźżЮлияҐудзьЩербковАнй")
WORD = st.text(st.sampled_from(NAME_LETTERS), min_size=1, max_size=12)
NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
HEADERS = {
    "name": ["name", "Name", "NAME", "Full name", "player"],
    "key": ["key", "Key"],
    "ema_id": ["ema_id", "EMA id", "ema", "EMA-ID", "ema number"],
    "country": ["country", "Country"],
    "club": ["club", "Club"],
    "team": ["team", "Team"],
    "substitute": ["substitute", "Sub", "reserve"],
    "status": ["status", "Status"],
}
YES = ["yes", "Yes", "Y", "1", "x", "+", "true", "tak", "да"]
NO = ["", "no", "No", "N", "0", "-", "false", "nie", "нет"]
YES_NO = {v.lower() for v in YES + NO}
STATUSES = ["active", "withdrawn", "disqualified", "excluded"]


@pytest.fixture
def registry():
    director = f.staff()["director"]
    t = f.tournament(players=3, slug="fuzz-list")
    t.players.filter(key="p01").update(ema_id="07000001")
    return {"client": f.login(director), "tournament": t}


def upload(client, t, name, content):
    return client.post(
        f"/desk/{t.slug}/players/import/", {"file": SimpleUploadedFile(name, content)}
    )


@st.composite
def player_rows(draw):
    """Valid rows, as the file has them, and the columns the file has."""
    names = draw(st.lists(NAME, min_size=1, max_size=6, unique_by=str.casefold))
    others = [c for c in HEADERS if c != "name"]
    columns = ["name"] + draw(st.lists(st.sampled_from(others), unique=True))
    # Keys never look like the ones the desk makes up (p004…) for rows without one.
    keys = [f"k{i}{draw(st.text('abcXYZ0123456789_-', max_size=10))}" for i in range(len(names))]
    first_ema = draw(st.integers(1, 10**8 - 10).filter(lambda n: not n <= 7000001 < n + 10))
    rows = []
    for i, name in enumerate(names):
        status = draw(st.sampled_from(STATUSES + [""]))
        row = {
            "name": name,
            "key": keys[i] if draw(st.booleans()) else "",
            "ema_id": f"{first_ema + i:08d}" if draw(st.booleans()) else "",
            "country": draw(st.text(st.sampled_from(NAME_LETTERS), max_size=60)),
            "club": draw(NAME | st.just("")),
            "team": draw(NAME | st.just("")),
            "substitute": draw(st.sampled_from(YES + NO)),
            "status": draw(st.sampled_from([status, status.upper(), status.title()])),
        }
        rows.append({c: (v if c in columns else "") for c, v in row.items()})
    return columns, rows


def stored_player(row):
    """What the import keeps of a generated row."""
    return {
        "name": row["name"],
        "ema_id": row["ema_id"],
        "country": row["country"],
        "club": row["club"],
        "team": row["team"],
        "substitute": row["substitute"].lower() in {v.lower() for v in YES},
        "status": row["status"].lower() or "active",
    }


def csv_bytes(header, lines, delimiter=",", newline="\n", bom=False):
    text = newline.join(delimiter.join(cells) for cells in [header, *lines]) + newline
    return ("\ufeff" if bom else "").encode() + text.encode()


def xlsx_bytes(header, lines):
    wb = Workbook()
    for cells in [header, *lines]:
        wb.active.append(cells)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def rezip(content, change):
    """The XLSX with each part passed through change(name, bytes); None drops the part."""
    source = zipfile.ZipFile(io.BytesIO(content))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            part = change(name, source.read(name))
            if part is not None:
                target.writestr(name, part)
    return out.getvalue()


CSV_ONLY = {"blank", "encoding", "huge_cell", "bare_cr"}
LIST_FAULTS = [
    "none",  # a valid list: previewed, then imported exactly
    "unknown_column",  # valid plus a column the desk does not read: ignored
    "bare_cr",  # valid, lines ending in \r alone (old Mac exports)
    "duplicate_name",
    "registered_name",
    "duplicate_key",
    "registered_key",
    "duplicate_ema",
    "registered_ema",
    "bad_ema",
    "bad_status",
    "bad_substitute",
    "long_name",
    "long_country",
    "long_club",
    "long_key",
    "missing_name",
    "no_name_column",
    "header_only",
    "blank",
    "empty",
    "encoding",
    "huge_cell",
    "random_bytes",
    "corrupt_xlsx",
]


@st.composite
def player_files(draw, fault):
    """(file name, bytes, expected message or None when valid, the stored rows when valid)."""
    columns, rows = draw(player_rows())
    if fault == "corrupt_xlsx":
        xlsx = True
    elif fault in CSV_ONLY:
        xlsx = False
    else:
        xlsx = draw(st.booleans())
    i = draw(st.integers(0, len(rows) - 1))
    at = i + 2  # the row's number in the spreadsheet: the header is row 1
    header = [draw(st.sampled_from(HEADERS[c])) for c in columns]
    expected = None

    def need(column):
        if column not in columns:
            columns.append(column)
            header.append(column)

    def twin(**fields):
        """A copy of row 0 at the end of the list; its row number."""
        rows.append({**rows[0], "name": rows[0]["name"] + " Bis", "key": "", "ema_id": ""})
        rows[-1].update(fields)
        return len(rows) + 1

    if fault == "unknown_column":
        header.append(draw(st.sampled_from(["nickname", "Rating", "points", "e-mail"])))
        columns.append("?")
        for row in rows:
            row["?"] = draw(WORD)
    elif fault == "duplicate_name":
        name = rows[0]["name"]
        at = twin(name=draw(st.sampled_from([name, name.upper(), name.lower()])))
        expected = f"Row {at}, column “name”: {rows[-1]['name']} appears twice (also row 2)."
    elif fault == "registered_name":
        rows[i]["name"] = draw(st.sampled_from(["Player 02", "PLAYER 02", "player 02"]))
        expected = f"Row {at}, column “name”: {rows[i]['name']} is already registered."
    elif fault == "duplicate_key":
        need("key")
        rows[0]["key"] = rows[0]["key"] or "dup"
        at = twin(key=rows[0]["key"])
        expected = f"Row {at}, column “key”: key “{rows[0]['key']}” is used twice."
    elif fault == "registered_key":
        need("key")
        rows[i]["key"] = "p02"
        expected = f"Row {at}, column “key”: key “p02” is used twice."
    elif fault == "duplicate_ema":
        need("ema_id")
        rows[0]["ema_id"] = rows[0]["ema_id"] or "12345678"
        at = twin(ema_id=rows[0]["ema_id"])
        expected = (
            f"Row {at}, column “ema_id”: EMA id {rows[0]['ema_id']} appears twice (also row 2)."
        )
    elif fault == "registered_ema":
        need("ema_id")
        rows[i]["ema_id"] = "07000001"
        expected = f"Row {at}, column “ema_id”: EMA id 07000001 is already registered."
    elif fault == "bad_ema":
        need("ema_id")
        # Seven digits not starting with 0 are an id that lost its leading zero: padded.
        rows[i]["ema_id"] = draw(
            st.integers(0, 999999).map(str)
            | st.integers(10**8, 10**12).map(str)
            | st.text("0123456789ab.-", min_size=1, max_size=10).filter(
                lambda v: not (len(v) in (7, 8) and v.isdigit())
            )
        )
        expected = f"Row {at}, column “ema_id”: “{rows[i]['ema_id']}” is not an EMA id"
    elif fault == "bad_status":
        need("status")
        rows[i]["status"] = draw(WORD.filter(lambda v: v.lower() not in STATUSES))
        expected = f"Row {at}, column “status”: unknown status “{rows[i]['status']}”"
    elif fault == "bad_substitute":
        need("substitute")
        rows[i]["substitute"] = draw(WORD.filter(lambda v: v.lower() not in YES_NO))
        expected = f"Row {at}, column “substitute”: “{rows[i]['substitute'].lower()}”"
    elif fault == "long_name":
        rows[i]["name"] = draw(st.text(st.sampled_from(NAME_LETTERS), min_size=201, max_size=300))
        expected = f"Row {at}, column “name”: the name is longer than 200 characters."
    elif fault in ("long_country", "long_club", "long_key"):
        column = fault[5:]
        limit = Player._meta.get_field(column).max_length
        need(column)
        rows[i][column] = draw(st.text("abcxyz0123", min_size=limit + 1, max_size=limit + 80))
        expected = f"Row {at}, column “{column}”: longer than {limit} characters."
    elif fault == "missing_name":
        rows[i]["name"] = ""
        need("club")  # so the row is not a blank line
        rows[i]["club"] = "Somewhere"
        expected = f"Row {at}, column “name”: the name is missing."
    elif fault == "no_name_column":
        header[0] = draw(st.sampled_from(["nom", "gracz", "names", "nickname"]))
        expected = "Row 1: there is no “name” column."
    elif fault == "header_only":
        rows = []
        expected = "The list has a header but no players."
    lines = [[row[c] for c in columns] for row in rows]
    if xlsx:
        name = draw(st.sampled_from(["players.xlsx", "LIST.XLSX"]))
        content = xlsx_bytes(header, lines)
    else:
        name = draw(st.sampled_from(["players.csv", "list.txt", "players"]))
        delimiter = draw(st.sampled_from([",", ";", "\t"]))
        newline = "\r" if fault == "bare_cr" else draw(st.sampled_from(["\n", "\r\n"]))
        content = csv_bytes(header, lines, delimiter, newline, bom=draw(st.booleans()))
    if fault == "corrupt_xlsx":
        how = draw(st.sampled_from(["truncate", "sheet", "drop_sheet"]))
        if how == "truncate":
            content = content[: draw(st.integers(1, len(content) - 1))]
        elif how == "sheet":
            cut = draw(st.integers(1, 200))
            content = rezip(content, lambda n, part: part[:-cut] if "worksheets/" in n else part)
        else:
            content = rezip(content, lambda n, part: None if "worksheets/" in n else part)
        expected = "The file is not a readable XLSX workbook."
    elif fault == "blank":
        content = draw(st.sampled_from(["\n", "\r\n", ",,\n", ";\n\n", " \n", "\ufeff\n"]))
        content = content.encode()
        expected = "The file is empty."
    elif fault == "encoding":
        codec, word = draw(
            st.sampled_from(
                # Windows-1251 with Cyrillic in it is read (test_limits); these are not
                [("latin-1", "Zoë Müller"), ("utf-16", "Anna")]
            )
        )
        lines[i][0] = word
        text = "\n".join(",".join(cells) for cells in [header, *lines]) + "\n"
        content = text.encode(codec, errors="replace")
        expected = "The file is not UTF-8 text: save the CSV as UTF-8."
    elif fault == "huge_cell":  # past the csv module's 131,072-character field limit
        content += b"x" * draw(st.integers(140_000, 300_000)) + b"\n"
        expected = "The file is not a readable CSV list: field larger than field limit"
    elif fault == "random_bytes":
        content = draw(st.binary(min_size=1, max_size=300))
        expected = "Nothing was imported."
    elif fault == "empty":
        content = b""
        expected = "The submitted file is empty."
    return name, content, expected, [stored_player(row) for row in rows]


def players_of(t):
    fields = ("name", "ema_id", "country", "club", "team", "substitute", "status")
    return sorted(
        (dict(zip(fields, values, strict=True)) for values in t.players.values_list(*fields)),
        key=lambda row: row["name"],
    )


@pytest.mark.parametrize("fault", LIST_FAULTS)
@fuzz(4)
@given(case=st.data())
def test_player_import_refuses_bad_lists_whole_and_imports_good_ones(registry, fault, case):
    name, content, expected, rows = case.draw(player_files(fault))
    client, t = registry["client"], registry["tournament"]
    client.cookies.pop("messages", None)
    with rolled_back():
        before = snapshot()
        existing = players_of(t)
        response = upload(client, t, name, content)
        assert response.status_code == 200
        assert snapshot() == before, "the preview saved something"
        confirm = f.confirm_import(client, t, response)
        if expected is None:
            assert f"Preview: {len(rows)} player" in page(response)
            assert confirm.redirect_chain[-1][0] == f"/desk/{t.slug}/players/"
            assert players_of(t) == sorted(existing + rows, key=lambda row: row["name"])
        else:
            if fault == "random_bytes" and "Preview:" in page(response):
                # Noise that happens to read as a list is a list: it imports what it showed.
                assert confirm.redirect_chain[-1][0] == f"/desk/{t.slug}/players/"
                return
            assert expected in page(response)
            assert "Preview:" not in page(response)
            assert "The preview expired: upload the file again." in page(confirm)
            assert snapshot() == before


def test_player_lists_over_the_row_limit_are_refused(registry):
    client, t = registry["client"], registry["tournament"]
    lines = [[f"Player {n:05d}"] for n in range(MAX_ROWS + 1)]
    big = [[f"P{n}", "c" * 360] for n in range(30_000)]  # over the desk's 10 MB upload size
    before = snapshot()
    for name, content in [
        ("players.csv", csv_bytes(["name"], lines)),
        ("players.xlsx", xlsx_bytes(["name"], lines)),
    ]:
        response = upload(client, t, name, content)
        assert f"The list has more than {MAX_ROWS} rows." in page(response)
        assert snapshot() == before
    # Issue 34 (7): past the upload limit, refused before the body is read.
    response = upload(client, t, "players.csv", csv_bytes(["name", "club"], big))
    assert response.status_code == 413
    assert "the desk takes at most 10.0\xa0MB in one request" in page(response)
    assert snapshot() == before


def test_an_xlsx_that_claims_a_huge_sheet_is_read_as_the_cells_it_has(registry):
    """Issue 22 (7): a 1.6 KB workbook whose sheet says it spans A1:XFD6000 grew the server by
    800 MB, every row padded to 16,384 cells. The size a sheet declares is not trusted: only
    its cells are read, up to the limits, so the preview costs what the list does."""
    client, t = registry["client"], registry["tournament"]
    content = xlsx_bytes(["name", "club"], [["Anna Nowak", "Kraków"], ["Jan Kowalski", ""]])
    parts = {}
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        for item in z.namelist():
            parts[item] = z.read(item)
    sheet = next(n for n in parts if n.startswith("xl/worksheets/sheet"))
    parts[sheet] = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD6000"', parts[sheet])
    assert b"XFD6000" in parts[sheet]
    forged = io.BytesIO()
    with zipfile.ZipFile(forged, "w", zipfile.ZIP_DEFLATED) as z:
        for item, data in parts.items():
            z.writestr(item, data)
    tracemalloc.start()
    try:
        parsed = parse_player_list("forged.xlsx", forged.getvalue())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [row["name"] for row in parsed.rows] == ["Anna Nowak", "Jan Kowalski"]
    assert peak < 20 * 2**20, peak  # padding every row would take hundreds of megabytes
    response = upload(client, t, "forged.xlsx", forged.getvalue())
    assert "Preview: 2 players" in page(response)


# --- the tournament file ----------------------------------------------------------------------


def at(hour, minute=0):
    return datetime(2026, 2, 17, hour, minute, tzinfo=UTC)


def nodes(value, path=()):
    """(path, value) of every value in a parsed file, the file itself first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, (*path, index))


def dotted(path) -> str:
    """A path as TournamentFileError writes it: sessions[0].tables[1].seats[2].score."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else f".{step}" if text else step
    return text


def parent_of(data, path):
    for step in path[:-1]:
        data = data[step]
    return data


def attempt(content):
    """Import the file in a savepoint that is rolled back: None when it imported, else the
    refusal, after checking that the refusal left every row as it was."""
    with rolled_back():
        before = snapshot()
        try:
            import_tournament(content)
        except TournamentFileError as e:
            assert e.message, "a refusal without a message"
            assert snapshot() == before, f"refused ({e}) but rows changed"
            return e
    return None


REFERENCE = re.compile(
    r"is not the (number of a (session|table)|key of a player|index of an entry)"
    r"|the file's \w+ is empty"
)


def near(error, path) -> bool:
    """The refusal names the changed value, something inside it, a record holding it, or a
    reference to what was changed (a penalty's session when the sessions went)."""
    if REFERENCE.search(error.message) and path[0] in REFERENCED:
        return True
    if "history" in path:  # a table's current version is on its seats as well
        path = path[: path.index("history")]
    changed = dotted(path)
    return any(
        a == b or a.startswith(b + ".") or a.startswith(b + "[")
        for a, b in [(error.path, changed), (changed, error.path)]
    )


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


def kind_of(value):
    return "int" if type(value) is int else type(value).__name__


OTHER_TYPES = {
    kind: st.sampled_from([True, False])
    if kind == "bool"
    else st.integers(-(10**6), 10**6)
    if kind == "int"
    else st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
    if kind == "float"
    else st.text(max_size=10)
    if kind == "str"
    else st.lists(st.integers(), max_size=2)
    if kind == "list"
    else st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)
    for kind in ("bool", "int", "float", "str", "list", "dict")
}
REFERENCED = ("players", "sessions", "penalties", "voided_penalties", "incidents")
PLAYER_REFS = {"player", "replaces", "substitute", "appellant", "now"}
FILE_OPS = [
    "unknown_key",
    "delete_key",
    "wrong_type",
    "bad_number",
    "empty_text",
    "break_sum",
    "break_draft",
    "unknown_player",
    "truncate",
    "not_utf8",
]


@pytest.fixture
def sources():
    return source_files()


def is_draft(data, path) -> bool:
    """Whether the path is inside a draft version of a table's history."""
    if len(path) < 6 or path[0] != "sessions" or path[4] != "history":
        return False
    return data["sessions"][path[1]]["tables"][path[3]]["history"][path[5]]["status"] == "draft"


def encoded(data) -> bytes:
    return dumps(data).encode()


@st.composite
def mutated_files(draw, files, op):
    """(file bytes, the path of the change, what must happen: "import", "refuse" or "either")."""
    name = "riichi" if op == "break_draft" else draw(st.sampled_from(sorted(files)))
    data = copy.deepcopy(files[name])
    everything = list(nodes(data))[1:]

    def change(path, value):
        parent_of(data, path)[path[-1]] = value
        return encoded(data), path

    if op == "unknown_key":
        # The format: an importer ignores keys it does not know. Rule overrides and the winds
        # of an incident's undo are maps, not records, so every key there means something.
        holders = [
            path
            for path, value in [((), data), *everything]
            if isinstance(value, dict) and path[-1:] not in (("rules",), ("winds",))
        ]
        path = (*draw(st.sampled_from(holders)), "x-" + draw(st.text(max_size=8)))
        return *change(path, draw(JSON_VALUES)), "import"
    if op == "delete_key":
        path = draw(st.sampled_from([p for p, _v in everything if isinstance(p[-1], str)]))
        del parent_of(data, path)[path[-1]]
        return encoded(data), path, "either"
    if op == "wrong_type":
        path, old = draw(st.sampled_from(everything))
        new = draw(st.sampled_from([kind for kind in OTHER_TYPES if kind != kind_of(old)]))
        return *change(path, draw(OTHER_TYPES[new])), "either"
    if op == "bad_number":
        numbers = [p for p, v in everything if kind_of(v) in ("int", "float")]
        path = draw(st.sampled_from(numbers))
        huge = [-1, 0, -(10**20), 10**20, 2**63, 2**31, 1.5, -0.25, 1e300]
        return *change(path, draw(st.sampled_from(huge))), "either"
    if op == "empty_text":
        path = draw(st.sampled_from([p for p, v in everything if isinstance(v, str)]))
        return *change(path, draw(st.sampled_from(["", " ", "\t\n"]))), "either"
    if op in ("break_sum", "break_draft"):
        # A table's scores on its seats, or those of a draft in its history: a draft can still
        # be confirmed, so it must add up as well.
        scores = [
            p
            for p, v in everything
            if p[-1] == "score"
            and v is not None
            and (is_draft(data, p) if op == "break_draft" else p[4:5] == ("seats",))
        ]
        path = draw(st.sampled_from(scores))
        step = 100 if data["tournament"]["ruleset"] == "ema-2012" else 1
        old = parent_of(data, path)[path[-1]]
        return *change(path, old + draw(st.integers(1, 50)) * step), "refuse"
    if op == "unknown_player":
        refs = [p for p, v in everything if p[-1] in PLAYER_REFS and isinstance(v, str) and v]
        path = draw(st.sampled_from(refs))
        return *change(path, "nobody-" + draw(st.text(max_size=6))), "refuse"
    content = encoded(data)
    if op == "truncate":
        text = content.decode()
        return text[: draw(st.integers(0, len(text) - 2))].encode(), (), "refuse"
    # not_utf8: a byte of 0x80 or more just before an ASCII one is never UTF-8.
    where = draw(st.sampled_from([i for i, b in enumerate(content) if b < 0x80]))
    byte = bytes([draw(st.integers(0x80, 0xFF))])
    return content[:where] + byte + content[where:], (where,), "refuse"


def test_the_source_files_import_as_they_are(sources):
    for data in sources.values():
        assert attempt(dumps(data).encode()) is None


@pytest.mark.parametrize("op", FILE_OPS)
@fuzz(8)
@given(case=st.data())
def test_tournament_file_refuses_bad_files_naming_the_place(sources, op, case):
    content, path, outcome = case.draw(mutated_files(sources, op))
    error = attempt(content)
    if outcome == "import":
        assert error is None, error
    elif outcome == "refuse":
        assert error is not None
    if error is None:
        return
    if op == "truncate":
        assert error.path == "" and "The file is not valid JSON" in error.message
        assert re.search(r"at line \d+, column \d+\.", error.message)
    elif op == "not_utf8":
        assert error.message == f"The file is not UTF-8 text (byte {path[0]})."
    elif op in ("break_sum", "break_draft"):
        assert error.path.startswith(dotted(path[:4]) + "."), (dotted(path), str(error))
        assert "The scores add up to" in error.message
    else:
        assert error.path, error
        assert near(error, path), (dotted(path), str(error))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda text: b"", "The file is not valid JSON: Expecting value at line 1, column 1."),
        (lambda text: b" \n\t", "The file is not valid JSON: Expecting value"),
        (lambda text: "\ufeff".encode(), "The file is not valid JSON: Expecting value"),
        (lambda text: text.encode("utf-16"), "The file is not UTF-8 text (byte 0)."),
        (lambda text: text.encode("utf-32"), "The file is not UTF-8 text (byte 0)."),
        (lambda text: text.encode("latin-1", "replace"), "The file is not UTF-8 text (byte"),
        (lambda text: text.encode("cp1251", "replace"), "The file is not UTF-8 text (byte"),
        (lambda text: b"\x00" * 1000, "The file is not valid JSON"),
        (lambda text: b"[" * 200_000, "The file is nested too deeply to be a tournament."),
        (lambda text: b'"' + b"x" * 5_000_000 + b'"', "The file must hold one JSON object."),
    ],
    ids=["empty", "blank", "bom", "utf-16", "utf-32", "latin-1", "cp1251", "nul", "deep", "big"],
)
def test_unreadable_tournament_files_are_refused(sources, make, message):
    error = attempt(make(dumps(sources["riichi"])))
    assert error is not None and error.path == ""
    assert error.message.startswith(message)


def test_huge_tournament_files_are_refused_at_the_first_problem(sources):
    data = sources["riichi"]
    data["players"][1]["name"] = "N" * 1_000_000
    assert str(attempt(dumps(data).encode())) == "players[1].name: is longer than 200 characters"
    data = source_files()["riichi"]
    extra = [{"key": f"x{n}", "name": f"Extra {n}"} for n in range(20_000)]
    data["players"] += extra + [{"key": "last", "name": "Last", "ema_id": "123"}]
    last = len(data["players"]) - 1
    assert str(attempt(dumps(data).encode())) == f'players[{last}].ema_id: "123" is not 8 digits'


@pytest.fixture
def director():
    return f.user("dir", DIRECTOR)


@pytest.mark.parametrize("op", ["wrong_type", "break_sum", "truncate", "not_utf8"])
@fuzz(3)
@given(case=st.data())
def test_import_page_and_command_refuse_bad_files_with_the_place(
    sources, director, tmp_path, op, case
):
    content, _path, _outcome = case.draw(mutated_files(sources, op))
    error = attempt(content)
    if error is None:
        return
    with rolled_back():
        before = snapshot()
        response = f.login(director).post(
            "/desk/import/", {"file": SimpleUploadedFile("t.json", content)}
        )
        assert response.status_code == 200
        assert (str(error) if content else "The submitted file is empty.") in page(response)
        assert snapshot() == before
        file = tmp_path / "t.json"
        file.write_bytes(content)
        with pytest.raises(CommandError) as refused:
            call_command("import_tournament", str(file), stdout=io.StringIO())
        assert str(refused.value) == str(error)
        assert snapshot() == before
