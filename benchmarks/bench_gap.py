"""Where the pool's per-deal time goes against DDS's batch, on distinct deals, one thread, CPU clocks.

Every variant solves the same distinct deals (a file's deals deduplicated,
or ``--random N``) on one thread and is timed by CPU time, not wall time
(``time.thread_time`` for the searches run here, ``time.process_time``
for whole calls), so other processes on the machine distort it little:

* ``searches NT C D H S``: the pool's per-task work, run directly on
  threadIndex 0: per strain, leaders N S E W through ``dll.SolveBoard``,
  mode 1 then 2; strains in DDS's batch order NT, C, D, H, S (strain codes
  4, 3, 2, 1, 0).
* ``searches NT S H D C``: the same, strains in the pool's order (4, 0, 1, 2, 3).
* ``searches, all mode 1``: every leader searched afresh (what mode 2's
  transposition-table reuse across leaders saves).
* ``SolverPool(1)``: the real pool, whole call (Python tasks, queue,
  worker thread included): its excess over the searches is the pool's
  Python overhead per task.
* ``batch``: DDS's ``CalcAllTables`` at 1 thread, calls of 40.

Short run::

    .venv/bin/python benchmarks/bench_gap.py --random 20
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from _common import LoadMeter, add_deal_arguments, batch_tables, deal_masks, distinct

import ddsbind
from ddsbind import dll, pool


def searches(masks: np.ndarray, strains: Sequence[int], later_mode: int) -> tuple[float, np.ndarray]:
    """CPU seconds of the pool's searches on threadIndex 0, and the tables they give."""
    out = np.zeros((len(masks), 5, 4), np.int8)
    cpu = 0.0
    for d, rows in enumerate(masks.tolist()):
        tricks = sum(int(m).bit_count() for m in rows[0])
        for strain in strains:
            dl = dll.deal(trump=strain, remainCards=rows)
            fut = dll.futureTricks()
            mode = 1
            t0 = time.thread_time()
            for leader in pool.LEADERS:
                dl.first = leader
                if dll.SolveBoard(dl, -1, 1, mode, fut, 0) != dll.RETURN_NO_FAULT:
                    raise RuntimeError(f"deal {d}: {dll.last_error()}")
                out[d, strain, (leader + 3) % 4] = tricks - fut.score[0]
                mode = later_mode
            cpu += time.thread_time() - t0
    return cpu, out


def process_cpu(fn: Callable[[], np.ndarray]) -> tuple[float, float, np.ndarray]:
    """(CPU seconds of the process, wall seconds, result) of ``fn()``."""
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return time.process_time() - c0, time.perf_counter() - w0, out


def pool1(masks: np.ndarray) -> np.ndarray:
    """Tables through ``SolverPool(1)``."""
    with ddsbind.SolverPool(1) as p:
        return p.dd_tables_array(masks)


def main(argv: Sequence[str] | None = None) -> int:
    """Time each variant, check they agree, print CPU seconds and ratios to the batch."""
    p = argparse.ArgumentParser(description="Where the pool's per-deal time goes, one thread, CPU clocks.")
    add_deal_arguments(p)
    args = p.parse_args(argv)
    masks, source = deal_masks(args)
    first, _ = distinct(masks)
    masks = masks[first]
    n = len(masks)
    rows: list[tuple[str, float, float | None]] = []
    with LoadMeter() as load:
        b_cpu, b_wall, reference = process_cpu(lambda: batch_tables(masks, 1))
        rows.append(("batch (CalcAllTables, 1 thread)", b_cpu, b_wall))
        for name, strains, later in (
            ("searches NT C D H S", (4, 3, 2, 1, 0), 2),
            ("searches NT S H D C", (4, 0, 1, 2, 3), 2),
            ("searches, all mode 1", (4, 0, 1, 2, 3), 1),
        ):
            cpu, out = searches(masks, strains, later)
            if not np.array_equal(out, reference):
                print(f"bench_gap: {name}: tables differ from the batch's", file=sys.stderr)
                return 1
            rows.append((name, cpu, None))
        p_cpu, p_wall, out = process_cpu(lambda: pool1(masks))
        if not np.array_equal(out, reference):
            print("bench_gap: SolverPool(1): tables differ from the batch's", file=sys.stderr)
            return 1
        rows.append(("SolverPool(1)", p_cpu, p_wall))
    print(f"deals   {source}: {n} distinct, one thread")
    if load.others is not None:
        print(f"load    other processes kept {load.others:.2f} cores busy")
    print()
    print(f"{'variant':<34}{'CPU s':>9}{'wall s':>9}{'CPU / batch':>13}")
    for name, cpu, wall in rows:
        w = "" if wall is None else f"{wall:.3f}"
        print(f"  {name:<32}{cpu:>9.3f}{w:>9}{cpu / b_cpu:>13.3f}")
    search_cpu = rows[2][1]
    print()
    print(f"pool Python overhead per task: {(p_cpu - search_cpu) / (5 * n) * 1e6:.0f} us CPU ({n * 5} tasks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
