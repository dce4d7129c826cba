"""SolverPool: many boards and tables solved on worker threads, one DDS ``threadIndex`` each.

DDS lets any number of threads call ``SolveBoard`` at once as long as each
passes its own ``threadIndex`` (each index has its own transposition table
and search memory).  A :class:`SolverPool` starts one worker thread per
index it was given; a worker keeps its index for life, so DDS's memory for
that index only ever sees that worker's searches.

A table call solves each distinct deal once (:func:`ddsbind._marshal.distinct_deals`
over the whole call, first-appearance order) and copies its table to every
repeat; ``imap_tables`` shares the job of a repeat still in its read-ahead
window.  Tables are solved as *tasks* of one (deal, strain): the worker solves the
four leaders N, S, E, W back to back, the first with ``mode=1`` and the
others with ``mode=2`` (DDS reuses the transposition table of the previous
call: same deal, same strain, only ``first`` changes, which DDS's
documentation names as the safe case).  A call's tasks are queued in input
order and each worker takes the next as soon as it is free: unlike DDS's
``CalcAllTables``, nothing waits for the slowest deal of a batch.
(``SolverPool(order="hardest")`` queues them hardest first by a cheap
estimate, :func:`hardness`; measured slower at 2 threads, see
``benchmarks/bench_pool.py``.)

Conventions are DDS's: seats N=0 E=1 S=2 W=3, strains S=0 H=1 D=2 C=3 NT=4,
tables ``[strain][declarer]``.

Threads: DDS 2.9 runs at most one thread per core, whatever it is asked.
``SolverPool(threads=None)`` uses every thread DDS has; a larger request is
passed to DDS once (``SetMaxThreads``, only while nothing is solving) and
the pool uses what DDS really gave (:attr:`SolverPool.threads`), with a
``UserWarning`` when that is fewer than asked.  While any pool is open,
DDS's thread settings cannot change (``dll.SetMaxThreads`` raises).

The workers, jobs and tasks are :mod:`ddsbind._scheduler`'s; this module
turns calls into tasks and their results into tables and solutions.

Sharing DDS's memory with batch calls: DDS's batch functions
(``CalcAllTables``, ``SolveAllBoards``, ``CalcDDtable``, ``AnalyseAllPlays*``)
run on DDS's own threads over *every* thread memory.  A worker holds the
lock of its index (``ddsbind._binding.slots``) for each task, so a batch
call from another Python thread waits for the running tasks, runs alone,
and the pool resumes after it.
"""

from __future__ import annotations

import itertools
import operator
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind import _marshal, _validate, dll, results
from ddsbind._binding import CData, slots
from ddsbind._scheduler import Job, Scheduler, Task, configure
from ddsbind._typing import Progress
from ddsbind.deal import Deal, Seat, Strain
from ddsbind.errors import DDSError, InvalidArgumentError, StateError
from ddsbind.scoring import Contract

__all__ = ["Question", "SolverPool"]

#: Leaders of one (deal, strain) task, in solving order (N, S, E, W): after
#: North, South's search (same side on lead) reuses the most of the table.
LEADERS = (0, 2, 1, 3)
#: Deals read ahead of the last table yielded by ``imap_tables``, per thread.
READ_AHEAD_PER_THREAD = 4


def hardness(masks: NDArray[np.uint32]) -> NDArray[np.int64]:
    """A cheap estimate of how long each deal's searches take: its number of card groups.

    A group is a run of cards of one suit held by one hand with no card of
    another hand between them (DDS treats them as one move), so the count
    is the branching DDS faces.  Per suit: one group plus one per change of
    holder going down the ranks.  ``masks`` is ``(N, 4, 4)`` remainCards.
    """
    out = np.empty(len(masks), dtype=np.int64)
    ranks = np.arange(14, 1, -1, dtype=np.uint32)
    for start in range(0, len(masks), 1 << 14):  # bounded temporaries for huge inputs
        held = (masks[start : start + (1 << 14), :, :, None] >> ranks) & 1  # (n, hand, suit, rank)
        owner = np.where(held.any(axis=1), held.argmax(axis=1), -1)  # (n, suit, rank); -1 = out
        changes = np.zeros(owner.shape[:2], dtype=np.int64)
        last = owner[:, :, 0].copy()
        for r in range(1, owner.shape[2]):
            cur = owner[:, :, r]
            present = cur >= 0
            changes += present & (last >= 0) & (cur != last)
            last = np.where(present, cur, last)
        out[start : start + len(owner)] = (changes + (owner >= 0).any(axis=2)).sum(axis=1)
    return out


