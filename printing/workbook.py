"""The tournament as one Excel workbook, and the EMA results sheet (openpyxl, write-only).

Every number comes from the standings the public feed serialises (`selectors.standings`), so a
total in the workbook is the total on the standings page and in standings.json; penalties and
appeals are read from their records, void penalties included and marked.

Sheets of `workbook_bytes`: Standings, Teams (when players have teams), Substitutes (when
there are any; they are not ranked, 000 §5.7), one "Session N" per session, Hands and Player
statistics (when tables recorded hands: `selectors.hand_statistics`, the numbers of the player
pages and statistics.json), Players, Penalties, Appeals. Headings are translated; the EMA
sheet's are not (see below).

The EMA results sheet (`ema_results_bytes`)
-------------------------------------------
Column order NOT CONFIRMED from an EMA template. Searched (November 2026): the EMA's ranking
pages (http://mahjong-europe.org/ranking/RankingOverview.html,
https://mahjong-europe.org/ranking/Basicsranking.html) and its documents page
(https://mahjong-europe.org/portal/index.php?option=com_content&view=article&id=22&Itemid=179)
describe MERS certification and weights but give no results submission template or form.
The order used is therefore the desk's assumption:

    Place, EMA number, Last name, First name, Country, Points

It agrees with the EMA's *published* tournament result pages
(http://mahjong-europe.org/ranking/Tournament/TR_RCR_<n>.html) as a third-party reader of
those pages parses them (github.com/ldekerg/European-Mahjong, scripts/importers/ema.py:
position, EMA number, last name, first name, country flag, points, …) — second-hand, and a
published page, not the submission form. Check it with the EMA before a MERS submission.
Names are the players' Latin names (Player.latin_parts): the Latin first and last name as
typed, else the first and last name (or, when only the whole name is known, the name split
before its last word with the surname's particles: "Jan van den Berg" → "van den Berg",
"Jan"; one word is the last name) transliterated by the Ukrainian or Russian national system
("Юлія Ґудзь" → "Gudz", "Yuliia"; README, "Latin names"). The headings stay in English: the
sheet goes to the EMA, whatever the desk's language. Only ranked players are listed
(disqualified ones last, as in the standings); substitutes are left out, as they are unranked.
"""

from __future__ import annotations

import io
from decimal import Decimal
from operator import attrgetter

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from core.collation import collated
from referee.models import Appeal
from scoring import selectors
from scoring.models import Penalty
from scoring.rules import RuleError
from scoring.selectors import penalties_with_worth
from seating.models import WINDS, Wind
from tournament.models import Player, Session
from tournament.selectors import latin_names

EMA_COLUMNS = ("Place", "EMA number", "Last name", "First name", "Country", "Points")

# Cell kinds: how a column's numbers are shown. "result" and "score" depend on the rule set.
TEXT, INT, RESULT, SCORE, MONEY, WHEN = "text", "int", "result", "score", "money", "when"
PERCENT = "percent"  # a share from 0 to 1, shown as a whole percentage

_BOLD = Font(bold=True)
_VOID = Font(strike=True, color="808080")
_MAX_WIDTH = 45


class _Sheet:
    """One sheet's headings and rows, written at the end so column widths fit the content."""

    def __init__(self, title: str, columns: list[tuple[str, str]], freeze: str = "A2"):
        self.title = title
        self.headings = [heading for heading, _kind in columns]
        self.kinds = [kind for _heading, kind in columns]
        self.freeze = freeze
        self.rows = []  # (values, font or None, kinds of this row)

    def add(self, values, font=None, kinds=None):
        """kinds: {column index: kind} where this row's numbers differ from the column's."""
        row_kinds = self.kinds
        if kinds:
            row_kinds = [kinds.get(i, kind) for i, kind in enumerate(self.kinds)]
        self.rows.append((list(values), font, row_kinds))


