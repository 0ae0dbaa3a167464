"""The tournament workbook and the EMA results sheet (printing.xlsx), opened with openpyxl.

Seeds: 000 EMA 2012 (Ukrainian), 001 Furiten (Russian), 002 SBR Sichuan 2025 (Russian).
"""

import io

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from printing.xlsx.ema import EMA_COLUMNS, ema_results_bytes
from printing.xlsx.tournament import workbook_bytes
from referee.appeals import decide_appeal, file_appeal
from referee.services import record_penalty, substitute, void_penalty
from scoring import feed, selectors
from tests.support import factories as f
from tournament.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

NAMES = {
    "p01": ("Юлія Ґудзь", "04160092", "Ukraine", "Kyiv Riichi", "Dragons"),
    "p02": ("Łukasz Żółć", "19000001", "Poland", "Kraków", "Dragons"),
    "p03": ("Щербаков", "", "Ukraine", "", "Tigers"),
}
# Session 1, 000 §3.6.1 (uma 30,000 / 10,000 / −10,000 / −30,000): "переможець отримує 30000
# очок, гравець на другому місці отримує 10000 очок, гравець на третьому місці штрафується
# -10000 очками, а гравець на останньому місці штрафується - 30000 очками."
S1_SCORES = {"p01": 45000, "p02": 32000, "p03": 28000, "p04": 15000}
S1_RESULTS = {"p01": 45000, "p02": 12000, "p03": -12000, "p04": -45000}
# Table 2 ends all level: "У разі нічії очки за відповідні місця розділяються між рівними
# гравцями", so the four share (30,000 + 10,000 − 10,000 − 30,000) / 4 = 0.
S1_LEVEL = {"p05": 30000, "p06": 30000, "p07": 30000, "p08": 30000}


def rows(ws):
    """The sheet's rows as dicts by heading."""
    values = list(ws.iter_rows(values_only=True))
    return [dict(zip(values[0], row, strict=True)) for row in values[1:]]


def open_book(data: bytes):
    return load_workbook(io.BytesIO(data))


@pytest.fixture
def staff():
    return f.staff()


@pytest.fixture
def ema(staff):
    """Eight players over two EMA sessions, with penalties (one void) and a decided appeal."""
    t = f.tournament("ema-2012", players=8, slug="ema-open", fee=50)
    for key, (name, ema_id, country, club, team) in NAMES.items():
        Player.objects.filter(tournament=t, key=key).update(
            name=name, ema_id=ema_id, country=country, club=club, team=team
        )
    s1 = f.seat_session(t, 1)
    tables = list(s1.tables.order_by("number"))
    f.play(tables[0], list(S1_SCORES.values()), staff["desk1"], staff["desk2"])
    f.play(tables[1], list(S1_LEVEL.values()), staff["desk1"], staff["desk2"])

    s2 = f.seat_session(t, 2, groups=[["p01", "p05", "p02", "p06"], ["p03", "p07", "p04", "p08"]])
    players = {p.key: p for p in t.players.all()}
    # 000 §5.5: misconduct "штрафами в 8000 або 12000 очок", deducted before placement.
    misconduct = record_penalty(s2, players["p02"], "misconduct", staff["referee"], amount=-8000)
    # 000 §5.6: "штраф в 1000 очок за кожну хвилину запізнення".
    record_penalty(s2, players["p05"], "late", staff["referee"], minutes=2)
    wrong = record_penalty(s2, players["p03"], "misconduct", staff["referee"], amount=-12000)
    void_penalty(wrong, staff["director"], "Wrong player")
    t2 = list(s2.tables.order_by("number"))
    # p05 35,000 − 2,000 = 33,000 first; p02 40,000 − 8,000 = 32,000 second.
    f.play(t2[0], [25000, 35000, 40000, 20000], staff["desk1"], staff["desk2"])
    f.play(t2[1], [30000, 30000, 30000, 30000], staff["desk1"], staff["desk2"])

    appeal = file_appeal(
        s2,
        players["p02"],
        "Misconduct penalty",
        staff["referee"],
        penalty=misconduct,
        text="I did not touch the wall.",
    )
    decide_appeal(appeal, staff["director"], "rejected", "head referee", "The penalty stands.")
    t.refresh_from_db()
    return t


