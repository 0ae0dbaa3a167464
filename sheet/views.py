"""The table page: the table's own score sheet on the players' phones (issue 24).

Reached without an account by the table's link (the QR code on the card and the blank
protocol) or its short code; the link is the only key, and it grants exactly one thing:
recording the hands of that table in that session until the desk confirms the table's result.
The page is one self-contained document (its script, styles and arithmetic inside it), so it
keeps working while the hall's Wi-Fi is gone; it talks to the desk through two addresses:
`state.json` (what the table has) and `act/` (one change, as JSON).
"""

import hmac
import json
import math
import re
import uuid
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.entries import VERSION_MAX
from core.errors import ActionRefused
from mahjong.hands.browser import error_json, rules_json
from mahjong.hands.messages import CODES
from scoring.models import Hand, Via
from scoring.services import (
    HandConflict,
    HandRefused,
    confirm_hand,
    correct_hand,
    record_hand,
    send_hands_result,
    undo_last_hand,
)
from seating.codes import place_key
from seating.keys import table_for_code, table_for_key, table_path
from seating.services import record_table_winds
from sheet import guesses
from sheet.labels import labels
from sheet.state import kept_at, kept_state, table_state, with_clock, without_clock

ASSETS = Path(settings.BASE_DIR) / "static" / "sheet"
# The page's script, in this order (each file a part of window.Sheet; view.js starts the page):
# the arithmetic, the words, what the device keeps, the talk with the desk, the pieces of a
# form, the two games' forms, the page.
SCRIPTS = (
    "score.js",
    "words.js",
    "store.js",
    "wire.js",
    "dom.js",
    "riichi.js",
    "sichuan.js",
    "view.js",
)
WINDS = ("E", "S", "W", "N")
BODY_MAX = 20_000  # one hand is at most 4,000 characters; a request carries one change
# Nesting of a request: a Sichuan hu's win is 6 levels down (the request, data, events, an
# event, hu, a win); deeper is no change the page sends, and is refused before it is parsed
# (Python's parser would raise RecursionError at about 1,000).
DEPTH_MAX = 8
# Digits of one number (Python's int() refuses past 4,300): 10^400 still reads, and the hand's
# arithmetic names the field it is too large for (mahjong.hands.riichi.HAN_MAX).
DIGITS_MAX = 1000
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = re.compile(r"[^\[\]{}]+")


@cache
def _asset(name: str) -> str:
    return without_comment_lines((ASSETS / name).read_text(encoding="utf-8"))


def without_comment_lines(text: str) -> str:
    """A script or style sheet without its comments that stand on lines of their own (`// …`,
    `/* … */`): they are for the files' readers, and the page stays within its 100 KB (issue 24).
    Only whole lines go; a text where a comment ends before code on its line is kept as it is."""
    kept, inside = [], False
    for line in text.split("\n"):
        bare = line.strip()
        opens = not inside and bare.startswith("/*")
        if inside or opens:
            ends = bare.find("*/", 2 if opens else 0)
            if ends >= 0 and ends != len(bare) - 2:
                return text  # code after the comment on its line: nothing is taken out
            inside = ends < 0
            continue
        if not bare.startswith("//"):
            kept.append(line)
    return "\n".join(kept)


def _table(slug, number, table, key):
    found = table_for_key(slug, number, table, key)
    if found is None:
        raise Http404(_("No table has this link. Scan the code on the table again."))
    return found


@require_http_methods(["GET", "POST"])
def code_entry(request):
    """Type the table's short code (printed on the card and the protocol) to open its page.
    A client that typed too many wrong codes waits (sheet.guesses)."""
    error = ""
    status = 200
    code = request.POST.get("code", "")[:40] if request.method == "POST" else ""
    if request.method == "POST":
        if guesses.throttled(request):
            status = 429
            error = _("Too many wrong codes from this device: wait a minute, then try again.")
        else:
            table = table_for_code(code)
            if table is not None:
                return redirect(table_path(table))
            guesses.count_wrong(request)
            error = _("No table has the code %(code)s. Check it on the table card.") % {
                "code": code
            }
    return render(request, "sheet/code.html", {"code": code, "error": error}, status=status)


