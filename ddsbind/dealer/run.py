"""Running a dealer script: deal in batches, filter, print, tabulate; dealer's output and summary lines."""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.dealer import output
from ddsbind.dealer.dealing import (
    BATCH,
    DealerError,
    Hands,
    batch_sizes,
    counts_room,
    deal_batch,
    deal_batches,
    ordered_map,
)
from ddsbind.dealer.kernel import DEFAULT_GENERATOR
from ddsbind.dealer.language import Action, Frame, Script, Solver, parse
from ddsbind.dealer.settings import DealSource, Limits, Outputs, settings_of

if TYPE_CHECKING:
    from ddsbind.dealer.library import Library

__all__ = [
    "DEFAULT_GENERATE",
    "DEFAULT_PRODUCE",
    "TABLE_FROM",
    "QuestionSolver",
    "Run",
    "WholeTables",
    "finish",
    "load_script",
    "run",
    "run_file",
    "solver_for",
]

#: Deals generated when neither the script nor the caller says (dealer's default).
DEFAULT_GENERATE = 10_000_000
#: Deals per solver thread tested at a time by a condition calling ``tricks()``.
SOLVE_CHUNK_PER_THREAD = 16
#: Deals produced by a script that prints deals, when neither the script nor the caller says (dealer's default).
DEFAULT_PRODUCE = 40
#: The planner's crossover: a deal needing this many exact ``tricks()`` results or more gets its
#: whole DD table (20 results) instead of one search per result.  Measured (docs/performance.md,
#: ``benchmarks/bench_question.py --crossover``, three runs, CPU time): k single searches of one deal,
#: run in a row on one thread so DDS keeps its transposition table within a strain, cost 0.07-0.13
#: of the table for k=1, 0.55-0.86 for k=16 and 0.65-1.28 for k=20: never more below 20, about the
#: same at 20, where the table's five tasks a deal share the threads better.  A threshold
#: (``tricks(...) >= 9``) is one target search, 0.006-0.04 of a table.
TABLE_FROM = 20


@dataclasses.dataclass
class Run:
    """What a run did: counts, the accepted deals (when kept) and each statistic action's totals.

    ``deals`` are owner rows ``(produced, 52)`` int8 (DDS seats N=0 E=1 S=2
    W=3) when ``keep`` was asked for; ``tables`` their DD tables
    ``(produced, 5, 4)`` ``[strain S H D C NT][declarer N E S W]`` when the
    script solved them.
    """

    generated: int = 0
    produced: int = 0
    timed_out: bool = False
    seed: int = 0
    #: Library mode: the deals were read from a library, not dealt from ``seed``.
    library: bool = False
    seconds: float = 0.0
    sums: list[int] = dataclasses.field(default_factory=list)
    counts: list[NDArray[np.int64]] = dataclasses.field(default_factory=list)
    deals: NDArray[np.int8] | None = None
    tables: NDArray[np.int8] | None = None
    #: With ``keep``, the exact results solved for each accepted deal ``(produced, 5, 4)``, -1 where the
    #: planner solved none (a threshold or nothing was asked); ``tables`` is set when all are known.
    known: NDArray[np.int8] | None = None

    def statistics_text(self, script: Script) -> str:
        """The ``average``/``frequency`` results in action order, as dealer prints them at the end."""
        parts = []
        for i, action in enumerate(script.actions):
            if action.kind == "average":
                parts.append(output.average_text(action.label, self.sums[i], self.produced))
            elif action.kind == "frequency":
                parts.append(output.frequency_text(action.label, self.counts[i], action.bounds))
            elif action.kind == "evalcontract":
                parts.append(output.evalcontract_text(action.label, action.contract, action.vulnerable, self.counts[i]))
            elif action.kind == "print_hands" and self.deals is not None:
                parts.append(output.hands_pages(self.deals, action.seats))
        return "".join(parts)


