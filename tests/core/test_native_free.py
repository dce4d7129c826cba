"""The deal and file-format layers work without loading DDS."""

from __future__ import annotations

from pathlib import Path

from tests.support import python_c


def test_importing_every_formats_module_does_not_load_dds():
    """A program that only reads or writes deal files never loads libdds, its exit guard or GetDDSInfo."""
    proc = python_c(
        """
        import importlib, pkgutil, sys
        import ddsbind.formats
        names = [m.name for m in pkgutil.iter_modules(ddsbind.formats.__path__)]
        for name in names:
            importlib.import_module("ddsbind.formats." + name)
        import ddsbind.deal, ddsbind.errors
        native = ("ddsbind._dds", "ddsbind._binding", "ddsbind.dll", "ddsbind.solver")
        loaded = sorted(k for k in sys.modules if k in native)
        print(len(names), loaded)
        """
    )
    assert proc.returncode == 0, proc.stderr
    count, loaded = proc.stdout.split(" ", 1)
    assert int(count) >= 10
    assert loaded.strip() == "[]"


def test_formats_and_deal_errors_work_where_dds_is_missing():
    """Without a compiled DDS, deals parse, files decode and errors still print their reason."""
    proc = python_c(
        """
        import sys
        sys.modules["ddsbind._dds"] = None  # as if DDS were not installed
        import numpy as np
        import ddsbind
        from ddsbind.formats import zbd
        d = ddsbind.Deal.random(1)
        assert (zbd.decode_zbd(zbd.encode_zbd(d.owners()[None])) == d.owners()).all()
        try:
            ddsbind.Deal.from_pbn("N:AX... K... Q... J...")
        except ddsbind.errors.PBNError as exc:
            print(exc)
        try:
            ddsbind.dd_table(d)
        except ImportError as exc:
            print("ImportError", "compiled DDS module is missing" in str(exc))
        """
    )
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert "'X'" in first and "PBN" in first
    assert second == "ImportError True"


def test_native_names_still_import_from_the_package():
    """``from ddsbind import dd_table`` and friends keep working although they load lazily."""
    import ddsbind
    from ddsbind import DDTable, dd_table, dds_info, solve_board

    assert callable(dd_table) and callable(solve_board) and callable(dds_info)
    assert ddsbind.DDTable is DDTable
    assert set(ddsbind.__all__) <= set(dir(ddsbind))
    assert all(hasattr(ddsbind, name) for name in ddsbind.__all__)


def test_every_lazy_name_is_the_public_object_of_its_module():
    """The package top's lazy names (its table's, else the solver's) are each the public object of their module."""
    import importlib

    import ddsbind
    from ddsbind import solver

    lazy = {**dict.fromkeys(set(ddsbind.__all__) & set(solver.__all__), "ddsbind.solver"), **ddsbind._LAZY}
    for name, module_name in lazy.items():
        module = importlib.import_module(module_name)
        assert name in getattr(module, "__all__", [name]), f"{name} is not public in {module_name}"
        assert ddsbind.__getattr__(name) is getattr(module, name) is getattr(ddsbind, name)
        assert name in ddsbind.__all__, f"{name} resolves lazily but is missing from ddsbind.__all__"


def test_every_public_name_imports_in_a_fresh_interpreter():
    """``from ddsbind import *`` binds every name of ``__all__`` in a new process, and ``ddsbind.deal`` and the
    other modules ``import ddsbind`` once loaded are still there: the lazy package top loses no name."""
    proc = python_c(
        """
        import ddsbind
        print(ddsbind.deal.Deal is ddsbind.Deal, ddsbind.errors.Error is ddsbind.Error, ddsbind.scoring.imps)
        namespace = {}
        exec("from ddsbind import *", namespace)
        missing = [name for name in ddsbind.__all__ if namespace.get(name) is not getattr(ddsbind, name)]
        print(len(ddsbind.__all__), missing)
        """
    )
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first.startswith("True True <function imps")
    assert second == f"{len(__import__('ddsbind').__all__)} []"


def test_the_public_names_come_from_one_table():
    """Without this, a name added to the package top's table but not to its type-checking imports (or the other
    way) would import at run time and be unknown to mypy and the docs, or be typed and fail to import."""
    import ast

    import ddsbind

    tree = ast.parse(Path(ddsbind.__file__).read_text())
    checked = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {
        (node.module, alias.name)
        for node in checked.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name  # an explicit re-export
    }
    table = {(module, name) for module, names in ddsbind._PUBLIC.items() for name in names}
    assert typed == table
    assert ddsbind.__all__ == sorted(name for _, name in table) and len(ddsbind.__all__) == len(table)
