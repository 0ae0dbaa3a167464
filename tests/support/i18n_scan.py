"""Finds user-facing text that is not marked for translation.

Templates: every text node and every user-facing attribute outside {% translate %} and
{% blocktranslate %}. Python: every string literal given to a place that shows it to a person
(messages, refusals, form and table labels, choices, PDF paragraphs, the pure modules' errors)
that is not wrapped in a gettext function.
"""

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
HOLE = "\x00"
WORD = re.compile(r"[^\W\d_]{2,}")
SHOWN_ATTRS = {"title", "placeholder", "alt", "aria-label", "data-on", "data-off", "data-confirm"}

GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
# Calls whose string arguments a person reads.
SHOWN_CALLS = {
    "ActionRefused",
    "ValidationError",
    "TournamentFileError",
    "RuleError",
    "Problem",
    "DrawError",
    "CommandError",
    "Http404",
    "PermissionDenied",
    "HttpResponseBadRequest",
    "HttpResponseForbidden",
    "Paragraph",
    "drawString",
    "drawCentredString",
    "drawRightString",
    "add_error",
    "success",
    "error",
    "warning",
    "info",
    "refuse",
}
SHOWN_KEYWORDS = {
    "verbose_name",
    "verbose_name_plural",
    "label",
    "help_text",
    "empty_text",
    "empty_label",
    "placeholder",
    "title",
    "message",
    "footer",
    "subtitle",
}
# The first argument of these is a field name or a seat, not text.
NOT_TEXT_FIRST = {"RuleError", "Problem", "add_error", "TournamentFileError"}


def _is_text(value: str) -> bool:
    return bool(WORD.search(value))


class ShownText(HTMLParser):
    """The text a page shows, in order, as (attribute, text) pairs: its data outside `skip`
    tags (attribute None), and the values of the `attrs` attributes a reader sees (tooltips,
    placeholders...)."""

    def __init__(self, skip=("script", "style"), attrs=SHOWN_ATTRS):
        super().__init__(convert_charrefs=True)
        self.skip, self.attrs = skip, attrs
        self.text: list[tuple[str | None, str]] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.skip:
            self._skip += 1
        self.text += [(name, value) for name, value in attrs if name in self.attrs and value]

    def handle_endtag(self, tag):
        if tag in self.skip and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append((None, data))


def template_strings(text: str) -> list[str]:
    """The unmarked text of one template."""
    pieces = []
    depth = []  # open blocktranslate / comment / verbatim-like blocks that hide their text
    for token in Lexer(text).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans", "comment") or (
                name == "block" and token.contents.split()[1:] == ["bodyclass"]
            ):
                depth.append(name)
            elif name in ("endblocktranslate", "endblocktrans", "endcomment") and depth:
                depth.pop()
            elif name == "endblock" and depth and depth[-1] == "block":
                depth.pop()
            pieces.append(HOLE)
        elif token.token_type == TokenType.TEXT and not depth:
            pieces.append(token.contents)
        else:
            pieces.append(HOLE)
    page = ShownText()
    page.feed("".join(pieces))
    page.close()
    return [
        text.strip().replace(HOLE, "…") if name is None else f'{name}="{text.replace(HOLE, "…")}"'
        for name, text in page.text
        if _is_text(text.replace(HOLE, " "))
    ]


def templates() -> dict[str, list[str]]:
    out = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found = template_strings(path.read_text(encoding="utf-8"))
        if found:
            out[str(path.relative_to(ROOT))] = found
    return out


def _name(func) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literals(node):
    """String constants directly in `node` (also inside f-strings, % and + and conditionals)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            yield from _literals(part)
    elif isinstance(node, ast.BinOp):
        yield from _literals(node.left)
        if not isinstance(node.op, ast.Mod):
            yield from _literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


class _Python(ast.NodeVisitor):
    def __init__(self):
        self.found: list[tuple[int, str]] = []

    def _check(self, node):
        for literal in _literals(node):
            if _is_text(literal.value):
                self.found.append((literal.lineno, literal.value))

    def visit_Call(self, node):
        name = _name(node.func)
        if name in GETTEXT:
            return  # marked; its arguments are msgids
        if name in SHOWN_CALLS:
            args = node.args[1:] if name in NOT_TEXT_FIRST else node.args
            if name == "ActionRefused":
                args = args[:1]  # ActionRefused(message, field)
            if name in ("success", "error", "warning", "info") and args:
                args = args[1:]  # messages.x(request, text)
            for arg in args:
                self._check(arg)
        for keyword in node.keywords:
            if keyword.arg in SHOWN_KEYWORDS:
                self._check(keyword.value)
            if keyword.arg == "choices" and isinstance(keyword.value, ast.List | ast.Tuple):
                for item in keyword.value.elts:
                    if isinstance(item, ast.Tuple) and len(item.elts) == 2:
                        self._check(item.elts[1])
            if keyword.arg == "attrs" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in SHOWN_ATTRS:
                        self._check(value)
        self.generic_visit(node)

    def visit_ClassDef(self, node):
        # TextChoices members: NAME = "value", "Label"
        if any(_name(base).endswith("Choices") for base in node.bases):
            for item in node.body:
                if isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple):
                    if len(item.value.elts) == 2:
                        self._check(item.value.elts[1])
        self.generic_visit(node)


PYTHON_DIRS = ("config", settings.GROUND, *settings.ROOMS)


def python() -> dict[str, list[tuple[int, str]]]:
    out = {}
    for folder in PYTHON_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            visitor = _Python()
            visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
            if visitor.found:
                out[str(path.relative_to(ROOT))] = visitor.found
    return out
