"""The director's quick-start (issue 37): an A4 page per role — the desk users, the referees,
and the players at the table page, a page per table with that table's QR code — each saying
how to reach the desk at the address the phones in the hall use and what that role does, step
by step, in the tournament's language.
"""

import re

from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table, TableStyle

from printing.language import in_print_language
from printing.pdf import fit
from printing.pdf.card import CODE_SIZE, TableQr
from printing.pdf.kit import (
    BOLD,
    GRID,
    INK,
    build_pdf,
    escape,
    flush,
    footer_text,
    paragraph_styles,
    tournament_header,
)
from seating.keys import table_code, table_path

QR = 42 * mm  # read from a sheet on the desk or on the wall, a phone's length away
TABLE_QR = 56 * mm  # the players' page lies on the table: read from across it
WIDTH = A4[0] - 24 * mm  # the page less kit.build_pdf's margins
ADDRESS_SIZE, ADDRESS_SMALLEST = 18, 8


@in_print_language
def quick_start_pdf(tournament, address: str, session=None) -> bytes:
    """The desk users' page, the referees' page and the players' pages: with `session`, one
    per table of that session with its QR code and short code; without, one whose QR code
    opens the page where a table's code is typed. `address` is the desk's as the phones reach
    it ("http://192.168.1.20:8000")."""
    what = _("Quick start")
    return build_pdf(
        quick_start_story(tournament, address, session),
        title=what,
        footer=footer_text(tournament, what),
    )


def quick_start_story(tournament, address: str, session=None) -> list:
    """The quick-start's flowables, a page per role (in the active language)."""
    base = address.rstrip("/")
    styles = paragraph_styles()
    styles["step"] = ParagraphStyle(
        "step", parent=styles["big"], leftIndent=7 * mm, bulletIndent=0, spaceAfter=2.5 * mm
    )
    pages = [desk_page(tournament, base, styles), referee_page(tournament, base, styles)]
    tables = []
    if session is not None:
        tables = list(session.tables.order_by("number"))
        for table in tables:
            table.session = session  # the link's slug and session without a query per table
    if tables:
        pages += [player_page(tournament, base, styles, table) for table in tables]
    else:
        pages.append(player_page(tournament, base, styles, None))
    story = []
    for index, page in enumerate(pages):
        if index:
            story.append(PageBreak())
        story += page
    return story


def address_markup(link: str, width: float, font: str, size: float) -> str:
    """The address's markup, broken over lines of `width` only after a slash when it is wider
    (a long slug), never inside a word."""
    lines = [""]
    for part in re.split(r"(?<=/)", link):
        if lines[-1] and stringWidth(lines[-1] + part, font, size) > width:
            lines.append("")
        lines[-1] += part
    return "<br/>".join(escape(line) for line in lines)


def address_line(link: str, width: float, style) -> Paragraph:
    """The address in bold, as large as fits one line of `width` (a typed address is best read
    whole), down to ADDRESS_SMALLEST; longer still, it goes on over lines broken after a
    slash, smaller still when one part between slashes is too wide for a line."""
    size = fit.size_to_fit(link, width, BOLD, ADDRESS_SIZE, ADDRESS_SMALLEST) or ADDRESS_SMALLEST
    widest = max(stringWidth(part, BOLD, 1) for part in re.split(r"(?<=/)", link))
    if widest * size > width:  # a slug too long for a line even at the smallest size
        size = max(fit.STEP, int(width / widest / fit.STEP) * fit.STEP)
    big = ParagraphStyle("address", parent=style, fontName=BOLD, fontSize=size, leading=size * 1.2)
    return Paragraph(address_markup(link, width, BOLD, size), big)


def reach(heading: str, lines: list, link: str, styles, qr: float = QR) -> list:
    """The block "how to reach the desk": the heading, its lines and the QR code of `link`."""
    left_w = WIDTH - qr - 4 * mm
    left = [Paragraph(escape(heading), styles["h2"]), Spacer(1, 2 * mm), *lines]
    block = Table([[left, "", TableQr(link, qr)]], colWidths=[left_w, 4 * mm, qr])
    block.setStyle(TableStyle(flush("MIDDLE")))
    return [block, Spacer(1, 6 * mm)]


class Marked(str):
    """A step's text already made into markup (escaped)."""


def steps(heading: str, texts: list[str], styles) -> list:
    story = [Paragraph(escape(heading), styles["h2"]), Spacer(1, 2 * mm)]
    for n, text in enumerate(texts, start=1):
        # a step is text, or markup already made (an address broken after its slashes)
        markup = str(text) if isinstance(text, Marked) else escape(text)
        story.append(Paragraph(markup, styles["step"], bulletText=f"{n}."))
    return story


def wifi(link: str, styles) -> list:
    left_w = WIDTH - QR - 4 * mm
    return [
        Paragraph(
            escape(
                _(
                    "Join the hall's Wi-Fi, the network the desk's laptop is on (the desk is "
                    "not on the internet). Then scan the QR code, or type this address in the "
                    "browser:"
                )
            ),
            styles["big"],
        ),
        Spacer(1, 2 * mm),
        address_line(link, left_w, styles["base"]),
    ]


