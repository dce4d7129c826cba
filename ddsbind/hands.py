"""Hand evaluation without DDS, vectorised over many deals: lengths, HCP, controls, losers, weighted counts.

The one implementation of these counts in ddsbind: :class:`~ddsbind.deal.Deal`'s
methods (``Deal.hcp(seat)`` ...) and the dealer language's functions (``hcp``,
``controls``, ``losers``, ``pt0``..``pt9``, ``spades``, ``quality``,
``cccc`` ... through :class:`Hands`, the one batch type) both call it, so
they cannot disagree.

Input is owner arrays ``(..., 52)``: the DDS seat (0=N 1=E 2=S 3=W) holding
card ``13 * suit + (14 - rank)`` (suits S H D C, the ace first), -1 for a
card not in the deal (an ending).  Per-suit results are ``(..., 4, 4)``
indexed ``[..., seat N E S W, suit S H D C]``; per-hand totals drop the
last axis.

Definitions (dealer's manual, which these follow exactly):

* ``hcp``: A=4, K=3, Q=2, J=1.
* ``controls``: A=2, K=1.
* ``losers`` per suit: ``min(length, 3)`` less the aces, the kings of suits
  of two cards or more, and the queens of suits of three cards or more
  (a singleton king is a loser, a doubleton queen is two).  A hand's losers
  are the sum over its suits (0..12).
* ``ltc`` (DealerV2's "modern losing trick count", in hundredths of a loser,
  so 250 is two and a half): DealerV2's ``countltc`` (its source,
  ``src/dealeval_subs.c``), which reads each suit's three highest cards
  (fewer in a shorter suit), the ace, king, queen, jack and ten by name and
  any lower card as ``x``: 0 for a void, ``A``, ``AK``, ``AKQ``; 50 for
  ``K``, ``AQ``, ``AKJ``, ``AQJ``; 150 for ``AJT`` and ``KJT``; 200 for
  ``QJx`` and ``QJT``; 250 for ``Qxx`` and ``QTx``; otherwise 100 times
  the suit's cards among its top three that are not the ace, the king or
  (in three cards or more, with the ace or king beside it) the queen:
  ``KQx`` 100, ``Qx`` and ``Kxx`` 200, ``xxx`` 300 (:data:`LTC_TOPS` lists
  every case, and a test checks this summary against it).  A hand's ``ltc`` is the
  sum over its suits (0..1200).
* :func:`count`: any weights per rank from the ace down (dealer's
  ``pointcount`` and ``altcount``).

Examples
--------
>>> from ddsbind.deal import Deal
>>> owners = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765").owners()
>>> hcp(owners).tolist(), suit_lengths(owners)[0].tolist(), losers(owners).tolist()
([10, 10, 10, 10], [4, 3, 3, 3], [9, 9, 9, 9])
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from typing import Any, Protocol, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.errors import InvalidArgumentError

__all__ = [
    "CONTROL_WEIGHTS",
    "HCP_WEIGHTS",
    "LTC_TOPS",
    "HandArrays",
    "Hands",
    "SuitCounts",
    "cccc",
    "controls",
    "count",
    "hcp",
    "losers",
    "ltc",
    "quality",
    "seat_table",
    "suit_lengths",
]

#: High-card points per rank, ace first.
HCP_WEIGHTS = (4, 3, 2, 1)
#: Controls per rank, ace first.
CONTROL_WEIGHTS = (2, 1)

#: Ranks A..8 in one look-up table of :func:`seat_table` (4**7 entries), 7..2 in another (4**6).
HIGH_RANKS = 7
_SEATS = np.arange(4, dtype=np.int8).reshape(1, 4, 1)


def _rows(owners: ArrayLike) -> tuple[NDArray[np.int8], tuple[int, ...]]:
    """``owners`` as a contiguous ``(n, 52)`` int8 array, and the leading shape to give back."""
    a = np.asarray(owners)
    if a.shape[-1:] != (52,) or a.dtype.kind not in "iu":
        raise InvalidArgumentError(f"owner arrays must be integers ending in 52 cards, got {a.dtype} {a.shape}")
    if a.size and (a.min() < -1 or a.max() > 3):
        raise InvalidArgumentError("owner values must be -1 (absent) or a DDS seat 0..3")
    return np.ascontiguousarray(a.reshape(-1, 52), dtype=np.int8), a.shape[:-1]


def _kernel_rows(owners: ArrayLike) -> bool:
    """Whether ``owners`` has the form of the dealing kernel's output: a C-contiguous ``(n, 52)`` int8 array."""
    return (
        isinstance(owners, np.ndarray)
        and owners.dtype == np.int8
        and owners.ndim == 2
        and owners.shape[1] == 52
        and owners.flags.c_contiguous
    )