@gzip_page  # a phone on a weak signal: a third of the bytes (benchmarks/hands.py)
@ensure_csrf_cookie  # its changes carry the form token like every write of the desk
@never_cache
@require_GET
def table_page(request, slug, number, table, key):
    table = _table(slug, number, table, key)
    rules = table.session.tournament.rule_set()
    kept = kept_state(table)
    boot = {
        "state": json.loads(with_clock(kept, table)),
        # the state's ETag: the page's first refresh is a 304 when nothing changed since
        "state_tag": kept.tag,
        "rules": rules_json(rules),
        "labels": labels(),
        # every refusal of the arithmetic and its words by code, in the reader's language: the
        # page fills them in itself (static/sheet/words.js), offline too
        "messages": {code: _(text) for text, code in CODES.items()},
        "act": request.path + "act/",
        "state_url": request.path + "state.json",
        "csrf": get_token(request),
    }
    context = {
        "table": table,
        "boot": boot,
        "script": "\n".join(_asset(name) for name in SCRIPTS),
        "style": _asset("sheet.css"),
    }
    return render(request, "sheet/table.html", context)


@gzip_page
@never_cache
@require_GET
def state(request, at, number, table, key):
    """The table's state, kept per table revision (sheet.state.kept_state) with its ETag: a
    page that holds it (If-None-Match) is answered 304, no body, nothing built again."""
    # a refresh that finds its state kept asks the database nothing: the link's key is a
    # keyed hash of the table's place (seating.codes), checked here as table_for_key does
    slug = at  # (sheet.urls)
    if hmac.compare_digest(place_key(slug, number, table), key):
        kept = kept_at(slug, number, table)
        if kept is not None and _holds(request, kept.tag):
            answer = HttpResponseNotModified()
            answer["ETag"] = kept.tag
            return answer
    table = _table(slug, number, table, key)
    kept = kept_state(table)
    if _holds(request, kept.tag):
        answer = HttpResponseNotModified()
    else:
        answer = HttpResponse(with_clock(kept, table), content_type="application/json")
    answer["ETag"] = kept.tag
    return answer


def _holds(request, tag: str) -> bool:
    """The request names `tag` in its If-None-Match, compared weakly (RFC 9110 §13.1.2: the
    gzip of the answer makes its ETag weak, W/"…")."""
    held = request.META.get("HTTP_IF_NONE_MATCH", "")
    tags = {t.removeprefix("W/") for t in parse_etags(held)} if held else set()
    return tag in tags or "*" in tags


def _uuid(value):
    if value is None:
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError as e:
        raise ActionRefused(_("client_id: not a valid id."), field="client_id") from e


def _int(body: dict, name: str) -> int:
    """A whole number of the request (a JSON integer, not 2.0 nor true), 1 to VERSION_MAX."""
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionRefused(_("%(field)s: a whole number is needed.") % {"field": name}, name)
    if not 1 <= value <= VERSION_MAX:
        raise ActionRefused(
            _("%(field)s: a whole number from 1 to %(max)d is needed.")
            % {"field": name, "max": VERSION_MAX},
            name,
        )
    return value


def _wind(body: dict, name: str, blank=False) -> str:
    value = body.get(name) or ""
    if value not in WINDS and not (blank and value == ""):
        raise ActionRefused(_("%(field)s: not a wind (E, S, W, N).") % {"field": name}, name)
    return value


def _current(table, number: int, version: int) -> Hand:
    """The hand the device names by its number and the version it saw, at this table only."""
    hand = table.hands.filter(number=number, version=version).first()
    if hand is None:
        raise ActionRefused(
            _("The table has no hand %(number)d in version %(version)d.")
            % {"number": number, "version": version},
            "hand",
        )
    return hand


def _client_id(table, body: dict):
    """The device's id of a correction; an id another table's hand carries is refused (the
    database keeps each id once: it would fail there)."""
    client_id = _uuid(body.get("client_id"))
    if (
        client_id is not None
        and Hand.objects.filter(client_id=client_id).exclude(table=table).exists()
    ):
        raise ActionRefused(_("This hand was recorded at another table."), field="client_id")
    return client_id


def _winds(body: dict) -> dict:
    """Who drew each wind: wind → a player's id, as a whole number or its digits."""
    winds = body.get("winds")
    if not isinstance(winds, dict):
        raise ActionRefused(_("winds: who drew each wind is needed."), field="winds")
    for wind, pk in winds.items():
        whole = isinstance(pk, int) and not isinstance(pk, bool)
        if not (pk is None or whole or (isinstance(pk, str) and len(pk) <= 20)):
            raise ActionRefused(
                _("winds.%(wind)s: a player's id (a whole number) is needed.")
                % {"wind": str(wind)[:2]},
                field="winds",
            )
    return winds


