"""Issue 22: what a page accepts, the tournament file restores; what the file refuses, no page
accepts. Each finding of the issue that is about one value has its test here, through the real
URL and the real database: the value is refused with a message naming the field, nothing is
saved, and the backup of what is saved imports again.
"""

import io
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from archive.tournament_file import TournamentFileError, export_tournament, import_tournament
from referee.models import Appeal, Incident
from scoring.models import Penalty, Result
from tests.support import factories as f
from tests.support.tournaments import source_files
from tournament.models import ClockEvent, Player, RuleChange
from tournament.player_import import parse_player_list

pytestmark = pytest.mark.django_db

LONG_TEXT = 100_000  # an incident's, an appeal's and a decision's text
REASON = 10_000  # a rule change's reason
LINE = 300  # a note, a reason for voiding, an appeal's subject


def url(t, name, **kw):
    return reverse(name, kwargs={"slug": t.slug, **kw})


@pytest.fixture
def hall():
    """An EMA tournament with session 1 seated and ended five minutes ago."""
    staff = f.staff()
    t = f.tournament(players=4)
    session = f.seat_session(t)
    session.ended_at = timezone.now() - timedelta(minutes=5)
    session.save()
    return t, staff


def restores(t):
    """The tournament's file imports again (as a copy beside it)."""
    data = json.loads(json.dumps(export_tournament(t)))
    data["tournament"]["slug"] += "-copy"
    return import_tournament(data)


def page(response) -> str:
    assert response.status_code in (200, 400), response.status_code
    return response.content.decode()


