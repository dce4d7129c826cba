"""Throughput of the format codecs on one core (records per second).

Run: ``python benchmarks/bench_formats.py [N]`` (N records, default 1,000,000;
a short smoke run: N = 100000).  Aims: ZRD decode and encode >= 5 million
records/s; deal numbers >= 100k/s each way; reading a ZRD file and converting
it to ZBD (memory-mapped, chunked, written atomically) in the millions/s.
Timings are the best of a few repeats; nothing here asserts on speed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ddsbind.formats import deal_numbers, deals_from_numbers, decode_zbd, decode_zrd, encode_zrd, read_records
from ddsbind.formats.convert import convert


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(n: int = 1_000_000) -> None:
    rng = np.random.default_rng(0)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    # Random full deals without a Python loop: argsort of random keys permutes each row.
    owners = base[np.argsort(rng.random((n, 52)), axis=1)]
    tables = rng.integers(0, 14, (n, 5, 4)).astype(np.uint8)
    recs = encode_zrd(owners, tables)
    zbd = np.ascontiguousarray(recs[:, :13])
    n_num = max(n // 10, 1)
    packed = deal_numbers(owners[:n_num])

    rows = [
        ("ZBD decode to remainCards", n, lambda: decode_zbd(zbd, masks=True)),
        ("ZBD decode to owners", n, lambda: decode_zbd(zbd)),
        ("ZRD decode", n, lambda: decode_zrd(recs)),
        ("ZRD encode", n, lambda: encode_zrd(owners, tables)),
        ("deal -> number", n_num, lambda: deal_numbers(owners[:n_num])),
        ("number -> deal", n_num, lambda: deals_from_numbers(packed)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bench.zrd"
        src.write_bytes(recs.tobytes())
        outs = iter(range(1 << 30))

        def to_zbd() -> None:
            dst = Path(tmp) / f"out{next(outs)}.zbd"
            convert(src, dst)
            dst.unlink()

        rows += [
            ("ZRD file read (chunked)", n, lambda: read_records(src)),
            ("convert ZRD file -> ZBD", n, to_zbd),
        ]
        print(f"{'codec':28s} {'records':>10s} {'records/s':>14s}")
        for name, count, fn in rows:
            t = best(fn)
            print(f"{name:28s} {count:10d} {count / t:14,.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
