"""The tournament as one Excel workbook (openpyxl, write-only).

Every number comes from the standings the public feed serialises (`selectors.standings`), so a
total in the workbook is the total on the standings page and in standings.json; penalties and
appeals are read from their records, void penalties included and marked.

Sheets of `workbook_bytes`: Standings, Teams (when players have teams), Substitutes (when
there are any; they are not ranked, 000 §5.7), one "Session N" per session, Hands and Player
statistics (when tables recorded hands: `selectors.hand_statistics`, the numbers of the player
pages and statistics.json), Players, Penalties, Appeals. Headings are translated (the EMA
results sheet's are not: xlsx.ema).
"""

from __future__ import annotations

from operator import attrgetter

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from core.collation import collated
from mahjong.messages import RuleError
from mahjong.units import placement_label
from printing.xlsx.hands import hand_stats_sheet, hands_sheet
from printing.xlsx.kit import (
    INT,
    MONEY,
    RESULT,
    SCORE,
    TEXT,
    WHEN,
    Formats,
    Sheet,
    write_sheet,
    xlsx_bytes,
    yes_no,
)
from referee.models import Appeal
from scoring import selectors
from scoring.models import Penalty
from scoring.selectors import penalties_with_worth
from seating.models import WINDS, Wind
from tournament.models import Player, Session

_VOID = Font(strike=True, color="808080")


def _local(when):
    """Excel has no time zones: the hall's local time, naive."""
    if when is None:
        return None
    return timezone.localtime(when).replace(tzinfo=None) if timezone.is_aware(when) else when