class _Formats:
    """Excel number formats by the rule set: riichi points as grouped integers (−12,300),
    Furiten rating to one decimal (001 §13.2), Sichuan TP to at most two decimals."""

    def __init__(self, rules):
        self.decimals = rules.decimals
        # TP split among tied players are whole, halves, thirds…: show only the digits needed.
        self.result_fixed = rules.result_unit != "tp"

    @staticmethod
    def _upto(value, decimals) -> str:
        if decimals == 0 or isinstance(value, int) or float(value).is_integer():
            return "#,##0"
        digits = f"{round(float(value), decimals):.{decimals}f}".rstrip("0").split(".")[1]
        return "#,##0." + "0" * len(digits)

    def __call__(self, kind, value) -> str | None:
        if kind == RESULT:
            if self.result_fixed:
                return "#,##0" if self.decimals == 0 else "#,##0." + "0" * self.decimals
            return self._upto(value, self.decimals)
        if kind == SCORE:
            return self._upto(value, self.decimals)
        if kind == INT:
            return "#,##0"
        if kind == MONEY:
            return "#,##0.00"
        if kind == WHEN:
            return "yyyy-mm-dd hh:mm"
        if kind == PERCENT:
            return "0%"
        if kind == TEXT:
            return "@"
        return None


def _shown_width(value, kind) -> int:
    if value is None:
        return 0
    if kind == WHEN:
        return 16
    if kind == PERCENT:
        return 4
    if isinstance(value, (int, float, Decimal)):
        return len(f"{value:,.2f}") if kind in (SCORE, RESULT, MONEY) else len(f"{value:,}")
    return max((len(part) for part in str(value).splitlines()), default=0)


def _safe_title(title: str, taken: set) -> str:
    # Excel refuses []:*?/\ in a sheet name and more than 31 characters; a translation might.
    clean = "".join(" " if c in "[]:*?/\\" else c for c in title).strip()[:31] or "Sheet"
    name, n = clean, 2
    while name.casefold() in taken:
        suffix = f" ({n})"
        name, n = clean[: 31 - len(suffix)] + suffix, n + 1
    taken.add(name.casefold())
    return name


# OWASP's CSV-injection advice: a text that a spreadsheet could read as a formula (or an error
# code) is written as text, with Excel's quote prefix so that editing the cell keeps it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str):
    """A text as a cell: the control characters an .xlsx cannot hold dropped, and a cell that
    is text whatever it starts with (a name typed as "=HYPERLINK(…)" stays that name)."""
    value = ILLEGAL_CHARACTERS_RE.sub("", value)
    if not value.startswith(FORMULA_STARTS) and value not in ERROR_CODES:
        return value
    return value, True


def _write(wb, sheet: _Sheet, formats: _Formats, taken: set):
    ws = wb.create_sheet(_safe_title(sheet.title, taken))
    widths = [len(h) for h in sheet.headings]
    for values, _font, kinds in sheet.rows:
        for i, (value, kind) in enumerate(zip(values, kinds, strict=True)):
            widths[i] = max(widths[i], _shown_width(value, kind))
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(width + 2, _MAX_WIDTH)
    ws.freeze_panes = sheet.freeze
    last = get_column_letter(len(sheet.headings))
    ws.auto_filter.ref = f"A1:{last}{len(sheet.rows) + 1}"
    header = []
    for heading in sheet.headings:
        cell = WriteOnlyCell(ws, ILLEGAL_CHARACTERS_RE.sub("", heading))
        cell.font = _BOLD
        header.append(cell)
    ws.append(header)
    for values, font, kinds in sheet.rows:
        row = []
        for value, kind in zip(values, kinds, strict=True):
            quoted = False
            if isinstance(value, str):
                value = _text(value)
                if isinstance(value, tuple):
                    value, quoted = value
            number_format = formats(kind, value) if value is not None else None
            if number_format is None and font is None and not quoted:
                row.append(value)  # plain cells are much cheaper than styled ones
                continue
            cell = WriteOnlyCell(ws, value)
            if quoted:
                cell.data_type = "s"
                cell.quotePrefix = True
            if number_format:
                cell.number_format = number_format
            if font is not None:
                cell.font = font
            row.append(cell)
        ws.append(row)


def _save(wb) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _local(when):
    """Excel has no time zones: the hall's local time, naive."""
    if when is None:
        return None
    return timezone.localtime(when).replace(tzinfo=None) if timezone.is_aware(when) else when


