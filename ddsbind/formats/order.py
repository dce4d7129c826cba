"""The one bridge between Pavlicek's orders and DDS's orders.

Pavlicek's formats number seats W=0, N=1, E=2, S=3 and list strains
NT, S, H, D, C (0..4).  DDS numbers hands N=0, E=1, S=2, W=3 and strains
S=0, H=1, D=2, C=3, NT=4.  So::

    dds_seat   = (pav_seat + 3) % 4        pav_seat   = (dds_seat + 1) % 4
    dds_strain = (pav_strain + 4) % 5      pav_strain = (dds_strain + 1) % 5

ZRJ and other bidding-order fields number suits and strains C=0, D=1, H=2,
S=3, NT=4 (clubs lowest; letters :data:`BID_STRAIN_LETTERS`)::

    dds_strain = 3 - bid (suits), NT stays 4     bid = 3 - dds_strain (the same map)

Text names seats by letter (:data:`ddsbind.deal.SEAT_LETTERS`, DDS order) and
strains by S H D C NT (:class:`ddsbind.deal.Strain`).

Board numbers fix dealer and vulnerability by the 16-board cycle, a rule of
the table rather than of a file order: :meth:`ddsbind.deal.Seat.dealer_of_board`
and :meth:`ddsbind.deal.Vulnerability.of_board` hold it.  :func:`board_dealer`
and :func:`board_vulnerability`, its former home here, still answer, with a
``DeprecationWarning``.

A Pavlicek result table is 20 values, value ``4 * pav_strain + pav_seat``
(the ZDD nibble order); a DDS table is ``(5, 4)``, ``[dds_strain, dds_seat]``
(``ddTableResults.resTable``).  Every codec converts through the function
pairs below and nowhere else.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.errors import FormatError

__all__ = [
    "BID_STRAIN_LETTERS",
    "TABLE_FROM_PAV",
    "bid_strains",
    "board_dealer",
    "board_vulnerability",
    "dds_seats",
    "dds_strains",
    "dds_strains_from_bid",
    "dds_tables",
    "pav_seats",
    "pav_seats_packed",
    "pav_strains",
    "pav_tables",
]


#: Bidding-order strain letters, index = bidding-order code (C=0 D=1 H=2 S=3 NT=4), as ZRJ's calls number them.
BID_STRAIN_LETTERS = "CDHSN"


def dds_strains_from_bid(bid: ArrayLike) -> NDArray[np.uint8]:
    """Bidding-order suits/strains (C=0 D=1 H=2 S=3 NT=4) to DDS strains (S=0 H=1 D=2 C=3 NT=4)."""
    a = np.asarray(bid, dtype=np.int64)
    return np.where(a == 4, 4, 3 - a).astype(np.uint8)


def bid_strains(dds: ArrayLike) -> NDArray[np.uint8]:
    """DDS strains (S=0 H=1 D=2 C=3 NT=4) to bidding order (C=0 D=1 H=2 S=3 NT=4); the inverse map."""
    return dds_strains_from_bid(dds)


def dds_seats(pav: ArrayLike) -> NDArray[np.uint8]:
    """Pavlicek seat codes (W=0 N=1 E=2 S=3) to DDS seats (N=0 E=1 S=2 W=3), ``uint8``."""
    a = np.asarray(pav, dtype=np.uint8)
    return (a + np.uint8(3)) & np.uint8(3)


def pav_seats(dds: ArrayLike) -> NDArray[np.uint8]:
    """DDS seats (N=0 E=1 S=2 W=3) to Pavlicek seat codes (W=0 N=1 E=2 S=3), ``uint8``."""
    a = np.asarray(dds, dtype=np.uint8)
    return (a + np.uint8(1)) & np.uint8(3)


def pav_seats_packed(words: NDArray[np.uint32]) -> NDArray[np.uint32]:
    """:func:`pav_seats` on four DDS seats packed one per byte in each ``uint32`` word.

    The same formula, ``(seat + 1) & 3``, applied to the four bytes at once (no
    carry crosses a byte, as seats are 0..3); the bulk ZBD encoder uses it.
    """
    return (words + np.uint32(0x01010101)) & np.uint32(0x03030303)


def dds_strains(pav: ArrayLike) -> NDArray[np.uint8]:
    """Pavlicek strains (NT=0 S=1 H=2 D=3 C=4) to DDS strains (S=0 H=1 D=2 C=3 NT=4)."""
    a = np.asarray(pav, dtype=np.int64)
    return ((a + 4) % 5).astype(np.uint8)


def pav_strains(dds: ArrayLike) -> NDArray[np.uint8]:
    """DDS strains (S=0 H=1 D=2 C=3 NT=4) to Pavlicek strains (NT=0 S=1 H=2 D=3 C=4)."""
    a = np.asarray(dds, dtype=np.int64)
    return ((a + 1) % 5).astype(np.uint8)


def _table_from_pav() -> NDArray[np.intp]:
    # idx[dds_strain, dds_seat] = position of that result among Pavlicek's 20.
    idx = np.empty((5, 4), dtype=np.intp)
    ps, pp = np.meshgrid(np.arange(5), np.arange(4), indexing="ij")
    idx[dds_strains(ps), dds_seats(pp)] = 4 * ps + pp
    idx.setflags(write=False)
    return idx


#: ``TABLE_FROM_PAV[s, h]``: index into Pavlicek's 20 results of DDS strain s, hand h.
TABLE_FROM_PAV = _table_from_pav()
_PAV_FROM_TABLE = np.argsort(TABLE_FROM_PAV.ravel()).astype(np.intp)


def dds_tables(pav: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Pavlicek-order results ``(..., 20)`` to DDS tables ``(..., 5, 4)``.

    Parameters
    ----------
    pav : array_like, shape (..., 20)
        Value ``4 * strain + seat``, strains NT S H D C, seats W N E S.
    out : ndarray, shape (..., 5, 4), optional
        Where to write the result (same dtype as ``pav``).

    Returns
    -------
    ndarray, shape (..., 5, 4)
        ``[strain, hand]`` with strains S H D C NT and hands N E S W; the
        dtype of ``pav`` is kept.
    """
    a = np.asarray(pav)
    if a.shape[-1:] != (20,):
        raise FormatError(f"Pavlicek results must end in 20 values, got shape {a.shape}")
    flat = None if out is None else out.reshape((*a.shape[:-1], 20))
    res = np.take(a, TABLE_FROM_PAV.ravel(), axis=-1, out=flat)
    return res.reshape((*a.shape[:-1], 5, 4))