def test_sheets_and_frozen_header(ema):
    book = open_book(workbook_bytes(ema))
    assert book.sheetnames == [
        "Standings",
        "Teams",
        "Session 1",
        "Session 2",
        "Players",
        "Penalties",
        "Appeals",
    ]
    # The header row stays in view; Standings also keeps rank and player.
    assert book["Standings"].freeze_panes == "C2"
    for name in book.sheetnames:
        assert book[name].freeze_panes.endswith("2"), name
        assert book[name]["A1"].font.b, name
        assert book[name].column_dimensions["A"].width >= 5


def test_standings_totals_equal_the_feed(ema):
    book = open_book(workbook_bytes(ema))
    sheet = rows(book["Standings"])
    data = feed.feed(ema)["standings"]
    assert [r["Player"] for r in sheet] == [row["player"]["name"] for row in data]
    by_name = {r["Player"]: r for r in sheet}
    for row in data:
        mine = by_name[row["player"]["name"]]
        assert mine["Total"] == row["total"]
        assert mine["Rank"] == row["rank"]
        for line in row["sessions"]:
            assert mine[f"S{line['session']}"] == line["result"]
    # Names in other scripts survive; EMA ids stay text with their leading zero.
    for name, ema_id, country, club, _team in NAMES.values():
        assert by_name[name]["EMA id"] == (ema_id or None)
        assert by_name[name]["Country"] == country
        assert by_name[name]["Club"] == (club or None)
    assert by_name["Юлія Ґудзь"]["EMA id"] == "04160092"
    # 45,000 in session 1 (§3.6.1) and −15,000 in session 2: 25,000 − 30,000 − 10,000.
    assert by_name["Юлія Ґудзь"]["Total"] == 45000 - 15000
    # Łukasz: 12,000, then 40,000 − 8,000 (§5.5) − 30,000 + 10,000 = 12,000.
    assert by_name["Łukasz Żółć"]["S2"] == 12000
    assert by_name["Łukasz Żółć"]["Penalties"] == -8000
    assert "Game points" not in sheet[0]  # EMA 2012 has no tie-break column


def test_riichi_points_are_grouped_integers(ema):
    ws = open_book(workbook_bytes(ema))["Standings"]
    headings = [c.value for c in ws[1]]
    total = ws.cell(row=2, column=headings.index("Total") + 1)
    assert total.number_format == "#,##0"
    names = [c.value for c in ws["B"]]
    ema_id = ws.cell(row=names.index("Юлія Ґудзь") + 1, column=headings.index("EMA id") + 1)
    assert ema_id.value == "04160092" and ema_id.data_type == "s"
    assert ema_id.number_format == "@"


def test_session_sheets_match_the_confirmed_scores(ema):
    book = open_book(workbook_bytes(ema))
    s1 = rows(book["Session 1"])
    keys = {p.name: p.key for p in ema.players.all()}
    assert [(r["Table"], r["Wind"]) for r in s1] == [
        (1, "East"),
        (1, "South"),
        (1, "West"),
        (1, "North"),
        (2, "East"),
        (2, "South"),
        (2, "West"),
        (2, "North"),
    ]
    scores = {keys[r["Player"]]: r["Score"] for r in s1}
    assert scores == S1_SCORES | S1_LEVEL
    results = {keys[r["Player"]]: r["Result"] for r in s1}
    assert {k: results[k] for k in S1_RESULTS} == S1_RESULTS
    assert {results[k] for k in S1_LEVEL} == {0}
    assert [r["Place"] for r in s1[:4]] == [1, 2, 3, 4]
    assert [r["Uma"] for r in s1[:4]] == [30000, 10000, -10000, -30000]

    s2 = {keys[r["Player"]]: r for r in rows(book["Session 2"])}
    # The score column is the sheet's score; the late (§5.6) and misconduct (§5.5) penalties
    # count before placement and are in the penalty column.
    assert s2["p05"]["Score"] == 35000 and s2["p05"]["Penalty"] == -2000
    assert s2["p05"]["Place"] == 1 and s2["p05"]["Result"] == 3000 + 30000
    assert s2["p02"]["Place"] == 2 and s2["p02"]["Result"] == 2000 + 10000
    assert s2["p03"]["Penalty"] == 0  # the void penalty counts nowhere


