"""The layout holds (issue 21, issue 35): the project's imports are walked, so that it stays true.

- No import circle between the project's own modules.
- No project import inside a function or a class (an AppConfig's `ready()` aside: that is where
  the receivers are connected).
- `mahjong`, the ground floor, imports only the standard library and other mahjong modules.
- Each room imports only the rooms before it in the dependency order (docs/development/layout.md,
  "How the code is laid out"); desk, public, sheet, archive and printing not each other. No
  exception: what every room needs lives on the ground floor.
- The same order holds where an import does not show: a model named by a string
  (`ForeignKey("app.Model")`, `apps.get_model(...)`) and a URL named by its namespace
  (`reverse("desk:…")`, `reverse_lazy`, `redirect`, `resolve_url`, and `{% url 'desk:…' %}` in a
  room's templates, templates/<room>/): a room names only models of its own room and the rooms
  before it, and URLs of its own level and the levels before it. The rooms with pages of their
  own (a urls module with an `app_name`) link to each other's pages: a page links to any page,
  and a room without pages (a model, a service) names none above it.
- A few modules of a room stay free of Django (DJANGO_FREE): plain Python beside the models.
- A name is imported from the module that defines it, not through another module that happens
  to import it (a package's `__init__` may publish its modules' names).

It reads the sources as text (ast): no Django, no database.
"""

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The dependency order: a room may import its own modules and those of lower levels.
LEVELS = {
    "mahjong": 0,
    "core": 1,
    "people": 2,
    "tournament": 3,
    "seating": 4,
    "scoring": 5,
    "club": 6,
    "referee": 6,
    "desk": 7,
    "public": 7,
    "sheet": 7,
    "archive": 7,
    "printing": 7,
    "publishing": 8,
    "federation": 8,
    "config": 9,
}
GROUND = "mahjong"
# Plain Python inside a room (no Django; of the project only the ground floor and each other).
# Not an exception to the order: they are imported by their own room and the rooms above it.
DJANGO_FREE = ("core.collation", "core.names", "core.search", "seating.algorithms")
MODEL_FIELDS = ("ForeignKey", "OneToOneField", "ManyToManyField")
URL_CALLS = ("reverse", "reverse_lazy", "redirect", "resolve_url")
TEMPLATE_URL = re.compile(r"""{%\s*url\s+(['"])([\w-]+):""")


def is_django_free(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in DJANGO_FREE)


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


def project_templates(root: Path = ROOT) -> dict[str, str]:
    """Path under templates/ -> text of every template in a room's folder (templates/<room>/…);
    the templates at the top (base.html, registration/) are the site's, above every room."""
    found = {}
    for path in sorted((root / "templates").rglob("*.html")):
        name = path.relative_to(root / "templates").as_posix()
        if room_of(name.replace("/", ".")) in LEVELS:
            found[name] = path.read_text(encoding="utf-8")
    return found


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


def private_names(module: str, source: str, sources: dict) -> list[str]:
    """`from X import _name` where X is another project module: a name with a leading underscore
    is its module's own; what others need is made public (issue 35)."""
    found = []
    for node in ast.parse(source).body:
        if (
            not isinstance(node, ast.ImportFrom)
            or node.level
            or room_of(node.module or "") not in LEVELS
        ):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and alias.name != "_":
                found.append(
                    f"{module}:{node.lineno} imports the private {alias.name} of {node.module}"
                )
    return found


def outside_imports(source: str) -> list[tuple[str, int]]:
    """(top-level package, line) of every absolute import (the project's included)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append(((node.module or "").split(".")[0], node.lineno))
    return found


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _leading_text(node) -> str | None:
    """A string constant, or the constant start of an f-string (f"referee:{name}")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def model_references(source: str) -> list[tuple[str, int]]:
    """(app label, line) of every model named by a string: ForeignKey("app.Model"), to=…,
    apps.get_model("app", "Model") and apps.get_model("app.Model")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name in MODEL_FIELDS:
            targets = node.args[:1] + [k.value for k in node.keywords if k.arg == "to"]
        elif name == "get_model":
            targets = node.args[:1]
        else:
            continue
        for target in targets:
            text = _leading_text(target)
            if text is None:
                continue
            if name == "get_model" and len(node.args) > 1:
                found.append((text, node.lineno))
            elif "." in text:
                found.append((text.split(".")[0], node.lineno))
    return found


def url_namespaces(sources: dict[str, str]) -> dict[str, str]:
    """URL namespace -> the room whose urls module declares it (`app_name = "desk"`)."""
    found = {}
    for module, source in sources.items():
        if module.split(".")[-1].startswith("urls"):
            for node in ast.parse(source).body:
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "app_name" for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                ):
                    found[node.value.value] = room_of(module)
    return found


def url_references(source: str) -> list[tuple[str, int]]:
    """(URL namespace, line) of every URL named in Python: reverse("desk:plan", …) and kin."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called(node) in URL_CALLS and node.args:
            text = _leading_text(node.args[0])
            if text and ":" in text:
                found.append((text.split(":")[0], node.lineno))
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


