"""Winds drawn at the table (issue 24): the wind-tile seating of SBR 002 §2.4.6 and EMA 000 §2.3.

"A tournament setting chooses 'winds from the desk's draw' (today) or 'winds drawn at the
table': then seating lists and charts show tables only, the table page's first step records who
drew East, South, West and North (the desk's result form can record it too), and the seating
figures say that winds are left to the tiles." Through the desk's and the public's real URLs.
"""

import io
import re

import pytest
from pypdf import PdfReader

from archive.tournament_file import export_tournament, import_tournament
from core.errors import ActionRefused
from scoring.models import Result
from seating.models import Seat, SeatingChange, Table
from seating.selectors import pending_tables, winds_pending
from seating.services import record_table_winds
from tests.support import factories as f
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

TILES = "The winds are left to the tiles drawn at each table."


@pytest.fixture
def staff():
    return f.staff()


def table_mode(players=8):
    """Two tables of riichi whose winds are drawn at the table: p01–p04 at table 1, p05–p08
    at table 2, seated by the desk E, S, W, N in key order."""
    t = f.tournament(players=players, winds=Tournament.Winds.TABLE)
    session = f.seat_session(t)
    return t, session


def winds_of(table) -> dict:
    return {s.wind: s.player.key for s in table.seats.select_related("player")}


def pk(t, key) -> int:
    return t.players.get(key=key).pk


def flat(text: str) -> str:
    return " ".join(text.split())


def heading(name: str, page: str) -> bool:
    """A table column headed `name` on the page."""
    return re.search(rf"<th[^>]*>\s*{name}\s*</th>", page) is not None


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    return flat(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))


# --- the setting ------------------------------------------------------------------------------


def test_the_setting_is_chosen_on_the_tournament_edit_form(staff):
    t = f.tournament(players=4)
    assert t.winds == Tournament.Winds.DESK  # today's behaviour stays the default
    director = f.login(staff["director"])
    form = director.get(f"/desk/{t.slug}/edit/").content.decode()
    assert "winds drawn at the table" in form and "winds from the desk&#x27;s draw" in form
    edit = {
        "name": t.name,
        "slug": t.slug,
        "planned_sessions": 4,
        "fee": "0",
        "scope": "individual",
        "keep_apart": "",
        "language": "en",
        "time_zone": "Europe/Warsaw",
        "winds": "table",
    }
    assert director.post(f"/desk/{t.slug}/edit/", edit).status_code == 302
    t.refresh_from_db()
    assert t.winds == Tournament.Winds.TABLE
    edit["winds"] = "tiles"
    refused = director.post(f"/desk/{t.slug}/edit/", edit)
    assert refused.status_code == 200
    assert "Select a valid choice. tiles is not one of the available choices." in (
        refused.content.decode()
    )
    t.refresh_from_db()
    assert t.winds == Tournament.Winds.TABLE


# --- what the lists, charts and pages show ----------------------------------------------------


def test_lists_charts_and_public_pages_show_tables_only_until_the_winds_are_drawn(staff):
    t, session = table_mode()
    desk = f.login(staff["desk1"])
    page = desk.get(f"/desk/{t.slug}/s/1/").content.decode()
    assert "winds not drawn yet" in page
    assert not heading("East", page) and heading("Players", page)  # one column of the players
    assert TILES in page
    # The figures leave the wind counts out and say why.
    assert "worst wind imbalance" not in page and "Winds sat by each player" not in page
    assert "left to the tiles drawn at each table" in page

    printed = desk.get(f"/desk/{t.slug}/s/1/print/").content.decode()
    assert TILES in printed
    assert not heading("East", printed) and not heading("Wind", printed)
    assert "Player 01 · Player 02 · Player 03 · Player 04" in printed

    chart = pdf_text(desk.get(f"/desk/{t.slug}/s/1/seating.pdf").content)
    assert TILES in chart
    for wind in ("East", "South", "West", "North", "Wind"):
        assert wind not in chart
    assert "Player 05" in chart

    found = f.Client().get(f"/t/{t.slug}/find/", {"q": "Player 01"}).content.decode()
    assert "Player 01" in found and "Player 02" in found  # the others at the table
    assert "East" not in found and "South" not in found and not heading("Wind", found)
    player = f.Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "Session 1: table 1, winds drawn at the table" in player
    assert "East" not in player

    # Table 1 draws its winds; table 2 has not yet.
    record_table_winds(
        Table.objects.get(session=session, number=1),
        {"E": pk(t, "p03"), "S": pk(t, "p01"), "W": pk(t, "p04"), "N": pk(t, "p02")},
        staff["desk1"],
    )
    page = desk.get(f"/desk/{t.slug}/s/1/").content.decode()
    assert "East Player 03 · South Player 01 · West Player 04 · North Player 02" in page
    assert page.count("winds not drawn yet") == 1  # table 2 only
    player = f.Client().get(f"/t/{t.slug}/p/p01/").content.decode()
    assert "Session 1: table 1, South" in player
    found = f.Client().get(f"/t/{t.slug}/find/", {"q": "Player 0"}).content.decode()
    assert "South" in found  # table 1's winds are known now
    chart = pdf_text(desk.get(f"/desk/{t.slug}/s/1/seating.pdf").content)
    assert "South" in chart
    # The blank protocols: table 1 under its drawn winds; table 2 lists its players and leaves
    # each wind's name to be written in.
    protocols = pdf_text(desk.get(f"/desk/{t.slug}/s/1/protocols.pdf").content)
    table_1, table_2 = protocols.split("— table 2")
    assert "East Player 03" in table_1 and "Winds drawn at the table" not in table_1
    assert "Winds drawn at the table; players: Player 05, Player 06, Player 07, Player 08" in (
        table_2
    )
    assert "East Player 05" not in table_2


