"""Every script `make bench` runs works end to end on a few deals (no speed asserted: that lives in benchmarks/).

Each runs by path under the build under test, its native driver (where it
has one) built into a temporary directory and linked to the same DDS.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO, reference_file, run_script

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
    for name in ("pool 1", "batch 1", "native 1", "pool 2", "pool 2 hardest", "batch 2", "native 2"):
        assert re.search(rf"^  {name} +\d+\.\d{{3}} +\d+\.\d{{3}}", proc.stdout, re.M), (name, proc.stdout)
    assert re.search(r"^1\. ddsbind\.dd_tables / native 2 \(tables/s\): +\d+\.\d{3}", proc.stdout, re.M)
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
    rows = re.findall(r"^(.+?) +2000 +[\d,]+$", proc.stdout, re.M)
    assert "ZRD decode" in rows and "convert ZRD file -> ZBD" in rows, proc.stdout


@needs_cc
@pytest.mark.usefixtures("debian_dealer")
def test_bench_dealer_short_run(tmp_path):
    """Debian's dealer and ddsbind dealer run the same script; the pool's tables match the native driver's."""
    args = ["--generate", 20_000, "--solve", 4, "--driver", tmp_path / "dds_driver"]
    proc = run_script(BENCHMARKS / "bench_dealer.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^dealer: +20000 deals, \d+ accepted", proc.stdout, re.M), proc.stdout
    for threads in (1, 2):
        assert re.search(rf"^ddsbind threads={threads}: 20000 deals, .* ratio ours/dealer \d", proc.stdout, re.M)
    assert re.search(r"^native driver, threads=\d+: .* ratio pool/native \d", proc.stdout, re.M), proc.stdout
