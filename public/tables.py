"""The visitors' tables: standings, teams, substitutes, a player's sessions, find my table."""

import html

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from core.tables import (
    ONE_PASS,
    STACKED,
    CollatedTable,
    FixedTable,
    NumberColumn,
    OnePassTable,
    fmt,
    formatter,
)

# Rows drawn, per language and columns: (row attributes, record) -> HTML. Bounded: a few
# revisions of a big field's standings in a few languages, then it starts over.
_DRAWN_ROWS: dict = {}
ROWS_KEPT = 5000
SHAPES_KEPT = 16  # languages × column sets (sessions played, sort) kept at once

_KEY = "~key~"  # stands for a player's key in a link; a slug has no "~", so it is there once


def row_key(record) -> str:
    """A standings row's player key, on its <tr data-key>: a phone's refresh names the rows
    that changed by it (public.cache.regions)."""
    return record["key"]


def _rank():
    return tables.Column(
        verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}, "th": {"class": "num"}}
    )


def _player():
    """A player's name, linked to their page."""
    return tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
        attrs={"td": {"class": "wrap"}},
    )


def _total():
    return NumberColumn(
        verbose_name=_("Total"), attrs={"td": {"class": "num total"}, "th": {"class": "num"}}
    )


class StandingsTable(CollatedTable):
    """Standings; the per-session columns are added by `standings_table`. Sorted by a name,
    a club or a country, in the tournament language's order."""

    rank = _rank()
    name = _player()
    country = tables.Column(
        verbose_name=_("Country"), attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    club = tables.Column(
        verbose_name=_("Club"), attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    total = _total()

    class Meta:
        template_name = ONE_PASS
        attrs = {"class": "standings"}
        empty_text = _("No results yet.")
        order_by = ("rank",)
        row_attrs = {"data-key": row_key}

    def body_html(self) -> str:
        """Every row in one pass (issue 26): each column's cell attributes are worked out once,
        and each cell is drawn from its record by the column's own formatting, not by the
        template engine cell by cell (85 % of a 400-player page's drawing). django-tables2
        still defines the columns, their headers and the sorting (the rows come in its order)."""
        columns = [(c.name, c.attrs["td"].as_html()) for c in self.columns]
        default = escape(self.default)
        number = formatter()
        cells = {}
        for name, attrs in columns:
            if name == "rank":
                cells[name] = (attrs, lambda value, record: escape(localize(value)))
            elif name == "name":
                # Every row's link from one reverse: a key is characters an address carries
                # as they are (tournament.models.KEY), so it goes in unquoted.
                links = {}

                def link(value, record, links=links):
                    slug = record["slug"]
                    if slug not in links:
                        links[slug] = reverse("public:player", args=[slug, _KEY])
                    url = links[slug].replace(_KEY, record["key"])
                    return f'<a href="{html.escape(url)}">{html.escape(str(value))}</a>'

                cells[name] = (attrs, link)
            elif isinstance(self.columns[name].column, NumberColumn):
                cells[name] = (attrs, lambda value, record: number(value))
            else:
                cells[name] = (
                    attrs,
                    lambda value, record: (
                        default if value in (None, "") else html.escape(str(value))
                    ),
                )
        drawn = [(name, *cells[name]) for name, _attrs in columns]
        # A row drawn for one revision is drawn alike for the next unless its record changed:
        # after a confirmation only the rows whose rank or numbers moved are drawn again.
        shape = (get_language(), tuple(columns))
        if shape not in _DRAWN_ROWS and len(_DRAWN_ROWS) >= SHAPES_KEPT:
            _DRAWN_ROWS.clear()  # the columns change as sessions are played: start over
        kept = _DRAWN_ROWS.setdefault(shape, {})
        if len(kept) > ROWS_KEPT:
            kept.clear()
        names = [name for name, _attrs in columns]
        # A row's attributes are its key and its even/odd class unless the table was given
        # other row_attrs (the order django-tables2 writes them in: a test holds it).
        own_attrs = self.row_attrs != {"data-key": row_key}
        parts = []
        for row in self.paginated_rows:
            record = row.record
            if own_attrs:
                attrs = row.attrs.as_html()
            else:
                parity = row.get_even_odd_css_class()
                attrs = f'data-key="{html.escape(record["key"])}" class="{parity}"'
            key = (attrs, record["slug"], record["key"], *map(record.get, names))
            found = kept.get(key)
            if found is None:
                found = kept[key] = "".join(
                    [
                        f"<tr {key[0]}>",
                        *(
                            f"<td {attrs}>{draw(record.get(name), record)}</td>"
                            for name, attrs, draw in drawn
                        ),
                        "</tr>\n",
                    ]
                )
            parts.append(found)
        return mark_safe("".join(parts))


def standings_table(standings, tournament, sessions: int, tiebreak_label=None, seated=None):
    """Build the standings table from the pure standings rows; one column per session.
    `seated`: the session seated now, whose column shows from its seating on (issue 39)."""
    data = []
    for row in standings.rows:
        item = {
            "slug": tournament.slug,
            "key": row.player.key,
            "rank": row.rank,
            "name": row.player.name,
            "country": row.player.country,
            "club": row.player.club,
            "total": row.total,
            "tiebreak": row.tiebreak,
        }
        for line in row.sessions:
            item[f"s{line.session}"] = line.result
        data.append(item)
    played = {line.session for row in standings.rows for line in row.sessions}
    # The session on shows from its seating, not from its first result: its first confirmation
    # then changes its four players' rows alone, not every row's class (a phone's refresh sends
    # what changed: public.cache.regions).
    played.update(range(1, (seated or 0) + 1))

    def session_column(n):
        # Sessions not played yet are hidden on phones (see desk.css): all dashes, no news.
        css = "num session" if n in played else "num session future"
        return NumberColumn(
            verbose_name=_("S%(n)d") % {"n": n}, attrs={"td": {"class": css}, "th": {"class": css}}
        )

    extra = [(f"s{n}", session_column(n)) for n in range(1, sessions + 1)]
    if tiebreak_label:
        extra.append(("tiebreak", NumberColumn(verbose_name=tiebreak_label)))
    table = StandingsTable(data, extra_columns=extra, language=tournament.language)
    table.sequence = ["rank", "name", "country", "club", "total", *[name for name, _c in extra]]
    return table


class TopStandingsTable(OnePassTable, FixedTable):
    """The top of the standings on a player's page (issue 39): the phone's own page shows the
    leaders too, the whole list one tap away."""

    rank = _rank()
    name = _player()
    total = _total()

    class Meta(FixedTable.Meta):
        template_name = ONE_PASS
        attrs = {"class": "standings top"}


TOP_ROWS = 10


def top_rows(slug, standings) -> list[dict]:
    """The first TOP_ROWS ranked rows of the standings, for TopStandingsTable."""
    return [
        {"slug": slug, "key": r.player.key, "rank": r.rank, "name": r.player.name, "total": r.total}
        for r in standings.rows[:TOP_ROWS]
    ]


class TeamStandingsTable(FixedTable):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"))
    members = tables.Column(
        verbose_name=_("Members"), orderable=False, attrs={"td": {"class": "wrap"}}
    )
    total = NumberColumn(verbose_name=_("Total"))

    class Meta(FixedTable.Meta):
        attrs = {"class": "standings"}
        template_name = STACKED  # a team's members need the phone's whole width


class PlayerSessionsTable(OnePassTable, FixedTable):
    session = tables.Column(verbose_name=_("Session"))
    table = tables.Column(verbose_name=_("Table"), default="–")
    wind = tables.Column(
        verbose_name=_("Wind"),
        default="–",
        attrs={"td": {"class": "wide"}, "th": {"class": "wide"}},
    )
    opponents = tables.Column(
        verbose_name=_("Opponents"),
        default="",
        attrs={"td": {"class": "wrap wide"}, "th": {"class": "wide"}},
    )
    # the narrowest phones leave the score out: place and result say what it made
    score = NumberColumn(
        verbose_name=_("Score"),
        attrs={"td": {"class": "num narrow"}, "th": {"class": "num narrow"}},
    )
    place = tables.Column(verbose_name=_("Place"), default="–")
    uma = NumberColumn(
        verbose_name=_("Uma"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}}
    )
    penalty = NumberColumn(
        verbose_name=_("Penalty"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}}
    )
    result = NumberColumn(verbose_name=_("Result"), attrs={"td": {"class": "num explained"}})
    running = NumberColumn(verbose_name=_("Total"))

    class Meta(FixedTable.Meta):
        template_name = ONE_PASS
        empty_text = _("No sessions played yet.")

    def __init__(self, *args, placement: str = "Uma", **kwargs):
        """`placement`: the game's name of what the place brings (mahjong.units)."""
        super().__init__(*args, **kwargs)
        self.placement = gettext(placement)
        self.columns["uma"].column.verbose_name = self.placement

    def render_result(self, value, record):
        """The result, and below it what made it: on a phone, where the uma and penalty
        columns are left out, those; everywhere, a substitute's or a replaced player's note."""
        parts = []
        if record.get("uma") is not None:
            parts.append(f"{self.placement} {fmt(record['uma'])}")
        if record.get("penalty"):
            parts.append(_("penalty %(penalty)s") % {"penalty": fmt(record["penalty"])})
        phone = format_html('<small class="why phone">{}</small>', ", ".join(parts))
        note = record.get("note")
        if note:
            note = format_html('<small class="why">{}</small>', note)
        return format_html("{}{}{}", fmt(value), phone if parts else "", note or "")


