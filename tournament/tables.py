"""Every table a person sees, as django-tables2 tables."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .models import Player, Tournament


def fmt(value):
    """A standings number: grouped thousands, at most two decimals, '–' for nothing."""
    if value is None or value == "":
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return number_format(round(value, 2), decimal_pos=None, force_grouping=True)
    return number_format(int(value), force_grouping=True)


class NumberColumn(tables.Column):
    attrs = {"td": {"class": "num"}, "th": {"class": "num"}}
    empty_values = ()  # render() shows the one dash for "nothing"

    def render(self, value):
        return fmt(value)


class TournamentsTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Tournament"), linkify=("public:standings", {"slug": tables.A("slug")})
    )
    start_date = tables.DateColumn(verbose_name=_("Starts"))
    venue = tables.Column(verbose_name=_("Venue"))
    ruleset = tables.Column(verbose_name=_("Rules"))

    class Meta:
        model = Tournament
        fields = ("name", "start_date", "venue", "ruleset")
        orderable = False
        empty_text = _("No tournaments yet.")


class DeskTournamentsTable(TournamentsTable):
    name = tables.Column(
        verbose_name=_("Tournament"), linkify=("desk:tournament", {"slug": tables.A("slug")})
    )


class RefereeTournamentsTable(TournamentsTable):
    name = tables.Column(
        verbose_name=_("Tournament"), linkify=("desk:referee", {"slug": tables.A("slug")})
    )


class StandingsTable(tables.Table):
    """Standings; the per-session columns are added by `standings_table`."""

    rank = tables.Column(
        verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}, "th": {"class": "num"}}
    )
    name = tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
    )
    country = tables.Column(
        verbose_name=_("Country"), attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    club = tables.Column(
        verbose_name=_("Club"), attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    total = NumberColumn(
        verbose_name=_("Total"), attrs={"td": {"class": "num total"}, "th": {"class": "num"}}
    )

    class Meta:
        template_name = "public/_standings_table.html"
        attrs = {"class": "standings"}
        empty_text = _("No results yet.")
        order_by = ("rank",)


def standings_table(standings, tournament, sessions: int, tiebreak_label=None):
    """Build the standings table from the pure standings rows; one column per session."""
    data = []
    for row in standings.rows:
        item = {
            "slug": tournament.slug,
            "key": row.player.key,
            "rank": row.rank,
            "name": row.player.name,
            "country": row.player.country,
            "club": row.player.club,
            "total": row.total,
            "tiebreak": row.tiebreak,
        }
        for line in row.sessions:
            item[f"s{line.session}"] = line.result
        data.append(item)
    played = {line.session for row in standings.rows for line in row.sessions}

    def session_column(n):
        # Sessions not played yet are hidden on phones (see desk.css): all dashes, no news.
        css = "num session" if n in played else "num session future"
        return NumberColumn(
            verbose_name=_("S%(n)d") % {"n": n}, attrs={"td": {"class": css}, "th": {"class": css}}
        )

    extra = [(f"s{n}", session_column(n)) for n in range(1, sessions + 1)]
    if tiebreak_label:
        extra.append(("tiebreak", NumberColumn(verbose_name=tiebreak_label)))
    # A row's cells after the rank are kept by this key (public/_standings_table.html): what
    # they show, everything that shapes the columns, and the language.
    columns = (sessions, tuple(sorted(played)), str(tiebreak_label), get_language())
    for item in data:
        item["row_key"] = repr((columns, [(k, v) for k, v in item.items() if k != "rank"]))
    table = StandingsTable(data, extra_columns=extra)
    table.sequence = ["rank", "name", "country", "club", "total", *[name for name, _c in extra]]
    return table


class TeamStandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"))
    members = tables.Column(verbose_name=_("Members"), orderable=False)
    total = NumberColumn(verbose_name=_("Total"))

    class Meta:
        attrs = {"class": "standings"}
        orderable = False


class PlayerSessionsTable(tables.Table):
    session = tables.Column(verbose_name=_("Session"))
    table = tables.Column(verbose_name=_("Table"), default="–")
    wind = tables.Column(
        verbose_name=_("Wind"),
        default="–",
        attrs={"td": {"class": "wide"}, "th": {"class": "wide"}},
    )
    opponents = tables.Column(
        verbose_name=_("Opponents"),
        default="",
        attrs={"td": {"class": "wrap wide"}, "th": {"class": "wide"}},
    )
    score = NumberColumn(verbose_name=_("Score"))
    place = tables.Column(verbose_name=_("Place"), default="–")
    uma = NumberColumn(
        verbose_name=_("Uma / TP"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}}
    )
    penalty = NumberColumn(
        verbose_name=_("Penalty"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}}
    )
    result = NumberColumn(verbose_name=_("Result"))
    running = NumberColumn(verbose_name=_("Total"))

    class Meta:
        orderable = False
        empty_text = _("No sessions played yet.")


class FindTableTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
    )
    table = tables.Column(verbose_name=_("Table"), default="–", attrs={"td": {"class": "big"}})
    wind = tables.Column(verbose_name=_("Wind"), default="–", attrs={"td": {"class": "big"}})
    opponents = tables.Column(
        verbose_name=_("At the table"),
        default="",
        attrs={"td": {"class": "wrap wide"}, "th": {"class": "wide"}},
    )

    class Meta:
        orderable = False
        empty_text = _("Nobody found: type part of your name.")


class PlayersTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Name"),
        linkify=lambda record: reverse(
            "desk:player_edit", args=[record.tournament.slug, record.pk]
        ),
    )
    key = tables.Column(verbose_name=_("Key"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Team"))
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"))
    status = tables.Column(verbose_name=_("Status"))
    checked_in = tables.BooleanColumn(verbose_name=_("Checked in"))

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


class CheckinTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"))
    country = tables.Column(verbose_name=_("Country"))
    checked_in = tables.TemplateColumn(
        template_name="desk/_checkin_button.html", verbose_name=_("Check-in"), orderable=False
    )

    class Meta:
        model = Player
        fields = ("name", "club", "country", "checked_in")
        row_attrs = {"data-name": lambda record: record.name.casefold()}
        empty_text = _("No players yet.")


class ImportPreviewTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Team"))
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"))
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        orderable = False


class AppealTable(tables.Table):
    """The appeals log (002 §2.9)."""

    filed_at = tables.DateTimeColumn(
        verbose_name=_("Filed"),
        format="TIME_FORMAT",
        linkify=lambda record: reverse(
            "desk:appeal", kwargs={"slug": record.tournament.slug, "pk": record.pk}
        ),
    )
    session = tables.Column(verbose_name=_("Session"), accessor="session__number")
    table = tables.Column(verbose_name=_("Table"), accessor="table__number", default="")
    appellant = tables.Column(verbose_name=_("Appellant"))
    subject = tables.Column(verbose_name=_("Decision appealed"))
    deposit = NumberColumn(verbose_name=_("Deposit"))
    status = tables.Column(verbose_name=_("Status"))
    decided_by = tables.Column(verbose_name=_("Decided by"), default="")
    deposit_returned = tables.BooleanColumn(verbose_name=_("Deposit returned"), null=True)

    class Meta:
        orderable = False
        attrs = {"class": "appeals"}
        empty_text = _("No appeals.")


class AppealHistoryTable(tables.Table):
    """Every saved state of one appeal, newest first, with who changed it."""

    history_date = tables.DateTimeColumn(verbose_name=_("When"), format="H:i:s")
    history_user = tables.Column(verbose_name=_("By"), default="")
    status = tables.Column(verbose_name=_("Status"))
    decided_by = tables.Column(verbose_name=_("Decided by"), default="")
    decision = tables.Column(verbose_name=_("Decision"), default="")

    class Meta:
        orderable = False
        empty_text = _("No changes yet.")

    def render_status(self, record):
        return record.get_status_display()


class SubstitutesTable(tables.Table):
    """Substitutes are not ranked (000 §5.7, 002 §2.8.4): their tables, listed apart."""

    name = tables.Column(
        verbose_name=_("Substitute"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
    )
    games = tables.Column(verbose_name=_("Tables played"), attrs={"td": {"class": "wrap"}})
    total = NumberColumn(verbose_name=_("Total"))

    class Meta:
        orderable = False
        attrs = {"class": "substitutes"}


def substitute_rows(slug, rows) -> list[dict]:
    out = []
    for row in rows:
        games = [
            _("S%(session)d T%(table)s: %(score)s, place %(place)s")
            % {
                "session": line.session,
                "table": line.table,
                "score": fmt(line.score),
                "place": line.place,
            }
            for line in row.sessions
            if line.table is not None
        ]
        out.append(
            {
                "slug": slug,
                "key": row.player.key,
                "name": row.player.name,
                "games": "; ".join(games) or "–",
                "total": row.total,
            }
        )
    return out


class TableBoardTable(tables.Table):
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
    extra = tables.Column(verbose_name=_("Extra time"), default="", attrs={"td": {"class": "num"}})
    left = tables.Column(
        verbose_name=_("Time left"),
        default="",
        attrs={"td": {"class": "num", "data-table-left": lambda record: record["extra_seconds"]}},
    )

    class Meta:
        orderable = False
        empty_text = _("No tables yet: seat the session first.")
        row_attrs = {
            "class": lambda record: "overtime" if record["overtime"] else "",
            "data-state": lambda record: record["state_code"],
        }


class ClockEventTable(tables.Table):
    at = tables.DateTimeColumn(verbose_name=_("When"), format="H:i:s")
    kind = tables.Column(verbose_name=_("What"))
    change = tables.Column(verbose_name=_("Minutes"), default="", attrs={"td": {"class": "num"}})
    table = tables.Column(verbose_name=_("Table"), default=_("all"))
    by = tables.Column(verbose_name=_("By"), default="")

    class Meta:
        orderable = False
        empty_text = _("The clock has not been touched.")


class BackupsTable(tables.Table):
    """The backups folder of one tournament, newest first (tournament.backups.Backup rows)."""

    made_at = tables.DateTimeColumn(verbose_name=_("Written"), format="SHORT_DATETIME_FORMAT")
    session = tables.Column(verbose_name=_("Last seated session"), attrs=NumberColumn.attrs)
    tag = tables.Column(verbose_name=_("Kind"), empty_values=())
    size = tables.Column(verbose_name=_("Size"), attrs=NumberColumn.attrs)
    actions = tables.TemplateColumn(
        template_name="desk/_backup_actions.html", verbose_name="", orderable=False
    )

    class Meta:
        orderable = False
        empty_text = _("No backups yet: the first is written with the first change.")

    def render_tag(self, value):
        return {
            "manual": _("written by hand"),
            "before-restore": _("state before a restore"),
        }.get(value, _("automatic"))

    def render_size(self, value):
        from django.template.defaultfilters import filesizeformat

        return filesizeformat(value)


class RestoresTable(tables.Table):
    restored_at = tables.DateTimeColumn(verbose_name=_("Restored"), format="SHORT_DATETIME_FORMAT")
    restored_by = tables.Column(verbose_name=_("By"))
    backup = tables.Column(verbose_name=_("From"))
    before = tables.Column(verbose_name=_("State before saved as"))
    changes = tables.Column(verbose_name=_("Changes"), attrs=NumberColumn.attrs)

    class Meta:
        orderable = False
        empty_text = _("No restores.")
