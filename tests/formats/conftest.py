"""Shared fixtures for the format tests: the spec's records and DDS's reference hands."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.formats.ddsref import read_reference
from tests.conftest import reference_file

# Provenance: specs/formats.md, "ZRD" (two records of Pavlicek's library).
RECORD0 = bytes.fromhex("72527a0ae17ae4f952e041fc7c494949492b2a39396767")
RECORD1 = bytes.fromhex("affe56236997458c20707d20be3737a3a37575393985 85".replace(" ", ""))
DEAL0 = "N:J873.J42.Q65.KT2 AT652.A976.AJ82.- Q4.85.KT9.A87643 K9.KQT3.743.QJ95"
DEAL1 = "N:543.J86532.K.AKT QJT6.KT94.96.752 AK9872.7.J2.QJ43 -.AQ.AQT87543.986"
# DDS resTable of record 0 (rows S H D C NT, columns N E S W), from the spec.
TABLE0 = np.array([[4, 9, 4, 9], [2, 10, 2, 11], [3, 9, 3, 9], [6, 7, 6, 7], [4, 9, 4, 9]])


@pytest.fixture(scope="session")
def reference() -> tuple[list[Deal], np.ndarray]:
    """The 1000 DDS reference deals and their DDS-order tables."""
    hands = read_reference(reference_file("list1000.txt"))
    return [h.deal for h in hands], np.stack([h.table for h in hands]).astype(np.uint8)
