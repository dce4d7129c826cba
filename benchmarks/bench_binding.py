"""How much does the Python binding cost?  ddsbind against a plain C program, same DDS.

Two measurements, both against ``benchmarks/dds_driver`` (a small C program
of ours linked to the same DDS as the ddsbind under test, system library or
source tree, compiled by ``_common.build_driver`` when missing or older than
its source):

1. **DD tables throughput.**  The deals of a DDS reference-hands file
   (default ``list100.txt``) are solved once by the driver
   (``dds_driver tables FILE THREADS``: ``SetMaxThreads``, then
   ``CalcAllTablesPBN`` in batches of 40 deals) and once in this process by
   ``ddsbind.dd_tables`` (after ``ddsbind.dll.SetMaxThreads``), with the same
   thread count.  Only the solving is timed: the driver's clock
   (``CLOCK_MONOTONIC``) surrounds its ``CalcAllTablesPBN`` calls, ours
   (``time.perf_counter``) the ``dd_tables`` call, whose input is a list of
   already-parsed ``Deal`` objects -- so ddsbind's own work (deal to
   ``remainCards`` masks, input checks, numpy copies, locks) is inside our
   clock.  With ``--repeat N`` the two alternate N times and each side's
   best run counts.  The score is ``ratio (ddsbind/native)`` = ddsbind
   tables per second / driver tables per second (1.0 = no overhead).  Both
   sides' tables must be identical (the driver prints a 64-bit FNV-1a
   checksum of every table entry; we hash ours the same way), and equal to
   the file's ``TABLE`` lines where it has them; otherwise the benchmark
   fails.  ``cores busy`` is CPU time / wall time over the solving, which
   shows how well DDS kept its threads occupied.

2. **Per-call overhead.**  ``SolveBoard`` on a one-card-per-hand end
   position (``N:A... K... Q... J...``, NT, North leads, target -1,
   solutions 3, mode 1): microseconds per call of the driver's C loop,
   ``ddsbind.dll.SolveBoard`` (the DLL-faithful layer, structs built once),
   and ``ddsbind.solve_board`` given a ``Deal`` and given a PBN string.
   Each is a timeit-style loop; the best of several rounds counts.  DDS's
   work here is tiny, so the differences are the binding's per-call cost.

3. **Source build against the system library** (``--source-python``).  The
   same deals are solved by ``ddsbind.dd_tables`` in another interpreter
   whose ddsbind was compiled from DDS's upstream source (``make
   test-source`` builds one in ``.venv-source``), alternating with this
   process's runs; it prints both tables per second and their ratio.

Nothing here asserts a speed; it prints numbers.  Run from the repository
root (``make bench`` does)::

    .venv/bin/python benchmarks/bench_binding.py --repeat 2
    .venv/bin/python benchmarks/bench_binding.py --quick --file .cache/dds/source/hands/list10.txt
    .venv/bin/python benchmarks/bench_binding.py --source-python .venv-source/bin/python --repeat 3

Timings are only comparable on an otherwise idle machine: another process
busy on one of the cores slows whichever side runs at that moment.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _common import (
    BATCH,
    BenchError,
    LoadMeter,
    TablesRun,
    best_per_call,
    build_driver,
    driver_tables,
    fnv1a,
    rate,
    reference_file,
    run_driver,
)
from numpy.typing import NDArray

import ddsbind
from ddsbind import dll
from ddsbind.formats.ddsref import read_reference

HERE = Path(__file__).resolve().parent
DRIVER_SOURCE = HERE / "dds_driver.c"
DEFAULT_DRIVER = HERE / "dds_driver"
QUICK_DEALS = BATCH
ONE_CARD = "N:A... K... Q... J..."


def ddsbind_tables(deals: Sequence[ddsbind.Deal]) -> tuple[TablesRun, NDArray[np.int8]]:
    """One timed ``ddsbind.dd_tables`` call; the tables as an ``(N, 5, 4)`` array."""
    stamps: list[float] = []
    done = [0]

    def progress(k: int) -> None:
        # A stamp each time another BATCH deals (or the last) are done, whichever
        # route dd_tables takes (the pool reports deal by deal).
        before, done[0] = done[0], done[0] + k
        if done[0] // BATCH > before // BATCH or done[0] == len(deals):
            stamps.append(time.perf_counter())

    with LoadMeter() as load:
        c0 = time.process_time()
        t0 = time.perf_counter()
        tables = ddsbind.dd_tables(deals, progress=progress)
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - c0
    arr = np.stack([t.array for t in tables]) if tables else np.zeros((0, 5, 4), np.int8)
    batches = [float(b) for b in np.diff([t0, *stamps])]
    return TablesRun(seconds, cpu, batches, fnv1a(arr), load.others), arr


# -- one-card overhead --------------------------------------------------------------------


def onecard(driver: Path, threads: int, iterations: int, rounds: int) -> dict[str, float]:
    """Microseconds per SolveBoard call on the one-card position, four ways."""
    native = []
    for _ in range(rounds):
        out = run_driver(driver, "onecard", iterations, threads)
        if int(out["score"]) != 1:
            raise BenchError(f"driver: one-card position scored {out['score']}, expected 1")
        native.append(float(out["microseconds_per_call"]))

    deal = ddsbind.Deal.from_pbn(ONE_CARD)
    dl = dll.deal(trump=4, first=0, remainCards=deal.remain_cards.tolist())
    fut = dll.futureTricks()

    def dll_call() -> None:
        dll.SolveBoard(dl, -1, 3, 1, fut, 0)

    rc = dll.SolveBoard(dl, -1, 3, 1, fut, 0)
    if rc != dll.RETURN_NO_FAULT or max(fut.score[0 : fut.cards]) != 1:
        raise BenchError(f"ddsbind.dll.SolveBoard: rc {rc}, expected 1 trick")
    if ddsbind.solve_board(deal, "NT", "N").best_score != 1:
        raise BenchError("ddsbind.solve_board: one-card position did not score 1")

    return {
        "native": min(native),
        "dll": best_per_call(dll_call, iterations, rounds),
        "deal": best_per_call(lambda: ddsbind.solve_board(deal, "NT", "N"), iterations, rounds),
        "pbn": best_per_call(lambda: ddsbind.solve_board(ONE_CARD, "NT", "N"), iterations, rounds),
    }


# -- main ---------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(
        description="Time ddsbind against a native C driver on the same DDS, hands and threads.",
    )
    p.add_argument("--file", type=Path, default=None, help="DDS reference-hands file (default: list100.txt)")
    p.add_argument("--threads", type=int, default=2, help="DDS threads for both sides (default 2)")
    p.add_argument("--repeat", type=int, default=1, help="alternating runs per side; best counts (default 1)")
    p.add_argument("--quick", action="store_true", help=f"first {QUICK_DEALS} deals, fewer one-card calls")
    p.add_argument("--iterations", type=int, default=None, help="one-card calls per round (default 20000)")
    p.add_argument("--rounds", type=int, default=5, help="one-card rounds per variant; best counts (default 5)")
    p.add_argument("--driver", type=Path, default=DEFAULT_DRIVER, help="where the driver binary lives")
    p.add_argument("--rebuild", action="store_true", help="compile the driver even if it is up to date")
    p.add_argument(
        "--source-python",
        type=Path,
        default=None,
        help="also time dd_tables under this interpreter (e.g. .venv-source/bin/python, DDS built from source)",
    )
    p.add_argument("--tables-json", action="store_true", help=argparse.SUPPRESS)  # one timed run, for --source-python
    args = p.parse_args(argv)
    if args.threads < 0:
        p.error("--threads must be >= 0 (0 lets DDS choose)")
    if args.repeat < 1 or args.rounds < 1:
        p.error("--repeat and --rounds must be >= 1")
    if args.iterations is None:
        args.iterations = 2000 if args.quick else 20000
    elif args.iterations < 1:
        p.error("--iterations must be >= 1")
    args.file = (args.file or reference_file("list100.txt")).resolve()
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run both measurements and print the report; 0 on success, 1 on failure."""
    try:
        args = parse_args(argv)
        if args.tables_json:
            return tables_json(args)
        return report(args)
    except BenchError as exc:
        print(f"bench_binding: {exc}", file=sys.stderr)
        return 1


