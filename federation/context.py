"""What the federation room adds to every page (config/settings.py TEMPLATES; the public room
and the base template cannot import federation): the mirror's line of a mirrored tournament's
or club rating's public page, found by the page's own address, and whether the user is an
organiser (the account menu's link to their publishing keys; asked only when a page shows it).
"""

from .mirrors import heard_line
from .models import Kind
from .organisers import is_organiser


def federation(request):
    found = {"is_organiser": lambda: is_organiser(getattr(request, "user", None))}
    match = getattr(request, "resolver_match", None)
    if match is None or match.namespace != "public":
        return found
    slug = match.kwargs.get("slug")
    if not slug:
        return found
    kind = Kind.CLUB if (match.url_name or "").startswith("club_") else Kind.TOURNAMENT
    line = heard_line(kind, slug)
    if line:
        found["mirror"] = line
    return found
