"""The hall's phones all ask for the same few pages: answer visitors from a per-revision store.

A visitor with no session and no messages cookie sees a public page that depends only on the
tournament's data (its `revision`, bumped by every change), the page's address and the
language. This middleware sits right after whitenoise: for such a visitor it looks up the
tournament's revision (kept a second; `touch()` forgets it) and answers from the cache,
skipping sessions, authentication, CSRF and the view. The first request of a revision goes
the normal way and its response (body and headers, never cookies) is kept for the next ones.
Logged-in staff, POSTs and every other page always go the normal way.
"""

from django.core.cache import cache
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation

from .models import Tournament

CACHED_PAGES = {"public:standings", "public:feed", "public:find", "public:player"}
PRIVATE_COOKIES = ("sessionid", "messages")


REVISION_SECONDS = 1  # changes by another process (a command) show after at most this long


def revision_key(slug) -> str:
    return f"public-revision:{slug}"


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


class PublicPageCache:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "GET" or any(name in request.COOKIES for name in PRIVATE_COOKIES):
            return self.get_response(request)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        if match.view_name not in CACHED_PAGES:
            return self.get_response(request)
        found = _tournament_revision(match.kwargs.get("slug"))
        if found is None:
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        key = f"public-page:{found[0]}:{found[1]}:{language}:{request.get_full_path()}"
        kept = cache.get(key)
        if kept is not None:
            content, headers = kept
            return HttpResponse(content, headers=headers)
        request.public_revision = found  # the view need not read it again
        response = self.get_response(request)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            headers = {
                name: value
                for name, value in response.headers.items()
                if name.lower() not in ("content-length", "date", "set-cookie")
            }
            # A revision is soon replaced by the next change: keep its pages a few minutes.
            cache.set(key, (response.content, headers), timeout=300)
        return response
