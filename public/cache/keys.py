"""Which public pages the cache keeps, whose revision keeps them, and the keys it keeps them
under: a page by its owner's revision (or by the version its view gives, public.cache.pages),
the owner's revision itself for a second."""

from typing import NamedTuple

from django.core.cache import cache

from club.models import Club
from tournament.models import Tournament


class Owner(NamedTuple):
    """Whose revision keeps a page: a model with `slug` and `revision`, and the tag its cache
    keys carry (none for tournaments, whose keys came first; a slug holds no colon, so the
    two never meet)."""

    model: type
    tag: str


TOURNAMENT = Owner(Tournament, "")
CLUB = Owner(Club, "r:")

# Page name -> its owner.
CACHED_PAGES = {
    "public:standings": TOURNAMENT,
    "public:feed": TOURNAMENT,
    "public:statistics": TOURNAMENT,
    "public:find": TOURNAMENT,
    "public:player": TOURNAMENT,
    "public:club_rating": CLUB,
    "public:club_person": CLUB,
    "public:club_games": CLUB,
    "public:club_feed": CLUB,
}

PAGE_SECONDS = 300  # a revision is soon replaced by the next change: keep its pages a few minutes

REVISION_SECONDS = 1  # changes by another process (a command) show after at most this long


def revision_key(slug, owner: Owner = TOURNAMENT) -> str:
    return f"public-revision:{owner.tag}{slug}"


def page_key(pk, version, language, path, owner: Owner = TOURNAMENT) -> str:
    return f"public-page:{owner.tag}{pk}:{version}:{language}:{path}"


def revision(owner: Owner, slug):
    """(pk, revision) of the tournament or club, from the cache for a second: `touch()` and
    `touch_club()` forget it at once (public.cache.invalidation), so a change made through this
    server shows on the very next request.

    Read from the database, it is kept only if no other request kept one meanwhile (`add`, not
    `set`), and then the one kept is answered: a request that read the revision just before a
    change committed, and keeps it just after the change forgot it, must not replace the new
    revision another request has already answered by. So once any request (of any process
    sharing the cache: the federation server's, issue 38) has served the new page, none serves
    the old one again."""
    key = revision_key(slug, owner)
    found = cache.get(key)
    if found is None:
        found = owner.model.objects.filter(slug=slug).values_list("pk", "revision").first()
        if found is not None and not cache.add(key, found, timeout=REVISION_SECONDS):
            found = cache.get(key) or found  # (gone again since: ours)
    return found
