"""Child Pythons started by the tests run the build under test, not a checkout's uncompiled ``ddsbind/``.

Under ``make test-source`` the checkout's ``ddsbind/`` holds no compiled
module (or, after ``make test``, one linked to another DDS); a child that
imported it would test the wrong thing or fail.  Each child here prints the
files of the ``ddsbind`` package and of its compiled DDS module it loaded,
which must be this process's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import ddsbind
from tests.support import REPO, child_env, run_script

WHERE = "import sys, ddsbind; ddsbind.dds_info(); print(ddsbind.__file__); print(sys.modules['ddsbind._dds'].__file__)"


def _here() -> list[Path]:
    ddsbind.dds_info()
    return [Path(ddsbind.__file__).resolve(), Path(sys.modules["ddsbind._dds"].__file__).resolve()]


def _printed(proc: subprocess.CompletedProcess[str]) -> list[Path]:
    assert proc.returncode == 0, proc.stderr
    return [Path(line).resolve() for line in proc.stdout.splitlines()]


def test_python_c_in_the_checkout_imports_the_build_under_test():
    """``python -c`` run in the checkout (the environment every test inherits) loads this process's ddsbind."""
    proc = subprocess.run([sys.executable, "-c", WHERE], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert _printed(proc) == _here()


def test_script_by_path_imports_the_build_under_test(tmp_path):
    """A script run by path (examples, benchmarks, the fuzzer) loads this process's ddsbind, from any directory."""
    script = tmp_path / "where.py"
    script.write_text(WHERE.replace("; ", "\n"))
    assert _printed(run_script(script, cwd=REPO, timeout=120)) == _here()
    assert _printed(run_script(script, cwd=REPO, env=child_env(), timeout=120)) == _here()


def test_a_checkout_ddsbind_beside_a_script_is_refused(tmp_path):
    """run_script will not run a script whose directory would put another ddsbind/ first."""
    (tmp_path / "ddsbind").mkdir()
    script = tmp_path / "x.py"
    script.write_text("print(1)\n")
    with pytest.raises(AssertionError, match="would shadow the build under test"):
        run_script(script)
