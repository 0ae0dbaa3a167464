"""The tournaments list, shared by the visitors', the desk's and the referee's home pages."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from core.tables import STACKED
from tournament.models import Tournament


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
        template_name = STACKED
