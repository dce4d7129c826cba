"""Every signal that stops a command cleans up after it (issue 47, item 9).

Before this, Ctrl-C (SIGINT) removed an atomic output's hidden
``.NAME.XXXX.part`` beside the target, but SIGTERM (``kill``, ``timeout``, a
CI's cancel) left it.  Oracle: the folder's listing, before and after.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ddsbind
from ddsbind.formats import zbd
from tests.support import child_env, cli, wait_for


def _parts(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f".{name}.*.part"))


@pytest.mark.slow
def test_sigterm_during_convert_solve_removes_the_part(tmp_path: Path) -> None:
    """Without this, `timeout 60 ddsbind convert big.zbd out.zrd --solve` left a hidden .out.zrd.XXXX.part."""
    deals = tmp_path / "many.zbd"
    owners = np.stack([ddsbind.Deal.random(i).owners() for i in range(3000)])
    deals.write_bytes(zbd.encode_zbd(owners).tobytes())
    cmd = [sys.executable, "-m", "ddsbind", "convert", deals, tmp_path / "out.zrd", "--solve", "--threads", "1"]
    proc = subprocess.Popen([str(c) for c in cmd], env=child_env(), stderr=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        wait_for(lambda: bool(_parts(tmp_path, "out.zrd")), proc, timeout=120)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert _parts(tmp_path, "out.zrd") == [] and not (tmp_path / "out.zrd").exists()
    assert b"Traceback" not in err, err


def test_a_later_run_removes_stale_parts_of_its_own_target_only(tmp_path: Path) -> None:
    """Without this, a part left by a run killed outright (SIGKILL, a power cut) stayed beside the target forever;
    a live run's part, or another target's, must survive."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid now names no process
    stale = tmp_path / f".out.zbd.{dead.pid}.abc123.part"
    live = tmp_path / ".out.zbd.1.def456.part"  # pid 1 always runs
    other = tmp_path / f".other.zbd.{dead.pid}.abc123.part"
    for p in (stale, live, other):
        p.write_bytes(b"x")
    src = tmp_path / "in.zbd"
    src.write_bytes(zbd.encode_zbd(ddsbind.Deal.random(1).owners()[None]).tobytes())
    res = cli("convert", src, tmp_path / "out.zbd")
    assert res.exit_code == 0, res.output
    assert not stale.exists() and live.exists() and other.exists()
