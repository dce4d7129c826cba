"""benchmarks/bench_question.py runs end to end on a few deals (no speed asserted: the script prints figures)."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.support import REPO, run_script

needs_cc = pytest.mark.skipif(not any(shutil.which(c) for c in ("cc", "gcc", "clang")), reason="no C compiler")


@needs_cc
def test_bench_question_short_run(tmp_path):
    """Every variant answers the same question on the same deals as the whole tables do; the ratios are printed."""
    args = ["--random", 3, "--repeat", 1, "--dealer", 3, "--driver", tmp_path / "dds_driver"]
    proc = run_script(REPO / "benchmarks" / "bench_question.py", *args, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for name in ("native tables", "makes", "tricks", "redeal's way"):
        assert re.search(rf"^  {name} +\d+\.\d{{3}} +\d+\.\d{{2}} ", proc.stdout, re.M), (name, proc.stdout)
    assert "answers equal the tables' in all" in proc.stdout
    for line in ("1. native tables / makes:", "2. native tables / tricks:", "3. redeal's way / makes:"):
        assert re.search(rf"^{re.escape(line)} +\d+\.\d\d", proc.stdout, re.M), (line, proc.stdout)
    assert re.search(r"^4\. twenty results / one result: +\d+\.\d\d", proc.stdout, re.M), proc.stdout


def test_bench_question_refuses_a_bad_contract(tmp_path):
    """A typo in --contract is one line and exit 1, before anything is built or solved."""
    args = ["--random", 2, "--contract", "9NT", "--driver", tmp_path / "dds_driver"]
    proc = run_script(REPO / "benchmarks" / "bench_question.py", *args, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1
    assert "contract '9NT'" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "dds_driver").exists()


def test_bench_question_crossover_and_leads_short_runs(tmp_path):
    """The crossover table (k = 1..20 against whole tables) and the lead measurement run and agree with DDS."""
    script = REPO / "benchmarks" / "bench_question.py"
    proc = run_script(script, "--random", 2, "--crossover", cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = re.findall(r"^ +(\d+) +\d+\.\d{3} +\d+\.\d{3}$", proc.stdout, re.M)
    assert rows == [str(k) for k in range(1, 21)], proc.stdout
    assert re.search(r"^table cheaper from k = .*; TABLE_FROM = \d+$", proc.stdout, re.M), proc.stdout
    proc = run_script(script, "--random", 2, "--leads", cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "tricks after every lead equal every way" in proc.stdout
    assert re.search(r"^5\. card-major / in a row: +\d+\.\d\d", proc.stdout, re.M), proc.stdout