class WholeTables:
    """A :class:`~ddsbind.dealer.frame.Solver` over a plain ``solve``: ``owners (k, 52) -> tables (k, 5, 4)``.

    Every deal asked anything gets its whole table (``table_from`` 0);
    ``par()`` is DDS's ``DealerPar`` of the table.  ``solve`` None: no
    solving (library mode, whose tables are stored), ``par()`` only.
    """

    table_from = 0

    def __init__(self, solve: Callable[[NDArray[np.int8]], NDArray[np.int8]] | None = None) -> None:
        self.solve = solve

    def tables(self, owners: NDArray[np.int8]) -> NDArray[np.int8]:
        """DD tables ``(k, 5, 4)`` of owner rows ``(k, 52)``."""
        if self.solve is None:
            raise DealerError("tricks() needs a solver")
        return self.solve(owners)

    def answers(self, owners: NDArray[np.int8], questions: list[tuple[int, int, int]]) -> NDArray[np.int8]:
        """Never asked (``table_from`` 0): exact results come from :meth:`tables`."""
        tables = self.tables(owners)
        return np.stack([_answer(tables, question) for question in questions], axis=1)

    def par(self, tables: NDArray[np.int8], dealer: Seat, vulnerable: Vulnerability) -> NDArray[np.int64]:
        """Par scores ``(k,)`` from NS's view (DDS's ``DealerPar``, ``dealer`` first) of ``(k, 5, 4)`` tables."""
        from ddsbind.optimum import dealer_par_scores

        return dealer_par_scores(tables, dealer, vulnerable).astype(np.int64)


def _answer(tables: NDArray[np.int8], question: tuple[int, int, int]) -> NDArray[np.int8]:
    strain, seat, need = question
    tricks = tables[:, strain, seat]
    return tricks if need < 0 else (tricks >= need).astype(np.int8)


class QuestionSolver(WholeTables):
    """What the question planner solves with: whole tables, exact results, thresholds, on one pool.

    Called with owner rows ``(k, 52)`` it returns their whole DD tables
    ``(k, 5, 4)`` (the plain ``solve`` interface); :meth:`answers` asks
    only some results (:meth:`ddsbind.SolverPool.answers`).  A
    :class:`~ddsbind.dealer.frame.Frame` given one plans each deal's
    searches (``table_from``: the crossover to whole tables).
    """

    def __init__(self, pool: Any, table_from: int = TABLE_FROM) -> None:
        super().__init__(self)
        self.pool = pool
        self.table_from = table_from

    def __call__(self, owners: NDArray[np.int8]) -> NDArray[np.int8]:
        from ddsbind.deal import owners_to_masks

        return np.asarray(self.pool.dd_tables_array(owners_to_masks(owners)), dtype=np.int8)

    def answers(self, owners: NDArray[np.int8], questions: list[tuple[int, int, int]]) -> NDArray[np.int8]:
        """``(k, len(questions))``: exact tricks (need -1) or 1/0 (declarer takes at least need)."""
        from ddsbind.deal import owners_to_masks

        return np.asarray(self.pool.answers(owners_to_masks(owners), questions), dtype=np.int8)


def solver_for(threads: int | None = None) -> tuple[QuestionSolver, Any]:
    """A :class:`QuestionSolver` on a new :class:`ddsbind.SolverPool` of ``threads``, and the pool to close."""
    from ddsbind.pool import SolverPool

    pool = SolverPool(threads)
    return QuestionSolver(pool), pool


def _counts_shape(action: Action) -> tuple[int, ...]:
    if action.kind == "evalcontract":
        return (14,)  # deals by declarer's tricks, 0..13
    b = action.bounds
    if not b:
        return (0,)
    if len(b) == 2:
        return (b[1] - b[0] + 3,)
    return (b[1] - b[0] + 3, b[3] - b[2] + 3)


def _exact_sum(values: NDArray[np.int64]) -> int:
    """The exact sum of int64 ``values`` (no wrap-around): high and low 32-bit halves summed apart."""
    high = int((values >> 32).sum())
    low = int((values & 0xFFFFFFFF).sum())
    return (high << 32) + low


def _bin(values: NDArray[np.int64], low: int, high: int) -> NDArray[np.int64]:
    return np.clip(values, low - 1, high + 1) - (low - 1)  # clipped first: no overflow near the int64 limits


