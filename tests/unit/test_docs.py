"""The README is a front door and docs/ holds the rest (issue 35): plain Python, no Django.

- README.md stays short;
- every relative link in README.md and docs/**/*.md reaches a file or folder of the repository,
  and its #anchor a heading there (GitHub's way of naming headings);
- nothing in the repository cites a document outside it (the rule book and the formats live in
  docs/rules.md and docs/formats.md);
- every "docs/rules.md §X.Y" the code, the tests or the docs cite is a section of docs/rules.md.
"""

import os
import re
from pathlib import Path

# The repository's root, wherever under tests/ this file sits.
REPO = next(p for p in Path(__file__).resolve().parents if (p / "manage.py").is_file())
README_MAX_LINES = 130
SKIPPED_DIRS = {
    ".venv",
    ".git",
    "staticfiles",
    "data",
    "node_modules",
    ".test-assets",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
}
# Spelled in pieces so that this file does not name them itself.
OUTSIDE = (".." + "/shared", "RULES" + ".md", "formats" + "/README")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SECTION = re.compile(r"^#{2,4}\s+§(\d+(?:\.\d+)*)")
CITATION = re.compile(r"docs/rules\.md\)?\s*§(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?(\d+(?:\.\d+)*))?")


def repository_files():
    for folder, dirs, names in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)  # never walked into
        for name in sorted(names):
            path = Path(folder) / name
            if path.is_file():
                yield path


def text_of(path):
    """The file's text, or None for a binary file (a compiled catalogue, a font, a PDF)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def markdown_files():
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def prose_lines(text, *, keep_code=False):
    """The lines of a Markdown text outside fenced code blocks, inline code blanked out
    (kept with `keep_code`: a heading's anchor is made from its code too)."""
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line if keep_code else INLINE_CODE.sub("", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, no punctuation, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's words only
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    out = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8"), keep_code=True):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def rules_sections():
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    return {m.group(1) for line in text.split("\n") if (m := SECTION.match(line))}


def test_readme_is_a_front_door():
    lines = (REPO / "README.md").read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; it is the front door (at most {README_MAX_LINES}): "
        "move the details into docs/ and link to them"
    )


def test_every_relative_link_reaches_a_file_and_its_heading():
    broken = []
    for source in markdown_files():
        text = source.read_text(encoding="utf-8")
        # the page's raw text, with code (where link-like text is an example) left out
        for number, line in prose_lines(text):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                path_part, _, anchor = target.partition("#")
                where = (source.parent / path_part).resolve() if path_part else source
                place = f"{source.relative_to(REPO)}:{number}: {target}"
                if not where.exists():
                    broken.append(f"{place} (no such file)")
                    continue
                if REPO not in where.parents and where != REPO:
                    broken.append(f"{place} (outside the repository)")
                    continue
                if anchor and where.suffix == ".md" and anchor not in anchors(where):
                    broken.append(f"{place} (no heading #{anchor} there)")
    assert not broken, "Links that lead nowhere:\n" + "\n".join(broken)


def test_nothing_cites_a_document_outside_the_repository():
    found = []
    this = Path(__file__).resolve()
    for path in repository_files():
        if path.resolve() == this:
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for name in OUTSIDE:
                if name in line:
                    found.append(f"{path.relative_to(REPO)}:{number}: {name}: {line.strip()[:100]}")
    assert not found, (
        "Cite docs/rules.md and docs/formats.md, not documents outside the repository:\n"
        + "\n".join(found)
    )


def test_every_cited_rule_section_exists():
    sections = rules_sections()
    assert {"1", "2", "3", "4", "5", "5.1", "5.2"} <= sections
    missing = []
    for path in repository_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for match in CITATION.finditer(line):
                for section in filter(None, match.groups()):
                    if section not in sections:
                        missing.append(f"{path.relative_to(REPO)}:{number}: §{section}")
    assert not missing, "Sections cited but not in docs/rules.md:\n" + "\n".join(missing)


def test_slugs_follow_github():
    assert slug("Hands (optional): `sessions[].tables[].hands[]`") == (
        "hands-optional-sessionstableshands"
    )
    assert slug("§5.1 Riichi (000 §3.4, §4.1)") == "51-riichi-000-34-41"
    assert slug("A paper protocol's hands typed at the desk") == (
        "a-paper-protocols-hands-typed-at-the-desk"
    )
