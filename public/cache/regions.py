"""A live region kept by its content, and what changed between two of its contents (issue 39).

The standings' live region (the default sort) is 90 KB gzipped at 2,000 players, and every
confirmation changes its ranks, so a phone's refresh downloaded it whole every time. Here the
region is kept as its parts (`Snapshot`): the head (the meta line, the table's head), each row
without its rank and even/odd class (so a rank that moves for everybody below a confirmed table
is not a change of the row), the ranks in order, the tail (teams, substitutes, highlights). Its
tag (the ETag) is a digest of the region itself, so a revision that changes nothing it shows
keeps the tag. A phone's refresh names the tag it holds (If-None-Match):

- the tag it holds is the region's now: 304, answered from the kept snapshot, nothing drawn;
- an older tag this process kept (the last SNAPSHOTS_KEPT contents per tournament and
  language): a JSON diff (`diff`), made once for each pair and kept: the rows that changed or
  are new, the rows gone, the fewest moves, the ranks that changed (by position), and the head
  and tail if either changed; static/desk/desk.js applies it as `apply` does here;
- anything else (too old, another process, after a restart): the whole region, as before.

The view that draws such a region registers the function giving its snapshot of a revision
(`diffed_region`), so the middleware answers the next refreshes without the view. Pure string
work and the standard library; the HTTP answer is `answer`.
"""

import gzip
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from django.http import HttpResponse, HttpResponseNotModified

from .wire import GZIP_LEVEL, accepts_gzip

SNAPSHOTS_KEPT = 64  # contents per tournament and language a phone may hold and get a diff from
DIFFS_KEPT = 256  # (from, to) pairs: the hall's phones hold few tags, each diff made once
NORMS_KEPT = 20000  # drawn rows -> their parts; shared by the snapshots, so rows kept once

# A row as StandingsTable.body_html draws it: its key, its even/odd class, its rank cell first.
ROW = re.compile(r'<tr data-key="([^"<>&]*)" class="(even|odd)"><td class="num rank">([^<]*)</td>')
ROW_END = "</tr>\n"


class Snapshot(NamedTuple):
    """One content of a region: its tag and its parts (`keys` None: it did not split into
    rows, e.g. "No results yet."; then only 304 or the whole region)."""

    tag: str
    body: bytes  # the region as drawn
    head: str
    keys: tuple | None  # the rows' keys in order
    rows: dict  # key -> the row without its rank and even/odd class
    ranks: tuple  # the rank cells' text, by position
    tail: str


class Parts(NamedTuple):
    head: str
    keys: tuple
    rows: dict
    ranks: tuple
    tail: str


_lock = threading.Lock()
_snapshots: dict = {}  # (pk, language) -> OrderedDict tag -> Snapshot (the newest last)
_diffs: OrderedDict = OrderedDict()  # (from tag, to tag) -> (body, content type, gzip or None)
_norms: dict = {}  # a drawn row -> (key, rank, row without rank and class)
_regions: dict[str, Callable] = {}  # page name -> (found, language) -> Snapshot or None


def diffed_region(*page_names):
    """Register the decorated function as the current snapshot of `page_names`' live region:
    (page name, (pk, revision), language) -> Snapshot, or None when the view must draw it."""

    def register(current: Callable) -> Callable:
        for name in page_names:
            _regions[name] = current
        return current

    return register


def is_region_refresh(request, page_name) -> bool:
    """A refresh of a diffed region: the page's own script asking for `?partial=1` alone."""
    return page_name in _regions and list(request.GET) == ["partial"]


def current(page_name, found, language) -> Snapshot | None:
    return _regions[page_name](page_name, found, language)


def tag_of(pk, language, html: str) -> str:
    """The region's tag: whose region, in which language, and a digest of the region itself."""
    found = hashlib.blake2b(html.encode(), digest_size=12).hexdigest()
    return f"s{pk}-{found}-{language}"


def row_parts(row: str):
    """(key, rank, the row without its rank and even/odd class, its class) or None."""
    found = _norms.get(row)
    if found is None:
        match = ROW.match(row)
        if match is None:
            return None
        key, parity, rank = match.groups()
        found = (key, rank, f'<tr data-key="{key}"><td class="num rank"></td>{row[match.end() :]}')
        found += (parity,)
        if len(_norms) >= NORMS_KEPT:
            _norms.clear()
        _norms[row] = found
    return found


