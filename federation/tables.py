"""The organisers' table of their publishing keys."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.tables import STACKED, FixedTable, when

from .models import Kind


def address(key) -> str:
    name = "public:standings" if key.kind == Kind.TOURNAMENT else "public:club_rating"
    return reverse(name, kwargs={"slug": key.slug})


class KeysTable(FixedTable):
    kind = tables.Column(verbose_name=_("Kind"))
    slug = tables.Column(verbose_name=_("Address"))
    label = tables.Column(verbose_name=_("Label"))
    created_at = tables.Column(verbose_name=_("Created"))
    last_used_at = tables.Column(verbose_name=_("Last used"), empty_values=())
    mirror = tables.Column(verbose_name=_("Mirror"), empty_values=(), accessor="pk")
    revoked_at = tables.TemplateColumn(
        template_name="federation/_revoke.html",
        verbose_name=_("Revoked"),
        empty_values=(),
    )

    class Meta(FixedTable.Meta):
        template_name = STACKED  # cards on a phone
        empty_text = _("No publishing keys yet.")

    def __init__(self, data, mirrors: dict, **kwargs):
        super().__init__(data, **kwargs)
        self.mirrors = mirrors  # (kind, slug) -> Mirror, read once by the view

    def render_kind(self, record):
        return record.get_kind_display()

    def render_slug(self, record):
        link = address(record)
        return format_html('<a href="{}">{}</a>', link, link)

    def render_label(self, value):
        return value or "–"

    def render_created_at(self, value):
        return when(value)

    def render_last_used_at(self, value):
        return when(value)

    def render_mirror(self, record):
        mirror = self.mirrors.get((record.kind, record.slug))
        if mirror is None or mirror.key_id != record.pk:
            return "–"
        return gettext("revision %(revision)d, updated %(changed)s, last heard %(heard)s") % {
            "revision": mirror.revision,
            "changed": when(mirror.changed_at),
            "heard": when(mirror.heard_at),
        }
