"""Seating lists for the wall (django-tables2)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class SeatingByTableTable(tables.Table):
    number = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "big"}})
    E = tables.Column(verbose_name=_("East"), default="")
    S = tables.Column(verbose_name=_("South"), default="")
    W = tables.Column(verbose_name=_("West"), default="")
    N = tables.Column(verbose_name=_("North"), default="–")

    class Meta:
        orderable = False
        empty_text = _("This session is not seated yet.")


class SeatingByNameTable(tables.Table):
    name = tables.Column(verbose_name=_("Player"))
    table = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "big"}})
    wind = tables.Column(verbose_name=_("Wind"))

    class Meta:
        orderable = False
        empty_text = _("This session is not seated yet.")


class QualityTable(tables.Table):
    """A plan's or a session's figures beside the bounds no seating can beat."""

    figure = tables.Column(verbose_name=_("Figure"))
    value = tables.Column(verbose_name=_("Value"), attrs={"td": {"class": "num"}})
    bound = tables.Column(
        verbose_name=_("Best possible"), default="", attrs={"td": {"class": "num"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "quality"}


class WindTable(tables.Table):
    name = tables.Column(verbose_name=_("Player"))
    E = tables.Column(verbose_name=_("East"), attrs={"td": {"class": "num"}})
    S = tables.Column(verbose_name=_("South"), attrs={"td": {"class": "num"}})
    W = tables.Column(verbose_name=_("West"), attrs={"td": {"class": "num"}})
    N = tables.Column(verbose_name=_("North"), attrs={"td": {"class": "num"}})
    imbalance = tables.Column(verbose_name=_("Imbalance"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        empty_text = _("Nobody has sat yet.")


class SeatingChangeTable(tables.Table):
    changed_at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    changed_by = tables.Column(verbose_name=_("Who"), default="—")
    kind = tables.Column(verbose_name=_("Change"))
    detail = tables.Column(verbose_name=_("Detail"))
    reason = tables.Column(verbose_name=_("Reason"), default="")

    class Meta:
        orderable = False
        empty_text = _("No seating changes yet.")


class PlansTable(tables.Table):
    pk = tables.Column(verbose_name=_("Plan"), linkify=True)
    sessions = tables.Column(verbose_name=_("Sessions"), empty_values=())
    status = tables.Column(verbose_name=_("State"))
    extra = tables.Column(
        verbose_name=_("Extra meetings"), empty_values=(), attrs={"td": {"class": "num"}}
    )
    created_at = tables.DateTimeColumn(verbose_name=_("Made"), format="SHORT_DATETIME_FORMAT")
    created_by = tables.Column(verbose_name=_("By"), default="—")

    class Meta:
        orderable = False
        empty_text = _("No plans yet.")

    def render_sessions(self, record):
        return f"{record.first}–{record.last}"

    def render_extra(self, record):
        return record.figures.get("extra_meetings", "—")
