"""axe-core, the accessibility checker the browser tests inject into each page (issue 23).

A test-only asset: never under static/, never served. The pinned release is fetched once from
the npm registry (no node or npm needed) into the git-ignored .test-assets/ folder and checked
against the registry's sha512 integrity every time it is read, so a changed or truncated file
fails the test instead of checking pages with something else. `scripts/test` fetches it with
`python -m tests.support.axe`; a test that finds it missing fetches it the same way.
"""

import base64
import hashlib
import io
import os
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
# The "integrity" of the release in the registry (dist.integrity), as npm checks it.
INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76"
    "ASyFNNtuFooJpZe37OgudVGtQ=="
)
TARBALL = Path(__file__).resolve().parents[2] / ".test-assets" / f"axe-core-{VERSION}.tgz"
# WCAG 2.1 levels A and AA, and the 2.0 rules they include.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch() -> Path:
    """The release's tarball, downloaded when it is missing or not the pinned one."""
    if TARBALL.exists() and _integrity(TARBALL.read_bytes()) == INTEGRITY:
        return TARBALL
    with urllib.request.urlopen(URL, timeout=60) as response:
        data = response.read()
    if _integrity(data) != INTEGRITY:
        raise RuntimeError(f"{URL} does not match its pinned integrity {INTEGRITY}")
    TARBALL.parent.mkdir(parents=True, exist_ok=True)
    # Each process its own partial file: test workers fetching at once replace, never mix.
    partial = TARBALL.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(TARBALL)
    return TARBALL


def script() -> str:
    """axe.min.js of the pinned release, read from its checked tarball."""
    data = fetch().read_bytes()
    if _integrity(data) != INTEGRITY:
        raise RuntimeError(f"{TARBALL} does not match its pinned integrity")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return tar.extractfile("package/axe.min.js").read().decode()


# Runs in the page: the WCAG 2.1 A/AA rules, each violation with its elements.
RUN = """async tags => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(n => n.target.join(" ") + (n.failureSummary
      ? " — " + n.failureSummary.replace(/\\s+/g, " ").slice(0, 200) : "")),
  }));
}"""


def violations(page) -> list[str]:
    """Check the page as it is now; one line per violation and per element, empty when none."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=script())
    lines = []
    for v in page.evaluate(RUN, TAGS):
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        lines += [f"    {target}" for target in v["targets"][:6]]
        if len(v["targets"]) > 6:
            lines.append(f"    … and {len(v['targets']) - 6} more")
    return lines


if __name__ == "__main__":
    print(f"axe-core {VERSION}: {fetch()}", file=sys.stderr)