def test_players_sheet(ema):
    sheet = rows(open_book(workbook_bytes(ema))["Players"])
    assert len(sheet) == 8
    by_name = {r["Name"]: r for r in sheet}
    assert set(NAMES[k][0] for k in NAMES) <= set(by_name)
    julia = by_name["Юлія Ґудзь"]
    assert julia["Key"] == "p01"
    assert julia["Team"] == "Dragons"
    assert julia["Substitute"] == "no"
    assert julia["Status"] == "active"
    assert julia["Checked in"] == "no"


def test_penalties_sheet_marks_void_ones(ema):
    ws = open_book(workbook_bytes(ema))["Penalties"]
    sheet = rows(ws)
    assert [(r["Player"], r["Kind"]) for r in sheet] == [
        ("Łukasz Żółć", "misconduct"),
        ("Player 05", "late arrival"),
        ("Щербаков", "misconduct"),
    ]
    misconduct, late, void = sheet
    assert misconduct["Amount"] == -8000 and misconduct["Counts"] == "before placement"
    assert misconduct["Session"] == 2 and misconduct["Table"] == 1
    assert misconduct["Recorded by"] == "ref" and misconduct["Void"] is None
    assert late["Minutes late"] == 2 and late["Amount"] == -2000
    assert void["Void"] == "void"
    assert void["Voided by"] == "dir" and void["Reason for voiding"] == "Wrong player"
    assert void["Voided"] is not None
    assert ws.cell(row=4, column=3).font.strike  # the void row is struck through
    assert not ws.cell(row=2, column=3).font.strike


def test_appeals_sheet(ema):
    (appeal,) = rows(open_book(workbook_bytes(ema))["Appeals"])
    assert appeal["Appellant"] == "Łukasz Żółć"
    assert appeal["Session"] == 2
    assert appeal["Decision appealed"] == "Misconduct penalty"
    assert appeal["Penalty appealed"] == "misconduct: Łukasz Żółć, session 2"
    assert appeal["Appeal text"] == "I did not touch the wall."
    assert appeal["Status"] == "rejected"
    assert appeal["Decided by"] == "head referee"
    assert appeal["Decision"] == "The penalty stands."
    assert appeal["Deposit returned"] == "no"  # 002 §2.9: kept when the appeal is lost
    assert appeal["Deposit"] == 0  # EMA 2012 sets no deposit (appeal_deposit_fees 0)
    assert appeal["Filed"] is not None and appeal["Decided"] is not None


def test_team_sheet(ema):
    teams = rows(open_book(workbook_bytes(ema))["Teams"])
    data = selectors.standings(ema).teams
    assert [(r["Team"], r["Total"]) for r in teams] == [(t.team, t.total) for t in data]
    dragons = next(r for r in teams if r["Team"] == "Dragons")
    assert dragons["Members"] in ("Юлія Ґудзь, Łukasz Żółć", "Łukasz Żółć, Юлія Ґудзь")


def test_ema_results_sheet(ema):
    book = open_book(ema_results_bytes(ema))
    (ws,) = book.worksheets
    assert ws.freeze_panes == "A2"
    assert tuple(c.value for c in ws[1]) == EMA_COLUMNS
    assert EMA_COLUMNS == ("Place", "EMA number", "Last name", "First name", "Country", "Points")
    sheet = {(r["Last name"], r["First name"]): r for r in rows(ws)}
    data = {row["player"]["name"]: row for row in feed.feed(ema)["standings"]}
    # Latin names (docs/features/players-and-names.md, "Latin names"): Ukrainian letters take the
    # Ukrainian national system.
    julia = sheet[("Gudz", "Yuliia")]
    assert julia["EMA number"] == "04160092"
    assert julia["Country"] == "Ukraine"
    assert julia["Points"] == data["Юлія Ґудзь"]["total"]
    assert julia["Place"] == data["Юлія Ґудзь"]["rank"]
    assert sheet[("Żółć", "Łukasz")]["Points"] == data["Łukasz Żółć"]["total"]
    # One word is a last name; from Ukraine, so the Ukrainian system (ICAO would agree here).
    assert sheet[("Shcherbakov", None)]["EMA number"] is None
    places = [r["Place"] for r in rows(ws)]
    assert places == sorted(places) and len(places) == 8


