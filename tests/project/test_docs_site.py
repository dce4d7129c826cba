"""The documentation site builds from the checkout with no warning (mkdocs build --strict), as `make docs` builds it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import REPO, child_env


@pytest.mark.slow
def test_site_builds_strict(tmp_path):
    """A broken link, a page left out of the nav or a docstring the API reference cannot read fails the build."""
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    site = tmp_path / "site"
    api = (site / "reference" / "api" / "index.html").read_text()
    for name in ("ddsbind.dd_table", "ddsbind.SolverPool", "ddsbind.Deal.from_pbn", "ddsbind.prove"):
        assert f'id="{name}"' in api, name  # the whole public API, from the docstrings
    cli = (site / "reference" / "cli" / "index.html").read_text()
    for command in ("generate", "dealer", "convert", "analyse", "prove", "cribbage"):
        assert f"ddsbind {command}" in cli, command  # every command, from click
    formats = (site / "reference" / "file-formats" / "index.html").read_text()
    assert "TTTTDDII" in formats  # the ZRJ byte layout, from zrj's docstring
