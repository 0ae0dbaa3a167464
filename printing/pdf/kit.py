"""The drawing kit every printout is made with (reportlab): the type and colours, the
paragraph styles, the A4 page with its "page n of m" footer, the tournament's heading, the grid
style of a table, and a label or a name set at the size that fits its cell.

The text is set in Fira Sans (OFL), embedded in every file from the `fontpkg-fira-sans` package
the set-up installs, so Cyrillic and Polish names (Юлія Ґудзь, Łukasz Żółć) print on any
machine.
"""

import io
from functools import cache

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fontpkg_fira_sans import ROOT as FIRA
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, TableStyle

from printing.pdf import fit
from scoring import selectors

FONT, BOLD = "FiraSans", "FiraSans-Bold"
INK = colors.HexColor("#1d2430")
GRID = colors.HexColor("#8a94a3")
SHADE = colors.HexColor("#eef1f4")


@cache
def register_fonts():
    pdfmetrics.registerFont(TTFont(FONT, str(FIRA / "files" / "FiraSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FIRA / "files" / "FiraSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)
    return True


def paragraph_styles():
    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=9, leading=11, textColor=INK)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9),
        "title": ParagraphStyle("title", parent=base, fontName=BOLD, fontSize=15, leading=18),
        "h2": ParagraphStyle("h2", parent=base, fontName=BOLD, fontSize=12, leading=15),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10),
        "big": ParagraphStyle("big", parent=base, fontSize=12.5, leading=15),
    }


# Direction embeddings, overrides and isolates. ReportLab lays text out in the order it is
# typed and draws these as empty boxes; left in, an override would reach past its name in a
# reader that applies them when copying the text out.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def escape(text) -> str:
    text = str(text).translate(_BIDI_CONTROLS)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def pieces(text, size=1500) -> list[str]:
    """`text` escaped, as the pieces a long text is printed in: each of its own paragraphs
    (its line breaks) apart, and a paragraph longer than `size` characters cut after a
    sentence, else at a space, else at `size`. ReportLab lays a paragraph out again for every
    page it continues on, so a text of a hundred pages set as one paragraph takes minutes; set
    in pieces, it takes a fraction of a second."""
    found = []
    for line in str(text).splitlines():
        line = line.strip()
        while len(line) > size:
            cut = line.rfind(". ", size // 2, size) + 1 or line.rfind(" ", size // 2, size + 1)
            cut = cut if cut > 0 else size
            found.append(line[:cut])
            line = line[cut:].lstrip()
        if line:
            found.append(line)
    return [escape(piece) for piece in found]


def shortened(text, size) -> tuple[str, bool]:
    """`text` escaped and flattened to one line, cut at a space before `size` characters with
    an ellipsis when longer; and whether it was cut."""
    flat = " ".join(str(text).split())
    if len(flat) <= size:
        return escape(flat), False
    cut = flat.rfind(" ", size // 2, size + 1)
    return escape(flat[: cut if cut > 0 else size]) + " …", True


class _NumberedCanvas(pdfcanvas.Canvas):
    """Draws "page n of m" and the document's footer line once the page count is known."""

    footer = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages = []

    def showPage(self):
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            width, _height = self._pagesize
            self.setFont(FONT, 7.5)
            self.setFillColor(GRID)
            self.drawString(12 * mm, 7 * mm, self.footer)
            self.drawRightString(
                width - 12 * mm,
                7 * mm,
                _("Page %(page)s of %(pages)s") % {"page": self._pageNumber, "pages": total},
            )
            super().showPage()
        super().save()


def build_pdf(story, *, title, footer, pagesize=A4, margins=12 * mm) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margins,
        rightMargin=margins,
        topMargin=margins,
        bottomMargin=margins + 4 * mm,
        title=title,
        author=_("Mahjong Tournament Desk"),
    )
    canvas_class = type("Canvas", (_NumberedCanvas,), {"footer": footer})
    doc.build(story, canvasmaker=canvas_class)
    return buffer.getvalue()


def today_text() -> str:
    return date_format(timezone.localdate(), "DATE_FORMAT")


def tournament_header(tournament, subtitle, styles):
    rules = tournament.rule_set()
    meta = " · ".join(
        part
        for part in (
            date_format(tournament.start_date, "DATE_FORMAT") if tournament.start_date else "",
            tournament.venue,
            _(rules.name),
        )
        if part
    )
    return [
        Paragraph(escape(tournament.name), styles["title"]),
        Paragraph(
            f"<b>{escape(subtitle)}</b>" + (f" · {escape(meta)}" if meta else ""), styles["base"]
        ),
        Spacer(1, 4 * mm),
    ]


def footer_text(tournament, what) -> str:
    return _("%(tournament)s · %(what)s · printed %(date)s") % {
        "tournament": tournament.name,
        "what": what,
        "date": today_text(),
    }


def table_style(header_rows=1, extra=()):
    return TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, 8.5),
            ("FONT", (0, 0), (-1, header_rows - 1), BOLD, 8.5),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            *extra,
        ]
    )


def flush(valign="MIDDLE"):
    """A layout table's style commands: no padding in any cell, its cells aligned `valign`."""
    return [
        ("VALIGN", (0, 0), (-1, -1), valign),
        *[(side, (0, 0), (-1, -1), 0) for side in ("LEFTPADDING", "RIGHTPADDING")],
        *[(side, (0, 0), (-1, -1), 0) for side in ("TOPPADDING", "BOTTOMPADDING")],
    ]


PAD = 3  # left and right padding of the protocol's and the standings' cells
SMALLEST = 6  # a label shrinks to this size before it wraps
TINIEST = 4  # ... and below it only so that no word of it is cut ("Сто/л", "Netherlan/ds")


def cell_label(text, width, font=BOLD, size=8.5, align=TA_CENTER):
    """A cell's label at the largest size up to `size` at which it takes one line of `width`
    points (the cell less its padding), else at SMALLEST wrapped between its words, smaller
    still (down to TINIEST) when a word would not fit whole."""
    fitted = fit.size_to_fit(text, width, font, size, SMALLEST)
    if fitted is None:
        widest = fit.widest_part(text, font, 1)
        whole = int(width / widest / fit.STEP) * fit.STEP if widest > 0 else SMALLEST
        fitted = max(TINIEST, min(SMALLEST, whole))
    style = ParagraphStyle(
        "label", fontName=font, fontSize=fitted, leading=fitted * 1.15, alignment=align,
        textColor=INK,
    )  # fmt: skip
    return Paragraph(escape(text), style)


def name_markup(name, width, size, smallest, font=BOLD):
    """A name's markup at `size`, smaller (down to `smallest`) when a word of it would not fit
    `width`; a hyphenated word breaks after its hyphen."""
    widest = fit.widest_part(name, font, 1)
    if widest > 0:
        size = max(smallest, min(size, int(width / widest / fit.STEP) * fit.STEP))
    markup = fit.breaking_markup(escape(name), width, font, size)
    return f"<font name={font} size={size}>{markup}</font>", size


def seated_tables(session):
    """Table number -> seat dicts in wind order (selectors.session_seating, cached per revision)."""
    return sorted(selectors.session_seating(session.tournament, session.number).items())
