"""Issue 25: the EMA ranking weight (MERS) of a tournament, by the EMA's "Basics for ranking
system" table: TOTAL_MERS = Weight_duration + Weight_players + Weight_countries + Weight_qualif."""

from fractions import Fraction

import pytest

from mahjong.mers import weight


@pytest.mark.parametrize("days, expected", [(1, 1), (2, 2), (3, 3), (4, 3), (0, 1)])
def test_duration_one_two_or_three_days(days, expected):
    """ "One day tournament accounts for MERS-1. Two days … MERS-2. Three days … MERS-3.\""""
    assert weight(days, 20, 0, 1, False).duration == expected


@pytest.mark.parametrize(
    "players, substitutes, expected",
    [
        (40, 0, 0),
        (41, 0, Fraction(1, 2)),
        (80, 0, Fraction(1, 2)),
        (81, 0, 1),
        (38, 3, Fraction(1, 2)),
        (38, 7, Fraction(1, 2)),
        (37, 3, 0),
        (78, 3, 1),
    ],
)
def test_players_over_40_and_80_with_at_most_three_substitutes(players, substitutes, expected):
    """ "If the number of player is greater than 40 … an extra MERS-0,5 point. … greater than 80
    … an extra MERS-1 point. Substitute players (maximum 3) are accounted.\""""
    w = weight(1, players, substitutes, 1, False)
    assert w.for_players == expected
    assert w.players == players + min(3, substitutes)


@pytest.mark.parametrize(
    "countries, expected", [(5, 0), (6, Fraction(1, 2)), (10, Fraction(1, 2)), (11, 1)]
)
def test_countries_over_5_and_10(countries, expected):
    """Countries: X ≤ 5 +0, 6 ≤ X ≤ 10 +0.5, X > 10 +1."""
    assert weight(1, 20, 0, countries, False).for_countries == expected


def test_the_total_adds_the_four_weights():
    """A two-day open of 84 players and 2 substitutes from 12 countries with qualification:
    2 + 1 + 1 + 1 = 5; a one-day club event of 24 players from 2 countries: 1."""
    assert weight(2, 84, 2, 12, True).total == 5
    assert weight(1, 24, 0, 2, False).total == 1
    assert weight(2, 44, 0, 6, False).total == 3
