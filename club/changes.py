"""A club rating changed: one function every club write calls, one signal the side effects hang on
(as tournament.changes for a tournament). `touch_club()` bumps the club's revision, by which its
public pages, its feed and its rating book are kept."""

from django.db.models import F
from django.dispatch import Signal

from club.models import Club

club_changed = Signal()


def touch_club(club_id) -> None:
    Club.objects.filter(pk=club_id).update(revision=F("revision") + 1)
    club_changed.send(sender=Club, club_id=club_id)