def pav_tables(tables: ArrayLike, out: NDArray | None = None) -> NDArray:
    """DDS tables ``(..., 5, 4)`` to Pavlicek-order results ``(..., 20)``.

    The inverse of :func:`dds_tables`: value ``4 * strain + seat`` with
    strains NT S H D C and seats W N E S.
    """
    t = np.asarray(tables)
    if t.shape[-2:] != (5, 4):
        raise FormatError(f"DDS tables must end in (5 strains, 4 hands), got shape {t.shape}")
    flat = t.reshape((*t.shape[:-2], 20))
    return np.take(flat, _PAV_FROM_TABLE, axis=-1, out=out)


def board_dealer(board: int) -> Seat:
    """Deprecated: :meth:`Seat.dealer_of_board <ddsbind.deal.Seat.dealer_of_board>` (the dealer of board ``board``)."""
    warnings.warn("board_dealer(n) is now ddsbind.Seat.dealer_of_board(n)", DeprecationWarning, stacklevel=2)
    return Seat.dealer_of_board(board)


def board_vulnerability(board: int) -> Vulnerability:
    """Deprecated: :meth:`Vulnerability.of_board <ddsbind.deal.Vulnerability.of_board>` (board ``board``'s)."""
    warnings.warn("board_vulnerability(n) is now ddsbind.Vulnerability.of_board(n)", DeprecationWarning, stacklevel=2)
    return Vulnerability.of_board(board)