def test_ema_sheet_latin_names_and_particles(ema, client, staff):
    """The EMA sheet through its address: the Latin first and last name each in its column —
    as typed, transliterated, or split with the surname's particles — never Cyrillic."""
    players = {p.key: p for p in ema.players.all()}
    # Only the whole name known: "van den" stays with the surname.
    Player.objects.filter(pk=players["p04"].pk).update(name="Jan van den Berg", country="NL")
    # First and last name known (a Russian order would split wrongly): they are used as given.
    Player.objects.filter(pk=players["p05"].pk).update(
        name="Щербакова Юлия Петровна", first_name="Юлия Петровна", last_name="Щербакова"
    )
    # A Latin name typed by the director wins over the transliteration.
    Player.objects.filter(pk=players["p06"].pk).update(
        name="Олександр Шевченко", latin_first_name="Alexander", latin_last_name="Schewtschenko"
    )
    # Typed first and last name in Latin script stay as they are.
    Player.objects.filter(pk=players["p07"].pk).update(
        name="Maria de la Cruz Ruiz", first_name="Maria", last_name="de la Cruz Ruiz"
    )
    client.force_login(staff["director"])
    response = client.get(f"/desk/{ema.slug}/ema-results.xlsx")
    assert response.status_code == 200
    sheet = {r["EMA number"] or r["Last name"]: r for r in rows(open_book(response.content).active)}
    names = {(r["Last name"], r["First name"]) for r in sheet.values()}
    assert ("van den Berg", "Jan") in names
    # ICAO Doc 9303 (Russian passports): Щ shch, Ю iu, Я ia; the tournament prints in English.
    assert ("Shcherbakova", "Iuliia Petrovna") in names
    assert ("Schewtschenko", "Alexander") in names
    assert ("de la Cruz Ruiz", "Maria") in names
    assert ("Gudz", "Yuliia") in names and ("Żółć", "Łukasz") in names
    cyrillic = [v for r in sheet.values() for v in (r["Last name"], r["First name"]) if v]
    assert not [v for v in cyrillic if any("\u0400" <= c <= "\u04ff" for c in v)]


def test_furiten_rating_has_one_decimal(staff):
    """001 §13.2: "Рейтинговые баллы вычисляются с точностью до одной десятой балла";
    §13.3: (score − 30,000) / 1,000; §13.4: +9 / +3 / −3 / −9."""
    t = f.tournament("furiten-club", players=4, slug="furiten")
    s1 = f.seat_session(t, 1)
    f.play(s1.tables.get(), [42300, 31200, 27000, 19500], staff["desk1"], staff["desk2"])
    t.refresh_from_db()
    ws = open_book(workbook_bytes(t))["Standings"]
    sheet = rows(ws)
    assert [r["Total"] for r in sheet] == [21.3, 4.2, -6, -19.5]
    headings = [c.value for c in ws[1]]
    for row in range(2, 6):
        assert ws.cell(row=row, column=headings.index("Total") + 1).number_format == "#,##0.0"


def test_sichuan_tp_up_to_two_decimals_and_game_points(staff):
    """002 §2.7.5: TP 4, 3, 2, 1 by GP; "В случае равенства мест соответствующие турнирные
    очки распределяются поровну" — two tied for first get (4 + 3) / 2 = 3.5."""
    t = f.tournament("sbr-2025", players=4, slug="sbr")
    s1 = f.seat_session(t, 1)
    f.play(s1.tables.get(), [10, 10, -5, -15], staff["desk1"], staff["desk2"])
    t.refresh_from_db()
    book = open_book(workbook_bytes(t))
    ws = book["Standings"]
    sheet = rows(ws)
    assert [(r["Total"], r["Game points"]) for r in sheet] == [
        (3.5, 10),
        (3.5, 10),
        (2, -5),
        (1, -15),
    ]
    headings = [c.value for c in ws[1]]
    total = headings.index("Total") + 1
    assert ws.cell(row=2, column=total).number_format == "#,##0.0"
    assert ws.cell(row=4, column=total).number_format == "#,##0"
    session = rows(book["Session 1"])
    assert [r["TP"] for r in session] == [3.5, 3.5, 2, 1]
    assert "Teams" not in book.sheetnames