class FindTableTable(OnePassTable, FixedTable):
    name = tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
        attrs={"td": {"class": "wrap"}},
    )
    table = tables.Column(verbose_name=_("Table"), default="–", attrs={"td": {"class": "big"}})
    wind = tables.Column(verbose_name=_("Wind"), default="–", attrs={"td": {"class": "big"}})
    opponents = tables.Column(
        verbose_name=_("At the table"),
        default="",
        attrs={"td": {"class": "wrap wide"}, "th": {"class": "wide"}},
    )

    class Meta(FixedTable.Meta):
        template_name = ONE_PASS
        empty_text = _("Nobody found: type part of your name.")


class SubstitutesTable(FixedTable):
    """Substitutes are not ranked (000 §5.7, 002 §2.8.4): their tables, listed apart."""

    name = tables.Column(
        verbose_name=_("Substitute"),
        linkify=lambda record: reverse("public:player", args=[record["slug"], record["key"]]),
        attrs={"td": {"class": "wrap"}},
    )
    games = tables.Column(verbose_name=_("Tables played"), attrs={"td": {"class": "wrap"}})
    total = NumberColumn(verbose_name=_("Total"))

    class Meta(FixedTable.Meta):
        attrs = {"class": "substitutes"}


def substitute_rows(slug, rows) -> list[dict]:
    out = []
    for row in rows:
        games = [
            _("S%(session)d T%(table)s: %(score)s, place %(place)s")
            % {
                "session": line.session,
                "table": line.table,
                "score": fmt(line.score),
                "place": line.place,
            }
            for line in row.sessions
            if line.table is not None
        ]
        out.append(
            {
                "slug": slug,
                "key": row.player.key,
                "name": row.player.name,
                "games": "; ".join(games) or "–",
                "total": row.total,
            }
        )
    return out


