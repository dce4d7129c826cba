"""benchmarks/bench_analyse.py runs end to end on a few boards (no timing asserted: speed lives in benchmarks/)."""

from __future__ import annotations

import re

from tests.support import REPO, reference_file, run_script

SCRIPT = REPO / "benchmarks" / "bench_analyse.py"


def test_short_analyse_benchmark_runs(tmp_path):
    """Without this, `bench_analyse.py` could break unnoticed until the next measurement of the match report."""
    proc = run_script(SCRIPT, "--file", reference_file("list100.txt"), "--limit", 2, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^boards 2$", proc.stdout, re.M) and re.search(r"^records 4$", proc.stdout, re.M)
    for key in ("costly_seconds_for_1000_boards", "report_seconds_for_1000_boards"):
        assert re.search(rf"^{key} \d+\.\d$", proc.stdout, re.M), proc.stdout