def problems(sources: dict[str, str], templates: dict[str, str] | None = None) -> list[str]:
    found, graph = [], {}
    namespaces = url_namespaces(sources)
    pages = set(namespaces.values())

    def names_url(place, room, namespace):
        other = namespaces.get(namespace)
        if other is None or other == room or LEVELS[other] <= LEVELS[room]:
            return
        if room not in pages:  # a page links to any page
            found.append(
                f"{place} names the URL namespace {namespace}: {room} may not reach {other}"
            )

    for module, source in sources.items():
        graph[module] = set()
        room = room_of(module)
        for target, line, where in imports_of(module, source, sources):
            place = f"{module}:{line} imports {target}"
            if where not in ("top", "ready"):
                found.append(f"{place} inside {where}")
                continue
            if where == "top":
                graph[module].add(target)
            if is_django_free(module) and not (is_django_free(target) or room_of(target) == GROUND):
                found.append(f"{place}: a Django-free module imports only the ground and its kind")
            other = room_of(target)
            if other != room and LEVELS[other] >= LEVELS[room]:
                found.append(f"{place}: {room} may not import {other}")
        if room == GROUND:
            found += [
                f"{module}:{line} imports {name}: the ground imports only the standard library"
                for name, line in outside_imports(source)
                if name != GROUND and name not in sys.stdlib_module_names
            ]
        if is_django_free(module):
            found += [f"{module}:{line} imports Django" for line in django_imports(source)]
        for label, line in model_references(source):
            if label in LEVELS and label != room and LEVELS[label] >= LEVELS[room]:
                found.append(f"{module}:{line} names a model of {label}: {room} may not reach it")
        for namespace, line in url_references(source):
            names_url(f"{module}:{line}", room, namespace)
        found += borrowed(module, source, sources)
        found += private_names(module, source, sources)
    for name, text in (templates or {}).items():
        for match in TEMPLATE_URL.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            names_url(f"templates/{name}:{line}", room_of(name.replace("/", ".")), match.group(2))
    found += ["import circle: " + " -> ".join(c) for c in cycles(graph)]
    return found


def test_the_project_keeps_its_layout():
    sources = project_sources()
    assert {"core.errors", "tournament.changes", "mahjong.rulesets", "referee.views"} <= set(
        sources
    )
    templates = project_templates()
    assert {"desk/dashboard.html", "referee/appeals.html"} <= set(templates)
    found = problems(sources, templates)
    assert found == []


# The checker itself, on small made-up projects: each rule can fail.

DESK_URLS = {"desk.urls": 'app_name = "desk"\n'}
PAGES = {
    "public.urls": 'app_name = "public"\n',
    "referee.urls": 'app_name = "referee"\n',
    "printing.urls": 'app_name = "printing"\n',
}


