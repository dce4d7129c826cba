"""The deal recipe: deal ``k`` of seed ``S`` is a pure function of ``(S, k)``.

So any range can be made anywhere and any record re-made alone:

1. Philox4x64-10 (numpy's :class:`numpy.random.Philox`) keyed by ``S``
   (``0 <= S < 2**128``) with counter ``k`` gives one block of four 64-bit
   words ``w0..w3``.
2. ``x = w0 + w1 * 2**64 + w2 * 2**128`` (192 bits, ``w3`` unused) is scaled
   to a deal number ``n = floor(x * D / 2**192)``, where ``D`` is the number
   of bridge deals (:data:`ddsbind.formats.dealnum.D`, below ``2**96``).  Every
   number below ``D`` is hit by ``floor(2**192 / D)`` or one more values of
   ``x``: uniform to within ``D / 2**192 < 2**-96``.
3. The deal is Pavlicek's deal number ``n``
   (:func:`ddsbind.formats.dealnum.deals_from_numbers`).

This recipe is :data:`GENERATOR` version :data:`GENERATOR_VERSION`; a
database's manifest records both, and a changed recipe gets a new version.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ddsbind.database._args import whole
from ddsbind.formats import dealnum, zbd

__all__ = ["GENERATOR", "GENERATOR_VERSION", "SEED_LIMIT", "check_seed", "deal_numbers_for", "make_deals", "zbd_deals"]

#: Name of the deal recipe.
GENERATOR = "ddsbind-philox4x64-mulshift192"
#: Version of the recipe; bumped whenever the deals of a (seed, index) would change.
GENERATOR_VERSION = 1
#: Seeds are ``0 .. SEED_LIMIT - 1`` (Philox's 128-bit key).
SEED_LIMIT = 1 << 128

_D_LIMBS = np.array([(dealnum.D >> (32 * i)) & 0xFFFFFFFF for i in range(3)], dtype=np.uint64)
_M32 = np.uint64(0xFFFFFFFF)


def check_seed(seed: object) -> int:
    """``seed`` as an int in ``0 .. 2**128-1``; ``DatabaseError`` for anything else (floats, text, bools)."""
    return whole(seed, "seed", 0, SEED_LIMIT - 1)


def deal_numbers_for(seed: int, start: int, stop: int) -> NDArray[np.uint8]:
    """Deal numbers of deals ``start .. stop-1`` of ``seed``, packed ``(n, 12)`` uint8 little-endian.

    Each is ``floor(x * D / 2**192)`` for the 192-bit ``x`` of Philox block
    ``k`` (module docstring); the product is done in 32-bit limbs.
    """
    seed = check_seed(seed)
    start = whole(start, "start", 0)
    stop = whole(stop, "stop", start)
    n = stop - start
    raw = np.random.Philox(key=seed, counter=start).random_raw(4 * n).reshape(n, 4)
    x = np.empty((n, 6), dtype=np.uint64)  # 32-bit limbs of w0, w1, w2, least significant first
    x[:, 0::2] = raw[:, :3] & _M32
    x[:, 1::2] = raw[:, :3] >> np.uint64(32)
    cols = np.zeros((n, 10), dtype=np.uint64)
    for i in range(6):
        for j in range(3):
            p = x[:, i] * _D_LIMBS[j]  # < 2**64, exact
            cols[:, i + j] += p & _M32
            cols[:, i + j + 1] += p >> np.uint64(32)
    carry = np.zeros(n, dtype=np.uint64)
    for k in range(9):
        cols[:, k] += carry
        carry = cols[:, k] >> np.uint64(32)
        cols[:, k] &= _M32
    top = cols[:, 6:9].astype("<u4")  # bits 192 .. 287 of x * D: the number, < D < 2**96
    return np.ascontiguousarray(top).view(np.uint8).reshape(n, 12)


def make_deals(seed: int, start: int, stop: int) -> NDArray[np.int8]:
    """Deals ``start .. stop-1`` of ``seed`` as owner arrays ``(n, 52)`` int8 (DDS seat of SA..C2)."""
    return dealnum.deals_from_numbers(deal_numbers_for(seed, start, stop))


def zbd_deals(seed: int, start: int, stop: int) -> NDArray[np.uint8]:
    """Deals ``start .. stop-1`` of ``seed`` as ZBD records ``(n, 13)``: the first 13 bytes of each record."""
    return zbd.zbd_from_owners(make_deals(seed, start, stop))
