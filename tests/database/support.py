"""What the database tests share: the reference database, copying one, waiting on a run."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ddsbind import database as db

COUNT = 24
SEED = 11
REC = 23


def make_ref(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted single-process ZRD database of COUNT deals of SEED (a module fixture makes it once)."""
    out = tmp_path_factory.mktemp("ref") / "ref.zrd"
    db.generate(out, COUNT, SEED)
    return out


def copy_db(src: Path, dst: Path) -> Path:
    """A copy of database ``src`` and its manifest as ``dst``."""
    dst.write_bytes(src.read_bytes())
    db.manifest_path(dst).write_text(db.manifest_path(src).read_text())
    return dst


def wait_for(pred: Callable[[], bool], proc: subprocess.Popen[bytes] | None = None, timeout: float = 300.0) -> None:
    """Poll ``pred`` until true; fail when ``proc`` exits first, or after ``timeout`` seconds (not a speed bound)."""
    end = time.monotonic() + timeout
    while not pred():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"generate exited ({proc.returncode}) before the condition held")
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)
