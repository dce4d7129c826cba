"""benchmarks/bench_play.py runs end to end on a few hands: every path reproduces the TRACE lines.

No timing is asserted (speed lives in ``benchmarks/``); this keeps the
benchmark and its C driver from rotting.
"""

from __future__ import annotations

import re

import pytest

from tests.support import REPO, reference_file, run_script

SCRIPT = REPO / "benchmarks" / "bench_play.py"


@pytest.mark.usefixtures("c_compiler")
def test_short_play_benchmark_runs(tmp_path):
    """Without this, `bench_play.py` (and its C driver) could break unnoticed until the next real run."""
    proc = run_script(SCRIPT, "--file", reference_file("list100.txt"), "--limit", 6, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for key in ("analyse_all_plays", "per_deal_threads", "costly_cards_batch", "c_driver"):
        assert re.search(rf"^{key}_deals_per_second \d+\.\d$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^deals 6$", proc.stdout, re.M)
