"""Shared fixtures for the format tests: DDS's reference hands (the spec's worked records are in tests/support.py)."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.formats.ddsref import read_reference
from tests.support import reference_file


@pytest.fixture(scope="session")
def reference() -> tuple[list[Deal], np.ndarray]:
    """The 1000 DDS reference deals and their DDS-order tables."""
    hands = read_reference(reference_file("list1000.txt"))
    return [h.deal for h in hands], np.stack([h.table for h in hands]).astype(np.uint8)
