"""The layout holds (issue 21): the project's imports are walked, so that it stays true.

- No import circle between the project's own modules.
- No project import inside a function or a class (an AppConfig's `ready()` aside: that is where
  the receivers are connected).
- The pure cores import nothing from Django and nothing of the project but other pure cores.
- Each room imports only the rooms before it in the dependency order (README, "How the code is
  laid out"), and the pure cores of any room; desk, public, sheet, archive and printing not each
  other.
- A name is imported from the module that defines it, not through another module that happens
  to import it (a package's `__init__` may publish its modules' names).

It reads the sources as text (ast): no Django, no database.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The dependency order: a room may import its own modules and those of lower levels.
LEVELS = {
    "core": 0,
    "people": 1,
    "tournament": 2,
    "seating": 3,
    "scoring": 4,
    "club": 5,
    "referee": 5,
    "desk": 6,
    "public": 6,
    "sheet": 6,
    "archive": 6,
    "printing": 6,
    "config": 7,
}
# Rule math and algorithms: plain Python, tested directly, importable from any room.
PURE = (
    "core.collation",
    "core.names",
    "core.search",
    "scoring.rules",
    "mahjong.penalties",
    "mahjong.rating",
    "mahjong.standings",
    "mahjong.clock",
    "mahjong.mers",
)
PURE_PACKAGES = ("seating.algorithms", "mahjong.hands")


def is_pure(module: str) -> bool:
    return module in PURE or any(module.startswith(p + ".") or module == p for p in PURE_PACKAGES)


def room_of(module: str) -> str:
    return module.split(".")[0]


def project_sources(root: Path = ROOT) -> dict[str, str]:
    """Module name -> source of every project module (migrations aside)."""
    sources = {}
    for room in LEVELS:
        for path in sorted((root / room).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            sources[".".join(parts)] = path.read_text(encoding="utf-8")
    return sources


def _package_of(module: str, sources: dict) -> list[str]:
    parts = module.split(".")
    is_package = any(name.startswith(module + ".") for name in sources)
    return parts if is_package else parts[:-1]


def imports_of(module: str, source: str, sources: dict):
    """(imported module, line, where) for each project import; `where` is "top", "ready" or
    the name of the function or class it hides in. `from pkg import mod` names the module."""
    tree = ast.parse(source)
    found = []

    def visit(node, where):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = where
                if where == "top" or where.startswith("class "):
                    ready = isinstance(child, ast.FunctionDef) and child.name == "ready"
                    inner = (
                        "ready"
                        if ready and where.startswith("class ") and module.endswith(".apps")
                        else (
                            f"class {child.name}" if isinstance(child, ast.ClassDef) else child.name
                        )
                    )
                visit(child, inner)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if room_of(alias.name) in LEVELS:
                        found.append((alias.name, child.lineno, where))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    package = _package_of(module, sources)
                    base = package[: len(package) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if room_of(target) not in LEVELS:
                    continue
                for alias in child.names:
                    sub = f"{target}.{alias.name}"
                    found.append((sub if sub in sources else target, child.lineno, where))
            else:
                visit(child, where)

    visit(tree, "top")
    return found


def defined_names(source: str) -> set[str]:
    """The names a module defines at its top level (not the ones it imports)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:  # A = …, and A, B = … (FONT, BOLD in printouts)
                parts = target.elts if isinstance(target, ast.Tuple) else [target]
                names |= {t.id for t in parts if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def borrowed(module: str, source: str, sources: dict) -> list[str]:
    """`from X import name` where X is a project module that does not define `name` itself."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ImportFrom) or node.level or node.module not in sources:
            continue
        if any(name.startswith(node.module + ".") for name in sources):
            continue  # a package publishing its modules' names
        defined = defined_names(sources[node.module])
        for alias in node.names:
            if alias.name == "*":  # settings_test takes every setting of settings
                continue
            if alias.name not in defined and f"{node.module}.{alias.name}" not in sources:
                found.append(
                    f"{module}:{node.lineno} imports {alias.name} from {node.module}, "
                    "which does not define it"
                )
    return found


def django_imports(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            lines += [node.lineno for a in node.names if a.name.split(".")[0] == "django"]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if (node.module or "").split(".")[0] in ("django", "django_tables2"):
                lines.append(node.lineno)
    return lines


def cycles(graph: dict[str, set]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing
    itself): every import circle (Tarjan)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def problems(sources: dict[str, str]) -> list[str]:
    found, graph = [], {}
    for module, source in sources.items():
        graph[module] = set()
        for target, line, where in imports_of(module, source, sources):
            place = f"{module}:{line} imports {target}"
            if where not in ("top", "ready"):
                found.append(f"{place} inside {where}")
                continue
            if where == "top":
                graph[module].add(target)
            if is_pure(module) and not is_pure(target):
                found.append(f"{place}: a pure core imports only pure cores")
            room, other = room_of(module), room_of(target)
            if other == room or is_pure(target):
                continue
            if LEVELS[other] >= LEVELS[room]:
                found.append(f"{place}: {room} may not import {other}")
        if is_pure(module):
            found += [f"{module}:{line} imports Django" for line in django_imports(source)]
        found += borrowed(module, source, sources)
    found += ["import circle: " + " -> ".join(c) for c in cycles(graph)]
    return found


def test_the_project_keeps_its_layout():
    sources = project_sources()
    assert {"core.errors", "tournament.changes", "scoring.selectors", "referee.views"} <= set(
        sources
    )
    assert problems(sources) == []


# The checker itself, on small made-up projects: each rule can fail.


@pytest.mark.parametrize(
    "sources, problem",
    [
        (
            {"core.a": "from tournament.models import X\n", "tournament.models": ""},
            "core.a:1 imports tournament.models: core may not import tournament",
        ),
        (
            {"desk.views": "import public.views\n", "public.views": ""},
            "desk.views:1 imports public.views: desk may not import public",
        ),
        (
            {"tournament.services": "def f():\n    from scoring.models import R\n"},
            "tournament.services:2 imports scoring.models inside f",
        ),
        (
            {"scoring.rules": "from django.db import models\n"},
            "scoring.rules:1 imports Django",
        ),
        (
            {"mahjong.standings": "from scoring.models import R\n", "scoring.models": ""},
            "mahjong.standings:1 imports scoring.models: a pure core imports only pure cores",
        ),
        (
            {"scoring.a": "from scoring import b\n", "scoring.b": "from scoring.a import f\n"},
            "import circle: scoring.a -> scoring.b",
        ),
        (
            {
                "desk.a": "from desk.b import Mixin\n",
                "desk.b": "from tournament.mixins import Mixin\n",
                "tournament.mixins": "class Mixin:\n    pass\n",
            },
            "desk.a:1 imports Mixin from desk.b, which does not define it",
        ),
    ],
)
def test_the_walk_finds_each_kind_of_problem(sources, problem):
    assert problem in problems(sources)


def test_what_the_layout_allows():
    sources = {
        "public.apps": "class C:\n    def ready(self):\n        from public import cache\n",
        "public.cache": "from tournament.changes import touch\n",
        "tournament.changes": "def touch():\n    pass\n",
        "tournament.models": "from scoring.rules import RuleSet\n",
        "scoring.rules": "class RuleSet:\n    pass\n",
        "seating.services": "from seating.algorithms.swiss import swiss_round\n",
        "seating.algorithms.swiss": "from seating.algorithms.draw import sizes\nswiss_round = 1\n",
        "seating.algorithms.draw": "sizes = 4\n",
    }
    assert problems(sources) == []