def _user(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _sum(values, decimals):
    total = round(sum(values), decimals)
    return int(total) if float(total).is_integer() else total


# --- sheets ----------------------------------------------------------------------------------


def _player_columns(rows) -> list[tuple[str, str, str]]:
    """(attribute, heading, kind) of the player facts present in these rows."""
    present = [
        ("country", _("Country")),
        ("club", _("Club")),
        ("team", _("Team")),
    ]
    return [
        (attr, heading, TEXT)
        for attr, heading in present
        if any(getattr(r.player, attr) for r in rows)
    ]


def _standings_sheet(title, rows, sessions, rules, ranked=True) -> Sheet:
    facts = _player_columns(rows)
    tiebreak = rules.tiebreak == "game_points"
    columns = [(_("Rank"), INT)] if ranked else []
    columns += [(_("Player"), None), (_("EMA id"), TEXT)]
    columns += [(heading, kind) for _attr, heading, kind in facts]
    columns += [(_("S%(n)d") % {"n": n}, RESULT) for n in sessions]
    columns += [(_("Penalties"), RESULT), (_("Total"), RESULT)]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    sheet = Sheet(title, columns, freeze="C2" if ranked else "B2")
    for row in rows:
        by_session = {line.session: line for line in row.sessions}
        values = [row.rank] if ranked else []
        values += [row.player.name, row.player.ema_id or None]
        values += [getattr(row.player, attr) or None for attr, _h, _k in facts]
        values += [by_session[n].result if n in by_session else None for n in sessions]
        values.append(_sum((line.penalty for line in row.sessions), rules.decimals))
        values.append(row.total)
        if tiebreak:
            values.append(row.tiebreak)
        sheet.add(values)
    return sheet


def _teams_sheet(teams, names, rules) -> Sheet:
    tiebreak = rules.tiebreak == "game_points"
    columns = [(_("Rank"), INT), (_("Team"), None), (_("Members"), None), (_("Total"), RESULT)]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    sheet = Sheet(_("Teams"), columns)
    for team in teams:
        values = [team.rank, team.team, ", ".join(names.get(k, k) for k in team.members)]
        values.append(team.total)
        if tiebreak:
            values.append(team.tiebreak)
        sheet.add(values)
    return sheet


def _session_sheet(number, rows, rules, chombo, names, substitutions) -> Sheet:
    """The confirmed tables of one session in table and wind order, then the lines of players
    without a seat (the replaced player's fixed line, 000 §5.7 / 002 §2.8.4; a penalty only)."""
    tiebreak = rules.tiebreak == "game_points"
    columns = [
        (_("Table"), INT),
        (_("Wind"), None),
        (_("Player"), None),
        (_("Score"), SCORE),
        (_("Chombo"), INT),
        (_("Place"), INT),
        (_(placement_label(rules)), RESULT),
        (_("Penalty"), RESULT),
        (_("Result"), RESULT),
    ]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    columns.append((_("Note"), None))
    sheet = Sheet(_("Session %(number)s") % {"number": number}, columns, freeze="D2")

    # Substitute seats of this session: player key → (replaced player's key, joined).
    seats = substitutions.get(number, {})
    replaced_by = {replaced: sub for sub, (replaced, _joined) in seats.items()}

    lines = []
    for row in rows:
        for line in row.sessions:
            if line.session == number:
                lines.append((row.player, line))
    lines.sort(
        key=lambda pl: (
            pl[1].table is None,
            pl[1].table or 0,
            WINDS.index(pl[1].wind) if pl[1].wind in WINDS else 4,
        )
    )
    for player, line in lines:
        note = ""
        seat = seats.get(player.key)
        if line.table is None:
            if player.key in replaced_by:
                name = names.get(replaced_by[player.key], replaced_by[player.key])
                note = _("replaced by %(name)s") % {"name": name}
            elif line.score is not None:
                note = _("fixed result for the session")
            else:
                note = _("penalty without a seat")
        elif seat is not None:
            replaced, joined = seat
            note = _("substitute for %(name)s (%(joined)s)") % {
                "name": names.get(replaced, replaced),
                "joined": _("during play") if joined == "during" else _("from the start"),
            }
        values = [
            line.table,
            str(Wind(line.wind).label) if line.wind else None,
            player.name,
            line.score,
            chombo.get((number, player.key)) if line.table is not None else None,
            line.place,
            line.uma,
            line.penalty,
            line.result,
        ]
        if tiebreak:
            values.append(line.game_points)
        values.append(note or None)
        sheet.add(values)
    return sheet


def _players_sheet(tournament) -> Sheet:
    columns = [
        (_("Key"), TEXT),
        (_("Name"), None),
        (_("EMA id"), TEXT),
        (_("Country"), None),
        (_("Club"), None),
        (_("Team"), None),
        (_("Substitute"), None),
        (_("Status"), None),
        (_("Checked in"), None),
    ]
    sheet = Sheet(_("Players"), columns, freeze="C2")
    statuses = dict(Player.Status.choices)
    players = Player.objects.filter(tournament=tournament)
    for p in collated(players, tournament.language, attrgetter("name")):
        sheet.add(
            [
                p.key,
                p.name,
                p.ema_id or None,
                p.country or None,
                p.club or None,
                p.team or None,
                yes_no(p.substitute),
                str(statuses.get(p.status, p.status)),
                yes_no(p.checked_in),
            ]
        )
    return sheet


def _penalties_sheet(tournament, rules) -> Sheet:
    columns = [
        (_("Session"), INT),
        (_("Table"), INT),
        (_("Player"), None),
        (_("Kind"), None),
        (_("Minutes late"), INT),
        (_("Amount"), SCORE),  # before placement: the score unit; after: the result unit
        (_("Counts"), None),
        (_("Note"), None),
        (_("Recorded by"), None),
        (_("Recorded"), WHEN),
        (_("Void"), None),
        (_("Voided by"), None),
        (_("Voided"), WHEN),
        (_("Reason for voiding"), None),
    ]
    sheet = Sheet(_("Penalties"), columns, freeze="D2")
    stages = dict(Penalty.Stage.choices)
    for w in penalties_with_worth(tournament):
        p, resolved = w.penalty, w.worth
        if p.is_void:
            # Not resolved: a void record counts nowhere. Show what was recorded.
            amount = float(p.amount) if p.amount is not None else None
            stage = str(stages[p.stage]) if p.stage else ""
            amount_kind = RESULT if p.stage == "after" else SCORE
        elif isinstance(resolved, RuleError) or resolved.fixed:
            amount, stage, amount_kind = None, w.text, SCORE
        else:
            amount = resolved.amount
            stage = str(stages[resolved.stage])
            amount_kind = RESULT if resolved.stage == "after" else SCORE
        sheet.add(
            [
                p.session.number,
                p.table.number if p.table else None,
                p.player.name,
                p.get_kind_display(),
                p.minutes,
                amount,
                stage or None,
                p.note or None,
                _user(p.recorded_by),
                _local(p.recorded_at),
                _("void") if p.is_void else None,
                _user(p.voided_by) or None,
                _local(p.voided_at),
                p.void_reason or None,
            ],
            font=_VOID if p.is_void else None,
            kinds={5: amount_kind},
        )
    return sheet


def _appeals_sheet(tournament) -> Sheet:
    columns = [
        (_("Filed"), WHEN),
        (_("Session"), INT),
        (_("Table"), INT),
        (_("Appellant"), None),
        (_("Filed by the team captain"), None),
        (_("Decision appealed"), None),
        (_("Penalty appealed"), None),
        (_("Incident appealed"), None),
        (_("Appeal text"), None),
        (_("Deposit"), MONEY),
        (_("Reason for accepting it after the window"), None),
        (_("Status"), None),
        (_("Decided by"), None),
        (_("Decision"), None),
        (_("Decided"), WHEN),
        (_("Deposit returned"), None),
        (_("Recorded by"), None),
    ]
    sheet = Sheet(_("Appeals"), columns, freeze="B2")
    appeals = (
        Appeal.objects.filter(tournament=tournament)
        .select_related(
            "session",
            "table",
            "appellant",
            "penalty__player",
            "penalty__session",
            "incident__player",
            "recorded_by",
        )
        .order_by("filed_at", "pk")
    )
    for a in appeals:
        penalty = incident = None
        if a.penalty is not None:
            penalty = _("%(kind)s: %(name)s, session %(session)s") % {
                "kind": a.penalty.get_kind_display(),
                "name": a.penalty.player.name,
                "session": a.penalty.session.number,
            }
            if a.penalty.is_void:
                penalty += " (" + _("void") + ")"
        if a.incident is not None:
            incident = str(a.incident)
        sheet.add(
            [
                _local(a.filed_at),
                a.session.number,
                a.table.number if a.table else None,
                a.appellant.name,
                yes_no(a.captain),
                a.subject,
                penalty,
                incident,
                a.text or None,
                a.deposit,
                a.late_override or None,
                a.get_status_display(),
                a.get_decided_by_display() or None,
                a.decision or None,
                _local(a.decided_at),
                yes_no(a.deposit_returned) or None,
                _user(a.recorded_by) or None,
            ]
        )
    return sheet


def _chombo_counts(tournament) -> dict:
    """(session, player key) → chombos on the confirmed sheet (statistics, 000 §3.4.6)."""
    return {
        (table.session, seat.player): seat.chombo
        for table in selectors.table_rows(tournament)
        for seat in table.seats
    }


# --- statistics from hands (mahjong.hands.stats) ----------------------------------------------


# --- the two files ---------------------------------------------------------------------------


def workbook_bytes(tournament) -> bytes:
    """The whole tournament as one .xlsx: standings, teams, every session, players, penalties
    and appeals, with the same numbers as the standings feed; in the tournament's language."""
    with tournament.printing():
        return _workbook_bytes(tournament)


def _workbook_bytes(tournament) -> bytes:
    rules = tournament.rule_set()
    formats = Formats(rules)
    standings = selectors.standings(tournament)
    everyone = standings.rows + standings.substitutes
    names = {p.key: p.name for p in selectors.player_rows(tournament)}
    played = {line.session for row in everyone for line in row.sessions}
    numbers = set(Session.objects.filter(tournament=tournament).values_list("number", flat=True))
    sessions = sorted(played | numbers)

    sheets = [_standings_sheet(_("Standings"), standings.rows, sessions, rules)]
    if standings.teams:
        sheets.append(_teams_sheet(standings.teams, names, rules))
    if standings.substitutes:
        sheets.append(
            _standings_sheet(_("Substitutes"), standings.substitutes, sessions, rules, False)
        )
    chombo = _chombo_counts(tournament)
    subs = selectors.substitutions(tournament)
    sheets += [_session_sheet(n, everyone, rules, chombo, names, subs) for n in sessions]
    hands = selectors.hand_statistics(tournament)
    if hands:
        sheets += [hands_sheet(hands), hand_stats_sheet(hands)]
    sheets += [_players_sheet(tournament), _penalties_sheet(tournament, rules)]
    sheets.append(_appeals_sheet(tournament))

    wb = Workbook(write_only=True)
    wb.properties.title = tournament.name
    taken = set()
    for sheet in sheets:
        write_sheet(wb, sheet, formats, taken)
    return xlsx_bytes(wb)
