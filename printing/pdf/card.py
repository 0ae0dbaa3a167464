"""The table's card at the head of its blank protocol (issue 24): the QR code of the table
page's link, the short code, and the address for a phone that does not scan.
"""

import itertools

from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from printing.pdf.kit import BOLD, GRID, INK, PAD, escape, flush
from seating.keys import table_code, table_path

QR_SIZE = 24 * mm  # read by a phone held over the table: over half a millimetre a module
CODE_SIZE = 24  # the short code, typed from across the table


class TableQr(Flowable):
    """The table page's link as a QR code, `size` points square with the four modules of quiet
    zone the standard asks for. Reportlab's own QR widget encodes it (level M); its dark modules
    are drawn here as one filled path, since the widget's drawing, a shape per module, took
    about 30 ms a table (3 s for a hall of 100 tables)."""

    BORDER = 4

    def __init__(self, link: str, size: float = QR_SIZE):
        super().__init__()
        self.value, self.width, self.height = link, size, size
        widget = QrCodeWidget(link, barLevel="M")
        widget.qr.make()
        self.modules = [[bool(dark) for dark in row] for row in widget.qr.modules]

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        box = self.width / (len(self.modules) + 2 * self.BORDER)
        path = self.canv.beginPath()
        for r, row in enumerate(self.modules):
            top = self.height - (r + self.BORDER + 1) * box
            c = 0
            for dark, run in itertools.groupby(row):
                count = len(list(run))
                if dark:
                    path.rect((c + self.BORDER) * box, top, count * box, box)
                c += count
        self.canv.setFillColor(colors.black)
        self.canv.drawPath(path, stroke=0, fill=1)


class TableCard:
    """The table's card at the head of its blank protocol: the QR code of the table page's link,
    the short code, and one line for a phone that does not scan. `address` is the desk's
    address as the request reached it ("http://192.168.1.20:8000"); without one (a command
    printing with no --address) the QR code is left out and the line names the path only."""

    def __init__(self, table, address: str | None):
        self.code = table_code(table)
        base = address.rstrip("/") if address else None
        self.link = base + table_path(table) if base else None
        self.entry = base + reverse("sheet:code") if base else None

    def line(self) -> str:
        if self.entry:
            return _(
                "Record this table's hands on a phone: scan the QR code, or open %(address)s "
                "and type the table code."
            ) % {"address": self.entry}
        return _(
            "Record this table's hands on a phone: open the desk's address followed by %(path)s "
            "and type the table code."
        ) % {"path": reverse("sheet:code")}

    def flowable(self, beside: list, width: float, styles) -> Table:
        """The card on the right of `beside` (the protocol's title and meta)."""
        code_w = max(stringWidth(self.code, BOLD, CODE_SIZE), 30 * mm) + 2 * PAD + 2
        qr_w = QR_SIZE if self.link else 0
        left_w = width - code_w - qr_w - 3 * mm
        label = ParagraphStyle(
            "code-label", parent=styles["small"], alignment=TA_CENTER, textColor=GRID
        )
        big = ParagraphStyle(
            "code", parent=styles["base"], fontName=BOLD, fontSize=CODE_SIZE,
            leading=CODE_SIZE * 1.1, alignment=TA_CENTER,
        )  # fmt: skip
        code = [Paragraph(escape(_("Table code")), label), Paragraph(escape(self.code), big)]
        left = [*beside, Spacer(1, 1.5 * mm), Paragraph(escape(self.line()), styles["base"])]
        cells, widths = [left, "", code], [left_w, 3 * mm, code_w]
        if self.link:
            cells.append(TableQr(self.link))
            widths.append(qr_w)
        card = Table([cells], colWidths=widths)
        card.setStyle(
            TableStyle(
                [
                    *flush("MIDDLE"),
                    ("BOX", (2, 0), (2, 0), 0.8, INK),
                    ("TOPPADDING", (2, 0), (2, 0), 3),
                    ("BOTTOMPADDING", (2, 0), (2, 0), 5),
                ]
            )
        )
        return card