def run(
    script: Script,
    seed: int | DealSource,
    limits: Limits | None = None,
    outputs: Outputs | None = None,
    *,
    threads: int | None = 1,
    solve: WholeTables | Callable[[NDArray[np.int8]], NDArray[np.int8]] | None = None,
    client: Any = None,
    **settings: Any,
) -> Run:
    """Run ``script``: deal up to ``generate`` deals of ``seed``, keep the first ``produce`` passing the condition.

    Parameters
    ----------
    script : Script
        From :func:`ddsbind.dealer.parse`.
    seed : int or DealSource
        The seed (``0 .. 2**128 - 1``; the deals depend on it alone, not on
        ``threads``), or the whole deal source
        (:class:`~ddsbind.dealer.settings.DealSource`: seed, generator,
        swap, given deals, a library).
    limits : Limits, optional
        When the run stops (:class:`~ddsbind.dealer.settings.Limits`:
        ``generate``, ``produce``, ``time_limit``): whichever comes first,
        as in dealer.  Default: the script's.
    outputs : Outputs, optional
        What the run writes and hands back as it goes
        (:class:`~ddsbind.dealer.settings.Outputs`: ``out``, ``source``
        (the name in PBN's Event tag), ``quiet_pbn``, ``csv``, ``export``,
        ``keep``, ``sink``, ``progress``).  Default: nothing printed or kept.
    threads : int or None
        Threads dealing and solving (``None``: one per core).
    solve : Solver or callable, optional
        A :class:`QuestionSolver`, or ``owners (k, 52) -> tables (k, 5, 4)``
        for ``tricks()``: every deal asked anything then gets its whole table.  When none is given and the
        script calls ``tricks()``, a :class:`QuestionSolver` on a
        :class:`ddsbind.SolverPool` of ``threads`` plans instead: a
        threshold (``tricks(south, notrumps) >= 9``) is one target search,
        an exact count one search, all twenty of a deal one table
        (:data:`TABLE_FROM`); a condition stays lazy (deals failing its
        cheap parts are never solved).  Library mode reads the stored
        results and makes no solver.
    client : dask.distributed.Client, optional
        Deal on Dask; the same deals.  Not in library mode.
    **settings
        Any field of the three objects by its name (``run(script, 7,
        produce=10, out=sys.stdout, keep=True)``), filling or overriding
        them (:data:`~ddsbind.dealer.settings.SETTINGS`).

    Returns
    -------
    Run

    Raises
    ------
    DealerError
        A negative limit, a bad seed, generator or swap (each named), a
        library beside other deals or a Dask client.
    TypeError
        A keyword that is no setting.
    """
    source, limits, outputs = settings_of(seed, limits, outputs, settings)
    seed, deals, swap, generator = source.seed, source.deals, source.swap, source.generator
    out, progress, sink, csv, export = outputs.out, outputs.progress, outputs.sink, outputs.csv, outputs.export
    total = limits.generate if limits.generate is not None else (script.generate or DEFAULT_GENERATE)
    lib = _library_source(source.library, client)
    if lib is not None:
        from ddsbind.dealer.library import library_total

        total = library_total(lib, script, limits.generate)
    if deals is not None:
        total = deals.shape[0]
    wanted = limits.produce if limits.produce is not None else script.produce
    if wanted is None:
        wanted = min(DEFAULT_PRODUCE, total) if script.prints else total
    if script.condition is None and lib is None and deals is None:
        total = min(total, wanted)  # every deal is accepted: none is dealt past the last one produced
    keep = outputs.keep or script.collects
    pool = None
    stored = lib is not None  # results read from the library, never solved
    solver: Solver | None = None
    if isinstance(solve, WholeTables):
        solver = solve
    elif solve is not None:
        solver = WholeTables(solve)
    elif stored:
        solver = WholeTables()  # par() of the stored tables; nothing is solved
    elif script.uses_tricks:
        solver, pool = solver_for(threads)
    result = Run(seed=seed, library=stored)
    result.sums = [0] * len(script.actions)
    result.counts = [np.zeros(_counts_shape(a), dtype=np.int64) for a in script.actions]
    kept: list[NDArray[np.int8]] = []
    kept_tables: list[NDArray[np.int8]] = []
    started = time.perf_counter()
    try:
        # A condition calling tricks() is tested a chunk of deals at a time (on this thread, the
        # solver pool doing the work) so that a small `produce` does not solve a whole batch.
        lazy = script.uses_tricks and script.condition is not None
        solve_chunk = SOLVE_CHUNK_PER_THREAD * (threads or os.cpu_count() or 1)
        if lib is not None:
            from ddsbind.dealer.library import library_batches

            batches: Iterator[Filtered] = library_batches(lib, script, total, threads, seed=seed, solver=solver)
        else:
            batches = _filtered_batches(script, seed, total, threads, client, deals, solver, lazy, swap, generator)
        for tallied, frame, rows in batches:
            if result.produced >= wanted:
                break
            if (
                limits.time_limit is not None
                and result.produced == 0
                and time.perf_counter() - started > limits.time_limit
            ):
                result.timed_out = True
                break
            hands = frame.hands
            if rows is None:
                rows = _accept_in_chunks(script, frame, wanted - result.produced, solve_chunk)
            if rows.size > wanted - result.produced:
                rows, tallied = rows[: wanted - result.produced], None  # the worker tallied every row passing
            full = result.produced + rows.size >= wanted and rows.size > 0
            generated_here = int(rows[-1]) + 1 if full else hands.n
            result.generated += generated_here
            first_board = result.produced + 1
            result.produced += rows.size
            if progress is not None:
                progress(generated_here)
            if rows.size == 0:
                continue
            # The planner: every exact result the actions read, for all accepted deals at once.
            frame.need(rows, script.action_tricks)
            if keep or sink is not None:
                accepted = frame.hands.owners[rows]
                tables = None
                if script.uses_tricks or stored:
                    tables = frame.known(rows) if _plans(frame) else frame.tables_for(rows)
                if sink is not None:
                    sink(accepted, tables)
                if keep:
                    kept.append(accepted)
                    if tables is not None:
                        kept_tables.append(tables)
            # A text list per accepted deal only when an action prints deals: no Python work per deal otherwise.
            texts: list[list[str]] | None = None
            if out is not None and script.prints:
                texts = [[] for _ in range(rows.size)]
            files: dict[int, tuple[TextIO, list[list[str]]]] = {}
            for i, tally in enumerate(tallied if tallied is not None else _tallies(script, frame, rows)):
                if isinstance(tally, int):
                    result.sums[i] += tally
                elif tally is not None:
                    result.counts[i] += tally
            for action in script.actions:
                if action.kind in ("csvrpt", "printrpt", "export"):
                    stream = csv if action.kind == "csvrpt" else export if action.kind == "export" else None
                    lines = _report_lines(action, frame, rows)
                    target = texts if stream is None else files.setdefault(id(stream), (stream, []))[1]
                    if target is not None:
                        if len(target) < rows.size:
                            target.extend([] for _ in range(rows.size - len(target)))
                        for j, line in enumerate(lines):
                            target[j].append(line)
                elif (
                    texts is not None
                    and action.kind != "print_hands"
                    and not (outputs.quiet_pbn and action.kind == "printpbn")
                ):
                    _print_action(
                        action, frame, rows, frame.hands.owners, texts, first_board, script, outputs.source, seed
                    )
            if out is not None and texts is not None:
                out.write("".join("".join(t) for t in texts))
            for stream, per_deal in files.values():  # csvrpt/export files: deal by deal, in action order
                stream.write("".join("".join(t) for t in per_deal))
            if result.produced >= wanted:
                break  # before asking for the next batch: a run that is done deals nothing more
    finally:
        if pool is not None:
            pool.close()
    result.seconds = time.perf_counter() - started
    if keep:
        result.deals = np.concatenate(kept) if kept else np.empty((0, 52), dtype=np.int8)
        if script.uses_tricks or stored:
            known = np.concatenate(kept_tables) if kept_tables else np.empty((0, 5, 4), dtype=np.int8)
            result.known = known
            result.tables = known if (known >= 0).all() else None
    return result


