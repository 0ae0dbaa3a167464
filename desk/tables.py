"""The desk's tables: tournaments, players, check-in, clock board, sessions, results, seating."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.collation import collated
from core.tables import CollatedTable, FixedTable, NumberColumn, fmt
from seating.models import Wind
from tournament.models import Player
from tournament.tables import TournamentsTable


class DeskTournamentsTable(TournamentsTable):
    name = tables.Column(
        verbose_name=_("Tournament"), linkify=("desk:tournament", {"slug": tables.A("slug")})
    )

    class Meta(TournamentsTable.Meta):  # django-tables2 reads only a class's own Meta
        pass


class RefereeTournamentsTable(TournamentsTable):
    name = tables.Column(
        verbose_name=_("Tournament"), linkify=("referee:home", {"slug": tables.A("slug")})
    )

    class Meta(TournamentsTable.Meta):
        pass


class PlayersTable(CollatedTable):
    name = tables.Column(verbose_name=_("Name"))
    key = tables.Column(verbose_name=_("Key"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Team"))
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"))
    status = tables.Column(verbose_name=_("Status"))
    checked_in = tables.BooleanColumn(verbose_name=_("Checked in"))

    def render_name(self, record, value):
        """The name, and under it the name the EMA results sheet writes ("last, first": typed
        or transliterated) — a line under the name rather than a column, so the list fits a
        laptop's width."""
        link = format_html(
            '<a href="{}">{}</a>',
            reverse("desk:player_edit", args=[record.tournament.slug, record.pk]),
            value,
        )
        first, last = record.latin_parts(record.tournament.language)
        latin = ", ".join(part for part in (last, first) if part)
        if not latin or latin == value:
            return link
        return format_html(
            '{}<br><small class="latin" title="{}">{}</small>',
            link,
            _("Latin name (last, first)"),
            latin,
        )

    class Meta:
        model = Player
        fields = (
            "name",
            "key",
            "ema_id",
            "country",
            "club",
            "team",
            "substitute",
            "status",
            "checked_in",
        )
        empty_text = _("No players yet: add them or import a list.")


class CheckinTable(CollatedTable):
    """Every player who may check in; those the search does not find are hidden (`found`, set
    by the view), so that the page's script can show them again as the search changes."""

    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"))
    country = tables.Column(verbose_name=_("Country"))
    checked_in = tables.TemplateColumn(
        template_name="desk/_checkin_button.html", verbose_name=_("Check-in"), orderable=False
    )

    class Meta:
        model = Player
        fields = ("name", "club", "country", "checked_in")
        template_name = "desk/_checkin_table.html"
        row_attrs = {
            "data-player": lambda record: record.pk,
            "hidden": lambda record: None if record.found else "hidden",
        }
        empty_text = _("No players yet.")

    def render_name(self, record, value):
        if not record.substitute:
            return value
        return format_html('{} <span class="badge">{}</span>', value, gettext("substitute"))


