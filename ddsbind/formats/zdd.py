"""ZDD: a double-dummy table in 10 bytes (Pavlicek).

Byte-level specification
------------------------
* 10 bytes, 20 nibbles; nibble ``n`` is bits ``4n .. 4n+3`` (little-endian
  bit numbering: nibble 0 is the low nibble of byte 0, nibble 1 its high
  nibble).
* ``n = 4 * strain + seat`` with Pavlicek's strains NT=0, S=1, H=2, D=3,
  C=4 and seats W=0, N=1, E=2, S=3.
* Value: the tricks that seat takes as declarer in that strain, 0..13;
  15 = unknown; 14 is invalid (rejected with the record index unless
  ``on_error="skip"`` or ``"raw"``); 15 is kept as 15.
* In memory ddsbind holds tables in DDS order: ``(N, 5, 4)`` uint8,
  ``[strain, hand]``, strains S H D C NT, hands N E S W (``resTable``); the
  conversion is :mod:`ddsbind.formats.order`.
* List terminator (files): a record whose first 4 bytes are zero (our
  choice; Pavlicek's pages say 16 bits on one page and 32 on another, and
  both are impossible as results: NT and spades all zero).

Worked example: record 0 of Pavlicek's library, ``49 49 49 49 2b 2a 39 39
67 67``, reads NT W9 N4 E9 S4; S W9 N4 E9 S4; H W11 N2 E10 S2; D W9 N3 E9
S3; C W7 N6 E7 S6.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, order
from ddsbind.formats._common import OnError, checked_records
from ddsbind.formats._dtypes import INVALID, UNKNOWN

__all__ = [
    "INVALID",
    "RECORD_SIZE",
    "UNKNOWN",
    "any_over_13",
    "bad_tables",
    "check_records",
    "decode_zdd",
    "encode_zdd",
    "nibbles_from_tables",
    "result_nibble",
    "tables_from_nibbles",
]

RECORD_SIZE = _dtypes.ZDD.itemsize
#: Why :func:`check_records` flags a record.
WHY = "a result nibble is 14"

_b = np.arange(256, dtype=np.uint16)
#: byte -> '<u2' whose two bytes are the low and the high nibble.
_SPLIT_LUT = ((_b & 15) | ((_b >> 4) << 8)).astype("<u2")
#: byte -> True if either nibble is 14.
_BAD_LUT = ((_b & 15) == INVALID) | ((_b >> 4) == INVALID)
del _b
_ONE, _TWO, _THREE = np.uint64(1), np.uint64(2), np.uint64(3)
_NIBBLE_LOW_BITS = np.uint64(0x1111111111111111)


def tables_from_nibbles(recs: NDArray[np.uint8], out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """``(N, 10)`` ZDD bytes to ``(N, 5, 4)`` uint8 DDS tables; no validation."""
    nib = _SPLIT_LUT[recs].view(np.uint8)  # (N, 20) in Pavlicek order
    return order.dds_tables(nib, out=out)


def result_nibble(strain: int, seat: int) -> tuple[int, int]:
    """Where one result lives in a ZDD record: ``(byte, shift)``, the result being ``(byte >> shift) & 15``.

    ``strain`` and ``seat`` are DDS's (strains S=0 H D C NT=4, declarers
    N=0 E S W=3), as in :func:`tables_from_nibbles`'s tables.
    """
    at = int(order.TABLE_FROM_PAV[strain, seat])
    return at // 2, 4 * (at % 2)


def nibbles_from_tables(tables: NDArray[np.integer], out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """``(N, 5, 4)`` DDS tables (0..15) to ``(N, 10)`` ZDD bytes; no validation."""
    t = np.asarray(tables)
    pav = order.pav_tables(t.astype(np.uint8, copy=False))  # (N, 20)
    lo = pav[:, 0::2]
    hi = pav[:, 1::2]
    if out is None:
        out = np.empty((pav.shape[0], RECORD_SIZE), dtype=np.uint8)
    np.left_shift(hi, 4, out=out)
    np.bitwise_or(out, lo, out=out)
    return out


def bad_tables(recs: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True for ``(N, 10)`` ZDD records holding a nibble 14."""
    flags = _BAD_LUT[recs]
    # Bad records are rare: one contiguous pass decides, the per-row reduction only runs when needed.
    if not flags.any():
        return np.zeros(recs.shape[0], dtype=bool)
    return flags.any(axis=1)


def any_over_13(recs: NDArray[np.uint8]) -> bool:
    """Whether any result nibble of ``(N, 10)`` ZDD bytes is 14 or 15, not a trick count; read in place.

    A nibble over 13 has its three high bits set: each record is read as two
    overlapping little-endian words (bytes 0..7 and 2..9, whatever the rows'
    stride) and those bits are tested a word at a time.
    """
    if recs.ndim != 2 or recs.shape[1] != RECORD_SIZE or recs.dtype != np.uint8:
        raise FormatError(f"ZDD records are (N, {RECORD_SIZE}) uint8, got {recs.dtype} {recs.shape}")
    if recs.strides[1] != 1:
        recs = np.ascontiguousarray(recs)
    found = np.zeros(recs.shape[0], dtype=np.uint64)
    for first in (0, RECORD_SIZE - 8):
        w = recs[:, first : first + 8].view("<u8")[:, 0]
        found |= (w >> _ONE) & (w >> _TWO) & (w >> _THREE)
    return bool((found & _NIBBLE_LOW_BITS).any())


def check_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    """The validation of ZDD records ``(N, 10)``: bad-record flags and why the first one is bad."""
    return bad_tables(recs), WHY


def as_tables(tables: ArrayLike) -> NDArray[np.uint8]:
    """DDS tables ``(N, 5, 4)`` uint8 from any array of that shape, values checked (0..13 or 15).

    Public in the package: every encoder of tables (ZDD, ZRD) checks them here.
    """
    t = np.asarray(tables)
    if t.shape[-2:] != (5, 4):
        raise FormatError(f"tables must be (N, 5, 4) in DDS order, got shape {t.shape}")
    t = t.reshape(-1, 5, 4)
    if t.size and (t.min() < 0 or t.max() > 15 or np.any(t == INVALID)):
        raise FormatError("table values must be tricks 0..13 or 15 (unknown)")
    return t.astype(np.uint8, copy=False)


def decode_zdd(data: ArrayLike | bytes, *, on_error: OnError = "raise", base: int = 0) -> NDArray[np.uint8]:
    """Decode ZDD records to DDS tables.

    Parameters
    ----------
    data : bytes or uint8 array
        ``N * 10`` bytes or an ``(N, 10)`` uint8 array.
    on_error : {"raise", "skip", "raw"}
        What to do with a record holding a nibble 14.
    base : int
        Index of the first record in its file, for error messages.

    Returns
    -------
    ndarray, shape (N, 5, 4), uint8
        ``[strain, hand]``, strains S H D C NT, hands N E S W; 15 = unknown.

    Examples
    --------
    >>> decode_zdd(bytes.fromhex("494949492b2a39396767"))[0, 4]
    array([4, 9, 4, 9], dtype=uint8)
    """
    recs = checked_records(data, RECORD_SIZE, "ZDD", check_records, on_error, base)
    return tables_from_nibbles(recs)


def encode_zdd(tables: ArrayLike, out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """Encode DDS tables ``(N, 5, 4)`` (0..13, 15 = unknown) as ``(N, 10)`` ZDD bytes."""
    return nibbles_from_tables(as_tables(tables), out=out)
