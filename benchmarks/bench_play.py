"""Played-deal analysis: analysed deals per second, three ways, on the same reference plays.

1. ``ddsbind.play.analyse_plays``: DDS's ``AnalyseAllPlaysBin`` (DDS's own
   threads), the path ``costly_cards_batch`` and ``ddsbind analyse`` use.
2. DDS's single-deal analysis per deal on N Python threads, worker ``i``
   calling ``ddsbind.dll.AnalysePlayPBN`` on DDS ``threadIndex`` ``i``:
   what a ``SolverPool`` of single ``AnalysePlayBin`` calls would do.
3. DDS's own figure: ``benchmarks/dds_play_driver.c`` (linked to the same
   DDS as ddsbind, see ``_common.build_driver``) calling
   ``AnalyseAllPlaysPBN`` from C.

Also times ``costly_cards_batch`` end to end (traces plus one ``SolveBoard``
per costly card).  Every path's traces are checked against the file's TRACE
lines.  Prints ``key value`` lines; no assertions on speed.

    python benchmarks/bench_play.py                 # list1000, 2 threads
    python benchmarks/bench_play.py --limit 100     # a short run
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from _common import BenchError, build_driver, reference_file, run_driver, timed

import ddsbind
from ddsbind import dll
from ddsbind.formats.ddsref import ReferenceHand, read_reference
from ddsbind.play import analyse_plays, costly_cards_batch

HERE = Path(__file__).resolve().parent
DRIVER_SOURCE = HERE / "dds_play_driver.c"


def jobs_of(hands: Sequence[ReferenceHand]) -> list[tuple]:
    return [(h.deal, h.trump, h.first, h.play) for h in hands]


def analyse_one(h: ReferenceHand, thread: int) -> list[int]:
    """``AnalysePlayPBN`` of one hand's play on DDS ``threadIndex`` ``thread``: the DD value before each card."""
    dl = dll.dealPBN(trump=h.trump, first=h.first, remainCards=h.deal.to_pbn().encode())
    play = dll.playTracePBN(number=len(h.play or "") // 2, cards=(h.play or "").encode())
    solved = dll.solvedPlay()
    dll.raising.AnalysePlayPBN(dl, play, solved, thread)
    return list(solved.tricks[0 : solved.number])


def per_deal_threads(hands: Sequence[ReferenceHand], threads: int) -> tuple[float, list[list[int]]]:
    """One hand at a time on ``threads`` Python threads, worker i on threadIndex i; (seconds, traces)."""
    out: list[list[int] | None] = [None] * len(hands)
    barrier = threading.Barrier(threads + 1)

    def work(i: int) -> None:
        barrier.wait()
        for k in range(i, len(hands), threads):
            out[k] = analyse_one(hands[k], i)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    t0 = time.perf_counter()
    for w in workers:
        w.join()
    return time.perf_counter() - t0, out  # type: ignore[return-value]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--file", type=Path, default=None, help="DDS reference-hands file (default: list1000.txt)")
    p.add_argument("--limit", type=int, default=None, help="first N hands only (a short run)")
    p.add_argument("--threads", type=int, default=2, help="Python workers / C driver threads (default 2)")
    p.add_argument("--repeat", type=int, default=1, help="runs per path; the best counts (default 1)")
    p.add_argument("--no-driver", action="store_true", help="skip the C driver")
    p.add_argument("--no-costly", action="store_true", help="skip the end-to-end costly_cards_batch timing")
    args = p.parse_args(argv)
    path = args.file or reference_file("list1000.txt")
    hands = [h for h in read_reference(path) if h.play is not None][: args.limit]
    want = [list(h.trace) for h in hands]
    n = len(hands)
    threads = min(args.threads, ddsbind.dds_info().threads)
    print(f"file {path.name}")
    print(f"deals {n}")
    print(f"dds_threads {ddsbind.dds_info().threads}")
    print(f"python_threads {threads}")

    best: dict[str, float] = {}
    for _ in range(args.repeat):
        s, traces = timed(lambda: analyse_plays(jobs_of(hands)))
        if traces != want:
            raise BenchError("AnalyseAllPlaysBin traces differ from the TRACE lines")
        best["analyse_all_plays"] = min(best.get("analyse_all_plays", s), s)
        s, traces = per_deal_threads(hands, threads)
        if traces != want:
            raise BenchError("per-deal AnalysePlayPBN traces differ from the TRACE lines")
        best["per_deal_threads"] = min(best.get("per_deal_threads", s), s)
    for key, s in best.items():
        print(f"{key}_seconds {s:.3f}")
        print(f"{key}_deals_per_second {n / s:.1f}")
    faster = min(best, key=best.get)  # type: ignore[arg-type]
    print(f"faster {faster}")

    if not args.no_costly:
        s, costly = timed(lambda: costly_cards_batch(jobs_of(hands)))
        print(f"costly_cards_batch_seconds {s:.3f}")
        print(f"costly_cards_batch_deals_per_second {n / s:.1f}")
        print(f"costly_cards_found {sum(len(c) for c in costly)}")

    if not args.no_driver:
        with tempfile.TemporaryDirectory() as tmp:
            exe = build_driver(DRIVER_SOURCE, Path(tmp) / "dds_play_driver")
            c_best = None
            for _ in range(args.repeat):
                res = run_driver(exe, path, args.threads, *([args.limit] if args.limit is not None else []))
                if res.get("mismatches") != "0":
                    raise BenchError(f"C driver traces differ from the TRACE lines: {res}")
                c_best = min(c_best or float(res["seconds"]), float(res["seconds"]))
        print(f"c_driver_threads {res['threads']}")
        print(f"c_driver_seconds {c_best:.3f}")
        print(f"c_driver_deals_per_second {n / c_best:.1f}")
        print(f"analyse_all_plays_over_c {best['analyse_all_plays'] / c_best:.2f}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print(f"bench_play: {exc}", file=sys.stderr)
        sys.exit(1)
