"""How fast is par?  ddsbind's par kernel against DDS's ``DealerPar`` called per table, and library mode's ``par()``.

Three figures, each beside DDS's ``DealerPar`` called one table at a time
through the binding (what ``par()`` did before the kernel):

1. **kernel**: tables/s of :func:`ddsbind.optimum.dealer_par_scores` over
   1,048,576 tables in one call (split across the cores), and of
   :func:`ddsbind.optimum.dealer_pars` (contracts and explanations too,
   over 20,000 tables);
2. **par() in library mode**: ``condition par(ns) >= 400`` over a ZRD
   of ``--records`` records, records/s of the whole process, start-up
   included (the aim: at least 2,000,000 records/s on 2 cores);
3. **a study script**: ``tricks()``, ``par()``, an ``average`` and a
   ``frequency`` over the same file: wall seconds with start-up (the aim:
   10,485,760 records, Pavlicek's library's size, within 15 s on 2 cores).

The ZRD file is made in ``--dir`` (default ``/tmp``) by tiling a block of
2**20 records, as ``bench_scale.py`` does (random deals, random results
0..13: par is defined on any table).  ``others`` is how many cores other
processes kept busy meanwhile: figures are comparable only when it is near
0.  Run from the repository root::

    .venv/bin/python benchmarks/bench_par.py                         # 10,485,760 records
    .venv/bin/python benchmarks/bench_par.py --records 1048576       # a short run
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import BenchError, LoadMeter, compiled, others_text
from bench_library import generated, timed_process
from bench_scale import tile

from ddsbind import dll, optimum
from ddsbind.formats.zrd import decode_zrd

PAR_SCRIPT = """condition par(ns) >= 400
action average hcp(north)
"""
STUDY_SCRIPT = """dealer north
vulnerable ns
condition hcp(north) + hcp(south) >= 20
action average "par" par(ns), frequency "nt" (tricks(north, notrumps), 0, 13)
"""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=10_485_760, help="records in the library")
    ap.add_argument("--threads", type=int, default=2, help="--threads of the ddsbind runs")
    ap.add_argument("--dir", type=Path, default=Path("/tmp"), help="where the library is written")
    ap.add_argument("--dds-tables", type=int, default=20_000, help="tables DDS's DealerPar is timed on")
    return ap.parse_args(argv)


def dds_dealer_par_rate(tables: np.ndarray) -> float:
    """Tables/s of DDS's ``DealerPar`` called per table through the DLL layer (dealer N, nobody vulnerable)."""
    started = time.perf_counter()
    for t in tables:
        out = dll.parResultsDealer()
        dll.raising.DealerPar(dll.ddTableResults(resTable=t.tolist()), out, 0, 0)
    return len(tables) / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    compiled()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        library = Path(tmp) / "library.zrd"
        started = time.perf_counter()
        tile(library, args.records)
        print(f"library: {args.records} records tiled in {time.perf_counter() - started:.1f} s")
        with open(library, "rb") as f:
            _, tables = decode_zrd(f.read(min(args.records, 1 << 20) * 23))
        tables = np.ascontiguousarray(tables, dtype=np.int8)

        dds = dds_dealer_par_rate(tables[: args.dds_tables])
        print(f"DDS DealerPar per table (binding): {dds:,.0f} tables/s")
        with LoadMeter() as load:
            started = time.perf_counter()
            optimum.dealer_par_scores(tables, 0, 0)
            kernel = len(tables) / (time.perf_counter() - started)
        print(
            f"kernel dealer_par_scores, {os.cpu_count()} cores: {len(tables)} tables, {kernel:,.0f} tables/s, "
            f"{kernel / dds:.0f}x DDS per table, others={others_text(load.others)}"
        )
        few = tables[: args.dds_tables]
        started = time.perf_counter()
        optimum.dealer_pars(few, 0, 0)
        full = len(few) / (time.perf_counter() - started)
        print(f"kernel dealer_pars (contracts explained), 1 thread: {full:,.0f} tables/s, {full / dds:.1f}x DDS")

        for name, text in (("par() condition", PAR_SCRIPT), ("study: tricks, par, average, frequency", STUDY_SCRIPT)):
            script = Path(tmp) / "script.dl"
            script.write_text(text)
            cmd = [sys.executable, "-m", "ddsbind", "dealer", str(script), "-L", str(library)]
            wall, cpu, out, others = timed_process([*cmd, "--threads", str(args.threads)])
            if generated(out) != args.records:
                raise BenchError(f"{name}: {generated(out)} records read, not {args.records}")
            rate = args.records / wall
            print(
                f"library mode, {name}, threads={args.threads}: {args.records} records, {wall:.2f} s with start-up: "
                f"{rate:,.0f} records/s ({rate / dds:.0f}x DDS per table), {args.records / cpu:,.0f} per CPU second, "
                f"others={others_text(others)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
