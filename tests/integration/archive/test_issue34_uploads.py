"""Issue 34, finding 7: "Uploads can eat the server's memory and have no size limit. An XLSX
whose shared strings are a compression bomb: 83 KB raised the server's peak memory by 165 MB,
238 KB by 485 MB. 12 MB and 100 MB CSV lists and a 30 MB tournament file were accepted, though
the README says 10 MB."

Through the real URLs (the player list's upload, the tournament file's import) and, for a
chunked body, the real server (waitress) in front of the desk."""

import html
import http.client
import io
import random
import threading
import tracemalloc
import zipfile

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from openpyxl import Workbook
from waitress.server import create_server

from core.management.commands import serve as serve_command
from core.uploads import MAX_PARTS, MAX_RATIO, check_workbook, upload_limit, wire_limit
from tests.support import factories as f
from tests.support.rows import snapshot
from tournament.player_import import parse_player_list

pytestmark = pytest.mark.django_db
MB = 1024 * 1024


@pytest.fixture
def desk():
    director = f.staff()["director"]
    t = f.tournament(players=0, slug="upload-open")
    return {"client": f.login(director), "tournament": t}


def page(response) -> str:
    """The page's text, sizes with a plain space (filesizeformat puts a no-break one)."""
    return html.unescape(response.content.decode()).replace("\xa0", " ")


def upload(client, t, name, content):
    return client.post(
        f"/desk/{t.slug}/players/import/", {"file": SimpleUploadedFile(name, content)}
    )


def csv_list(size: int) -> bytes:
    """A valid player list of about `size` bytes."""
    lines = [b"Name,Club"]
    n, length = 0, len(lines[0])
    while length < size:  # a running length: summing the lines each time took minutes
        lines.append(b"Player %06d,%s" % (n, b"c" * 300))
        length += len(lines[-1])
        n += 1
    return b"\n".join(lines) + b"\n"


