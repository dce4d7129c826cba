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

from collections.abc import Iterable, Sequence
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind import dll
from ddsbind._marshal import (
    as_deal,
    card_play_call,
    check_table_deals,
    decode_future,
    distinct_deals,
    hand_lengths,
    int_view,
    new_deal,
    position,
    table_masks,
)
from ddsbind._typing import Progress, renamed
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, InvalidArgumentError
from ddsbind.game import CardPlay, Vulnerability
from ddsbind.optimum import DealerPar, Par, dealer_pars, pars
from ddsbind.results import DDTable, Position, ScoredCard, Solutions
from ddsbind.scoring import Contract, score

__all__ = [
    "DDTable",
    "DealerPar",
    "Par",
    "ScoredCard",
    "Solutions",
    "analyse_play",
    "calc_tables",
    "dd_score",
    "dd_table",
    "dd_tables",
    "dd_tables_array",
    "dealer_par",
    "makes",
    "par",
    "solve_board",
    "tricks",
]


# -- solve_board -------------------------------------------------------------------


@renamed(trump="strain", first="leader")
def solve_board(
    deal: Deal | str,
    strain: Strain | int | str,
    leader: Seat | int | str,
    target: int = -1,
    solutions: int = 3,
    mode: int = 1,
    current_trick: str | Iterable[Card | str] = (),
) -> Solutions:
    """Solve one position with DDS's ``SolveBoard``.

    Parameters
    ----------
    deal : Deal or PBN string
        The cards still held.  Cards already played to the current trick are
        not in it (so those hands hold one card fewer).
    strain : Strain, 0..4 or "S"/"H"/"D"/"C"/"NT"
    leader : Seat, 0..3 or "N"/"E"/"S"/"W"
        The hand that led (or is to lead) the current trick.
    target, solutions, mode : int
        As in DDS: ``target=-1`` finds the maximum; ``solutions=3`` scores every
        legal card; ``mode=1`` always searches.
    current_trick : cards or str
        Up to 3 cards already played to the trick, in play order from ``leader``
        (a list, or a string such as ``"SA SK"``, ``"SA,SK"``, ``"C10"``).

    Returns
    -------
    Solutions
        Each returned card with its score (tricks for the side to play from
        here) and its equivalent lower cards.

    Raises
    ------
    DDSError
        The subclass for the code DDS would return, naming the card or field:
        ``TrumpWrongError`` (bad trump), ``FirstWrongError`` (bad leader),
        ``CardCountError`` (more than 3 trick cards, or hand lengths that do
        not fit the trick), ``PlayedCardError`` (a trick card still held),
        ``DuplicateCardsError``, ``PlayFaultError`` (a revoke on the trick).
        The same classes as every other entry point for the same fault.

    Examples
    --------
    >>> solve_board("N:A... K... Q... J...", "NT", "N").best_score
    1
    """
    pos = position(deal, strain, leader, current_trick, function="SolveBoard")
    fut = dll.futureTricks()
    dll.solve_board(new_deal(pos), target, solutions, mode, fut)
    return decode_future(fut)


# -- tables -------------------------------------------------------------------------


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
            leader = declarer.lho
            defence = solve_board(deal, strain, leader, solutions=1).best_score
            table[strain, declarer] = tricks_left - defence
    return table


def calc_tables(masks: NDArray[np.uint32], progress: Progress | None = None) -> NDArray[np.int8]:
    """``(N, 4, 4)`` masks -> ``(N, 5, 4)`` tables via CalcAllTables, in calls of ``max_tables(5)``.

    Full deals go to DDS's batch solver; endings (fewer than 13 cards a hand)
    are solved board by board (see :func:`_ending_table`).
    """
    n = len(masks)
    out = np.empty((n, 5, 4), dtype=np.int8)
    lengths = hand_lengths(masks)
    full = (lengths == 13).all(axis=1)
    if not full.all():
        check_table_deals(masks, lengths)
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
    deal_view = int_view(tdeals.deals, np.uint32, (-1, 4, 4))
    res_view = int_view(res.results, np.int32, (-1, 5, 4))
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


def _tables(masks: NDArray[np.uint32], progress: Progress | None) -> NDArray[np.int8]:
    """Tables of ``(N, 4, 4)`` masks: each distinct deal solved once by DDS's batch, copied to its repeats.

    The dedupe is the pool's (:func:`~ddsbind._marshal.distinct_deals`, the
    whole call, where DDS's batch only sees repeats inside one call of 40);
    the solving is ``CalcAllTables`` in calls of ``dll.max_tables(5)``,
    which measured faster than the pool on distinct random deals at 1 and 2
    threads (pool / batch 0.963 and 0.961, docs/performance.md).
    ``progress`` counts every input deal.
    """
    check_table_deals(masks, hand_lengths(masks))
    first, inverse = distinct_deals(masks)
    distinct = masks[first]
    weights = np.bincount(inverse, minlength=len(first))
    out = np.empty((len(first), 5, 4), dtype=np.int8)
    step = dll.max_tables(5)
    for start in range(0, len(first), step):
        try:
            out[start : start + step] = calc_tables(distinct[start : start + step])
        except DDSError as exc:
            if exc.index is not None:
                exc.at(int(first[start + exc.index]), "deal")
            raise
        if progress is not None:
            progress(int(weights[start : start + step].sum()))
    return out[inverse]


