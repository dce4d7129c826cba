"""ZRD: a deal and its double-dummy table in 23 bytes (Pavlicek).

Byte-level specification
------------------------
* Bytes 0-12: the deal as ZBD (:mod:`ddsbind.formats.zbd`): card ``i`` (SA=0
  .. C2=51) at bits ``2i .. 2i+1``, seat codes W=0 N=1 E=2 S=3.
* Bytes 13-22: the table as ZDD (:mod:`ddsbind.formats.zdd`): nibble
  ``4 * strain + seat`` from bit 104, strains NT S H D C, seats W N E S,
  0..13 tricks, 15 unknown, 14 invalid.
* Little-endian throughout; records are packed back to back with no header.
  Pavlicek's library of 10,485,760 deals is 241,172,480 bytes.
* List terminator (files): first 4 bytes zero.
* Validation: a deal that is not 13/13/13/13 or a nibble 14 is rejected with
  the record index unless ``on_error="skip"`` or ``"raw"``.

In memory: owners ``(N, 52)`` int8 in DDS seats (or masks ``(N, 4, 4)``
uint32) and tables ``(N, 5, 4)`` uint8 in DDS order (strains S H D C NT,
hands N E S W).

Worked example, record 0::

    72 52 7a 0a e1 7a e4 f9 52 e0 41 fc 7c | 49 49 49 49 2b 2a 39 39 67 67
    N J873.J42.Q65.KT2  E AT652.A976.AJ82.-  S Q4.85.KT9.A87643  W K9.KQT3.743.QJ95
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import owners_to_masks
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, zbd, zdd
from ddsbind.formats._common import OnError, checked_records, full_deals_packed

__all__ = ["RECORD_SIZE", "bad_records", "check_records", "decode_zrd", "encode_zrd"]

RECORD_SIZE = _dtypes.ZRD.itemsize


def bad_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """``(bad deal, bad table)`` flags of ``(N, 23)`` ZRD records."""
    return zbd.bad_deals(recs[:, :13]), zdd.bad_tables(recs[:, 13:])


def check_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    """The validation of ZRD records ``(N, 23)``: bad-record flags and why the first one is bad."""
    bad_deal, bad_table = bad_records(recs)
    bad = bad_deal | bad_table
    if bad.any() and not bad_deal[int(np.argmax(bad))]:
        return bad, zdd.WHY
    return bad, zbd.WHY


def decode_zrd(
    data: ArrayLike | bytes,
    *,
    masks: bool = False,
    on_error: OnError = "raise",
    base: int = 0,
) -> tuple[NDArray, NDArray[np.uint8]]:
    """Decode ZRD records into deals and DDS tables.

    Parameters
    ----------
    data : bytes or uint8 array
        ``N * 23`` bytes, or an ``(N, 23)`` uint8 array (e.g. a memmap slice).
    masks : bool
        Give remainCards masks ``(N, 4, 4)`` uint32 instead of owner arrays.
    on_error : {"raise", "skip", "raw"}
        For a record whose deal is not 13/13/13/13 or whose table holds a 14.
    base : int
        Index of the first record in its file, for error messages.

    Returns
    -------
    deals : ndarray
        ``(N, 52)`` int8 owners (DDS seat of SA..C2) or ``(N, 4, 4)`` masks.
    tables : ndarray, shape (N, 5, 4), uint8
        Strains S H D C NT, hands N E S W, 15 = unknown.

    Examples
    --------
    >>> rec = bytes.fromhex("72527a0ae17ae4f952e041fc7c494949492b2a39396767")
    >>> owners, tables = decode_zrd(rec)
    >>> tables[0, 0].tolist()   # spades by N E S W
    [4, 9, 4, 9]
    """
    recs = checked_records(data, RECORD_SIZE, "ZRD", check_records, on_error, base)
    owners = zbd.owners_from_zbd(recs[:, :13])
    tables = zdd.tables_from_nibbles(recs[:, 13:])
    return (owners_to_masks(owners) if masks else owners), tables


def encode_zrd(
    deals: ArrayLike, tables: ArrayLike | None = None, out: NDArray[np.uint8] | None = None
) -> NDArray[np.uint8]:
    """Encode deals and DDS tables as ``(N, 23)`` ZRD records.

    Parameters
    ----------
    deals : array_like
        Owner arrays ``(N, 52)`` (DDS seats) or masks ``(N, 4, 4)``; full deals.
    tables : array_like, shape (N, 5, 4), optional
        DDS order, 0..13 or 15 (unknown); None writes every result as 15.
    out : ndarray, shape (N, 23), uint8, optional

    Returns
    -------
    ndarray, shape (N, 23), uint8
    """
    _, seats = full_deals_packed(deals)
    n = seats.shape[0]
    if out is None:
        out = np.empty((n, RECORD_SIZE), dtype=np.uint8)
    zbd.zbd_from_seats(seats, out=out[:, :13])
    if tables is None:
        out[:, 13:] = 0xFF
    else:
        t = zdd.as_tables(tables)
        if t.shape[0] != n:
            raise FormatError(f"{n} deals but {t.shape[0]} tables")
        zdd.nibbles_from_tables(t, out=out[:, 13:])
    return out