def _deals(args: argparse.Namespace) -> list:
    hands = read_reference(args.file)
    return hands[:QUICK_DEALS] if args.quick else hands


def tables_json(args: argparse.Namespace) -> int:
    """One timed ``dd_tables`` run of the file's deals, printed as JSON (the ``--source-python`` child)."""
    dll.SetMaxThreads(args.threads)
    run, _ = ddsbind_tables([h.deal for h in _deals(args)])
    info = ddsbind.dds_info()
    out = {"seconds": run.seconds, "checksum": run.checksum, "source": info.source, "version": info.version}
    print(json.dumps(out))
    return 0


def source_runs(args: argparse.Namespace) -> dict:
    """One ``--tables-json`` run under ``args.source_python``.

    The script runs by path, so the child's path starts with ``benchmarks/``
    (for ``_common``), never the checkout; without this process's
    ``PYTHONPATH`` it imports the ddsbind installed in its own environment.
    """
    cmd = [str(args.source_python), str(Path(__file__).resolve()), "--tables-json", "--file", str(args.file)]
    cmd += ["--threads", str(args.threads)] + (["--quick"] if args.quick else [])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH", "PYTHONHOME")}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise BenchError(f"{args.source_python} failed: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout.splitlines()[-1])


def report(args: argparse.Namespace) -> int:
    """The benchmark proper."""
    if not args.file.is_file():
        raise BenchError(f"no reference file at {args.file} (give one with --file)")
    driver = build_driver(DRIVER_SOURCE, args.driver.resolve(), force=args.rebuild)
    hands = _deals(args)
    limit = QUICK_DEALS if args.quick else None
    deals = [h.deal for h in hands]
    n = len(deals)
    if n == 0:
        raise BenchError(f"{args.file} holds no deals")
    reference = np.stack([h.table for h in hands]) if all(h.table is not None for h in hands) else None

    dll.SetMaxThreads(args.threads)
    info = ddsbind.dds_info()

    native: list[TablesRun] = []
    ours: list[TablesRun] = []
    source: list[dict] = []
    driver_threads = None
    for _ in range(args.repeat):
        if args.source_python:
            source.append(source_runs(args))
        run, out = driver_tables(driver, args.file, args.threads, limit)
        if int(out["deals"]) != n:
            raise BenchError(f"the driver read {out['deals']} deals, ddsbind {n}")
        driver_threads = int(out["threads"])
        native.append(run)
        run, tables = ddsbind_tables(deals)
        ours.append(run)
        if reference is not None and not np.array_equal(tables, reference):
            bad = int(np.flatnonzero((tables != reference).any(axis=(1, 2)))[0])
            raise BenchError(f"ddsbind's table of deal {bad} differs from the file's TABLE line")
    checksums = {r.checksum for r in native + ours} | {r["checksum"] for r in source}
    if len(checksums) != 1:
        raise BenchError(
            "the driver and ddsbind computed different tables: checksums "
            + ", ".join(f"0x{c:016x}" for c in sorted(checksums))
        )
    best_native = min(native, key=lambda r: r.seconds)
    best_ours = min(ours, key=lambda r: r.seconds)
    ratio = rate(n, best_ours.seconds) / rate(n, best_native.seconds)

    print(f"DDS {info.version} ({info.source}, {info.threading} threading), {info.cores} cores")
    print(f"file      {args.file}")
    print(f"deals     {n} ({len(best_native.batch_seconds)} CalcAllTables calls of <= {BATCH})")
    print(f"threads   {info.threads} (asked for {args.threads}; driver's DDS reports {driver_threads})")
    print(f"repeat    {args.repeat} (driver and ddsbind alternate; the best run of each counts)")
    print()
    print(f"{'DD tables':<26}{'best s':>9}{'tables/s':>10}{'cores busy':>12}{'others busy':>13}   all runs (s)")
    for name, runs, best in (
        ("native (dds_driver)", native, best_native),
        ("ddsbind.dd_tables", ours, best_ours),
    ):
        every = " ".join(f"{r.seconds:.3f}" for r in runs)
        others = "?" if best.others is None else f"{best.others:.2f}"
        print(f"  {name:<24}{best.seconds:>9.3f}{rate(n, best.seconds):>10.3f}{best.busy:>12.2f}{others:>13}   {every}")
    print(f"ratio (ddsbind/native): {ratio:.3f}")
    agree = "driver == ddsbind" + (" == file TABLE lines" if reference is not None else "")
    print(f"tables agree: {agree} (checksum 0x{checksums.pop():016x})")
    loads = [r.others for r in native + ours if r.others is not None]
    if loads and max(loads) > 0.25:
        print(
            f"note: other processes kept up to {max(loads):.2f} of the {info.cores} cores busy during these"
            " runs, so the ratio measures the machine's load more than ddsbind; rerun on an idle machine"
        )
    if source:
        best_source = min(r["seconds"] for r in source)
        print(
            f"source build ({source[0]['source']}, DDS {source[0]['version']}): best {best_source:.3f} s,"
            f" {rate(n, best_source):.3f} tables/s; all runs (s) " + " ".join(f"{r['seconds']:.3f}" for r in source)
        )
        print(f"ratio (source build/system library): {best_ours.seconds / best_source:.3f}")
    print()
    print("per batch (best runs)      deals  native s  ddsbind s")
    for i, (a, b) in enumerate(zip(best_native.batch_seconds, best_ours.batch_seconds, strict=True)):
        k = min(BATCH, n - i * BATCH)
        print(f"  batch {i:<19}{k:>6}{a:>10.3f}{b:>11.3f}")
    print()

    us = onecard(driver, args.threads, args.iterations, args.rounds)
    print(f"one-card SolveBoard ({ONE_CARD}, NT, North leads; {args.iterations} calls a round, best of {args.rounds})")
    print(f"  {'native (dds_driver)':<30}{us['native']:>9.3f} us/call")
    for key, name in (
        ("dll", "ddsbind.dll.SolveBoard"),
        ("deal", "ddsbind.solve_board(Deal)"),
        ("pbn", "ddsbind.solve_board(str)"),
    ):
        print(f"  {name:<30}{us[key]:>9.3f} us/call  (+{us[key] - us['native']:.3f} over native)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
