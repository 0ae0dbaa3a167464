"""A club rating's workbook (issue 25): the rating, every game seat by seat and each season's
table, read through club.selectors (`rating`, `rated_games`), the same rows the club's pages
and feed show; in the club's language and time zone (Club.printing()). The cells are the
tournament workbook's own (xlsx.kit).
"""

from django.utils.translation import gettext as _
from openpyxl import Workbook

from club import selectors
from printing.language import in_print_language
from printing.xlsx.kit import (
    INT,
    PERCENT,
    RESULT,
    SCORE,
    TEXT,
    Formats,
    Sheet,
    write_sheet,
    xlsx_bytes,
    yes_no,
)
from seating.models import Wind

DATE, PLACE = "date", "place"  # the workbook's cells: a day; an average place to two decimals


class _ClubFormats(Formats):
    """The tournament workbook's number formats, and a day and an average place."""

    def __call__(self, kind, value):
        if kind == DATE:
            return "yyyy-mm-dd"
        if kind == PLACE:
            return "0.00"
        return super().__call__(kind, value)


def _rating_sheet(title, data) -> Sheet:
    """A rating table: the ranked players, then those below the minimum (no rank, "Ranked": no)."""
    columns = [
        (_("Rank"), INT),
        (_("Name"), None),
        (_("Person id"), INT),
        (_("Rating"), RESULT),
        (_("Games"), INT),
        (_("Average place"), PLACE),
        (_("First places"), INT),
        (_("First-place share"), PERCENT),
        (_("Last game"), DATE),
        (_("Ranked"), TEXT),
    ]
    sheet = Sheet(title, columns, freeze="C2")
    for row in data.table.rows + data.table.unranked:
        sheet.add(
            [
                row.rank,
                row.person.name,
                row.person.pk,
                row.rating,
                row.games,
                row.average_place,
                row.firsts,
                row.first_share,
                row.last_played,
                yes_no(row.rank is not None),
            ]
        )
    return sheet


def _games_sheet(games) -> Sheet:
    columns = [
        (_("Date"), DATE),
        (_("Table"), INT),
        (_("Version"), INT),
        (_("Wind"), None),
        (_("Name"), None),
        (_("Person id"), INT),
        (_("Score"), SCORE),
        (_("Chombo"), INT),
        (_("Place"), INT),
        (_("Points"), RESULT),
    ]
    sheet = Sheet(_("Games"), columns, freeze="A2")
    for game in games:
        for line in game.lines:
            sheet.add(
                [
                    game.played_on,
                    game.number,
                    game.version,
                    str(Wind(line.wind).label),
                    line.person.name,
                    line.person.pk,
                    line.score,
                    line.chombo,
                    line.place,
                    line.points,
                ]
            )
    return sheet


@in_print_language
def club_workbook_bytes(club, season=None) -> bytes:
    """One .xlsx: "Rating" (the chosen period's table), "Games" (every confirmed game, a row
    per seat, in the order played), then all time (when a season was chosen) and each season's
    table, newest first. Numbers are numbers and days are dates, as the selectors give them."""
    sheets = [
        _rating_sheet(_("Rating"), selectors.rating(club, season)),
        _games_sheet(selectors.rated_games(club, newest_first=False)),
    ]
    if season is not None:
        sheets.append(_rating_sheet(_("All time"), selectors.rating(club)))
    sheets += [_rating_sheet(s.name, selectors.rating(club, s)) for s in selectors.seasons(club)]
    wb = Workbook(write_only=True)
    wb.properties.title = club.name
    formats = _ClubFormats(club.rule_set())
    taken = set()
    for sheet in sheets:
        write_sheet(wb, sheet, formats, taken)
    return xlsx_bytes(wb)
