"""The visitors' page cache, one subsystem (issue 35): the hall's phones all ask for the same few
pages, so a visitor is answered from a per-revision store.

A visitor with no session and no messages cookie sees a public page that depends only on the
tournament's data (its `revision`, bumped by every change), the page's address and the
language. The middleware (`middleware`) looks up the tournament's revision (kept a second) and
answers from the cache; the first request of a revision goes the normal way and its response
is kept for the next ones. Player and find pages are kept by what they show instead (`pages`:
their view registers the version), so a confirmation sends only the four players' pages that
changed through the view; the others are kept with stand-ins for rank and total, filled in
here. A club rating's pages and feed (/r/<slug>/…) are kept the same way by the club's revision:
one store, one mechanism, the page's owner (a tournament or a club) read from `keys`, which
names every key. `touch()` sends `tournament_changed` and `touch_club()` `club_changed`, whose
receivers (`invalidation`, connected in public.apps) forget the revision, so a change shows on
the very next request. On the wire (`wire`, issue 26) a kept page is gzipped once and carries an
ETag and `Cache-Control: no-cache`: a phone's refresh that finds nothing new gets a 304. The
standings' live region is kept by its content instead (`regions`, issue 39): a phone's refresh
gets a 304, or only what changed since the content it holds, or the whole region.

The views only use it (`anonymous`, `drawn_once`, `keep_by_version`); it imports no view. What
a page reads is kept per revision below it, in core.kept, shared with the selectors.
"""

from .invalidation import club_changed, tournament_changed
from .middleware import PublicPageCache
from .pages import anonymous, drawn_once, keep_by_version
from .regions import answer as region_answer
from .regions import diffed_region, is_region_refresh
from .regions import keep as keep_region
from .wire import accepts_gzip

__all__ = [
    "PublicPageCache",
    "accepts_gzip",
    "anonymous",
    "club_changed",
    "diffed_region",
    "is_region_refresh",
    "keep_region",
    "region_answer",
    "drawn_once",
    "keep_by_version",
    "tournament_changed",
]
