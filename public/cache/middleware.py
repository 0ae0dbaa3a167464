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
A club rating's pages and feed (/r/<slug>/…) are kept the same way by the club's revision
(`touch_club()` bumps it and sends `club_changed`, which forgets it here): one store, one
mechanism, the page's owner (a tournament or a club) read from the table below.
Logged-in staff, POSTs and every other page always go the normal way.

On the wire (issue 26): a kept page worth it is gzipped once, when it is kept, and sent so to
every client that accepts gzip. Every visitor's answer carries an ETag, a digest of the page's
owner, language, address and the very body sent (so a player page's rank and total filled in
here are covered, and a change that leaves a page as it was keeps its ETag), with "-gz" for the
gzipped variant, and `Cache-Control: no-cache`: a phone's refresh that finds nothing new gets a
304 and no body.
"""

import gzip
import hashlib
from typing import NamedTuple

from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers

from club.models import Club
from public.views import kept_version
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
# Kept by what they show rather than by revision (public.views.kept_version): a confirmation
# changes four players' pages and no find page.
VERSIONED_PAGES = {"public:find", "public:player"}
PRIVATE_COOKIES = ("sessionid", "messages")


GZIP_LEVEL = 6
GZIP_FROM = 1024  # bytes: below this gzip saves less than its own header and the CPU cost
GZIP_TYPES = ("text/html", "application/json")
PAGE_SECONDS = 300  # a revision is soon replaced by the next change: keep its pages a few minutes

REVISION_SECONDS = 1  # changes by another process (a command) show after at most this long


def revision_key(slug, owner: Owner = TOURNAMENT) -> str:
    return f"public-revision:{owner.tag}{slug}"


def page_key(pk, version, language, path, owner: Owner = TOURNAMENT) -> str:
    return f"public-page:{owner.tag}{pk}:{version}:{language}:{path}"


def _revision(owner: Owner, slug):
    """(pk, revision) of the tournament or club, from the cache for a second: `touch()` and
    `touch_club()` forget it at once, so a change made through this server shows on the very
    next request."""
    key = revision_key(slug, owner)
    found = cache.get(key)
    if found is None:
        found = owner.model.objects.filter(slug=slug).values_list("pk", "revision").first()
        if found is not None:
            cache.set(key, found, timeout=REVISION_SECONDS)
    return found


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
        owner = CACHED_PAGES.get(match.view_name) if match is not None else None
        if owner is None:
            return self.get_response(request)
        found = _revision(owner, match.kwargs.get("slug"))
        if found is None:
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        path = request.get_full_path()
        fill = {}
        version = found[1]  # a page of this revision ...
        if match.view_name in VERSIONED_PAGES:  # ... or as long as what it shows is the same
            kept = kept_version(match.view_name, found, match.kwargs, language)
            version, fill = kept if kept is not None else (None, {})
        prefix = f"{owner.tag}{found[0]}:{language}:{path}"
        if version is not None:
            kept = cache.get(page_key(found[0], version, language, path, owner))
            if kept is not None:
                content, headers, tag, zipped = kept
                for stand_in, html in fill.items():
                    content = content.replace(stand_in, html)
                if fill or tag is None:  # drawn with stand-ins: its body is this request's
                    tag, zipped = _tag(prefix, content), None
                response = HttpResponse(content, headers=headers)
                return _on_the_wire(request, response, tag, _gzipped(headers, content, tag, zipped))
        if owner is TOURNAMENT:
            request.public_revision = found  # the view need not read it again
        response = self.get_response(request)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            patch_vary_headers(response, ("Accept-Encoding",))
            response["Cache-Control"] = "no-cache"
            headers = {
                name: value
                for name, value in response.headers.items()
                if name.lower() not in ("content-length", "date", "set-cookie")
            }
            body = response.content
            tag = _tag(prefix, body)
            # The view's own version and page before filling in, if it gives them: the page
            # it drew is of that version, whatever revision the request came in on.
            version, content = getattr(response, "public_kept", (found[1], body))
            zipped = None
            if content == body:  # no stand-ins: the body, its ETag and its gzip are kept as one
                zipped = _compress(body) if _worth_gzip(headers, body) else None
                kept = (content, headers, tag, zipped)
            else:
                kept = (content, headers, None, None)
            cache.set(page_key(found[0], version, language, path, owner), kept, PAGE_SECONDS)
            return _on_the_wire(request, response, tag, _gzipped(headers, body, tag, zipped))
        return response


def _tag(prefix: str, body: bytes) -> str:
    """The ETag's opaque part: a digest of whose page, in which language, at which address,
    and of the body itself."""
    return hashlib.blake2b(prefix.encode() + b"\0" + body, digest_size=12).hexdigest()


def _worth_gzip(headers: dict, body: bytes) -> bool:
    kind = headers.get("Content-Type", "").split(";")[0].strip().lower()
    return kind in GZIP_TYPES and len(body) >= GZIP_FROM


def _compress(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)  # the same bytes every time


def _gzipped(headers: dict, body: bytes, tag: str, zipped: bytes | None):
    """None for a page not worth gzipping, else a function that gives its gzip body: the one
    kept with the page, or for a page filled in here, one kept under its ETag (the same rank
    and total are asked for again and again)."""
    if zipped is not None:
        return lambda: zipped
    if not _worth_gzip(headers, body):
        return None

    def kept_under_tag():
        key = f"public-gzip:{tag}"
        found = cache.get(key)
        if found is None:
            found = _compress(body)
            cache.set(key, found, PAGE_SECONDS)
        return found

    return kept_under_tag


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header (RFC 9110 §12.5.3) takes gzip: named (or x-gzip)
    with a q above 0, or not named and "*" with a q above 0."""
    named = anything = None
    for item in accept_encoding.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        coding = coding.lower()
        if coding in ("gzip", "x-gzip"):
            named = max(quality, named or 0.0)
        elif coding == "*":
            anything = quality
    quality = named if named is not None else anything
    return bool(quality and quality > 0)


def _held(if_none_match: str, ours: tuple[str, str], sent: str) -> str | None:
    """The ETag of ours the client holds (If-None-Match, compared weakly as RFC 9110 §13.1.2
    says), or None. Either variant will do: it is this very page in the other encoding."""
    for item in if_none_match.split(","):
        item = item.strip()
        if item == "*":
            return sent
        item = item.removeprefix("W/")
        if item in ours:
            return item
    return None


def _on_the_wire(request, response: HttpResponse, tag: str, gzipped) -> HttpResponse:
    """A visitor's answer: 304 if they hold this page already, else its gzip body to a client
    that accepts it, else the plain one; `response` has the plain body and every header but
    ETag, Content-Encoding and Content-Length."""
    plain, zipped = f'"{tag}"', f'"{tag}-gz"'
    use_gzip = gzipped is not None and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    sent = zipped if use_gzip else plain
    held = _held(request.META.get("HTTP_IF_NONE_MATCH", ""), (plain, zipped), sent)
    if held is not None:
        answer = HttpResponseNotModified()
        answer["ETag"] = held
        for name in ("Vary", "Cache-Control"):
            if name in response:
                answer[name] = response[name]
        return answer
    response["ETag"] = sent
    if use_gzip:
        response.content = gzipped()
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(response.content))
    return response
