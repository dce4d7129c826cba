"""What the Pythonic layer shares: Python values to DDS's structs and back.

``solver``, ``pool`` and ``play`` all turn a deal and a position into
DDS's ``struct deal``, a ``futureTricks`` into :class:`Solutions`, and a
batch of deals into ``(N, 4, 4)`` mask arrays.  Each of those steps lives
here once, under a name public inside the package, so no module reaches
into another's private names and ``pool`` need not import ``solver``.

The checks of a position are :mod:`ddsbind.game`'s (the one model of
play): :func:`position` parses and checks a deal, trump, leader and
current trick once, raising one class per fault from every entry point
(``FirstWrongError`` for a bad leader, ``TrumpWrongError`` for a bad
trump, ``CardCountError``/``PlayedCardError``/``DuplicateCardsError``/
``PlayFaultError`` for a bad current trick, as DDS would).

Conventions (DDS's): seats N=0 E=1 S=2 W=3; strains S=0 H=1 D=2 C=3 NT=4;
ranks 2..14; ``remainCards[hand][suit]`` bit ``r`` for rank ``r``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ParamSpec, Protocol, TypeVar, overload

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from ddsbind import _holdings, dll, game
from ddsbind._binding import CData, ffi
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import ArgumentError, CardCountError, DDSError, InvalidArgumentError
from ddsbind.game import CardPlay, as_deal
from ddsbind.results import Position, ScoredCard, Solutions

__all__ = [
    "CardPlayFunction",
    "as_deal",
    "card_play_call",
    "check_table_deals",
    "decode_future",
    "distinct_deals",
    "fill_deal",
    "hand_lengths",
    "int_view",
    "new_deal",
    "parse_plays",
    "position",
    "read_card_play",
    "table_masks",
    "text",
]


# -- results --------------------------------------------------------------------------


def decode_future(fut: CData) -> Solutions:
    """A ``futureTricks`` as :class:`Solutions`."""
    out = []
    for i in range(fut.cards):
        s = fut.suit[i]
        eq = fut.equals[i]
        equals = tuple(Card(s, r) for r in range(14, 1, -1) if eq >> r & 1)
        out.append(ScoredCard(Card(s, fut.rank[i]), fut.score[i], equals))
    return Solutions(tuple(out), fut.nodes)


# -- positions ------------------------------------------------------------------------


def position(
    deal: object,
    trump: Strain | int | str,
    first: Seat | int | str,
    current_trick: str | Iterable[Card | str] = (),
    *,
    function: str,
) -> Position:
    """Parse and check a position as every entry point does, in DDS's order.

    Raises the class DDS returns for each fault (see :mod:`ddsbind.game`),
    with ``function`` (the DDS function about to be called) set.
    """
    try:
        d = as_deal(deal)
        strain = Strain.parse(trump)
        leader = game.parse_leader(first)
        trick = game.parse_trick(current_trick)
        game.check_current_trick(d, leader, trick)
    except DDSError as exc:
        exc.function = exc.function or function
        raise
    return Position(d, strain, leader, tuple(trick))


P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class CardPlayFunction(Protocol[P, R_co]):
    """A function of a :class:`~ddsbind.game.CardPlay`, called with one or with ``CardPlay``'s arguments."""

    @overload
    def __call__(self, played: CardPlay, /) -> R_co: ...
    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...


def read_card_play(function: str, *args: Any, make: Callable[..., CardPlay] = CardPlay, **kwargs: Any) -> CardPlay:
    """``make(*args, **kwargs)`` (a :class:`~ddsbind.game.CardPlay`), its faults raised with ``function`` set."""
    try:
        return make(*args, **kwargs)
    except DDSError as exc:
        exc.function = exc.function or function
        raise


def card_play_call(
    make: Callable[P, CardPlay], function: str
) -> Callable[[Callable[[CardPlay], R]], CardPlayFunction[P, R]]:
    """Let an analysis of a :class:`~ddsbind.game.CardPlay` be called with one or with its arguments.

    ``analysis(CardPlay(deal, strain, leader, plays))`` and ``analysis(deal,
    strain, leader, plays)`` are the same call: the arguments are read by
    ``make`` (``CardPlay``), its faults raised with ``function`` (the DDS
    function the analysis calls) set, as every entry point raises them.
    """

    def wrap(analysis: Callable[[CardPlay], R]) -> CardPlayFunction[P, R]:
        @functools.wraps(analysis)
        def call(*args: Any, **kwargs: Any) -> R:
            given = [*args, *kwargs.values()] if set(kwargs) <= {"played"} else ()
            if len(given) == 1 and isinstance(given[0], CardPlay):
                return analysis(given[0])
            return analysis(read_card_play(function, *args, make=make, **kwargs))

        return call

    return wrap


def parse_plays(plays: str | Iterable[Card | str], *, function: str) -> list[Card]:
    """A play sequence (``"C4CACJ"``, ``"C4, CA"``, ``"C10 CA"`` or cards) via :func:`ddsbind.game.parse_cards`."""
    try:
        return game.parse_cards(plays)
    except DDSError as exc:
        exc.function = exc.function or function
        raise


