"""The visitors' tables of a club rating (issue 25): the rating, a person's games, the games.

Phone first: the rating table keeps rank, name, rating and games on a phone and says the average
place, the share of first places and the last game under the name, where their columns are left
out (desk.css `.wide`, `.why.phone`); the game tables are cards of "label value" lines there.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from core.tables import STACKED, CollatedTable, FixedTable, NumberColumn, fmt


def decimal(value, decimals: int = 1, sign: bool = False) -> str:
    """A rating or a game's points as the rules give them: `decimals` places always (24.0),
    with a plus sign when asked (a game's result); '–' for nothing."""
    if value is None:
        return "–"
    text = number_format(value, decimal_pos=decimals, force_grouping=True)
    return f"+{text}" if sign and value > 0 else text


def short_date(day) -> str:
    return date_format(day, "SHORT_DATE_FORMAT") if day else "–"


def share(value) -> str:
    """A share (0 to 1) as a whole percentage."""
    if value is None:
        return "–"
    return _("%(percent)s%%") % {"percent": fmt(round(value * 100))}


WIDE = {"td": {"class": "num wide"}, "th": {"class": "num wide"}}


class ClubRatingTable(CollatedTable):
    """The rating table, as `rating_rows` gives it; sortable by any column, names in the
    club's language's order."""

    rank = tables.Column(
        verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}, "th": {"class": "num"}}
    )
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "wrap"}})
    rating = tables.Column(
        verbose_name=_("Rating"), attrs={"td": {"class": "num total"}, "th": {"class": "num"}}
    )
    games = NumberColumn(verbose_name=_("Games"))
    average_place = tables.Column(verbose_name=_("Average place"), attrs=WIDE)
    first_share = tables.Column(verbose_name=_("First places"), attrs=WIDE)
    last_game = tables.Column(
        verbose_name=_("Last game"), attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )

    class Meta:
        template_name = "public/club/_rating_table.html"
        attrs = {"class": "standings rating"}
        empty_text = _("No rated games yet.")

    def __init__(self, data, *args, decimals: int = 1, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.decimals = decimals

    def render_name(self, value, record):
        """The name (a link to the person's page), and below it on a phone what the left-out
        columns say."""
        phone = _("average place %(place)s · first places %(share)s · last game %(date)s") % {
            "place": fmt(record["average_place"]),
            "share": share(record["first_share"]),
            "date": short_date(record["last_game"]),
        }
        url = reverse("public:club_person", args=[record["slug"], record["person"]])
        return format_html(
            '<a href="{}"><bdi>{}</bdi></a><small class="why phone">{}</small>', url, value, phone
        )

    def render_rating(self, value):
        return decimal(value, self.decimals)

    def render_average_place(self, value):
        return fmt(value)

    def render_first_share(self, value):
        return share(value)

    def render_last_game(self, value):
        return short_date(value)


def rating_rows(slug, rows) -> list[dict]:
    """A rating table's rows (club.selectors.rating's RatingRow) as the table reads them."""
    return [
        {
            "slug": slug,
            "person": row.person.pk,
            "rank": row.rank,
            "name": row.person.name,
            "rating": row.rating,
            "games": row.games,
            "average_place": row.average_place,
            "first_share": row.first_share,
            "last_game": row.last_played,
        }
        for row in rows
    ]


def others(lines, slug) -> str:
    """The players at a game's table, each with their wind, place and points, linked."""
    return format_html_join(
        "",
        '<span class="seat">{}: <a href="{}"><bdi>{}</bdi></a> <span class="result">{} ({})</span>'
        "</span>",
        (
            (
                line["wind"],
                reverse("public:club_person", args=[slug, line["person"]]),
                line["name"],
                line["score"],
                line["points"],
            )
            for line in lines
        ),
    )


class PersonGamesTable(FixedTable):
    """One person's games in the club, newest first; on a phone each game is a card."""

    date = tables.Column(verbose_name=_("Date"))
    table = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "num"}})
    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    score = NumberColumn(verbose_name=_("Score"))
    points = tables.Column(verbose_name=_("Points"), attrs={"td": {"class": "num total"}})
    others = tables.Column(verbose_name=_("Other players"), attrs={"td": {"class": "wrap"}})

    class Meta(FixedTable.Meta):
        attrs = {"class": "club-games"}
        template_name = STACKED
        empty_text = _("No rated games yet.")


class ClubGamesTable(FixedTable):
    """The club's games, newest first: date, table and the four seats."""

    date = tables.Column(verbose_name=_("Date"))
    table = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "num"}})
    seats = tables.Column(verbose_name=_("Players"), attrs={"td": {"class": "wrap"}})

    class Meta(FixedTable.Meta):
        attrs = {"class": "club-games"}
        template_name = STACKED
        empty_text = _("No rated games yet.")
