"""Desk tables for sessions and results (django-tables2)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.tables import NumberColumn


class SessionTablesTable(tables.Table):
    number = tables.Column(
        verbose_name=_("Table"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "num"}},
    )
    E = tables.Column(verbose_name=_("East"), default="")
    S = tables.Column(verbose_name=_("South"), default="")
    W = tables.Column(verbose_name=_("West"), default="")
    N = tables.Column(verbose_name=_("North"), default="")
    state = tables.Column(
        verbose_name=_("Result"),
        attrs={"td": {"class": lambda record: f"state-{record['state_code']}"}},
    )

    class Meta:
        orderable = False
        empty_text = _("No tables yet: draw the session or add tables by hand.")


def session_rows(session, tables_qs, latest_by_table, states):
    rows = []
    for table in tables_qs:
        seats = {s.wind: s for s in table.seats.all()}
        latest = latest_by_table.get(table.pk)
        code = latest.status if latest else "none"
        rows.append(
            {
                "number": table.number,
                "url": reverse(
                    "desk:result", args=[session.tournament.slug, session.number, table.number]
                ),
                **{w: seats[w].player.name if w in seats else "" for w in "ESWN"},
                "state": states.get(code, code),
                "state_code": code,
            }
        )
    return rows


class ResultHistoryTable(tables.Table):
    version = tables.Column(verbose_name=_("Version"))
    status = tables.Column(verbose_name=_("Status"))
    scores = tables.Column(verbose_name=_("Scores E / S / W / N"))
    chombo = tables.Column(verbose_name=_("Chombo"))
    entered = tables.Column(verbose_name=_("Entered"))
    confirmed = tables.Column(verbose_name=_("Confirmed"), default="–")
    note = tables.Column(verbose_name=_("Note"), default="")

    class Meta:
        orderable = False
        empty_text = _("No result entered yet.")


class ResultTable(tables.Table):
    """The confirmed outcome of one table: places, uma and results by the rule set."""

    wind = tables.Column(verbose_name=_("Wind"))
    name = tables.Column(verbose_name=_("Player"))
    score = NumberColumn(verbose_name=_("Score"))
    place = tables.Column(verbose_name=_("Place"))
    uma = NumberColumn(verbose_name=_("Uma / TP"))
    result = NumberColumn(verbose_name=_("Result"))

    class Meta:
        orderable = False


class RefereeTablesTable(tables.Table):
    """The session's tables for a referee's phone: tap a table to record something."""

    number = tables.Column(
        verbose_name=_("Table"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "big"}},
    )
    players = tables.Column(verbose_name=_("Players"), orderable=False)
    records = tables.Column(verbose_name=_("Records"), default="", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "referee-tables"}
        empty_text = _("This session is not seated yet.")


class RecordTable(tables.Table):
    """A referee's records: void ones struck through, the director voids the others."""

    void = tables.TemplateColumn(
        verbose_name=_("Void"),
        template_name="desk/_void_cell.html",
        empty_values=(),
        orderable=False,
    )

    class Meta:
        row_attrs = {"class": lambda record: "void" if record.voided_at else ""}


class PenaltyTable(RecordTable):
    """Every penalty with what it is worth under the current rules."""

    recorded_at = tables.DateTimeColumn(verbose_name=_("When"), format="TIME_FORMAT")
    session = tables.Column(verbose_name=_("Session"), accessor="session__number")
    table = tables.Column(verbose_name=_("Table"), accessor="table__number", default="")
    player = tables.Column(verbose_name=_("Player"), accessor="player__name")
    kind = tables.Column(verbose_name=_("Penalty"))
    worth = tables.Column(verbose_name=_("Amount"), empty_values=(), orderable=False)
    note = tables.Column(verbose_name=_("Note"), default="")
    recorded_by = tables.Column(verbose_name=_("By"), default="")

    class Meta(RecordTable.Meta):
        attrs = {"class": "penalties"}
        empty_text = _("No penalties.")
        sequence = ("...", "void")

    def __init__(self, *args, worth=None, **kwargs):
        self.worth_of = worth or {}
        super().__init__(*args, **kwargs)

    def render_kind(self, record):
        text = record.get_kind_display()
        if record.minutes:
            text += " · " + _("%(minutes)d min") % {"minutes": record.minutes}
        return text

    def render_worth(self, record):
        return self.worth_of.get(record.pk, "—")


class IncidentTable(RecordTable):
    recorded_at = tables.DateTimeColumn(verbose_name=_("When"), format="TIME_FORMAT")
    session = tables.Column(verbose_name=_("Session"), accessor="session__number", default="")
    table = tables.Column(verbose_name=_("Table"), accessor="table__number", default="")
    kind = tables.Column(verbose_name=_("Record"))
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", default="")
    substitute = tables.Column(verbose_name=_("Substitute"), accessor="substitute__name")
    text = tables.Column(verbose_name=_("What happened"), default="")
    recorded_by = tables.Column(verbose_name=_("By"), default="")

    class Meta(RecordTable.Meta):
        attrs = {"class": "incidents"}
        empty_text = _("No incidents.")
        sequence = ("...", "void")

    def render_substitute(self, record, value):
        return f"{value} ({record.get_kind_display()})" if value else ""