class ImportPreviewTable(FixedTable):
    name = tables.Column(verbose_name=_("Name"))
    first_name = tables.Column(verbose_name=_("First name"))
    last_name = tables.Column(verbose_name=_("Last name"))
    latin_first_name = tables.Column(verbose_name=_("Latin first name"))
    latin_last_name = tables.Column(verbose_name=_("Latin last name"))
    # The split and the Latin name as the desk will keep and print them (issue 37).
    latin = tables.Column(verbose_name=_("Latin name (last, first)"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Team"))
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"))
    status = tables.Column(verbose_name=_("Status"))

    class Meta(FixedTable.Meta):
        pass

    @staticmethod
    def records(rows, language):
        """The rows of a list as the players they make (unsaved): their first and last name as
        the desk will split them (Named.name_parts) and their Latin name (last, first) by the
        player's own language where known (Named.latin_parts)."""
        for row in rows:
            player = Player(**row)
            first, last = player.name_parts()
            latin_first, latin_last = player.latin_parts(language)
            latin = ", ".join(part for part in (latin_last, latin_first) if part)
            yield {**row, "first_name": first, "last_name": last, "latin": latin}


class TableBoardTable(FixedTable):
    """The desk's view of a session in play: each table's state, extra time, time left."""

    number = tables.Column(
        verbose_name=_("Table"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "num"}},
    )
    players = tables.Column(verbose_name=_("Players"), attrs={"td": {"class": "wrap"}})
    state = tables.Column(
        verbose_name=_("State"),
        attrs={"td": {"class": lambda record: f"board-{record['state_code']}"}},
    )
    hands = tables.Column(
        verbose_name=_("Score sheet"), default="", attrs={"td": {"class": "wrap"}}
    )
    scores = tables.Column(verbose_name=_("Scores"), default="", attrs={"td": {"class": "wrap"}})
    extra = tables.Column(verbose_name=_("Extra time"), default="", attrs={"td": {"class": "num"}})
    left = tables.Column(
        verbose_name=_("Time left"),
        default="",
        attrs={"td": {"class": "num", "data-table-left": lambda record: record["extra_seconds"]}},
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No tables yet: seat the session first.")
        row_attrs = {
            "class": lambda record: "overtime" if record["overtime"] else "",
            "data-state": lambda record: record["state_code"],
        }


class ClockEventTable(FixedTable):
    at = tables.DateTimeColumn(verbose_name=_("When"), format="H:i:s")
    kind = tables.Column(verbose_name=_("What"))
    change = tables.Column(verbose_name=_("Minutes"), default="", attrs={"td": {"class": "num"}})
    table = tables.Column(verbose_name=_("Table"), default=_("all"))
    by = tables.Column(verbose_name=_("By"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("The clock has not been touched.")


class SessionTablesTable(FixedTable):
    number = tables.Column(
        verbose_name=_("Table"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "num"}},
    )
    E = tables.Column(verbose_name=_("East"), default="")
    S = tables.Column(verbose_name=_("South"), default="")
    W = tables.Column(verbose_name=_("West"), default="")
    N = tables.Column(verbose_name=_("North"), default="")
    players = tables.Column(verbose_name=_("Players"), default="", attrs={"td": {"class": "wrap"}})
    state = tables.Column(
        verbose_name=_("Result"),
        attrs={"td": {"class": lambda record: f"state-{record['state_code']}"}},
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No tables yet: draw the session or add tables by hand.")

    def render_players(self, value, record):
        if not record["winds_pending"]:
            return value
        return format_html(
            '{}<br><small class="pending">{}</small>', value, gettext("winds not drawn yet")
        )

    def render_state(self, value, record):
        """The state, then the scores in seat order: the confirmed ones, and a draft waiting
        for its second desk user marked as such (a correction shows both)."""
        parts = [format_html("{}", value)]
        if record["confirmed"]:
            parts.append(format_html('<span class="scores">{}</span>', record["confirmed"]))
        if record["draft"]:
            parts.append(
                format_html(
                    '<span class="scores draft">{}</span>',
                    _("draft: %(scores)s") % {"scores": record["draft"]},
                )
            )
        return format_html_join(mark_safe("<br>"), "{}", ((p,) for p in parts))


def _scores_text(scores: dict) -> str:
    """Scores by wind as the sheet reads them, in seat order: "42,000 · 31,000 · …"."""
    return " · ".join(fmt(scores[w]) for w in "ESWN" if w in scores)


def players_text(seats, pending: bool, language: str) -> str:
    """A table's players on one line, for tournaments whose winds are drawn at the table
    (`seats`: (wind, name) pairs): by name while its winds are still to be drawn (the seats'
    order would look like winds), else by wind with each wind said."""
    if pending:
        return " · ".join(collated((name for _wind, name in seats), language))
    return " · ".join(f"{Wind(wind).label} {name}" for wind, name in seats)


def wind_columns(tiles: bool) -> dict:
    """How a table of seats by table is built: one column a wind, or (winds drawn at the
    table: seating.selectors.winds_at_table) one column of the players."""
    return {"exclude": ("E", "S", "W", "N")} if tiles else {"exclude": ("players",)}


def session_rows(session, tables_qs, states, confirmed, drafts, pending=frozenset()):
    """Rows of a SessionTablesTable. `confirmed`: table number -> wind -> (score, chombo)
    (scoring.selectors.confirmed_scores); `drafts`: table id -> wind -> score
    (scoring.selectors.draft_scores); `pending`: ids of the tables whose winds are still to
    be drawn (seating.selectors.pending_tables)."""
    rows = []
    language = session.tournament.language
    for table in tables_qs:
        seats = {s.wind: s for s in table.seats.all()}
        state = states[table.pk]
        scores = {w: score for w, (score, _chombo) in confirmed.get(table.number, {}).items()}
        rows.append(
            {
                "number": table.number,
                "url": reverse(
                    "desk:result", args=[session.tournament.slug, session.number, table.number]
                ),
                **{w: seats[w].player.name if w in seats else "" for w in "ESWN"},
                "players": players_text(
                    [(w, seats[w].player.name) for w in "ESWN" if w in seats],
                    table.pk in pending,
                    language,
                ),
                "winds_pending": table.pk in pending,
                "state": state.label,
                "state_code": state.value,
                "confirmed": _scores_text(scores),
                "draft": _scores_text(drafts.get(table.pk, {})),
            }
        )
    return rows


class ResultHistoryTable(FixedTable):
    version = tables.Column(verbose_name=_("Version"))
    status = tables.Column(verbose_name=_("Status"))
    scores = tables.Column(verbose_name=_("Scores E / S / W / N"))
    chombo = tables.Column(verbose_name=_("Chombo"))
    entered = tables.Column(verbose_name=_("Entered"))
    confirmed = tables.Column(verbose_name=_("Confirmed"), default="–")
    note = tables.Column(verbose_name=_("Note"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("No result entered yet.")


class ResultTable(FixedTable):
    """The confirmed outcome of one table: places, uma and results by the rule set."""

    wind = tables.Column(verbose_name=_("Wind"))
    name = tables.Column(verbose_name=_("Player"))
    note = tables.Column(verbose_name=_("Note"), default="")
    score = NumberColumn(verbose_name=_("Score"))
    place = tables.Column(verbose_name=_("Place"), default="–")
    uma = NumberColumn(verbose_name=_("Uma"))
    penalty = NumberColumn(verbose_name=_("Penalty"))
    result = NumberColumn(verbose_name=_("Result"))

    class Meta(FixedTable.Meta):
        pass

    def __init__(self, *args, placement: str = "Uma", **kwargs):
        """`placement`: the game's name of what the place brings (mahjong.units)."""
        super().__init__(*args, **kwargs)
        self.columns["uma"].column.verbose_name = gettext(placement)


class SeatingByTableTable(FixedTable):
    number = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "big"}})
    E = tables.Column(verbose_name=_("East"), default="")
    S = tables.Column(verbose_name=_("South"), default="")
    W = tables.Column(verbose_name=_("West"), default="")
    N = tables.Column(verbose_name=_("North"), default="–")
    players = tables.Column(verbose_name=_("Players"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("This session is not seated yet.")


class SeatingByNameTable(FixedTable):
    name = tables.Column(verbose_name=_("Player"))
    table = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "big"}})
    wind = tables.Column(verbose_name=_("Wind"))

    class Meta(FixedTable.Meta):
        empty_text = _("This session is not seated yet.")


class QualityTable(FixedTable):
    """A plan's or a session's figures beside the bounds no seating can beat."""

    figure = tables.Column(verbose_name=_("Figure"))
    value = tables.Column(verbose_name=_("Value"), attrs={"td": {"class": "num"}})
    bound = tables.Column(
        verbose_name=_("Best possible"), default="", attrs={"td": {"class": "num"}}
    )

    class Meta(FixedTable.Meta):
        attrs = {"class": "quality"}
        empty_text = _("Nobody is seated yet: there is nothing to measure.")


class WindTable(FixedTable):
    name = tables.Column(verbose_name=_("Player"))
    E = tables.Column(verbose_name=_("East"), attrs={"td": {"class": "num"}})
    S = tables.Column(verbose_name=_("South"), attrs={"td": {"class": "num"}})
    W = tables.Column(verbose_name=_("West"), attrs={"td": {"class": "num"}})
    N = tables.Column(verbose_name=_("North"), attrs={"td": {"class": "num"}})
    imbalance = tables.Column(verbose_name=_("Imbalance"), attrs={"td": {"class": "num"}})

    class Meta(FixedTable.Meta):
        empty_text = _("Nobody has sat yet.")


class SeatingChangeTable(FixedTable):
    changed_at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    changed_by = tables.Column(verbose_name=_("Who"), default="—")
    kind = tables.Column(verbose_name=_("Change"))
    detail = tables.Column(verbose_name=_("Detail"))
    reason = tables.Column(verbose_name=_("Reason"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("No seating changes yet.")


class PlansTable(FixedTable):
    pk = tables.Column(
        verbose_name=_("Plan"),
        linkify=lambda record: reverse(
            "desk:plan", kwargs={"slug": record.tournament.slug, "pk": record.pk}
        ),
    )
    sessions = tables.Column(verbose_name=_("Sessions"), empty_values=())
    status = tables.Column(verbose_name=_("State"))
    extra = tables.Column(
        verbose_name=_("Extra meetings"), empty_values=(), attrs={"td": {"class": "num"}}
    )
    created_at = tables.DateTimeColumn(verbose_name=_("Made"), format="SHORT_DATETIME_FORMAT")
    created_by = tables.Column(verbose_name=_("By"), default="—")

    class Meta(FixedTable.Meta):
        empty_text = _("No plans yet.")

    def render_sessions(self, record):
        return f"{record.first}–{record.last}"

    def render_extra(self, record):
        return record.figures.get("extra_meetings", "—")
