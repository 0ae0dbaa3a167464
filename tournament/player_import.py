"""Reading a player list from CSV or XLSX: all rows valid, or nothing imported."""

import csv
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils import column_index_from_string, get_column_letter

from core.names import FAMILY_FIRST, GIVEN_FIRST, first_and_last, joined
from core.uploads import check_workbook
from tournament.models import Player

NAME_PARTS = ("first_name", "last_name", "latin_first_name", "latin_last_name")
VALIDATED = ("key", *NAME_PARTS, "country", "club", "team")
COLUMNS = ("key", "name", *NAME_PARTS, "ema_id", "country", "club", "team", "substitute", "status")
ALIASES = {
    "first": "first_name",
    "firstname": "first_name",
    "given_name": "first_name",
    "forename": "first_name",
    "last": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "latin_first": "latin_first_name",
    "first_name_latin": "latin_first_name",
    "latin_last": "latin_last_name",
    "last_name_latin": "latin_last_name",
    "latin_surname": "latin_last_name",
    "ema": "ema_id",
    "emaid": "ema_id",
    "ema_number": "ema_id",
    "player": "name",
    "full_name": "name",
    "sub": "substitute",
    "reserve": "substitute",
    # The headings of Russian, Ukrainian and Polish lists (issue 37).
    "фамилия": "last_name",
    "прізвище": "last_name",
    "nazwisko": "last_name",
    "имя": "first_name",
    "ім'я": "first_name",
    "ім’я": "first_name",
    "імя": "first_name",
    "imię": "first_name",
    "imie": "first_name",
    "фио": "name",
    "ф_и_о": "name",
    "піб": "name",
    "п_і_б": "name",
    "imię_i_nazwisko": "name",
    "imie_i_nazwisko": "name",
    "страна": "country",
    "країна": "country",
    "kraj": "country",
    "клуб": "club",
    "klub": "club",
}
TRUE = {"1", "yes", "y", "true", "x", "+", "tak", "да", "так"}
FALSE = {"", "0", "no", "n", "false", "-", "nie", "нет", "ні"}
MAX_ROWS = 5000
MAX_COLUMNS = 50  # far more than a list has; what lies beyond is never read


def _bounded(rows):
    """The non-blank rows, read one at a time and no more than the limit lets through (the
    header, MAX_ROWS players and one more, which refuses the list): a file never costs more
    than a list the desk takes, whatever size it claims."""
    kept = []
    for row in rows:
        if any(row):
            kept.append(row)
            if len(kept) > MAX_ROWS + 1:
                break
    return kept


@dataclass
class ParsedList:
    rows: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)
    # The rows as read, [row number, {column: text}], so that the preview can read them again
    # in another order of the name's words (checked_rows) without the file.
    raw: list = field(default_factory=list)
    order: str = GIVEN_FIRST


def _column(header) -> str:
    name = re.sub(r"[\s\-.]+", "_", str(header or "").strip().lower()).strip("_")
    return ALIASES.get(name, name)


def _cell(value):
    """A spreadsheet cell as text; whole numbers stay int so an EMA id can get its zeros back."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return str(value).strip()


CYRILLIC = "А-яЁёІіЇїЄєҐґ"


def _reads_as_cyrillic(text: str) -> bool:
    """Windows-1251 read right: Cyrillic words, and no word mixing Cyrillic with Latin letters
    (what Latin-1 or UTF-16 bytes read as Windows-1251 give)."""
    words = re.findall(r"\w+", text)
    cyrillic = [w for w in words if re.search(f"[{CYRILLIC}]", w)]
    mixed = [w for w in cyrillic if re.search(r"[A-Za-z\u00c0-\u024f]", w)]
    names = [w for w in cyrillic if len(w) >= 3]  # a real list has names, not stray bytes
    return bool(names) and not mixed and not re.search(r"[\x00-\x08\x80-\x9f]", text)


def _decoded(content: bytes) -> str:
    """A CSV's text: UTF-8 (with or without its mark), else Windows-1251, which Excel writes
    for a Cyrillic list on a Russian or Ukrainian Windows, when that reads as Cyrillic text."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        try:
            text = content.decode("cp1251")
        except UnicodeDecodeError:
            text = ""
        if _reads_as_cyrillic(text):
            return text
        raise ValueError(_("The file is not UTF-8 text: save the CSV as UTF-8.")) from e