# --- statistics from hands (mahjong.hands.stats) ------------------------------------------------


def share(value) -> str:
    """A share (0 to 1) as a whole percentage; '–' for none."""
    if value is None:
        return "–"
    return _("%(percent)s%%") % {"percent": fmt(round(value * 100))}


class ShareColumn(tables.Column):
    attrs = {"td": {"class": "num"}, "th": {"class": "num"}}
    empty_values = ()

    def render(self, value):
        return share(value)


class RiichiHandsTable(FixedTable):
    """One player's riichi hands in one row; on a phone, a card of "label: value" lines."""

    hands = NumberColumn(verbose_name=_("Hands played"))
    wins = NumberColumn(verbose_name=_("Wins"))
    deal_ins = NumberColumn(verbose_name=_("Deal-ins"))
    riichi = NumberColumn(verbose_name=_("Riichi declared"))
    riichi_won = NumberColumn(verbose_name=_("Riichi won"))
    average_win = NumberColumn(verbose_name=_("Average win"))
    tsumo_share = ShareColumn(verbose_name=_("Tsumo share"))
    chombo = NumberColumn(verbose_name=_("Chombo"))

    class Meta(FixedTable.Meta):
        attrs = {"class": "hand-stats"}
        template_name = STACKED


class SichuanHandsTable(FixedTable):
    """One player's Sichuan hands in one row; on a phone, a card of "label: value" lines."""

    hands = NumberColumn(verbose_name=_("Hands played"))
    hu = NumberColumn(verbose_name=_("Hu"))
    self_draw_share = ShareColumn(verbose_name=_("Self-draw share"))
    kong_points = NumberColumn(verbose_name=_("Kong points"))
    pigs = NumberColumn(verbose_name=_("Pigs"))
    false_hu = NumberColumn(verbose_name=_("False hu"))
    dead = NumberColumn(verbose_name=_("Dead hands"))  # 002 §2.8.3
    deal_ins = NumberColumn(verbose_name=_("Deal-ins"))

    class Meta(FixedTable.Meta):
        attrs = {"class": "hand-stats"}
        template_name = STACKED


def hands_table(game: str, stats):
    """The table of one player's stats (a RiichiStats or SichuanStats)."""
    table = SichuanHandsTable if game == "sichuan" else RiichiHandsTable
    row = {name: getattr(stats, name) for name in table.base_columns}
    return table([row])
