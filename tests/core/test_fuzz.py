"""Random sequences of DLL calls with random, often invalid, arguments never end the process."""

from __future__ import annotations

import pytest

from tests.support import REPO, child_env, run_script

pytestmark = pytest.mark.slow  # thousands of DLL calls, many solving


@pytest.mark.parametrize("seed", [1, 2])
def test_random_dll_call_sequences_survive(seed, tmp_path):
    """A few thousand random dll calls (wrong sizes, NULLs, junk, FreeMemory, settings) leave the process alive."""
    # By path, with the checkout off the child's path: the fuzzer drives the build under test
    # (under `make test-source` the installed source build, not the checkout's uncompiled ddsbind/).
    proc = run_script(
        REPO / "tests" / "fuzz_dll.py", "--steps", 3000, "--seed", seed, cwd=tmp_path, env=child_env(), timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = dict(item.split("=") for item in proc.stdout.split()[2:])
    assert proc.stdout.startswith("steps 3000 ")
    assert int(summary["ok"]) > 100, proc.stdout  # many calls really reached DDS and solved
    assert sum(map(int, summary.values())) == 3000
    assert not (tmp_path / "dump.txt").exists()