def test_a_penalty_note_past_its_length_is_refused(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p01")
    data = {"player": player.pk, "kind": "late", "minutes": 3, "confirm": "1"}
    body = page(
        referee.post(
            url(t, "referee:penalty_add", number=1),
            {**data, "note": "x" * (LINE + 1)},
            follow=True,
        )
    )
    assert "note" in body and f"at most {LINE} characters" in body
    assert not Penalty.objects.exists()
    referee.post(url(t, "referee:penalty_add", number=1), {**data, "note": "x" * LINE})
    assert len(Penalty.objects.get().note) == LINE
    restores(t)


def test_a_reason_for_voiding_past_its_length_is_refused(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p01")
    referee.post(
        url(t, "referee:penalty_add", number=1),
        {"player": player.pk, "kind": "late", "minutes": 3, "confirm": "1"},
    )
    penalty = Penalty.objects.get()
    director = f.login(staff["director"])
    void = url(t, "referee:penalty_void", pk=penalty.pk)
    body = page(director.post(void, {"reason": "x" * (LINE + 1)}, follow=True))
    assert f"at most {LINE} characters" in body
    penalty.refresh_from_db()
    assert not penalty.is_void
    director.post(void, {"reason": "x" * LINE})
    penalty.refresh_from_db()
    assert penalty.is_void
    restores(t)


@pytest.mark.parametrize("where", ["incident", "disqualification", "appeal", "decision"])
def test_long_texts_past_their_length_are_refused(hall, where):
    t, staff = hall
    staff["referee"].groups.add(*staff["director"].groups.all())
    referee = f.login(staff["director"])
    player = t.players.get(key="p01")
    too_long, longest = "x" * (LONG_TEXT + 1), "x" * LONG_TEXT

    def send(text):
        if where == "incident":
            target = url(t, "referee:incident_add", number=1)
            return referee.post(target, {"text": text, "player": player.pk}, follow=True)
        if where == "disqualification":
            target = url(t, "referee:disqualify", pk=player.pk)
            return referee.post(target, {"text": text}, follow=True)
        appeal = {"session": 1, "appellant": player.pk, "subject": "pig", "deposit": "0"}
        if where == "appeal":
            return referee.post(url(t, "referee:appeal_add"), {**appeal, "text": text}, follow=True)
        if not Appeal.objects.exists():
            referee.post(url(t, "referee:appeal_add"), {**appeal, "text": "no"})
        target = url(t, "referee:appeal", pk=Appeal.objects.get().pk)
        decision = {"status": "rejected", "decided_by": "head referee", "decision": text}
        return referee.post(target, decision, follow=True)

    def stored():
        if where in ("incident", "disqualification"):
            return [i.text for i in Incident.objects.all()]
        if where == "appeal":
            return [a.text for a in Appeal.objects.all()]
        return [a.decision for a in Appeal.objects.exclude(decision="")]

    body = page(send(too_long))
    assert f"at most {LONG_TEXT} characters" in body.replace(",", "")
    assert stored() == []
    page(send(longest))
    assert longest in stored()
    restores(t)


def test_a_rule_change_reason_past_its_length_is_refused(hall):
    t, staff = hall
    f.play(
        t.sessions.get().tables.get(), [40000, 30000, 20000, 30000], staff["desk1"], staff["desk2"]
    )
    director = f.login(staff["director"])
    rules = url(t, "desk:rules")
    too_long = {"ruleset": "furiten-club", "reason": "x" * (REASON + 1)}
    body = page(director.post(rules, too_long, follow=True))
    assert f"at most {REASON}" in body.replace(",", "").replace("\u00a0", "")
    assert not RuleChange.objects.exists()
    director.post(rules, {"ruleset": "furiten-club", "reason": "x" * REASON})
    assert RuleChange.objects.get().reason == "x" * REASON
    restores(t)


def test_late_minutes_past_the_limit_are_refused(hall):
    t, staff = hall
    referee = f.login(staff["referee"])
    player = t.players.get(key="p01")
    for minutes in ("40000", "1000", "1e3", "³", "inf", "-1", "0"):
        data = {"player": player.pk, "kind": "late", "minutes": minutes, "confirm": "1"}
        body = page(referee.post(url(t, "referee:penalty_add", number=1), data, follow=True))
        assert "minutes" in body.lower()
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    "minutes", ["9000", "1441", "1e15", "inf", "1e400", "nan", "-inf", "³", "1e3000"]
)
def test_a_session_clock_past_a_day_is_refused(hall, minutes):
    t, staff = hall
    session = t.sessions.get()
    session.ended_at = None
    session.save()
    desk = f.login(staff["desk1"])
    target = reverse("desk:clock_control", kwargs={"slug": t.slug, "number": 1})
    length = {"action": "length", "minutes": minutes, "warning_minutes": 5}
    body = page(desk.post(target, length, follow=True))
    assert "minutes" in body.lower() or "number" in body.lower()
    session.refresh_from_db()
    assert session.length_seconds is None
    for action in ("adjust",):
        page(desk.post(target, {"action": action, "minutes": minutes}, follow=True))
    assert not ClockEvent.objects.filter(kind="adjust").exists()
    desk.post(target, {"action": "length", "minutes": 1440, "warning_minutes": 5})
    session.refresh_from_db()
    assert session.length_seconds == 1440 * 60
    restores(t)


@pytest.mark.parametrize("version", ["³", "1e400", "inf", "-1", "99999999999999999999"])
def test_a_confirmation_of_a_version_that_does_not_parse_is_refused(hall, version):
    t, staff = hall
    table = t.sessions.get().tables.get()
    f.play(table, [40000, 30000, 20000, 30000], staff["desk1"], None)
    desk2 = f.login(staff["desk2"])
    target = reverse("desk:result_confirm", kwargs={"slug": t.slug, "number": 1, "table": 1})
    body = page(desk2.post(target, {"version": version}, follow=True))
    assert "Version" in body
    assert not Result.objects.filter(status="confirmed").exists()


@pytest.mark.parametrize("amount", ["Infinity", "sNaN", "NaN", "-inf", "1e400", "-0.001"])
def test_misconduct_amounts_that_are_no_number_are_refused(hall, amount):
    t, staff = hall
    referee = f.login(staff["director"])
    player = t.players.get(key="p01")
    for kind in ("misconduct", "other"):
        data = {
            "player": player.pk,
            "kind": kind,
            "amount": amount,
            "stage": "after",
            "confirm": "1",
        }
        body = page(referee.post(url(t, "referee:penalty_add", number=1), data, follow=True))
        assert "amount" in body.lower()
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("filed_at", ["0001-01-01T00:00", "9999-12-31T23:59", "0001-01-01"])
def test_an_appeal_filed_at_the_ends_of_the_calendar_is_refused(hall, filed_at):
    t, staff = hall
    director = f.login(staff["director"])
    player = t.players.get(key="p01")
    data = {"session": 1, "appellant": player.pk, "subject": "x", "text": "y", "deposit": "0"}
    target = url(t, "referee:appeal_add")
    body = page(director.post(target, {**data, "filed_at": filed_at}, follow=True))
    assert "filed at" in body.lower() or "Filed at" in body
    assert not Appeal.objects.exists()


def file_refuses(data, where):
    with pytest.raises(TournamentFileError) as refused:
        import_tournament(data)
    assert refused.value.path.startswith(where), (refused.value.path, str(refused.value))
    return refused.value


@pytest.mark.parametrize("value", [1e30, -1e30, 1e16])
def test_a_file_with_an_absurd_uma_is_refused(value):
    data = source_files()["riichi"]
    data["tournament"]["rules"] = {"uma": [value, 10000, -10000, -value]}
    file_refuses(data, "tournament.rules")


@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00Z"]
)
def test_a_file_with_times_at_the_ends_of_the_calendar_is_refused(moment):
    data = source_files()["riichi"]
    data["appeals"][0]["filed_at"] = moment
    file_refuses(data, "appeals[0].filed_at")