def test_winds_from_the_desk_show_as_before(staff):
    t = f.tournament(players=4)
    session = f.seat_session(t)
    desk = f.login(staff["desk1"])
    page = desk.get(f"/desk/{t.slug}/s/1/").content.decode()
    assert heading("East", page) and "winds not drawn yet" not in page and TILES not in page
    assert "worst wind imbalance" in page
    chart = pdf_text(desk.get(f"/desk/{t.slug}/s/1/seating.pdf").content)
    assert "East" in chart and TILES not in chart
    found = f.Client().get(f"/t/{t.slug}/find/", {"q": "Player 01"}).content.decode()
    assert "East" in found
    assert not winds_pending(session.tables.get())
    assert pending_tables(t) == set()


# --- recording the draw at the desk's result page ---------------------------------------------


def test_the_desk_records_the_winds_on_the_result_page_then_enters_the_scores(staff):
    t, _session = table_mode()
    desk = f.login(staff["desk1"])
    url = f"/desk/{t.slug}/s/1/t/1/"
    page = desk.get(url).content.decode()
    assert 'id="winds-form"' in page and 'id="result-form"' not in page
    for wind in ("East", "South", "West", "North"):
        assert f"Who drew {wind}" in page
    drawn = {"E": pk(t, "p02"), "S": pk(t, "p04"), "W": pk(t, "p01"), "N": pk(t, "p03")}
    response = desk.post(url + "winds/", drawn)
    assert response.status_code == 302 and response["Location"] == url
    table = Table.objects.get(session__tournament=t, number=1)
    assert winds_of(table) == {"E": "p02", "S": "p04", "W": "p01", "N": "p03"}
    assert table.winds_drawn_by == staff["desk1"] and table.winds_drawn_at is not None
    assert not winds_pending(table)
    change = SeatingChange.objects.get(kind=SeatingChange.Kind.WINDS)
    assert change.changed_by == staff["desk1"]
    assert (
        change.detail == "table 1: East Player 02, South Player 04, West Player 01, North Player 03"
    )
    # The seats' own history keeps each step: p01 sat East, then West.
    p01 = Seat.objects.get(player__key="p01")
    assert [h.wind for h in p01.history.order_by("history_date")][0] == "E"
    assert p01.history.order_by("-history_date").first().wind == "W"

    # Now the result entry works as today, by the drawn winds.
    page = desk.get(url).content.decode()
    assert 'id="result-form"' in page and 'id="winds-form"' not in page
    assert "East — Player 02" in page
    scores = {"base_version": 0, "note": ""}
    for wind, score in zip("ESWN", (45000, 35000, 25000, 15000), strict=True):
        scores[f"score_{wind}"] = score
        scores[f"chombo_{wind}"] = 0
    assert desk.post(url, scores).status_code == 302
    result = Result.objects.get(table=table)
    assert {s.wind: s.score for s in result.scores.all()}["E"] == 45000


def test_scores_cannot_be_entered_before_the_winds_are_drawn(staff):
    t, _session = table_mode()
    desk = f.login(staff["desk1"])
    scores = {"base_version": 0, "note": ""}
    for wind, score in zip("ESWN", (45000, 35000, 25000, 15000), strict=True):
        scores[f"score_{wind}"] = score
    refused = desk.post(f"/desk/{t.slug}/s/1/t/1/", scores)
    assert refused.status_code == 400
    assert "Record who drew each wind at this table first." in refused.content.decode()
    assert not Result.objects.exists()