def desk_page(tournament, base: str, styles) -> list:
    link = base + reverse("desk:home")
    confirming = (
        _(
            "Confirming: this tournament takes a result on one desk user's confirmation. "
            "Open a table with a draft, compare it with the score sheet and press Confirm."
        )
        if tournament.single_confirmation
        else _(
            "Confirming: a result counts only once a second desk user confirms it; your own "
            "draft is confirmed by someone else. Open a table with a draft, compare it with "
            "the score sheet and press Confirm (Enter through the unchanged form confirms too)."
        )
    )
    return [
        *tournament_header(tournament, _("Quick start: desk users"), styles),
        *reach(_("How to reach the desk"), wifi(link, styles), link, styles),
        *steps(
            _("What you do"),
            [
                _(
                    "Log in with the user name and password the director gave you. The desk "
                    "lists your tournaments: open %(tournament)s."
                )
                % {"tournament": tournament.name},
                _(
                    "Check-in: type a few letters of a player's name (in any order, accents "
                    "not needed) and press Enter to check in the one player found."
                ),
                _(
                    "Results: open the session, then the table, type each seat's final score "
                    "and any chombo from the score sheet, and press Save: the result is a "
                    "draft."
                ),
                confirming,
                _(
                    "A table that recorded its hands on the table page sends its result to the "
                    "desk as a draft by itself: check it against the sheet and confirm it."
                ),
                _(
                    "A mistake in a confirmed result: save a correction; the confirmed version "
                    "counts until the correction is confirmed."
                ),
                _(
                    "When the session's play is over, press “Play has ended” on the session or "
                    "clock page: the appeal window starts."
                ),
                _(
                    "Penalties, substitutes and appeals are the referees'; for anything else, "
                    "ask the director."
                ),
            ],
            styles,
        ),
    ]


def referee_page(tournament, base: str, styles) -> list:
    link = base + reverse("referee:home", kwargs={"slug": tournament.slug})
    return [
        *tournament_header(tournament, _("Quick start: referees"), styles),
        *reach(_("How to reach the desk"), wifi(link, styles), link, styles),
        *steps(
            _("What you do"),
            [
                _(
                    "Log in on your phone with the user name and password the director gave "
                    "you; the address above opens this tournament's referee page."
                ),
                _(
                    "Pick the session and the table, or find a player by name: the table's "
                    "page lists its players and what was recorded there."
                ),
                _(
                    "Tap what happened: a penalty, a substitute or an incident. A penalty asks "
                    "first: check the player and the penalty, then confirm."
                ),
                _(
                    "“Saved” shows on the player's card. A wrong record: Undo on that card, "
                    "for two minutes, by you alone; later, the director voids it with a "
                    "reason."
                ),
                _(
                    "A player whose phone does not scan the table's QR code: the table's "
                    "referee page shows its code and link."
                ),
                _(
                    "Appeals: Appeals, then “Log an appeal”, within the appeal window after "
                    "play has ended; the head referee decides it."
                ),
                _("Results are the desk's: a referee never enters or confirms them."),
            ],
            styles,
        ),
    ]


def player_page(tournament, base: str, styles, table) -> list:
    """A table's page (its QR code and short code), or with `table` None a page whose QR code
    opens the page where a table's code is typed."""
    entry = base + reverse("sheet:code")
    if table is None:
        subtitle = _("Quick start: players at the table page")
        link = entry
        reach_it = _(
            "Join the hall's Wi-Fi, then scan the QR code, or open this address "
            "and type the code on your table's card:"
        )
    else:
        subtitle = _("Quick start: players at table %(table)s, session %(session)s") % {
            "table": table.number,
            "session": table.session.number,
        }
        link = base + table_path(table)
        reach_it = _(
            "Join the hall's Wi-Fi, then scan the QR code with the phone's camera, "
            "or open this address and type the table code:"
        )
    lines = [
        Paragraph(escape(reach_it), styles["big"]),
        Spacer(1, 2 * mm),
        address_line(entry, WIDTH - TABLE_QR - 4 * mm, styles["base"]),
    ]
    if table is not None:
        code = ParagraphStyle(
            "code", parent=styles["base"], fontName=BOLD, fontSize=CODE_SIZE,
            leading=CODE_SIZE * 1.15, alignment=TA_CENTER, textColor=INK,
        )  # fmt: skip
        label = ParagraphStyle(
            "code-label", parent=styles["small"], alignment=TA_CENTER, textColor=GRID
        )
        lines += [
            Spacer(1, 3 * mm),
            Paragraph(escape(_("Table code")), label),
            Paragraph(escape(table_code(table)), code),
        ]
    drawn = tournament.winds == tournament.Winds.TABLE
    texts = [
        _(
            "One phone for the table, or each player's own: under “This device is”, choose "
            "your wind, or “shared by the table” for one phone for everyone."
        ),
        *(
            [
                _(
                    "First record the winds you drew: who drew each wind. "
                    "No hand is taken before that."
                )
            ]
            if drawn
            else []
        ),
        _(
            "After each hand, enter what happened; the page shows every player's score and "
            "every payment before you save it."
        ),
        _("Each player confirms the hand with their own seat's button."),
        _(
            "No network? Carry on: the phone keeps every change and sends it when the Wi-Fi "
            "is back. Before you leave the table, wait until the page says it is all at the "
            "desk."
        ),
        _(
            "When the game is over, its result goes to the desk by itself, and a desk user "
            "confirms it. A question or a dispute: call a referee."
        ),
        standings_step(tournament, base, styles),
    ]
    return [
        *tournament_header(tournament, subtitle, styles),
        *reach(_("Record your table's hands on a phone"), lines, link, styles, TABLE_QR),
        *steps(_("What you do"), texts, styles),
    ]


def standings_step(tournament, base: str, styles) -> Marked:
    """The last step: where the standings are, the address on a line of its own when long."""
    link = base + reverse("public:standings", kwargs={"slug": tournament.slug})
    style = styles["step"]
    width = WIDTH - style.leftIndent
    markup = escape(_("Standings and your own results: %(address)s") % {"address": "\0"})
    if stringWidth(link, style.fontName, style.fontSize) > width / 2:
        markup = markup.replace(" \0", "<br/>\0")  # a long address on a line of its own
    address = address_markup(link, width, style.fontName, style.fontSize)
    return Marked(markup.replace("\0", address))
