"""How fast is ``ddsbind generate``?  End-to-end deals per second against the native C driver.

Three measurements on the same random deals (``--count`` deals of ``--seed``):

1. **generate, one process.**  ``ddsbind.database.generate(OUT.zrd, count,
   seed, threads=T)`` end to end: making the deals from the seed, solving
   them (through a ``SolverPool``), encoding, appending with fsync
   after each batch, the checksum and the manifest.  Deals per second =
   count / wall seconds.
2. **native driver.**  ``benchmarks/dds_driver tables FILE T`` (the C program
   of ``bench_binding.py``: ``SetMaxThreads(T)``, then ``CalcAllTablesPBN``
   in batches of 40) on the same deals written as ``PBN "N:..."`` lines;
   only its solving is timed (by the driver's own clock).  Both sides' tables
   must be equal (the driver's FNV-1a checksum of every table entry against
   ours), else the benchmark fails.  **ratio generate/native** = (1) / (2);
   1.0 or more means everything around the solving is free.
3. **Dask.**  The same generation on a ``LocalCluster`` of ``--workers``
   worker processes, each task a shard of ``--shard`` deals solved with
   ``threads=1`` (a one-thread ``SolverPool`` in each worker), against (1).
   **ratio dask/one process**; aim >= 0.9.  Skipped without the
   ``distributed`` extra (or with ``--no-dask``).

Then the time a 10,485,760-deal database (the size of Pavlicek's library)
takes: on this machine at rate (1), and on N machines of 16 cores at rate
(1) per core times 16 N times the measured Dask efficiency (3)/(1).
Stated assumptions: deals cost the same on average (the count is large
enough), cores scale linearly within a machine, and the scheduler is not the
bottleneck (a shard of 256 deals is minutes of work).

Nothing asserts a speed; it prints numbers.  ``others`` is how many cores
other processes kept busy meanwhile (``_common.LoadMeter``): numbers
are only comparable when it is near 0.  Run from the repository root::

    .venv/bin/python benchmarks/bench_generate.py                 # 1024 deals: a few minutes on 2 cores
    .venv/bin/python benchmarks/bench_generate.py --count 32 --shard 8    # a short smoke run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from _common import BenchError, LoadMeter, build_driver, fnv1a, run_driver

from ddsbind import Deal, dds_info
from ddsbind.database import generate, make_deals
from ddsbind.formats import decode_zrd

HERE = Path(__file__).resolve().parent

PAVLICEK = 10_485_760


def human(seconds: float) -> str:
    """Seconds as the largest sensible unit."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def cores_busy(others: float | None) -> str:
    """``others`` as text: cores other processes kept busy."""
    return "unknown" if others is None else f"{others:.2f}"


def timed_generate(out: Path, count: int, seed: int, **kw: object) -> tuple[float, float | None]:
    """Wall seconds of one ``generate`` and the cores others kept busy meanwhile."""
    with LoadMeter() as load:
        t0 = time.perf_counter()
        generate(out, count, seed, **kw)  # type: ignore[arg-type]
        seconds = time.perf_counter() - t0
    return seconds, load.others


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--count", type=int, default=1024, help="deals (default 1024; 32 for a smoke run)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=2, help="solver threads of the one-process run and the driver")
    ap.add_argument("--workers", type=int, default=2, help="Dask LocalCluster workers")
    ap.add_argument("--shard", type=int, default=64, help="deals per Dask task")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask measurement")
    ap.add_argument("--no-driver", action="store_true", help="skip the native driver")
    ap.add_argument("--driver", type=Path, default=HERE / "dds_driver", help="path of the compiled driver")
    args = ap.parse_args(argv)

    info = dds_info()
    print(f"DDS {info.version} ({info.source}), {info.threads} threads on {info.cores} cores")
    print(f"{args.count} deals of seed {args.seed}")
    with tempfile.TemporaryDirectory(prefix="bench_generate") as tmp:
        tmpd = Path(tmp)
        one = tmpd / "one.zrd"
        secs, others = timed_generate(one, args.count, args.seed, threads=args.threads)
        rate = args.count / secs
        print(f"generate, 1 process, threads={args.threads}: {secs:.2f} s, {rate:.2f} deals/s", end="")
        print(f" (others {cores_busy(others)})")
        _, tables = decode_zrd(one.read_bytes())
        ours = fnv1a(tables)

        if not args.no_driver:
            driver = build_driver(HERE / "dds_driver.c", args.driver.resolve())
            pbn = tmpd / "deals.txt"
            owners = make_deals(args.seed, 0, args.count)
            pbn.write_text("".join(f'PBN 0 0 0 0 "{Deal.from_owners(o).to_pbn()}"\n' for o in owners))
            with LoadMeter() as load:
                res = run_driver(driver, "tables", pbn, args.threads)
            native = float(res["tables_per_second"])
            if int(res["checksum"], 16) != ours:
                raise BenchError("the driver's tables differ from the database's")
            print(
                f"native driver, threads={res['threads']}: {float(res['seconds']):.2f} s, "
                f"{native:.2f} tables/s (others {cores_busy(load.others)})"
            )
            print(f"ratio generate/native: {rate / native:.3f}  (aim >= 1.0)")

        efficiency = 1.0
        if not args.no_dask:
            try:
                import distributed  # noqa: F401
            except ImportError:
                print("dask: skipped (pip install 'ddsbind[distributed]')")
            else:
                dist = tmpd / "dask.zrd"
                dsecs, dothers = timed_generate(
                    dist, args.count, args.seed, threads=1, workers=args.workers, shard=args.shard
                )
                if dist.read_bytes() != one.read_bytes():
                    raise BenchError("the Dask database differs from the one-process database")
                drate = args.count / dsecs
                efficiency = drate / rate
                print(
                    f"generate, Dask {args.workers} workers x 1 thread, shard {args.shard}: {dsecs:.2f} s, "
                    f"{drate:.2f} deals/s (others {cores_busy(dothers)}; includes starting the cluster)"
                )
                print(f"ratio dask/one process: {efficiency:.3f}  (aim >= 0.9)")

    cores = info.cores or os.cpu_count() or 1
    per_core = rate / min(args.threads, cores)
    print(f"\n{PAVLICEK:,} deals: this machine ({min(args.threads, cores)} threads): {human(PAVLICEK / rate)}")
    for n in (1, 4, 16, 64):
        r = per_core * 16 * n * min(efficiency, 1.0)
        print(f"  on {n} worker machine(s) of 16 cores: {human(PAVLICEK / r)}  ({r:.0f} deals/s)")
    print(
        f"  assumptions: {per_core:.2f} deals/s per core as measured, linear in cores, Dask efficiency {efficiency:.2f}"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print(f"bench_generate: error: {exc}", file=sys.stderr)
        sys.exit(1)
