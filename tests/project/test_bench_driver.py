"""The binding benchmark runs end to end: C driver built, both sides solve, tables agree.

No timing is asserted (speed lives in ``benchmarks/``); these only keep the
benchmark from rotting.  The driver is built into a temporary directory so a
test run never races ``make bench`` over ``benchmarks/dds_driver``.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

import ddsbind
from tests.support import REPO, reference_file, run_script

BENCHMARKS = REPO / "benchmarks"
SCRIPT = BENCHMARKS / "bench_binding.py"

pytestmark = pytest.mark.usefixtures("c_compiler")  # a missing compiler fails these tests (tests/oracles.py)


@pytest.fixture(scope="module")
def common() -> ModuleType:
    """benchmarks/_common.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("benchmarks_common", BENCHMARKS / "_common.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_quick_benchmark_runs_and_both_sides_agree(tmp_path):
    """`make bench` still works, and the native driver and ddsbind compute the same DD tables."""
    list10 = reference_file("list10.txt")
    args = ["--quick", "--file", list10, "--iterations", 200, "--rounds", 1, "--driver", tmp_path / "dds_driver"]
    proc = run_script(SCRIPT, *args, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ratio \(ddsbind/native\): \d+\.\d{3}$", proc.stdout, re.M), proc.stdout
    assert "tables agree: driver == ddsbind == file TABLE lines" in proc.stdout
    assert re.search(r"^deals\s+10 ", proc.stdout, re.M), proc.stdout
    for name in ("native (dds_driver)", "ddsbind.dll.SolveBoard", "ddsbind.solve_board(Deal)"):
        assert re.search(rf"{re.escape(name)}\s+\d+\.\d+ us/call", proc.stdout), name


def test_driver_fails_loudly_on_dds_errors(common, tmp_path, monkeypatch):
    """A deal DDS rejects makes the driver exit non-zero with DDS's message, not print bogus timings."""
    monkeypatch.chdir(tmp_path)  # DDS writes a dump.txt into the working directory on errors
    driver = common.build_driver(BENCHMARKS / "dds_driver.c", tmp_path / "dds_driver")
    bad = tmp_path / "bad.txt"
    # DDS's first list100 deal with an extra spade ace for North: 14 cards.
    bad.write_text('NUMBER 1\nPBN 0 0 0 0 "N:AQJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"\n')
    proc = subprocess.run(
        [str(driver), "tables", str(bad), "1"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "CalcAllTablesPBN returned -10: Too many cards" in proc.stderr
    with pytest.raises(common.BenchError, match="Too many cards"):
        common.run_driver(driver, "tables", bad, 1)


def test_driver_links_the_dds_ddsbind_runs(common, tmp_path):
    """The native side of every benchmark solves with the same DDS as ddsbind (system library or source tree)."""
    driver = common.build_driver(BENCHMARKS / "dds_driver.c", tmp_path / "dds_driver")
    linked = subprocess.run(["ldd", str(driver)], capture_output=True, text=True, check=False).stdout
    from_source = ddsbind.dds_info().source == "source tree"
    assert ("libdds" in linked) != from_source, linked
    out = common.run_driver(driver, "onecard", 10, 1)
    assert out["score"] == "1"


def test_batch_tables_are_ddsbinds(common, list100):
    """_common.batch_tables (DDS's CalcAllTables from the DLL layer, the benchmarks' batch) gives the TABLE lines."""
    masks = np.stack([h.deal.remain_cards for h in list100[:3]])
    assert np.array_equal(common.batch_tables(masks, 1), np.stack([h.table for h in list100[:3]]))
    assert np.array_equal(common.batch_tables(masks), ddsbind.dd_tables_array(masks))
