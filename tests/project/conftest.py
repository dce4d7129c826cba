"""Fixtures of the project's own tests: the documentation site, built once a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import built_once, python_m


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site built as `make docs` builds it (``--strict``: a broken link or an unreadable docstring fails it).

    Built once for the run, whichever workers the tests that read it run on.
    """

    def build(folder: Path) -> None:
        proc = python_m("mkdocs", "build", "--strict", "--site-dir", folder)
        assert proc.returncode == 0, proc.stderr[-3000:]

    return built_once(tmp_path_factory, "site", build)
