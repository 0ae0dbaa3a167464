"""The middleware: a visitor's public page from the cache, or the normal way and kept.

It sits right after whitenoise. For a visitor (no session, no messages cookie; a GET of a page
in public.cache.keys.CACHED_PAGES) it reads the owner's revision and answers from the cache,
skipping sessions, authentication, CSRF and the view; the first request of a revision (or of a
page's version, public.cache.pages) goes the normal way and its response (body and headers,
never cookies) is kept for the next ones. Logged-in staff, POSTs and every other page always go
the normal way.
"""

from django.core.cache import cache
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers

from .keys import CACHED_PAGES, PAGE_SECONDS, TOURNAMENT, page_key, revision
from .pages import kept_by_version, version_of
from .regions import answer as region_answer
from .regions import current as region_now
from .regions import is_region_refresh
from .wire import (
    REPEATED,
    compress,
    etag,
    gzip_body,
    not_modified,
    on_the_wire,
    worth_gzip,
)

PRIVATE_COOKIES = ("sessionid", "messages")


_resolved: dict = {}  # path -> its ResolverMatch, or None for no page: the hall asks for few
RESOLVED_KEPT = 5000

# Page key -> (ETag, the headers a 304 repeats) of the pages this process kept or answered from
# the cache, for the pages whose body is the same for every visitor (no stand-ins): a refresh
# that holds the ETag is answered 304 without fetching the page. A shared cache (the federation
# server's Redis, issue 38) would otherwise send the whole kept page, tens of kilobytes, to this
# process for every 304. A page key names the revision (or the version) the page shows, so a
# change never meets an old tag here; two processes drawing the same key at once may keep
# different tags for equal pages, which costs a visitor one download, never a stale page.
_tags: dict = {}
TAGS_KEPT = 5000


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


def _remember(key, tag, headers) -> None:
    if len(_tags) >= TAGS_KEPT:
        _tags.clear()
    _tags[key] = (tag, {name: headers[name] for name in REPEATED if name in headers})


class PublicPageCache:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "GET" or any(name in request.COOKIES for name in PRIVATE_COOKIES):
            return self.get_response(request)
        match = _resolve(request.path_info)
        owner = CACHED_PAGES.get(match.view_name) if match is not None else None
        if owner is None:
            return self.get_response(request)
        found = revision(owner, match.kwargs.get("slug"))
        if found is None:
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        if owner is TOURNAMENT and is_region_refresh(request, match.view_name):
            # A live region kept by its content (public.cache.regions): 304, what changed since
            # the tag the phone holds, or the whole region; the view draws it only once.
            snapshot = region_now(match.view_name, found, language)
            if snapshot is not None:
                return region_answer(request, found[0], language, snapshot)
        path = request.get_full_path()
        fill = {}
        version = found[1]  # a page of this revision ...
        if kept_by_version(match.view_name):  # ... or as long as what it shows is the same
            kept = version_of(match.view_name, found, match.kwargs, language)
            version, fill = kept if kept is not None else (None, {})
        prefix = f"{owner.tag}{found[0]}:{language}:{path}"
        if version is not None:
            key = page_key(found[0], version, language, path, owner)
            known = None if fill else _tags.get(key)
            if known is not None and request.META.get("HTTP_IF_NONE_MATCH"):
                held = not_modified(request, *known)
                if held is not None:
                    return held
            kept = cache.get(key)
            if kept is not None:
                content, headers, tag, zipped = kept
                for stand_in, html in fill.items():
                    content = content.replace(stand_in, html)
                if fill or tag is None:  # drawn with stand-ins: its body is this request's
                    tag, zipped = etag(prefix, content), None
                response = HttpResponse(content, headers=headers)
                if not fill:
                    _remember(key, tag, headers)
                return on_the_wire(request, response, tag, gzip_body(headers, content, tag, zipped))
        if owner is TOURNAMENT:
            request.public_revision = found  # the view need not read it again
        response = self.get_response(request)
        if getattr(response, "public_region", False):
            return response  # a region's refresh: this phone's own answer, kept by its content
        if response.status_code == 200 and not response.streaming and not response.cookies:
            patch_vary_headers(response, ("Accept-Encoding",))
            response["Cache-Control"] = "no-cache"
            headers = {
                name: value
                for name, value in response.headers.items()
                if name.lower() not in ("content-length", "date", "set-cookie")
            }
            body = response.content
            tag = etag(prefix, body)
            # The view's own version and page before filling in, if it gives them: the page
            # it drew is of that version, whatever revision the request came in on.
            version, content = getattr(response, "public_kept", (found[1], body))
            zipped = None
            if content == body:  # no stand-ins: the body, its ETag and its gzip are kept as one
                zipped = compress(body) if worth_gzip(headers, body) else None
                kept = (content, headers, tag, zipped)
            else:
                kept = (content, headers, None, None)
            key = page_key(found[0], version, language, path, owner)
            cache.set(key, kept, PAGE_SECONDS)
            if kept[2] is not None:
                _remember(key, tag, headers)
            return on_the_wire(request, response, tag, gzip_body(headers, body, tag, zipped))
        return response
