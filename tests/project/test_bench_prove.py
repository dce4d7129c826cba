"""benchmarks/bench_prove.py runs end to end on a tiny size: every ending proved, checked and reported.

No timing is asserted (speed lives in ``benchmarks/``); this keeps the
benchmark from rotting.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np

from benchmarks.bench_prove import random_ending
from tests.support import REPO

SCRIPT = REPO / "benchmarks" / "bench_prove.py"


def test_short_prove_benchmark_runs(tmp_path):
    """Without this, `bench_prove.py` could break unnoticed until the next real run."""
    cmd = [sys.executable, str(SCRIPT), "--cards", "2", "3", "--endings", "2", "--seed", "7"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    rows = re.findall(
        r"^ending cards=(\d) .* nodes=(\d+) dds_calls=(\d+) seconds=\d+\.\d{3} dd_seconds=\d+\.\d{6} x_dd=\d+\.\d "
        r"deal=N:\S+",
        proc.stdout,
        re.M,
    )
    assert [r[0] for r in rows] == ["2", "2", "3", "3"], proc.stdout
    assert all(int(r[1]) > 0 for r in rows)
    for k in (2, 3):
        assert re.search(rf"^cards_{k}_median_nodes \d+$", proc.stdout, re.M), proc.stdout
        assert re.search(rf"^cards_{k}_median_seconds \d+\.\d{{3}}$", proc.stdout, re.M), proc.stdout
        assert re.search(rf"^cards_{k}_median_x_dd \d+\.\d$", proc.stdout, re.M), proc.stdout  # its baseline


def test_random_endings_hold_the_asked_cards_and_repeat_by_seed():
    """Without this, the benchmark's sizes would not be what it prints, or two runs would time different endings."""
    for k in (1, 4, 7, 13):
        deal = random_ending(k, np.random.default_rng(k))
        assert deal.hand_lengths == (k, k, k, k)
        assert deal == random_ending(k, np.random.default_rng(k))
