"""The users page's tables (issue 34): the desk's users and one user's roles."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.roles import DIRECTOR, GROUPS, ROLE_NAMES
from core.tables import FixedTable, when


def _by(user) -> str:
    return user.get_username() if user else gettext("on upgrade")


class UsersTable(FixedTable):
    username = tables.Column(verbose_name=_("User"), linkify=("desk:user", {"pk": tables.A("pk")}))
    roles = tables.Column(verbose_name=_("Roles"), empty_values=(), accessor="pk")
    events = tables.Column(verbose_name=_("Tournaments and clubs"), empty_values=(), accessor="pk")
    active = tables.Column(verbose_name=_("Active"), accessor="is_active")
    last_login = tables.Column(verbose_name=_("Last login"))

    class Meta(FixedTable.Meta):
        empty_text = _("No users yet.")

    def render_roles(self, record):
        # the groups prefetched by the view: no query a row
        names = {group.name for group in record.groups.all()}
        if record.is_superuser:
            names.add(DIRECTOR)
        shown = [str(ROLE_NAMES[name]) for name in GROUPS if name in names]
        return ", ".join(shown) if shown else "–"

    def render_events(self, record):
        # counted by the view (annotations): no query a row
        return f"{record.n_tournaments} / {record.n_clubs}"

    def render_active(self, value):
        return gettext("yes") if value else gettext("no (deactivated)")

    def render_last_login(self, value):
        return when(value)


class TournamentRolesTable(FixedTable):
    tournament = tables.Column(verbose_name=_("Tournament"))
    role = tables.Column(verbose_name=_("Role"))
    given = tables.Column(verbose_name=_("Given"), empty_values=(), accessor="granted_at")
    take = tables.TemplateColumn(
        template_name="desk/_take_role.html", verbose_name="", empty_values=(), accessor="pk"
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No tournament: this user reaches none.")

    def render_role(self, record):
        return record.get_role_display()

    def render_given(self, record):
        return format_html("{}, {}", _by(record.granted_by), when(record.granted_at))


class ClubRolesTable(FixedTable):
    club = tables.Column(verbose_name=_("Club rating"))
    given = tables.Column(verbose_name=_("Given"), empty_values=(), accessor="granted_at")
    take = tables.TemplateColumn(
        template_name="desk/_take_club.html", verbose_name="", empty_values=(), accessor="pk"
    )

    class Meta(FixedTable.Meta):
        empty_text = _("No club rating: this user keeps none.")

    def render_given(self, record):
        return format_html("{}, {}", _by(record.granted_by), when(record.granted_at))
