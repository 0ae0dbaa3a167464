"""The standings as a PDF: a column per session (in blocks when they do not fit across),
the substitutes apart, and the teams when there are any.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table

from core.tables import fmt
from printing.language import in_print_language
from printing.pdf.kit import (
    BOLD,
    FONT,
    PAD,
    build_pdf,
    cell_label,
    escape,
    footer_text,
    name_markup,
    paragraph_styles,
    table_style,
    tournament_header,
)
from scoring import selectors
from tournament.models import Player

STANDINGS_SIZE, STANDINGS_SMALLEST = 8.5, 6.5
REPLACED_MARK = "†"


@in_print_language
def standings_pdf(tournament) -> bytes:
    """The standings with a column per session (and the teams when there are any)."""
    story, pagesize, subtitle = standings_story(tournament)
    footer = footer_text(
        tournament, _("Final standings") if tournament.finished else _("Standings")
    )
    return build_pdf(story, title=subtitle, footer=footer, pagesize=pagesize)


def _session_blocks(sessions, width, fixed, need) -> tuple[list[range], float]:
    """The sessions' columns in as few blocks (tables one under another) as fit `width`, and
    the type size of their figures: shrunk to STANDINGS_SMALLEST before a block is added."""
    blocks = 1
    while True:
        per_block = -(-sessions // blocks)
        room = width - fixed
        for size in (STANDINGS_SIZE, 7.5, STANDINGS_SMALLEST):
            if per_block * need(size) <= room or per_block <= 1:
                ranges = [range(b + 1, min(b + per_block, sessions) + 1)
                          for b in range(0, sessions, per_block)]  # fmt: skip
                return ranges, size
        blocks += 1


def standings_story(tournament) -> tuple[list, tuple, str]:
    """The standings' flowables (in the active language), their page size and title."""
    styles = paragraph_styles()
    data = selectors.standings(tournament)
    rules = tournament.rule_set()
    sessions = max(tournament.planned_sessions, data.sessions_played, 1)
    tiebreak = rules.tiebreak == "game_points"
    subtitle = ngettext(
        "Standings after %(n)s of %(total)s session",
        "Standings after %(n)s of %(total)s sessions",
        sessions,
    ) % {
        "n": data.sessions_played,
        "total": sessions,
    }
    if tournament.finished:
        subtitle = _("Final standings")
    pagesize = landscape(A4) if sessions > 4 else A4
    width = pagesize[0] - 24 * mm - 12
    story = tournament_header(tournament, subtitle, styles)
    rows = data.rows + data.substitutes
    figures = [
        fmt(line.result) + (f" {REPLACED_MARK}" if line.replaced else "")
        for row in rows
        for line in row.sessions
    ] + [fmt(row.total) for row in rows]

    def need(size):
        widest = max((stringWidth(f, FONT, size) for f in figures), default=0)
        return max(widest, stringWidth(str(sessions), BOLD, size)) + 2 * PAD + 1

    def label_width(text, size=STANDINGS_SIZE, floor=0):
        return max(stringWidth(text, BOLD, size), floor) + 2 * PAD

    rank_w = max(label_width(_("Rank")), 10 * mm)
    country_w = max(label_width(_("Country")), stringWidth("WWW", FONT, 8.5) + 2 * PAD)
    ema_w = max(stringWidth("00000000", FONT, 8.5) + 2 * PAD, label_width(_("EMA id")))
    total_w = max(need(STANDINGS_SIZE), label_width(_("Total")))
    gp_w = max(need(STANDINGS_SIZE), label_width(_("GP"))) if tiebreak else 0
    names_least = 70 * mm  # the player's name and club share what is left, at least this
    fixed = rank_w + country_w + ema_w + total_w + gp_w + names_least
    blocks, size = _session_blocks(sessions, width, fixed, need)
    session_w = need(size)
    for index, block in enumerate(blocks):
        rest = width - (fixed - names_least) - session_w * len(block)
        name_w, club_w = rest * 0.58, rest * 0.42
        story += [Spacer(1, 4 * mm)] if index else []
        story.append(
            _standings_table(
                data.rows, block, [rank_w, name_w, country_w, club_w, ema_w], session_w,
                [total_w] + ([gp_w] if tiebreak else []), size, styles,
            )
        )  # fmt: skip
    if any(line.replaced for row in data.rows for line in row.sessions):
        story.append(Spacer(1, 2 * mm))
        story.append(
            Paragraph(
                escape(f"{REPLACED_MARK} " + _("replaced by a substitute in that session")),
                styles["small"],
            )
        )
    if data.substitutes:
        story += [Spacer(1, 4 * mm), Paragraph(_("Substitutes"), styles["h2"])]
        keys = {row.player.key: row.player.name for row in data.rows + data.substitutes}
        for index, block in enumerate(blocks):
            rest = width - (fixed - names_least) - session_w * len(block)
            name_w, club_w = rest * 0.58, rest * 0.42
            story += [Spacer(1, 4 * mm)] if index else []
            story.append(
                _standings_table(
                    data.substitutes, block, [0, name_w, country_w, club_w, ema_w], session_w,
                    [total_w] + ([gp_w] if tiebreak else []), size, styles, replaced=keys,
                )
            )  # fmt: skip
    if data.teams:
        names = {r.player.key: r.player.name for r in data.rows}
        rows = [[_("Rank"), _("Team"), _("Members"), _("Total")]]
        for team in data.teams:
            members = ", ".join(names.get(k, k) for k in team.members)
            rows.append(
                [
                    str(team.rank),
                    Paragraph(escape(team.team), styles["cell"]),
                    Paragraph(escape(members), styles["cell"]),
                    fmt(team.total),
                ]
            )
        teams = Table(rows, colWidths=[12 * mm, 45 * mm, width - 82 * mm, 25 * mm], repeatRows=1)
        teams.setStyle(table_style(1, [("ALIGN", (3, 0), (3, -1), "RIGHT")]))
        story += [Spacer(1, 6 * mm), KeepTogether([Paragraph(_("Teams"), styles["h2"]), teams])]
    return story, pagesize, subtitle


