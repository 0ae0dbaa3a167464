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