def _read_table(name: str, content: bytes) -> list[list[str]]:
    """The list's non-blank rows as text, bounded (_bounded)."""
    if name.lower().endswith(".xlsx"):
        # Its parts' unpacked sizes first: openpyxl holds the shared strings whole.
        check_workbook(name, content)
        try:
            sheet = load_workbook(io.BytesIO(content), read_only=True, data_only=True).active
            # The size a sheet declares ("A1:XFD6000") would pad every row to 16,384 cells:
            # read only the cells it has, up to MAX_COLUMNS of them.
            sheet.reset_dimensions()
            rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
            # A damaged or missing sheet shows only while its rows are read.
            return _bounded([_cell(v) for v in row] for row in rows)
        except Exception as e:
            raise ValueError(_("The file is not a readable XLSX workbook.")) from e
    text = _decoded(content)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        # newline="": lines may end in \r alone (old Mac exports), as the csv module expects.
        # strict: a quote left open is an error, not the rest of the file read into one cell.
        rows = csv.reader(io.StringIO(text, newline=""), dialect, strict=True)
        return _bounded([c.strip() for c in row[:MAX_COLUMNS]] for row in rows)
    except csv.Error as e:
        problem = str(e)
        if "unexpected end of data" in problem:
            problem = _('a quote (") opened and never closed')
        raise ValueError(
            _("The file is not a readable CSV list: %(problem)s.") % {"problem": problem}
        ) from e


def ignored_columns(table, header) -> list[str]:
    """The columns the desk does not read, by their heading; a column without one only when it
    holds something, by its letter (a spreadsheet's formatted but empty columns are not named)."""
    found = []
    for i, (heading, name) in enumerate(zip(table[0], header, strict=True)):
        if name in COLUMNS:
            continue
        if str(heading).strip():
            found.append(str(heading))
        elif any(i < len(row) and str(row[i]).strip() for row in table[1:]):
            found.append(
                _("column %(letter)s, without a heading") % {"letter": get_column_letter(i + 1)}
            )
    return found


def _column_at(headings, wanted: str):
    """The index of the column a director named: by its heading (as the desk reads headings),
    else by its letter ("B"); None when the list has no such column."""
    for i, heading in enumerate(headings):
        if str(heading).strip() and _column(heading) == _column(wanted):
            return i
    if re.fullmatch(r"[A-Za-z]{1,2}", wanted):
        index = column_index_from_string(wanted.upper()) - 1
        if index < len(headings):
            return index
    return None


def _chosen_columns(table, header, family_column: str, given_column: str) -> list[str]:
    """Read the columns the director named as the family name and the given name (issue 37):
    `header` is changed in place (another column whose heading says the same is then ignored).
    The problems, each naming the column."""
    headings = table[0]
    errors, chosen = [], {}
    for part, wanted, label in (
        ("last_name", family_column.strip(), _("Family name column")),
        ("first_name", given_column.strip(), _("Given name column")),
    ):
        if not wanted:
            continue
        index = _column_at(headings, wanted)
        if index is None:
            columns = ", ".join(
                f"{get_column_letter(i + 1)} “{heading}”"
                for i, heading in enumerate(headings)
                if str(heading).strip()
            )
            errors.append(
                _("%(label)s “%(value)s”: the list has no such column (its columns: %(columns)s).")
                % {"label": label, "value": wanted, "columns": columns}
            )
        elif not any(index < len(row) and str(row[index]).strip() for row in table[1:]):
            errors.append(
                _("%(label)s “%(value)s”: the column is empty in every row.")
                % {"label": label, "value": wanted}
            )
        else:
            chosen[part] = index
    if len(set(chosen.values())) < len(chosen):
        errors.append(
            _(
                "The family name column and the given name column are the same column "
                "(%(column)s): name two columns."
            )
            % {"column": get_column_letter(chosen["last_name"] + 1)}
        )
    if errors:
        return errors
    for part, index in chosen.items():
        for i, column in enumerate(header):
            if column == part:
                header[i] = ""  # the director's choice wins; this one is listed as ignored
        header[index] = part
    return []


def parse_player_list(
    name: str,
    content: bytes,
    existing_names=(),
    existing_keys=(),
    existing_ema=(),
    *,
    order: str = GIVEN_FIRST,
    family_column: str = "",
    given_column: str = "",
):
    """Parse and check a whole list. Errors name the row (as in the spreadsheet) and column.
    `order`: the words of a name column, GIVEN_FIRST or FAMILY_FIRST (core.names);
    `family_column`, `given_column`: the columns the director says hold them (a heading or a
    letter), whatever their headings."""
    parsed = ParsedList()
    if not content:
        parsed.errors.append(_("The file is empty."))
        return parsed
    try:
        table = _read_table(name, content)
    except ValueError as e:
        parsed.errors.append(str(e))
        return parsed
    if not table:
        parsed.errors.append(_("The file is empty."))
        return parsed
    header = [_column(h) for h in table[0]]
    parsed.errors = _chosen_columns(table, header, family_column, given_column)
    if parsed.errors:
        return parsed
    # The name may come as a first and a last name: the name is then made of them (README).
    if not {"name", "first_name", "last_name"} & set(header):
        parsed.errors.append(_("Row 1: there is no “name” column."))
        return parsed
    parsed.ignored_columns = ignored_columns(table, header)
    if len(table) - 1 > MAX_ROWS:
        parsed.errors.append(_("The list has more than %(max)d rows.") % {"max": MAX_ROWS})
        return parsed
    raw = []
    for number, values in enumerate(table[1:], start=2):
        row = {}
        for column, value in zip(header, values, strict=False):
            if column in COLUMNS and column not in row:
                if isinstance(value, int) and column == "ema_id" and 0 < value < 10**8:
                    # A spreadsheet stores 04000123 as the number 4000123.
                    value = f"{value:08d}"
                elif column == "ema_id" and re.fullmatch(r"[1-9][0-9]{6}", str(value)):
                    value = str(value).zfill(8)  # the same, saved from it as CSV
                row[column] = str(value)
        raw.append([number, row])
    checked = checked_rows(raw, order, existing_names, existing_keys, existing_ema)
    checked.ignored_columns = parsed.ignored_columns
    return checked


