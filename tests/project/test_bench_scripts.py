"""Every script `make bench` runs works end to end on a few deals (no speed asserted: that lives in benchmarks/).

Each runs by path under the build under test, its native driver (where it
has one) built into a temporary directory and linked to the same DDS.
"""

from __future__ import annotations

import re

import pytest

import ddsbind
from tests.support import REPO, reference_file, run_script

BENCHMARKS = REPO / "benchmarks"
needs_cc = pytest.mark.usefixtures("c_compiler")  # a missing compiler fails the test (tests/oracles.py)


@pytest.mark.slow
@needs_cc
def test_bench_pool_short_run(tmp_path):
    """All eight variants solve the same deals and agree with the TABLE lines; the three ratios are printed."""
    hands = reference_file("list100.txt")
    args = ["--hands", hands, "--limit", 3, "--repeat", 1, "--hardest", "--driver", tmp_path / "dds_driver"]
    proc = run_script(BENCHMARKS / "bench_pool.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    names = ("pool 1", "batch 1", "native 1", "pool 2", "pool 2 hardest", "batch 2", "native 2", "native default")
    for name in (*names, "ddsbind.dd_tables"):
        assert re.search(rf"^  {name} +\d+\.\d{{3}} +\d+\.\d{{3}}", proc.stdout, re.M), (name, proc.stdout)
    threads = ddsbind.dds_info().threads  # the module function and its native baseline: DDS's default, both
    want = rf"^1\. ddsbind\.dd_tables / native default \(tables/s, {threads} threads both\): +\d+\.\d{{3}}"
    assert re.search(want, proc.stdout, re.M), proc.stdout
    assert re.search(r"^2\. pool 2 / native 2 \(tables/s\): +\d+\.\d{3}", proc.stdout, re.M)
    assert re.search(r"^3\. pool 2 / pool 1 \(tables/s\): +\d+\.\d{3}", proc.stdout, re.M)
    assert re.search(r"^deals +3: ", proc.stdout, re.M), proc.stdout


def test_simulate_threads_short_run(tmp_path):
    """The simulator times every task of a few deals and prints a prediction for each thread count."""
    args = ["--hands", reference_file("list100.txt"), "--limit", 2, "--no-validate"]
    proc = run_script(BENCHMARKS / "simulate_threads.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = re.findall(r"^ +(\d+) +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3}$", proc.stdout, re.M)
    assert rows == ["1", "2", "4", "8", "16", "32"], proc.stdout
    assert "(2 deals, 2 distinct;" in proc.stdout and "10 tasks" in proc.stdout


@pytest.mark.slow
@needs_cc
def test_bench_generate_short_run(tmp_path):
    """generate and the native driver solve the same random deals (checksums agree), then the projection."""
    args = ["--count", 6, "--no-dask", "--driver", tmp_path / "dds_driver"]
    proc = run_script(BENCHMARKS / "bench_generate.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ratio generate/native: \d+\.\d{3}", proc.stdout, re.M), proc.stdout
    assert re.search(r"^  on 16 worker machine\(s\) of 16 cores: ", proc.stdout, re.M), proc.stdout


def test_bench_formats_short_run(tmp_path):
    """Every codec row is timed."""
    proc = run_script(BENCHMARKS / "bench_formats.py", 2000, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    # each row: records, records/s, its baseline's records/s, the ratio
    rows = re.findall(r"^(.+?) +(?:2000|200) +[\d,]+ +[\d,]+ +\d+\.\d\d$", proc.stdout, re.M)
    assert len(rows) == 8 and "ZRD decode" in rows and "convert ZRD file -> ZBD" in rows, proc.stdout


def test_bench_reuse_short_run(tmp_path):
    """The three runs are timed and the checking run names the one wrong board (trusting keeps it)."""
    proc = run_script(BENCHMARKS / "bench_reuse.py", 3, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^check \(the default\) +\d+\.\d\d +\d+\.\d\d +1 board named$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^CPU over the full solve: check \d+\.\d\d, trust \d+\.\d{3}$", proc.stdout, re.M), proc.stdout


@needs_cc
@pytest.mark.usefixtures("debian_dealer")
def test_bench_dealer_short_run(tmp_path):
    """Debian's dealer and ddsbind dealer run the same script; the pool's tables match the native driver's."""
    args = ["--generate", 20_000, "--solve", 4, "--driver", tmp_path / "dds_driver"]
    proc = run_script(BENCHMARKS / "bench_dealer.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^dealer: +20000 deals, \d+ accepted", proc.stdout, re.M), proc.stdout
    for threads in (1, 2):  # both sides timed by the same clocks: the process's wall time and its own
        line = rf"^ddsbind threads={threads}: 20000 deals, .* ratio ours/dealer [\d.]+ wall, [\d.]+ own"
        assert re.search(line, proc.stdout, re.M), proc.stdout
    assert re.search(r"^ddsbind threads=1: .*\(like for like: dealer is single threaded\)$", proc.stdout, re.M)
    assert re.search(r"^native driver, threads=\d+: .* ratio pool/native \d", proc.stdout, re.M), proc.stdout


def test_bench_gap_short_run(tmp_path):
    """`make bench`'s gap breakdown runs: every variant's tables equal DDS's batch, each row beside the batch."""
    proc = run_script(BENCHMARKS / "bench_gap.py", "--random", 3, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^deals +3 random deals, seed 1: 3 distinct, one thread$", proc.stdout, re.M), proc.stdout
    for name in ("batch \\(CalcAllTables, 1 thread\\)", "searches NT C D H S", "SolverPool\\(1\\)"):
        assert re.search(rf"^  {name} +\d+\.\d{{3}}", proc.stdout, re.M), (name, proc.stdout)
    assert re.search(r"^  batch \(CalcAllTables, 1 thread\) +[\d.]+ +[\d.]+ +1\.000$", proc.stdout, re.M)


def test_benchmarks_use_only_public_names():
    """A benchmark measures what a user can call: no benchmark imports a private ddsbind module or name."""
    import ast

    for path in sorted(BENCHMARKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ddsbind"):
                names = [*node.module.split("."), *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [part for a in node.names if a.name.startswith("ddsbind") for part in a.name.split(".")]
            else:
                continue
            assert not [n for n in names if n.startswith("_")], (path.name, ast.unparse(node))


def test_common_distinct_keeps_first_appearance_order():
    """The benchmarks' dedupe gives the distinct deals in order of first appearance and the map back, as the
    pool's own dedupe does (checked on a hand-made list with repeats)."""
    import importlib.util
    import sys

    import numpy as np

    spec = importlib.util.spec_from_file_location("benchmarks_common", BENCHMARKS / "_common.py")
    assert spec is not None and spec.loader is not None
    common = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, common)
    spec.loader.exec_module(common)
    a, b, c = (np.full((4, 4), v, np.uint32) for v in (9, 1, 5))
    first, inverse = common.distinct(np.stack([a, b, a, c, b]))
    assert first.tolist() == [0, 1, 3] and inverse.tolist() == [0, 1, 0, 2, 1]


@pytest.mark.usefixtures("debian_dealer")
def test_bench_dealer_startup_short_run(tmp_path):
    """`make bench`'s start-up timing runs both commands and prints each figure (wall and CPU) beside Debian dealer's
    and bare numpy's."""
    proc = run_script(BENCHMARKS / "bench_dealer_startup.py", "--repeat", 2, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ddsbind dealer: median \d+\.\d{3} s, min \d+\.\d{3} s \(2 runs\)$", proc.stdout, re.M)
    assert re.search(r"^Debian dealer: +median \d+\.\d{3} s, min \d+\.\d{3} s$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^ratio ours/dealer \(medians\): \d+", proc.stdout, re.M), proc.stdout
    assert re.search(r"^ddsbind dealer CPU \(user\+sys\): median \d+\.\d{3} s, min \d+\.\d{3} s$", proc.stdout, re.M)
    assert re.search(r"^python -c 'import numpy': median .* s; CPU median \d+\.\d{3} s", proc.stdout, re.M)


def test_bench_board_short_run(tmp_path):
    """The board's HTTP answers agree with solve_board on every deal, and each request's times are printed."""
    args = ("--random", 2, "--clicks", 3, "--think", 0.1, "--zrd-records", 10_000)
    proc = run_script(BENCHMARKS / "bench_board.py", *args, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for name in ("position", "first solve", "again", "table"):
        assert re.search(rf"^{name} +\d+\.\d{{3}} +\d+\.\d{{3}}$", proc.stdout, re.M), (name, proc.stdout)
    assert re.search(
        r"^card click \(position \+ solve, 6 clicks, 0.1 s apart\): p50 \d+ ms, p95 \d+ ms$", proc.stdout, re.M
    )
    assert re.search(r"^a ZRD of 10,000 deals .* shown in \d+\.\d\d s; peak memory grew \d+ MB$", proc.stdout, re.M)


@pytest.mark.slow
def test_bench_single_dummy_short_run(tmp_path):
    """The three single-dummy runs are timed, each with its samples per second, and name the cards they found."""
    proc = run_script(BENCHMARKS / "bench_single_dummy.py", "--samples", 8, "--threads", 1, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for name in ("opening lead, make odds", "opening lead, mean tricks", "declarer at trick 6"):
        assert re.search(rf"^  {name} +8 layouts +\d+\.\d\d s wall +\d+\.\d\d s CPU +\d+\.\d samples/s", proc.stdout,
                         re.M), (name, proc.stdout)  # fmt: skip
    best = r"^best lead: [SHDC][2-9TJQKA] \(\d+\.\d% makes\); at trick 6: [SHDC][2-9TJQKA]$"
    assert re.search(best, proc.stdout, re.M), proc.stdout