def fill_deal(dl: CData, pos: Position) -> CData:
    """Write ``pos`` into a ``struct deal`` (a new one, or an element of ``boards.deals``); returns ``dl``."""
    dl.trump = pos.strain
    dl.first = pos.leader
    dl.remainCards = pos.deal.remain_cards.tolist()
    for k in range(3):
        c = pos.trick[k] if k < len(pos.trick) else None
        dl.currentTrickSuit[k] = c.suit if c else 0
        dl.currentTrickRank[k] = c.rank if c else 0
    return dl


def new_deal(pos: Position) -> CData:
    """A new ``struct deal`` holding ``pos``."""
    return fill_deal(dll.deal(), pos)


# -- batches of deals -------------------------------------------------------------------


def table_masks(deals: Sequence[Deal | str] | ArrayLike) -> NDArray[np.uint32]:
    """``(N, 4, 4)`` uint32 masks of the deals; a fault names the deal by its index (``.at(i, "deal")``)."""
    if isinstance(deals, np.ndarray):
        if deals.ndim != 3 or deals.shape[1:] != (4, 4):
            raise InvalidArgumentError(f"deal masks must have shape (N, 4, 4), got {deals.shape}")
        if deals.dtype.kind not in "iu":
            raise InvalidArgumentError(f"deal masks must be integers, got dtype {deals.dtype}")
        # Refuse, not wrap: an int64 mask beyond 16 bits is not a holding.
        stray = (deals < 0) | (deals > _holdings.FULL_SUIT)
        stray |= (deals & np.asarray(_holdings.FULL_SUIT, deals.dtype)) != deals
        bad = np.flatnonzero(stray.any(axis=(1, 2)))
        if bad.size:
            i = int(bad[0])
            fault = _holdings.stray_bits(deals[i].tolist())
            assert fault is not None  # the record has a stray bit
            raise fault.at(i, "deal")
        return deals.astype(np.uint32, copy=False)
    if isinstance(deals, str) or not isinstance(deals, Sequence):
        raise ArgumentError(f"deals must be a sequence of deals or an (N, 4, 4) array, got {type(deals).__name__}")
    out = np.zeros((len(deals), 4, 4), np.uint32)
    for i, d in enumerate(deals):
        try:
            out[i] = as_deal(d).remain_cards
        except DDSError as exc:
            raise exc.at(i, "deal") from None
    return out


def distinct_deals(masks: NDArray[np.integer]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The distinct deals of ``(N, 4, 4)`` masks, in order of first appearance, and the map back.

    Returns ``(first, inverse)``: ``masks[first]`` are the distinct deals
    (``first[k]`` is the input position of deal ``k``'s first appearance,
    increasing), and ``masks[first][inverse]`` equals ``masks``.  Tables
    solved for ``masks[first]`` give every input deal's table as
    ``tables[inverse]``.  First-appearance order keeps a long call's work
    in input order, so progress and memory stay local.
    """
    n = len(masks)
    if n == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    rows = np.ascontiguousarray(masks, dtype=np.uint32).reshape(n, 16)
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    # np.unique sorts by value; renumber the groups by first appearance.
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), np.intp)
    rank[order] = np.arange(len(order))
    return first[order].astype(np.intp), rank[inverse.reshape(-1)]


def hand_lengths(masks: NDArray[np.uint32]) -> NDArray[np.int64]:
    """``(N, 4)`` cards per hand (N E S W) of ``(N, 4, 4)`` masks, counted in bulk."""
    bits = np.unpackbits(np.ascontiguousarray(masks, dtype="<u4").view(np.uint8), axis=-1)
    return bits.reshape(len(masks), 4, 128).sum(axis=-1, dtype=np.int64)


def check_table_deals(masks: NDArray[np.uint32], lengths: NDArray[np.int64]) -> None:
    """Refuse a deal that has no DD table (hands of different lengths, no cards), naming it by index.

    Endings (equal hands of fewer than 13 cards) pass: they have a table.
    """
    uneven = np.flatnonzero((lengths != lengths[:, :1]).any(axis=1) | (lengths[:, 0] == 0))
    if uneven.size:
        i = int(uneven[0])
        try:
            Deal(masks[i])  # raises for a deal that is no deal at all (duplicates, no cards)
        except DDSError as exc:
            raise exc.at(i, "deal") from None
        raise CardCountError(
            "hands hold N={} E={} S={} W={} cards; a DD table needs equal hands".format(*lengths[i].tolist()),
            function="CalcAllTables",
            field="cards",
        ).at(i, "deal")


# -- cffi memory, for the layer above -------------------------------------------------------


def int_view(field: CData, dtype: DTypeLike, shape: tuple[int, ...]) -> NDArray[np.generic]:
    """A writable numpy view of a struct's array ``field`` (no copy), e.g. ``ddTableDeals.deals``."""
    return np.frombuffer(ffi.buffer(field), dtype=dtype).reshape(shape)


def text(field: CData) -> str:
    """A ``char[]`` field DDS wrote (a par score, a contract) as ``str``."""
    return ffi.string(field).decode("ascii", "replace")
