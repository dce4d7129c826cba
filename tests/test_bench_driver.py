"""The binding benchmark runs end to end: C driver built, both sides solve, tables agree.

No timing is asserted (speed lives in ``benchmarks/``); these only keep the
benchmark from rotting.  The driver is built into a temporary directory so a
test run never races ``make bench`` over ``benchmarks/dds_driver``.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import reference_file

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_binding.py"

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("cc", "gcc", "clang")), reason="no C compiler to build dds_driver"
)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """benchmarks/bench_binding.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_binding", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_quick_benchmark_runs_and_both_sides_agree(bench, tmp_path):
    """`make bench` still works, and the native driver and ddsbind compute the same DD tables."""
    list10 = reference_file("list10.txt")
    cmd = [
        sys.executable, str(SCRIPT), "--quick", "--file", str(list10), "--iterations", "200",
        "--rounds", "1", "--driver", str(tmp_path / "dds_driver"),
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ratio \(ddsbind/native\): \d+\.\d{3}$", proc.stdout, re.M), proc.stdout
    assert "tables agree: driver == ddsbind == file TABLE lines" in proc.stdout
    assert re.search(r"^deals\s+10 ", proc.stdout, re.M), proc.stdout
    for name in ("native (dds_driver)", "ddsbind.dll.SolveBoard", "ddsbind.solve_board(Deal)"):
        assert re.search(rf"{re.escape(name)}\s+\d+\.\d+ us/call", proc.stdout), name


def test_driver_fails_loudly_on_dds_errors(bench, tmp_path, monkeypatch):
    """A deal DDS rejects makes the driver exit non-zero with DDS's message, not print bogus timings."""
    monkeypatch.chdir(tmp_path)  # DDS writes a dump.txt into the working directory on errors
    driver = bench.build_driver(tmp_path / "dds_driver")
    bad = tmp_path / "bad.txt"
    # DDS's first list100 deal with an extra spade ace for North: 14 cards.
    bad.write_text('NUMBER 1\nPBN 0 0 0 0 "N:AQJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"\n')
    proc = subprocess.run(
        [str(driver), "tables", str(bad), "1"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "CalcAllTablesPBN returned -10: Too many cards" in proc.stderr
    with pytest.raises(bench.BenchError, match="Too many cards"):
        bench.run_driver(driver, "tables", bad, 1)
