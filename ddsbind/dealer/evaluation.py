"""Dealer's ``quality()`` and ``cccc()``: Kaplan and Rubens' evaluation (The Bridge World, October 1982), x100.

Both work on a batch's holdings ``(n, 4, 4, 13)`` bool ``[deal, seat N E S W,
suit S H D C, rank A..2]`` and return integers (the article's values times
100), exactly as Debian's ``dealer`` computes them; ``tests/dealer/
test_evaluation.py`` checks both against ``dealer`` hand by hand.

Suit quality, in value of the article's "length times honour points"
(so ``quality`` = 10 x that), for a suit of length ``L``:

- ``L`` x (4 for the ace, 3 king, 2 queen, 1 jack);
- a 7-card suit missing the queen or the jack: +7; an 8-card suit missing
  the queen: +16, else missing the jack: +8; a longer suit: +2L without
  the queen and +L without the jack;
- in suits of at most 6 cards: the ten counts ``L`` with the jack or two
  of A K Q, else ``L / 2``; the nine counts ``L / 2`` with the ten, the
  eight, or exactly two of A K Q J.

``cccc`` (x100) = 300 per ace, 200 per king, 100 per queen; plus the
qualities of the four suits / 10; plus 300 per void, 200 per singleton,
100 per doubleton, less 100 when the hand has any of them (less 50 for
4333 instead); less 150 for a singleton king, 100 for a singleton queen,
25 for a queen doubleton with the ace or king, 50 for another doubleton
queen, 25 for a queen in three or more cards without ace or king; plus 50
for a jack with exactly two of A K Q, 25 with exactly one; plus 25 for a
ten with exactly two of A K Q J, or with exactly one and the nine.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["cccc", "quality"]

_A, _K, _Q, _J, _T, _9, _8 = range(7)


def quality(holding: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Suit quality x100 per ``[deal, seat, suit]`` from holdings ``(n, 4, 4, 13)`` (module docstring)."""
    h = holding.astype(np.int64)
    length = h.sum(axis=-1)
    a, k, q, j, t, nine, eight = (h[..., r] for r in (_A, _K, _Q, _J, _T, _9, _8))
    value = 10 * length * (4 * a + 3 * k + 2 * q + j)
    value += np.where((length == 7) & ((q == 0) | (j == 0)), 70, 0)
    value += np.where((length == 8) & (q == 0), 160, np.where((length == 8) & (j == 0), 80, 0))
    long_suit = length > 8
    value += np.where(long_suit & (q == 0), 20 * length, 0) + np.where(long_suit & (j == 0), 10 * length, 0)
    short = length <= 6
    ten_full = (a + k + q >= 2) | (j == 1)
    value += np.where(short & (t == 1), np.where(ten_full, 10 * length, 5 * length), 0)
    nine_counts = (t == 1) | (eight == 1) | (a + k + q + j == 2)
    value += np.where(short & (nine == 1) & nine_counts, 5 * length, 0)
    return value


def cccc(holding: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Kaplan-Rubens hand value x100 per ``[deal, seat]`` from holdings ``(n, 4, 4, 13)`` (module docstring)."""
    h = holding.astype(np.int64)
    length = h.sum(axis=-1)
    a, k, q, j, t, nine = (h[..., r] for r in (_A, _K, _Q, _J, _T, _9))
    per_suit = 300 * a + 200 * k + 100 * q + quality(holding)
    per_suit += np.select([length == 0, length == 1, length == 2], [300, 200, 100], 0)
    per_suit -= 150 * ((length == 1) & (k == 1)) + 100 * ((length == 1) & (q == 1))
    doubleton_q = (length == 2) & (q == 1)
    per_suit -= np.where(doubleton_q, np.where((a + k) > 0, 25, 50), 0)
    per_suit -= 25 * ((length >= 3) & (q == 1) & (a == 0) & (k == 0))
    above_j = a + k + q
    per_suit += (j == 1) * np.select([above_j == 2, above_j == 1], [50, 25], 0)
    above_t = above_j + j
    per_suit += 25 * ((t == 1) & ((above_t == 2) | ((above_t == 1) & (nine == 1))))
    total = per_suit.sum(axis=-1)
    flat = (length >= 3).all(axis=-1)  # 4333: the only pattern without a suit of 0, 1 or 2 cards
    return total - np.where(flat, 50, 100)
