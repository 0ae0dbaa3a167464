"""What a player-list import and a tournament-file import or restore say about people (issue 25):
the desk and archive pages show the same line, written once here. Nothing is linked by them: the
line offers the matches page, where the director accepts."""

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.selectors import unlinked_counts


def matches_offer(tournament, url: str) -> str | None:
    """A message (HTML) offering the matches page at `url` (the desk's, which the calling page
    names: a tournament names no page) when players are without a person, or None."""
    matched, unlinked = unlinked_counts(tournament)
    if not unlinked:
        return None
    if matched:
        text = ngettext(
            "%(n)d player matches people on the desk:",
            "%(n)d players match people on the desk:",
            matched,
        ) % {"n": matched}
    else:
        text = ngettext(
            "%(n)d player is linked to no person yet:",
            "%(n)d players are linked to no person yet:",
            unlinked,
        ) % {"n": unlinked}
    return format_html(
        '{} <a href="{}" id="review-matches">{}</a>', text, url, _("review the matches")
    )
