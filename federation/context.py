"""The mirror's line for the public pages (templates/base.html): the public room cannot import
federation, so this context processor (config/settings.py TEMPLATES) finds the mirror by the
page's own address."""

from .mirrors import heard_line
from .models import Kind


def mirror(request):
    match = getattr(request, "resolver_match", None)
    if match is None or match.namespace != "public":
        return {}
    slug = match.kwargs.get("slug")
    if not slug:
        return {}
    kind = Kind.CLUB if (match.url_name or "").startswith("club_") else Kind.TOURNAMENT
    line = heard_line(kind, slug)
    return {"mirror": line} if line else {}
