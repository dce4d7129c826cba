"""The core's rooms stay apart: no import circle, no reaching into another module's private names.

Read from the source with ``ast`` (imports inside functions count; imports
under ``if TYPE_CHECKING:`` do not, they never run).
"""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

import ddsbind
from ddsbind import dll, errors
from ddsbind._binding import slots

PACKAGE = Path(ddsbind.__file__).parent
#: The modules of the core (DDS binding, model of play, Pythonic layer).
CORE = [
    "__init__",
    "_binding",
    "_holdings",
    "_html",
    "_marshal",
    "_scheduler",
    "_typing",
    "_validate",
    "deal",
    "dll",
    "errors",
    "game",
    "play",
    "pool",
    "results",
    "solver",
]
#: The Pythonic layer: goes through _marshal / _binding, never dll.ffi.
PYTHONIC = ["solver", "pool", "play"]


def _tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.py").read_text())


def _runtime_nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _imports(name: str) -> list[tuple[str, list[str]]]:
    """(module, names) of each ``import``/``from ... import`` of ddsbind modules that runs."""
    out = []
    for node in _runtime_nodes(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "ddsbind":
            out.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names if a.name.split(".")[0] == "ddsbind"]
    return out


def _edges(name: str) -> set[str]:
    """The core modules ``name`` imports (``from ddsbind import dll`` counts as ``dll``)."""
    out = set()
    for module, names in _imports(name):
        parts = module.split(".")
        if module == "ddsbind":
            out |= {n for n in names if n in CORE} or {"__init__"}
        elif len(parts) == 2 and parts[1] in CORE:
            out.add(parts[1])
    return out - {name}


def test_no_import_circle_in_the_core():
    """solver and pool no longer import each other; nothing in the core imports in a circle."""
    graph = {m: _edges(m) for m in CORE}
    assert "solver" not in graph["pool"]

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError(" -> ".join([*path[path.index(m) :], m]))
        for n in sorted(graph[m]):
            visit(n, [*path, m])

    for m in CORE:
        visit(m, [])


@pytest.mark.parametrize("name", CORE)
def test_no_module_imports_another_modules_private_names(name):
    """``from ddsbind.solver import _trick`` and the like are gone: what modules share is public in the package."""
    for module, names in _imports(name):
        private = [n for n in names if n.startswith("_") and not (PACKAGE / f"{n}.py").exists()]
        assert not private, f"{name} imports {private} from {module}"


@pytest.mark.parametrize("name", CORE)
def test_no_module_reads_another_modules_private_attributes(name):
    """No ``solver._calc_tables`` or ``dll._settings`` from outside: the attribute's own module only."""
    modules = {n for n in CORE if n != name} | {"_binding", "_holdings", "_validate", "_marshal"} - {name}
    for node in _runtime_nodes(_tree(name)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            assert not node.attr.startswith("_"), f"{name} uses {node.value.id}.{node.attr}"


@pytest.mark.parametrize("name", PYTHONIC)
def test_the_pythonic_layer_does_not_touch_ffi(name):
    """solver, pool and play reach cffi memory through _marshal, and DDS through dll's functions."""
    source = (PACKAGE / f"{name}.py").read_text()
    assert "ffi" not in source
    assert "formats" not in {m.split(".")[1] for m, _ in _imports(name) if "." in m}


def test_thread_slot_locks_are_plain_and_a_nested_take_is_refused():
    """A call takes its slot once (so the locks need not be re-entrant); taking a second is a bug, not a deadlock."""
    assert all(type(lock) is type(threading.Lock()) for lock in slots._locks)
    with slots.any() as i:
        with pytest.raises(RuntimeError, match="already holds") as nested, slots.any():
            pass
        with pytest.raises(RuntimeError, match="already holds") as again, slots.slot(i):
            pass
        with slots.holding(i) as j:
            assert j == i
    with pytest.raises(RuntimeError, match="without being held") as unheld, slots.holding(0):
        pass
    # A bug in ddsbind's own calls, not a user's input: the plain builtin, no ddsbind.Error to catch by mistake.
    assert {type(nested.value), type(again.value), type(unheld.value)} == {RuntimeError}


def test_dll_solve_board_with_a_held_slot_uses_it_without_taking_it_again():
    """The Pythonic layer's SolveBoard: with ``thread`` given, the caller's slot is used (a pool worker's)."""
    deal = ddsbind.Deal.from_pbn("N:...T98 ...765 ...432 ...AKQ")
    dl = dll.deal(trump=4, first=0, remainCards=deal.remain_cards.tolist())
    fut = dll.futureTricks()
    with pytest.raises(RuntimeError, match="without being held") as unheld:
        dll.solve_board(dl, -1, 1, 1, fut, 0)
    assert type(unheld.value) is RuntimeError
    with slots.slot(0):
        dll.solve_board(dl, -1, 1, 1, fut, 0)
    assert fut.score[0] == ddsbind.solve_board(deal, 4, 0, solutions=1).best_score
    with pytest.raises(errors.FirstWrongError):
        dll.solve_board(dll.deal(trump=4, first=9, remainCards=deal.remain_cards.tolist()), -1, 1, 1, fut)