class SolverPool:
    """Worker threads solving boards and tables in parallel, each owning one DDS ``threadIndex``.

    Parameters
    ----------
    threads : int or None
        Worker threads wanted, 1..128.  None: every thread DDS runs (one per
        core in DDS 2.9).  More than DDS gives emits a ``UserWarning`` naming
        both numbers; :attr:`threads` is what the pool really runs.  Anything
        else (``True``, ``0``, ``2**70``) raises ``InvalidArgumentError``.
    order : "input" or "hardest"
        The order table tasks are queued in: input order, or hardest first
        by :func:`hardness` (measured slower at 2 threads).

    Notes
    -----
    Use it as a context manager (or call :meth:`close`)::

        with ddsbind.SolverPool() as pool:
            tables = pool.dd_tables(deals)

    Any number of Python threads may share one pool; their calls' tasks
    share the workers.  Ctrl-C in a waiting caller (or :meth:`close` from
    another thread) stops the call once the tasks already running finish
    and raises ``KeyboardInterrupt``; the pool (after Ctrl-C), DDS and new
    pools stay usable.
    """

    #: Leaders of a (deal, strain) task in solving order, and the SolveBoard
    #: mode of every leader after the first (2: reuse the transposition table).
    #: Private: measured choices, not an API.
    _leaders: tuple[int, ...] = LEADERS
    _later_mode = 2

    def __init__(self, threads: int | None = None, *, order: str = "input") -> None:
        if threads is not None:
            if isinstance(threads, bool) or not isinstance(threads, int | np.integer):
                raise InvalidArgumentError(f"threads must be an int or None, got {threads!r:.40}", field="threads")
            threads = operator.index(threads)
            if not 1 <= threads <= slots.CAPACITY:
                raise InvalidArgumentError(
                    f"threads must be 1..{slots.CAPACITY} worker threads (or None: every thread DDS runs), "
                    f"got {threads}",
                    field="threads",
                )
        if order not in ("input", "hardest"):
            raise InvalidArgumentError(f"order must be 'input' or 'hardest', got {order!r:.40}", field="order")
        #: Task order of a table call: "input", or "hardest" (hardest first by
        #: :func:`hardness`).  Input order measured faster at 2 threads (idle
        #: machine, 60 deals of list1000.txt, best of 3: 4.995 s against 5.208 s)
        #: and is predicted as good up to 16 threads (simulate_threads.py).
        self._order = order
        if threads is not None:
            configure(threads)
        available = slots.pin()
        self.requested = threads
        #: Worker threads really running (threadIndex 0 .. threads-1).
        self.threads = available if threads is None else min(threads, available)
        if threads is not None and self.threads < threads:
            warnings.warn(
                f"SolverPool: asked for {threads} threads, DDS runs {self.threads} "
                f"(DDS {dll.DDS_VERSION // 10000}.{dll.DDS_VERSION // 100 % 100} never runs more threads than cores)",
                UserWarning,
                stacklevel=2,
            )
        self._scheduler = Scheduler(self.threads)

    # -- life cycle ------------------------------------------------------------------

    def __enter__(self) -> SolverPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers once their running tasks finish; calls waiting raise ``KeyboardInterrupt``.

        Idempotent.  DDS's thread settings may change again once every pool is closed.
        """
        self._scheduler.close()

    @property
    def order(self) -> str:
        """The order table tasks are queued in: ``"input"`` or ``"hardest"`` (a constructor argument)."""
        return self._order

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran."""
        return self._scheduler.closed

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<SolverPool threads={self.threads} {state}>"

    # -- boards -------------------------------------------------------------------------

    def solve_boards(
        self,
        boards: Iterable[tuple[Any, ...]],
        *,
        target: int = -1,
        solutions: int = 3,
        mode: int = 1,
    ) -> list[results.Solutions]:
        """Solve many positions in parallel (DDS's ``SolveBoard`` on the pool's threads).

        Parameters
        ----------
        boards : iterable of tuples
            Each ``(deal, trump, first)`` or ``(deal, trump, first,
            current_trick)`` as :func:`ddsbind.solve_board` takes them.
        target, solutions : int
            As in :func:`ddsbind.solve_board`, for every board.
        mode : int
            0 or 1 (DDS's mode 2 reuses whatever the thread solved last,
            which in a pool is some other board: refused).

        Returns
        -------
        list of Solutions
            In input order.

        Raises
        ------
        DDSError
            The subclass for the code DDS (or ddsbind's checks) gave the first
            bad board found, with ``.index`` its 0-based input position, also
            named in the message.  No partial result is returned.
        """
        if mode == 2:
            raise InvalidArgumentError(
                "mode 2 reuses the transposition table of the thread's previous board; "
                "in a pool that is another board (use mode 0 or 1)"
            )
        structs = []
        for i, board in enumerate(boards):
            try:
                structs.append(_marshal.new_deal(_board(board)))
            except DDSError as exc:
                raise exc.at(i, "board") from None
        out: list[results.Solutions | None] = [None] * len(structs)
        job = Job(len(structs), len(structs))

        def task(i: int, dl: CData) -> Callable[[int], int]:
            def run(thread: int) -> int:
                fut = dll.futureTricks()
                try:
                    dll.solve_board(dl, target, solutions, mode, fut, thread)
                except DDSError as exc:
                    raise exc.at(i, "board") from None
                out[i] = _marshal.decode_future(fut)
                return 1

            return run

        self._scheduler.run(job, (Task(job, i, task(i, dl)) for i, dl in enumerate(structs)), None)
        return out  # type: ignore[return-value]

    # -- questions: tricks, makes ---------------------------------------------------------

    def tricks(
        self,
        deals: Sequence[Deal | str] | ArrayLike,
        strain: Strain | int | str,
        declarer: Seat | int | str,
        *,
        progress: Progress | None = None,
    ) -> NDArray[np.int8]:
        """Double-dummy tricks of ``declarer`` in ``strain`` on each deal: one search per distinct deal.

        Each deal is one ``SolveBoard`` (``target=-1, solutions=1``) with
        the declarer's left-hand opponent on lead, where a table costs twenty.

        Parameters
        ----------
        deals : sequence of Deal or PBN str, or ``(N, 4, 4)`` remainCards array
            As :meth:`dd_tables` takes them (endings too: tricks out of those left).
        strain : Strain, 0..4 or "S"/"H"/"D"/"C"/"NT"
        declarer : Seat, 0..3 or "N"/"E"/"S"/"W"
        progress : callable or tqdm bar, optional
            Called with the number of deals finished since its last call.

        Returns
        -------
        ndarray, shape (N,), int8
            ``dd_table(deal)[strain, declarer]`` of each deal, in input order.

        Raises
        ------
        TrumpWrongError, InvalidArgumentError, DDSError, KeyboardInterrupt
            As :meth:`answers` raises them: a bad strain or declarer before
            anything is solved, a bad deal naming its ``.index``, Ctrl-C.

        Examples
        --------
        >>> with SolverPool(1) as pool:  # doctest: +SKIP
        ...     pool.tricks(deals, "NT", "S")
        array([9, 7, ...], dtype=int8)
        """
        question = (Strain.parse(strain), Seat.parse(declarer, "declarer"), -1)
        return self.answers(deals, [question], progress=progress)[:, 0]

    def makes(
        self,
        deals: Sequence[Deal | str] | ArrayLike,
        contract: Contract | str,
        declarer: Seat | int | str | None = None,
        *,
        progress: Progress | None = None,
    ) -> NDArray[np.bool_]:
        """Whether ``contract`` by ``declarer`` makes double dummy on each deal: one target search per deal.

        Each deal is one ``SolveBoard`` with a ``target`` (can the defence,
        the declarer's left-hand opponent on lead, take enough tricks to
        set it?) and ``solutions=1``: DDS stops as soon as the answer is
        known, much sooner than counting tricks.

        Parameters
        ----------
        deals : sequence of Deal or PBN str, or ``(N, 4, 4)`` remainCards array
            As :meth:`dd_tables` takes them.
        contract : str or Contract
            ``"3NT"``, ``"3N"``, ``"4S"``, optionally with the declarer
            (``"3NTS"``, ``"4S by N"``) and doubles (``"4SX"``: they do not
            change whether it makes), as :meth:`ddsbind.Contract.parse`
            reads them; or a :class:`ddsbind.Contract`.
        declarer : Seat, 0..3 or "N"/"E"/"S"/"W", optional
            Needed unless the contract names one (both given must agree).
        progress : callable or tqdm bar, optional
            Called with the number of deals finished since its last call.

        Returns
        -------
        ndarray, shape (N,), bool
            ``dd_table(deal)[strain, declarer] >= level + 6`` of each deal
            (for an ending, tricks counted out of those left, as ``dd_table`` does).

        Raises
        ------
        ContractError
            A contract that is none (or names no declarer, or another), named, before anything is solved.
        InvalidArgumentError
            A bad declarer, before anything is solved.
        DDSError
            For a bad deal, with ``.index`` its input position.
        """
        c = Contract.parse(contract).declared(declarer)
        question = (c.strain, cast(Seat, c.declarer), c.trick_target)  # declared() names the declarer
        return self.answers(deals, [question], progress=progress)[:, 0].astype(bool)

    def answers(
        self,
        deals: Sequence[Deal | str] | ArrayLike,
        questions: Sequence[Question],
        *,
        progress: Progress | None = None,
    ) -> NDArray[np.int8]:
        """Answers to the same few questions about each deal, each deal's searches in a row on one thread.

        The searches of one deal run in a row on one worker, strain by
        strain, so DDS keeps its transposition table between those of one
        strain; each distinct deal is solved once and its answers copied to
        its repeats.

        Parameters
        ----------
        deals : sequence of Deal or PBN str, or ``(N, 4, 4)`` remainCards array
            As :meth:`dd_tables` takes them.
        questions : sequence of (strain, declarer, need)
            Strains 0..4 (S H D C NT) or names, declarers 0..3 (N E S W) or
            names.  ``need = -1`` asks the declarer's exact tricks (one
            search, ``target=-1``, the declarer's left-hand opponent on
            lead); ``need`` 0..13 asks whether the declarer takes at least
            ``need`` tricks (one target search for the defence, or none
            when the answer is certain).
        progress : callable or tqdm bar, optional
            Called with the number of deals finished since its last call.

        Returns
        -------
        ndarray, shape (N, len(questions)), int8
            Exact tricks (of the tricks left, for an ending), or 1/0 for a
            threshold question, in input order.

        Raises
        ------
        TrumpWrongError, InvalidArgumentError
            A bad strain, declarer or need, naming the question, before anything is solved.
        DDSError
            For a bad deal, with ``.index`` its input position.
        KeyboardInterrupt
            Ctrl-C, or the pool closed, while solving.

        Examples
        --------
        >>> with SolverPool(1) as pool:  # doctest: +SKIP
        ...     pool.answers(deals, [("NT", "S", -1), ("S", "N", 10)])  # 3NT's tricks; does 4S by North make?
        array([[ 9, 1], [ 8, 0], ...], dtype=int8)
        """
        qs = _questions(questions)
        masks = _marshal.table_masks(deals)
        if len(masks) == 0 or not qs:
            return np.zeros((len(masks), len(qs)), dtype=np.int8)
        _check_deals(masks)
        first, inverse = _marshal.distinct_deals(masks)
        out = np.zeros((len(first), len(qs)), dtype=np.int8)
        weights = np.bincount(inverse, minlength=len(first)).tolist()
        job = Job(len(first), len(masks))
        self._scheduler.run(job, self._question_tasks(job, masks[first], qs, out, first.tolist(), weights), progress)
        return out[inverse]

    def _question_tasks(
        self,
        job: Job,
        masks: NDArray[np.uint32],
        questions: list[tuple[int, int, int]],
        out: NDArray[np.int8],
        positions: Sequence[int],
        weights: Sequence[int],
    ) -> Iterator[Task]:
        """One task per distinct deal: its questions' searches back to back, grouped by strain."""
        left = _marshal.hand_lengths(masks)[:, 0].tolist()
        order = sorted(range(len(questions)), key=lambda k: questions[k])

        def task(d: int) -> Callable[[int], int]:
            def run(thread: int) -> int:
                dl = dll.deal(remainCards=masks[d].tolist())
                fut = dll.futureTricks()
                tricks = left[d]
                for k in order:
                    strain, declarer, need = questions[k]
                    # The defence's tricks that beat ``need`` (a target for the side on lead).
                    target = -1 if need < 0 else tricks - need + 1
                    if need >= 0 and not 1 <= target <= tricks:
                        out[d, k] = target > tricks  # need 0 always made; need > tricks never
                        continue
                    dl.trump = strain
                    dl.first = Seat(declarer).next()
                    try:
                        dll.solve_board(dl, target, 1, 1, fut, thread)
                    except DDSError as exc:
                        raise exc.at(positions[d], "deal") from None
                    # The score is the leaders' tricks; with a target, the target when reached.
                    out[d, k] = tricks - fut.score[0] if need < 0 else fut.score[0] < target
                return weights[d]

            return run

        return (Task(job, positions[d], task(d)) for d in range(len(masks)))

    # -- tables -------------------------------------------------------------------------

    def _table_tasks(
        self,
        job: Job,
        masks: NDArray[np.uint32],
        out: NDArray[np.int8],
        positions: Sequence[int],
        weights: Sequence[int] | None = None,
    ) -> Iterator[Task]:
        """Tasks of one (deal, strain) each for distinct ``masks``.

        ``positions[d]`` is deal ``d``'s input position (named by errors);
        ``job.finished_units`` gains ``weights[d]`` (default 1: the deal
        and its repeats) when deal ``d``'s last strain finishes.
        """
        n = len(masks)
        tricks = _marshal.hand_lengths(masks)[:, 0].tolist()
        left = [5] * n
        leaders, later_mode = self._leaders, self._later_mode
        # Race guarded: the five strain tasks of one deal finish on different
        # workers; the last one counts the deal as done.
        done_lock = threading.Lock()

        def task(d: int, strain: int) -> Callable[[int], int]:
            def run(thread: int) -> int:
                dl = dll.deal(trump=strain, remainCards=masks[d].tolist())
                fut = dll.futureTricks()
                mode = 1
                for leader in leaders:
                    dl.first = leader
                    try:
                        dll.solve_board(dl, -1, 1, mode, fut, thread)
                    except DDSError as exc:
                        raise exc.at(positions[d], "deal") from None
                    # DDS's score is the leaders' tricks; the declarer sits at the leader's right.
                    out[d, strain, Seat(leader).rho] = tricks[d] - fut.score[0]
                    mode = later_mode
                with done_lock:
                    left[d] -= 1
                    if left[d]:
                        return 0
                return 1 if weights is None else weights[d]

            return run

        hardest = self._order == "hardest" and n > 1
        deals = np.argsort(-hardness(masks), kind="stable").tolist() if hardest else range(n)
        return (Task(job, positions[d], task(d, s)) for d in deals for s in (Strain.NT, 0, 1, 2, 3))

    def _tables(self, masks: NDArray[np.uint32], progress: Progress | None) -> NDArray[np.int8]:
        """Tables of ``(N, 4, 4)`` masks: each distinct deal solved once, copied to its repeats."""
        if len(masks) == 0:
            return np.zeros((0, 5, 4), dtype=np.int8)
        _check_deals(masks)
        first, inverse = _marshal.distinct_deals(masks)
        distinct = masks[first]
        out = np.zeros((len(first), 5, 4), dtype=np.int8)
        weights = np.bincount(inverse, minlength=len(first)).tolist()
        job = Job(len(first) * 5, len(masks))
        self._scheduler.run(job, self._table_tasks(job, distinct, out, first.tolist(), weights), progress)
        return out[inverse]

    def dd_tables(
        self,
        deals: Sequence[Deal | str] | ArrayLike,
        *,
        progress: Progress | None = None,
    ) -> list[results.DDTable]:
        """Double-dummy tables of many deals, solved on the pool's threads.

        Parameters
        ----------
        deals : sequence of Deal or PBN str, or ``(N, 4, 4)`` remainCards array
        progress : callable or tqdm bar, optional
            Called (in the calling thread) with the number of deals finished
            since its last call (a tqdm bar's ``update`` is called).

        Returns
        -------
        list of DDTable
            In input order; ``numpy.asarray`` of each is ``(5, 4)``, strains
            S H D C NT by declarers N E S W.

        Raises
        ------
        DDSError
            For a bad deal, with ``.index`` its input position.
        KeyboardInterrupt
            Ctrl-C, or the pool closed, while solving.
        """
        return [results.DDTable(t) for t in self._tables(_marshal.table_masks(deals), progress)]

    def dd_tables_array(self, masks: ArrayLike, *, progress: Progress | None = None) -> NDArray[np.int8]:
        """As :meth:`dd_tables`, array in, array out: ``(N, 4, 4)`` masks -> ``(N, 5, 4)`` int8."""
        return self._tables(_marshal.table_masks(np.asarray(masks)), progress)

    def imap_tables(self, deals: Iterable[Deal | str | ArrayLike]) -> Iterator[results.DDTable]:
        """Tables of any stream of deals, yielded in input order as they are solved.

        At most ``READ_AHEAD_PER_THREAD * threads`` deals are read ahead of
        the last table yielded, so memory does not grow with the input (a
        generator of millions of deals is fine).  Stopping early (``break``)
        drops the queued work.

        Raises
        ------
        DDSError
            For a bad item (not a deal, ``None`` included, or a bad deal),
            with ``.index`` its 0-based position in the stream.
        KeyboardInterrupt
            Ctrl-C, or the pool closed (by another thread) while the stream
            is consumed.
        StateError
            The pool was closed before the stream started (a ``RuntimeError``).
        """
        ahead = READ_AHEAD_PER_THREAD * self.threads
        source = iter(deals)
        # Each window entry: (deal key, its job, its table).  A repeat of a
        # deal still in the window shares that deal's job and table instead of
        # queueing its own tasks; ``pending`` counts the entries per key.
        window: deque[tuple[bytes, Job, NDArray[np.int8]]] = deque()
        pending: dict[bytes, tuple[Job, NDArray[np.int8], list[int]]] = {}
        counter = itertools.count()
        end = object()  # not None: None in the stream is a bad item, not its end
        if self.closed:
            raise StateError("this SolverPool is closed")
        try:
            while True:
                while len(window) < ahead:
                    item = next(source, end)
                    if item is end:
                        break
                    i = next(counter)
                    try:
                        mask = _marshal.as_deal(item).remain_cards[None]
                        _check_deals(mask, base=i)
                    except DDSError as exc:
                        if exc.index is not None and exc.item == "deal":
                            raise
                        raise exc.at(i, "deal") from None
                    key = mask.tobytes()
                    shared = pending.get(key)
                    if shared is not None:
                        shared[2][0] += 1
                        window.append((key, shared[0], shared[1]))
                        continue
                    out = np.zeros((1, 5, 4), dtype=np.int8)
                    job = Job(5, 1)
                    try:
                        self._scheduler.register(job)
                    except StateError:
                        # Closed by another thread while this stream was being consumed.
                        raise KeyboardInterrupt("the SolverPool was closed while this call was solving") from None
                    for task in self._table_tasks(job, mask, out, [i]):
                        self._scheduler.tasks.put(task)
                    pending[key] = (job, out, [1])
                    window.append((key, job, out))
                if not window:
                    return
                if self.closed:
                    # Closed by another thread between two items: a repeat whose deal was already
                    # solved would otherwise still be yielded, as if nothing had happened.
                    raise KeyboardInterrupt("the SolverPool was closed while this stream was consumed")
                key, job, out = window.popleft()
                refs = pending[key][2]
                refs[0] -= 1
                if refs[0] == 0:
                    del pending[key]
                self._scheduler.wait(job)
                yield results.DDTable(out[0])
        finally:
            for _, job, _ in window:
                job.cancel()
            for _, job, _ in window:
                self._scheduler.drain(job)


