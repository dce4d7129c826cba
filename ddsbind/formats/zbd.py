"""ZBD: a full deal in 13 bytes (Pavlicek).

Byte-level specification
------------------------
* 13 bytes, 104 bits, little-endian bit numbering (bit 0 = least significant
  bit of byte 0, bit 8 = least significant bit of byte 1, ...).
* Card ``i`` (``i = 13 * suit + 14 - rank``: SA=0, SK=1, ..., S2=12, HA=13,
  ..., C2=51) occupies bits ``2i .. 2i+1``: byte ``i // 4``, bits
  ``2 * (i % 4)``.  Byte 0 holds SA (bits 0-1), SK, SQ, SJ (bits 6-7); byte 12
  holds C5, C4, C3, C2.
* The 2-bit value is Pavlicek's seat code: 0 West, 1 North, 2 East, 3 South.
  In memory ddsbind uses DDS seats (0 N, 1 E, 2 S, 3 W); the conversion is
  :mod:`ddsbind.formats.order`.
* A record is a deal only when every hand holds exactly 13 cards; anything
  else is rejected with its record index (``FormatError``) unless the caller
  asks ``on_error="skip"`` (drop it) or ``"raw"`` (decode it as it is).
* List terminator: a record whose first 4 bytes are zero (the first 16 cards
  all West) can never be a deal; readers of files stop there
  (:mod:`ddsbind.formats.files`).  The codec functions here decode every
  record they are given.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import owners_to_masks
from ddsbind.formats import _dtypes, order
from ddsbind.formats._common import (
    OnError,
    checked_records,
    deal_words,
    full_deals_packed,
    not_full,
    pack_seats,
)

__all__ = [
    "RECORD_SIZE",
    "bad_deals",
    "check_records",
    "deal_words",
    "decode_zbd",
    "encode_zbd",
    "owners_from_zbd",
    "zbd_from_owners",
]

RECORD_SIZE = _dtypes.ZBD.itemsize
#: Why :func:`check_records` flags a record.
WHY = "deal is not 13 cards in each hand"


def _luts() -> tuple[NDArray[np.uint32], NDArray[np.uint8], NDArray[np.uint8]]:
    b = np.arange(256, dtype=np.uint8)
    codes = (b[:, None] >> np.array([0, 2, 4, 6], dtype=np.uint8)) & np.uint8(3)  # (256, 4) Pavlicek
    seats = order.dds_seats(codes)  # (256, 4) DDS seats of the byte's 4 cards
    # Packed little-endian: byte k of the word = DDS seat of card k of the byte.
    owners = (seats.astype(np.uint32) << np.array([0, 8, 16, 24], dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
    # The same four cards as a byte of DDS seats, and back.
    dds_byte = (seats << np.array([0, 2, 4, 6], dtype=np.uint8)).sum(axis=1, dtype=np.uint8)
    pav_byte = np.empty(256, dtype=np.uint8)
    pav_byte[dds_byte] = b
    return owners.astype("<u4"), dds_byte, pav_byte


_OWNER_LUT, _DDS_BYTE, _PAV_BYTE = _luts()


def owners_from_zbd(recs: NDArray[np.uint8], out: NDArray[np.int8] | None = None) -> NDArray[np.int8]:
    """Owner arrays ``(N, 52)`` int8 (DDS seats) of ``(N, 13)`` ZBD bytes; no validation."""
    n = recs.shape[0]
    packed = _OWNER_LUT[recs]  # (N, 13) '<u4', bytes = owners of 4 cards
    res = packed.view(np.int8).reshape(n, 52)
    if out is None:
        return res
    out[...] = res
    return out


def bad_deals(recs: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True for ``(N, 13)`` ZBD records that do not give each hand 13 cards."""
    return not_full(recs)


def check_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    """The validation of ZBD records ``(N, 13)``: bad-record flags and why the first one is bad."""
    return bad_deals(recs), WHY


def zbd_from_owners(owners: NDArray[np.integer], out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """Pack owner arrays ``(N, 52)`` (DDS seats 0..3) into ``(N, 13)`` ZBD bytes; no validation."""
    return _PAV_BYTE.take(pack_seats(np.asarray(owners)), out=out)


def zbd_from_seats(seats: NDArray[np.uint8], out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """ZBD bytes of :func:`~ddsbind.formats._common.pack_seats` bytes (DDS seats to Pavlicek's codes)."""
    return _PAV_BYTE.take(seats, out=out)


def full_zbd(deals: ArrayLike, out: NDArray[np.uint8] | None = None, base: int = 0) -> NDArray[np.uint8]:
    """ZBD bytes ``(N, 13)`` of full deals (owners or masks); ``FormatError`` names the first that is not."""
    return _PAV_BYTE.take(full_deals_packed(deals, base)[1], out=out)


def decode_zbd(
    data: ArrayLike | bytes,
    *,
    masks: bool = False,
    on_error: OnError = "raise",
    base: int = 0,
) -> NDArray:
    """Decode ZBD records.

    Parameters
    ----------
    data : bytes or uint8 array
        ``N * 13`` bytes, or an ``(N, 13)`` uint8 array (e.g. a memmap).
    masks : bool
        Return remainCards masks ``(N, 4, 4)`` uint32 (hands N E S W, suits
        S H D C, bit ``rank``) instead of owner arrays.
    on_error : {"raise", "skip", "raw"}
        What to do with a record that is not a 13/13/13/13 deal.
    base : int
        Index of the first record in its file, for error messages.

    Returns
    -------
    ndarray
        ``(N, 52)`` int8 owner arrays (DDS seat of card SA..C2), or masks.

    Raises
    ------
    FormatError
        Bad length, or (``on_error="raise"``) a record that is not a deal,
        with its index and byte offset.

    Examples
    --------
    >>> decode_zbd(bytes.fromhex("72527a0ae17ae4f952e041fc7c"))[0, :4]
    array([1, 3, 2, 0], dtype=int8)
    """
    recs = checked_records(data, RECORD_SIZE, "ZBD", check_records, on_error, base)
    owners = owners_from_zbd(recs)
    return owners_to_masks(owners) if masks else owners


def encode_zbd(deals: ArrayLike, out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """Encode full deals as ZBD records.

    Parameters
    ----------
    deals : array_like
        Owner arrays ``(N, 52)`` (DDS seats 0..3) or remainCards masks
        ``(N, 4, 4)``; every hand must hold 13 cards.
    out : ndarray, shape (N, 13), uint8, optional

    Returns
    -------
    ndarray, shape (N, 13), uint8
        ``.tobytes()`` gives the file bytes.
    """
    return full_zbd(deals, out=out)
