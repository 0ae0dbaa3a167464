"""Input across and beyond every field's limits, for tests that drive the desk's pages
(tests/integration/desk/test_state_machine.py): the odd values, forms that are ordinary but for one
or two odd fields, a form posted as a browser posts it (lone surrogates as raw bytes), and a
page's form read back as a browser would submit it."""

from html.parser import HTMLParser
from urllib.parse import quote_plus

from django.utils import timezone
from hypothesis import strategies as st

# --- values across and beyond the limits ------------------------------------------------------

ODD_TEXTS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x07bell",
    "tab\x0bvertical",
    "\x1b[31mred",
    "\u202eevil",
    "\u2066isolated\u2069",
    "\u200b",
    "\u200b\u200c\u200d\ufeff",
    "\ud800",
    "lone \udfff surrogate",
    '=HYPERLINK("http://x","y")',
    "=1+1",
    "+1",
    "-1",
    "@x",
    "\tx",
    "\rx",
    "a/b",
    "../x",
    "a?b",
    "a b",
    "a#b",
    "%2e%2e",
    "<script>alert(1)</script>",
    "{{ x }}%s%(x)s{0}",
    "1e30",
    "NaN",
    "#N/A",
    "³",
]
ORDINARY_TEXTS = ["Anna Nowak", "Łódź Żółć", "Дмитро Коваль", "Céline", "phone rang", "x"]
LONG_TEXT = st.builds(
    lambda char, length: char * length,
    st.sampled_from(["x", "é", "字", "\u202e", "="]),
    st.sampled_from([201, 301, 501, 10_001, 100_001]),
)
TEXT = st.one_of(
    st.sampled_from(ODD_TEXTS),
    st.sampled_from(ORDINARY_TEXTS),
    LONG_TEXT,
    st.builds(str.__add__, st.sampled_from(ODD_TEXTS), st.sampled_from(ORDINARY_TEXTS)),
    st.text(max_size=12),
)

ODD_NUMBERS = [
    "",
    " ",
    "0",
    "-0",
    "-0.0",
    "-0.001",
    "0.001",
    "1e-400",
    "1e30",
    "-1e30",
    str(10**20),
    str(-(10**20)),
    "-12345678901.5",
    str(2**31),
    str(2**63),
    "inf",
    "-inf",
    "NaN",
    "Infinity",
    "-Infinity",
    "sNaN",
    "1e400",
    "-1e400",
    "³",
    "²⁰",
    "٣",
    "１２",
    "1,5",
    "\u22128000",
    " 8 000 ",
    "1_000",
    "0x10",
    "12.345",
    "9000",
    "40000",
    "32767",
    "32768",
    "65536",
]
NUMBER = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)

ODD_DATES = [
    "0001-01-01",
    "9999-12-31",
    "0001-01-01T00:00",
    "9999-12-31T23:59",
    "9999-12-31 23:59:59",
    "0001-01-01 00:00:00",
    "2026-02-30",
    "10000-01-01",
    "0000-00-00",
    "yesterday",
    "",
]


def now_text(minutes=0):
    return (timezone.localtime() + timezone.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


def fill(data, fields: dict, most=2) -> dict:
    """A form's fields, name → (ordinary, odd): every one ordinary but for up to `most` drawn
    odd (the simplest draw: none), so that a refusal says which value it refused and the
    tournament also moves on."""
    count = data.draw(st.integers(0, most))
    odd = set(data.draw(st.permutations(sorted(fields)))[:count])
    return {
        name: data.draw(values[1] if name in odd else values[0]) for name, values in fields.items()
    }


DATE = st.one_of(
    st.sampled_from(ODD_DATES),
    st.integers(-600, 600).map(now_text),
)


def either(data, ordinary, odd, odds=2):
    """An ordinary value most of the time (so that the tournament moves on), an odd one in
    `odds` draws out of five. The simplest draw is the ordinary one."""
    return data.draw(odd if data.draw(st.integers(0, 4)) >= 5 - odds else ordinary)


# --- requests ---------------------------------------------------------------------------------


def encoded(data: dict) -> bytes:
    """A form as a browser posts it (urlencoded UTF-8); a lone surrogate goes as its three raw
    bytes, which is what a form can carry of one."""

    def q(value):
        return quote_plus(str(value).encode("utf-8", "surrogatepass"))

    pairs = []
    for key, value in data.items():
        for v in value if isinstance(value, list) else [value]:
            pairs.append(f"{q(key)}={q(v)}")
    return "&".join(pairs).encode()


def shown(value) -> str:
    """A value as a reproduction quotes it: a long text as its start and length."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (str, bytes)) and len(value) > 60:
        if len(set(value)) == 1:
            return f"{value[:1]!r} * {len(value)}"
        return f"{value[:40]!r} + … ({len(value)} long)"
    return repr(value)


class _Forms(HTMLParser):
    """The forms of a page, as a browser would submit them unchanged: name → value."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self._form, self._select, self._textarea = [], None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {}
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._form[name] = a.get("value") or "on"
            elif kind not in ("submit", "button", "file", "reset", "image"):
                self._form[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self._form.setdefault(name, None)
        elif tag == "option" and self._select:
            if self._form.get(self._select) is None or "selected" in a:
                self._form[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self._form[name] = ""

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            # Django writes a newline after <textarea>; a browser drops it.
            value = self._form[self._textarea]
            self._form[self._textarea] = value[1:] if value.startswith("\n") else value
            self._textarea = None


def form_on(html: str, field: str) -> dict:
    """The page's form that has `field`, as a browser would send it."""
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        if field in form:
            return {k: v for k, v in form.items() if v is not None and k != "csrfmiddlewaretoken"}
    raise AssertionError(f"no form with {field!r} on the page")