def _check_deals(masks: NDArray[np.uint32], base: int = 0) -> None:
    """Refuse a bad deal before anything is solved, with DDS's code and its index.

    The same checks as the DLL layer's (DDS's order, DDS's codes), run in the
    caller so that a bad deal late in a long call fails at once.  Endings
    (equal hands of fewer than 13 cards) are fine: the pool solves them with
    SolveBoard like any deal.
    """
    chunk = 1 << 14  # bounded temporaries for huge inputs
    for start in range(0, len(masks), chunk):
        part = masks[start : start + chunk]
        try:
            _marshal.check_table_deals(part, _marshal.hand_lengths(part))
        except DDSError as exc:
            assert exc.index is not None
            raise exc.at(base + start + exc.index, "deal") from None
        for d, rows in enumerate(part.tolist(), base + start):
            try:
                _validate.board(0, 0, (0, 0, 0), (0, 0, 0), rows, -1, 1, 1)
            except DDSError as exc:
                exc.function = exc.function or "SolveBoard"
                raise exc.at(d, "deal") from None


def _board(board: tuple[Any, ...]) -> results.Position:
    """The position of ``(deal, trump, first[, current_trick])``, checked as :func:`ddsbind.solve_board` checks it."""
    if not isinstance(board, tuple | list) or len(board) not in (3, 4):
        raise InvalidArgumentError(
            f"a board is (deal, trump, first) or (deal, trump, first, current_trick), got {board!r:.80}"
        )
    deal, trump, first, *rest = board
    return _marshal.position(deal, trump, first, rest[0] if rest else (), function="SolveBoard")