def parity(position: int) -> str:
    """A row's class by its position, as django-tables2 counts (the first row "even")."""
    return "odd" if position % 2 else "even"


def split(html: str) -> Parts | None:
    """The region in parts, or None if its standings table has no keyed rows."""
    start = html.find("<tbody")
    if start < 0:
        return None
    first = html.find("<tr", start)
    close = html.find("</tbody>", start)
    if first < 0 or close < 0 or first > close:
        return None
    last = html.rfind(ROW_END, first, close)
    if last < 0:
        return None
    body = html[first : last + len(ROW_END)]
    keys, rows, ranks = [], {}, []
    for position, row in enumerate(body.split(ROW_END)[:-1]):
        found = row_parts(row + ROW_END)
        if found is None or found[3] != parity(position) or found[0] in rows:
            return None
        keys.append(found[0])
        rows[found[0]] = found[2]
        ranks.append(found[1])
    return Parts(html[:first], tuple(keys), rows, tuple(ranks), html[last + len(ROW_END) :])


def join(parts: Parts) -> str:
    """The region from its parts: `split`'s inverse."""
    drawn = []
    for position, key in enumerate(parts.keys):
        norm = parts.rows[key]
        bare = f'<tr data-key="{key}"><td class="num rank">'
        cls = parity(position)
        lead = f'<tr data-key="{key}" class="{cls}"><td class="num rank">{parts.ranks[position]}'
        drawn.append(lead + norm[len(bare) :])
    return parts.head + "".join(drawn) + parts.tail


def keep(pk, language, html: str) -> Snapshot:
    """The snapshot of a region drawn now, kept among its tournament's and language's last
    SNAPSHOTS_KEPT (the same content: the one kept)."""
    tag = tag_of(pk, language, html)
    with _lock:
        ring = _snapshots.setdefault((pk, language), OrderedDict())
        found = ring.get(tag)
        if found is not None:
            ring.move_to_end(tag)
            return found
    parts = split(html)
    if parts is None:
        snapshot = Snapshot(tag, html.encode(), "", None, {}, (), "")
    else:
        snapshot = Snapshot(tag, html.encode(), *parts)
    with _lock:
        ring = _snapshots.setdefault((pk, language), OrderedDict())
        ring[tag] = snapshot
        while len(ring) > SNAPSHOTS_KEPT:
            ring.popitem(last=False)
    return snapshot


def known(pk, language, tag) -> Snapshot | None:
    with _lock:
        return _snapshots.get((pk, language), {}).get(tag)


def longest_increasing(values: list) -> set:
    """The indexes of one longest strictly increasing subsequence of `values` (None skipped)."""
    tails, tails_at, before = [], [], {}
    for i, value in enumerate(values):
        if value is None:
            continue
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < value:
                lo = mid + 1
            else:
                hi = mid
        before[i] = tails_at[lo - 1] if lo else None
        if lo == len(tails):
            tails.append(value)
            tails_at.append(i)
        else:
            tails[lo] = value
            tails_at[lo] = i
    out = set()
    i = tails_at[-1] if tails_at else None
    while i is not None:
        out.add(i)
        i = before[i]
    return out


def diff(old: Snapshot, new: Snapshot) -> dict:
    """What turns region `old` into region `new` (both split into rows), as `apply` reads it:
    "rows" (key -> row without rank and class: changed or new), "gone" (keys), "moves"
    ([key, the key it goes before or None for the end], in order: every new row and the
    fewest others, those off one longest run kept in order), "ranks" ([position, [texts]]:
    runs of rank cells that differ by position), "head" and "tail" (both, if either changed)."""
    out = {"from": old.tag, "to": new.tag}
    if old.head != new.head or old.tail != new.tail:
        out["head"], out["tail"] = new.head, new.tail
    out["rows"] = {k: new.rows[k] for k in new.keys if old.rows.get(k) != new.rows[k]}
    out["gone"] = [k for k in old.keys if k not in new.rows]
    staying = [k for k in old.keys if k in new.rows]
    was = {k: i for i, k in enumerate(staying)}
    stay = longest_increasing([was.get(k) for k in new.keys])
    moves = []
    for i in range(len(new.keys) - 1, -1, -1):
        if i not in stay:
            moves.append([new.keys[i], new.keys[i + 1] if i + 1 < len(new.keys) else None])
    out["moves"] = moves
    runs = []
    for position, rank in enumerate(new.ranks):
        if position < len(old.ranks) and old.ranks[position] == rank:
            continue
        if runs and runs[-1][0] + len(runs[-1][1]) == position:
            runs[-1][1].append(rank)
        else:
            runs.append([position, [rank]])
    out["ranks"] = runs
    return out