def _plans(frame: Frame) -> bool:
    """True when ``frame`` solves with the question planner (not whole tables for everything)."""
    return frame.solver is not None and frame.solver.table_from > 0


#: What the statistic actions add up from a batch, one item per action in order: an average's exact sum,
#: a frequency's or evalcontract's counts, None for an action that adds up nothing.
Tallies = list[int | NDArray[np.int64] | None]
#: A batch as :func:`run` takes it: the tallies of every row passing (None: not made yet), its frame, and
#: the rows passing the condition (None: not tested yet, for a condition calling ``tricks()``).
Filtered = tuple[Tallies | None, Frame, NDArray[np.intp] | None]


def _tallies(script: Script, frame: Frame, rows: NDArray[np.intp]) -> Tallies:
    """The statistic actions' sums and counts over the deals ``rows`` of ``frame``."""
    out: Tallies = []
    for action in script.actions:
        tally: int | NDArray[np.int64] | None = None
        if action.kind == "average":
            tally = _exact_sum(action.exprs[0](frame, rows))
        elif action.kind == "evalcontract":
            tally = np.bincount(action.exprs[0](frame, rows), minlength=14)
        elif action.kind == "frequency":
            b = action.bounds
            first = _bin(action.exprs[0](frame, rows), b[0], b[1])
            if len(b) == 2:
                tally = np.bincount(first, minlength=b[1] - b[0] + 3)
            else:
                second = _bin(action.exprs[1](frame, rows), b[2], b[3])
                shape = _counts_shape(action)  # cells counted as one flat bincount: several times add.at's speed
                tally = np.bincount(first * shape[1] + second, minlength=shape[0] * shape[1]).reshape(shape)
        out.append(tally)
    return out


