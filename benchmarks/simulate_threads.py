"""Predict pool and batch table throughput at 1..32 threads from one-thread task times.

This machine has 2 cores, so 16 threads cannot be measured.  Instead:

Both models solve each deal once where the real solver does: the pool
solves each distinct deal of the call once (``SolverPool`` dedupes the
whole call), DDS's batch each distinct deal of one ``CalcAllTables`` call
of 40 (its scheduler copies repeats inside a call, not across calls).
list1000.txt holds 639 distinct deals of 1000, most repeats inside a call.

1. **Measure.**  Every task of the file's distinct deals -- one (deal, strain): the four
   leaders N S E W through ``dll.SolveBoard`` on threadIndex 0, mode 1 then
   2, exactly as a ``SolverPool`` worker does -- is timed on one thread by
   that thread's CPU clock (``time.thread_time``: the work, not the wait,
   so other processes on the machine distort it little).  DDS's batch does
   a little less work per task (it seeds later leaders inside DDS): its
   one-thread CPU time over the pool's, measured on the same deals, scales
   the batch's task times.
2. **Simulate.**  *Pool*: every task of the distinct deals queued in the
   pool's order (``--order``, ``SolverPool(order=...)``'s: input order, or
   hardest first by the cheap estimate ``ddsbind.pool.hardness``, never by
   the measured times), each
   started on whichever thread is free first; the call ends when the last
   task does.  *Batch*: ``CalcAllTables`` in calls of
   ``dll.max_tables(5)`` (40) deals, each solving the call's distinct
   deals; within a call DDS's scheduler also
   orders its 200 tasks hardest first by a fanout estimate (modelled with
   the same estimate), and the next call starts only when the slowest
   thread of this one ends.  ``batch LPT`` is the batch with each call's
   tasks in the order of their true times: an upper bound no scheduler
   reaches.
3. **Validate.**  At 1 and 2 threads the pool and the batch are also run
   for real on the same deals (wall clock) and printed beside the
   prediction.  On a loaded machine the measured figures are slower than
   predicted; the ratios are what to compare.

Short run::

    .venv/bin/python benchmarks/simulate_threads.py --limit 40
    .venv/bin/python benchmarks/simulate_threads.py --random 300
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from collections.abc import Sequence

import numpy as np
from _common import BenchError, LoadMeter, add_deal_arguments, batch_tables, deal_masks
from _common import distinct as distinct_deals

import ddsbind
from ddsbind import dll, pool

THREADS = (1, 2, 4, 8, 16, 32)
STRAINS = (4, 0, 1, 2, 3)


def task_times(masks: np.ndarray) -> np.ndarray:
    """``(N, 5)`` CPU seconds of each (deal, strain) task on one thread, strains in DDS order."""
    out = np.zeros((len(masks), 5))
    tricks = masks[:, 0, :].tolist()
    for d, rows in enumerate(masks.tolist()):
        n = sum(int(m).bit_count() for m in tricks[d])
        for strain in STRAINS:
            dl = dll.deal(trump=strain, remainCards=rows)
            fut = dll.futureTricks()
            t0 = time.thread_time()
            mode = 1
            for leader in pool.LEADERS:
                dl.first = leader
                if dll.SolveBoard(dl, -1, 1, mode, fut, 0) != dll.RETURN_NO_FAULT:
                    raise RuntimeError(f"deal {d}: {dll.last_error()}")
                if not 0 <= fut.score[0] <= n:
                    raise RuntimeError(f"deal {d}: score {fut.score[0]}")
                mode = 2
            out[d, strain] = time.thread_time() - t0
    return out


def list_schedule(times: Sequence[float], threads: int) -> float:
    """Makespan of tasks taken in the given order by whichever thread is free first."""
    free = [0.0] * threads
    for t in times:
        heapq.heapreplace(free, free[0] + t)
    return max(free)


def simulate_pool(times: np.ndarray, order: np.ndarray, threads: int) -> float:
    """Seconds for the pool: all tasks, deals in ``order``."""
    return list_schedule(times[order].ravel().tolist(), threads)


def simulate_batch(
    times: np.ndarray, inverse: np.ndarray, estimate: np.ndarray | None, threads: int, per_call: int
) -> float:
    """Seconds for the batch: calls of ``per_call`` input deals, each waiting for its slowest thread.

    ``times`` and ``estimate`` are of the distinct deals; input deal ``i`` is
    distinct deal ``inverse[i]``.  A call solves its distinct deals only (DDS
    copies a repeat inside the call).  Within a call, deals go in descending
    ``estimate``; None: tasks by true time (LPT).
    """
    total = 0.0
    for start in range(0, len(inverse), per_call):
        part = inverse[start : start + per_call]
        _, where = np.unique(part, return_index=True)
        ids = part[np.sort(where)]
        chunk = times[ids]
        if estimate is None:
            call = np.sort(chunk.ravel())[::-1]
        else:
            call = chunk[np.argsort(-estimate[ids], kind="stable")].ravel()
        total += list_schedule(call.tolist(), threads)
    return total


def measure(masks: np.ndarray, threads: int, order: str) -> tuple[float, float]:
    """Wall seconds of a real pool run and a real batch run at ``threads``."""
    with ddsbind.SolverPool(threads, order=order) as p:
        t0 = time.perf_counter()
        p.dd_tables_array(masks)
        pool_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    batch_tables(masks, threads)
    batch_s = time.perf_counter() - t0
    return pool_s, batch_s


def batch_work_factor(masks: np.ndarray, pool_cpu: float) -> float:
    """One-thread CPU of DDS's batch over the pool's task CPU, same (distinct) deals."""
    c0 = time.process_time()
    batch_tables(masks, 1)
    return (time.process_time() - c0) / pool_cpu


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, simulate, validate, print."""
    p = argparse.ArgumentParser(description="Predict pool and batch tables/s at 1..32 threads.")
    add_deal_arguments(p)
    p.add_argument("--order", choices=("input", "hardest"), default="input", help="the pool's task order")
    p.add_argument("--no-validate", action="store_true", help="skip the real runs at 1 and 2 threads")
    args = p.parse_args(argv)
    try:
        masks, source = deal_masks(args)
    except BenchError as exc:
        print(f"simulate_threads: {exc}", file=sys.stderr)
        return 1
    n = len(masks)
    first, inverse = distinct_deals(masks)  # as the pool dedupes
    distinct = masks[first]
    per_call = dll.max_tables(5)
    in_calls = sum(len(np.unique(inverse[s : s + per_call])) for s in range(0, n, per_call))

    with LoadMeter() as load:
        times = task_times(distinct)
    factor = batch_work_factor(distinct, times.sum())
    estimate = pool.hardness(distinct)
    order = np.argsort(-estimate, kind="stable") if args.order == "hardest" else np.arange(len(distinct))

    print(f"hands   {source} ({n} deals, {len(distinct)} distinct; {in_calls} distinct within calls of {per_call})")
    print(f"pool    order: {args.order}; {len(distinct) * 5} tasks")
    print(f"tasks   {times.sum():.2f} CPU s on one thread; longest {times.max():.3f} s, median {np.median(times):.4f}")
    print(f"batch   one-thread work {factor:.3f} x the pool's (scales its task times)")
    if load.others is not None:
        print(f"load    other processes kept {load.others:.2f} cores busy while tasks were timed")
    print()
    print(f"{'threads':>7}{'pool t/s':>11}{'batch t/s':>11}{'pool/batch':>12}{'batch LPT t/s':>15}   (predicted)")
    for t in THREADS:
        ps = simulate_pool(times, order, t)
        bs = simulate_batch(times * factor, inverse, estimate, t, per_call)
        lpt = simulate_batch(times * factor, inverse, None, t, per_call)
        print(f"{t:>7}{n / ps:>11.3f}{n / bs:>11.3f}{bs / ps:>12.3f}{n / lpt:>15.3f}")
    if args.no_validate:
        return 0
    print()
    print(f"{'threads':>7}{'pool pred':>11}{'pool meas':>11}{'batch pred':>12}{'batch meas':>12}   (seconds)")
    for t in (1, 2):
        with LoadMeter() as load:
            pm, bm = measure(masks, t, args.order)
        ps = simulate_pool(times, order, t)
        bs = simulate_batch(times * factor, inverse, estimate, t, per_call)
        busy = "" if load.others is None else f"   others busy {load.others:.2f}"
        print(f"{t:>7}{ps:>11.3f}{pm:>11.3f}{bs:>12.3f}{bm:>12.3f}{busy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
