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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from ddsbind import _holdings, dll
from ddsbind._binding import CData, slots
from ddsbind._typing import Progress
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import (
    ArgumentError,
    CardCountError,
    DDSError,
    DuplicateCardsError,
    InvalidArgumentError,
    PlayedCardError,
    PlayFaultError,
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
        """The highest score among the returned cards (the DD result with solutions=3).

        -1 when DDS returned no card: with a ``target``, that no card reaches
        it (DDS's own score for "target not reached").
        """
        return max((c.score for c in self.cards), default=-1)

    def score_of(self, card: Card | str) -> int:
        """The score of ``card`` or of the returned card it is equivalent to."""
        c = Card.parse(card)
        for sc in self.cards:
            if c in sc.cards:
                return sc.score
        raise KeyError(f"{c} is not among the returned cards or their equivalents")

    def __iter__(self) -> Iterator[ScoredCard]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


def _decode_future(fut: CData) -> Solutions:
    out = []
    for i in range(fut.cards):
        s = fut.suit[i]
        eq = fut.equals[i]
        equals = tuple(Card(s, r) for r in range(14, 1, -1) if eq >> r & 1)
        out.append(ScoredCard(Card(s, fut.rank[i]), fut.score[i], equals))
    return Solutions(tuple(out), fut.nodes)


def _fill_deal(dl: CData, deal: Deal, trump: int, first: int, current_trick: Sequence[Card]) -> None:
    dl.trump = trump
    dl.first = first
    dl.remainCards = deal.remain_cards.tolist()
    for k, c in enumerate(current_trick):
        dl.currentTrickSuit[k] = c.suit
        dl.currentTrickRank[k] = c.rank


def _as_deal(deal: Deal | str | ArrayLike) -> Deal:
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.from_pbn(deal)
    if isinstance(deal, np.ndarray | list | tuple):
        return Deal(deal)
    raise ArgumentError(f"a deal must be a Deal, a PBN string or a (4, 4) mask array, got {type(deal).__name__}")


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
    for k in range(1, len(out)):
        player = first.next(k)
        led = out[0].suit
        if out[k].suit != led and deal.remain_cards[player, led]:
            raise PlayFaultError(
                f"current trick: {player.name} plays {out[k]} but holds {_holdings.SUITS[led]} (revoke)",
                function=function,
                card=str(out[k]),
            )
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
    leader = Seat.parse(first, "first")
    trick = _trick(d, leader, current_trick, "SolveBoard")
    dl = dll.deal()
    _fill_deal(dl, d, Strain.parse(trump), leader, trick)
    fut = dll.futureTricks()
    with slots.any() as thread:
        dll.raising.SolveBoard(dl, target, solutions, mode, fut, thread)
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
        a = np.asarray(tricks)
        if a.shape != (5, 4):
            raise InvalidArgumentError(f"a DD table has shape (5 strains, 4 declarers), got {a.shape}")
        if a.dtype.kind not in "iu" or a.min() < 0 or a.max() > 13:
            raise InvalidArgumentError(f"a DD table holds trick counts 0..13, got {a.tolist()}")
        t = a.astype(np.int8)
        t.setflags(write=False)
        self._t = t

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> NDArray[np.int8]:
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
    """``(N, 4, 4)`` uint32 masks of the deals; a fault names the deal by its index."""
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
            out[i] = _as_deal(d).remain_cards
        except DDSError as exc:
            raise exc.at(i, "deal") from None
    return out


def _hand_lengths(masks: NDArray[np.uint32]) -> NDArray[np.int64]:
    """``(N, 4)`` cards per hand, counted in bulk."""
    bits = np.unpackbits(np.ascontiguousarray(masks, dtype="<u4").view(np.uint8), axis=-1)
    return bits.reshape(len(masks), 4, 128).sum(axis=-1, dtype=np.int64)


def _ending_table(masks: NDArray[np.uint32]) -> NDArray[np.int8]:
    """The DD table of an ending (equal hands of fewer than 13 cards), through SolveBoard.

    DDS's table functions count 13 tricks whatever the deal holds; here each
    entry is the tricks left minus the best the defence takes when the
    declarer's left-hand opponent leads.
    """
    deal = Deal(masks)
    tricks_left = deal.hand_lengths[0]
    table = np.empty((5, 4), np.int8)
    for strain in Strain:
        for declarer in Seat:
            leader = declarer.next()
            defence = solve_board(deal, strain, leader, solutions=1).best_score
            table[strain, declarer] = tricks_left - defence
    return table


def _check_table_deals(masks: NDArray[np.uint32], lengths: NDArray[np.int64]) -> None:
    """Endings are solved, not refused; a deal whose hands differ in length has no DD table."""
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


def _calc_tables(masks: NDArray[np.uint32], progress: Progress | None = None) -> NDArray[np.int8]:
    """``(N, 4, 4)`` masks -> ``(N, 5, 4)`` tables via CalcAllTables, in calls of ``max_tables(5)``.

    Full deals go to DDS's batch solver; endings (fewer than 13 cards a hand)
    are solved board by board (see :func:`_ending_table`).
    """
    n = len(masks)
    out = np.empty((n, 5, 4), dtype=np.int8)
    lengths = _hand_lengths(masks)
    full = (lengths == 13).all(axis=1)
    if not full.all():
        _check_table_deals(masks, lengths)
        for i in np.flatnonzero(~full):
            try:
                out[i] = _ending_table(masks[i])
            except DDSError as exc:
                raise exc.at(int(i), "deal") from None
        if progress is not None:
            progress(int((~full).sum()))
    where = np.flatnonzero(full)
    step = dll.max_tables(5)
    tdeals = dll.ddTableDeals()
    res = dll.ddTablesRes()
    pres = dll.allParResults()
    no_filter = [0, 0, 0, 0, 0]
    deal_view = np.frombuffer(dll.ffi.buffer(tdeals.deals), dtype=np.uint32).reshape(-1, 4, 4)
    res_view = np.frombuffer(dll.ffi.buffer(res.results), dtype=np.int32).reshape(-1, 5, 4)
    for start in range(0, len(where), step):
        chunk = where[start : start + step]
        k = len(chunk)
        deal_view[:k] = masks[chunk]
        tdeals.noOfTables = k
        try:
            dll.raising.CalcAllTables(tdeals, -1, no_filter, res, pres)
        except DDSError as exc:
            if exc.index is not None:
                exc.at(int(chunk[exc.index]), "deal")
            raise
        out[chunk] = res_view[:k]
        if progress is not None:
            progress(k)
    return out


#: The path :func:`dd_tables` and :func:`dd_tables_array` take: ``"batch"``
#: (DDS's ``CalcAllTables``, calls of ``dll.max_tables(5)``) or ``"pool"``
#: (a :class:`~ddsbind.SolverPool` for the call).  Chosen from
#: ``benchmarks/bench_pool.py``; the README says why.
TABLES_ROUTE = "batch"


def _tables(masks: NDArray[np.uint32], progress: Progress | None) -> NDArray[np.int8]:
    """Tables of ``(N, 4, 4)`` masks by the :data:`TABLES_ROUTE` path."""
    if TABLES_ROUTE == "pool" and len(masks):
        from ddsbind.pool import SolverPool  # pool builds on this module

        with SolverPool() as pool:
            return pool.dd_tables_array(masks, progress=progress)
    return _calc_tables(masks, progress)


def dd_table(deal: Deal | str) -> DDTable:
    """The double-dummy table of one deal (DDS's ``CalcDDtable``).

    Returns a :class:`DDTable`; ``numpy.asarray`` of it is ``(5, 4)``, strains
    S H D C NT by declarers N E S W: the tricks declarer takes.  An ending
    (every hand holding the same number of cards, fewer than 13) gets its
    table from ``SolveBoard`` (out of the tricks left); hands of different
    lengths raise ``CardCountError``.
    """
    d = _as_deal(deal)
    if not d.is_full:
        return DDTable(_calc_tables(d.remain_cards[np.newaxis])[0])
    tdeal = dll.ddTableDeal(cards=d.remain_cards.tolist())
    res = dll.ddTableResults()
    dll.raising.CalcDDtable(tdeal, res)
    return DDTable([list(row) for row in res.resTable])


def dd_tables(
    deals: Sequence[Deal | str] | ArrayLike,
    *,
    progress: Progress | None = None,
) -> list[DDTable]:
    """Double-dummy tables of any number of deals, solved on all of DDS's threads.

    ``deals`` is a sequence of ``Deal`` objects or PBN strings, or an
    ``(N, 4, 4)`` remainCards array.  The path is :data:`TABLES_ROUTE`'s:
    ``"batch"`` calls ``CalcAllTables`` as often as needed, each with as many
    tables as DDS takes in one call; ``"pool"`` runs a
    :class:`~ddsbind.SolverPool`.  ``progress`` is called with the number of
    deals finished since its last call.  Endings are solved as in
    :func:`dd_table`.  A bad deal raises its ``DDSError`` with ``index`` set
    to its position in ``deals``.

    Returns a list of :class:`DDTable` in input order.
    """
    arr = _tables(_table_masks(deals), progress)
    return [DDTable(t) for t in arr]


def dd_tables_array(masks: ArrayLike, *, progress: Progress | None = None) -> NDArray[np.int8]:
    """As :func:`dd_tables`, array in, array out: ``(N, 4, 4)`` integer masks -> ``(N, 5, 4)`` int8.

    Masks must be integers with bits only at ranks 2..14 (floats, negative
    values and wider bits raise ``SuitOrRankError`` / ``InvalidArgumentError``
    naming the deal; nothing is wrapped into range).
    """
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


def _results(table: DDTable | ArrayLike) -> CData:
    t = table if isinstance(table, DDTable) else DDTable(table)
    return dll.ddTableResults(resTable=t.array.tolist())


def par(table: DDTable | ArrayLike, vulnerable: int | str) -> Par:
    """Par score and contracts of a DD table (DDS's ``Par``).

    The table must be of a full deal (13 tricks): DDS's par bids for 13
    tricks, so the table of an ending has no par.  Entries must be 0..13
    (``InvalidArgumentError`` otherwise).
    """
    res = _results(table)
    out = dll.parResults()
    dll.raising.Par(res, out, parse_vulnerability(vulnerable))
    s = dll.ffi.string
    return Par(
        (s(out.parScore[0]).decode(), s(out.parScore[1]).decode()),
        (s(out.parContractsString[0]).decode(), s(out.parContractsString[1]).decode()),
    )


def dealer_par(table: DDTable | ArrayLike, dealer: Seat | int | str, vulnerable: int | str) -> DealerPar:
    """Par when ``dealer`` bids first (DDS's ``DealerPar``); score from NS's view."""
    res = _results(table)
    out = dll.parResultsDealer()
    dll.raising.DealerPar(res, out, Seat.parse(dealer, "dealer"), parse_vulnerability(vulnerable))
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
    with the next card of the trick led by ``first``.  The values are tricks
    for declarer's side (declarer sits to the right of ``first``, the leader
    of the current trick), counted from the start of the current trick:
    always ``len(plays) + 1`` values.

    With cards already on the current trick (``current_trick``, in play
    order from ``first``; the deal no longer holds them), the answer is
    defined as the analysis of the same position with those cards still in
    the hands and played out first, with their values dropped: so
    ``analyse_play(before, t, f, trick + plays)[len(trick):] ==
    analyse_play(after, t, f, plays, current_trick=trick)``.

    Raises ``PlayFaultError`` naming the card for a card not held by the
    player to play, or a revoke.
    """
    d = _as_deal(deal)
    cards = _plays(plays)
    leader = Seat.parse(first, "first")
    strain = Strain.parse(trump)
    trick = _trick(d, leader, current_trick, "AnalysePlayBin")
    if trick:
        # DDS's AnalysePlay starts its values at the current trick's lead; hand the trick's
        # cards back to their players and play them out, so every position is DDS's own.
        masks = d.remain_cards.copy()
        for k, c in enumerate(trick):
            masks[leader.next(k), c.suit] |= 1 << c.rank
        d = Deal(masks)
    cards = [*trick, *cards]
    if len(cards) > 52:
        raise PlayFaultError(f"{len(cards)} cards in the play; at most 52", function="AnalysePlayBin")
    dl = dll.deal()
    _fill_deal(dl, d, strain, leader, ())
    trace = dll.playTraceBin(number=len(cards))
    for i, c in enumerate(cards):
        trace.suit[i] = c.suit
        trace.rank[i] = c.rank
    solved = dll.solvedPlay()
    try:
        with slots.any() as thread:
            dll.raising.AnalysePlayBin(dl, trace, solved, thread)
    except DDSError as exc:
        if exc.item == "play" and exc.index is not None and trick:
            # Number the plays as the caller did (the trick's cards were played first here).
            if exc.index >= len(trick):
                exc.index -= len(trick)
            else:
                exc.item = "current trick card"
        raise
    return list(solved.tricks[len(trick) : solved.number])