#: A question about a deal: ``(strain, declarer, need)``, strains 0..4 S H D C NT, seats 0..3 N E S W;
#: ``need = -1``: the declarer's exact tricks; ``need >= 0``: does the declarer take at least ``need``?
Question = tuple[Strain | int | str, Seat | int | str, int]


def _questions(questions: Sequence[Question]) -> list[tuple[int, int, int]]:
    """Questions checked and normalised; a bad strain, declarer or need raises naming it and its position."""
    if isinstance(questions, str) or not isinstance(questions, Sequence):
        raise InvalidArgumentError(
            f"questions must be a sequence of (strain, declarer, need), got {type(questions).__name__}",
            field="questions",
        )
    out = []
    for i, q in enumerate(questions):
        if not isinstance(q, tuple | list) or len(q) != 3:
            raise InvalidArgumentError(f"question {i}: expected (strain, declarer, need), got {q!r:.60}")
        strain, declarer, need = q
        if isinstance(need, bool) or not isinstance(need, int | np.integer) or not -1 <= need <= 13:
            raise InvalidArgumentError(
                f"question {i}: need must be -1 (exact tricks) or 0..13 tricks, got {need!r:.40}", field="need"
            )
        try:
            out.append((int(Strain.parse(strain)), int(Seat.parse(declarer, "declarer")), int(need)))
        except DDSError as exc:
            raise exc.at(i, "question") from None
    return out
