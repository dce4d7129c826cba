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
  :mod:`ddsbind.formats._order`.
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

from ddsbind.deal import masks_to_owners, owners_to_masks
from ddsbind.formats import _dtypes, _order
from ddsbind.formats._common import OnError, apply_on_error, check_on_error, records

__all__ = ["RECORD_SIZE", "bad_deals", "decode_zbd", "encode_zbd", "owners_from_zbd", "zbd_from_owners"]

RECORD_SIZE = _dtypes.ZBD.itemsize


def _luts() -> tuple[NDArray[np.uint32], NDArray[np.uint32]]:
    b = np.arange(256, dtype=np.uint8)
    codes = (b[:, None] >> np.array([0, 2, 4, 6], dtype=np.uint8)) & np.uint8(3)  # (256, 4) Pavlicek
    seats = _order.dds_seats(codes).astype(np.uint32)  # (256, 4) DDS seats of the byte's 4 cards
    # Packed little-endian: byte k of the word = DDS seat of card k of the byte.
    owners = (seats << np.array([0, 8, 16, 24], dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
    # Packed little-endian: byte h of the word = how many of the 4 cards DDS hand h holds.
    counts = (
        (seats[:, :, None] == np.arange(4)).sum(axis=1).astype(np.uint32) << np.array([0, 8, 16, 24], dtype=np.uint32)
    ).sum(axis=1, dtype=np.uint32)
    return owners.astype("<u4"), counts.astype("<u4")


_OWNER_LUT, _COUNT_LUT = _luts()
_FULL_COUNTS = np.uint32(0x0D0D0D0D)


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
    counts = _COUNT_LUT[recs].sum(axis=1, dtype=np.uint32)
    return counts != _FULL_COUNTS


def zbd_from_owners(owners: NDArray[np.integer], out: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """Pack owner arrays ``(N, 52)`` (DDS seats 0..3) into ``(N, 13)`` ZBD bytes; no validation."""
    o = np.ascontiguousarray(owners, dtype=np.int8)
    n = o.shape[0]
    seats = o.view(np.uint8).reshape(n, 13, 4).view("<u4")[..., 0]  # (N, 13): seat of card k in byte k
    v = _order.pav_seats_packed(seats)
    packed = (v | (v >> 6) | (v >> 12) | (v >> 18)) & np.uint32(0xFF)
    if out is None:
        return packed.astype(np.uint8)
    np.copyto(out, packed, casting="unsafe")
    return out


def _as_owners(deals: ArrayLike) -> NDArray[np.int8]:
    d = np.asarray(deals)
    if d.ndim >= 2 and d.shape[-2:] == (4, 4):
        d = masks_to_owners(d)
    if d.shape[-1:] != (52,):
        raise ValueError(f"deals must be owner arrays (N, 52) or masks (N, 4, 4), got shape {d.shape}")
    d = d.reshape(-1, 52)
    if d.size and (d.min() < 0 or d.max() > 3):
        raise ValueError("ZBD holds full deals: every owner must be a DDS seat 0..3 (no absent cards)")
    return d


def check_packed(packed: NDArray[np.uint8]) -> None:
    """Raise ``ValueError`` unless each packed ZBD row gives every hand exactly 13 cards."""
    bad = bad_deals(packed)
    if bad.any():
        i = int(np.argmax(bad))
        c = [int(x) for x in _COUNT_LUT[packed[i]].view(np.uint8).reshape(13, 4).sum(axis=0)]
        raise ValueError(f"deal {i} is not a full deal: N={c[0]} E={c[1]} S={c[2]} W={c[3]} cards (13 each needed)")


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
    check_on_error(on_error)
    recs = records(data, RECORD_SIZE, "ZBD")
    keep = apply_on_error(bad_deals(recs), on_error, RECORD_SIZE, base, "ZBD", "not 13 cards in each hand")
    if keep is not None:
        recs = recs[keep]
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
    packed = zbd_from_owners(_as_owners(deals), out=out)
    check_packed(packed)
    return packed