@pytest.mark.parametrize(
    "sources, templates, problem",
    [
        (
            {"core.a": "from tournament.models import X\n", "tournament.models": ""},
            {},
            "core.a:1 imports tournament.models: core may not import tournament",
        ),
        (
            {"desk.views": "import public.views\n", "public.views": ""},
            {},
            "desk.views:1 imports public.views: desk may not import public",
        ),
        (
            {"tournament.services": "def f():\n    from scoring.models import R\n"},
            {},
            "tournament.services:2 imports scoring.models inside f",
        ),
        (
            {"scoring.a": "from scoring import b\n", "scoring.b": "from scoring.a import f\n"},
            {},
            "import circle: scoring.a -> scoring.b",
        ),
        (
            {
                "desk.a": "from desk.b import Mixin\n",
                "desk.b": "from tournament.mixins import Mixin\n",
                "tournament.mixins": "class Mixin:\n    pass\n",
            },
            {},
            "desk.a:1 imports Mixin from desk.b, which does not define it",
        ),
        (
            {"desk.a": "from seating.services import _create\n", "seating.services": ""},
            {},
            "desk.a:1 imports the private _create of seating.services",
        ),
        # The ground floor: the standard library and itself, nothing else.
        (
            {"mahjong.rulesets": "from django.db import models\n"},
            {},
            "mahjong.rulesets:1 imports django: the ground imports only the standard library",
        ),
        (
            {"mahjong.table": "import numpy as np\n"},
            {},
            "mahjong.table:1 imports numpy: the ground imports only the standard library",
        ),
        (
            {"mahjong.standings": "from scoring.models import R\n", "scoring.models": ""},
            {},
            "mahjong.standings:1 imports scoring.models: mahjong may not import scoring",
        ),
        # No exception any more: rule arithmetic left in a room is that room's, order and all.
        (
            {"tournament.models": "from scoring.uma import split\n", "scoring.uma": ""},
            {},
            "tournament.models:1 imports scoring.uma: tournament may not import scoring",
        ),
        (
            {"core.a": "from seating.algorithms import swiss\n", "seating.algorithms.swiss": ""},
            {},
            "core.a:1 imports seating.algorithms.swiss: core may not import seating",
        ),
        # The Django-free modules of a room.
        (
            {"seating.algorithms.swiss": "from django.db import models\n"},
            {},
            "seating.algorithms.swiss:1 imports Django",
        ),
        (
            {"core.names": "from core.models import Person\n", "core.models": ""},
            {},
            "core.names:1 imports core.models: a Django-free module imports only the ground and "
            "its kind",
        ),
        # A model named by a string.
        (
            {
                "tournament.models": "from django.db import models\n"
                "class Appeal(models.Model):\n"
                '    table = models.ForeignKey("seating.Table", on_delete=models.CASCADE)\n'
            },
            {},
            "tournament.models:3 names a model of seating: tournament may not reach it",
        ),
        (
            {"core.models": 'result = models.OneToOneField(to="scoring.Result")\n'},
            {},
            "core.models:1 names a model of scoring: core may not reach it",
        ),
        (
            {"people.models": 'tables = models.ManyToManyField("desk.Note")\n'},
            {},
            "people.models:1 names a model of desk: people may not reach it",
        ),
        (
            {"seating.services": 'Result = apps.get_model("scoring", "Result")\n'},
            {},
            "seating.services:1 names a model of scoring: seating may not reach it",
        ),
        (
            {"seating.services": 'Result = apps.get_model("scoring.Result")\n'},
            {},
            "seating.services:1 names a model of scoring: seating may not reach it",
        ),
        # A URL named by its namespace, in Python and in a room's templates.
        (
            {
                "seating.models": 'from django.urls import reverse\nu = reverse("desk:plan")\n',
                **DESK_URLS,
            },
            {},
            "seating.models:2 names the URL namespace desk: seating may not reach desk",
        ),
        (
            {"tournament.people": 'u = reverse_lazy("desk:people")\n', **DESK_URLS},
            {},
            "tournament.people:1 names the URL namespace desk: tournament may not reach desk",
        ),
        (
            {"scoring.services": 'r = shortcuts.redirect(f"public:{name}")\n', **PAGES},
            {},
            "scoring.services:1 names the URL namespace public: scoring may not reach public",
        ),
        (
            {"club.views": 'u = resolve_url("desk:club", slug)\n', **DESK_URLS},
            {},
            "club.views:1 names the URL namespace desk: club may not reach desk",
        ),
        (
            {"club.forms": "", **DESK_URLS},
            {"club/evening.html": '<p>\n<a href="{% url "desk:club" c.slug %}">'},
            "templates/club/evening.html:2 names the URL namespace desk: club may not reach desk",
        ),
    ],
)
def test_the_walk_finds_each_kind_of_problem(sources, templates, problem):
    assert problem in problems(sources, templates)


def test_what_the_layout_allows():
    sources = {
        "public.apps": "class C:\n    def ready(self):\n        from public import cache\n",
        "public.cache": "from tournament.changes import touch\n",
        "tournament.changes": "def touch():\n    pass\n",
        # every room stands on the ground floor, which stands on the standard library
        "tournament.models": "from mahjong.presets import PRESETS\n"
        'session = models.ForeignKey("tournament.Session")\n'
        'person = models.ForeignKey("people.Person")\n'
        'user = models.ForeignKey("auth.User")\n'
        'parent = models.ForeignKey("self")\n',
        "seating.services": "from mahjong.table import is_awarded\n",
        "mahjong.presets": "from __future__ import annotations\nfrom dataclasses import fields\n"
        "from mahjong.rulesets import RuleSet\nfrom . import rulesets\nPRESETS = {}\n",
        "mahjong.table": "def is_awarded():\n    pass\n",
        "mahjong.rulesets": "import math\nclass RuleSet:\n    pass\n",
        "seating.algorithms.swiss": "from seating.algorithms.draw import sizes\n"
        "from mahjong.table import is_awarded\nswiss_round = 1\n",
        "seating.algorithms.draw": "sizes = 4\n",
        "seating.keys": "u = reverse(settings.TABLE_PAGE_URL)\n",
        # pages link to pages, sideways and up; a room names its own URLs and those below
        "referee.views": 'u = reverse("referee:home")\nv = reverse("printing:appeals")\n',
        "desk.views": 'u = redirect("public:home")\nv = reverse("referee:log")\n',
        **DESK_URLS,
        **PAGES,
    }
    templates = {
        "desk/plan.html": "{% url 'desk:plan' p %} {% url 'public:standings' t %}",
        "referee/appeals.html": "{% url 'printing:appeals_pdf' t %}",
    }
    assert problems(sources, templates) == []
