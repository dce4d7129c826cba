"""Played-deal analysis: analysed deals per second, three ways, on the same reference plays.

1. ``ddsbind.play.analyse_plays``: DDS's ``AnalyseAllPlaysBin`` (DDS's own
   threads), the path ``costly_cards_batch`` and ``ddsbind analyse`` use.
2. ``ddsbind.analyse_play`` per deal on N Python threads, worker ``i``
   pinned to DDS ``threadIndex`` ``i`` through ``ddsbind._binding.slots``:
   what a ``SolverPool`` of single ``AnalysePlayBin`` calls will do.
3. DDS's own figure: ``benchmarks/dds_play_driver.c`` (compiled here with
   ``cc -O2 ... -ldds``) calling ``AnalyseAllPlaysPBN`` from C.

Also times ``costly_cards_batch`` end to end (traces plus one ``SolveBoard``
per costly card).  Every path's traces are checked against the file's TRACE
lines.  Prints ``key value`` lines; no assertions on speed.

    python benchmarks/bench_play.py                 # list1000, 2 threads
    python benchmarks/bench_play.py --limit 100     # a short run
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import ddsbind
from ddsbind._binding import slots
from ddsbind.formats.ddsref import ReferenceHand, read_reference
from ddsbind.play import analyse_plays, costly_cards_batch

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/ helpers, also under python -P
from _hands import reference_file

HERE = Path(__file__).resolve().parent
DRIVER_SOURCE = HERE / "dds_play_driver.c"


def default_file() -> Path:
    """DDS's list1000.txt, found as the tests find it (``make fetch-dds`` unpacks it)."""
    return reference_file("list1000.txt")


def build_driver(out_dir: Path) -> Path:
    """Compile ``dds_play_driver.c`` into ``out_dir`` with ``$CC``/cc/gcc/clang."""
    cc = next((c for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c and shutil.which(c)), None)
    if cc is None:
        raise SystemExit("no C compiler found (looked for $CC, cc, gcc, clang)")
    exe = out_dir / "dds_play_driver"
    subprocess.run([cc, "-O2", str(DRIVER_SOURCE), "-o", str(exe), "-ldds"], check=True)
    return exe


def run_driver(exe: Path, path: Path, threads: int, limit: int | None) -> dict[str, str]:
    """Run the C driver; its ``key value`` lines as a dict."""
    args = [str(exe), str(path), str(threads)] + ([str(limit)] if limit is not None else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)


def jobs_of(hands: Sequence[ReferenceHand]) -> list[tuple]:
    return [(h.deal, h.trump, h.first, h.play) for h in hands]


def per_deal_threads(hands: Sequence[ReferenceHand], threads: int) -> tuple[float, list[list[int]]]:
    """``analyse_play`` per deal on ``threads`` Python threads, worker i on threadIndex i; (seconds, traces)."""
    out: list[list[int] | None] = [None] * len(hands)
    barrier = threading.Barrier(threads + 1)

    def work(i: int) -> None:
        with slots.slot(i):  # analyse_play's slots.any() re-enters this slot: threadIndex i
            barrier.wait()
            for k in range(i, len(hands), threads):
                h = hands[k]
                out[k] = ddsbind.analyse_play(h.deal, h.trump, h.first, h.play)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    t0 = time.perf_counter()
    for w in workers:
        w.join()
    return time.perf_counter() - t0, out  # type: ignore[return-value]


def timed(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - t0, result


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--file", type=Path, default=None, help="DDS reference-hands file (default: list1000.txt)")
    p.add_argument("--limit", type=int, default=None, help="first N hands only (a short run)")
    p.add_argument("--threads", type=int, default=2, help="Python workers / C driver threads (default 2)")
    p.add_argument("--repeat", type=int, default=1, help="runs per path; the best counts (default 1)")
    p.add_argument("--no-driver", action="store_true", help="skip the C driver")
    p.add_argument("--no-costly", action="store_true", help="skip the end-to-end costly_cards_batch timing")
    args = p.parse_args(argv)
    path = args.file or default_file()
    hands = [h for h in read_reference(path) if h.play is not None][: args.limit]
    want = [list(h.trace) for h in hands]
    n = len(hands)
    threads = min(args.threads, slots.count)
    print(f"file {path.name}")
    print(f"deals {n}")
    print(f"dds_threads {slots.count}")
    print(f"python_threads {threads}")

    best: dict[str, float] = {}
    for _ in range(args.repeat):
        s, traces = timed(analyse_plays, jobs_of(hands))
        assert traces == want, "AnalyseAllPlaysBin traces differ from the TRACE lines"
        best["analyse_all_plays"] = min(best.get("analyse_all_plays", s), s)
        s, traces = per_deal_threads(hands, threads)
        assert traces == want, "per-deal analyse_play traces differ from the TRACE lines"
        best["per_deal_threads"] = min(best.get("per_deal_threads", s), s)
    for key, s in best.items():
        print(f"{key}_seconds {s:.3f}")
        print(f"{key}_deals_per_second {n / s:.1f}")
    faster = min(best, key=best.get)  # type: ignore[arg-type]
    print(f"faster {faster}")

    if not args.no_costly:
        s, costly = timed(costly_cards_batch, jobs_of(hands))
        print(f"costly_cards_batch_seconds {s:.3f}")
        print(f"costly_cards_batch_deals_per_second {n / s:.1f}")
        print(f"costly_cards_found {sum(len(c) for c in costly)}")

    if not args.no_driver:
        with tempfile.TemporaryDirectory() as tmp:
            exe = build_driver(Path(tmp))
            c_best = None
            for _ in range(args.repeat):
                res = run_driver(exe, path, args.threads, args.limit)
                if res.get("mismatches") != "0":
                    raise SystemExit(f"C driver traces differ from the TRACE lines: {res}")
                c_best = min(c_best or float(res["seconds"]), float(res["seconds"]))
        print(f"c_driver_threads {res['threads']}")
        print(f"c_driver_seconds {c_best:.3f}")
        print(f"c_driver_deals_per_second {n / c_best:.1f}")
        print(f"analyse_all_plays_over_c {best['analyse_all_plays'] / c_best:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
