"""django-tables2 helpers every room's tables use: number formatting, signatures read once, and
sorting by a column in the tournament language's order (CollatedTable).

django-tables2 reads each render_* method's signature with `inspect.signature` for every
cell it draws: 28 µs a cell, 40 % of a public player page and a quarter of the 200-row
standings. A method's signature never changes, so it is read once per function.

Installed by CoreConfig.ready(); `django_tables2.utils.call_with_appropriate` looks the
module's `signature` up at each call, so replacing it there is enough.
"""

import functools

import django_tables2 as tables
from django.template import Context
from django.template.base import render_value_in_context
from django.utils import formats, numberformat, timezone
from django.utils.formats import date_format, get_format, number_format
from django.utils.html import escape, format_html_join
from django.utils.safestring import mark_safe
from django_tables2 import utils
from django_tables2.data import TableListData

from core.collation import sort_key

_uncached = utils.signature


@functools.lru_cache(maxsize=4096)
def _signature_of(function, bound: bool):
    return _uncached(function.__get__(object()) if bound else function)


def signature(fn):
    function = getattr(fn, "__func__", None)
    if function is None or not callable(function):
        return _uncached(fn)
    return _signature_of(function, True)


def install() -> None:
    if utils.signature is not signature:
        utils.signature = signature


def fmt(value):
    """A standings number: grouped thousands, at most two decimals, '–' for nothing."""
    if value is None or value == "":
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return number_format(round(value, 2), decimal_pos=None, force_grouping=True)
    return number_format(int(value), force_grouping=True)


def formatter():
    """`fmt` for a whole table's numbers in the current language, as HTML: the language's
    separators are looked up once, not for every cell (a 400-player standings table formats
    5,600 numbers, and `number_format` asked for the separators 16,800 times, a third of the
    table's drawing). The same text as `fmt`, escaped (a test holds them equal)."""
    decimal = get_format("DECIMAL_SEPARATOR")
    thousand = get_format("THOUSAND_SEPARATOR")
    grouping = get_format("NUMBER_GROUPING")
    html_decimal, html_thousand = escape(decimal), escape(thousand)

    def draw(value) -> str:
        if value is None or value == "":
            return "–"
        if isinstance(value, float) and not value.is_integer():
            value = round(value, 2)
            text = repr(value)
            if grouping != 3 or "e" in text:
                return escape(
                    numberformat.format(
                        value, decimal, None, grouping, thousand, force_grouping=True
                    )
                )
            whole, _dot, fraction = text.lstrip("-").partition(".")
            sign = "-" if text.startswith("-") else ""
            return sign + f"{int(whole):,}".replace(",", html_thousand) + html_decimal + fraction
        if grouping != 3:
            return escape(numberformat.format(int(value), decimal, None, grouping, thousand, True))
        return f"{int(value):,}".replace(",", html_thousand)

    return draw


class NumberColumn(tables.Column):
    attrs = {"td": {"class": "num"}, "th": {"class": "num"}}
    empty_values = ()  # render() shows the one dash for "nothing"

    def render(self, value):
        return fmt(value)


# The template of a table whose rows are drawn in one pass (OnePassTable.body_html).
ONE_PASS = "_one_pass_table.html"


class OnePassTable(tables.Table):
    """A table whose rows are drawn in one pass (issue 26): django-tables2 works out each cell
    as ever (its columns, render_* methods, linkify, defaults), and Python writes the rows'
    HTML, not the template engine cell by cell (nine tenths of a 12-row player page's drawing).
    The same HTML as django-tables2's own template; tests hold them equal."""

    class Meta:
        template_name = ONE_PASS

    def body_html(self) -> str:
        parts = []
        context = Context()  # what {{ cell }} is written in: autoescape, the settings' l10n
        once = {}  # column -> its cells' attributes, unless they depend on the record
        for row in self.paginated_rows:
            parts.append(f"<tr {row.attrs.as_html()}>")
            for column, cell in row.items():
                attrs = once.get(column.name)
                if attrs is None:
                    attrs = column.attrs["td"].as_html()
                    if not _per_record(column):
                        once[column.name] = attrs
                if column.localize is not None:  # the template's |localize or |unlocalize
                    cell = str(formats.localize(cell, use_l10n=column.localize))
                parts.append(f"<td {attrs}>{render_value_in_context(cell, context)}</td>")
            parts.append("</tr>\n")
        return mark_safe("".join(parts))


def _per_record(column) -> bool:
    """Whether a column's cell attributes are worked out from each record (callables)."""
    return any(callable(value) for value in column.column.attrs.get("td", {}).values())


# The template of a table whose rows become "label: value" cards on a phone (desk.css, .stacked):
# for the records a phone must show whole (penalties, appeals), not only their first columns.
STACKED = "_stacked_table.html"


def when(value) -> str:
    """A moment in a table's cell: the local short date and time, or "–" for none."""
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT") if value else "–"


class FixedTable(tables.Table):
    """A table shown in the order it is given (most of the desk's): no sortable headers.
    Subclasses' own Meta inherits from FixedTable.Meta to keep it."""

    class Meta:
        orderable = False


class CollatedData(TableListData):
    """A table's rows, sorted by a column in Python: its text in `language`'s order
    (core.collation), not by character code nor by the database's collation (which differs
    between SQLite and PostgreSQL); empty cells first, numbers as numbers."""

    def __init__(self, data, language: str):
        super().__init__(list(data))
        self.language = language

    def order_by(self, aliases):
        order = []
        for alias in aliases:
            column = self.table.columns[utils.OrderBy(alias).bare]
            flip = alias[0] != column.order_by_alias[0]
            order += column.order_by.opposite if flip else column.order_by
        # One stable sort per accessor, the least significant first.
        for accessor in reversed(order):
            path = utils.Accessor(accessor.bare)
            self.data.sort(
                key=lambda row, path=path: self._key(path.resolve(row, quiet=True)),
                reverse=accessor.is_descending,
            )

    def _key(self, value):
        if value is None or value == "":
            return (0,)
        if isinstance(value, str):
            return (2, sort_key(value, self.language))
        return (1, value)


class CollatedTable(tables.Table):
    """A sortable table of a tournament's rows (names, clubs, countries): give it the rows (a
    list, or a queryset read whole) and the tournament's language."""

    def __init__(self, data, *args, language: str = "", **kwargs):
        super().__init__(CollatedData(data, language), *args, **kwargs)


def isolated_names(names):
    """Names joined by commas, each in its own <bdi>: a name in a right-to-left script, or one
    with a direction override in it, cannot turn its neighbours around (issue 22)."""
    return format_html_join(", ", "<bdi>{}</bdi>", ((name,) for name in names))


def isolated_seats(seats):
    """(wind, name) pairs as "East: name, South: name", each name isolated likewise."""
    return format_html_join(", ", "{}: <bdi>{}</bdi>", seats)