def _user(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _yes_no(value) -> str:
    if value is None:
        return ""
    return _("yes") if value else _("no")


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


def _standings_sheet(title, rows, sessions, rules, ranked=True) -> _Sheet:
    facts = _player_columns(rows)
    tiebreak = rules.tiebreak == "game_points"
    columns = [(_("Rank"), INT)] if ranked else []
    columns += [(_("Player"), None), (_("EMA id"), TEXT)]
    columns += [(heading, kind) for _attr, heading, kind in facts]
    columns += [(_("S%(n)d") % {"n": n}, RESULT) for n in sessions]
    columns += [(_("Penalties"), RESULT), (_("Total"), RESULT)]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    sheet = _Sheet(title, columns, freeze="C2" if ranked else "B2")
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


def _teams_sheet(teams, names, rules) -> _Sheet:
    tiebreak = rules.tiebreak == "game_points"
    columns = [(_("Rank"), INT), (_("Team"), None), (_("Members"), None), (_("Total"), RESULT)]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    sheet = _Sheet(_("Teams"), columns)
    for team in teams:
        values = [team.rank, team.team, ", ".join(names.get(k, k) for k in team.members)]
        values.append(team.total)
        if tiebreak:
            values.append(team.tiebreak)
        sheet.add(values)
    return sheet


def _session_sheet(number, rows, rules, chombo, names, substitutions) -> _Sheet:
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
        (_("Uma / TP"), RESULT),
        (_("Penalty"), RESULT),
        (_("Result"), RESULT),
    ]
    if tiebreak:
        columns.append((_("Game points"), SCORE))
    columns.append((_("Note"), None))
    sheet = _Sheet(_("Session %(number)s") % {"number": number}, columns, freeze="D2")

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


def _players_sheet(tournament) -> _Sheet:
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
    sheet = _Sheet(_("Players"), columns, freeze="C2")
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
                _yes_no(p.substitute),
                str(statuses.get(p.status, p.status)),
                _yes_no(p.checked_in),
            ]
        )
    return sheet


def _penalties_sheet(tournament, rules) -> _Sheet:
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
    sheet = _Sheet(_("Penalties"), columns, freeze="D2")
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


def _appeals_sheet(tournament) -> _Sheet:
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
    sheet = _Sheet(_("Appeals"), columns, freeze="B2")
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
                _yes_no(a.captain),
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
                _yes_no(a.deposit_returned) or None,
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


# --- statistics from hands (scoring.hands.stats) ----------------------------------------------


def _result_label(result) -> str:
    labels = {
        "ron": _("ron"),
        "tsumo": _("tsumo"),
        "draw": _("exhaustive draw"),
        "abortive": _("abortive draw"),
        "chombo": _("chombo"),
        "nagashi": _("nagashi mangan"),
        "hu": _("ended by hu"),
        "exhausted": _("wall exhausted"),
    }
    return str(labels[result])


def _win_value(value) -> str:
    """A riichi win as the sheet counted it: "3 han 40 fu", "5 han", "yakuman"."""
    if "yakuman" in value:
        return _("double yakuman") if value["yakuman"] == 2 else _("yakuman")
    if "fu" in value:
        return _("%(han)s han %(fu)s fu") % value
    return _("%(han)s han") % value


