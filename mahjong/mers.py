"""The weight a tournament counts for in the EMA's ranking (MERS), from what the desk knows.

The EMA's "Basics for ranking system" (General Assembly 2017, in force since 2018-01-01):
TOTAL_MERS = Weight_duration + Weight_players + Weight_countries + Weight_qualif, where

- duration: 1 day +1, 2 days +2, 3 days +3;
- players: X ≤ 40 +0, 41 ≤ X ≤ 80 +0.5, X > 80 +1 ("Substitute players (maximum 3) are
  accounted in the calculation of participating players");
- countries: X ≤ 5 +0, 6 ≤ X ≤ 10 +0.5, X > 10 +1;
- qualification: no +0, yes +1.

Plain Python: the dashboard (desk) asks it with the tournament's counts.
"""

from dataclasses import dataclass
from fractions import Fraction

SUBSTITUTES_COUNTED = 3
MOST_DAYS = 3


@dataclass(frozen=True)
class Weight:
    days: int  # the days counted (1–3)
    players: int  # participants counted: the players and up to three substitutes
    countries: int
    duration: Fraction
    for_players: Fraction
    for_countries: Fraction
    for_qualification: Fraction
    total: Fraction


def _step(value: int, half_from: int, one_from: int) -> Fraction:
    if value >= one_from:
        return Fraction(1)
    if value >= half_from:
        return Fraction(1, 2)
    return Fraction(0)


def weight(
    days: int, players: int, substitutes: int, countries: int, qualification: bool
) -> Weight:
    """The MERS weight of a tournament of `days` days (counted 1 to 3), `players` players and
    `substitutes` substitutes who played (at most three count), from `countries` countries."""
    days = max(1, min(MOST_DAYS, days))
    counted = players + min(SUBSTITUTES_COUNTED, max(0, substitutes))
    duration = Fraction(days)
    for_players = _step(counted, 41, 81)
    for_countries = _step(countries, 6, 11)
    for_qualification = Fraction(1 if qualification else 0)
    total = duration + for_players + for_countries + for_qualification
    return Weight(
        days,
        counted,
        countries,
        duration,
        for_players,
        for_countries,
        for_qualification,
        total,
    )
