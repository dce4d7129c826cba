"""The compiled dealing kernel (``native/dealkernel.c``) and the names of the dealer's generators.

A generator is a recipe turning ``(seed, deal number, predeal)`` into a
deal.  Its name carries its version: a script run with a seed deals the
same deals in every ddsbind release under the same generator name, and a
recipe that would deal anything differently gets a new name.

* :data:`SHUFFLE` (``"philox-shuffle-1"``, the default): the kernel.  Deal
  ``d`` of a run (counting from 0 over all batches) is a Fisher-Yates
  shuffle of the free slots driven by Philox4x64-10 keyed by the seed, with
  counters ``(j, d, 0, 2)``, ``j = 0, 1, ...``; the recipe is spelled out in
  ``native/dealkernel.c``.  Each deal depends on the seed, its number and
  the predeal only: not on batch sizes, threads or Dask workers.  Written
  straight into the batch's owner rows by C code that runs without the GIL,
  so threads deal in parallel.
* :data:`SORT` (``"philox-sort-1"``): ddsbind's first recipe (numpy's
  Philox, keys sorted per deal; :mod:`ddsbind.dealer.dealing`), kept
  selectable so that runs made with it can be dealt again.

The kernel is its own compiled module, ``ddsbind._dealkernel`` (plain C,
linked to nothing), loaded on the first deal, not at import: dealing never
loads DDS, and library mode (:mod:`ddsbind.dealer.library`) loads neither.

Databases made by ``ddsbind generate`` use neither: their recipe is
:mod:`ddsbind.database.recipe`, named in their manifests.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["DEFAULT_GENERATOR", "GENERATORS", "SHUFFLE", "SORT", "Counts", "deal_rows", "philox_blocks"]

#: The compiled kernel's generator (native/dealkernel.c), version 1.
SHUFFLE = "philox-shuffle-1"
#: ddsbind's first dealing recipe (numpy's Philox and sorted keys), version 1.
SORT = "philox-sort-1"
#: Every generator's name, with a line on what it is.
GENERATORS: dict[str, str] = {
    SHUFFLE: "compiled Philox4x64-10 and Fisher-Yates, a counter per deal (default)",
    SORT: "numpy's Philox4x64-10 and sorted keys, a counter per batch of 16384 (ddsbind's first recipe)",
}
#: The generator used when none is named.
DEFAULT_GENERATOR = SHUFFLE

_MASK64 = (1 << 64) - 1


class Counts(NamedTuple):
    """Hand counts the kernel makes while dealing, each ``(n, 4, 4)`` ``[deal, seat N E S W, suit S H D C]``."""

    #: Suit lengths, int8.
    lengths: NDArray[np.int8]
    #: High-card points (A=4 K=3 Q=2 J=1), int16.
    hcp: NDArray[np.int16]
    #: Controls (A=2 K=1), int16.
    controls: NDArray[np.int16]
    #: Dealer's losers (:func:`ddsbind.hands.losers_from`), int8.
    losers: NDArray[np.int8]

    @classmethod
    def empty(cls, n: int) -> Counts:
        """Room for the counts of ``n`` deals, for :func:`deal_rows` to fill."""
        small, wide = np.empty((2, n, 4, 4), dtype=np.int8), np.empty((2, n, 4, 4), dtype=np.int16)
        return cls(small[0], wide[0], wide[1], small[1])


def _seed_words(seed: int) -> list[int]:
    """Philox's key words: the seed's low 64 bits, then its high 64 bits."""
    return [seed & _MASK64, seed >> 64]


def deal_rows(
    seed: int,
    first: int,
    count: int,
    base: NDArray[np.int8],
    cards: NDArray[np.intp],
    slots: NDArray[np.int8],
    counts: Counts | None = None,
) -> NDArray[np.int8]:
    """Deals ``first .. first + count - 1`` of ``seed`` by :data:`SHUFFLE`: owner rows ``(count, 52)`` int8.

    Parameters
    ----------
    seed : int
        ``0 .. 2**128 - 1`` (checked by the caller).
    first, count : int
        Number of the first deal (from 0 over the whole run) and how many.
    base : ndarray, shape (52,), int8
        The predeal's owners (DDS seats N=0 E=1 S=2 W=3), -1 for a free card.
    cards : ndarray, int
        The free cards (``base == -1``), ascending.
    slots : ndarray, int8
        The seats of the free slots: ``13 - predealt`` of each seat, in seat order.
    counts : Counts, optional
        ``Counts.empty(count)`` to fill with the deals' hand counts, made
        in the same pass (the same deals either way).

    Returns
    -------
    ndarray, shape (count, 52), int8
        Owner rows, DDS seats, card ``13 * suit + 14 - rank`` (suits S H D C).
    """
    from ddsbind._dealkernel import ffi, lib

    m = int(cards.size)
    out = np.empty((count, 52), dtype=np.int8)
    if count == 0:
        return out
    places = [ffi.NULL] * 4
    if counts is not None:
        kinds = ("int8_t[]", "int16_t[]", "int16_t[]", "int8_t[]")  # the fields' dtypes, in order
        places = [ffi.from_buffer(kind, a, require_writable=True) for kind, a in zip(kinds, counts, strict=True)]
    rc = lib.ddsbind_deal_shuffle(
        ffi.new("uint64_t[2]", _seed_words(seed)),
        first,
        count,
        ffi.from_buffer("int8_t[]", np.ascontiguousarray(base, dtype=np.int8)),
        ffi.from_buffer("uint8_t[]", np.ascontiguousarray(cards, dtype=np.uint8)),
        ffi.from_buffer("int8_t[]", np.ascontiguousarray(slots, dtype=np.int8)),
        m,
        ffi.from_buffer("int8_t[]", out, require_writable=True),
        *places,
    )
    if rc != 0:  # pragma: no cover - m is 0..52 by construction of Predeal
        raise ValueError(f"dealing kernel: {m} free cards")
    return out


def philox_blocks(seed: int, counter: int, blocks: int) -> NDArray[np.uint64]:
    """The kernel's Philox4x64-10 blocks ``(blocks, 4)`` for counters ``counter, counter + 1, ...``.

    The counter is a 256-bit number (word 0 lowest); only its lowest word
    counts up.  For checking the kernel's generator against an independent
    implementation (numpy's :class:`numpy.random.Philox`).
    """
    from ddsbind._dealkernel import ffi, lib

    out = np.empty((blocks, 4), dtype=np.uint64)
    words = [(counter >> (64 * i)) & _MASK64 for i in range(4)]
    lib.ddsbind_philox_blocks(
        ffi.new("uint64_t[2]", _seed_words(seed)),
        ffi.new("uint64_t[4]", words),
        blocks,
        ffi.from_buffer("uint64_t[]", out, require_writable=True),
    )
    return out