@pytest.mark.parametrize("text", ["a\ud800b", "a\x00b", "\udfff"])
def test_a_file_with_a_lone_surrogate_or_a_nul_is_refused(text):
    for place in ("players", "penalties", "incidents"):
        data = source_files()["riichi"]
        field = {"players": "name", "penalties": "note", "incidents": "text"}[place]
        data[place][0][field] = text
        file_refuses(data, f"{place}[0].{field}")


def test_a_file_with_a_key_twice_in_one_object_is_refused():
    data = source_files()["riichi"]
    text = json.dumps(data)
    twice = text.replace('"format":', '"tournament": {}, "format":', 1)
    with pytest.raises(TournamentFileError, match="tournament.*twice|twice.*tournament"):
        import_tournament(twice)


def test_a_csv_with_an_unterminated_quote_is_refused_whole():
    content = 'name,country\n"Anna Kowalska,PL\nBohdan Shevchenko,UA\nCarla Rossi,IT\n'
    parsed = parse_player_list("players.csv", content.encode())
    assert any("quote" in error for error in parsed.errors), parsed.errors
    assert not Player.objects.exists()


def test_a_cyrillic_csv_from_excel_and_ema_ids_without_their_zero_are_read():
    """Issue 23 (confusing on the day): Excel on a Russian or Ukrainian Windows saves a CSV in
    Windows-1251, which was refused; an EMA id that lost its leading zero in a spreadsheet
    ("8000123") was refused instead of padded."""
    content = "name,ema_id\nОлександра Шевченко,8000123\nЮрій Ґудзь,08000124\n".encode("cp1251")
    parsed = parse_player_list("players.csv", content)
    assert parsed.errors == []
    assert [(r["name"], r["ema_id"]) for r in parsed.rows] == [
        ("Олександра Шевченко", "08000123"),
        ("Юрій Ґудзь", "08000124"),
    ]
    latin = "name\nMüller\n".encode("latin-1")  # not Cyrillic: still refused, with the reason
    assert parse_player_list("players.csv", latin).errors == [
        "The file is not UTF-8 text: save the CSV as UTF-8."
    ]


# --- found by the stateful test (tests/integration/desk/test_state_machine.py) -------------------


def test_a_refused_edit_that_empties_the_slug_shows_the_form_again(hall):
    t, staff = hall
    director = f.login(staff["director"])
    target = url(t, "desk:tournament_edit")
    form = {"name": "Test Open", "slug": "", "ruleset": "ema-2012", "planned_sessions": "0"}
    body = page(director.post(target, {**form, "scope": "individual", "fee": "0"}))
    assert "planned sessions" in body.lower() or "Planned sessions" in body
    assert f'href="/desk/{t.slug}/"' in body
    t.refresh_from_db()
    assert t.slug == "test-open" and t.planned_sessions == 4


@pytest.mark.parametrize("planned", ["0", "100", "40000"])
def test_planned_sessions_outside_one_to_99_are_refused(hall, planned):
    t, staff = hall
    director = f.login(staff["director"])
    form = {"name": "Test Open", "slug": t.slug, "ruleset": "ema-2012", "scope": "individual"}
    edit = url(t, "desk:tournament_edit")
    body = page(director.post(edit, {**form, "planned_sessions": planned}))
    assert "planned sessions" in body.lower()
    t.refresh_from_db()
    assert t.planned_sessions == 4
    data = source_files()["riichi"]
    data["tournament"]["sessions"] = int(planned)
    file_refuses(data, "tournament.sessions")