# --- refusals ---------------------------------------------------------------------------------


def test_a_player_twice_is_refused_under_the_wind(staff):
    t, _session = table_mode()
    desk = f.login(staff["desk1"])
    drawn = {"E": pk(t, "p01"), "S": pk(t, "p02"), "W": pk(t, "p01"), "N": pk(t, "p03")}
    refused = desk.post(f"/desk/{t.slug}/s/1/t/1/winds/", drawn)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "West: Player 01 has already drawn another wind." in page
    table = Table.objects.get(session__tournament=t, number=1)
    assert winds_of(table) == {"E": "p01", "S": "p02", "W": "p03", "N": "p04"}
    assert table.winds_drawn_at is None
    assert not SeatingChange.objects.filter(kind=SeatingChange.Kind.WINDS).exists()


def test_a_player_from_another_table_and_a_missing_wind_are_refused(staff):
    t, _session = table_mode()
    desk = f.login(staff["desk1"])
    drawn = {"E": pk(t, "p01"), "S": pk(t, "p02"), "W": pk(t, "p05"), "N": pk(t, "p03")}
    refused = desk.post(f"/desk/{t.slug}/s/1/t/1/winds/", drawn).content.decode()
    assert "West: that player is not at table 1." in refused
    drawn = {"E": pk(t, "p01"), "S": pk(t, "p02"), "W": pk(t, "p03")}
    refused = desk.post(f"/desk/{t.slug}/s/1/t/1/winds/", drawn).content.decode()
    assert "North: choose who drew it." in refused
    assert Table.objects.get(session__tournament=t, number=1).winds_drawn_at is None


def test_refused_after_a_confirmed_result_with_hands_in_a_finished_tournament_or_desk_winds(
    staff,
):
    t, session = table_mode()
    one = Table.objects.get(session=session, number=1)
    same = {"E": pk(t, "p01"), "S": pk(t, "p02"), "W": pk(t, "p03"), "N": pk(t, "p04")}
    record_table_winds(one, same, staff["desk1"])
    f.play(one, (45000, 35000, 25000, 15000), staff["desk1"], staff["desk2"])
    swapped = {"E": pk(t, "p02"), "S": pk(t, "p01"), "W": pk(t, "p03"), "N": pk(t, "p04")}
    with pytest.raises(ActionRefused, match="This table has a result"):
        record_table_winds(one, swapped, staff["desk1"])
    assert winds_of(one) == {"E": "p01", "S": "p02", "W": "p03", "N": "p04"}
    # The result page offers no draw once the result is in.
    page = f.login(staff["desk1"]).get(f"/desk/{t.slug}/s/1/t/1/").content.decode()
    assert 'id="winds-form"' not in page

    # Hands recorded at a table: the draw is what they were played with.
    from scoring.services import record_hand

    two = Table.objects.get(session=session, number=2)
    five_to_eight = {w: pk(t, f"p0{n}") for w, n in zip("ESWN", (5, 6, 7, 8), strict=True)}
    record_table_winds(two, five_to_eight, staff["desk1"])
    record_hand(two, {"result": "draw", "tenpai": []}, staff["desk1"])
    with pytest.raises(ActionRefused, match="recorded hands"):
        record_table_winds(two, five_to_eight, staff["desk1"])

    # A tournament whose winds come from the desk records no draw.
    t.winds = Tournament.Winds.DESK
    t.save()
    session2 = f.seat_session(t, number=2)
    table = session2.tables.order_by("number").first()
    with pytest.raises(ActionRefused, match="come from the desk's draw"):
        record_table_winds(table, {"E": pk(t, "p01")}, staff["desk1"])

    # A finished tournament changes nothing.
    t.winds = Tournament.Winds.TABLE
    t.finished_at = one.session.tournament.created_at
    t.save()
    with pytest.raises(ActionRefused, match="The tournament is finished"):
        record_table_winds(table, same, staff["desk1"])


