"""Deal numbers: Pavlicek's bijection between deals and 0 .. D-1.

Specification
-------------
``D = 52! / (13!)**4 = 53,644,737,765,488,792,839,237,440,000`` (below
``2**96``).  A deal's number is the lexicographic rank of its 52-letter
owner sequence (cards SA, SK, ..., S2, HA, ..., C2; letters ordered
N < E < S < W) among all sequences with 13 of each letter.

Number to deal (Pavlicek's description): vacant counts ``n_N = n_E = n_S =
n_W = 13``, ``c = 52``, ``K = D``.  For each card in order SA..C2 and each
seat ``h`` in N, E, S, W: ``X = K * n_h / c`` (always exact); if ``I < X`` (or
``h`` is W) the card goes to ``h``, ``n_h -= 1``, ``K = X`` and the next card
follows; otherwise ``I -= X``.  Then ``c -= 1``.  Deal to number runs the
same loop, adding ``X`` for each seat tried before the card's owner.

``X`` is the multinomial coefficient of the vacant counts after the card is
placed, so the number is a sum of one table entry per card:
``OFF[counts, owner] = sum of multinomial(counts - e_h) for h before owner``.
The bulk functions hold that table and the running number as two 48-bit
limbs in 64-bit integers, 52 vectorised steps over all deals at once.

Packed form: 12 bytes, the number little-endian.  Examples: 0 is N all
spades, E hearts, S diamonds, W clubs; ``D - 1`` (N clubs, E diamonds, S
hearts, W spades) is ``ff 91 f4 8b 65 da 4d 63 15 e3 55 ad``.

Pavlicek's library generator is a different thing: a record's position in
his library is not its deal number.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Deal
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes
from ddsbind.formats._common import as_owners

__all__ = [
    "NUMBER_SIZE",
    "D",
    "deal_from_number",
    "deal_number",
    "deal_numbers",
    "deals_from_numbers",
    "ints_from_numbers",
    "numbers_from_ints",
]

#: The number of bridge deals, 52! / (13!)^4.
D: int = math.factorial(52) // math.factorial(13) ** 4
#: Bytes in a packed deal number.
NUMBER_SIZE = _dtypes.DEAL_NUMBER.itemsize

_BITS = 48
_MASK = (1 << _BITS) - 1
_STEP = np.array([14**3, 14**2, 14, 1], dtype=np.int64)  # state index weight of N, E, S, W
_START = int(13 * _STEP.sum())
_D_HI, _D_LO = D >> _BITS, D & _MASK


@functools.cache
def _offsets() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``OFF[4 * state + owner]`` as (hi, lo) 48-bit limbs; state = base-14 vacant counts N E S W."""
    fact = [math.factorial(i) for i in range(53)]
    n = np.arange(14)
    grid = np.stack(np.meshgrid(n, n, n, n, indexing="ij"), axis=-1).reshape(-1, 4)
    lo = np.zeros((grid.shape[0], 4), dtype=np.int64)
    hi = np.zeros((grid.shape[0], 4), dtype=np.int64)
    for s, counts in enumerate(grid.tolist()):
        total = sum(counts)
        if total == 0:
            continue
        denom = fact[counts[0]] * fact[counts[1]] * fact[counts[2]] * fact[counts[3]]
        k = fact[total] // denom
        acc = 0
        for h in range(4):
            lo[s, h] = acc & _MASK
            hi[s, h] = acc >> _BITS
            acc += k * counts[h] // total  # multinomial with one fewer vacancy for h
    return hi.ravel(), lo.ravel()


def _limbs_to_bytes(hi: NDArray[np.int64], lo: NDArray[np.int64]) -> NDArray[np.uint8]:
    out = np.empty((hi.shape[0], NUMBER_SIZE), dtype=np.uint8)
    out[:, :6] = lo.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :6]
    out[:, 6:] = hi.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :6]
    return out


