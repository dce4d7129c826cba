"""benchmarks/bench_par.py works end to end on a small library (no speed asserted: that lives in benchmarks/)."""

from __future__ import annotations

import re

import pytest

from tests.support import REPO, run_script


@pytest.mark.slow
def test_bench_par_short_run(tmp_path):
    """DDS per table, the kernel and both library scripts run over the same records; each figure is printed."""
    args = ["--records", 20_000, "--dds-tables", 300, "--dir", tmp_path]
    proc = run_script(REPO / "benchmarks" / "bench_par.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^DDS DealerPar per table \(binding\): [\d,]+ tables/s$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^kernel dealer_par_scores, \d+ cores: 20000 tables, [\d,]+ tables/s", proc.stdout, re.M)
    for name in ("par\\(\\) condition", "study: tricks, par, average, frequency"):
        line = rf"^library mode, {name}, threads=2: 20000 records, [\d.]+ s with start-up: [\d,]+ records/s"
        assert re.search(line, proc.stdout, re.M), proc.stdout
