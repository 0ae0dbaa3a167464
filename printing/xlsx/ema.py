"""The EMA results sheet (`ema_results_bytes`, openpyxl, write-only).

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
("Юлія Ґудзь" → "Gudz", "Yuliia"; docs/features/players-and-names.md, "Latin names"). The headings
stay in English: the sheet goes to the EMA, whatever the desk's language. Only ranked players are
listed (disqualified ones last, as in the standings); substitutes are left out, as they are
unranked.
"""

from __future__ import annotations

from openpyxl import Workbook

from printing.xlsx.kit import INT, RESULT, TEXT, Formats, Sheet, write_sheet, xlsx_bytes
from scoring import selectors
from tournament.selectors import latin_names

EMA_COLUMNS = ("Place", "EMA number", "Last name", "First name", "Country", "Points")


def ema_results_bytes(tournament) -> bytes:
    """The EMA results sheet: one row per ranked player, columns EMA_COLUMNS (see above)."""
    rules = tournament.rule_set()
    formats = Formats(rules)
    columns = list(zip(EMA_COLUMNS, (INT, TEXT, None, None, None, RESULT), strict=True))
    sheet = Sheet("EMA results", columns, freeze="A2")
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
    write_sheet(wb, sheet, formats, set())
    return xlsx_bytes(wb)
