"""The hall's phones all ask for the same few pages: answer visitors from a per-revision store.

A visitor with no session and no messages cookie sees a public page that depends only on the
tournament's data (its `revision`, bumped by every change), the page's address and the
language. This middleware sits right after whitenoise: for such a visitor it looks up the
tournament's revision (kept a second; `touch()` forgets it) and answers from the cache,
skipping sessions, authentication, CSRF and the view. The first request of a revision goes
the normal way and its response (body and headers, never cookies) is kept for the next ones.
Player and find pages are kept by what they show instead (their version, see
public.views.kept_version), so a confirmation sends only the four players' pages that changed
through the view; the others are kept with stand-ins for rank and total, filled in here.
Logged-in staff, POSTs and every other page always go the normal way.
"""

from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation

from public.views import kept_version
from tournament.models import Tournament

CACHED_PAGES = {
    "public:standings",
    "public:feed",
    "public:statistics",
    "public:find",
    "public:player",
}
# Kept by what they show rather than by revision (public.views.kept_version): a confirmation
# changes four players' pages and no find page.
VERSIONED_PAGES = {"public:find", "public:player"}
PRIVATE_COOKIES = ("sessionid", "messages")


REVISION_SECONDS = 1  # changes by another process (a command) show after at most this long


def revision_key(slug) -> str:
    return f"public-revision:{slug}"


def page_key(pk, version, language, path) -> str:
    return f"public-page:{pk}:{version}:{language}:{path}"


def _tournament_revision(slug):
    """(pk, revision) of the tournament, from the cache for a second: `touch()` forgets it at
    once, so a change made through this server shows on the very next request."""
    key = revision_key(slug)
    found = cache.get(key)
    if found is None:
        found = Tournament.objects.filter(slug=slug).values_list("pk", "revision").first()
        if found is not None:
            cache.set(key, found, timeout=REVISION_SECONDS)
    return found


def forget(tournament_id) -> None:
    """The tournament changed: its next public request reads the revision again."""
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug:
        cache.delete(revision_key(slug))


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed: forget now (this request's next page)
    and after the commit (everybody else's next page)."""
    forget(tournament_id)
    transaction.on_commit(lambda: forget(tournament_id))


_resolved: dict = {}  # path -> its ResolverMatch, or None for no page: the hall asks for few
RESOLVED_KEPT = 5000


def _resolve(path):
    """resolve(path), remembered: matching the URL patterns was a few per cent of a hit."""
    try:
        return _resolved[path]
    except KeyError:
        pass
    try:
        match = resolve(path)
    except Resolver404:
        match = None
    if len(_resolved) >= RESOLVED_KEPT:
        _resolved.clear()
    _resolved[path] = match
    return match


class PublicPageCache:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "GET" or any(name in request.COOKIES for name in PRIVATE_COOKIES):
            return self.get_response(request)
        match = _resolve(request.path_info)
        if match is None or match.view_name not in CACHED_PAGES:
            return self.get_response(request)
        found = _tournament_revision(match.kwargs.get("slug"))
        if found is None:
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        path = request.get_full_path()
        fill = {}
        version = found[1]  # a page of this revision ...
        if match.view_name in VERSIONED_PAGES:  # ... or as long as what it shows is the same
            kept = kept_version(match.view_name, found, match.kwargs, language)
            version, fill = kept if kept is not None else (None, {})
        if version is not None:
            kept = cache.get(page_key(found[0], version, language, path))
            if kept is not None:
                content, headers = kept
                for stand_in, html in fill.items():
                    content = content.replace(stand_in, html)
                return HttpResponse(content, headers=headers)
        request.public_revision = found  # the view need not read it again
        response = self.get_response(request)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            headers = {
                name: value
                for name, value in response.headers.items()
                if name.lower() not in ("content-length", "date", "set-cookie")
            }
            # The view's own version and page before filling in, if it gives them: the page
            # it drew is of that version, whatever revision the request came in on.
            version, content = getattr(response, "public_kept", (found[1], response.content))
            # A revision is soon replaced by the next change: keep its pages a few minutes.
            cache.set(page_key(found[0], version, language, path), (content, headers), 300)
        return response
