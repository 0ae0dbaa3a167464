"""The table protocols as a PDF: a page per table (pdf.protocol), with the table's card on a
blank one (pdf.card) and the recorded hands on a filled one (pdf.hands_protocol).
"""

from collections import defaultdict

from django.utils.translation import gettext as _
from reportlab.platypus import PageBreak, Paragraph

from mahjong.hands import HandError
from printing.language import in_print_language
from printing.pdf.card import TableCard
from printing.pdf.hands_protocol import HandsProtocol
from printing.pdf.kit import build_pdf, footer_text, paragraph_styles, seated_tables
from printing.pdf.protocol import PROTOCOL_MARGIN, PROTOCOL_PAGE, Protocol
from scoring import selectors


@in_print_language
def protocols_pdf(session, filled: bool = False, address: str | None = None) -> bytes:
    """One page per table: the seats and a grid for the hands, to be written on at the table,
    with the table's card (QR code of its page at `address`, the desk's address, short code).

    `filled`: also print each confirmed result as the standings count it (for the archive),
    each player's penalties of the session with their amounts in their units, and the hands
    a table recorded, one row each with the running totals.
    """
    tournament = session.tournament
    return build_pdf(
        protocol_story(session, filled, address),
        title=_("Table protocols, session %(number)s") % {"number": session.number},
        footer=footer_text(tournament, _("Session %(number)s") % {"number": session.number}),
        pagesize=PROTOCOL_PAGE,
        margins=PROTOCOL_MARGIN,
    )


def protocol_story(session, filled: bool = False, address: str | None = None) -> list:
    """The protocols' flowables, a page per table (in the active language). A blank protocol
    carries the table's card (its QR code for `address`, the desk's address, and short code);
    a filled one prints the table's recorded hands, when it has them, over as many pages as
    they need."""
    tournament = session.tournament
    rules = tournament.rule_set()
    styles = paragraph_styles()
    story = []
    tables = seated_tables(session)
    confirmed = selectors.confirmed_scores(tournament, session.number) if filled else {}
    # the lines as the standings count them (selectors.table_lines, as the desk's and the
    # players' pages read them), every table's at once
    counted = selectors.session_lines(tournament, session.number) if confirmed else {}
    places = {table.number: table for table in session.tables.all()}
    for table in places.values():
        table.session = session  # the link's slug and session without a query per table
    played = selectors.current_hands(tournament) if filled else {}
    # each player's penalties of the session that count, with their worth and unit, as the
    # standings deduct them (selectors.penalties_with_worth, as every log and the workbook)
    penalties = None
    if filled:
        penalties = defaultdict(list)
        for w in selectors.penalties_with_worth(tournament, session=session):
            if w.counts:
                penalties[w.penalty.player.key].append(w)
    for index, (number, seats) in enumerate(tables):
        if index:
            story.append(PageBreak())
        lines = counted.get(number, []) if number in confirmed else []
        scores = confirmed.get(number, {})
        table = places.get(number)
        hands = played.get(table.pk) if table is not None else None
        page = None
        if hands:
            try:
                page = HandsProtocol(session, number, seats, rules, scores, lines, hands, penalties)
            except HandError:
                page = None  # hands the rules no longer hold: the protocol as without them
        if page is None:
            page = Protocol(session, number, seats, rules, scores, lines, penalties)
            if not filled and table is not None:
                page.card = TableCard(table, address)
        story.extend(page.flowables(styles))
    if not tables:
        story.append(Paragraph(_("This session has no tables yet."), styles["base"]))
    return story