def _hands_sheet(hands) -> _Sheet:
    """One row per hand in play order, with the seats' changes and running totals."""
    sichuan = hands.game == "sichuan"
    columns = [
        (_("Session"), INT),
        (_("Table"), INT),
        (_("Hand"), INT),
        (_("Dealer"), None),
        (_("Result"), None),
        (_("Winners"), None),
        (_("Paid by"), None),  # riichi: the ron's discarder, the chombo's player
        (_("Fans") if sichuan else _("Han / fu"), None),
    ]
    if not sichuan:
        columns.append((_("Riichi"), None))
    for wind in WINDS:
        label = Wind(wind).label
        columns += [
            (str(label), None),
            (_("%(wind)s ±") % {"wind": label}, SCORE),
            (_("%(wind)s total") % {"wind": label}, SCORE),
        ]
    sheet = _Sheet(_("Hands"), columns, freeze="D2")
    for line in hands.lines:

        def name(wind, line=line):
            return hands.players[line.players[wind]].name

        winners = []
        for wind in line.winners:
            if sichuan and wind in line.self_drawn:
                winners.append(_("%(name)s (self-draw)") % {"name": name(wind)})
            else:
                winners.append(name(wind))
        if sichuan:
            values = ", ".join(str(fans) for fans in line.values)
        else:
            values = "; ".join(_win_value(v) for v in line.values)
        row = [
            line.session,
            line.table,
            line.number,
            name(line.dealer),
            _result_label(line.result),
            ", ".join(winners) or None,
            ", ".join(name(w) for w in line.payers) or None,
            values or None,
        ]
        if not sichuan:
            row.append(", ".join(name(w) for w in line.riichi) or None)
        for wind in WINDS:
            if wind in line.players:
                row += [name(wind), line.deltas[wind], line.totals[wind]]
            else:  # a three-player Sichuan table has no North
                row += [None, None, None]
        sheet.add(row)
    return sheet


def _hand_stats_sheet(hands) -> _Sheet:
    """One row per player who played a recorded hand, in name order."""
    if hands.game == "sichuan":
        fields = [
            ("hands", _("Hands played"), INT),
            ("hu", _("Hu"), INT),
            ("self_draw_share", _("Self-draw share"), PERCENT),
            ("kong_points", _("Kong points"), INT),
            ("pigs", _("Pigs"), INT),
            ("false_hu", _("False hu"), INT),
            ("deal_ins", _("Deal-ins"), INT),
        ]
    else:
        fields = [
            ("hands", _("Hands played"), INT),
            ("wins", _("Wins"), INT),
            ("deal_ins", _("Deal-ins"), INT),
            ("riichi", _("Riichi declared"), INT),
            ("riichi_won", _("Riichi won"), INT),
            ("average_win", _("Average win"), INT),
            ("tsumo_share", _("Tsumo share"), PERCENT),
            ("chombo", _("Chombo"), INT),
        ]
    columns = [(_("Player"), None)] + [(heading, kind) for _f, heading, kind in fields]
    sheet = _Sheet(_("Player statistics"), columns, freeze="B2")
    for row in hands.rows:
        sheet.add([row.player.name] + [getattr(row.stats, f) for f, _h, _k in fields])
    return sheet


# --- the two files ---------------------------------------------------------------------------


def workbook_bytes(tournament) -> bytes:
    """The whole tournament as one .xlsx: standings, teams, every session, players, penalties
    and appeals, with the same numbers as the standings feed; in the tournament's language."""
    with tournament.printing():
        return _workbook_bytes(tournament)


def _workbook_bytes(tournament) -> bytes:
    rules = tournament.rule_set()
    formats = _Formats(rules)
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
        sheets += [_hands_sheet(hands), _hand_stats_sheet(hands)]
    sheets += [_players_sheet(tournament), _penalties_sheet(tournament, rules)]
    sheets.append(_appeals_sheet(tournament))

    wb = Workbook(write_only=True)
    wb.properties.title = tournament.name
    taken = set()
    for sheet in sheets:
        _write(wb, sheet, formats, taken)
    return _save(wb)


def ema_results_bytes(tournament) -> bytes:
    """The EMA results sheet: one row per ranked player, columns EMA_COLUMNS (see above)."""
    rules = tournament.rule_set()
    formats = _Formats(rules)
    columns = list(zip(EMA_COLUMNS, (INT, TEXT, None, None, None, RESULT), strict=True))
    sheet = _Sheet("EMA results", columns, freeze="A2")
    latin = latin_names(tournament)
    for row in selectors.standings(tournament).rows:
        first, last = latin[row.player.key]
        sheet.add(
            [
                row.rank,
                row.player.ema_id or None,
                last,
                first or None,
                row.player.country or None,
                row.total,
            ]
        )
    wb = Workbook(write_only=True)
    wb.properties.title = tournament.name
    _write(wb, sheet, formats, set())
    return _save(wb)