@pytest.mark.parametrize("fee", ["-1", "-0.01"])
def test_a_negative_fee_or_deposit_is_refused(hall, fee):
    t, staff = hall
    director = f.login(staff["director"])
    form = {"name": "Test Open", "slug": t.slug, "ruleset": "ema-2012", "scope": "individual"}
    body = page(
        director.post(url(t, "desk:tournament_edit"), {**form, "planned_sessions": 4, "fee": fee})
    )
    assert "greater than or equal to 0" in body
    t.refresh_from_db()
    assert t.fee == 0
    player = t.players.get(key="p01")
    appeal = {"session": 1, "appellant": player.pk, "subject": "pig", "text": "x", "deposit": fee}
    body = page(director.post(url(t, "referee:appeal_add"), appeal, follow=True))
    assert "greater than or equal to 0" in body
    assert not Appeal.objects.exists()


@pytest.mark.long(26)
def test_the_appeals_log_prints_an_appeal_longer_than_a_page(hall):
    t, staff = hall
    director = f.login(staff["director"])
    player = t.players.get(key="p01")
    for text in ("x" * 5000, "word " * (LONG_TEXT // 5 - 1) + "end"):
        appeal = {"session": 1, "appellant": player.pk, "subject": "pig", "text": text}
        director.post(url(t, "referee:appeal_add"), {**appeal, "deposit": "0"})
    assert Appeal.objects.count() == 2
    printed = director.get(url(t, "printing:appeals_pdf"))
    assert printed.status_code == 200 and printed["Content-Type"] == "application/pdf"
    printed = PdfReader(io.BytesIO(printed.content)).pages
    assert len(printed) > 12  # 100,000 characters at the page's full width
    text = " ".join(page.extract_text() for page in printed)
    assert text.rsplit("Appeals in full", 1)[1].split().count("word") == LONG_TEXT // 5 - 1


@pytest.mark.parametrize("minutes", ["1e20", "1e308", "-1e308", "2e19"])
def test_clock_minutes_too_big_to_count_are_refused(hall, minutes):
    t, staff = hall
    session = t.sessions.get()
    session.ended_at = None
    session.save()
    desk = f.login(staff["desk1"])
    target = reverse("desk:clock_control", kwargs={"slug": t.slug, "number": 1})
    for data in (
        {"action": "length", "minutes": minutes, "warning_minutes": 5},
        {"action": "length", "minutes": 60, "warning_minutes": minutes},
        {"action": "adjust", "minutes": minutes},
        {"action": "adjust", "minutes": 5, "table": minutes},
    ):
        body = page(desk.post(target, data, follow=True))
        assert "minutes" in body.lower() or "table" in body.lower()
    session.refresh_from_db()
    assert session.length_seconds is None
    assert not ClockEvent.objects.filter(kind="adjust").exists()


def test_a_rule_change_a_draft_would_not_hold_under_is_refused(hall):
    """The file checks every draft against the rules (a draft can still be confirmed), so a rule
    change is refused as for a confirmed result: riichi scores of 40,000… are no Sichuan game
    points (docs/rules.md §5: they sum to 0)."""
    t, staff = hall
    f.play(t.sessions.get().tables.get(), [40000, 30000, 20000, 30000], staff["desk1"], None)
    director = f.login(staff["director"])
    rules = url(t, "desk:rules")
    refused = page(director.post(rules, {"ruleset": "sbr-2025"}))
    assert "Session 1, table 1 does not hold under these rules" in refused
    t.refresh_from_db()
    assert t.ruleset == "ema-2012" and not RuleChange.objects.exists()
    restores(t)


def test_a_switch_to_riichi_with_a_three_handed_table_is_refused():
    """002 §3.1: Sichuan seats three at a table; riichi never does (docs/rules.md §3)."""
    staff = f.staff()
    t = f.tournament("sbr-2025", players=7)
    f.seat_session(t)
    director = f.login(staff["director"])
    refused = page(director.post(url(t, "desk:rules"), {"ruleset": "ema-2012"}))
    assert "Session 1, table 2 does not hold under these rules" in refused
    assert "A riichi table has 4 players, not 3." in refused
    t.refresh_from_db()
    assert t.ruleset == "sbr-2025"
    restores(t)


@pytest.mark.parametrize("text", ["Furi\ufffften", "\ufffe", "a\ufdd0b"])
def test_a_noncharacter_is_refused_as_a_control_character(hall, text):
    t, staff = hall
    director = f.login(staff["director"])
    target = url(t, "desk:player_add")
    body = page(director.post(target, {"name": "New Player", "club": text, "status": "active"}))
    assert "Control characters" in body
    assert not t.players.filter(name="New Player").exists()
    data = source_files()["riichi"]
    data["players"][0]["club"] = text
    file_refuses(data, "players[0].club")
