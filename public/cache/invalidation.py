"""The page cache forgets an owner's revision when it changes: the receivers of
`tournament.changes.tournament_changed` and `club.changes.club_changed` (connected in
public.apps). Its pages are kept under the revision, so the next request of the new one goes the
normal way; nothing else has to be deleted."""

from django.core.cache import cache
from django.db import transaction

from .keys import CLUB, TOURNAMENT, Owner, revision_key


def forget(pk, owner: Owner = TOURNAMENT) -> None:
    """The tournament (or club) changed: its next public request reads the revision again."""
    slug = owner.model.objects.filter(pk=pk).values_list("slug", flat=True).first()
    if slug:
        cache.delete(revision_key(slug, owner))


def _forget_now_and_after_commit(pk, owner: Owner) -> None:
    """Forget now (this request's next page) and after the commit (everybody else's next
    page)."""
    forget(pk, owner)
    transaction.on_commit(lambda: forget(pk, owner))


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed."""
    _forget_now_and_after_commit(tournament_id, TOURNAMENT)


def club_changed(sender, club_id, **kwargs) -> None:
    """Receiver of club.changes.club_changed."""
    _forget_now_and_after_commit(club_id, CLUB)
