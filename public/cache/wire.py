"""A kept page on the wire (issue 26): gzipped once when it is kept, for every client that
accepts gzip; an ETag on every visitor's answer, a digest of the page's owner, language, address
and the very body sent, with "-gz" for the gzipped variant, and `Cache-Control: no-cache`, so a
refresh that finds nothing new is a 304 with no body."""

import gzip
import hashlib

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified

from .keys import PAGE_SECONDS

GZIP_LEVEL = 6
GZIP_FROM = 1024  # bytes: below this gzip saves less than its own header and the CPU cost
GZIP_TYPES = ("text/html", "application/json")
REPEATED = ("Vary", "Cache-Control")  # the kept page's headers a 304 repeats


def etag(prefix: str, body: bytes) -> str:
    """The ETag's opaque part: a digest of whose page, in which language, at which address,
    and of the body itself."""
    return hashlib.blake2b(prefix.encode() + b"\0" + body, digest_size=12).hexdigest()


def worth_gzip(headers: dict, body: bytes) -> bool:
    kind = headers.get("Content-Type", "").split(";")[0].strip().lower()
    return kind in GZIP_TYPES and len(body) >= GZIP_FROM


def compress(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)  # the same bytes every time


def gzip_body(headers: dict, body: bytes, tag: str, zipped: bytes | None):
    """None for a page not worth gzipping, else a function that gives its gzip body: the one
    kept with the page, or for a page filled in here, one kept under its ETag (the same rank
    and total are asked for again and again)."""
    if zipped is not None:
        return lambda: zipped
    if not worth_gzip(headers, body):
        return None

    def kept_under_tag():
        key = f"public-gzip:{tag}"
        found = cache.get(key)
        if found is None:
            found = compress(body)
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


def not_modified(request, tag: str, repeated: dict) -> HttpResponse | None:
    """A 304 if the visitor holds the page of ETag `tag` (either encoding), repeating the
    `repeated` headers (Vary, Cache-Control); None if they do not hold it."""
    plain, zipped = f'"{tag}"', f'"{tag}-gz"'
    held = _held(request.META.get("HTTP_IF_NONE_MATCH", ""), (plain, zipped), plain)
    return None if held is None else _not_modified(held, repeated)


def _not_modified(held: str, repeated: dict) -> HttpResponseNotModified:
    answer = HttpResponseNotModified()
    answer["ETag"] = held
    for name, value in repeated.items():
        answer[name] = value
    return answer


def on_the_wire(request, response: HttpResponse, tag: str, gzipped) -> HttpResponse:
    """A visitor's answer: 304 if they hold this page already, else its gzip body to a client
    that accepts it, else the plain one; `response` has the plain body and every header but
    ETag, Content-Encoding and Content-Length."""
    plain, zipped = f'"{tag}"', f'"{tag}-gz"'
    use_gzip = gzipped is not None and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    sent = zipped if use_gzip else plain
    held = _held(request.META.get("HTTP_IF_NONE_MATCH", ""), (plain, zipped), sent)
    if held is not None:
        return _not_modified(held, {name: response[name] for name in REPEATED if name in response})
    response["ETag"] = sent
    if use_gzip:
        response.content = gzipped()
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(response.content))
    return response
