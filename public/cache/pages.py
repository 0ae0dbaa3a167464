"""Pages kept by what they show rather than by revision (issue 26): a confirmation is a new
revision, but it changes four players' pages and no find page. The view that draws such a page
registers the function that gives its version (`keep_by_version`); the middleware asks it for a
visitor's page of a revision (`version_of`) and keeps the page under that version. The view
draws a visitor's page once per version (`drawn_once`), with stand-ins for what changes on every
request (a player's rank and total), which are filled in on each answer.
"""

from collections.abc import Callable

from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.utils.translation import get_language

# Page name -> the function its view registered: (page name, (pk, revision), the URL's kwargs,
# language) -> (version, {stand-in: HTML, as bytes}), or None when the page must go the normal
# way (this process does not keep that revision's data, or no such page).
_versions: dict[str, Callable] = {}


def keep_by_version(*page_names):
    """Register the decorated function as the version of `page_names` (public.views)."""

    def register(version: Callable) -> Callable:
        for name in page_names:
            _versions[name] = version
        return version

    return register


def kept_by_version(page_name) -> bool:
    return page_name in _versions


def version_of(page_name, found, kwargs, language) -> tuple[str, dict] | None:
    """The version of a visitor's `page_name` of revision `found` and the HTML its stand-ins
    take, as its view says; None: the page goes the normal way."""
    version = _versions.get(page_name)
    return version(page_name, found, kwargs, language) if version is not None else None


def anonymous(request) -> bool:
    """A visitor whose page shows nothing of its own: not logged in, no messages waiting."""
    return not request.user.is_authenticated and not len(get_messages(request))


# Page name -> (tournament pk, player key or query, template) -> (what the page showed, its
# HTML): the pages drawn once per version in this process.
_player_pages: dict = {}
_find_pages: dict = {}
_STORES = {"public:player": _player_pages, "public:find": _find_pages}
PAGES_KEPT = 2000  # per store: a field's players in a few languages; queries beyond start over


def drawn_once(
    request, page_name, key: tuple, version: str, draw, filled: dict | None = None
) -> HttpResponse:
    """For a visitor, the page kept in `page_name`'s store (at most PAGES_KEPT pages: the store
    starts over beyond) under `key` if it was drawn for the same `version` (and address and
    language), else `draw()`'s, kept for next time. Everyone else: `draw()`. `filled` maps
    stand-ins `draw()` wrote to the HTML put in their place, each time.

    A visitor's response carries `public_kept`: the version and the page before filling in,
    which the page cache keeps under that version, across revisions."""
    if not anonymous(request):
        return _filled(draw(), filled)
    shows = (version, request.get_full_path(), get_language())
    store = _STORES[page_name]
    drawn = store.get(key)
    if drawn is None or drawn[0] != shows:
        drawn = (shows, draw().content)
        if len(store) >= PAGES_KEPT:
            store.clear()
        store[key] = drawn
    response = HttpResponse(drawn[1])
    response.public_kept = (version, drawn[1])
    return _filled(response, filled)


def _filled(response: HttpResponse, filled: dict | None) -> HttpResponse:
    if filled:
        content = response.content.decode(response.charset)
        for stand_in, html in filled.items():
            content = content.replace(stand_in, html)
        response.content = content
    return response
