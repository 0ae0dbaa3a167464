"""The referee's tables: tables of a session, the penalty and incident log, appeals."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.tables import STACKED, FixedTable, NumberColumn


def worth_html(w) -> str:
    """A penalty's worth (a scoring.selectors.PenaltyWorth) as the referee's pages show it: a
    void one struck through, and said to be void for those who do not see the line."""
    if w is None:
        return "—"
    if w.penalty.voided_at is None:
        return w.text
    return format_html(
        '<del class="void-worth"><span class="sr-only">{}: </span>{}</del>',
        gettext("void"),
        w.voided_text,
    )


class AppealTable(FixedTable):
    """The appeals log (002 §2.9)."""

    filed_at = tables.DateTimeColumn(
        verbose_name=_("Filed"),
        format="TIME_FORMAT",
        linkify=lambda record: reverse(
            "referee:appeal", kwargs={"slug": record.tournament.slug, "pk": record.pk}
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

    class Meta(FixedTable.Meta):
        attrs = {"class": "appeals"}
        empty_text = _("No appeals.")
        template_name = STACKED


class AppealHistoryTable(FixedTable):
    """Every saved state of one appeal, newest first, with who changed it."""

    history_date = tables.DateTimeColumn(verbose_name=_("When"), format="H:i:s")
    history_user = tables.Column(verbose_name=_("By"), default="")
    status = tables.Column(verbose_name=_("Status"))
    decided_by = tables.Column(verbose_name=_("Decided by"), default="")
    decision = tables.Column(verbose_name=_("Decision"), default="")

    class Meta(FixedTable.Meta):
        empty_text = _("No changes yet.")
        template_name = STACKED

    def render_status(self, record):
        return record.get_status_display()


class RefereeTablesTable(FixedTable):
    """The session's tables for a referee's phone: tap a table to record something."""

    number = tables.Column(
        verbose_name=_("Table"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "big"}},
    )
    players = tables.Column(
        verbose_name=_("Players"), orderable=False, attrs={"td": {"class": "wrap"}}
    )
    records = tables.Column(verbose_name=_("Records"), default="", attrs={"td": {"class": "num"}})

    class Meta(FixedTable.Meta):
        attrs = {"class": "referee-tables"}
        empty_text = _("This session is not seated yet.")


class RecordTable(tables.Table):
    """A referee's records: void ones struck through, the director voids the others."""

    void = tables.TemplateColumn(
        verbose_name=_("Void"),
        template_name="referee/_void_cell.html",
        empty_values=(),
        orderable=False,
    )

    class Meta:
        row_attrs = {"class": lambda record: "void" if record.voided_at else ""}
        template_name = STACKED


class PenaltyTable(RecordTable):
    """Every penalty with what it is worth under the current rules (`worth`: penalty id →
    PenaltyWorth); a void one's worth struck through."""

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
        return worth_html(self.worth_of.get(record.pk))


class IncidentTable(RecordTable):
    recorded_at = tables.DateTimeColumn(verbose_name=_("When"), format="TIME_FORMAT")
    session = tables.Column(verbose_name=_("Session"), accessor="session__number", default="")
    table = tables.Column(verbose_name=_("Table"), accessor="table__number", default="")
    kind = tables.Column(verbose_name=_("Record"))
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", default="")
    substitute = tables.Column(
        verbose_name=_("Substitute"), accessor="substitute__name", default=""
    )
    text = tables.Column(verbose_name=_("What happened"), default="")
    recorded_by = tables.Column(verbose_name=_("By"), default="")

    class Meta(RecordTable.Meta):
        attrs = {"class": "incidents"}
        empty_text = _("No incidents.")
        sequence = ("...", "void")

    def render_substitute(self, record, value):
        return f"{value} ({record.get_kind_display()})" if value else ""


class HandChangeTable(FixedTable):
    """The table's corrected and undone hands: the referee sees every correction (issue 24)."""

    number = tables.Column(verbose_name=_("Hand"), attrs={"td": {"class": "num"}})
    version = tables.Column(verbose_name=_("Version"), attrs={"td": {"class": "num"}})
    change = tables.Column(verbose_name=_("Change"))
    reason = tables.Column(verbose_name=_("Reason"), default="", attrs={"td": {"class": "wrap"}})
    recorded = tables.Column(verbose_name=_("Recorded by"))
    changed_at = tables.DateTimeColumn(verbose_name=_("Changed"), format="H:i")

    class Meta(FixedTable.Meta):
        template_name = STACKED
        empty_text = _("No hand has been corrected or undone.")
