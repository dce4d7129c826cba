"""The 16-byte record: a deal and one hand's double-dummy makes (Pavlicek).

Byte-level specification
------------------------
* Bytes 0-12: the deal as ZBD (card ``i`` at bits ``2i..2i+1``, seat codes
  W=0 N=1 E=2 S=3).
* Bits 104-105 (byte 13, bits 0-1): the hand, as a seat code W=0 N=1 E=2 S=3.
* Bits 106-107 (byte 13, bits 2-3): unused, zero; a record with either bit
  set is rejected as malformed (``on_error="raw"`` keeps it and drops the
  bits).
* Five nibbles from bit 108: the tricks that hand makes as declarer in NT
  (byte 13 high nibble), S (byte 14 low), H (byte 14 high), D (byte 15 low),
  C (byte 15 high).  Pavlicek names the NT nibble only; the order after it
  is our reading, by analogy with ZDD.  0..13, 15 unknown, 14 invalid.
* List terminator (files): first 4 bytes zero.

Worked example: record 0 of the ZRD library with hand North ends
``41 24 63`` (N makes NT 4, S 4, H 2, D 3, C 6).

In memory: owners ``(N, 52)`` int8 (DDS seats), ``hand`` ``(N,)`` uint8 as
a DDS seat (N=0 E=1 S=2 W=3), ``makes`` ``(N, 5)`` uint8 in DDS strain order
S H D C NT.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, order, zbd
from ddsbind.formats._common import OnError, checked_records, full_deals_packed

__all__ = ["RECORD_SIZE", "bad_records", "check_records", "decode_hand_makes", "encode_hand_makes", "tables_from_makes"]

RECORD_SIZE = _dtypes.HAND_MAKES.itemsize
# DDS strain s is Pavlicek strain _PAV_OF_DDS[s]; nibble k (k = Pavlicek strain) of the 5.
_DDS_OF_PAV = order.dds_strains(np.arange(5)).astype(np.intp)
_PAV_OF_DDS = order.pav_strains(np.arange(5)).astype(np.intp)


def _nibbles(recs: NDArray[np.uint8]) -> NDArray[np.uint8]:
    tail = recs[:, 13:16].astype(np.uint8)
    nib = np.empty((recs.shape[0], 6), dtype=np.uint8)
    nib[:, 0::2] = tail & 15
    nib[:, 1::2] = tail >> 4
    return nib  # [hand+unused, NT, S, H, D, C]


def bad_records(recs: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True for ``(N, 16)`` records with a bad deal, unused bits set, or a nibble 14."""
    nib = _nibbles(recs)
    return zbd.bad_deals(recs[:, :13]) | ((nib[:, 0] & 12) != 0) | (nib[:, 1:] == 14).any(axis=1)


def check_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    """The validation of 16-byte records: bad-record flags and why a record is bad."""
    return bad_records(recs), "deal not 13 cards each, unused bits 106-107 set, or a makes nibble 14"


def decode_hand_makes(
    data: ArrayLike | bytes, *, on_error: OnError = "raise", base: int = 0
) -> tuple[NDArray[np.int8], NDArray[np.uint8], NDArray[np.uint8]]:
    """Decode 16-byte hand/makes records.

    Parameters
    ----------
    data : bytes or uint8 array
        ``N * 16`` bytes or ``(N, 16)`` uint8.
    on_error : {"raise", "skip", "raw"}
    base : int
        Index of the first record in its file, for error messages.

    Returns
    -------
    owners : ndarray, shape (N, 52), int8
        DDS seat of each card SA..C2.
    hand : ndarray, shape (N,), uint8
        The record's hand as a DDS seat (N=0 E=1 S=2 W=3).
    makes : ndarray, shape (N, 5), uint8
        Tricks that hand makes as declarer, DDS strain order S H D C NT;
        15 = unknown.
    """
    recs = checked_records(data, RECORD_SIZE, "hand/makes", check_records, on_error, base)
    nib = _nibbles(recs)
    owners = zbd.owners_from_zbd(recs[:, :13])
    hand = order.dds_seats(nib[:, 0] & 3)
    makes = nib[:, 1:][:, _PAV_OF_DDS]
    return owners, hand, makes


def encode_hand_makes(deals: ArrayLike, hand: ArrayLike, makes: ArrayLike | None = None) -> NDArray[np.uint8]:
    """Encode deals, hands and makes as ``(N, 16)`` records.

    Parameters
    ----------
    deals : array_like
        Owners ``(N, 52)`` (DDS seats) or masks ``(N, 4, 4)``; full deals.
    hand : array_like, shape (N,) or scalar
        DDS seat (N=0 E=1 S=2 W=3) of the hand whose makes are stored.
    makes : array_like, shape (N, 5), optional
        DDS strain order S H D C NT, 0..13 or 15; None writes 15 (unknown).
    """
    _, seats = full_deals_packed(deals)
    n = seats.shape[0]
    out = np.zeros((n, RECORD_SIZE), dtype=np.uint8)
    zbd.zbd_from_seats(seats, out=out[:, :13])
    h = np.broadcast_to(np.asarray(hand), (n,))
    if h.size and (h.min() < 0 or h.max() > 3):
        raise FormatError("hand must be a DDS seat 0..3 (N E S W)")
    m = np.full((n, 5), _dtypes.UNKNOWN, dtype=np.uint8) if makes is None else np.asarray(makes).reshape(n, 5)
    if m.size and (m.min() < 0 or m.max() > 15 or np.any(m == 14)):
        raise FormatError("makes must be tricks 0..13 or 15 (unknown)")
    pav = m.astype(np.uint8)[:, _DDS_OF_PAV]  # NT S H D C
    nib = np.empty((n, 6), dtype=np.uint8)
    nib[:, 0] = order.pav_seats(h)
    nib[:, 1:] = pav
    out[:, 13:16] = nib[:, 0::2] | (nib[:, 1::2] << 4)
    return out


def tables_from_makes(hand: NDArray[np.uint8], makes: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """DDS tables ``(N, 5, 4)``: the hand's column from ``makes``, every other value 15."""
    n = hand.shape[0]
    t = np.full((n, 5, 4), _dtypes.UNKNOWN, dtype=np.uint8)
    t[np.arange(n), :, hand.astype(np.intp)] = makes
    return t
