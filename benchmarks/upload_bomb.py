"""What a player list costs the server to read (issue 34, finding 7): "An XLSX whose shared
strings are a compression bomb: 83 KB raised the server's peak memory by 165 MB, 238 KB by
485 MB."

Builds workbooks whose shared strings are one short string repeated (a bomb of the given
unpacked size), and a real list of 5,000 players for comparison, then reads each in a fresh
process two ways: as the desk read a list before issue 34 (openpyxl straight away) and as it
reads one now (tournament.player_import.parse_player_list, which checks the zip's parts first,
core.uploads.check_workbook). Prints each file's size, its parts' unpacked size, the peak of
Python's traced memory (tracemalloc) and the growth of the process's peak resident size
(getrusage), and what the desk answered.

Run: .venv/bin/python benchmarks/upload_bomb.py [--sizes 40]   (unpacked MB of each bomb; the
old way of reading takes minutes for a bomb of 100 MB)
"""

import argparse
import io
import json
import resource
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHEET = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>1</v></c></row>'
    "</sheetData></worksheet>"
)

STRINGS_TYPE = (
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)
STRINGS_REL = (
    b'<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/officeDocument/'
    b'2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
)


def bomb(unpacked_mb: int) -> bytes:
    """A workbook (made by openpyxl, so it is well formed) whose shared strings part holds
    `unpacked_mb` MB of one entry repeated: it packs about four hundred times."""
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.append(["name"])
    wb.active.append(["Anna Nowak"])
    plain = io.BytesIO()
    wb.save(plain)
    entry = b"<si><t>Anna Nowak</t></si>"
    count = unpacked_mb * 1024 * 1024 // len(entry)
    head = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    strings = head + b"<si><t>name</t></si>" + entry * count + b"</sst>"
    out = io.BytesIO()
    with (
        zipfile.ZipFile(plain) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target,
    ):
        # openpyxl writes its strings inline: the shared strings part is added and declared.
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = SHEET.encode()
            elif item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", STRINGS_TYPE + b"</Types>")
            elif item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", STRINGS_REL + b"</Relationships>")
            target.writestr(item.filename, data)
        target.writestr("xl/sharedStrings.xml", strings)
    return out.getvalue()


def real_list(players: int = 5000) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.append(["Name", "EMA id", "Country", "Club"])
    for n in range(players):
        wb.active.append([f"Player {n:05d} Kowalski", f"{n:08d}", "Poland", f"Club {n % 90}"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def read_once(path: str, how: str) -> dict:
    """In this (fresh) process: read the file as `how` says and measure it."""
    sys.path.insert(0, str(ROOT))
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from openpyxl import load_workbook

    from tournament.player_import import MAX_COLUMNS, parse_player_list

    content = Path(path).read_bytes()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    if how == "before":  # tournament.player_import._read_table before issue 34
        try:
            sheet = load_workbook(io.BytesIO(content), read_only=True, data_only=True).active
            sheet.reset_dimensions()
            rows = sum(1 for _r in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS))
            answer = f"read, {rows} rows"
        except Exception as e:  # noqa: BLE001 - reported, as the desk did
            answer = f"unreadable: {e}"
    else:
        parsed = parse_player_list(Path(path).name, content)
        answer = parsed.errors[0] if parsed.errors else f"preview of {len(parsed.rows)} players"
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
    return {"traced_mb": peak / 2**20, "rss_mb": grown / 1024, "answer": answer}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[40])
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(read_once(*args.child)))
        return
    work = Path(__import__("tempfile").mkdtemp(prefix="upload-bomb-"))
    files = {"real-5000.xlsx": real_list()}
    for size in args.sizes:
        files[f"bomb-{size}mb.xlsx"] = bomb(size)
    print(
        f"{'file':<18} {'size':>9} {'unpacked':>9}  {'how':<7} {'traced':>9} {'peak RSS+':>10}"
        "  answer"
    )
    for name, content in files.items():
        path = work / name
        path.write_bytes(content)
        with zipfile.ZipFile(io.BytesIO(content)) as z:
            unpacked = sum(i.file_size for i in z.infolist())
        for how in ("before", "now"):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(path), how],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"{name:<18} {len(content) / 1024:>6.0f} KB {unpacked / 2**20:>6.1f} MB  {how:<7}"
                f" {got['traced_mb']:>6.1f} MB {got['rss_mb']:>7.1f} MB  {got['answer'][:90]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
