"""The tables of a club rating's desk pages (issue 25): clubs, seasons, members, the evening's
check-in and tables, games, a game's history, the rating."""

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.tables import FixedTable, NumberColumn, isolated_names
from seating.models import WINDS, Wind

STATUS = {
    "waiting": _("waiting"),
    "draft": _("draft"),
    "confirmed": _("confirmed"),
    "superseded": _("superseded"),
    "void": _("void"),
}


def signed(points) -> str:
    """Rating points as 001 §13 writes them: one decimal, a sign (+19.0, 0.0, −20.0)."""
    if points is None:
        return "–"
    text = number_format(abs(points), decimal_pos=1, force_grouping=True)
    if round(points, 1) > 0:
        return "+" + text
    if round(points, 1) < 0:
        return "\u2212" + text
    return text


def stamp(who, when) -> str:
    """ "name, date time": `who` a user (None: "?") or a name (an entry's `entrant()`)."""
    if not when:
        return "–"
    name = who if isinstance(who, str) else who.get_username() if who else "?"
    return f"{name}, {date_format(timezone.localtime(when), 'SHORT_DATETIME_FORMAT')}"


def status_label(status: str) -> str:
    return str(STATUS.get(status, status))


class ClubsTable(FixedTable):
    name = tables.Column(
        verbose_name=_("Club rating"), linkify=("desk:club", {"club": tables.A("slug")})
    )
    slug = tables.Column(verbose_name=_("Address"))
    ruleset = tables.Column(verbose_name=_("Rules"), accessor="get_ruleset_display")
    min_games = tables.Column(verbose_name=_("Minimum games"))

    class Meta(FixedTable.Meta):
        empty_text = _("No club ratings yet.")

    def render_slug(self, value):
        return f"/r/{value}/"


