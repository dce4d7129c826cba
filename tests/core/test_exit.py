"""Debian's DDS 2.9.0 crashes at unload; programs importing ddsbind still exit with their own status."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROGRAMS = {
    "normal": (
        "import ddsbind\nprint('solved', ddsbind.solve_board('N:A... K... Q... J...', 4, 0).best_score)",
        0,
    ),
    "sys.exit(3)": ("import sys, ddsbind\nprint('before exit', end='')\nsys.exit(3)", 3),
    "uncaught error": ("import ddsbind\nprint('before error')\nraise KeyError('boom')", 1),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_exit_status_and_output_survive_unload(name, tmp_path):
    """A script that imports ddsbind ends with its own status and all its output, not SIGSEGV (139)."""
    code, want = PROGRAMS[name]
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == want, proc.stderr
    if name == "normal":
        assert proc.stdout == "solved 1\n"
    elif name == "sys.exit(3)":
        assert proc.stdout == "before exit"
    else:
        assert proc.stdout == "before error\n"
        assert "KeyError: 'boom'" in proc.stderr


def test_atexit_handlers_still_run(tmp_path):
    """Python's own atexit handlers run before the guard ends the process."""
    code = "import atexit, ddsbind\natexit.register(lambda: print('atexit ran'))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "atexit ran\n"
