"""benchmarks/bench_library.py works end to end on a small library (no speed asserted: that lives in benchmarks/)."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.support import REPO, run_script


@pytest.mark.skipif(shutil.which("dealer") is None and not shutil.which("/usr/games/dealer"), reason="no dealer")
def test_bench_library_short_run(tmp_path):
    """Debian's dealer and the three library scripts run over the same number of records; each line is printed."""
    proc = run_script(REPO / "benchmarks" / "bench_library.py", "--records", 30_000, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^dealer \(condition, random deals\): 30000 deals, .* deals/s", proc.stdout, re.M), proc.stdout
    for name in ("condition", "tricks", "frequency"):
        line = rf"^ddsbind -L {name} threads=2: 30000 records, .* records/s, ratio ours/dealer \d"
        assert re.search(line, proc.stdout, re.M), proc.stdout
