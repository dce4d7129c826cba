"""Checking records on disk: whole deals, trick counts 0..13, and (given a seed) the recipe's deals.

Shared by :func:`~ddsbind.database.verify` (which reports the first fault)
and a resumed :func:`~ddsbind.database.generate` (which cuts the file back
to just before it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind.database.recipe import zbd_deals
from ddsbind.deal import SEAT_LETTERS, STRAIN_LETTERS
from ddsbind.errors import DatabaseError
from ddsbind.formats import files, zbd, zdd

__all__ = ["FORMATS", "RECORD", "Fault", "database_format", "find_fault"]

#: The record formats a database is made in.
FORMATS = ("zrd", "zbd")
#: Bytes a record of each database format.
RECORD = {f: files.RECORD_SIZES[f] for f in FORMATS}
_DEAL = RECORD["zbd"]


def database_format(path: Path, what: str = "a database is") -> str:
    """The database format (``zrd`` or ``zbd``) ``path``'s extension names; ``DatabaseError`` otherwise."""
    fmt = files.guess_format(path)
    if fmt not in FORMATS:
        raise DatabaseError(f"{path}: {what} .zrd (deals and DD results) or .zbd (deals only)")
    return fmt


@dataclass(frozen=True)
class Fault:
    """The first bad record found: its index, the byte offset in the file, and why."""

    index: int
    offset: int
    why: str


def _table_fault(tables: NDArray[np.uint8]) -> tuple[int, str]:
    """The byte (0..9 of the result part) and the reason of the first result of one table that is not 0..13."""
    found = []
    for s, d in np.argwhere(tables > 13).tolist():
        mark = np.zeros((1, 5, 4), dtype=np.uint8)
        mark[0, s, d] = 15
        byte = int(np.argmax(zdd.nibbles_from_tables(mark)[0] != 0))
        found.append((byte, s, d))
    byte, s, d = min(found)
    v = int(tables[s, d])
    what = "unknown (15)" if v == zdd.UNKNOWN else f"{v}, not a trick count 0..13"
    return byte, f"DD result of declarer {SEAT_LETTERS[d]} in {STRAIN_LETTERS[s]} is {what}"


def find_fault(recs: NDArray[np.uint8], start: int, fmt: str, seed: int | None = None) -> Fault | None:
    """The first record of ``recs`` (records ``start ..`` of a ``fmt`` file) that is not sound, or None.

    A record is sound when its deal has 13 cards in each hand, each ZRD
    result is a trick count 0..13 (15, unknown, is a fault in a database),
    and, given ``seed``, its deal is the one the recipe makes for its index.
    Within one record the reasons are tried in that order.
    """
    size = RECORD[fmt]
    n = recs.shape[0]
    if n == 0:
        return None
    deals = recs[:, :_DEAL]
    torn = zbd.bad_deals(deals)
    bad = torn.copy()
    tables = None
    if fmt == "zrd":
        results = recs[:, _DEAL:]
        # A nibble over 13 is rare: one pass over the results in place decides, the records' tables
        # are decoded only when one is found.
        if zdd.any_over_13(results):
            tables = zdd.tables_from_nibbles(np.ascontiguousarray(results))
            bad |= (tables > 13).any(axis=(1, 2))
    diff = None
    if seed is not None:
        diff = deals != zbd_deals(seed, start, start + n)
        bad |= diff.any(axis=1)
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    at = (start + i) * size
    if torn[i]:
        return Fault(start + i, at, "deal is not 13 cards in each hand")
    if tables is not None and (tables[i] > 13).any():
        byte, why = _table_fault(tables[i])
        return Fault(start + i, at + _DEAL + byte, why)
    assert diff is not None
    return Fault(start + i, at + int(np.argmax(diff[i])), f"deal differs from deal {start + i} of seed {seed}")