def _filter(
    script: Script, solver: Solver | None, lazy: bool, owners: NDArray[np.int8] | Hands, seed: int = 0, first: int = 0
) -> Filtered:
    """A batch (deals ``first ..`` of the run): the tallies of its rows passing, its frame, and those rows.

    Made where the batch was dealt (a worker thread), so that the main
    thread only adds up; nothing is tallied when ``lazy`` (the rows are
    tested later, a chunk at a time) or when the actions read ``tricks()``
    (solved on the main thread's pool), or when an action fails on one of
    them (the run may stop before that deal).
    """
    hands = owners if isinstance(owners, Hands) else Hands(owners)
    frame = Frame(hands, solver, script.pointcount, script.altcounts, seed, first)
    if lazy:
        return None, frame, None
    rows = np.arange(frame.hands.n, dtype=np.intp)
    if script.condition is not None:
        rows = rows[script.condition(frame, rows) != 0]
    if script.uses_tricks:
        return None, frame, rows
    try:
        return _tallies(script, frame, rows), frame, rows
    except DealerError:  # a deal past the run's last may divide by zero: the main thread decides, on the rows it takes
        return None, frame, rows


def _library_source(library: str | os.PathLike[str] | Library | None, client: Any) -> Library | None:
    """The deal source of library mode, or None when the deals are dealt (or given)."""
    if library is None:
        return None
    if client is not None:
        raise DealerError("library mode reads its deals from the library: no Dask client besides")
    from ddsbind.dealer.library import open_library  # library mode alone reads the formats

    return open_library(library)


def _accept_in_chunks(script: Script, frame: Frame, wanted: int, chunk: int) -> NDArray[np.intp]:
    """Rows of ``frame`` passing the condition, tested ``chunk`` deals at a time until ``wanted`` pass."""
    assert script.condition is not None
    accepted: list[NDArray[np.intp]] = []
    found = 0
    for start in range(0, frame.hands.n, chunk):
        rows = np.arange(start, min(start + chunk, frame.hands.n), dtype=np.intp)
        passed = rows[script.condition(frame, rows) != 0]
        accepted.append(passed)
        found += passed.size
        if found >= wanted:
            break
    return np.concatenate(accepted) if accepted else np.empty(0, dtype=np.intp)


def _filtered_batches(
    script: Script,
    seed: int,
    total: int,
    threads: int | None,
    client: Any,
    deals: NDArray[np.int8] | None,
    solver: Solver | None,
    lazy: bool,
    swap: int = 0,
    generator: str = DEFAULT_GENERATOR,
) -> Iterator[Filtered]:
    """Batches dealt and filtered, in order; with threads, each batch is dealt and filtered on a worker thread."""
    if deals is not None:
        for start in range(0, total, BATCH):
            yield _filter(script, solver, lazy, deals[start : start + BATCH], seed, start)
        return
    if client is not None:
        stream = deal_batches(seed, total, script.predeal, client=client, swap=swap, generator=generator)
        for k, owners in enumerate(stream):
            yield _filter(script, solver, lazy, owners, seed, k * BATCH)
        return

    def job(item: tuple[int, int]) -> Filtered:
        counts = counts_room(item[1], swap, generator)
        hands = Hands(deal_batch(seed, item[0], script.predeal, item[1], swap, generator, counts), counts)
        return _filter(script, solver, lazy, hands, seed, item[0] * BATCH)

    yield from ordered_map(job, batch_sizes(total), threads if total > BATCH else 1)


#: DealerV2's ``trix()`` order of strains: clubs, diamonds, hearts, spades, notrump (as DDS strains).
_TRIX_STRAINS = (3, 2, 1, 0, 4)