def _standings_table(rows, block, lead_w, session_w, tail_w, size, styles, replaced=None):
    """One block of the standings: rank, player, country, club, EMA id, the block's sessions,
    total (and GP). `replaced`: the substitutes' table (no rank), with whom each replaced."""
    ranked = replaced is None
    skip = 0 if ranked else 1  # the substitutes have no rank: the column is left out
    lead_w = lead_w[skip:]
    inner = [w - 2 * PAD for w in lead_w]
    head_text = [_("Rank"), _("Player"), _("Country"), _("Club"), _("EMA id")][skip:]
    head = [cell_label(t, w, size=STANDINGS_SIZE, align=TA_LEFT)
            for t, w in zip(head_text, inner, strict=True)]  # fmt: skip
    head += [cell_label(str(n), session_w - 2 * PAD, size=size) for n in block]
    tails = [_("Total")] + ([_("GP")] if len(tail_w) > 1 else [])
    head += [cell_label(t, w - 2 * PAD) for t, w in zip(tails, tail_w, strict=True)]
    name_at = 1 - skip
    out = [head]
    for row in rows:
        by_session = {line.session: line for line in row.sessions}
        name, _size = name_markup(row.player.name, inner[name_at], 8.5, 6.5, font=FONT)
        if row.player.status in ("disqualified", "withdrawn"):
            name += f" ({escape(Player.Status(row.player.status).label)})"
        if not ranked:
            notes = [
                _("session %(session)s: substitute for %(name)s")
                % {"session": line.session, "name": replaced.get(line.replaces, line.replaces)}
                for line in row.sessions
                if line.replaces
            ]
            name += "".join(f"<br/><font size=7>{escape(n)}</font>" for n in notes)
        cells = [str(row.rank) if row.rank is not None else ""][skip:]
        cells += [
            Paragraph(name, styles["cell"]),
            cell_label(row.player.country, inner[name_at + 1], font=FONT, size=8.5, align=TA_LEFT),
            Paragraph(escape(row.player.club), styles["small"]),
            row.player.ema_id,
        ]
        for n in block:
            line = by_session.get(n)
            cell = ""
            if line is not None:
                cell = fmt(line.result) + (f" {REPLACED_MARK}" if line.replaced else "")
            cells.append(cell)
        cells.append(fmt(row.total))
        if len(tail_w) > 1:
            cells.append(fmt(row.tiebreak))
        out.append(cells)
    first = len(lead_w)
    total = first + len(block)
    table = Table(out, colWidths=[*lead_w, *[session_w] * len(block), *tail_w], repeatRows=1)
    table.setStyle(
        table_style(
            1,
            [
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                ("FONT", (first, 1), (-1, -1), FONT, size),
                ("FONT", (total, 1), (total, -1), BOLD, STANDINGS_SIZE),
                ("FONT", (total + 1, 1), (-1, -1), FONT, STANDINGS_SIZE),
                ("ALIGN", (first, 0), (-1, -1), "RIGHT"),
                ("ALIGN", (0, 0), (0, -1), "CENTER" if ranked else "LEFT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, "#f7f8fa"]),
            ],
        )
    )
    return table
