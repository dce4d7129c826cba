"""The import graph of ``ddsbind/``: no circles, and no module reaching into another's private names.

Every module's imports are read with ``ast`` (module level, inside
functions, inside ``if TYPE_CHECKING:``), nothing is executed.  ``from
ddsbind.x import y`` is an edge to ``ddsbind.x.y`` when that is a module,
else to ``ddsbind.x``; the implicit import of a parent package that Python
performs for every submodule is not an edge (it would make every package a
circle with its modules).

The rules:

* no import circle among ddsbind's modules;
* no module imports the top of a package it belongs to (``from ddsbind
  import dds_info`` inside ``ddsbind/``): a package top gathers (and lazily
  imports) its modules, so its own modules importing it close a circle
  through names the graph cannot see;
* no module takes another module's ``_private`` names, by import (``from
  ddsbind.solver import _trick``) or by attribute (``pbn._games``).  A private
  *module* (``ddsbind._binding``) may be imported: its names without a
  leading underscore are the package's internal API;
* the layers (:data:`LAYERS`, drawn in ``docs/development.md``): a module
  imports modules of its own layer and of layers below it, never above;
* ``ddsbind.formats`` imports nothing that solves (:data:`SOLVING`): what
  solves above it passes its solver in (``read_dataframe(solve=...)``);
* a package's private modules (``ddsbind.formats._common``,
  ``ddsbind.cli._common``) are imported only by that package's own modules:
  what others need is public (``ddsbind.formats.files.atomic_output``).

Every failure names the offending import with its file and line.  The
exceptions still standing are :data:`ALLOWED`, each named, with the change
that removes it; an exception that no longer matches an import fails too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

import ddsbind
from tests.support import REPO

#: The package under test (under ``make test-source``, the installed one).
ROOT = Path(ddsbind.__file__).resolve().parent


@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` (a module of ddsbind) at ``line``; ``names`` are the names it takes."""

    source: str
    target: str
    line: int
    names: tuple[str, ...] = ()


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package: dotted name -> file (``__init__.py`` names its package)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _absolute(module: str, node: ast.ImportFrom, modules: dict[str, Path]) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved against ``module``)."""
    if not node.level:
        return node.module or ""
    package = module if _is_package(module, modules) else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports(module: str, tree: ast.AST, modules: dict[str, Path]) -> Iterator[Edge]:
    """The edges from ``module`` to other ddsbind modules, wherever in the file the import stands."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield Edge(module, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node, modules)
            if base not in modules:
                continue
            plain = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    yield Edge(module, sub, node.lineno)
                else:
                    plain.append(alias.name)
            if plain:
                yield Edge(module, base, node.lineno, tuple(plain))


@dataclass
class Graph:
    """A package's modules (name -> file), their parsed trees and their outgoing edges."""

    modules: dict[str, Path]
    trees: dict[str, ast.AST]
    edges: dict[str, list[Edge]]


def graph(root: Path = ROOT) -> Graph:
    """Parse every module of the package at ``root``."""
    modules = module_files(root)
    trees: dict[str, ast.AST] = {name: ast.parse(path.read_text(), str(path)) for name, path in modules.items()}
    edges = {name: [e for e in imports(name, tree, modules) if e.target != name] for name, tree in trees.items()}
    return Graph(modules, trees, edges)