def _bytes_to_limbs(b: NDArray[np.uint8]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    n = b.shape[0]
    pad = np.zeros((n, 2, 8), dtype=np.uint8)
    pad[:, 0, :6] = b[:, :6]
    pad[:, 1, :6] = b[:, 6:]
    words = pad.view("<u8").reshape(n, 2).astype(np.int64)
    return words[:, 1], words[:, 0]


def deal_numbers(deals: ArrayLike) -> NDArray[np.uint8]:
    """Deal numbers of many deals, packed.

    Parameters
    ----------
    deals : array_like
        Owner arrays ``(N, 52)`` (DDS seat of SA..C2; N=0 E=1 S=2 W=3) or
        masks ``(N, 4, 4)``; full deals.

    Returns
    -------
    ndarray, shape (N, 12), uint8
        Each number little-endian (:func:`ints_from_numbers` gives ints).
    """
    o = as_owners(deals, full=True).astype(np.intp)
    off_hi, off_lo = _offsets()
    n = o.shape[0]
    state = np.full(n, _START, dtype=np.intp)
    hi = np.zeros(n, dtype=np.int64)
    lo = np.zeros(n, dtype=np.int64)
    idx = np.empty(n, dtype=np.intp)
    step = _STEP.astype(np.intp)
    for k in range(52):
        own = o[:, k]
        np.multiply(state, 4, out=idx)
        idx += own
        hi += off_hi[idx]
        lo += off_lo[idx]
        state -= step[own]
    hi += lo >> _BITS
    lo &= _MASK
    return _limbs_to_bytes(hi, lo)


def deals_from_numbers(numbers: NDArray[np.uint8] | Iterable[int]) -> NDArray[np.int8]:
    """Deals of many deal numbers.

    Parameters
    ----------
    numbers : (N, 12) uint8 array or iterable of int
        Packed little-endian numbers, or Python ints, each in ``0 .. D-1``.

    Returns
    -------
    ndarray, shape (N, 52), int8
        Owner arrays (DDS seat of SA..C2).

    Raises
    ------
    FormatError
        A number ``>= D`` (or negative), with its index.
    """
    b = _as_number_bytes(numbers)
    hi, lo = _bytes_to_limbs(b)
    too_big = (hi > _D_HI) | ((hi == _D_HI) & (lo >= _D_LO))
    if too_big.any():
        i = int(np.argmax(too_big))
        raise FormatError(f"deal number is not below D = {D}", index=i, offset=i * NUMBER_SIZE)
    off_hi, off_lo = _offsets()
    n = b.shape[0]
    state = np.full(n, _START, dtype=np.intp)
    owners = np.empty((n, 52), dtype=np.int8)
    base = np.empty(n, dtype=np.intp)
    step = _STEP.astype(np.intp)
    for k in range(52):
        np.multiply(state, 4, out=base)
        own = np.zeros(n, dtype=np.intp)
        for h in (1, 2, 3):
            t_hi = off_hi[base + h]
            t_lo = off_lo[base + h]
            own += (t_hi < hi) | ((t_hi == hi) & (t_lo <= lo))
        owners[:, k] = own
        sel = base + own
        lo -= off_lo[sel]
        hi -= off_hi[sel]
        borrow = lo < 0
        lo += borrow.astype(np.int64) << _BITS
        hi -= borrow
        state -= step[own]
    return owners


def _as_number_bytes(numbers: NDArray[np.uint8] | Iterable[int]) -> NDArray[np.uint8]:
    if isinstance(numbers, np.ndarray) and numbers.dtype == np.uint8:
        if numbers.ndim != 2 or numbers.shape[1] != NUMBER_SIZE:
            raise FormatError(f"packed deal numbers must be (N, 12) uint8, got shape {numbers.shape}")
        return numbers
    return numbers_from_ints(numbers)


def numbers_from_ints(ints: Iterable[int]) -> NDArray[np.uint8]:
    """Python ints ``0 .. D-1`` to packed ``(N, 12)`` uint8 numbers (little-endian)."""
    vals = [int(x) for x in ints]
    for i, v in enumerate(vals):
        if not 0 <= v < D:
            raise FormatError(f"deal number {v} is not in 0 .. D-1 = {D - 1}", index=i)
    buf = b"".join(v.to_bytes(NUMBER_SIZE, "little") for v in vals)
    return np.frombuffer(buf, dtype=np.uint8).reshape(-1, NUMBER_SIZE).copy()


def ints_from_numbers(numbers: ArrayLike) -> list[int]:
    """Packed ``(N, 12)`` uint8 numbers to Python ints."""
    b = np.asarray(numbers, dtype=np.uint8).reshape(-1, NUMBER_SIZE)
    return [int.from_bytes(row.tobytes(), "little") for row in b]


def deal_number(deal: Deal | ArrayLike) -> int:
    """The deal number (``0 .. D-1``) of one full deal.

    Parameters
    ----------
    deal : Deal or array_like, shape (52,)
        A full deal, or its owner array (DDS seats).

    Examples
    --------
    >>> deal_number(Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"))
    0
    """
    owners = deal.owners() if isinstance(deal, Deal) else np.asarray(deal)
    return ints_from_numbers(deal_numbers(owners.reshape(1, 52)))[0]


def deal_from_number(number: int) -> Deal:
    """The full deal whose number is ``number`` (``0 .. D-1``; else ``FormatError``)."""
    return Deal.from_owners(deals_from_numbers([number])[0])