def _do(table, body: dict) -> str:
    """One change the page asked for; every one of them is a service of scoring."""
    action = body.get("action")
    via = Via.TABLE
    if action == "record":
        record_hand(
            table,
            body.get("data"),
            None,
            client_id=_uuid(body.get("client_id")),  # record_hand checks it is this table's
            number=_int(body, "number"),
            via=via,
            device=_wind(body, "device", blank=True),
        )
    elif action == "correct":
        hand = _current(table, _int(body, "number"), _int(body, "version"))
        correct_hand(
            hand,
            body.get("data"),
            None,
            str(body.get("reason") or "")[:500],
            client_id=_client_id(table, body),
            via=via,
            device=_wind(body, "device", blank=True),
        )
    elif action == "undo":
        undo_last_hand(
            table,
            None,
            str(body.get("reason") or "")[:500],
            number=_int(body, "number"),
            version=_int(body, "version"),
        )
    elif action == "confirm":
        # the version the player saw, put into the request when they tapped (static/sheet/view.js)
        hand = _current(table, _int(body, "number"), _int(body, "version"))
        device = _wind(body, "device", blank=True)
        confirm_hand(hand, _wind(body, "wind"), None, via=via, device=device)
    elif action == "send":
        send_hands_result(table)
    elif action == "winds":
        record_table_winds(table, _winds(body), None)
    else:
        raise ActionRefused(_("Unknown action."), field="action")
    table.refresh_from_db()  # the winds' draw changes the table itself
    # kept for the table's new revision: the other phones' next refresh finds it built
    return without_clock(kept_state(table))


def _constant(name: str):
    raise ActionRefused(
        _("The request has %(value)s, which is not a number JSON allows.") % {"value": name},
        field="body",
    )


def _integer(text: str) -> int:
    if len(text) > DIGITS_MAX:
        raise ActionRefused(
            _("The request has a number of %(digits)d digits: at most %(max)d.")
            % {"digits": len(text), "max": DIGITS_MAX},
            field="body",
        )
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ActionRefused(
            _("The request has the number %(value)s, too large to be one.") % {"value": text[:20]},
            field="body",
        )
    return value


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float, parse_int=_integer)


def _body(raw: bytes) -> dict:
    """The request as a JSON object: at most BODY_MAX bytes and DEPTH_MAX levels deep (counted
    on its brackets outside strings, before parsing), with finite numbers only (no NaN,
    Infinity nor 1e400); ActionRefused saying which limit it passed."""
    if len(raw) > BODY_MAX:
        raise ActionRefused(
            _("The request is too large: at most %(max)d bytes.") % {"max": BODY_MAX},
            field="body",
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _not_json() from e
    depth = deepest = 0
    if text.count("[") + text.count("{") > DEPTH_MAX:  # else it cannot be deeper
        for bracket in _BRACKETS.sub("", _STRING.sub("", text)):
            depth += 1 if bracket in "[{" else -1
            deepest = max(deepest, depth)
    if deepest > DEPTH_MAX:
        raise ActionRefused(
            _("The request is nested %(depth)d levels deep: at most %(max)d.")
            % {"depth": deepest, "max": DEPTH_MAX},
            field="body",
        )
    try:
        body = _DECODER.decode(text)
    except (ValueError, RecursionError) as e:
        raise _not_json() from e
    if not isinstance(body, dict):
        raise _not_json()
    return body


def _not_json() -> ActionRefused:
    return ActionRefused(_("The request is not a JSON object."), field="body")


@never_cache
@require_POST
def act(request, slug, number, table, key):
    """One change as JSON: {"action": "record" | "correct" | "undo" | "confirm" | "send" |
    "winds", …}.
    Answers the table's new state; 409 with the table's hand when another device recorded a
    different hand at that number; 400 with the reason when the change is refused (a hand
    the arithmetic refuses: its code and params too, `refusal`)."""
    table = _table(slug, number, table, key)
    try:
        body = _body(request.body)
    except ActionRefused as e:
        return JsonResponse({"error": e.message, "field": e.field}, status=400)
    try:
        # the state's JSON as kept, put in the answer as it is
        return HttpResponse('{"state": ' + _do(table, body) + "}", content_type="application/json")
    except HandConflict as e:
        theirs = {"number": e.hand.number, "version": e.hand.version, "data": e.hand.data}
        return JsonResponse(
            {"error": e.message, "conflict": theirs, "state": table_state(table, clock=False)},
            status=409,
        )
    except ActionRefused as e:
        answer = {"error": e.message, "field": e.field, "state": table_state(table, clock=False)}
        if isinstance(e, HandRefused):
            # the arithmetic's refusal by code and params: the page words it from its
            # start-up data's `messages`, as it words its own preview's
            answer["refusal"] = error_json(e.error)["error"]
        return JsonResponse(answer, status=400)