def dd_table(deal: Deal | str) -> DDTable:
    """The double-dummy table of one deal (DDS's ``CalcDDtable``).

    Returns a :class:`DDTable`; ``numpy.asarray`` of it is ``(5, 4)``, strains
    S H D C NT by declarers N E S W: the tricks declarer takes.  An ending
    (every hand holding the same number of cards, fewer than 13) gets its
    table from ``SolveBoard`` (out of the tricks left); hands of different
    lengths raise ``CardCountError``.
    """
    d = as_deal(deal)
    if not d.is_full:
        return DDTable(calc_tables(d.remain_cards[np.newaxis])[0])
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
    ``(N, 4, 4)`` remainCards array.  Each distinct deal of the call is
    solved once (its table is copied to every repeat), by ``CalcAllTables``
    on DDS's threads, calls of as many tables as DDS takes.  ``progress`` is called with the number of
    deals finished since its last call.  Endings are solved as in
    :func:`dd_table`.  A bad deal raises its ``DDSError`` with ``index`` set
    to its position in ``deals``.

    Returns a list of :class:`DDTable` in input order.
    """
    arr = _tables(table_masks(deals), progress)
    return [DDTable(t) for t in arr]


def dd_tables_array(masks: ArrayLike, *, progress: Progress | None = None) -> NDArray[np.int8]:
    """As :func:`dd_tables`, array in, array out: ``(N, 4, 4)`` integer masks -> ``(N, 5, 4)`` int8.

    Masks must be integers with bits only at ranks 2..14 (floats, negative
    values and wider bits raise ``SuitOrRankError`` / ``InvalidArgumentError``
    naming the deal; nothing is wrapped into range).
    """
    return _tables(table_masks(np.asarray(masks)), progress)


# -- questions: tricks, makes -----------------------------------------------------------


def tricks(
    deals: Sequence[Deal | str] | ArrayLike,
    strain: Strain | int | str,
    declarer: Seat | int | str,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> NDArray[np.int8]:
    """Double-dummy tricks of ``declarer`` in ``strain`` on any number of deals: one search a deal, not a table.

    :meth:`SolverPool.tricks <ddsbind.SolverPool.tricks>` on a pool of
    ``threads`` solver threads (None: one per core) opened for this call:
    the same arguments, result and errors.  About a twentieth of a DD
    table's work a deal, with the GIL released.

    Examples
    --------
    >>> tricks(["N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"], "NT", "N").tolist()
    [13]
    """
    from ddsbind.pool import SolverPool

    with SolverPool(threads) as pool:
        return pool.tricks(deals, strain, declarer, progress=progress)


def makes(
    deals: Sequence[Deal | str] | ArrayLike,
    contract: Contract | str,
    declarer: Seat | int | str | None = None,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> NDArray[np.bool_]:
    """Whether ``contract`` makes double dummy on each deal: one target search a deal.

    :meth:`SolverPool.makes <ddsbind.SolverPool.makes>` on a pool of
    ``threads`` solver threads (None: one per core) opened for this call:
    the same arguments, result and errors.  DDS stops each search as soon
    as the answer is known.

    Examples
    --------
    >>> makes(["N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"], "7NT", "N").tolist()
    [True]
    """
    from ddsbind.pool import SolverPool

    with SolverPool(threads) as pool:
        return pool.makes(deals, contract, declarer, progress=progress)


# -- par ------------------------------------------------------------------------------


def par(table: DDTable | ArrayLike, vulnerable: Vulnerability | int | str) -> Par:
    """Par score and contracts of a DD table (DDS's ``Par``): :func:`ddsbind.optimum.pars` of one table.

    The table must be of a full deal (13 tricks): DDS's par bids for 13
    tricks, so the table of an ending has no par.  Entries must be 0..13
    (``InvalidArgumentError`` otherwise).  Computed by ddsbind's own par
    kernel, equal to DDS's answer; :attr:`Par.details` explains each contract.
    """
    return pars(_one_table(table), vulnerable)[0]


def dealer_par(
    table: DDTable | ArrayLike, dealer: Seat | int | str, vulnerable: Vulnerability | int | str
) -> DealerPar:
    """Par when ``dealer`` (0=N 1=E 2=S 3=W) bids first (DDS's ``DealerPar``); score from NS's view.

    ``vulnerable`` is DDS's 0 none, 1 both, 2 NS, 3 EW, or a name
    (:meth:`ddsbind.game.Vulnerability.parse`).  :func:`ddsbind.optimum.dealer_pars`
    of one table, equal to DDS's answer.
    """
    return dealer_pars(_one_table(table), Seat.parse(dealer, "dealer"), Vulnerability.parse(vulnerable))[0]


def _one_table(table: DDTable | ArrayLike) -> NDArray[np.int8]:
    """One table as ``(1, 5, 4)``, checked as :class:`DDTable` checks it."""
    t = table if isinstance(table, DDTable) else DDTable(table)
    return t.array.reshape(1, 5, 4)


# -- scores ----------------------------------------------------------------------------


def dd_score(
    deal: Deal | str,
    contract: Contract | str,
    declarer: Seat | int | str | None = None,
    vulnerable: Vulnerability | int | str = Vulnerability.NONE,
) -> int:
    """What ``contract`` scores double dummy: declarer's score by the Laws for the tricks DDS says it takes.

    Parameters
    ----------
    deal : Deal or PBN string
        A full deal.
    contract : Contract or str
        ``"4SX"``, ``"3NT by S"`` (:meth:`ddsbind.Contract.parse`).
    declarer : Seat, 0..3 or name, optional
        Needed unless the contract names its declarer (they must agree if both do).
    vulnerable : Vulnerability, 0..3 or name
        Who is vulnerable (``"none"``, ``"NS"``, ``"EW"``, ``"all"``...).

    Returns
    -------
    int
        Declarer's score (negative when the contract goes down).  One
        ``SolveBoard`` call, with the opening leader (declarer's left) on lead.

    Examples
    --------
    >>> dd_score("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "1SX", "N")
    160
    """
    c = Contract.parse(contract).declared(declarer)
    seat = cast(Seat, c.declarer)  # declared() names it
    d = as_deal(deal)
    if not d.is_full:
        raise InvalidArgumentError(f"a contract is scored on a full deal; this one holds {d.n_cards} cards")
    defence = solve_board(d, c.strain, seat.next()).best_score
    vul = Vulnerability.parse(vulnerable).is_vulnerable(seat)
    return int(score(c.level, int(c.strain), c.doubled, 13 - defence, vul))


# -- play analysis ----------------------------------------------------------------------


@renamed(trump="strain", first="leader")
@card_play_call(CardPlay, "AnalysePlayBin")
def analyse_play(played: CardPlay) -> list[int]:
    """Double-dummy tricks before the first card and after each card played (``AnalysePlayBin``).

    Called with a :class:`~ddsbind.game.CardPlay`, or with its arguments:
    ``analyse_play(deal, strain, leader, plays, current_trick=())``.
    ``plays`` is a string of cards (``"C4CACJ..."`` as in the reference
    files' PLAY lines, or separated: ``"C4 CA CJ"``, ``"C4,CA,C10"``) or a
    list of cards, starting with the next card of the trick led by
    ``leader``.  The values are tricks for declarer's side (declarer sits to
    the right of ``leader``, the leader of the current trick), counted from
    the start of the current trick: always ``len(plays) + 1`` values.

    With cards already on the current trick (``current_trick``, in play
    order from ``leader``; the deal no longer holds them), the answer is
    defined as the analysis of the same position with those cards still in
    the hands and played out first, with their values dropped: so
    ``analyse_play(before, t, f, trick + plays)[len(trick):] ==
    analyse_play(after, t, f, plays, current_trick=trick)``.

    Raises ``PlayFaultError`` naming the card for a card not held by the
    player to play, or a revoke, with ``.index`` its 0-based position in
    ``plays``; a bad position raises as :func:`solve_board` does.
    """
    d, leader, trick = played.deal, played.leader, played.current_trick
    if trick:
        # DDS's AnalysePlay starts its values at the current trick's lead; hand the trick's
        # cards back to their players and play them out, so every position is DDS's own.
        masks = d.remain_cards.copy()
        for k, c in enumerate(trick):
            masks[leader.next(k), c.suit] |= 1 << c.rank
        d = Deal(masks)
    cards = [*trick, *played.plays]
    dl = new_deal(Position(d, played.strain, leader, ()))
    trace = dll.playTraceBin(number=len(cards))
    for i, c in enumerate(cards):
        trace.suit[i] = c.suit
        trace.rank[i] = c.rank
    solved = dll.solvedPlay()
    try:
        dll.analyse_play_bin(dl, trace, solved)
    except DDSError as exc:
        if exc.item == "play" and exc.index is not None and trick:
            # Number the plays as the caller did (the trick's cards were played first here).
            if exc.index >= len(trick):
                exc.index -= len(trick)
            else:
                exc.item = "current trick card"
        raise
    return list(solved.tricks[len(trick) : solved.number])
