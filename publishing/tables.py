"""The standby page's tables: what the main desk sends to its standby, and what a standby
holds."""

import django_tables2 as tables
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from core.tables import STACKED, FixedTable, when

from .models import Publication


def _kind(value) -> str:
    return Publication.Kind(value).label


class StreamTable(FixedTable):
    """The main desk's side: one row per tournament, club and the accounts."""

    kind = tables.Column(verbose_name=_("Kind"))
    slug = tables.Column(verbose_name=_("Address"))
    revision = tables.Column(verbose_name=_("Newest revision here"))
    sent_revision = tables.Column(verbose_name=_("The standby holds"))
    sent_at = tables.Column(verbose_name=_("Last sent"), empty_values=())
    last_error = tables.Column(verbose_name=_("Last error"), empty_values=())

    class Meta(FixedTable.Meta):
        template_name = STACKED  # cards on a phone
        empty_text = _("Nothing is sent to a standby.")

    def render_kind(self, record):
        return record.get_kind_display()

    def render_sent_at(self, value):
        return when(value)

    def render_last_error(self, record):
        return record.error_text() or "–"


class ReceivedTable(FixedTable):
    """The standby's side: the newest file of each (publishing.standby.Received)."""

    kind = tables.Column(verbose_name=_("Kind"))
    slug = tables.Column(verbose_name=_("Address"))
    revision = tables.Column(verbose_name=_("Revision"))
    changed_at = tables.Column(verbose_name=_("Changed on the main desk"), empty_values=())
    received_at = tables.Column(verbose_name=_("Received"))
    size = tables.Column(verbose_name=_("Size"))

    class Meta(FixedTable.Meta):
        template_name = STACKED
        empty_text = _("Nothing received yet.")

    def render_kind(self, value):
        return _kind(value)

    def render_changed_at(self, value):
        return when(value)

    def render_received_at(self, value):
        return when(value)

    def render_size(self, value):
        return filesizeformat(value)
