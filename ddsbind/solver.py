"""The Pythonic layer: ``Deal`` objects and numpy arrays in, results out, errors raised.

Conventions (DDS's): seats N=0 E=1 S=2 W=3; strains S=0 H=1 D=2 C=3 NT=4;
a DD table is ``[strain][declarer]`` -- tricks the declarer takes in that
strain.  Vulnerability uses DDS's encoding: 0 none, 1 both, 2 NS, 3 EW (or
the strings ``"none"``, ``"both"``, ``"NS"``, ``"EW"``).

Every function checks its input before DDS sees it and raises a
:class:`~ddsbind.errors.DDSError` subclass carrying the code DDS would have
returned and naming the card or field at fault.  DDS runs with the GIL
released.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind import dll
from ddsbind._binding import slots
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import (
    CardCountError,
    DuplicateCardsError,
    InvalidArgumentError,
    PBNError,
    PlayedCardError,
    PlayFaultError,
    check,
    error_class,
)

__all__ = [
    "DDTable",
    "DealerPar",
    "Par",
    "ScoredCard",
    "Solutions",
    "analyse_play",
    "dd_table",
    "dd_tables",
    "dd_tables_array",
    "dealer_par",
    "par",
    "parse_vulnerability",
    "solve_board",
]

_VUL_NAMES = {"none": 0, "-": 0, "love": 0, "both": 1, "all": 1, "ns": 2, "ew": 3}


def parse_vulnerability(vul: int | str) -> int:
    """DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW) from an int or a name."""
    if isinstance(vul, str):
        key = vul.strip().lower().replace("-", "").replace("/", "") or "none"
        if key in _VUL_NAMES:
            return _VUL_NAMES[key]
        raise InvalidArgumentError(f"vulnerability {vul!r}: expected none, both, NS or EW")
    try:
        v = operator.index(vul)
    except TypeError:
        raise InvalidArgumentError(f"vulnerability {vul!r} is not an int or a name") from None
    if not 0 <= v <= 3:
        raise InvalidArgumentError(f"vulnerability {v} is not 0..3 (0 none, 1 both, 2 NS, 3 EW)")
    return v


def _raise_last(rc: int, function: str) -> None:
    code, fn, detail = dll.last_error()
    check(rc, function, detail if fn == function and code == rc else None)


# -- solve_board -------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredCard:
    """A card DDS returned, its score, and the lower cards equivalent to it."""

    card: Card
    #: Tricks the side to play takes from here on with this card (DDS ``score``:
    #: -1 target not reached, -2 only card and mode 0 did not search).
    score: int
    #: Lower cards of the same suit and hand that are equivalent (from ``equals``).
    equals: tuple[Card, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """This card and its equivalents, highest first."""
        return (self.card, *self.equals)


@dataclass(frozen=True)
class Solutions:
    """``futureTricks``, decoded: the cards to play and their scores."""

    cards: tuple[ScoredCard, ...]
    #: Search nodes DDS visited.
    nodes: int

    @property
    def best_score(self) -> int:
        """The highest score among the returned cards (the DD result with solutions=3)."""
        return max(c.score for c in self.cards)

    def score_of(self, card: Card | str) -> int:
        """The score of ``card`` or of the returned card it is equivalent to."""
        c = Card.parse(card)
        for sc in self.cards:
            if c in sc.cards:
                return sc.score
        raise KeyError(f"{c} is not among the returned cards or their equivalents")

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


def _decode_future(fut: object) -> Solutions:
    out = []
    for i in range(fut.cards):  # type: ignore[attr-defined]
        s = fut.suit[i]  # type: ignore[attr-defined]
        eq = fut.equals[i]  # type: ignore[attr-defined]
        equals = tuple(Card(s, r) for r in range(14, 1, -1) if eq >> r & 1)
        out.append(ScoredCard(Card(s, fut.rank[i]), fut.score[i], equals))  # type: ignore[attr-defined]
    return Solutions(tuple(out), fut.nodes)  # type: ignore[attr-defined]


def _fill_deal(dl: object, deal: Deal, trump: int, first: int, current_trick: Sequence[Card]) -> None:
    dl.trump = trump  # type: ignore[attr-defined]
    dl.first = first  # type: ignore[attr-defined]
    dl.remainCards = deal.remain_cards.tolist()  # type: ignore[attr-defined]
    for k, c in enumerate(current_trick):
        dl.currentTrickSuit[k] = c.suit  # type: ignore[attr-defined]
        dl.currentTrickRank[k] = c.rank  # type: ignore[attr-defined]


def _as_deal(deal: Deal | str | ArrayLike) -> Deal:
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.from_pbn(deal)
    if isinstance(deal, np.ndarray | list | tuple):
        return Deal(deal)
    raise PBNError(f"a deal must be a Deal, a PBN string or a (4, 4) mask array, got {type(deal).__name__}")


def _trick(deal: Deal, first: Seat, cards: Iterable[Card | str], function: str) -> tuple[Card, ...]:
    """Parse and check the current trick against the deal.

    DDS infers how many cards are on the trick from the card count and ignores
    the rest, so a trick that does not fit the deal is refused here.
    """
    out = tuple(Card.parse(c) for c in cards)
    if len(out) > 3:
        raise CardCountError(f"the current trick holds at most 3 cards, got {len(out)}", function=function)
    for c in out:
        holder = deal.holder(c)
        if holder is not None:
            raise PlayedCardError(f"{c} is on the current trick and still held by {holder.name}", function=function)
    if len(set(out)) != len(out):
        raise DuplicateCardsError("the same card is played twice to the current trick", function=function)
    lengths = deal.hand_lengths
    expected = [max(lengths)] * 4
    for k in range(len(out)):
        expected[first.next(k)] -= 1
    if list(lengths) != expected:
        raise CardCountError(
            "hands hold N={} E={} S={} W={} cards; with {} card(s) on the trick led by {} ".format(
                *lengths, len(out), first.name
            )
            + "the hands that played must hold one card fewer than the others",
            function=function,
        )
    return out


def solve_board(
    deal: Deal | str,
    trump: Strain | int | str,
    first: Seat | int | str,
    target: int = -1,
    solutions: int = 3,
    mode: int = 1,
    current_trick: Iterable[Card | str] = (),
) -> Solutions:
    """Solve one position with DDS's ``SolveBoard``.

    Parameters
    ----------
    deal : Deal or PBN string
        The cards still held.  Cards already played to the current trick are
        not in it (so those hands hold one card fewer).
    trump : Strain, 0..4 or "S"/"H"/"D"/"C"/"NT"
    first : Seat, 0..3 or "N"/"E"/"S"/"W"
        The hand that led (or is to lead) the current trick.
    target, solutions, mode : int
        As in DDS: ``target=-1`` finds the maximum; ``solutions=3`` scores every
        legal card; ``mode=1`` always searches.
    current_trick : cards
        Up to 3 cards already played to the trick, in play order from ``first``.

    Returns
    -------
    Solutions
        Each returned card with its score (tricks for the side to play from
        here) and its equivalent lower cards.

    Raises
    ------
    DDSError
        The subclass for the code DDS would return (e.g. ``DuplicateCardsError``,
        ``PlayedCardError``), naming the card or field.

    Examples
    --------
    >>> solve_board("N:A... K... Q... J...", "NT", "N").best_score
    1
    """
    d = _as_deal(deal)
    leader = Seat.parse(first)
    trick = _trick(d, leader, current_trick, "SolveBoard")
    dl = dll.deal()
    _fill_deal(dl, d, Strain.parse(trump), leader, trick)
    fut = dll.futureTricks()
    with slots.any() as thread:
        rc = dll.SolveBoard(dl, target, solutions, mode, fut, thread)
    if rc != dll.RETURN_NO_FAULT:
        _raise_last(rc, "SolveBoard")
    return _decode_future(fut)


# -- tables -------------------------------------------------------------------------


class DDTable:
    """A double-dummy table: tricks per strain and declarer.

    ``numpy.asarray(table)`` is the ``(5, 4)`` array in DDS order (strains S H
    D C NT, declarers N E S W), as ``ddTableResults.resTable``.  Index with
    DDS numbers or names: ``table["NT", "N"]``, ``table[Strain.S, Seat.E]``.
    """

    __slots__ = ("_t",)

    def __init__(self, tricks: ArrayLike) -> None:
        t = np.array(tricks, dtype=np.int8)
        if t.shape != (5, 4):
            raise InvalidArgumentError(f"a DD table has shape (5 strains, 4 declarers), got {t.shape}")
        t.setflags(write=False)
        self._t = t

    def __array__(self, dtype: object = None, copy: object = None) -> NDArray[np.int8]:
        return self._t.astype(dtype or np.int8, copy=True)

    @property
    def array(self) -> NDArray[np.int8]:
        """The read-only ``(5, 4)`` int8 array, DDS order."""
        return self._t

    def __getitem__(self, key: tuple[Strain | int | str, Seat | int | str]) -> int:
        strain, seat = key
        return int(self._t[Strain.parse(strain), Seat.parse(seat)])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DDTable):
            return bool(np.array_equal(self._t, other._t))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._t.tobytes())

    def __repr__(self) -> str:
        return f"DDTable({self._t.tolist()})"

    def __str__(self) -> str:
        lines = ["      N   E   S   W"]
        for s in (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C):
            lines.append(f"{s.symbol:>2}  " + "".join(f"{int(v):>4}" for v in self._t[s]))
        return "\n".join(lines)


def _table_masks(deals: Sequence[Deal | str] | ArrayLike) -> NDArray[np.uint32]:
    if isinstance(deals, np.ndarray):
        masks = deals.astype(np.uint32, copy=False)
        if masks.ndim != 3 or masks.shape[1:] != (4, 4):
            raise InvalidArgumentError(f"deal masks must have shape (N, 4, 4), got {masks.shape}")
        return masks
    return np.stack([_as_deal(d).remain_cards for d in deals]) if len(deals) else np.zeros((0, 4, 4), np.uint32)


def _calc_tables(masks: NDArray[np.uint32], progress: Callable[[int], None] | None = None) -> NDArray[np.int8]:
    """``(N, 4, 4)`` masks -> ``(N, 5, 4)`` tables via CalcAllTables, in calls of ``max_tables(5)``."""
    n = len(masks)
    out = np.empty((n, 5, 4), dtype=np.int8)
    step = dll.max_tables(5)
    tdeals = dll.ddTableDeals()
    res = dll.ddTablesRes()
    pres = dll.allParResults()
    no_filter = [0, 0, 0, 0, 0]
    deal_view = np.frombuffer(dll.ffi.buffer(tdeals.deals), dtype=np.uint32).reshape(-1, 4, 4)
    res_view = np.frombuffer(dll.ffi.buffer(res.results), dtype=np.int32).reshape(-1, 5, 4)
    for start in range(0, n, step):
        chunk = masks[start : start + step]
        k = len(chunk)
        deal_view[:k] = chunk
        tdeals.noOfTables = k
        rc = dll.CalcAllTables(tdeals, -1, no_filter, res, pres)
        if rc != dll.RETURN_NO_FAULT:
            _, _, detail = dll.last_error()
            if detail and detail.startswith("table "):
                idx, _, rest = detail[6:].partition(":")
                detail = f"deal {start + int(idx)}:{rest}"
            raise error_class(rc)(detail, function="CalcAllTables", code=rc)
        out[start : start + k] = res_view[:k]
        if progress is not None:
            progress(k)
    return out


#: The path :func:`dd_tables` and :func:`dd_tables_array` take: ``"batch"``
#: (DDS's ``CalcAllTables``, calls of ``dll.max_tables(5)``) or ``"pool"``
#: (a :class:`~ddsbind.SolverPool` for the call).  Chosen from
#: ``benchmarks/bench_pool.py``; the README says why.
TABLES_ROUTE = "batch"


def _tables(masks: NDArray[np.uint32], progress: Callable[[int], None] | None) -> NDArray[np.int8]:
    """Tables of ``(N, 4, 4)`` masks by the :data:`TABLES_ROUTE` path."""
    if TABLES_ROUTE == "pool" and len(masks):
        from ddsbind.pool import SolverPool  # pool builds on this module

        with SolverPool() as pool:
            return pool.dd_tables_array(masks, progress=progress)
    return _calc_tables(masks, progress)


def dd_table(deal: Deal | str) -> DDTable:
    """The double-dummy table of one deal (DDS's ``CalcDDtable``).

    Returns a :class:`DDTable`; ``numpy.asarray`` of it is ``(5, 4)``, strains
    S H D C NT by declarers N E S W.
    """
    d = _as_deal(deal)
    tdeal = dll.ddTableDeal(cards=d.remain_cards.tolist())
    res = dll.ddTableResults()
    rc = dll.CalcDDtable(tdeal, res)
    if rc != dll.RETURN_NO_FAULT:
        _raise_last(rc, "CalcDDtable")
    return DDTable([list(row) for row in res.resTable])


def dd_tables(
    deals: Sequence[Deal | str] | ArrayLike,
    *,
    progress: Callable[[int], None] | None = None,
) -> list[DDTable]:
    """Double-dummy tables of any number of deals, solved on all of DDS's threads.

    ``deals`` is a sequence of ``Deal`` objects or PBN strings, or an
    ``(N, 4, 4)`` remainCards array.  The path is :data:`TABLES_ROUTE`'s:
    ``"batch"`` calls ``CalcAllTables`` as often as needed, each with as many
    tables as DDS takes in one call; ``"pool"`` runs a
    :class:`~ddsbind.SolverPool`.  ``progress`` is called with the number of
    deals finished since its last call.

    Returns a list of :class:`DDTable` in input order.
    """
    arr = _tables(_table_masks(deals), progress)
    return [DDTable(t) for t in arr]


def dd_tables_array(masks: ArrayLike, *, progress: Callable[[int], None] | None = None) -> NDArray[np.int8]:
    """As :func:`dd_tables`, array in, array out: ``(N, 4, 4)`` masks -> ``(N, 5, 4)`` int8."""
    return _tables(_table_masks(np.asarray(masks)), progress)


# -- par ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Par:
    """``Par()``'s answer, from each side's view (which side bids first)."""

    #: Par score as DDS writes it, e.g. ``"NS -110"`` / ``"EW 110"``.
    score_text: tuple[str, str]
    #: Par contracts as DDS writes them, e.g. ``"NS:EW 2S"``.
    contracts: tuple[str, str]

    @property
    def score(self) -> int:
        """North-South's par score when NS bid first (negative: EW gain)."""
        return int(self.score_text[0].split()[-1])


@dataclass(frozen=True)
class DealerPar:
    """``DealerPar()``'s answer: score from NS's view, contracts as DDS writes them."""

    score: int
    contracts: tuple[str, ...]


def _results(table: DDTable | ArrayLike) -> object:
    t = np.asarray(table)
    if t.shape != (5, 4):
        raise InvalidArgumentError(f"a DD table has shape (5, 4) in DDS order, got {t.shape}")
    return dll.ddTableResults(resTable=t.astype(int).tolist())


def par(table: DDTable | ArrayLike, vulnerable: int | str) -> Par:
    """Par score and contracts of a DD table (DDS's ``Par``)."""
    res = _results(table)
    out = dll.parResults()
    rc = dll.Par(res, out, parse_vulnerability(vulnerable))
    if rc != dll.RETURN_NO_FAULT:
        _raise_last(rc, "Par")
    s = dll.ffi.string
    return Par(
        (s(out.parScore[0]).decode(), s(out.parScore[1]).decode()),
        (s(out.parContractsString[0]).decode(), s(out.parContractsString[1]).decode()),
    )


def dealer_par(table: DDTable | ArrayLike, dealer: Seat | int | str, vulnerable: int | str) -> DealerPar:
    """Par when ``dealer`` bids first (DDS's ``DealerPar``); score from NS's view."""
    res = _results(table)
    out = dll.parResultsDealer()
    rc = dll.DealerPar(res, out, Seat.parse(dealer), parse_vulnerability(vulnerable))
    if rc != dll.RETURN_NO_FAULT:
        _raise_last(rc, "DealerPar")
    return DealerPar(out.score, tuple(dll.ffi.string(out.contracts[i]).decode() for i in range(out.number)))


# -- play analysis ----------------------------------------------------------------------


def _plays(plays: str | Iterable[Card | str]) -> list[Card]:
    if isinstance(plays, str):
        text = "".join(plays.split())
        if len(text) % 2:
            raise PlayFaultError(f"play string {plays!r} is not two-character cards", function="AnalysePlayBin")
        items: Iterable[Card | str] = [text[i : i + 2] for i in range(0, len(text), 2)]
    else:
        items = plays
    out = []
    for i, c in enumerate(items):
        try:
            out.append(Card.parse(c))
        except ValueError:
            raise PlayFaultError(f"play {i}: {c!r} is not a card", function="AnalysePlayBin") from None
    return out


def analyse_play(
    deal: Deal | str,
    trump: Strain | int | str,
    first: Seat | int | str,
    plays: str | Iterable[Card | str],
    current_trick: Iterable[Card | str] = (),
) -> list[int]:
    """Double-dummy tricks before the first card and after each card played (``AnalysePlayBin``).

    ``plays`` is a string of two-character cards (``"C4CACJ..."``, suit then
    rank, as in the reference files' PLAY lines) or a list of cards, starting
    with the card led by ``first``.  The values are tricks for declarer's side
    (declarer sits to the right of the opening leader), as DDS gives them:
    one more value than cards analysed.
    """
    d = _as_deal(deal)
    cards = _plays(plays)
    leader = Seat.parse(first)
    dl = dll.deal()
    _fill_deal(dl, d, Strain.parse(trump), leader, _trick(d, leader, current_trick, "AnalysePlayBin"))
    trace = dll.playTraceBin(number=len(cards))
    if len(cards) > 52:
        raise PlayFaultError(f"{len(cards)} cards in the play; at most 52", function="AnalysePlayBin")
    for i, c in enumerate(cards):
        trace.suit[i] = c.suit
        trace.rank[i] = c.rank
    solved = dll.solvedPlay()
    with slots.any() as thread:
        rc = dll.AnalysePlayBin(dl, trace, solved, thread)
    if rc != dll.RETURN_NO_FAULT:
        _raise_last(rc, "AnalysePlayBin")
    return list(solved.tricks[0 : solved.number])
