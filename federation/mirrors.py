"""What the public pages of a mirrored tournament or club rating say about their hall:
"Live from the hall, updated HH:MM:SS" and "Last heard from the desk: HH:MM:SS", in the
tournament's (or club's) time zone. Read by the context processor (federation.context) and the
small JSON the pages' script refreshes "last heard" from (a heartbeat bumps no revision, so a
kept page keeps the time it was drawn with)."""

from django.urls import reverse
from django.utils import timezone

from club.models import Club
from core.zones import zone
from tournament.models import Tournament

from .models import Kind, Mirror


def _clock(moment, zone_name) -> str:
    return timezone.localtime(moment, zone(zone_name)).strftime("%H:%M:%S") if moment else ""


def heard_line(kind: str, slug: str) -> dict | None:
    """{"changed", "heard", "url"} of the mirror at kind/slug, or None if it is none."""
    mirror = Mirror.objects.filter(kind=kind, slug=slug, revision__gt=0).first()
    if mirror is None:
        return None
    owner = Tournament if kind == Kind.TOURNAMENT else Club
    zone_name = owner.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
    return {
        "changed": _clock(mirror.changed_at, zone_name),
        "heard": _clock(mirror.heard_at, zone_name),
        "url": reverse("federation:heard", kwargs={"kind": kind, "slug": slug}),
    }
