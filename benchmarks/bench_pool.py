"""Tables per second: SolverPool and ``ddsbind.dd_tables`` against DDS's batch (CalcAllTables) and a native C driver.

Same hands, same machine, one process.  Each *round* runs every variant once,
interleaved, and the best of ``--repeat`` rounds counts for each variant:

* ``pool 1`` / ``pool 2``: ``SolverPool(threads).dd_tables_array`` -- each
  distinct deal of the call solved once (copied to its repeats), one task
  per (deal, strain), leaders N S E W (mode 1 then 2), input order.
* ``pool 2 hardest`` (with ``--hardest``): the same at 2 threads with
  ``SolverPool(2, order="hardest")`` (tasks queued hardest first by
  ``ddsbind.pool.hardness``).
* ``batch 1`` / ``batch 2``: DDS's ``CalcAllTables`` in calls of
  ``dll.max_tables(5)`` (40), after ``dll.SetMaxThreads(threads)``.
* ``ddsbind.dd_tables``: the module-level function at DDS's default threads
  (one per core; ``dll.SetMaxThreads(0)`` before it, untimed).
* ``native 1`` / ``native 2``: ``benchmarks/dds_driver tables``, plain C
  calling ``CalcAllTablesPBN`` in calls of 40, as DDS's own test program does.
* ``native default``: the same driver with ``SetMaxThreads(0)``: DDS's
  default threads, the baseline of ``ddsbind.dd_tables`` (same threads).

The deals: a DDS reference-hands file (default list1000.txt, whose tables
every variant must reproduce), or ``--random N``: N distinct random deals
(``ddsbind.database`` recipe, seed ``--seed``), written as PBN lines to a
temporary file for the driver; every variant must then give DDS's batch's
tables.  Printed ratios (tables/s of the first over the second):

1. ``ddsbind.dd_tables / native default`` (aim >= 1.0 on list1000, >= 0.98 on random deals)
2. ``pool 2 / native 2``                 (same aims)
3. ``pool 2 / pool 1``                    (aim >= 1.9)

``others busy`` is how many cores other processes kept busy during a run;
figures taken while it is well above 0 measure the machine, not ddsbind.

Short run::

    .venv/bin/python benchmarks/bench_pool.py --limit 40 --repeat 1
    .venv/bin/python benchmarks/bench_pool.py --random 300 --repeat 2
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from _common import (
    BenchError,
    LoadMeter,
    batch_tables,
    build_driver,
    driver_tables,
    fnv1a,
    random_masks,
    reference_file,
)

import ddsbind
from ddsbind import dll
from ddsbind.formats.ddsref import read_reference

HERE = Path(__file__).resolve().parent
DRIVER_SOURCE = HERE / "dds_driver.c"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description="SolverPool against CalcAllTables and a native C driver.")
    p.add_argument("--hands", type=Path, default=None, help="DDS reference-hands file (default list1000.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first N deals")
    p.add_argument("--repeat", type=int, default=3, help="interleaved rounds; each variant's best counts (default 3)")
    p.add_argument("--driver", type=Path, default=HERE / "dds_driver", help="where the driver binary lives")
    p.add_argument("--random", type=int, default=None, metavar="N", help="N distinct random deals instead of a file")
    p.add_argument("--seed", type=int, default=1, help="seed of the --random deals (default 1)")
    p.add_argument("--hardest", action="store_true", help="also time SolverPool(2, order='hardest')")
    args = p.parse_args(argv)
    if args.repeat < 1 or (args.limit is not None and args.limit < 1) or (args.random is not None and args.random < 1):
        p.error("--repeat, --limit and --random must be >= 1")
    args.hands = (args.hands or reference_file("list1000.txt")).resolve()
    return args


class Variant:
    """One way of solving the deals, timed."""

    def __init__(self, name: str, run: Callable[[], tuple[float, np.ndarray | None, float | None]]) -> None:
        self.name = name
        self.run = run
        self.seconds: list[float] = []
        self.others: list[float | None] = []


def random_deals(n: int, seed: int, folder: Path) -> tuple[np.ndarray, Path]:
    """``n`` distinct random deals as masks, and a file of their PBN lines the driver reads."""
    masks = random_masks(n, seed)
    if len(np.unique(masks.reshape(n, 16), axis=0)) != n:
        raise BenchError(f"seed {seed} deals a repeat among its first {n} deals; pick another --seed")
    path = folder / f"random-{seed}-{n}.txt"
    path.write_text("".join(f'PBN "{ddsbind.Deal(m).to_pbn()}"\n' for m in masks))
    return masks, path


def main(argv: Sequence[str] | None = None) -> int:
    """Run the interleaved rounds and print the table and the ratios."""
    args = parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        return _main(args, Path(tmp))


def _main(args: argparse.Namespace, tmp: Path) -> int:
    if args.random is not None:
        masks, hands_path = random_deals(args.random, args.seed, tmp)
        reference = batch_tables(masks)
        deals = [ddsbind.Deal(m) for m in masks]
        source = f"{args.random} distinct random deals, seed {args.seed}; reference: DDS's batch"
    else:
        if not args.hands.is_file():
            print(f"bench_pool: no hands file at {args.hands} (give one with --hands)", file=sys.stderr)
            return 1
        hands = read_reference(args.hands)[: args.limit]
        masks = np.stack([h.deal.remain_cards for h in hands])
        reference = np.stack([h.table for h in hands])
        deals = [h.deal for h in hands]
        hands_path = args.hands
        distinct = len(np.unique(masks.reshape(len(masks), 16), axis=0))
        source = f"{args.hands} ({distinct} distinct); reference: its TABLE lines"
    n = len(masks)
    driver = build_driver(DRIVER_SOURCE, args.driver.resolve())

    def timed(fn: Callable[[], np.ndarray]) -> tuple[float, np.ndarray, float | None]:
        with LoadMeter() as load:
            t0 = time.perf_counter()
            out = fn()
            seconds = time.perf_counter() - t0
        return seconds, out, load.others

    def pool(threads: int, order: str = "input") -> Callable[[], tuple]:
        def run() -> tuple:
            with ddsbind.SolverPool(threads, order=order) as p:
                return timed(lambda: p.dd_tables_array(masks))

        return run

    def batch(threads: int) -> Callable[[], tuple]:
        def run() -> tuple:
            return timed(lambda: batch_tables(masks, threads))

        return run

    def module() -> tuple:
        dll.SetMaxThreads(0)  # DDS's default threads, as the native baseline's SetMaxThreads(0)
        return timed(lambda: np.stack([t.array for t in ddsbind.dd_tables(deals)]))

    def native(threads: int) -> Callable[[], tuple]:
        def run() -> tuple:
            r, out = driver_tables(driver, hands_path, threads, n)
            if int(out["deals"]) != n:
                raise BenchError(f"the driver read {out['deals']} deals, expected {n}")
            if r.checksum != fnv1a(reference):
                raise BenchError("the driver's tables differ from the reference tables")
            return r.seconds, None, r.others

        return run

    variants = [
        Variant("pool 1", pool(1)),
        Variant("batch 1", batch(1)),
        Variant("native 1", native(1)),
        Variant("pool 2", pool(2)),
        *([Variant("pool 2 hardest", pool(2, "hardest"))] if args.hardest else []),
        Variant("batch 2", batch(2)),
        Variant("native 2", native(2)),
        Variant("native default", native(0)),
        Variant("ddsbind.dd_tables", module),
    ]
    for _ in range(args.repeat):
        for v in variants:
            seconds, out, others = v.run()
            if out is not None and not np.array_equal(out, reference):
                bad = int(np.flatnonzero((out != reference).any(axis=(1, 2)))[0])
                print(f"bench_pool: {v.name}: table of deal {bad} differs from the reference", file=sys.stderr)
                return 1
            v.seconds.append(seconds)
            v.others.append(others)

    info = ddsbind.dds_info()
    best = {v.name: min(v.seconds) for v in variants}
    print(f"DDS {info.version} ({info.source}), {info.cores} cores, {info.threads} DDS threads by default")
    print(f"deals     {n}: {source}")
    print(f"rounds    {args.repeat} (variants interleaved; best of each counts)")
    print()
    print(f"{'variant':<20}{'best s':>9}{'tables/s':>10}{'others busy':>13}   all runs (s)")
    for v in variants:
        i = v.seconds.index(best[v.name])
        others = "?" if v.others[i] is None else f"{v.others[i]:.2f}"
        runs = " ".join(f"{s:.3f}" for s in v.seconds)
        print(f"  {v.name:<18}{best[v.name]:>9.3f}{n / best[v.name]:>10.3f}{others:>13}   {runs}")
    print()
    aim = 0.98 if args.random is not None else 1.0
    r1 = best["native default"] / best["ddsbind.dd_tables"]
    r2 = best["native 2"] / best["pool 2"]
    r3 = best["pool 1"] / best["pool 2"]
    print(f"1. ddsbind.dd_tables / native default (tables/s, {info.threads} threads both): {r1:.3f}   (aim >= {aim})")
    print(f"2. pool 2 / native 2 (tables/s):            {r2:.3f}   (aim >= {aim})")
    print(f"3. pool 2 / pool 1 (tables/s):              {r3:.3f}   (aim >= 1.9)")
    print()
    print(f"pool / batch at 1 thread:  {best['batch 1'] / best['pool 1']:.3f}")
    print(f"pool / batch at 2 threads: {best['batch 2'] / best['pool 2']:.3f}")
    print(f"pool 1 / native 1:         {best['native 1'] / best['pool 1']:.3f}")
    print(f"batch 2 / batch 1:         {best['batch 1'] / best['batch 2']:.3f}")
    if args.hardest:
        print(f"pool 2 hardest-first / input order: {best['pool 2'] / best['pool 2 hardest']:.3f}")
    loads = [o for v in variants for o in v.others if o is not None]
    if loads and max(loads) > 0.25:
        print(
            f"note: other processes kept up to {max(loads):.2f} cores busy during these runs; "
            "the figures measure the machine's load as much as ddsbind -- rerun on an idle machine"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
