"""Throughput of the format codecs on one core (records per second).

Run: ``python benchmarks/bench_formats.py [N]`` (N records, default 1,000,000;
a short smoke run: N = 100000).  Aims: ZRD decode and encode >= 5 million
records/s; deal numbers >= 100k/s each way; reading a ZRD file and converting
it to ZBD (memory-mapped, chunked, written atomically) in the millions/s.
Timings are the best of a few repeats; nothing here asserts on speed.

Each row has a baseline from the same run, timed the same way: what the
row's bytes cost with no decoding at all -- a numpy copy of the same input
array for the in-memory codecs, ``Path.read_bytes`` of the same file for the
file read, ``shutil.copyfile`` of it for the conversion.  ``x baseline`` is
the codec's time over the baseline's: how many plain copies it costs.
"""

from __future__ import annotations

import shutil
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

    # (name, records, the codec, the baseline: the same input bytes copied)
    rows = [
        ("ZBD decode to remainCards", n, lambda: decode_zbd(zbd, masks=True), zbd.copy),
        ("ZBD decode to owners", n, lambda: decode_zbd(zbd), zbd.copy),
        ("ZRD decode", n, lambda: decode_zrd(recs), recs.copy),
        ("ZRD encode", n, lambda: encode_zrd(owners, tables), lambda: (owners.copy(), tables.copy())),
        ("deal -> number", n_num, lambda: deal_numbers(owners[:n_num]), owners[:n_num].copy),
        ("number -> deal", n_num, lambda: deals_from_numbers(packed), packed.copy),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bench.zrd"
        src.write_bytes(recs.tobytes())
        outs = iter(range(1 << 30))

        def to_zbd() -> None:
            dst = Path(tmp) / f"out{next(outs)}.zbd"
            convert(src, dst)
            dst.unlink()

        def copy_file() -> None:
            dst = Path(tmp) / f"out{next(outs)}.copy"
            shutil.copyfile(src, dst)
            dst.unlink()

        rows += [
            ("ZRD file read (chunked)", n, lambda: read_records(src), src.read_bytes),
            ("convert ZRD file -> ZBD", n, to_zbd, copy_file),
        ]
        print(f"{'codec':28s} {'records':>10s} {'records/s':>14s} {'baseline/s':>14s} {'x baseline':>11s}")
        for name, count, fn, baseline in rows:
            # interleaved, so both see the same machine
            t, b = best(fn), best(baseline)
            print(f"{name:28s} {count:10d} {count / t:14,.0f} {count / b:14,.0f} {t / b:11.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
