"""The backups page's tables: the backups folder and the restores made."""

import django_tables2 as tables
from django.utils import timezone
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext_lazy as _

from core.tables import FixedTable, NumberColumn


def to_the_second(moment) -> str:
    """A backup's time to the second: several backups a minute are usual at a session's end, and
    the director picks one by its time. Its date as the reader's language writes it (issue 37:
    "2026-11-28" on a Russian page)."""
    shown = f"{get_format('SHORT_DATE_FORMAT')} H:i:s"
    return date_format(timezone.localtime(moment), shown)


class BackupsTable(FixedTable):
    """The backups folder of one tournament, newest first (archive.backups.Backup rows)."""

    made_at = tables.Column(verbose_name=_("Written"))
    session = tables.Column(verbose_name=_("Last seated session"), attrs=NumberColumn.attrs)
    tag = tables.Column(verbose_name=_("Kind"), empty_values=())
    size = tables.Column(verbose_name=_("Size"), attrs=NumberColumn.attrs)
    actions = tables.TemplateColumn(
        template_name="archive/_backup_actions.html", verbose_name="", orderable=False
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No backups yet: the first is written with the first change.")

    def render_made_at(self, value):
        return to_the_second(value)

    def render_tag(self, value):
        return {
            "manual": _("written by hand"),
            "before-restore": _("state before a restore"),
        }.get(value, _("automatic"))

    def render_size(self, value):
        from django.template.defaultfilters import filesizeformat

        return filesizeformat(value)


class RestoresTable(FixedTable):
    restored_at = tables.Column(verbose_name=_("Restored"))
    restored_by = tables.Column(verbose_name=_("By"))
    backup = tables.Column(verbose_name=_("From"))
    before = tables.Column(verbose_name=_("State before saved as"))
    changes = tables.Column(verbose_name=_("Changes"), attrs=NumberColumn.attrs)

    def render_restored_at(self, value):
        return to_the_second(value)

    class Meta(FixedTable.Meta):
        empty_text = _("No restores.")


class RestorePreviewTable(FixedTable):
    """What a restore changes, record by record (archive.backups.preview_rows): a bounded
    number of each kind, then "and N more"."""

    what = tables.Column(verbose_name=_("What"))
    record = tables.Column(verbose_name=_("Record"), attrs={"td": {"class": "wrap"}})
    change = tables.Column(verbose_name=_("Difference"), default="")
    here = tables.Column(verbose_name=_("Here now"), default="", attrs={"td": {"class": "wrap"}})
    file = tables.Column(verbose_name=_("In the file"), default="", attrs={"td": {"class": "wrap"}})

    class Meta(FixedTable.Meta):
        row_attrs = {"class": lambda record: "more" if record.get("more") else ""}
        empty_text = _("The backup is the same as the tournament now: restoring changes nothing.")
