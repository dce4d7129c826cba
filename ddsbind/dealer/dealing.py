"""Dealing to a predeal, exactly and reproducibly, in batches of numpy arrays.

A deal is an owner row: ``owners[c]`` is the DDS seat (N=0, E=1, S=2, W=3)
holding card ``c = 13 * suit + (14 - rank)`` (suits S, H, D, C; ranks A=14
.. 2), the layout of :func:`ddsbind.deal.owners_to_masks`.

Two generators deal (:mod:`ddsbind.dealer.kernel`, which names them): the
compiled kernel ``philox-shuffle-1`` (the default), and the recipe below,
``philox-sort-1``, ddsbind's first, kept so that its runs can be dealt again.

Recipe ``philox-sort-1`` (version :data:`DEALER_VERSION`): batch ``k`` of seed ``S`` holds
:data:`BATCH` deals.  Philox4x64-10 keyed by ``S`` with counter
``2**192 + k * 2**64`` (a counter range the database recipe, which counts
from 0, never reaches) gives ``BATCH * m / 2`` 64-bit words, read as
``BATCH * m`` 32-bit keys (little-endian halves), ``m`` the number of cards
not predealt, one row of ``m`` keys per deal.  Each key's low 6 bits are
replaced by the card's position ``0 .. m-1`` and the row is sorted: the
positions in sorted order are a uniformly random permutation ``p`` provided
no two keys share their 26 random bits.  A row where two do (about 2 in
100,000) is dealt again from its own counter range
``2**192 + k * 2**64 + 2**63 + row * 2**20 + 16 * attempt`` with 58-bit
random keys, again until no two are equal; so every row is an exact uniform
permutation.  Card ``j`` of the free cards goes to free slot ``p[j]``; the
free slots are each seat's ``13 - predealt`` places in seat order.  So
every completion of the predeal is equally likely (an exact sample, no
swapping), and a batch is a pure function of ``(S, k, predeal)``: the same
whatever the number of threads or Dask workers.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import RANKS_HIGH_FIRST, SEAT_LETTERS, SUITS, Card
from ddsbind.dealer import kernel
from ddsbind.errors import DealerError
from ddsbind.hands import Hands

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "BATCH",
    "DEALER_VERSION",
    "DealerError",
    "Hands",
    "Predeal",
    "check_generator",
    "counts_room",
    "deal_batch",
    "deal_batches",
]

#: Deals per batch: the unit of reproducibility (deal ``i`` of a run is row ``i % BATCH`` of batch ``i // BATCH``).
BATCH = 1 << 14
#: Version of the recipe ``philox-sort`` in the module docstring (:data:`ddsbind.dealer.kernel.SORT`).
DEALER_VERSION = 1
_SEED_LIMIT = 1 << 128
#: dealer's swapping (``-2``, ``-3``): for each dealt deal, the seat each hand moves to, in dealer's order.
SWAPS: dict[int, NDArray[np.int8]] = {
    0: np.array([[0, 1, 2, 3]], dtype=np.int8),
    2: np.array([[0, 1, 2, 3], [0, 3, 2, 1]], dtype=np.int8),
    3: np.array([[0, 1, 2, 3], [0, 3, 2, 1], [0, 2, 3, 1], [0, 1, 3, 2], [0, 3, 1, 2], [0, 2, 1, 3]], dtype=np.int8),
}
_LOW6 = np.uint64(63)
_HIGH58 = np.uint64(((1 << 64) - 1) ^ 63)
_LOW6_32 = np.uint32(63)
_HIGH26 = np.uint32(((1 << 32) - 1) ^ 63)
_COUNTER_BASE = 1 << 192


@dataclasses.dataclass(frozen=True)
class Predeal:
    """Cards given to seats before dealing.

    Parameters
    ----------
    owners : ndarray, shape (52,), int8
        DDS seat (N=0, E=1, S=2, W=3) of each predealt card, -1 for a card
        dealt at random.  Card order as :attr:`ddsbind.Card.index`.

    Raises
    ------
    DealerError
        A seat given more than 13 cards, or a seat outside 0..3.
    """

    owners: NDArray[np.int8] = dataclasses.field(default_factory=lambda: np.full(52, -1, dtype=np.int8))

    def __post_init__(self) -> None:
        owners = np.asarray(self.owners, dtype=np.int8).reshape(52).copy()
        if ((owners < -1) | (owners > 3)).any():
            raise DealerError("predeal: seats are 0..3 (N E S W) or -1")
        counts = np.bincount(owners[owners >= 0], minlength=4)
        for seat in range(4):
            if counts[seat] > 13:
                raise DealerError(f"predeal: {SEAT_LETTERS[seat]} is given {counts[seat]} cards, more than 13")
        owners.setflags(write=False)
        object.__setattr__(self, "owners", owners)

    @classmethod
    def from_hands(cls, hands: dict[str, str]) -> Predeal:
        """A predeal from seat letters to holdings, e.g. ``{"S": "SAQ542,HKJ87,D32,CAK", "N": "S2"}``.

        Holdings are suit letter then ranks (``AKQJT98765432``), suits
        separated by commas (or dots in PBN order, ``"AQ542.KJ87.32.AK"``).

        Raises
        ------
        DealerError
            An unknown seat, suit or rank, a card given twice, more than 13 cards to a seat.
        """
        owners = np.full(52, -1, dtype=np.int8)
        for seat_name, holding in hands.items():
            seat = SEAT_LETTERS.find(seat_name.upper()[:1]) if seat_name else -1
            if seat < 0:
                raise DealerError(f"predeal: unknown seat {seat_name!r}")
            for card in cards_of(holding):
                if owners[card] >= 0:
                    raise DealerError(f"predeal: {card_name(card)} is predealt twice")
                owners[card] = seat
        return cls(owners)

    def add(self, seat: int, cards: Sequence[int]) -> Predeal:
        """This predeal plus ``cards`` (indices) to ``seat``; :class:`DealerError` if one is already predealt."""
        owners = self.owners.copy()
        for card in cards:
            if owners[card] >= 0:
                raise DealerError(f"predeal: {card_name(card)} is predealt twice")
            owners[card] = seat
        return Predeal(owners)

    @functools.cached_property
    def free_cards(self) -> NDArray[np.intp]:
        """Indices of the cards dealt at random, ascending."""
        return np.flatnonzero(self.owners < 0)

    @functools.cached_property
    def free_slots(self) -> NDArray[np.int8]:
        """Seat of each free slot: ``13 - predealt`` copies of each seat, in seat order."""
        counts = np.bincount(self.owners[self.owners >= 0], minlength=4)
        return np.repeat(np.arange(4, dtype=np.int8), 13 - counts)


def card_name(card: int) -> str:
    """``"SA"`` for card 0, ``"C2"`` for card 51 (suit letter, rank letter)."""
    return str(Card.from_index(int(card)))


def cards_of(holding: str) -> list[int]:
    """Card indices of a holding like ``"SAQ542,HKJ87"`` or ``"AQ542.KJ87.32.AK"``.

    Raises :class:`DealerError` if malformed.
    """
    text = holding.replace(" ", "").upper()
    cards: list[int] = []
    if "." in text or re.fullmatch(r"[AKQJT2-9]*", text):
        parts = text.split(".")
        if len(parts) != 4:
            raise DealerError(f"predeal: {holding!r} is not four suits separated by dots")
        groups = list(zip(SUITS, parts, strict=True))
    else:
        groups = []
        for part in text.split(","):
            if not part or part[0] not in SUITS:
                raise DealerError(f"predeal: {part!r} does not start with a suit letter S, H, D or C")
            groups.append((part[0], part[1:]))
    for suit, ranks in groups:
        for rank in ranks:
            if rank not in RANKS_HIGH_FIRST:
                raise DealerError(f"predeal: {rank!r} is not a rank (AKQJT98765432)")
            card = 13 * SUITS.index(suit) + RANKS_HIGH_FIRST.index(rank)
            if card in cards:
                raise DealerError(f"predeal: {card_name(card)} is given twice")
            cards.append(card)
    return cards


def check_seed(seed: object) -> int:
    """``seed`` as an int in ``0 .. 2**128 - 1``; :class:`DealerError` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < _SEED_LIMIT:
        raise DealerError(f"seed must be an integer in 0 .. 2**128-1, got {seed!r}")
    return int(seed)