class SeasonsTable(FixedTable):
    name = tables.Column(verbose_name=_("Season"))
    start = tables.DateColumn(verbose_name=_("First day"))
    end = tables.DateColumn(verbose_name=_("Last day"))
    closed = tables.Column(verbose_name=_("Status"), accessor="closed_at", empty_values=())
    actions = tables.TemplateColumn(
        template_name="desk/club/_season_actions.html", verbose_name="", orderable=False
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No seasons yet: the all-time table counts every game.")

    def render_closed(self, record):
        if record.closed:
            return gettext("closed by %(who)s") % {"who": stamp(record.closed_by, record.closed_at)}
        return gettext("open")


class MembersTable(FixedTable):
    name = tables.Column(verbose_name=_("Name"), accessor="person__name")
    joined_on = tables.DateColumn(verbose_name=_("Joined"))
    active = tables.BooleanColumn(verbose_name=_("Active"))
    games = NumberColumn(verbose_name=_("Games"), accessor="games_played")
    actions = tables.TemplateColumn(
        template_name="desk/club/_member_actions.html", verbose_name="", orderable=False
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No members yet.")

    def render_name(self, record, value):
        url = reverse("desk:club_member", args=[record.club.slug, record.pk])
        return format_html('<a href="{}"><bdi>{}</bdi></a>', url, value)


class PeopleFoundTable(FixedTable):
    """People of the desk a search finds, to add one as a member."""

    name = tables.Column(verbose_name=_("Name"))
    country = tables.Column(verbose_name=_("Country"), default="")
    club = tables.Column(verbose_name=_("Club"), default="")
    ema_id = tables.Column(verbose_name=_("EMA id"), default="")
    add = tables.TemplateColumn(
        template_name="desk/club/_person_add.html", verbose_name="", orderable=False
    )

    class Meta(FixedTable.Meta):
        empty_text = _("Nobody of this name on the desk: add them as a new person below.")


class PresenceTable(FixedTable):
    """Active members with their check-in button; those the search does not find are hidden
    (`found`, set by the view), for the page's script to show again (desk.js, as the
    tournament's check-in)."""

    name = tables.Column(verbose_name=_("Name"), accessor="person__name")
    club = tables.Column(verbose_name=_("Club"), accessor="person__club", default="")
    checked_in = tables.TemplateColumn(
        template_name="desk/club/_presence_button.html", verbose_name=_("Present")
    )

    class Meta(FixedTable.Meta):
        template_name = "desk/_checkin_table.html"
        row_attrs = {
            "data-player": lambda record: record.pk,
            "hidden": lambda record: None if record.found else "hidden",
        }
        empty_text = _("No active members yet.")


def _seat_names(state):
    return isolated_names(m.person.name for _w, m in state.seats) if state.seats else "–"


class GameStatesTable(FixedTable):
    """Games as their states (club.selectors.GameState): the evening's and the drafts."""

    played_on = tables.DateColumn(verbose_name=_("Date"), accessor="game__played_on")
    number = tables.Column(verbose_name=_("Table"), accessor="game__number")
    east = tables.Column(verbose_name=Wind.EAST.label, accessor="game", empty_values=())
    south = tables.Column(verbose_name=Wind.SOUTH.label, accessor="game", empty_values=())
    west = tables.Column(verbose_name=Wind.WEST.label, accessor="game", empty_values=())
    north = tables.Column(verbose_name=Wind.NORTH.label, accessor="game", empty_values=())
    status = tables.Column(verbose_name=_("Status"), accessor="status")
    entered = tables.Column(verbose_name=_("Recorded"), accessor="latest", empty_values=())

    class Meta(FixedTable.Meta):
        empty_text = _("No games yet.")

    def render_number(self, record, value):
        url = reverse("desk:club_game", args=[record.game.club.slug, record.game.pk])
        return format_html('<a href="{}">{}</a>', url, value)

    def _seat(self, record, wind):
        scores = {}
        if record.latest is not None and not record.latest.void:
            scores = {s.wind: s.score for s in record.latest.scores.all()}
        for w, member in record.seats:
            if w == wind:
                if wind in scores:
                    return format_html(
                        '<bdi>{}</bdi> <span class="meta">{}</span>',
                        member.person.name,
                        number_format(scores[wind], force_grouping=True),
                    )
                return format_html("<bdi>{}</bdi>", member.person.name)
        return "–"

    def render_east(self, record):
        return self._seat(record, "E")

    def render_south(self, record):
        return self._seat(record, "S")

    def render_west(self, record):
        return self._seat(record, "W")

    def render_north(self, record):
        return self._seat(record, "N")

    def render_status(self, record):
        return format_html(
            '<span class="state state-{}">{}</span>', record.status, status_label(record.status)
        )

    def render_entered(self, record):
        if record.latest is None:
            return "–"
        return stamp(record.latest.entrant(), record.latest.entered_at)


class GamesTable(tables.Table):
    """Every game of the club, newest first, a page at a time: the page's states and rated
    lines are read for that page only (`states`, `rated`, set by the view)."""

    played_on = tables.DateColumn(verbose_name=_("Date"))
    number = tables.Column(verbose_name=_("Table"))
    status = tables.Column(verbose_name=_("Status"), accessor="pk", empty_values=())
    lines = tables.Column(verbose_name=_("Result"), accessor="pk", empty_values=())

    class Meta:
        orderable = False
        empty_text = _("No games yet.")

    states: dict = {}
    rated: dict = {}

    def render_number(self, record, value):
        url = reverse("desk:club_game", args=[record.club.slug, record.pk])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_status(self, record):
        state = self.states.get(record.pk)
        status = state.status if state else "waiting"
        return format_html('<span class="state state-{}">{}</span>', status, status_label(status))

    def render_lines(self, record):
        row = self.rated.get(record.pk)
        if row is not None:
            return format_html_join(
                " · ",
                "{}: <bdi>{}</bdi> {} ({}{})",
                (
                    (
                        Wind(line.wind).label,
                        line.person.name,
                        number_format(line.score, force_grouping=True),
                        signed(line.points),
                        f", {gettext('chombo')} {line.chombo}" if line.chombo else "",
                    )
                    for line in row.lines
                ),
            )
        state = self.states.get(record.pk)
        return _seat_names(state) if state else "–"


class HistoryTable(FixedTable):
    """Every version of a game, newest first: nothing is overwritten."""

    version = tables.Column(verbose_name=_("Version"))
    status = tables.Column(verbose_name=_("Status"), empty_values=())
    scores = tables.Column(verbose_name=_("Scores E / S / W / N"), accessor="pk")
    chombo = tables.Column(verbose_name=_("Chombo"), accessor="pk")
    entered = tables.Column(verbose_name=_("Entered"), accessor="pk")
    confirmed = tables.Column(verbose_name=_("Confirmed"), accessor="pk")
    note = tables.Column(verbose_name=_("Note"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("No result recorded yet.")

    def _scores(self, record):
        return sorted(record.scores.all(), key=lambda s: WINDS.index(s.wind))

    def render_status(self, record):
        words = [status_label(record.status)]
        if record.void:
            words.append(gettext("takes the game out"))
        if record.closed_season_override:
            words.append(gettext("recorded in a closed season"))
        return ", ".join(words)

    def render_scores(self, record):
        if record.void:
            return "–"
        return format_html_join(
            " / ",
            "<bdi>{}</bdi> {}",
            (
                (s.member.person.name, number_format(s.score, force_grouping=True))
                for s in self._scores(record)
            ),
        )

    def render_chombo(self, record):
        if record.void:
            return "–"
        return " / ".join(str(s.chombo) for s in self._scores(record))

    def render_entered(self, record):
        return stamp(record.entrant(), record.entered_at)

    def render_confirmed(self, record):
        return stamp(record.confirmed_by, record.confirmed_at)


class RatingTable(FixedTable):
    """The rating (club.selectors.rating): rank, person, rating, games, average place, share of
    first places, last game. `charts` maps a person's pk to their member page."""

    rank = tables.Column(verbose_name=_("Rank"), default="–")
    name = tables.Column(verbose_name=_("Name"), accessor="person__name")
    rating = tables.Column(verbose_name=_("Rating"), attrs=NumberColumn.attrs)
    games = NumberColumn(verbose_name=_("Games"))
    average_place = tables.Column(verbose_name=_("Average place"), attrs=NumberColumn.attrs)
    first_share = tables.Column(verbose_name=_("First places"), attrs=NumberColumn.attrs)
    last_played = tables.DateColumn(verbose_name=_("Last game"))
    chart = tables.Column(verbose_name="", accessor="person__pk", orderable=False)

    def __init__(self, *args, charts=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.charts = charts or {}

    class Meta(FixedTable.Meta):
        empty_text = _("No rated games yet.")

    def render_name(self, record, value):
        return format_html('<a href="/desk/people/{}/"><bdi>{}</bdi></a>', record.person.pk, value)

    def render_rating(self, value):
        return signed(value)

    def render_average_place(self, value):
        return number_format(value, decimal_pos=2)

    def render_first_share(self, record, value):
        return format_html(
            '{} % <span class="meta">({})</span>',
            number_format(value * 100, decimal_pos=0),
            record.firsts,
        )

    def render_chart(self, value):
        url = self.charts.get(value)
        if not url:
            return ""
        return format_html('<a href="{}">{}</a>', url, gettext("chart"))


class MemberGamesTable(FixedTable):
    """A member's rated games: date, table, seat, place, score and rating points."""

    played_on = tables.DateColumn(verbose_name=_("Date"))
    number = tables.Column(verbose_name=_("Table"))
    wind = tables.Column(verbose_name=_("Seat"))
    place = tables.Column(verbose_name=_("Place"), attrs=NumberColumn.attrs)
    score = NumberColumn(verbose_name=_("Score"))
    chombo = NumberColumn(verbose_name=_("Chombo"))
    points = tables.Column(verbose_name=_("Points"), attrs=NumberColumn.attrs)

    class Meta(FixedTable.Meta):
        empty_text = _("No rated games yet.")

    def render_number(self, record, value):
        return format_html('<a href="{}">{}</a>', record["url"], value)

    def render_wind(self, value):
        return Wind(value).label

    def render_points(self, value):
        return signed(value)