@functools.lru_cache(maxsize=64)
def seat_table(weights: tuple[int, ...], ranks: int) -> NDArray[np.uint32]:
    """For every base-4 code of ``ranks`` cards' owners, each seat's weighted sum in byte ``seat``.

    A code is :func:`suit_codes`'s (the DDS seat of the first rank in its
    highest digit); ``weights`` are ints summing to at most 255.  Read-only,
    ``(4**ranks,)`` uint32.
    """
    codes = np.arange(4**ranks, dtype=np.int64)
    digits = (codes[:, None] >> (2 * np.arange(ranks - 1, -1, -1))) & 3  # owner of each rank, first rank first
    w = np.zeros(ranks, dtype=np.int64)
    w[: len(weights)] = weights[:ranks]
    table = np.zeros(codes.size, dtype=np.uint32)
    for seat in range(4):
        table |= (((digits == seat) * w).sum(axis=1).astype(np.uint32)) << np.uint32(8 * seat)
    table.setflags(write=False)
    return table


def suit_codes(rows: NDArray[np.int8]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Each suit's owners as two base-4 numbers ``(n, 4)`` ``[deal, suit]``: ranks A..8 and ranks 7..2.

    ``rows`` is ``(n, 52)`` int8 of full deals (no -1); the codes index the
    look-up tables of :func:`count`, so a batch computes them once for every count.
    """
    n = rows.shape[0]
    by_suit = rows.reshape(n, 4, 13)
    high = np.zeros((n, 4), dtype=np.intp)
    for rank in range(HIGH_RANKS):
        high <<= 2
        high |= by_suit[:, :, rank]
    low = np.zeros((n, 4), dtype=np.intp)
    for rank in range(HIGH_RANKS, 13):
        low <<= 2
        low |= by_suit[:, :, rank]
    return high, low


def _per_hand(by_suit: NDArray[Any]) -> NDArray[Any]:
    """``(..., 4)`` totals of ``(..., 4, 4)`` counts per suit."""
    # Four column additions: numpy's sum over a last axis of 4 is about 8 times slower.
    total = by_suit[..., 0].copy()
    for suit in (1, 2, 3):
        total += by_suit[..., suit]
    return total


def _key(weights: Sequence[float]) -> tuple[float, ...]:
    """``weights`` as a hashable tuple: integers as ``int``, any fraction kept as ``float`` (never truncated).

    A tuple's key is remembered (a condition asks the same weights of every batch, several times).
    """
    if type(weights) is tuple:
        with contextlib.suppress(TypeError):  # a weight that cannot be hashed: checked below, as any sequence
            return _tuple_key(weights)
    return _checked_key(weights)


@functools.lru_cache(maxsize=256)
def _tuple_key(weights: tuple[float, ...]) -> tuple[float, ...]:
    return _checked_key(weights)


def _checked_key(weights: Sequence[float]) -> tuple[float, ...]:
    try:
        values = [float(w) for w in weights]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"weights must be numbers, got {weights!r:.60}") from None
    if len(values) > 13:
        raise InvalidArgumentError(f"at most 13 weights (ace down to two), got {len(values)}")
    if not all(np.isfinite(values)):
        raise InvalidArgumentError(f"weights must be finite numbers, got {weights!r:.60}")
    key = tuple(int(w) if isinstance(w, int | np.integer) else float(w) for w in weights)
    if all(float(w).is_integer() for w in key):
        key = tuple(int(w) for w in key)
    while key and key[-1] == 0:
        key = key[:-1]
    return key


def count_rows(
    rows: NDArray[np.int8],
    weights: Sequence[float],
    codes: tuple[NDArray[np.intp], NDArray[np.intp]] | None = None,
) -> NDArray[Any]:
    """:func:`count` of ``(n, 52)`` int8 rows, reusing their :func:`suit_codes` when given.

    int16 unless a hand's sum may pass int16's range (then int32, or int64
    past int32's: the dealer language allows weights up to 64 bits);
    float64 when a weight has a fraction.
    """
    key = _key(weights)
    n = rows.shape[0]
    if any(isinstance(w, float) for w in key):
        # Fractional weights (4.5 for an ace...): summed as floats, rank by rank.
        total = np.zeros((n, 4, 4), dtype=np.float64)
        owners = rows.reshape(n, 1, 4, 13)
        for rank, weight in enumerate(key):
            if weight:
                total += (owners[:, :, :, rank] == _SEATS) * float(weight)
        return total
    ints = tuple(int(w) for w in key)
    bound = sum(abs(w) for w in ints) * 13
    wide = bound > np.iinfo(np.int16).max
    if all(w >= 0 for w in ints) and sum(ints) <= 255 and (n == 0 or rows.min() >= 0):
        # A byte per seat holds each suit's sum: one table look-up per suit gives all four seats.
        high, low = codes if codes is not None else suit_codes(rows)
        full = ints + (0,) * (13 - len(ints))
        packed = seat_table(full[:HIGH_RANKS], HIGH_RANKS)[high]
        if any(full[HIGH_RANKS:]):
            packed += seat_table(full[HIGH_RANKS:], 13 - HIGH_RANKS)[low]
        by_seat = packed.view(np.uint8).reshape(n, 4, 4)  # [deal, suit, seat]: little-endian bytes
        return by_seat.transpose(0, 2, 1).astype(np.int16, order="C")
    # Weights too large or negative for a byte, or an ending with absent cards: rank by rank.
    dtype = np.int64 if bound > np.iinfo(np.int32).max else np.int32 if wide else np.int16
    result = np.zeros((n, 4, 4), dtype=dtype)
    owners = rows.reshape(n, 1, 4, 13)
    for rank, weight in enumerate(ints):
        if weight:
            result += (owners[:, :, :, rank] == _SEATS).astype(dtype) * dtype(weight)
    return result


def count(owners: ArrayLike, weights: Sequence[float], *, by_suit: bool = True) -> NDArray[Any]:
    """Weighted count of the cards each hand holds, per suit (or per hand).

    Parameters
    ----------
    owners : array_like, shape (..., 52)
        DDS seat of each card (module docstring), -1 absent.
    weights : sequence of int or float
        Points per rank from the ace down (``(4, 3, 2, 1)`` is HCP); ranks
        not given count 0; at most 13.  Fractions count as given
        (``(4.5, 3, 1.5, 0.75)``: an ace, king, queen and jack are 9.75).
    by_suit : bool
        ``(..., 4, 4)`` ``[seat, suit]`` when True, else per hand ``(..., 4)``.

    Returns
    -------
    ndarray of int16 (int32 or int64 when the weights could overflow int16; float64 when a weight has a fraction)

    Raises
    ------
    InvalidArgumentError
        Owners not ``(..., 52)`` values -1..3; more than 13 weights, or one not a finite number.
    """
    rows, shape = _rows(owners)
    out = count_rows(rows, weights)
    if not by_suit:
        out = _per_hand(out)
        return out.reshape((*shape, 4))
    return out.reshape((*shape, 4, 4))


def lengths_rows(
    rows: NDArray[np.int8], codes: tuple[NDArray[np.intp], NDArray[np.intp]] | None = None
) -> NDArray[np.int8]:
    """:func:`suit_lengths` of ``(n, 52)`` int8 rows, reusing their :func:`suit_codes` when given."""
    return count_rows(rows, (1,) * 13, codes).astype(np.int8)


def suit_lengths(owners: ArrayLike) -> NDArray[np.int8]:
    """Suit lengths ``(..., 4, 4)`` int8 ``[seat N E S W, suit S H D C]`` of owner arrays ``(..., 52)``."""
    rows, shape = _rows(owners)
    return lengths_rows(rows).reshape((*shape, 4, 4))


def hcp(owners: ArrayLike, *, by_suit: bool = False) -> NDArray[np.int16]:
    """High-card points (A=4 K=3 Q=2 J=1) per hand ``(..., 4)``, or per suit ``(..., 4, 4)`` with ``by_suit``."""
    return count(owners, HCP_WEIGHTS, by_suit=by_suit).astype(np.int16)


def controls(owners: ArrayLike, *, by_suit: bool = False) -> NDArray[np.int16]:
    """Controls (A=2 K=1) per hand ``(..., 4)``, or per suit ``(..., 4, 4)`` with ``by_suit``."""
    return count(owners, CONTROL_WEIGHTS, by_suit=by_suit).astype(np.int16)


def losers_from(lengths: NDArray[np.int8], ace: NDArray[np.integer], king: NDArray[np.integer],
                queen: NDArray[np.integer]) -> NDArray[np.int8]:  # fmt: skip
    """Dealer's losers per suit from lengths and whether the A, K, Q are held (arrays of one shape).

    ``min(length, 3)`` less the ace, the king when the suit has 2 cards or
    more, the queen when it has 3 or more.
    """
    cap = np.minimum(lengths, 3)
    counted = ace + king * (cap >= 2) + queen * (cap >= 3)
    return (cap - counted).astype(np.int8)


def losers(owners: ArrayLike, *, by_suit: bool = False) -> NDArray[np.int8]:
    """Losers (dealer's rule, module docstring) per hand ``(..., 4)``, or per suit ``(..., 4, 4)`` with ``by_suit``."""
    rows, shape = _rows(owners)
    batch = Hands(rows)
    return batch.losers_by_suit.reshape((*shape, 4, 4)) if by_suit else batch.losers.reshape((*shape, 4))


#: DealerV2's ltc per suit in hundredths, by the suit's top three cards (A K Q J T by name, lower
#: cards ``x``; a void ``""``): the cases of DealerV2's ``countltc``, every holding listed.
LTC_TOPS: dict[str, int] = {
    **dict.fromkeys(("", "A", "AK", "AKQ"), 0),
    **dict.fromkeys(("K", "AQ", "AKJ", "AQJ"), 50),
    **dict.fromkeys(("Q", "J", "T", "x", "AJ", "AT", "Ax", "KQ", "KJ", "KT", "Kx"), 100),
    **dict.fromkeys(("AKT", "AKx", "AQT", "AQx", "KQJ", "KQT", "KQx"), 100),
    **dict.fromkeys(("AJT", "KJT"), 150),
    **dict.fromkeys(("QJ", "QT", "Qx", "JT", "Jx", "Tx", "xx"), 200),
    **dict.fromkeys(("AJx", "ATx", "Axx", "KJx", "KTx", "Kxx", "QJT", "QJx"), 200),
    **dict.fromkeys(("QTx", "Qxx"), 250),
    **dict.fromkeys(("JTx", "Jxx", "Txx", "xxx"), 300),
}
_LTC_HONOURS = "AKQJT"


def _ltc_tops(length: int, held: int) -> str:
    """A suit's top three cards as :data:`LTC_TOPS` spells them from its length and ``held`` (bit 4 ace, 0 ten)."""
    honours = "".join(h for i, h in enumerate(_LTC_HONOURS) if held >> (4 - i) & 1)
    return (honours + "x" * length)[: min(length, 3)]


#: ltc per suit indexed by ``min(length, 3) * 32 + ace * 16 + king * 8 + queen * 4 + jack * 2 + ten``
#: (holdings that cannot occur, more honours than cards, get the first cards' value).
_LTC_TABLE = np.array([LTC_TOPS[_ltc_tops(n, i)] for n in range(4) for i in range(32)], dtype=np.int16)


def ltc_from(lengths: NDArray[np.integer], *honours: NDArray[np.integer]) -> NDArray[np.int16]:
    """DealerV2's modern losing trick count per suit, in hundredths (module docstring).

    ``honours`` are five arrays of ``lengths``' shape: whether the suit holds
    its ace, king, queen, jack and ten.
    """
    if len(honours) != len(_LTC_HONOURS):
        raise InvalidArgumentError(f"ltc_from takes suit lengths and 5 honour arrays (A K Q J T), got {len(honours)}")
    index = np.minimum(lengths, 3).astype(np.intp) * 32
    for bit, held in zip(range(4, -1, -1), honours, strict=True):
        index += (np.asarray(held) != 0) << bit
    return _LTC_TABLE[index]


def ltc(owners: ArrayLike, *, by_suit: bool = False) -> NDArray[np.int16]:
    """Modern losing trick count in hundredths (DealerV2's ``ltc``, module docstring) per hand ``(..., 4)``,
    or per suit ``(..., 4, 4)`` with ``by_suit``.

    Examples
    --------
    >>> from ddsbind.deal import Deal
    >>> owners = Deal.from_pbn("N:K.AJT2.KJT4.QJ32 AQJT98765432.K.. .Q9876543.AQ987. ..6532.AKT987654").owners()
    >>> ltc(owners, by_suit=True)[0].tolist(), int(ltc(owners)[0])  # K 0.5, AJT 1.5, KJT 1.5, QJx 2
    ([50, 150, 150, 200], 550)
    """
    rows, shape = _rows(owners)
    batch = Hands(rows)
    return batch.ltc_by_suit.reshape((*shape, 4, 4)) if by_suit else batch.ltc.reshape((*shape, 4))


class SuitCounts(Protocol):
    """Counts already made for a batch (the dealing kernel makes them as it deals), each ``(n, 4, 4)``.

    ``[deal, seat N E S W, suit S H D C]``: suit lengths (int8), high-card
    points and controls (int16), dealer's losers (int8).
    """

    @property
    def lengths(self) -> NDArray[np.int8]: ...
    @property
    def hcp(self) -> NDArray[np.int16]: ...
    @property
    def controls(self) -> NDArray[np.int16]: ...
    @property
    def losers(self) -> NDArray[np.int8]: ...


class _Points:
    """A read-only attribute of :class:`Hands`: its int16 :meth:`Hands.count` of ``weights``, per hand or by suit."""

    def __init__(self, weights: tuple[int, ...], *, by_suit: bool = False) -> None:
        self.weights = weights
        self.by_suit = by_suit

    @overload
    def __get__(self, hands: None, owner: type | None = None) -> _Points: ...
    @overload
    def __get__(self, hands: Hands, owner: type | None = None) -> NDArray[np.int16]: ...
    def __get__(self, hands: Hands | None, owner: type | None = None) -> _Points | NDArray[np.int16]:
        if hands is None:
            return self
        return hands.count(self.weights, by_suit=self.by_suit).astype(np.int16, copy=False)


class Hands:
    """A batch of deals and their hand evaluations as arrays, each computed once, on first use.

    The one batch type of ddsbind: what a condition of
    :func:`ddsbind.dealer.deal_to` receives, and what the dealer language's
    functions read (library mode builds it from ZBD bytes).  Seats index the
    second axis (``Seat.N`` = 0 .. ``Seat.W`` = 3), suits the third
    (``Strain.S`` = 0 .. ``Strain.C`` = 3).  Every count is per hand
    ``(n, 4)``; its ``*_by_suit`` twin is ``(n, 4, 4)`` ``[deal, seat, suit]``.

    Attributes
    ----------
    owners : ndarray, shape (n, 52), int8
        DDS seat holding each card (module docstring).
    counts : SuitCounts, optional
        The batch's suit lengths, points, controls and losers when already
        known (:func:`ddsbind.dealer.dealing.deal_batch`: the compiled
        dealing kernel counts them as it deals); not checked against
        ``owners``, and an ``(n, 52)`` int8 ``owners`` given with them is
        taken as whole deals, not checked either.
    hcp, controls, losers : ndarray, shape (n, 4)
        Per hand.
    lengths : ndarray, shape (n, 4, 4), int8
        ``[deal, seat, suit]``.
    hcp_by_suit, controls_by_suit, losers_by_suit : ndarray, shape (n, 4, 4)
    ltc, ltc_by_suit : ndarray of int16, shapes (n, 4) and (n, 4, 4)
        DealerV2's modern losing trick count in hundredths (:func:`ltc`).
    quality_by_suit, cccc : ndarray of int64, shapes (n, 4, 4) and (n, 4)
        Kaplan and Rubens' suit quality and hand value, times 100 (:func:`quality`, :func:`cccc`).
    shape_codes : ndarray, shape (n, 4), int16
        ``(spades * 14 + hearts) * 14 + diamonds`` per hand.

    Examples
    --------
    >>> from ddsbind.dealer import deal_batch
    >>> h = Hands(deal_batch(1, 0, size=1000))
    >>> mask = (h.hcp[:, 0] >= 15) & (h.lengths[:, 0, 0] >= 5)  # North: 15+ HCP and five spades
    >>> mask.shape
    (1000,)
    """

    def __init__(self, owners: ArrayLike, counts: SuitCounts | None = None) -> None:
        #: Whole deals for certain: the dealing kernel's rows, given with the counts it made of them.
        self._dealt = counts is not None and _kernel_rows(owners)
        if self._dealt:
            rows = np.asarray(owners)  # not scanned again for values outside -1..3 (two passes a batch)
        else:
            rows, shape = _rows(owners)
            if len(shape) != 1:
                raise InvalidArgumentError(f"a batch is (n, 52) owner rows, got shape {(*shape, 52)}")
        self.owners = rows
        self.n = rows.shape[0]
        self._counts: dict[tuple[tuple[float, ...], bool], NDArray[Any]] = {}
        if counts is not None:  # the cached properties and counts, already known
            self.__dict__["lengths"] = counts.lengths
            self.__dict__["losers_by_suit"] = counts.losers
            self._counts[(HCP_WEIGHTS, True)] = counts.hcp  # both weights already in _key's form
            self._counts[(CONTROL_WEIGHTS, True)] = counts.controls

    def __len__(self) -> int:
        return self.n

    @functools.cached_property
    def _codes(self) -> tuple[NDArray[np.intp], NDArray[np.intp]] | None:
        return suit_codes(self.owners) if self._dealt or self.n == 0 or self.owners.min() >= 0 else None

    def count(self, weights: Sequence[float], *, by_suit: bool = False) -> NDArray[Any]:
        """:func:`count` of the batch: any weights per rank, ace first; per hand, or ``(n, 4, 4)`` with ``by_suit``.

        int16 unless the sums may pass its range (then int32 or int64),
        float64 for fractional weights; each count is computed once per batch.
        """
        known = self._known(weights, by_suit)  # these very weights asked before: no checking them again
        if known is not None:
            return known
        key = (_key(weights), by_suit)
        if key not in self._counts:
            self._counts[key] = self._count(key[0], by_suit)
        with contextlib.suppress(TypeError):  # kept under the weights as given too, when they can be hashed
            if isinstance(weights, tuple):
                self._counts[(weights, by_suit)] = self._counts[key]
        return self._counts[key]

    def count_at(self, rows: NDArray[np.intp], weights: Sequence[float], *, by_suit: bool = False) -> NDArray[Any]:
        """:meth:`count` of the deals ``rows`` only: ``(len(rows), 4)``, or ``(len(rows), 4, 4)`` with ``by_suit``.

        From the batch's count when it is made (per suit, for a count per
        hand); else, when ``rows`` are under a quarter of the batch (the
        deals a condition accepted), for those deals alone and not kept;
        else the whole batch's, kept.  A subclass that counts its own way
        (library mode's byte tables) always counts the whole batch.
        """
        if rows.size == self.n:
            return self.count(weights, by_suit=by_suit)
        known = self._known(weights, by_suit)
        if known is not None:
            return known[rows]
        suits = None if by_suit else self._known(weights, True)
        if suits is not None:
            return _per_hand(suits[rows])
        if 4 * rows.size < self.n and type(self)._count is Hands._count:
            subset, codes = self._subset(rows)
            counts = count_rows(subset, _key(weights), codes)
            return counts if by_suit else _per_hand(counts)
        return self.count(weights, by_suit=by_suit)[rows]

    def _subset(
        self, rows: NDArray[np.intp]
    ) -> tuple[NDArray[np.int8], tuple[NDArray[np.intp], NDArray[np.intp]] | None]:
        """The owner rows of the deals ``rows`` and their :func:`suit_codes`, shared by the counts asked of the
        same deals (every action over a batch's accepted deals): made once for the last ``rows`` asked."""
        last = self.__dict__.get("_last_subset")
        if last is not None and np.array_equal(last[0], rows):
            return last[1], last[2]
        subset = self.owners[rows]
        codes = suit_codes(subset) if self._dealt or subset.size == 0 or subset.min() >= 0 else None
        self.__dict__["_last_subset"] = (np.array(rows, copy=True), subset, codes)  # a copy: ``rows`` may change
        return subset, codes

    def _known(self, weights: Sequence[float], by_suit: bool) -> NDArray[Any] | None:
        """The count already made for these very weights, or None."""
        if not isinstance(weights, tuple):
            return None
        try:
            return self._counts.get((weights, by_suit))
        except TypeError:  # a weight that cannot be hashed
            return None

    def _count(self, weights: tuple[float, ...], by_suit: bool) -> NDArray[Any]:
        if not by_suit:
            return _per_hand(self.count(weights, by_suit=True))
        return count_rows(self.owners, weights, self._codes)

    @functools.cached_property
    def lengths(self) -> NDArray[np.int8]:
        return self.count((1,) * 13, by_suit=True).astype(np.int8)

    hcp = _Points(HCP_WEIGHTS)
    hcp_by_suit = _Points(HCP_WEIGHTS, by_suit=True)
    controls = _Points(CONTROL_WEIGHTS)
    controls_by_suit = _Points(CONTROL_WEIGHTS, by_suit=True)

    def lengths_in(self, suit: int) -> NDArray[np.int8]:
        """``(n, 4)`` int8: each seat's length in ``suit`` (S=0 H D C=3), ``lengths[:, :, suit]``.

        What reads one suit asks here: a batch that counts from bytes
        (library mode) then counts that suit alone.
        """
        return self.lengths[:, :, suit]

    @functools.cached_property
    def _honours(self) -> tuple[NDArray[Any], ...]:
        """Whether each suit holds its ace, king, queen, jack, ten: five ``(n, 4, 4)`` counts."""
        return tuple(self.count((0,) * r + (1,), by_suit=True) for r in range(5))

    @functools.cached_property
    def losers_by_suit(self) -> NDArray[np.int8]:
        return losers_from(self.lengths, *self._honours[:3])

    @functools.cached_property
    def losers(self) -> NDArray[np.int8]:
        return _per_hand(self.losers_by_suit)

    @functools.cached_property
    def ltc_by_suit(self) -> NDArray[np.int16]:
        return ltc_from(self.lengths, *self._honours)

    @functools.cached_property
    def ltc(self) -> NDArray[np.int16]:
        return _per_hand(self.ltc_by_suit)

    @functools.cached_property
    def holding(self) -> NDArray[np.bool_]:
        """``(n, 4, 4, 13)`` bool: ``[deal, seat, suit, rank A..2]`` held."""
        return self.owners.reshape(self.n, 1, 4, 13) == np.arange(4, dtype=np.int8).reshape(1, 4, 1, 1)

    @functools.cached_property
    def shape_codes(self) -> NDArray[np.int16]:
        lengths = self.lengths.astype(np.int16)
        return (lengths[..., 0] * 14 + lengths[..., 1]) * 14 + lengths[..., 2]

    @functools.cached_property
    def quality_by_suit(self) -> NDArray[np.int64]:
        return quality(self.holding)

    @functools.cached_property
    def cccc(self) -> NDArray[np.int64]:
        return cccc(self.holding, self.quality_by_suit)


#: The name :class:`Hands` had before the dealer's batch type was merged into it.
HandArrays = Hands


_A, _K, _Q, _J, _T, _9, _8 = range(7)


def quality(holding: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Dealer's ``quality()``: suit quality x100 per ``[deal, seat, suit]`` from holdings ``(n, 4, 4, 13)``.

    Notes
    -----
    Dealer's ``quality()`` and ``cccc()``: Kaplan and Rubens' evaluation (The Bridge World, October 1982), x100.

    Both work on a batch's holdings ``(n, 4, 4, 13)`` bool ``[deal, seat N E S W,
    suit S H D C, rank A..2]`` and return integers (the article's values times
    100), exactly as Debian's ``dealer`` computes them; ``tests/dealer/
    test_agreement.py`` checks both against ``dealer``.

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


def cccc(holding: NDArray[np.bool_], qualities: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
    """Dealer's ``cccc()``: Kaplan-Rubens hand value x100 per ``[deal, seat]`` from holdings ``(n, 4, 4, 13)``.

    ``qualities`` is :func:`quality` of the same holdings when already known
    (:func:`quality`'s notes define both).
    """
    h = holding.astype(np.int64)
    length = h.sum(axis=-1)
    a, k, q, j, t, nine = (h[..., r] for r in (_A, _K, _Q, _J, _T, _9))
    per_suit = 300 * a + 200 * k + 100 * q + (quality(holding) if qualities is None else qualities)
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
