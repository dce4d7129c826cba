"""The dealer language's compiled script, evaluation frame and question planner.

:func:`~ddsbind.dealer.language.parse` answers a :class:`Script` of
:class:`Action` objects.

A compiled expression (:mod:`ddsbind.dealer.compiler`) is an :data:`Expr`:
``expr(frame, rows)`` evaluates it on the deals ``rows`` of a :class:`Frame`
as an int64 array.  The frame holds the batch's :class:`~ddsbind.hands.Hands`
and what is known of each deal's double-dummy results; its planner methods
(:meth:`Frame.tricks`, :meth:`Frame.at_least`, :meth:`Frame.need`) ask the
:class:`Solver` only what the script reads.  Nothing here imports DDS: the
solver (tables, questions, par) is passed in.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS, DealerError, Predeal
from ddsbind.hands import Hands

if TYPE_CHECKING:  # a script without evalcontract never imports the scoring rules
    from ddsbind.scoring import Contract

__all__ = ["Action", "Array", "Expr", "Frame", "Script", "Solver"]

Array = NDArray[np.int64]
Expr = Callable[["Frame", NDArray[np.intp]], Array]


@dataclasses.dataclass
class Action:
    """One action of the ``action`` list: its name, optional label and expressions, bounds."""

    kind: str  # the grammar's rule name: printall, print_hands (``print(...)``), average, ...
    label: str | None = None
    exprs: list[Expr] = dataclasses.field(default_factory=list)
    bounds: list[int] = dataclasses.field(default_factory=list)
    items: list[str | Expr] = dataclasses.field(default_factory=list)
    seats: list[int] = dataclasses.field(default_factory=list)  # print(seats): DDS seats, in the script's order
    #: ``evalcontract``: the contract (declarer set) and its vulnerability.
    contract: Contract | None = None
    vulnerable: bool = False
    #: ``csvrpt``/``printrpt``: ``("text", quoted)``, ``("expr", Expr)``, ``("hands", seats)``, ``("trix", seats)``.
    report: list[tuple[str, Any]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Script:
    """A parsed dealer script.

    ``dealer`` and ``vulnerable`` are ``None`` when the script leaves them out
    (PBN output then rotates them with the board number, as dealer does).
    """

    generate: int | None = None
    produce: int | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    predeal: Predeal = dataclasses.field(default_factory=Predeal)
    condition: Expr | None = None
    actions: list[Action] = dataclasses.field(default_factory=list)
    uses_tricks: bool = False
    #: The script calls ``rnd()``: the seed draws its numbers (in library mode, the seed's only part).
    uses_rnd: bool = False
    #: The exact ``tricks()`` results ``(strain, seat)`` the actions read on every accepted deal,
    #: solved together by the question planner (a threshold such as ``tricks(...) >= 9`` is not
    #: among them: it is a target search).
    action_tricks: tuple[tuple[int, int], ...] = ()
    pointcount: tuple[int, ...] = (4, 3, 2, 1)
    altcounts: tuple[tuple[int, ...], ...] | None = None

    @property
    def prints(self) -> bool:
        """True when an action prints each deal (DealerV2's ``csvrpt`` and ``export`` included)."""
        return any(a.kind.startswith("print") or a.kind in ("csvrpt", "export") for a in self.actions)

    @property
    def collects(self) -> bool:
        """True when an action prints the deals at the end of the run (``print(seats)``)."""
        return any(a.kind == "print_hands" for a in self.actions)


class Solver(Protocol):
    """What the language's ``tricks()`` and ``par()`` solve with (``ddsbind.dealer.run`` makes them on DDS).

    Attributes
    ----------
    table_from : int
        How many exact results of one deal are asked before its whole table
        is solved instead; 0: whole tables only (:meth:`answers` is never asked).
    """

    table_from: int

    def tables(self, owners: NDArray[np.int8]) -> NDArray[np.int8]:
        """DD tables ``(k, 5, 4)`` int8 ``[strain S H D C NT][declarer N E S W]`` of owner rows ``(k, 52)``."""
        ...

    def answers(self, owners: NDArray[np.int8], questions: list[tuple[int, int, int]]) -> NDArray[np.int8]:
        """``(k, len(questions))``: for ``(strain, declarer, need)``, exact tricks (need -1) or 1/0 (need met)."""
        ...

    def par(self, tables: NDArray[np.int8], dealer: Seat, vulnerable: Vulnerability) -> Array:
        """Par scores ``(k,)`` from NS's view of DD tables ``(k, 5, 4)``, ``dealer`` bidding first."""
        ...


class Frame:
    """One batch being evaluated: its :class:`~ddsbind.hands.Hands` and, on demand, DD tables.

    Parameters
    ----------
    hands : Hands
        The deals (:class:`ddsbind.hands.Hands`).
    solver : Solver, optional
        Needed only by scripts calling ``tricks()`` or ``par()``.
    pointcount, altcounts
        The script's weights per rank (ace first) for ``hcp`` and ``pt0``..``pt9``.
    """

    def __init__(
        self,
        hands: Hands,
        solver: Solver | None = None,
        pointcount: tuple[int, ...] = (4, 3, 2, 1),
        altcounts: tuple[tuple[int, ...], ...] | None = None,
        seed: int = 0,
        first: int = 0,
    ) -> None:
        self.seed = seed
        self.first = first
        self._random: dict[int, NDArray[np.uint64]] = {}
        #: par() scores already computed, by (dealer, vulnerable): (scores, which deals have one).
        self._pars: dict[tuple[Seat, Vulnerability], tuple[NDArray[np.int64], NDArray[np.bool_]]] = {}
        self.hands = hands
        self.solver = solver
        self.pointcount = pointcount
        self.altcounts = altcounts or DEFAULT_ALTCOUNTS

    # The per-deal solving state is made on first use: a batch no tricks() reaches (most of them,
    # and every library chunk, whose results are stored) never allocates it.

    @functools.cached_property
    def tables(self) -> NDArray[np.int8]:
        """``(n, 5, 4)`` DD tables of the batch, valid where :attr:`solved`."""
        return np.zeros((self.hands.n, 5, 4), dtype=np.int8)

    @functools.cached_property
    def solved(self) -> NDArray[np.bool_]:
        """``(n,)`` whether each deal's whole table is in :attr:`tables`."""
        return np.zeros(self.hands.n, dtype=bool)

    @functools.cached_property
    def low(self) -> NDArray[np.int8]:
        """What is known of each result ``[deal, strain, declarer]``: ``low <= tricks <= high`` (equal: exact)."""
        return np.zeros((self.hands.n, 5, 4), dtype=np.int8)

    @functools.cached_property
    def high(self) -> NDArray[np.int8]:
        """The upper bound beside :attr:`low`."""
        return np.full((self.hands.n, 5, 4), 13, dtype=np.int8)

    def column(self, array: NDArray[Any], rows: NDArray[np.intp], seat: int) -> NDArray[Any]:
        """``array[rows, seat]`` for an ``(n, 4, ...)`` array; a view, not a copy, when ``rows`` is every deal."""
        if rows.size == self.hands.n:
            return array[:, seat]
        return array[rows, seat]

    def random(self, site: int, rows: NDArray[np.intp], limit: Array) -> Array:
        """``rnd(limit)`` of call ``site`` on ``rows``: uniform in ``0 .. limit - 1`` (0 where ``limit <= 0``).

        Deal ``first + row`` of the run draws word ``first + row`` of its own
        Philox stream (key: the seed; counters from ``2**193 + site * 2**64``),
        so the values depend on the seed and the deal only, not on threads.
        """
        if site not in self._random:
            block, skip = divmod(self.first, 4)  # Philox: 4 words a counter; deal ``first`` is word ``skip``
            counter = (1 << 193) + site * (1 << 64) + block
            words = np.random.Philox(key=self.seed, counter=counter).random_raw(self.hands.n + 4)
            self._random[site] = words[skip : skip + self.hands.n]
        words = self._random[site][rows]
        positive = limit > 0
        bound = np.where(positive, limit, 1).astype(np.uint64)
        return np.where(positive, (words % bound).astype(np.int64), 0)

    def tables_for(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """DD tables ``(len(rows), 5, 4)`` of the deals ``rows``, each distinct deal solved once per batch."""
        todo = rows[~self.solved[rows]]
        if todo.size:
            self.tables[todo] = self._solver().tables(self.hands.owners[todo])  # each distinct deal solved once
            self.solved[todo] = True
            self.low[todo] = self.high[todo] = self.tables[todo]
        return self.tables[rows]

    def par(self, rows: NDArray[np.intp], dealer: Seat, vulnerable: Vulnerability) -> Array:
        """``par(NS)`` of the deals ``rows``: DDS's par score from NS's view, ``dealer`` bidding first.

        Each deal's par is computed once a batch, however many expressions ask for it.
        """
        memo = self._pars.get((dealer, vulnerable))
        if memo is None:
            memo = self._pars[dealer, vulnerable] = (np.zeros(self.hands.n, np.int64), np.zeros(self.hands.n, bool))
        scores, known = memo
        todo = rows if not known.any() else rows[~known[rows]]
        if todo.size:
            scores[todo] = self._solver().par(self.tables_for(todo), dealer, vulnerable)
            known[todo] = True
        return scores[rows]

    def _solver(self) -> Solver:
        if self.solver is None:
            raise DealerError("tricks() needs a solver")
        return self.solver

    # The question planner.  With a solver whose ``table_from`` is positive (ddsbind.dealer.run's
    # QuestionSolver), each call below solves only what it asks of the deals it is given: a
    # threshold is one target search, an exact result one search, and a deal needing
    # ``table_from`` results or more gets its whole table.  With ``table_from`` 0 (whole tables
    # only), every deal asked anything gets its whole table.

    def tricks(self, rows: NDArray[np.intp], strain: int, seat: int) -> Array:
        """``tricks(seat, strain)`` of the deals ``rows``: exact double-dummy tricks."""
        self.need(rows, [(strain, seat)])
        return self.low[rows, strain, seat].astype(np.int64)

    def at_least(self, rows: NDArray[np.intp], strain: int, seat: int, need: int) -> Array:
        """``tricks(seat, strain) >= need`` of the deals ``rows`` (1 or 0): a target search where not yet known."""
        if need <= 0 or need > 13:
            return np.full(rows.size, int(need <= 0), dtype=np.int64)
        solver = self._solver()
        if solver.table_from == 0:
            return (self.tables_for(rows)[:, strain, seat] >= need).astype(np.int64)
        low, high = self.low[rows, strain, seat], self.high[rows, strain, seat]
        todo = rows[(low < need) & (high >= need)]
        if todo.size:
            made = solver.answers(self.hands.owners[todo], [(strain, seat, need)])[:, 0] != 0
            self.low[todo[made], strain, seat] = np.maximum(self.low[todo[made], strain, seat], need)
            self.high[todo[~made], strain, seat] = np.minimum(self.high[todo[~made], strain, seat], need - 1)
        return (self.low[rows, strain, seat] >= need).astype(np.int64)

    def need(self, rows: NDArray[np.intp], pairs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
        """Make the exact results ``pairs`` ((strain, seat) each) known for the deals ``rows``, the cheapest way."""
        if not pairs or rows.size == 0:
            return
        solver = self._solver()
        if solver.table_from == 0:
            self.tables_for(rows)
            return
        strains = [p[0] for p in pairs]
        seats = [p[1] for p in pairs]
        todo = rows[(self.low[rows][:, strains, seats] != self.high[rows][:, strains, seats]).any(axis=1)]
        if todo.size == 0:
            return
        if len(pairs) >= solver.table_from:
            self.tables_for(todo)
            return
        exact = solver.answers(self.hands.owners[todo], [(strain, seat, -1) for strain, seat in pairs])
        self.low[todo[:, None], strains, seats] = exact
        self.high[todo[:, None], strains, seats] = exact

    def known(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """``(len(rows), 5, 4)`` exact results known so far for the deals ``rows``; -1 where not solved exactly."""
        low, high = self.low[rows], self.high[rows]
        return np.where(low == high, low, -1).astype(np.int8)