def checked_rows(raw, order=GIVEN_FIRST, existing_names=(), existing_keys=(), existing_ema=()):
    """The rows as read (ParsedList.raw), checked and made players' fields in the `order` of
    a name's words: a name column's name is split into first and last name in the
    FAMILY_FIRST order (in the GIVEN_FIRST order, the desk's rule, the split is left to be
    worked out when shown, Named.name_parts); a name made of the first and last name is
    "last first" in the FAMILY_FIRST order."""
    parsed = ParsedList(raw=raw, order=order)
    seen_names = {n.casefold(): "" for n in existing_names}
    seen_keys = {k: "" for k in existing_keys}
    seen_ema = {e: "" for e in existing_ema if e}
    statuses = {s.value for s in Player.Status}
    for number, row in raw:
        row = dict(row)

        def problem(column, message, number=number):
            parsed.errors.append(
                _("Row %(row)d, column “%(column)s”: %(message)s")
                % {"row": number, "column": column, "message": message}
            )

        # A name made of a first and last name too long has their errors (below) alone: two
        # parts of the longest length and a space fit in a name.
        typed_name = row.get("name", "")
        first, last = row.get("first_name", ""), row.get("last_name", "")
        name_value = typed_name or joined(first, last, order)
        if typed_name and not (first or last) and order == FAMILY_FIRST:
            row["first_name"], row["last_name"] = first_and_last(typed_name, FAMILY_FIRST)
        if not name_value:
            problem("name", _("the name is missing."))
        elif typed_name and len(name_value) > Player._meta.get_field("name").max_length:
            problem("name", _("the name is longer than 200 characters."))
        elif name_value.casefold() in seen_names:
            where = seen_names[name_value.casefold()]
            problem(
                "name",
                _("%(name)s appears twice (also row %(other)s).")
                % {"name": name_value, "other": where}
                if where
                else _("%(name)s is already registered.") % {"name": name_value},
            )
        else:
            seen_names[name_value.casefold()] = number
        ema = row.get("ema_id", "")
        if ema:
            if not re.fullmatch(r"\d{8}", ema):
                problem("ema_id", _("“%(value)s” is not an EMA id of 8 digits.") % {"value": ema})
            elif ema in seen_ema:
                problem(
                    "ema_id",
                    _("EMA id %(value)s appears twice (also row %(other)s).")
                    % {"value": ema, "other": seen_ema[ema]}
                    if seen_ema[ema]
                    else _("EMA id %(value)s is already registered.") % {"value": ema},
                )
            else:
                seen_ema[ema] = number
        key = row.get("key", "")
        if key:
            if key in seen_keys:
                problem("key", _("key “%(value)s” is used twice.") % {"value": key})
            seen_keys[key] = number
        status = row.get("status", "").lower() or Player.Status.ACTIVE
        if status not in statuses:
            problem(
                "status",
                _("unknown status “%(value)s” (use one of: %(choices)s).")
                % {"value": row.get("status"), "choices": ", ".join(sorted(statuses))},
            )
        sub = row.get("substitute", "").lower()
        if sub not in TRUE | FALSE:
            problem("substitute", _("“%(value)s” is not yes or no.") % {"value": sub})
        for column in VALIDATED:
            limit = Player._meta.get_field(column).max_length
            if len(row.get(column, "")) > limit:
                problem(column, _("longer than %(max)d characters.") % {"max": limit})
        # The model's own rules for what a value may be (core.text): one declaration.
        # (its length is checked above, with the limit in the message).
        for column, value in (("name", name_value), *((c, row.get(c, "")) for c in VALIDATED)):
            field = Player._meta.get_field(column)
            if value and len(value) <= field.max_length:
                try:
                    field.run_validators(value)
                except ValidationError as e:
                    problem(column, e.messages[0])
        parsed.rows.append(
            {
                "key": key,
                "name": name_value,
                **{column: row.get(column, "") for column in NAME_PARTS},
                "ema_id": ema,
                "country": row.get("country", ""),
                "club": row.get("club", ""),
                "team": row.get("team", ""),
                "substitute": sub in TRUE,
                "status": status,
            }
        )
    if not parsed.rows and not parsed.errors:
        parsed.errors.append(_("The list has a header but no players."))
    if parsed.errors:
        parsed.rows = []
    return parsed
