"""A club's rating across evenings (issue 25; seed 001 §13), from plain rows (stdlib only).

Each rated game gives every seat rating points — (score − return points) / divisor plus the
placement points, ties splitting them, chombo after placement — by the very arithmetic of one
table in mahjong.table (`score_table`, the core of `table_outcome`). The rating is their sum
(001 §13.5), kept exactly in the internal units of mahjong.units and rounded once for display.

`RatingBook` scores every game once (what a correction of an old game redoes); its tables
(seasons, all time) and timelines are then sums over those numbers. The plain functions
`game_points`, `rating_table` and `timeline` are the one-shot forms.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from operator import attrgetter
from typing import Any, NamedTuple

from mahjong.rulesets import RuleSet
from mahjong.table import score_table
from mahjong.units import Prepared, output

RATING_DECIMALS = 1  # 001 §13.2: rating points to one tenth
AVERAGE_DECIMALS = 2  # average place as the table shows it
SHARE_DECIMALS = 3  # share of first places, 0..1


class RatedSeat(NamedTuple):
    person: Any
    score: int
    chombo: int = 0


@dataclass(frozen=True, slots=True)
class Game:
    key: Any
    played_on: datetime.date
    seats: list  # of RatedSeat, in seat order E, S, W, N


class GamePoints(NamedTuple):
    person: Any
    place: int  # a shared place is the best place of the tie
    placement: int | float  # placement points (the tie's share), result unit
    chombo: int | float  # the chombo deduction, result unit (≤ 0)
    rating: int | float  # the game's rating points (001 §13), one decimal


@dataclass(slots=True)
class RatingRow:
    rank: int | None  # None: below the minimum number of games
    person: Any
    rating: int | float  # rounded to RATING_DECIMALS
    rating_exact: Fraction
    games: int
    average_place: int | float
    first_share: int | float  # 0..1
    firsts: int
    last_played: datetime.date


@dataclass(slots=True)
class RatingTable:
    rows: list  # of RatingRow, ranked
    unranked: list  # of RatingRow, below min_games, in the same order, rank None
    since: datetime.date | None
    until: datetime.date | None
    min_games: int


def _rounder(prep: Prepared, decimals: int):
    """Internal units → the same units rounded to `decimals` of the result unit (001 §13.2:
    a game's rating points are to one tenth), half away from zero; exact numbers stay."""
    step = prep.unit // 10**decimals if prep.unit % 10**decimals == 0 else None
    if step is None:
        return lambda units: units

    def rounded(units):
        if type(units) is int and units % step == 0:
            return units
        q, r = divmod(abs(units), step)
        if 2 * r >= step:
            q += 1
        q = int(q)
        return q * step if units >= 0 else -q * step

    return rounded


def _score(prep: Prepared, game: Game, rounded) -> list[tuple]:
    """(person, place, placement, chombo, rating) in internal units, in seat order."""
    seats = game.seats
    raw = score_table(prep, [(s[1], s[2], 0, 0, False) for s in seats])
    return [
        (seat[0], place, placement, penalty, rounded(result))
        for seat, (place, placement, penalty, result, _points) in zip(seats, raw, strict=True)
    ]


def game_points(rules: RuleSet, game: Game) -> list[GamePoints]:
    """Each seat's place and rating points (001 §13.3–13.4, §7.2), in seat order."""
    prep = Prepared(rules)
    unit, decimals = prep.unit, prep.decimals
    return [
        GamePoints(
            person,
            place,
            output(placement, unit, decimals),
            output(chombo, unit, decimals),
            output(rating, unit, decimals),
        )
        for person, place, placement, chombo, rating in _score(prep, game, _rounder(prep, decimals))
    ]


class RatingBook:
    """Every game scored once; tables and timelines read those numbers.

    `games` in the order they were played: by date, and in the given order within a date.
    """

    def __init__(self, rules: RuleSet, games: Iterable[Game] = (), *, scored=None):
        """`scored`: games scored before (`score()`), in the order played — a book kept
        across changes scores only the games that changed."""
        self.rules = rules
        self._prep = prep = Prepared(rules)
        self._rounded = rounded = _rounder(prep, prep.decimals)
        if scored is not None:
            self.scored = scored
            return
        ordered = sorted(games, key=attrgetter("played_on"))  # stable: entry order in a day
        # Per game: (date, key, ((person, place, rating units), ...)); the hot loop of a
        # recompute, so _score's work is inlined here.
        self.scored = scored = []
        append = scored.append
        for g in ordered:
            seats = g.seats
            raw = score_table(prep, [(s[1], s[2], 0, 0, False) for s in seats])
            append(
                (
                    g.played_on,
                    g.key,
                    tuple(
                        (seat[0], out[0], rounded(out[3]))
                        for seat, out in zip(seats, raw, strict=True)
                    ),
                )
            )

    def score(self, game: Game) -> tuple:
        """One game as the book keeps it: (date, key, ((person, place, rating units), ...))."""
        seats, rounded = game.seats, self._rounded
        raw = score_table(self._prep, [(s[1], s[2], 0, 0, False) for s in seats])
        return (
            game.played_on,
            game.key,
            tuple((seat[0], out[0], rounded(out[3])) for seat, out in zip(seats, raw, strict=True)),
        )

    def _show(self, units, decimals=RATING_DECIMALS):
        return output(units, self._prep.unit, decimals)

    def table(
        self,
        *,
        since: datetime.date | None = None,
        until: datetime.date | None = None,
        min_games: int = 0,
        name: Callable[[Any], Any] = str,
    ) -> RatingTable:
        """The rating table of the games dated in [since, until] (None: open). `name` gives a
        person's sort key after rating and games played (for a stable order)."""
        # person → [rating units, games, sum of places, firsts, last date]
        totals: dict[Any, list] = {}
        get = totals.get
        for played_on, _key, seats in self.scored:
            if (since is not None and played_on < since) or (
                until is not None and played_on > until
            ):
                continue
            for person, place, units in seats:
                t = get(person)
                if t is None:
                    totals[person] = [units, 1, place, place == 1, played_on]
                else:
                    t[0] += units
                    t[1] += 1
                    t[2] += place
                    t[3] += place == 1
                    t[4] = played_on  # games are in date order
        order = sorted(totals.items(), key=lambda item: (-item[1][0], -item[1][1], name(item[0])))
        unit = self._prep.unit
        rows, unranked = [], []
        for person, (units, games, places, firsts, last) in order:
            row = RatingRow(
                None,
                person,
                self._show(units),
                Fraction(units, unit),
                games,
                output(places, games, AVERAGE_DECIMALS),
                output(int(firsts), games, SHARE_DECIMALS),
                int(firsts),
                last,
            )
            (rows if games >= min_games else unranked).append(row)
        previous = None
        for position, row in enumerate(rows, 1):
            # Equal ratings share a rank (1, 2, 2, 4); games played only orders them.
            if previous is not None and row.rating_exact == previous.rating_exact:
                row.rank = previous.rank
            else:
                row.rank = position
            previous = row
        return RatingTable(rows, unranked, since, until, min_games)

    def games(self) -> list[tuple]:
        """[(date, game key, [(person, place, rating points), ...]), ...] in the order played,
        the points rounded as the table shows them."""
        show = self._show
        return [
            (played_on, key, [(person, place, show(units)) for person, place, units in seats])
            for played_on, key, seats in self.scored
        ]

    def timelines(self) -> dict[Any, list[tuple]]:
        """Person → [(date, game key, rating after the game), ...] over all games."""
        running: dict[Any, int] = {}
        lines: dict[Any, list] = {}
        unit = self._prep.unit
        for played_on, key, seats in self.scored:
            for person, _place, units in seats:
                total = running.get(person, 0) + units
                running[person] = total
                point = (played_on, key, output(total, unit, RATING_DECIMALS))
                line = lines.get(person)
                if line is None:
                    lines[person] = [point]
                else:
                    line.append(point)
        return lines

    def timeline(self, person) -> list[tuple]:
        total, line, unit = 0, [], self._prep.unit
        for played_on, key, seats in self.scored:
            for who, _place, units in seats:
                if who == person:
                    total += units
                    line.append((played_on, key, output(total, unit, RATING_DECIMALS)))
        return line


def rating_table(
    rules: RuleSet,
    games: Iterable[Game],
    *,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    min_games: int = 0,
    name: Callable[[Any], Any] = str,
) -> RatingTable:
    """Rating = sum of the games' rating points (001 §13.5), per person, for a season."""
    return RatingBook(rules, games).table(since=since, until=until, min_games=min_games, name=name)


def timeline(rules: RuleSet, games: Iterable[Game], person) -> list[tuple]:
    """[(date, game key, rating after the game), ...] of one person, over all games."""
    return RatingBook(rules, games).timeline(person)


# --- the chart --------------------------------------------------------------------------------


def _number(value) -> str:
    """A coordinate: short and locale-free."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _iso(day: datetime.date) -> str:
    return day.isoformat()


def rating_svg(
    points: list[tuple],
    *,
    width: int = 600,
    height: int = 240,
    labels: Mapping[str, str],
    number: Callable[[float], str] = _number,
    day: Callable[[datetime.date], str] = _iso,
) -> str:
    """An SVG line chart of a timeline, drawn on the server (no script, no CDN).

    `labels` (translated by the caller): "title", "desc" (the chart's accessible name and
    description), optionally "empty" (shown when there are no games). `number` and `day` write
    the axis's ratings and dates as the reader reads them (the caller's language: "24,3",
    "28.11.2026"); the coordinates stay locale-free.
    """
    title, desc = escape(labels["title"]), escape(labels["desc"])
    pad_left, pad_right, pad_top, pad_bottom = 48, 12, 12, 28
    plot_w = max(width - pad_left - pad_right, 1)
    plot_h = max(height - pad_top - pad_bottom, 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="rating-title rating-desc" '
        'class="rating-chart" style="max-width: 100%; height: auto">',
        f'<title id="rating-title">{title}</title>',
        f'<desc id="rating-desc">{desc}</desc>',
    ]
    if not points:
        empty = escape(labels.get("empty", ""))
        parts.append(
            f'<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle">{empty}</text>'
        )
        parts.append("</svg>")
        return "".join(parts)
    values = [0] + [p[2] for p in points]  # the start (0) is the first point
    low, high = min(values), max(values)
    if high == low:
        high, low = high + 1, low - 1
    n = len(values)

    def x(i):
        return pad_left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v):
        return pad_top + plot_h * (high - v) / (high - low)

    parts.append(
        f'<line x1="{pad_left}" y1="{_number(y(0))}" x2="{pad_left + plot_w}" '
        f'y2="{_number(y(0))}" stroke="currentColor" stroke-opacity="0.3" />'
    )
    line = " ".join(f"{_number(x(i))},{_number(y(v))}" for i, v in enumerate(values))
    parts.append(f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2" />')
    last = values[-1]
    parts.append(
        f'<circle cx="{_number(x(n - 1))}" cy="{_number(y(last))}" r="3" fill="currentColor" />'
    )
    # The axis: the highest and lowest rating, and 0 when it lies well between them.
    marks = [high, low]
    if low < 0 < high and min(y(0) - y(high), y(low) - y(0)) > 14:
        marks.append(0)
    for v in marks:
        parts.append(
            f'<text x="{pad_left - 4}" y="{_number(y(v) + 4)}" text-anchor="end" '
            f'font-size="11" fill="currentColor">{escape(number(v))}</text>'
        )
    first_day, last_day = points[0][0], points[-1][0]
    parts.append(
        f'<text x="{pad_left}" y="{height - 8}" font-size="11" fill="currentColor">'
        f"{escape(day(first_day))}</text>"
    )
    parts.append(
        f'<text x="{pad_left + plot_w}" y="{height - 8}" text-anchor="end" font-size="11" '
        f'fill="currentColor">{escape(day(last_day))}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
