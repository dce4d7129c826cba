"""The shape of ddsbind.formats: no import circle, no reaching into another module's _names, one error tree."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import ddsbind.formats

PACKAGE = Path(ddsbind.formats.__file__).parent
BUILTIN_ERRORS = ("ValueError", "RuntimeError", "KeyError", "IndexError", "Exception")
MODULES = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.glob("*.py"))}


def _imports(tree: ast.Module) -> dict[str, set[str]]:
    """Module name -> the formats modules it imports (at the top or inside functions), and the names taken."""
    deps: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "ddsbind.formats":
            for a in node.names:
                if a.name in MODULES:
                    deps.setdefault(a.name, set())
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ddsbind.formats."):
            deps.setdefault(node.module.split(".")[2], set()).update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("ddsbind.formats."):
                    deps.setdefault(a.name.split(".")[2], set())
    return deps


def test_no_import_circle_inside_formats():
    """Without this, two format modules could import each other again (pbngame <-> registry was one)."""
    graph = {name: set(_imports(tree)) - {name} for name, tree in MODULES.items() if name != "__init__"}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            pytest.fail("import circle: " + " -> ".join((*path[path.index(name) :], name)))
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_no_module_reaches_into_another_modules_private_names():
    """Without this, pbngame used pbn._games and zrj._MAX_CALLS_END: a rename in one module broke another."""
    found = []
    for name, tree in MODULES.items():
        aliases = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                   if n.module == "ddsbind.formats" for a in n.names}  # fmt: skip
        for mod, names in _imports(tree).items():
            found += [f"{name}: from {mod} import {n}" for n in names if n.startswith("_") and mod != name]
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{name}: {node.value.id}.{node.attr}")
    assert not found


def test_formats_raise_no_bare_builtin_errors():
    """Without this, a fault found in a file or a record escaped as a bare ValueError, not a ddsbind.Error."""
    found = []
    for name, tree in MODULES.items():
        for node in ast.walk(tree):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in BUILTIN_ERRORS:
                found.append(f"{name}:{node.lineno}: {call.func.id}")
    assert not found


@pytest.mark.parametrize(
    ("literal", "home"),
    [
        ("CDHSN", "order"),  # ZRJ's (bidding order's) strain letters
        ("NESW", None),  # seat letters: ddsbind.deal.SEAT_LETTERS only
        ("Both", None),  # vulnerability: ddsbind.game.Vulnerability only
    ],
)
def test_vocabularies_are_spelled_once(literal, home):
    """Without this, seat letters, ZRJ's strain order or a vulnerability name would drift apart between modules."""
    found = []
    for name, tree in MODULES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == literal and name != home:
                found.append(f"{name}:{node.lineno}")
    assert not found


def test_unknown_result_value_is_defined_once():
    """Without this, `_UNKNOWN = 15` lived in four modules."""
    defs = [
        name
        for name, tree in MODULES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id.lstrip("_") == "UNKNOWN"
    ]
    assert defs == ["_dtypes"]


def test_cribbage_alias_is_gone():
    """Without this, ddsbind.formats.cribbage would still alias ddsbind.cribbage.code64 (an unreleased shim)."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ddsbind.formats.cribbage")
