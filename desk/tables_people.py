"""The people pages' tables (issue 25): the matches of a tournament's players, the desk's people,
a person's events and merges."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.tables import CollatedTable, FixedTable, NumberColumn


def _person_link(person):
    return format_html('<a href="{}">{}</a>', reverse("desk:person", args=[person.pk]), person.name)


class MatchesTable(FixedTable):
    """Each player without a person and the choice of whom it is (`choice`: the bound field of
    desk.forms_people.MatchesForm, set by the view)."""

    name = tables.Column(verbose_name=_("Player"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    choice = tables.TemplateColumn(
        template_name="desk/_match_choice.html", verbose_name=_("Person"), empty_values=()
    )

    class Meta(FixedTable.Meta):
        empty_text = _("Every player is linked to a person.")


class LinkedTable(FixedTable):
    name = tables.Column(verbose_name=_("Player"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    person = tables.Column(verbose_name=_("Person"))

    class Meta(FixedTable.Meta):
        empty_text = _("No player is linked to a person yet.")

    def render_person(self, value):
        return _person_link(value)


class PeopleTable(CollatedTable):
    name = tables.Column(verbose_name=_("Name"))
    ema_id = tables.Column(verbose_name=_("EMA id"))
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"))
    events = NumberColumn(verbose_name=_("Events"))
    clubs = NumberColumn(verbose_name=_("Club ratings"))

    class Meta:
        empty_text = _("No people yet: add one, or accept the matches of a tournament's players.")

    def render_name(self, record):
        return _person_link(record)


class PersonEventsTable(FixedTable):
    """A person's tournaments (scoring.selectors.person_events)."""

    tournament = tables.Column(verbose_name=_("Tournament"))
    dates = tables.Column(verbose_name=_("Dates"), empty_values=(), accessor="tournament")
    player = tables.Column(verbose_name=_("Player"))
    rank = NumberColumn(verbose_name=_("Rank"))
    total = NumberColumn(verbose_name=_("Total"))

    class Meta(FixedTable.Meta):
        empty_text = _("No events yet.")

    def render_tournament(self, value):
        return format_html(
            '<a href="{}">{}</a>', reverse("desk:tournament", args=[value.slug]), value.name
        )

    def render_dates(self, value):
        days = [
            date_format(d, "SHORT_DATE_FORMAT") for d in (value.start_date, value.end_date) if d
        ]
        return " – ".join(dict.fromkeys(days)) or "–"

    def render_player(self, record):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("desk:player_edit", args=[record.tournament.slug, record.player.pk]),
            record.player.name,
        )


class PersonChangesTable(FixedTable):
    """A person's merges and splits (people.selectors.person_changes): who, when, why, and a
    merge not split yet can be split again."""

    at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    kind = tables.Column(verbose_name=_("Change"))
    kept = tables.Column(verbose_name=_("Kept"))
    other = tables.Column(verbose_name=_("Merged"))
    by = tables.Column(verbose_name=_("By"))
    reason = tables.Column(verbose_name=_("Reason"))
    split = tables.TemplateColumn(
        template_name="desk/_split_cell.html", verbose_name="", empty_values=()
    )

    class Meta(FixedTable.Meta):
        empty_text = _("Never merged nor split.")

    def render_kind(self, record):
        return record.get_kind_display()

    def render_kept(self, value):
        return _person_link(value)

    def render_other(self, value):
        return _person_link(value)


class PersonRatedGamesTable(FixedTable):
    """A person's confirmed rated games in every club rating, newest first (rows from
    desk.views_people.rated_game_rows)."""

    club = tables.Column(verbose_name=_("Club rating"))
    played_on = tables.DateColumn(verbose_name=_("Date"), short=True)
    number = NumberColumn(verbose_name=_("Table"))
    place = NumberColumn(verbose_name=_("Place"))
    score = NumberColumn(verbose_name=_("Score"))
    points = NumberColumn(verbose_name=_("Points"))
    others = tables.Column(verbose_name=_("At the table"))

    class Meta(FixedTable.Meta):
        empty_text = _("No rated games yet.")

    def render_club(self, value):
        return format_html('<a href="/r/{}/">{}</a>', value.slug, value.name)