def xlsx(rows) -> bytes:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def with_part(content: bytes, name: str, data: bytes, level=9) -> bytes:
    """The workbook with one part added (or replaced), deflated."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(content)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as target,
    ):
        for item in source.infolist():
            if item.filename != name:
                target.writestr(item.filename, source.read(item.filename))
        target.writestr(name, data)
    return out.getvalue()


def strings_bomb(unpacked: int) -> bytes:
    """A list whose shared strings part is `unpacked` bytes of one entry repeated."""
    entry = b"<si><t>Anna Nowak</t></si>"
    count = unpacked // len(entry)
    strings = (
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + entry * count
        + b"</sst>"
    )
    return with_part(xlsx([["name"], ["Anna Nowak"]]), "xl/sharedStrings.xml", strings)


def test_the_limit_is_declared_once_and_django_follows_it():
    assert upload_limit() == settings.UPLOAD_LIMIT == 10 * MB  # the README's 10 MB
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 10 * MB
    assert "core.uploads.UploadLimit" in settings.MIDDLEWARE


def test_a_12_mb_player_list_is_refused_before_it_is_read(desk):
    client, t = desk["client"], desk["tournament"]
    before = snapshot()
    content = csv_list(12 * MB)
    response = upload(client, t, "players.csv", content)
    assert response.status_code == 413
    assert (
        "The upload is 12.0 MB: the desk takes at most 10.0 MB in one request. "
        "Nothing was read or saved."
    ) in page(response)
    assert "Upload too large" in page(response)
    assert snapshot() == before
    # A list under the limit is read as before (its rows are the row limit's business).
    response = upload(client, t, "players.csv", csv_list(9 * MB))
    assert response.status_code == 200
    assert "The list has more than 5000 rows." in page(response)


def test_a_body_that_says_it_is_100_mb_is_refused_without_reading_a_byte(desk):
    """The test client's body is 10 bytes; reading past them would fail the test (FakePayload),
    so the refusal came from the declared length alone."""
    client, t = desk["client"], desk["tournament"]
    response = client.generic(
        "POST",
        f"/desk/{t.slug}/players/import/",
        b"0123456789",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(100 * MB),
    )
    assert response.status_code == 413
    assert "The upload is 100.0 MB" in page(response)


def test_an_11_mb_tournament_file_is_refused(desk):
    client = desk["client"]
    before = snapshot()
    content = b'{"format": "mahjong-tournament", "players": [' + b'"x",' * (11 * MB // 4) + b"0]}"
    response = client.post("/desk/import/", {"file": SimpleUploadedFile("t.json", content)})
    assert response.status_code == 413
    assert "The upload is 11.0 MB" in page(response)
    assert snapshot() == before


def test_a_shared_strings_bomb_is_refused_naming_the_file_before_openpyxl_opens_it(desk):
    client, t = desk["client"], desk["tournament"]
    content = strings_bomb(40 * MB)
    assert len(content) < 128 * 1024  # about a hundred kilobytes, as in the finding
    before = snapshot()
    tracemalloc.start()
    try:
        response = upload(client, t, "bomb.xlsx", content)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 200
    assert (
        "bomb.xlsx: its part xl/sharedStrings.xml unpacks to 40.0 MB, more than the 10.0 MB "
        "the desk reads. Nothing was read; save the list again or as CSV."
    ) in page(response)
    assert "Preview:" not in page(response)
    assert snapshot() == before
    # Opening it took 165 MB of the server for 83 KB; refused, it costs a few.
    assert peak < 15 * MB, peak


def test_a_bomb_under_the_limit_is_refused_by_how_tightly_it_packs(desk):
    client, t = desk["client"], desk["tournament"]
    content = strings_bomb(8 * MB)
    response = upload(client, t, "small-bomb.xlsx", content)
    text = page(response)
    assert "small-bomb.xlsx: its part xl/sharedStrings.xml packs 8.0 MB into" in text
    assert f"as a compression bomb does (a list packs at most {MAX_RATIO} times)" in text
    assert "Preview:" not in text


def test_parts_adding_up_past_the_limit_or_too_many_are_refused():
    base = xlsx([["name"], ["Anna Nowak"]])
    # Two parts of 6 MB each, of random-looking text (so they pack loosely).
    noise = random.Random(34).randbytes(6 * MB)
    two = with_part(with_part(base, "xl/media/a.bin", noise, level=1), "xl/media/b.bin", noise)
    with pytest.raises(ValueError, match=r"^two\.xlsx: the workbook unpacks to 12\.\d\xa0MB"):
        check_workbook("two.xlsx", two)
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        for n in range(MAX_PARTS + 1):
            z.writestr(f"xl/part{n}.xml", b"")
    parsed = parse_player_list("many.xlsx", many.getvalue())
    assert parsed.errors == [
        f"many.xlsx: the workbook has {MAX_PARTS + 1} parts (at most {MAX_PARTS}). "
        "Nothing was read; save the list again or as CSV."
    ]


def test_a_real_list_still_reads(desk):
    client, t = desk["client"], desk["tournament"]
    rows = [["Name", "EMA id", "Country"]] + [
        [f"Player {n:04d}", f"{n:08d}", "Poland"] for n in range(1, 5001)
    ]
    content = xlsx(rows)
    check_workbook("list.xlsx", content)  # a full list passes the zip's checks
    response = upload(client, t, "list.xlsx", content)
    assert "Preview: 5000 players" in page(response)


def test_serve_hands_waitress_a_body_limit(monkeypatch, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    handed = {}
    monkeypatch.setattr(serve_command, "serve", lambda app, **options: handed.update(options))
    try:
        call_command("serve", port=8124)
    finally:
        import gc

        gc.unfreeze()
    assert handed["max_request_body_size"] == wire_limit() == 4 * settings.UPLOAD_LIMIT


def chunked_post(port: int, size: int) -> tuple[int, str]:
    """POST `size` bytes with Transfer-Encoding: chunked (no Content-Length) to the desk."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    block = b"x" * (256 * 1024)

    def body():
        sent = 0
        while sent < size:
            yield block
            sent += len(block)

    try:
        conn.request(
            "POST",
            "/desk/upload-open/players/import/",
            body=body(),
            headers={"Content-Type": "application/octet-stream"},
            encode_chunked=True,
        )
        response = conn.getresponse()
        return response.status, response.read().decode(errors="replace")
    except (BrokenPipeError, ConnectionResetError):
        return 0, ""  # the server stopped reading: refused at the socket
    finally:
        conn.close()


def test_a_chunked_body_is_counted_as_it_arrives():
    """Waitress dechunks a body into a file before the desk sees it, counting it as it comes:
    past wire_limit() it stops (413); under it, it hands the desk the body with its length,
    which the desk's middleware refuses past the upload limit with its own page."""
    server = create_server(
        get_wsgi_application(),
        host="127.0.0.1",
        port=0,
        max_request_body_size=wire_limit(),
    )
    port = server.effective_port

    def run():
        try:
            server.run()
        except OSError:
            pass  # the test closed the server under its loop

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        status, text = chunked_post(port, 12 * MB)
        assert status == 413
        assert "The upload is 12.0\xa0MB" in html.unescape(text)
        status, text = chunked_post(port, wire_limit() + MB)
        assert status in (0, 413)
        assert "Upload too large" not in text  # waitress's own refusal, before the desk
    finally:
        server.close()
        thread.join(timeout=10)
