"""The appeals log and the penalties as a PDF, for the organiser's file."""

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table

from printing.language import in_print_language
from printing.pdf.kit import (
    build_pdf,
    escape,
    footer_text,
    paragraph_styles,
    pieces,
    shortened,
    table_style,
    tournament_header,
)
from referee.models import Appeal
from scoring.selectors import penalties_with_worth

# An appeal's text and its decision are printed in the log up to about this many characters;
# a longer one is printed whole under "Appeals in full", after the log, where it flows from
# page to page as any text does (a table row longer than a page is laid out again on every
# page it continues on, which for the longest text allowed took half a minute).
IN_THE_LOG = 700


def _when(moment) -> str:
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


@in_print_language
def appeals_pdf(tournament) -> bytes:
    """The appeals log and the penalties (void ones listed apart), for the organiser's file."""
    styles = paragraph_styles()
    subtitle = _("Appeals log and penalties")
    story = tournament_header(tournament, subtitle, styles)
    width = A4[0] - 24 * mm
    story.append(Paragraph(_("Appeals"), styles["h2"]))
    rows = [[_("No."), _("Session"), _("Filed"), _("Appellant"), _("Appeal"), _("Decision")]]
    appeals = Appeal.objects.filter(tournament=tournament).select_related(
        "session", "appellant", "table"
    )
    in_full = []
    for n, appeal in enumerate(appeals.order_by("filed_at", "pk"), start=1):
        text, text_cut = shortened(appeal.text, IN_THE_LOG)
        decided, decision_cut = shortened(appeal.decision, IN_THE_LOG)
        whole = _("Printed in full under “Appeals in full”, no. %(number)s.") % {"number": n}
        more = f"<br/><i>{escape(whole)}</i>"
        what = f"<b>{escape(appeal.subject)}</b>"
        if text:
            what += f"<br/>{text}" + (more if text_cut else "")
        decision = f"<b>{escape(appeal.get_status_display())}</b>"
        if decided:
            decision += f"<br/>{decided}" + (more if decision_cut else "")
        if text_cut or decision_cut:
            in_full.append((n, appeal, text_cut, decision_cut))
        rows.append(
            [
                str(n),
                str(appeal.session.number),
                Paragraph(escape(_when(appeal.filed_at)), styles["cell"]),
                Paragraph(escape(appeal.appellant.name), styles["cell"]),
                Paragraph(what, styles["cell"]),
                Paragraph(decision, styles["cell"]),
            ]
        )
    if len(rows) == 1:
        story.append(Paragraph(_("No appeals."), styles["base"]))
    else:
        log = Table(
            rows,
            colWidths=[9 * mm, 14 * mm, 27 * mm, 32 * mm, (width - 82 * mm) * 0.55,
                       (width - 82 * mm) * 0.45],
            repeatRows=1,
        )  # fmt: skip
        log.setStyle(table_style(1, [("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(log)
    if in_full:
        story += [Spacer(1, 6 * mm), Paragraph(_("Appeals in full"), styles["h2"])]
    for n, appeal, text_cut, decision_cut in in_full:
        heading = f"{n}. {appeal.subject}"
        story += [Spacer(1, 3 * mm), Paragraph(f"<b>{escape(heading)}</b>", styles["base"])]
        if text_cut:
            story += [Paragraph(piece, styles["base"]) for piece in pieces(appeal.text)]
        if decision_cut:
            story.append(Paragraph(f"<b>{escape(_('Decision'))}</b>", styles["base"]))
            story += [Paragraph(piece, styles["base"]) for piece in pieces(appeal.decision)]
    story += [Spacer(1, 6 * mm), Paragraph(_("Penalties"), styles["h2"])]
    rows = [[_("Session"), _("Table"), _("Player"), _("Penalty"), _("Recorded"), _("Void")]]
    # By session, each in the order recorded.
    listed = sorted(penalties_with_worth(tournament), key=lambda w: w.penalty.session.number)
    for w in listed:
        penalty = w.penalty
        who = penalty.recorded_by.get_username() if penalty.recorded_by else ""
        what = w.summary
        void = ""
        if penalty.is_void:
            void = _("void: %(reason)s") % {"reason": penalty.void_reason}
        rows.append(
            [
                str(penalty.session.number),
                str(penalty.table.number) if penalty.table else "",
                Paragraph(escape(penalty.player.name), styles["cell"]),
                Paragraph(escape(what), styles["cell"]),
                Paragraph(escape(f"{_when(penalty.recorded_at)} {who}"), styles["cell"]),
                Paragraph(escape(void), styles["cell"]),
            ]
        )
    if len(rows) == 1:
        story.append(Paragraph(_("No penalties."), styles["base"]))
    else:
        log = Table(
            rows,
            colWidths=[14 * mm, 12 * mm, 38 * mm, width - 134 * mm, 40 * mm, 30 * mm],
            repeatRows=1,
            splitInRow=1,
        )
        log.setStyle(table_style(1, [("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(log)
    return build_pdf(story, title=subtitle, footer=footer_text(tournament, subtitle))
