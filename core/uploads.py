"""What an upload may cost the server (issue 34): one declared limit, `settings.UPLOAD_LIMIT`.

A request's body is refused before it is read when it says it is larger (`UploadLimit`, a
middleware: Django's DATA_UPLOAD_MAX_MEMORY_SIZE leaves files out, and
FILE_UPLOAD_MAX_MEMORY_SIZE only decides memory or disk). Django reads no more of a body than
its Content-Length; a chunked body is counted by waitress as it arrives and stopped past
`wire_limit()` (core.management.commands.serve), then handed on with its length, which this
middleware checks like any other.

A spreadsheet is a zip of XML parts that may unpack to a thousand times its size (a 83 KB
workbook whose shared strings unpacked to tens of megabytes raised the server's peak memory by
165 MB): `check_workbook` reads the zip's own directory, before openpyxl opens anything, and
refuses a workbook with too many parts, a part or all of them unpacking past the limit, or a
part packed like a compression bomb. zipfile never unpacks more of a part than its declared
size, so the declared sizes are what openpyxl can be given.
"""

import io
import struct
import zipfile

from django.conf import settings
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

# A workbook's parts: a list has about ten (the sheet, its strings, styles, the relations);
# a hundred sheets would still be far below this.
MAX_PARTS = 500
# How much smaller than its contents a part may be packed: XML of a real list packs 5 to 20
# times; a bomb of repeated bytes a thousand times.
MAX_RATIO = 100
RATIO_FLOOR = 1024 * 1024  # parts smaller than this unpacked are never a danger, whatever ratio
# Waitress stops reading a body past this many times the limit (a chunked body too): between
# the limit and this, the desk's own page says what was refused.
WIRE_FACTOR = 4


def upload_limit() -> int:
    return settings.UPLOAD_LIMIT


def wire_limit() -> int:
    """The bytes of a body the server reads at all (waitress's max_request_body_size)."""
    return WIRE_FACTOR * upload_limit()


def shown(size: int) -> str:
    return str(filesizeformat(size))


class UploadLimit:
    """Refuse a request whose body says it is larger than the limit, with the desk's page (413),
    before anything reads the body. Put after the authentication (the page shows who is
    signed in) and before any middleware that reads the body in __call__; CSRF reads it later,
    in its process_view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty
        if length > upload_limit():
            message = _(
                "The upload is %(size)s: the desk takes at most %(limit)s in one request. "
                "Nothing was read or saved."
            ) % {"size": shown(length), "limit": shown(upload_limit())}
            return render(request, "413.html", {"message": message}, status=413)
        return self.get_response(request)


class WorkbookRefused(ValueError):
    """A workbook refused before it was opened; the message names the file."""


def _declared_parts(content: bytes) -> int | None:
    """The number of parts the zip's end record declares (None: no end record), read before
    zipfile builds one object per part of a directory that may list hundreds of thousands."""
    tail = content[-(22 + 65535) :]
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        return None
    return struct.unpack("<H", tail[at + 10 : at + 12])[0]


def check_workbook(name: str, content: bytes) -> None:
    """Refuse a workbook (XLSX) whose parts would cost more than the limit to unpack, naming the
    file; a file that is no zip at all is left to the reader, which says it is unreadable."""
    limit = upload_limit()

    def refuse(problem):
        raise WorkbookRefused(
            _("%(file)s: %(problem)s Nothing was read; save the list again or as CSV.")
            % {"file": name, "problem": problem}
        )

    declared = _declared_parts(content)
    if declared is not None and declared > MAX_PARTS:
        refuse(
            _("the workbook has %(n)d parts (at most %(max)d).") % {"n": declared, "max": MAX_PARTS}
        )
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        return
    if len(parts) > MAX_PARTS:
        refuse(
            _("the workbook has %(n)d parts (at most %(max)d).")
            % {"n": len(parts), "max": MAX_PARTS}
        )
    total = 0
    for part in parts:
        if part.file_size > limit:
            refuse(
                _("its part %(part)s unpacks to %(size)s, more than the %(limit)s the desk reads.")
                % {"part": part.filename, "size": shown(part.file_size), "limit": shown(limit)}
            )
        if part.file_size > RATIO_FLOOR and part.file_size > MAX_RATIO * max(part.compress_size, 1):
            refuse(
                _(
                    "its part %(part)s packs %(size)s into %(packed)s, as a compression bomb "
                    "does (a list packs at most %(ratio)d times)."
                )
                % {
                    "part": part.filename,
                    "size": shown(part.file_size),
                    "packed": shown(part.compress_size),
                    "ratio": MAX_RATIO,
                }
            )
        total += part.file_size
    if total > limit:
        refuse(
            _("the workbook unpacks to %(size)s, more than the %(limit)s the desk reads.")
            % {"size": shown(total), "limit": shown(limit)}
        )