def test_a_draw_recorded_by_mistake_can_be_recorded_again_before_play(staff):
    t, session = table_mode()
    one = Table.objects.get(session=session, number=1)
    record_table_winds(
        one, {"E": pk(t, "p04"), "S": pk(t, "p03"), "W": pk(t, "p02"), "N": pk(t, "p01")}
    )
    record_table_winds(
        one, {"E": pk(t, "p02"), "S": pk(t, "p01"), "W": pk(t, "p04"), "N": pk(t, "p03")}
    )
    assert winds_of(one) == {"E": "p02", "S": "p01", "W": "p04", "N": "p03"}
    assert SeatingChange.objects.filter(kind=SeatingChange.Kind.WINDS).count() == 2


def test_a_three_player_sichuan_table_draws_three_winds(staff):
    t = f.tournament(ruleset="sbr-2025", players=3, winds=Tournament.Winds.TABLE)
    session = f.seat_session(t)
    table = session.tables.get()
    record_table_winds(table, {"E": pk(t, "p03"), "S": pk(t, "p01"), "W": pk(t, "p02")})
    assert winds_of(table) == {"E": "p03", "S": "p01", "W": "p02"}
    with pytest.raises(ActionRefused, match="no seat for that wind"):
        record_table_winds(
            table,
            {"E": pk(t, "p03"), "S": pk(t, "p01"), "W": pk(t, "p02"), "N": pk(t, "p01")},
        )


# --- the tournament file ----------------------------------------------------------------------


def test_the_tournament_file_keeps_the_setting_and_the_drawn_tables(staff):
    t, session = table_mode()
    one = Table.objects.get(session=session, number=1)
    drawn = {"E": pk(t, "p03"), "S": pk(t, "p04"), "W": pk(t, "p01"), "N": pk(t, "p02")}
    record_table_winds(one, drawn, staff["desk1"])
    one.refresh_from_db()
    data = export_tournament(t)
    assert data["tournament"]["winds"] == "table"
    first, second = data["sessions"][0]["tables"]
    assert first["winds_drawn_by"] == "desk1" and first["winds_drawn_at"]
    assert [s["player"] for s in first["seats"]] == ["p03", "p04", "p01", "p02"]
    assert "winds_drawn_at" not in second and "winds_drawn_by" not in second

    data["tournament"]["slug"] = "test-open-copy"
    copy_ = import_tournament(data)
    assert copy_.winds == Tournament.Winds.TABLE
    copied = Table.objects.get(session__tournament=copy_, number=1)
    assert copied.winds_drawn_at == one.winds_drawn_at
    assert copied.winds_drawn_by == staff["desk1"]
    assert winds_of(copied) == {"E": "p03", "S": "p04", "W": "p01", "N": "p02"}
    assert winds_pending(Table.objects.get(session__tournament=copy_, number=2))
    again = export_tournament(copy_)
    again["tournament"]["slug"] = data["tournament"]["slug"]
    assert again == data

    # A file without the key is a tournament whose winds come from the desk.
    del data["tournament"]["winds"]
    data["tournament"]["slug"] = "test-open-older"
    assert import_tournament(data).winds == Tournament.Winds.DESK


def test_the_random_draw_promises_no_winds_when_the_tables_draw_them(staff):
    """The s44 day run: the session page's random draw said "at random tables with random
    winds" in a tournament whose winds are drawn at each table (002 §2.4.6)."""
    from tournament.models import Session

    for winds, said, unsaid in (
        (Tournament.Winds.TABLE, "each table draws its own winds", "random winds"),
        (Tournament.Winds.DESK, "at random tables with random winds", "draws its own winds"),
    ):
        t = f.tournament(players=8, winds=winds, slug=f"draw-{winds}")
        Session.objects.create(tournament=t, number=1)
        page = flat(f.login(staff["director"]).get(f"/desk/{t.slug}/s/1/").content.decode())
        assert "Seats 8 players" in page and said in page and unsaid not in page, winds


def test_find_my_table_finding_nobody_has_no_wind_heading_when_the_tables_draw_them(staff):
    """The s44 day run: in a tournament whose winds are drawn at each table, "find my table"
    listed its "Nobody found" and "registered, but not seated" rows under a Wind heading its
    results never have. A desk-winds tournament keeps the heading."""
    t, session = table_mode()
    t.players.create(key="p09", name="Zofia Lis")
    for q in ("zofia", "nobody-of-that-name"):
        page = f.Client().get(f"/t/{t.slug}/find/", {"q": q}).content.decode()
        assert heading("Table", page) and not heading("Wind", page), q
    desk_winds = f.tournament(players=4, slug="desk-winds")
    f.seat_session(desk_winds)
    page = f.Client().get(f"/t/{desk_winds.slug}/find/", {"q": "nobody"}).content.decode()
    assert heading("Wind", page)