def check_generator(generator: object) -> str:
    """``generator`` if it names one of :data:`ddsbind.dealer.kernel.GENERATORS`; :class:`DealerError` otherwise."""
    if not isinstance(generator, str) or generator not in kernel.GENERATORS:
        raise DealerError(f"unknown generator {generator!r}: choose one of {', '.join(kernel.GENERATORS)}")
    return generator


def deal_batch(
    seed: int,
    batch: int,
    predeal: Predeal | None = None,
    size: int = BATCH,
    swap: int = 0,
    generator: str = kernel.DEFAULT_GENERATOR,
    counts: kernel.Counts | None = None,
) -> NDArray[np.int8]:
    """Batch ``batch`` of ``seed``: owner rows ``(size, 52)`` int8 (DDS seats N=0 E=1 S=2 W=3).

    ``size`` below :data:`BATCH` gives the first ``size`` rows of the full
    batch (the same deals, fewer of them).  ``generator`` names the recipe
    (:data:`ddsbind.dealer.kernel.GENERATORS`): the compiled kernel's deal
    ``batch * BATCH + row`` for row ``row`` (the default), or the module
    docstring's recipe.  ``swap`` is dealer's ``-2``/``-3``: each deal of the recipe is
    followed by the deals :data:`SWAPS` makes of it by moving whole hands
    between seats (2: East and West exchanged; 3: the six arrangements of
    East, South and West, North in place), the batch still ``size`` rows;
    predealt cards move with their hands, as in dealer.

    ``counts`` (:func:`counts_room`) is filled with the deals' suit lengths,
    high-card points, controls and losers, counted by the compiled kernel in
    the pass that deals (measured about 6 times cheaper than counting lengths
    and points from the owner rows afterwards); give them to
    :class:`~ddsbind.hands.Hands` with the rows.

    Raises
    ------
    DealerError
        A bad seed, generator, size or swap; ``counts`` for deals the kernel does not deal.

    Examples
    --------
    >>> owners = deal_batch(1, 0, size=2)
    >>> owners.shape, np.bincount(owners[0]).tolist()
    ((2, 52), [13, 13, 13, 13])
    """
    seed = check_seed(seed)
    generator = check_generator(generator)
    if not 0 <= size <= BATCH:
        raise DealerError(f"batch size must be 0 .. {BATCH}, got {size}")
    if swap not in SWAPS:
        raise DealerError(f"swap must be 0, 2 or 3, got {swap!r}")
    if counts is not None and (counts_room(size, swap, generator) is None or counts.lengths.shape[0] != size):
        raise DealerError(f"counts are made while dealing {size} deals by {kernel.SHUFFLE} without swapping only")
    if swap:
        arrangements = SWAPS[swap]
        base = deal_batch(seed, batch, predeal, -(-size // len(arrangements)), generator=generator)
        # Row j of the base gives rows j*k .. j*k+k-1: owner o of a card becomes arrangement[o].
        return arrangements[:, base].transpose(1, 0, 2).reshape(-1, 52)[:size].copy()
    predeal = predeal or Predeal()
    free = predeal.free_cards
    if generator == kernel.SHUFFLE:
        return kernel.deal_rows(seed, batch * BATCH, size, predeal.owners, free, predeal.free_slots, counts)
    m = free.size
    out = np.empty((size, 52), dtype=np.int8)
    out[:] = predeal.owners
    if m == 0 or size == 0:
        return out
    perm = _permutations(seed, batch, size, m)
    # Free slot p belongs to the seat whose block of slots holds it: count the block ends at or below p.
    ends = np.cumsum(np.bincount(predeal.free_slots, minlength=4))[:3].astype(np.uint8)
    seats = (perm >= ends[0]).view(np.int8) + (perm >= ends[1]).view(np.int8) + (perm >= ends[2]).view(np.int8)
    if m == 52:
        return seats
    out[:, free] = seats
    return out


def counts_room(size: int, swap: int = 0, generator: str = kernel.DEFAULT_GENERATOR) -> kernel.Counts | None:
    """Room for :func:`deal_batch` to count ``size`` deals in, or None where it cannot (swapping, the sort recipe)."""
    return kernel.Counts.empty(size) if generator == kernel.SHUFFLE and not swap else None


def _permutations(seed: int, batch: int, size: int, m: int) -> NDArray[np.uint8]:
    """``(size, m)`` uniformly random permutations of ``0 .. m-1`` for batch ``batch`` (module docstring)."""
    counter = _COUNTER_BASE + batch * (1 << 64)
    words = np.random.Philox(key=seed, counter=counter).random_raw((size * m + 1) // 2)
    keys = words.view(np.uint32)[: size * m].reshape(size, m)
    keys &= _HIGH26
    keys |= np.arange(m, dtype=np.uint32)
    keys.sort(axis=1)
    perm = (keys & _LOW6_32).astype(np.uint8)
    # Equal random parts would let the position break the tie (a bias): such rows are dealt again.
    tied = np.flatnonzero(((keys[:, 1:] ^ keys[:, :-1]) <= _LOW6_32).any(axis=1))
    if tied.size:
        perm[tied] = _redraw(seed, batch, tied, m)
    return perm


def _redraw(seed: int, batch: int, rows: NDArray[np.intp], m: int) -> NDArray[np.uint8]:
    """Permutations for the tied ``rows`` of a batch: 64-bit keys from each row's own counter range."""
    out = np.empty((rows.size, m), dtype=np.uint8)
    for i, row in enumerate(rows.tolist()):
        attempt = 0
        while True:
            counter = _COUNTER_BASE + batch * (1 << 64) + (1 << 63) + row * (1 << 20) + attempt * 16
            keys = np.random.Philox(key=seed, counter=counter).random_raw(m)
            keys &= _HIGH58
            keys |= np.arange(m, dtype=np.uint64)
            keys.sort()
            if not ((keys[1:] ^ keys[:-1]) <= _LOW6).any():
                out[i] = (keys & _LOW6).astype(np.uint8)
                break
            attempt += 1
    return out


def deal_batches(
    seed: int,
    count: int,
    predeal: Predeal | None = None,
    *,
    threads: int | None = 1,
    start: int = 0,
    client: Any = None,
    swap: int = 0,
    generator: str = kernel.DEFAULT_GENERATOR,
) -> Iterator[NDArray[np.int8]]:
    """Deals ``start*BATCH ..`` of ``seed``, ``count`` deals in all, yielded batch by batch in order.

    Parameters
    ----------
    seed : int
        Philox key, ``0 .. 2**128 - 1``.
    count : int
        Number of deals; the last batch is cut short.
    predeal : Predeal, optional
        Cards fixed before dealing.
    threads : int or None
        Threads dealing ahead (the kernel, numpy's sort and Philox release the GIL);
        ``None`` is one per core.  The deals do not depend on it.
    start : int
        First batch number.
    client : dask.distributed.Client, optional
        Deal on this Dask cluster instead; the same deals.
    swap : int
        dealer's ``-0``/``-2``/``-3`` (see :func:`deal_batch`).
    generator : str
        The generator's name (:data:`ddsbind.dealer.kernel.GENERATORS`).

    Yields
    ------
    ndarray, shape (k, 52), int8
        Owner rows, DDS seats N=0 E=1 S=2 W=3.
    """
    sizes = batch_sizes(count, start)
    if client is not None:
        ahead = max(2, 2 * len(client.scheduler_info().get("workers", {}) or [1]))
        futures: collections.deque[Any] = collections.deque()
        for k, size in sizes:
            futures.append(client.submit(deal_batch, seed, k, predeal, size, swap, generator, pure=True))
            if len(futures) > ahead:
                yield futures.popleft().result()
        for future in futures:
            yield future.result()
        return
    yield from ordered_map(lambda item: deal_batch(seed, item[0], predeal, item[1], swap, generator), sizes, threads)


def batch_sizes(count: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """``(batch number, deals in it)`` for ``count`` deals from batch ``start``, lazily."""
    for i in range((count + BATCH - 1) // BATCH):
        yield start + i, min(BATCH, count - i * BATCH)


_T = TypeVar("_T")
_R = TypeVar("_R")


def ordered_map(function: Callable[[_T], _R], items: Iterable[_T], threads: int | None) -> Iterator[_R]:
    """``function`` over ``items`` on ``threads`` threads (``None``: one per core), results in input order.

    The first item runs on the calling thread and the threads start only
    when a second result is asked for: a run that stops after one batch
    (``produce 1``) deals nothing ahead and starts no thread.  Then at most
    ``2 * threads`` items run ahead of the result last yielded; stopping
    early cancels those not yet started.
    """
    workers = threads if threads is not None else (os.cpu_count() or 1)
    items = iter(items)
    for item in items:
        yield function(item)
        break
    if workers == 1:
        yield from map(function, items)
        return
    from concurrent.futures import ThreadPoolExecutor  # with logging, a few ms of start-up a one-thread run skips

    pending: collections.deque[Future[_R]] = collections.deque()
    with ThreadPoolExecutor(max_workers=workers) as executor:
        try:
            for item in items:
                pending.append(executor.submit(function, item))
                if len(pending) > 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


# Alternate counts pt0..pt9 by default, per rank A K Q J T (dealer's manual:
# tens, jacks, queens, kings, aces, top2, top3, top4, top5, c13).
DEFAULT_ALTCOUNTS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 1),
    (0, 0, 0, 1, 0),
    (0, 0, 1, 0, 0),
    (0, 1, 0, 0, 0),
    (1, 0, 0, 0, 0),
    (1, 1, 0, 0, 0),
    (1, 1, 1, 0, 0),
    (1, 1, 1, 1, 0),
    (1, 1, 1, 1, 1),
    (6, 4, 2, 1, 0),
)
