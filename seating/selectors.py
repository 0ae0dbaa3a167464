"""The bridge between the database and the seating algorithms: seatings as plain rounds of
player keys, keep-apart values, and quality figures ready for a page or the command line."""

from django.utils.translation import gettext_lazy as _

from core.collation import sort_key
from seating.algorithms.quality import Quality, quality
from seating.models import WINDS, Seat, Table
from tournament.models import Player, Tournament


def session_rounds(tournament, numbers=None) -> dict:
    """{session number: tables of player keys in wind order}, in one query."""
    seats = Seat.objects.filter(session__tournament=tournament).select_related(
        "session", "table", "player"
    )
    if numbers is not None:
        seats = seats.filter(session__number__in=list(numbers))
    tables = {}
    for seat in seats:
        tables.setdefault(seat.session.number, {}).setdefault(seat.table.number, []).append(seat)
    return {
        number: [
            [s.player.key for s in sorted(by_table[t], key=lambda s: WINDS.index(s.wind))]
            for t in sorted(by_table)
        ]
        for number, by_table in sorted(tables.items())
    }


def keep_apart_values(tournament, field: str | None) -> dict:
    """{player key: club / country / team}, blanks left out."""
    if field not in ("club", "country", "team"):
        return {}
    return {
        key: value.strip().casefold()
        for key, value in Player.objects.filter(tournament=tournament).values_list("key", field)
        if value and value.strip()
    }


FIGURES = [
    ("repeated_pairs", _("pairs meeting twice or more")),
    ("max_meetings", _("most meetings of one pair")),
    ("extra_meetings", _("extra meetings (Σ meetings − 1)")),
    ("extra_floor", _("fewest extra meetings possible")),
    ("zero_repeat_ceiling", _("sessions possible without any repeat")),
    ("clashes", _("keep-apart clashes")),
    ("worst_imbalance", _("worst wind imbalance")),
    ("balanced_percent", _("players with wind imbalance ≤ 1 (%)")),
    ("spread", _("mean standings spread at a table")),
]
# Figures that are themselves bounds, and the bound they show
BOUND_FIGURES = {"extra_floor": "extra_meetings", "zero_repeat_ceiling": "zero_repeat_ceiling"}
UPPER_BOUNDS = {"zero_repeat_ceiling"}  # at most …; every other bound is a least (at least …)
# The figures that count winds: said as left to the tiles when the winds are drawn at the table.
WIND_FIGURES = ("worst_imbalance", "balanced_percent")
TILES_FIGURE = _("winds")
TILES_TEXT = _("left to the tiles drawn at each table")


def figures(q: Quality) -> dict:
    """The numbers a plan is judged by, as plain JSON-able values; `bounds` holds, per figure,
    the best any seating of the same tables can do and whether that is proven reachable."""
    return {
        "players": q.players,
        "sessions": q.sessions,
        "repeated_pairs": q.repeated_pairs,
        "max_meetings": q.max_meetings,
        "extra_meetings": q.extra_meetings,
        "extra_floor": q.extra_floor,
        "zero_repeat_ceiling": q.zero_repeat_ceiling,
        "clashes": q.clashes,
        "worst_imbalance": q.worst_imbalance,
        "balanced_percent": round(100 * q.balanced_share, 1),
        "spread": None if q.spread is None else round(q.spread, 2),
        "bounds": {
            key: {"value": bound.value, "exact": bound.exact} for key, bound in q.bounds.items()
        },
    }


def bound_text(key: str, bound: dict | None) -> str:
    """A bound as the page says it: the number alone where some seating is known to reach it
    (the best possible), "at least …" or "at most …" where it is only a bound."""
    if not bound:
        return ""
    if bound.get("exact"):
        return str(bound["value"])
    if key in UPPER_BOUNDS:
        return _("at most %(n)d") % {"n": bound["value"]}
    return _("at least %(n)d") % {"n": bound["value"]}


def bounds_of(values: dict) -> dict:
    """The `bounds` of `figures`; plans stored before bounds were kept get the two numbers
    they had, as bounds only (nothing then proved them)."""
    if "bounds" in values:
        return values["bounds"]
    found = {}
    if values.get("extra_floor") is not None:
        found["extra_meetings"] = {"value": values["extra_floor"], "exact": False}
    if values.get("zero_repeat_ceiling") is not None:
        found["zero_repeat_ceiling"] = {"value": values["zero_repeat_ceiling"], "exact": False}
    return found


def figure_lines(values: dict, tiles: bool = False) -> list[tuple[str, str]]:
    """(label, value) for each figure there is, bounds said as bounds: for the command line.
    `tiles`: the winds are left to the tiles (winds_at_table), said instead of counted."""
    bounds = bounds_of(values)
    lines = []
    for key, label in FIGURES:
        if tiles and key in WIND_FIGURES:
            if key == WIND_FIGURES[0]:
                lines.append((str(TILES_FIGURE), str(TILES_TEXT)))
        elif key in BOUND_FIGURES:
            text = bound_text(BOUND_FIGURES[key], bounds.get(BOUND_FIGURES[key]))
            if text:
                lines.append((str(label), text))
        elif values.get(key) is not None:
            lines.append((str(label), str(values[key])))
    return lines


def tournament_quality(tournament, upto=None, ranks=None) -> Quality:
    rounds = session_rounds(tournament)
    chosen = [tables for number, tables in rounds.items() if upto is None or number <= upto]
    field = tournament.keep_apart
    return quality(chosen, keep_apart_values(tournament, field), ranks)


def wind_rows(q: Quality, names: dict, language: str) -> list[dict]:
    """One row per player with the winds sat, most unbalanced first, then by name in
    `language`'s order."""
    rows = []
    for key, counts in q.wind_counts.items():
        rows.append(
            {
                "name": names.get(key, key),
                "E": counts[0],
                "S": counts[1],
                "W": counts[2],
                "N": counts[3],
                "imbalance": max(counts) - min(counts),
            }
        )
    rows.sort(key=lambda r: (-r["imbalance"], sort_key(r["name"], language)))
    return rows


# Winds drawn at the table (issue 24): until a table records who drew which wind, the seats'
# winds are only the draw's internal order, and no list, chart or page shows them.


def winds_at_table(tournament) -> bool:
    """The tournament leaves the winds to the tiles drawn at each table."""
    return tournament.winds == Tournament.Winds.TABLE


def winds_pending(table) -> bool:
    """The table's winds are still to be drawn at the table."""
    return winds_at_table(table.session.tournament) and table.winds_drawn_at is None


def pending_tables(tournament) -> set[int]:
    """Ids of the tournament's tables whose winds are still to be drawn: one query (none when
    the desk's draw gives the winds)."""
    if not winds_at_table(tournament):
        return set()
    return set(
        Table.objects.filter(
            session__tournament=tournament, winds_drawn_at__isnull=True
        ).values_list("pk", flat=True)
    )