def test_command_writes_the_workbook_and_the_ema_sheet(ema, tmp_path):
    out = tmp_path / "ema-open.xlsx"
    call_command("export_xlsx", "ema-open", "-o", str(out), stdout=io.StringIO())
    assert load_workbook(out).sheetnames[0] == "Standings"
    ema_out = tmp_path / "ema-results.xlsx"
    call_command("export_xlsx", "ema-open", "-o", str(ema_out), "--ema", stdout=io.StringIO())
    assert tuple(c.value for c in load_workbook(ema_out).active[1]) == EMA_COLUMNS


def test_command_refuses_an_unknown_slug(tmp_path):
    out = tmp_path / "nothing.xlsx"
    with pytest.raises(CommandError, match="No tournament with the slug nope"):
        call_command("export_xlsx", "nope", "-o", str(out))
    assert not out.exists()


def test_substitutes_are_listed_apart_and_noted_in_the_session(staff):
    """000 §5.7: "Замінений гравець отримає 0 очок і ума-штраф -30000 очок за кожну
    пропущену сесію"; the substitute's own line is also 0 and −30,000, and unranked."""
    t = f.tournament("ema-2012", players=4, slug="subs")
    sub = Player.objects.create(tournament=t, key="s01", name="Щербаков", substitute=True)
    s1 = f.seat_session(t, 1)
    player = t.players.get(key="p04")
    substitute(s1, player, sub, "start", staff["director"])
    f.play(s1.tables.get(), [45000, 32000, 28000, 15000], staff["desk1"], staff["desk2"])
    t.refresh_from_db()
    book = open_book(workbook_bytes(t))
    assert book.sheetnames == [
        "Standings",
        "Substitutes",
        "Session 1",
        "Players",
        "Penalties",
        "Appeals",
    ]
    (sub_row,) = rows(book["Substitutes"])
    assert sub_row["Player"] == "Щербаков" and sub_row["Total"] == -30000
    assert "Rank" not in sub_row
    session = {r["Player"]: r for r in rows(book["Session 1"])}
    assert session["Щербаков"]["Table"] == 1 and session["Щербаков"]["Result"] == -30000
    assert session["Щербаков"]["Note"] == "substitute for Player 04 (from the start)"
    replaced = session["Player 04"]
    assert replaced["Table"] is None and replaced["Result"] == -30000
    assert replaced["Note"] == "replaced by Щербаков"
    standings = {r["Player"]: r["Total"] for r in rows(book["Standings"])}
    assert standings["Player 04"] == -30000
    assert "Щербаков" not in standings
    ema_rows = rows(open_book(ema_results_bytes(t)).active)
    assert [r["Last name"] for r in ema_rows if r["Last name"] == "Щербаков"] == []


def test_text_that_reads_as_a_formula_stays_text_in_both_files(ema):
    """Issue 22 (5, 6), OWASP's CSV-injection advice: a name, country or team that starts with
    =, +, -, @, a tab or a carriage return (or reads as an error code) is written as text with
    Excel's quote prefix, never as a live formula; a control character an .xlsx cannot hold is
    dropped instead of failing the download."""
    typed = {
        "p01": ('=HYPERLINK("http://evil.example","Юлія")', "+1-555", "@dragons"),
        "p02": ("-Łukasz Żółć", "#N/A", "=1+1"),
        "p03": ("Bell\x07 Ringer", "\tTab", "\rReturn"),
    }
    for key, (name, country, team) in typed.items():
        Player.objects.filter(tournament=ema, key=key).update(name=name, country=country, team=team)
    ema.refresh_from_db()
    for data in (workbook_bytes(ema), ema_results_bytes(ema)):
        book = open_book(data)
        for ws in book.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                    if isinstance(cell.value, str) and cell.value[:1] in "=+-@\t\r#":
                        assert cell.data_type == "s" and cell.quotePrefix, cell.value
    players = {r["Name"]: r for r in rows(open_book(workbook_bytes(ema))["Players"])}
    assert players['=HYPERLINK("http://evil.example","Юлія")']["Country"] == "+1-555"
    assert "Bell Ringer" in players
    teams = rows(open_book(workbook_bytes(ema))["Teams"])
    names = {r["Team"] for r in teams}
    assert {"=1+1", "@dragons"} <= names and any(n.endswith("Return") for n in names)
    ema_sheet = rows(open_book(ema_results_bytes(ema)).worksheets[0])
    assert any(r["Country"] == "#N/A" for r in ema_sheet)
