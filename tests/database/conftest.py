"""Fixtures of the database tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import make_ref


@pytest.fixture(scope="module")
def ref(tmp_path_factory) -> Path:
    """An uninterrupted single-process ZRD database of COUNT deals of SEED (made once a module)."""
    return make_ref(tmp_path_factory)
