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