def apply(old: Parts, change: dict) -> str:
    """The region `change` (a `diff`) makes of `old`, exactly as static/desk/desk.js does it:
    rows gone, rows replaced or made, the moves in order, the ranks by position, the classes."""
    gone = set(change["gone"])
    keys = [k for k in old.keys if k not in gone]
    rows = {k: v for k, v in old.rows.items() if k not in gone}
    rows.update(change["rows"])
    for key, before in change["moves"]:
        if key in keys:
            keys.remove(key)
        keys.insert(keys.index(before) if before is not None else len(keys), key)
    ranks = list(old.ranks[: len(keys)]) + [""] * (len(keys) - len(old.ranks))
    for position, texts in change["ranks"]:
        ranks[position : position + len(texts)] = texts
    head, tail = change.get("head", old.head), change.get("tail", old.tail)
    return join(Parts(head, tuple(keys), rows, tuple(ranks), tail))


def _diff_body(old: Snapshot, new: Snapshot):
    """The answer to a phone holding `old`: (body, content type, gzip or None), made once per
    pair; the whole region when the diff would not be smaller."""
    pair = (old.tag, new.tag)
    with _lock:
        found = _diffs.get(pair)
    if found is not None:
        return found
    body = json.dumps(diff(old, new), ensure_ascii=False, separators=(",", ":")).encode()
    kind = "application/json"
    if len(body) >= len(new.body):
        body, kind = new.body, "text/html; charset=utf-8"
    found = (body, kind, gzip.compress(body, GZIP_LEVEL, mtime=0) if len(body) >= 1024 else None)
    with _lock:
        _diffs[pair] = found
        while len(_diffs) > DIFFS_KEPT:
            _diffs.popitem(last=False)
    return found


def _whole(snapshot: Snapshot):
    pair = (None, snapshot.tag)
    with _lock:
        found = _diffs.get(pair)
    if found is None:
        body = snapshot.body
        found = (body, "text/html; charset=utf-8", gzip.compress(body, GZIP_LEVEL, mtime=0))
        with _lock:
            _diffs[pair] = found
            while len(_diffs) > DIFFS_KEPT:
                _diffs.popitem(last=False)
    return found


def held_tag(if_none_match: str) -> str | None:
    """The region tag a refresh names (the first, weak or strong, "-gz" or not)."""
    for item in if_none_match.split(","):
        item = item.strip().removeprefix("W/").strip('"')
        if item:
            return item.removesuffix("-gz")
    return None


def answer(request, pk, language, snapshot: Snapshot) -> HttpResponse:
    """A refresh of the region: 304, a JSON diff from the tag it holds, or the whole region."""
    held = held_tag(request.META.get("HTTP_IF_NONE_MATCH", ""))
    use_gzip = accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    if held == snapshot.tag:
        response = HttpResponseNotModified()
        response["ETag"] = f'"{snapshot.tag}"'
    else:
        old = known(pk, language, held) if held else None
        if old is not None and old.keys is not None and snapshot.keys is not None:
            body, kind, zipped = _diff_body(old, snapshot)
        else:
            body, kind, zipped = _whole(snapshot)
        response = HttpResponse(body, content_type=kind)
        response["ETag"] = f'"{snapshot.tag}"'
        if use_gzip and zipped is not None:
            response.content = zipped
            response["Content-Encoding"] = "gzip"
            response["ETag"] = f'"{snapshot.tag}-gz"'
        response["Content-Length"] = str(len(response.content))
        response["Content-Language"] = language
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "no-cache"
    response.public_region = True  # the page cache keeps it not: it is this phone's answer
    return response