def cycles(edges: dict[str, list[Edge]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself), each as a
    shortest circle through its first module: ``[a, b, ..., a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; ddsbind is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for e in edges.get(v, []):
            if e.target not in index:
                visit(e.target)
                low[v] = min(low[v], low[e.target])
            elif e.target in on_stack:
                low[v] = min(low[v], index[e.target])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_circle(comp, edges) for comp in sorted(components)]


def _circle(component: list[str], edges: dict[str, list[Edge]]) -> list[str]:
    """A shortest path from the component's first module back to itself, inside the component (BFS)."""
    start, inside = component[0], set(component)
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for e in edges[v]:
                if e.target == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if e.target in inside and e.target not in parents:
                    parents[e.target] = v
                    nxt.append(e.target)
        frontier = nxt
    raise AssertionError(f"{component} is no circle")


def _describe(circle: list[str], edges: dict[str, list[Edge]]) -> str:
    """``a -> b (line 12) -> a (line 40)``."""
    out = [circle[0]]
    for a, b in pairwise(circle):
        line = min(e.line for e in edges[a] if e.target == b)
        out.append(f"{b} (line {line} of {a})")
    return " -> ".join(out)


def package_top_imports(g: Graph) -> list[str]:
    """Modules that import names from the top of a package they belong to."""
    bad = []
    for name, out in g.edges.items():
        for e in out:
            if e.names and _is_package(e.target, g.modules) and name.startswith(e.target + "."):
                bad.append(f"{name} line {e.line}: from {e.target} import {', '.join(e.names)}")
    return bad


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(g: Graph) -> list[str]:
    """``_names`` one module takes from another, by ``from m import _x`` or by ``m._x`` on an imported module."""
    modules = g.modules
    bad = []
    for name, tree in g.trees.items():
        for e in g.edges[name]:
            bad += [f"{name} line {e.line}: from {e.target} import {n}" for n in e.names if _private(n)]
        # Local names bound to ddsbind modules: `import ddsbind.x as y`, `from ddsbind import x`.
        bound: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        bound[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(name, node, modules)
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:
                        bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                target = _dotted(node.value, bound)
                if target is not None and target != name and f"{target}.{node.attr}" not in modules:
                    bad.append(f"{name} line {node.lineno}: {target}.{node.attr}")
    return sorted(set(bad))


def _dotted(node: ast.expr, bound: dict[str, str]) -> str | None:
    """The ddsbind module an expression such as ``solver`` or ``ddsbind.formats.pbn`` names, if any."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, bound)
        return f"{base}.{node.attr}" if base is not None else None
    return None


# -- the layers -------------------------------------------------------------------------------

#: The layers of ``ddsbind``, lowest first: a module imports its own layer and the layers below it.
#: An entry names a module and, for a package, every module inside it; the longest entry that names
#: a module gives its layer (``ddsbind.dealer.language`` before ``ddsbind.dealer``).  The package's
#: own top (``ddsbind``) is named alone: it gathers everything, lazily.  A module no entry names fails
#: :func:`test_the_layers_hold`: a new module is given its layer here.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The one importer of the compiled module; it imports nothing of ddsbind.  ``errors`` reads
    # DDS's return codes through it on first use, so it sits below them (what may not import it
    # though it lies below is said by SOLVING).
    ("native loader", ("ddsbind._binding",)),
    ("errors", ("ddsbind.errors",)),
    (
        "DDS-free rules",
        (
            "ddsbind._holdings",
            "ddsbind._html",
            "ddsbind._report_html",
            "ddsbind._table",
            "ddsbind._typing",
            "ddsbind._validate",
            "ddsbind.deal",
            "ddsbind.game",
            "ddsbind.hand",
            "ddsbind.hands",
            "ddsbind.optimum",
            "ddsbind.prooftypes",
            "ddsbind.record",
            "ddsbind.results",
            "ddsbind.scoring",
        ),
    ),
    ("formats", ("ddsbind.formats", "ddsbind.cribbage")),
    (
        "dealer language",
        (
            "ddsbind.dealer._expressions",
            "ddsbind.dealer.compiler",
            "ddsbind.dealer.dealing",
            "ddsbind.dealer.files",
            "ddsbind.dealer.frame",
            "ddsbind.dealer.kernel",
            "ddsbind.dealer.language",
            "ddsbind.dealer.output",
            "ddsbind.dealer.scoring",
            "ddsbind.dealer.syntax",
        ),
    ),
    ("DLL layer", ("ddsbind.dll", "ddsbind._marshal")),
    (
        "solving",
        (
            "ddsbind._dask",
            "ddsbind._scheduler",
            "ddsbind.frames",
            "ddsbind.match",
            "ddsbind.match_report",
            "ddsbind.play",
            "ddsbind.pool",
            "ddsbind.proof",
            "ddsbind.solver",
        ),
    ),
    ("simulations and databases", ("ddsbind.dealer", "ddsbind.database")),
    ("analysis board", ("ddsbind.board",)),
    ("command line", ("ddsbind.cli", "ddsbind.__main__")),
    ("package top", ("ddsbind",)),
)

#: What ``ddsbind.formats`` never imports: everything that loads or calls DDS.
SOLVING = (
    "ddsbind._binding",
    "ddsbind._marshal",
    "ddsbind._scheduler",
    "ddsbind.dll",
    "ddsbind.frames",
    "ddsbind.play",
    "ddsbind.pool",
    "ddsbind.proof",
    "ddsbind.solver",
)


@dataclass(frozen=True)
class Allowed:
    """An import that breaks a rule today, allowed by name until the change that removes it lands."""

    source: str
    target: str
    why: str


#: The exceptions still standing.  Each is removed with the change its ``why`` names; one that
#: matches no import any more fails :func:`test_the_layers_hold`.
ALLOWED: tuple[Allowed, ...] = ()


def layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> tuple[int, str] | None:
    """``(rank, name)`` of the module's layer (0 lowest), by the longest entry naming it; None if none does."""
    top = layers[-1][1][0].split(".")[0]
    best: tuple[int, int, str] | None = None
    for rank, (name, entries) in enumerate(layers):
        for entry in entries:
            names = module == entry or (entry != top and module.startswith(entry + "."))
            if names and (best is None or len(entry) > best[0]):
                best = (len(entry), rank, name)
    return None if best is None else (best[1], best[2])


def _where(g: Graph, e: Edge) -> str:
    """``ddsbind/dealer/language.py:992`` for an edge."""
    path = g.modules[e.source]
    root = path.parents[len(e.source.split(".")) - (1 if path.name == "__init__.py" else 2)]
    return f"{path.relative_to(root.parent).as_posix()}:{e.line}"


def _allowed(e: Edge, allowed: tuple[Allowed, ...]) -> bool:
    return any(a.source == e.source and a.target == e.target for a in allowed)


def unlayered(g: Graph, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> list[str]:
    """Modules no layer names."""
    return [m for m in sorted(g.modules) if layer_of(m, layers) is None]


def upward_imports(
    g: Graph, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS, allowed: tuple[Allowed, ...] = ALLOWED
) -> list[str]:
    """Imports of a module of a higher layer, as ``file:line: source (layer) imports target (layer)``."""
    bad = []
    for name in sorted(g.edges):
        for e in g.edges[name]:
            here, there = layer_of(e.source, layers), layer_of(e.target, layers)
            if here is None or there is None or there[0] <= here[0] or _allowed(e, allowed):
                continue
            bad.append(f"{_where(g, e)}: {e.source} ({here[1]}) imports {e.target} ({there[1]}), a higher layer")
    return bad


def formats_solving(
    g: Graph,
    package: str = "ddsbind.formats",
    solving: tuple[str, ...] = SOLVING,
    allowed: tuple[Allowed, ...] = ALLOWED,
) -> list[str]:
    """Imports by ``package``'s modules of anything that solves."""
    bad = []
    for name in sorted(g.edges):
        if name != package and not name.startswith(package + "."):
            continue
        for e in g.edges[name]:
            hit = next((s for s in solving if e.target == s or e.target.startswith(s + ".")), None)
            if hit is not None and not _allowed(e, allowed):
                bad.append(f"{_where(g, e)}: {e.source} imports {e.target}, which solves (formats never call DDS)")
    return bad


def _owner_of_private(module: str) -> str | None:
    """The package whose private module ``module`` is (``ddsbind.formats`` for ``ddsbind.formats._common``)."""
    parts = module.split(".")
    for k in range(1, len(parts)):
        if parts[k].startswith("_") and not parts[k].startswith("__"):
            return ".".join(parts[:k])
    return None


def private_module_imports(g: Graph, allowed: tuple[Allowed, ...] = ALLOWED) -> list[str]:
    """Imports of a package's private module from outside that package."""
    bad = []
    for name in sorted(g.edges):
        for e in g.edges[name]:
            owner = _owner_of_private(e.target)
            if owner is None or e.source == owner or e.source.startswith(owner + ".") or _allowed(e, allowed):
                continue
            bad.append(f"{_where(g, e)}: {e.source} imports {e.target}, private to {owner}")
    return bad


def stale_allowances(g: Graph, allowed: tuple[Allowed, ...] = ALLOWED) -> list[str]:
    """Allowed exceptions that match no import any more."""
    edges = {(e.source, e.target) for out in g.edges.values() for e in out}
    return [f"{a.source} -> {a.target} ({a.why})" for a in allowed if (a.source, a.target) not in edges]


@pytest.fixture(scope="module")
def parsed() -> Graph:
    return graph()


#: Each layer rule: what its failure lists.  Every line of a failure names file, line and import.
LAYER_RULES = {
    "modules no layer names (add each to LAYERS in tests/project/test_import_graph.py)": unlayered,
    "imports of a higher layer": upward_imports,
    "imports by ddsbind.formats of what solves": formats_solving,
    "imports of another package's private module": private_module_imports,
    "allowed exceptions that match no import (remove them from ALLOWED)": stale_allowances,
}


@pytest.mark.parametrize("rule", list(LAYER_RULES), ids=[f.__name__ for f in LAYER_RULES.values()])
def test_the_layers_hold(parsed, rule):
    """Without this, the layers melt into one: formats loading DDS, rules needing the solver, private helpers shared."""
    bad = LAYER_RULES[rule](parsed)
    assert not bad, f"{len(bad)} {rule}:\n" + "\n".join(bad)


def documented_layers(page: str) -> list[tuple[str, tuple[str, ...]]]:
    """The layers as the architecture page draws them (its ``text`` block under "Architecture"), lowest first."""
    section = page.split("## Architecture", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    rows: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        name, _, modules = line.strip().partition("  ")
        if line.startswith(" "):
            rows[-1][1].extend(line.split())
        else:
            rows.append((name, modules.split()))
    top = ROOT.name
    return [(name, tuple(m if m == top else f"{top}.{m}" for m in mods)) for name, mods in reversed(rows)]


def test_the_architecture_page_draws_the_layers_the_test_holds():
    """Without this, the docs' picture of the layers would drift from the rule the tests enforce."""
    page = REPO / "docs" / "development.md"
    if not page.is_file():
        pytest.skip("no docs/ beside the tests")
    drawn = documented_layers(page.read_text())
    assert [(name, sorted(mods)) for name, mods in drawn] == [(name, sorted(mods)) for name, mods in LAYERS]


def test_no_import_circle_inside_ddsbind(parsed):
    """Without this, modules grow into each other again: each circle is printed with the lines that close it."""
    found = cycles(parsed.edges)
    assert not found, "import circles inside ddsbind/:\n" + "\n".join(_describe(c, parsed.edges) for c in found)


def test_no_module_imports_its_own_package_top(parsed):
    """``ddsbind/__init__.py`` (and each subpackage's) gathers its modules; they must not import it back."""
    bad = package_top_imports(parsed)
    assert not bad, "modules importing their own package's top:\n" + "\n".join(bad)


def test_no_module_takes_another_modules_private_names(parsed):
    """What modules share is public inside the package; ``_names`` stay in their module."""
    bad = private_reaches(parsed)
    assert not bad, f"{len(bad)} private names taken from other modules:\n" + "\n".join(bad)


# -- the checker itself, on small made-up packages -------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_checker_finds_a_circle_through_a_function_level_import(tmp_path):
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.b import f\n",
            "b.py": "def f():\n    from pkg import c\n",
            "c.py": "import pkg.a\n",
            "d.py": "from pkg.a import x\n",
        },
    )
    edges = graph(root).edges
    assert cycles(edges) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
    assert _describe(cycles(edges)[0], edges) == (
        "pkg.a -> pkg.b (line 1 of pkg.a) -> pkg.c (line 2 of pkg.b) -> pkg.a (line 1 of pkg.c)"
    )


def test_checker_finds_private_names_and_package_top_imports(tmp_path):
    root = _package(
        tmp_path,
        {
            "__init__.py": "from pkg.a import public\n",
            "_impl.py": "def helper():\n    pass\n",
            "a.py": "from pkg._impl import helper\npublic = 1\n_mine = 2\nx = _mine\n",
            "b.py": "from pkg.a import _mine\n",
            "c.py": "from pkg import a\ny = a._mine\nz = a.public\n",
            "d.py": "from pkg import public\n",
            "sub/__init__.py": "",
            "sub/e.py": "import pkg.sub\nfrom pkg.sub import __doc__\n",
        },
    )
    g = graph(root)
    assert private_reaches(g) == ["pkg.b line 1: from pkg.a import _mine", "pkg.c line 2: pkg.a._mine"]
    assert package_top_imports(g) == [
        "pkg.d line 1: from pkg import public",
        "pkg.sub.e line 2: from pkg.sub import __doc__",
    ]
    assert cycles(g.edges) == []


def test_checker_finds_layer_faults_with_file_and_line(tmp_path):
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "_native.py": "",
            "rules.py": "import pkg.solver\n",
            "solver.py": "from pkg import _native, rules\n",
            "formats/__init__.py": "",
            "formats/_common.py": "",
            "formats/zbd.py": "from pkg.formats import _common\n\nfrom pkg import _native\n",
            "dealer/__init__.py": "",
            "dealer/library.py": "from pkg.formats._common import x\nfrom pkg import solver\n",
            "stray.py": "",
        },
    )
    layers = (
        ("native", ("pkg._native",)),
        ("rules", ("pkg.rules",)),
        ("formats", ("pkg.formats",)),
        ("solving", ("pkg.solver",)),
        ("dealer", ("pkg.dealer",)),
        ("top", ("pkg",)),
    )
    g = graph(root)
    assert unlayered(g, layers) == ["pkg.stray"]
    assert layer_of("pkg", layers) == (5, "top") and layer_of("pkg.formats.zbd", layers) == (2, "formats")
    assert upward_imports(g, layers, ()) == [
        "pkg/rules.py:1: pkg.rules (rules) imports pkg.solver (solving), a higher layer"
    ]
    assert formats_solving(g, "pkg.formats", ("pkg._native", "pkg.solver"), ()) == [
        "pkg/formats/zbd.py:3: pkg.formats.zbd imports pkg._native, which solves (formats never call DDS)"
    ]
    assert private_module_imports(g, ()) == [
        "pkg/dealer/library.py:1: pkg.dealer.library imports pkg.formats._common, private to pkg.formats"
    ]
    allowed = (Allowed("pkg.rules", "pkg.solver", "until the split"), Allowed("pkg.rules", "pkg.dealer", "gone"))
    assert upward_imports(g, layers, allowed) == []
    assert stale_allowances(g, allowed) == ["pkg.rules -> pkg.dealer (gone)"]
