"""What every workbook is written with (openpyxl, write-only): the cells' kinds and their
number formats by the rule set, a sheet's headings and rows, and the writing of a sheet with
column widths that fit the content and text that can never read as a formula.
"""

from __future__ import annotations

import io
from decimal import Decimal

from django.utils.translation import gettext as _
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

# Cell kinds: how a column's numbers are shown. "result" and "score" depend on the rule set.
TEXT, INT, RESULT, SCORE, MONEY, WHEN = "text", "int", "result", "score", "money", "when"
PERCENT = "percent"  # a share from 0 to 1, shown as a whole percentage

_BOLD = Font(bold=True)
_MAX_WIDTH = 45


class Sheet:
    """One sheet's headings and rows, written at the end so column widths fit the content."""

    def __init__(self, title: str, columns: list[tuple[str, str]], freeze: str = "A2"):
        self.title = title
        self.headings = [heading for heading, _kind in columns]
        self.kinds = [kind for _heading, kind in columns]
        self.freeze = freeze
        self.rows = []  # (values, font or None, kinds of this row)

    def add(self, values, font=None, kinds=None):
        """kinds: {column index: kind} where this row's numbers differ from the column's."""
        row_kinds = self.kinds
        if kinds:
            row_kinds = [kinds.get(i, kind) for i, kind in enumerate(self.kinds)]
        self.rows.append((list(values), font, row_kinds))


class Formats:
    """Excel number formats by the rule set: riichi points as grouped integers (−12,300),
    Furiten rating to one decimal (001 §13.2), Sichuan TP to at most two decimals."""

    def __init__(self, rules):
        self.decimals = rules.decimals
        # TP split among tied players are whole, halves, thirds…: show only the digits needed.
        self.result_fixed = rules.result_unit != "tp"

    @staticmethod
    def _upto(value, decimals) -> str:
        if decimals == 0 or isinstance(value, int) or float(value).is_integer():
            return "#,##0"
        digits = f"{round(float(value), decimals):.{decimals}f}".rstrip("0").split(".")[1]
        return "#,##0." + "0" * len(digits)

    def __call__(self, kind, value) -> str | None:
        if kind == RESULT:
            if self.result_fixed:
                return "#,##0" if self.decimals == 0 else "#,##0." + "0" * self.decimals
            return self._upto(value, self.decimals)
        if kind == SCORE:
            return self._upto(value, self.decimals)
        if kind == INT:
            return "#,##0"
        if kind == MONEY:
            return "#,##0.00"
        if kind == WHEN:
            return "yyyy-mm-dd hh:mm"
        if kind == PERCENT:
            return "0%"
        if kind == TEXT:
            return "@"
        return None


def _shown_width(value, kind) -> int:
    if value is None:
        return 0
    if kind == WHEN:
        return 16
    if kind == PERCENT:
        return 4
    if isinstance(value, (int, float, Decimal)):
        return len(f"{value:,.2f}") if kind in (SCORE, RESULT, MONEY) else len(f"{value:,}")
    return max((len(part) for part in str(value).splitlines()), default=0)


def _safe_title(title: str, taken: set) -> str:
    # Excel refuses []:*?/\ in a sheet name and more than 31 characters; a translation might.
    clean = "".join(" " if c in "[]:*?/\\" else c for c in title).strip()[:31] or "Sheet"
    name, n = clean, 2
    while name.casefold() in taken:
        suffix = f" ({n})"
        name, n = clean[: 31 - len(suffix)] + suffix, n + 1
    taken.add(name.casefold())
    return name


# OWASP's CSV-injection advice: a text that a spreadsheet could read as a formula (or an error
# code) is written as text, with Excel's quote prefix so that editing the cell keeps it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str):
    """A text as a cell: the control characters an .xlsx cannot hold dropped, and a cell that
    is text whatever it starts with (a name typed as "=HYPERLINK(…)" stays that name)."""
    value = ILLEGAL_CHARACTERS_RE.sub("", value)
    if not value.startswith(FORMULA_STARTS) and value not in ERROR_CODES:
        return value
    return value, True


def write_sheet(wb, sheet: Sheet, formats: Formats, taken: set):
    ws = wb.create_sheet(_safe_title(sheet.title, taken))
    widths = [len(h) for h in sheet.headings]
    for values, _font, kinds in sheet.rows:
        for i, (value, kind) in enumerate(zip(values, kinds, strict=True)):
            widths[i] = max(widths[i], _shown_width(value, kind))
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(width + 2, _MAX_WIDTH)
    ws.freeze_panes = sheet.freeze
    last = get_column_letter(len(sheet.headings))
    ws.auto_filter.ref = f"A1:{last}{len(sheet.rows) + 1}"
    header = []
    for heading in sheet.headings:
        cell = WriteOnlyCell(ws, ILLEGAL_CHARACTERS_RE.sub("", heading))
        cell.font = _BOLD
        header.append(cell)
    ws.append(header)
    for values, font, kinds in sheet.rows:
        row = []
        for value, kind in zip(values, kinds, strict=True):
            quoted = False
            if isinstance(value, str):
                value = _text(value)
                if isinstance(value, tuple):
                    value, quoted = value
            number_format = formats(kind, value) if value is not None else None
            if number_format is None and font is None and not quoted:
                row.append(value)  # plain cells are much cheaper than styled ones
                continue
            cell = WriteOnlyCell(ws, value)
            if quoted:
                cell.data_type = "s"
                cell.quotePrefix = True
            if number_format:
                cell.number_format = number_format
            if font is not None:
                cell.font = font
            row.append(cell)
        ws.append(row)


def xlsx_bytes(wb) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def yes_no(value) -> str:
    if value is None:
        return ""
    return _("yes") if value else _("no")