def _report_lines(action: Action, frame: Frame, rows: NDArray[np.intp]) -> list[str]:
    """The lines of a ``csvrpt``/``printrpt`` (fields joined by commas) or ``export`` action, a line a deal."""
    owners = frame.hands.owners
    if action.kind == "export":
        return [output.export_line(owners[row], action.seats) for row in rows.tolist()]
    columns: list[list[str]] = []
    for what, payload in action.report:
        if what == "text":
            columns.append([payload] * rows.size)
        elif what == "expr":
            columns.append([str(v) for v in payload(frame, rows).tolist()])
        elif what == "hands":
            columns.append([output.hands_text(owners[row], payload) for row in rows.tolist()])
        else:  # trix: 5 strains for each seat
            values = np.stack(
                [frame.tricks(rows, strain, seat) for seat in payload for strain in _TRIX_STRAINS], axis=1
            )
            columns.append([",".join(map(str, v)) for v in values.tolist()])
    return [",".join(fields) + "\n" for fields in zip(*columns, strict=True)]


def _print_action(
    action: Action,
    frame: Frame,
    rows: NDArray[np.intp],
    owners: NDArray[np.int8],
    texts: list[list[str]],
    first_board: int,
    script: Script,
    source: str,
    seed: int,
) -> None:
    values = action.exprs[0](frame, rows).tolist() if action.exprs else [None] * rows.size
    printes = [item(frame, rows).tolist() if callable(item) else item for item in action.items]
    for j, row in enumerate(rows.tolist()):
        deal = owners[row]
        board = first_board + j
        if action.kind == "printall":
            texts[j].append(output.diagram(deal, board))
        elif action.kind == "printew":
            texts[j].append(output.east_west(deal))
        elif action.kind == "printpbn":
            texts[j].append(output.pbn_record(deal, board, script.dealer, script.vulnerable, source, seed))
        elif action.kind == "printcompact":
            texts[j].append(output.compact(deal, values[j]))
        elif action.kind == "printoneline":
            texts[j].append(output.oneline(deal, values[j]))
        elif action.kind == "printes":
            texts[j].append("".join(str(p[j]) if isinstance(p, list) else p for p in printes))


def run_file(
    path: str | os.PathLike[str],
    seed: int,
    *,
    out: TextIO | None = None,
    summary: bool = True,
    parameters: dict[int, str] | None = None,
    **options: Any,
) -> tuple[Script, Run]:
    """Parse and run the script in ``path``, printing its deals, statistics and dealer's summary lines to ``out``.

    ``path`` ``"-"`` reads standard input; ``summary=False`` leaves out the
    closing lines (dealer's ``-v``); ``parameters`` are DealerV2's ``$0``..``$9``
    (:func:`~ddsbind.dealer.language.substitute_parameters`).  Options are :func:`run`'s.
    Returns the script and the :class:`Run`.

    Raises
    ------
    DealerError
        The script's first error, one line naming file, line and column.
    OSError
        The file cannot be read.
    """
    script, source = load_script(path, parameters)
    stream = out if out is not None else sys.stdout
    result = run(script, seed, out=stream, source=source, **options)
    finish(script, result, stream, summary)
    return script, result


def finish(script: Script, result: Run, out: TextIO, summary: bool = True) -> None:
    """Write what dealer writes after the deals: statistics, ``print()`` pages, the summary lines (unless -v).

    The seed is named only where it played a part: not in library mode
    (the deals are read, not dealt) unless the script draws ``rnd()``.
    """
    out.write(result.statistics_text(script))
    if summary:
        seed = None if result.library and not script.uses_rnd else result.seed
        out.write(output.summary(result.generated, result.produced, seed, result.seconds))


def load_script(path: str | os.PathLike[str] | None, parameters: dict[int, str] | None = None) -> tuple[Script, str]:
    """Read and parse the script in ``path`` (``None`` or ``"-"``: standard input), its ``$0``..``$9`` replaced.

    Returns the script and its name as dealer prints it in PBN's Event tag
    (``(null)`` for standard input, as dealer prints it).
    """
    if path is None or os.fspath(path) == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        name, source = "<stdin>", "(null)"
    else:
        name = source = os.fspath(path)
        with open(name, "rb") as handle:
            data = handle.read()
    from ddsbind.dealer.language import substitute_parameters

    text = substitute_parameters(data.decode("utf-8", errors="replace"), parameters, name)
    return parse(text, name), source
