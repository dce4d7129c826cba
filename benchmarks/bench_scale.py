"""Every streaming command over one large file: peak memory (RSS) and records per second.

A ZRD file of ``--records`` records (default 20,000,000, 460 MB) is made in
``--dir`` (default ``/tmp``, never the repository) by tiling a block of
2**20 valid records (random deals from the dealer's kernel, random results
0..13: the codecs check structure, not whether a table is the deal's true
one).  Each command then runs as a fresh process, start-up included, and is
measured by ``os.wait4``: its own peak resident set (``ru_maxrss``), wall
seconds and CPU seconds.  The commands:

* ``checksum``; ``verify --sample 0`` (structure and checksum; no manifest);
* ``stats --json`` and ``stats --plot`` (one pass: checksum, counts, and
  par of every record);
* ``convert`` ZRD to ZBD, ZDD and hand-makes (the record formats, chunked),
  and ZRD to GIB and PBN over the first ``--text`` records (the text
  formats write and read each deal in Python: some thousands to a hundred
  thousand records a second, so a smaller slice);
* ZRD to DDS's reference text over the first ``--text`` records (its
  first line counts the hands: the body goes through a temporary file);
* text inputs: the PBN and GIB files those conversions wrote, ``convert``
  each back to ZRD; the PBN file to PBN with ``--solve --trust-results``
  (results and par added in place a chunk of games at a time; its complete
  tables are kept, so DDS only computes par); and
  ``read_dataframe(chunksize=2**14)`` of the PBN file: read a chunk of
  deals at a time from the open file, so their peak RSS, like the rest,
  does not grow with the file;
* ``read_dataframe(chunksize=2**16)`` over every record (needs pandas);
* library mode: ``dealer SCRIPT -L FILE --contract 3NS --contract 4SN
  --json -o OUT.zrd`` (every record accepted, counted and written), and
  ``-o OUT.pbn`` over the first ``--text`` records (PBN written part by part);
* game records: a LIN file of ``--games`` boards (the tests' hand-record
  corpus tiled: auctions, alerts, commentary, full plays and claims),
  ``convert`` to PBN and to ZRJ, and the PBN and ZRJ files written back to
  LIN (read and written a batch of records at a time);
* ``generate --resume`` of a ZBD database of ``--generate`` deals whose run
  was cut to its first half (a stopped run: the records on disk are
  re-checked against the seed, then the rest is made).

Each line prints ``peak RSS`` (the aim: under 300 MB whatever the file's
size) and records/s beside the codec speeds measured in this same process
(ZRD decode, and a plain read of the file), so that a busy machine shows in
both.  ``others`` is how many cores other processes kept busy meanwhile.
Run from the repository root::

    .venv/bin/python benchmarks/bench_scale.py                       # 20,000,000 records
    .venv/bin/python benchmarks/bench_scale.py --records 2000000 --generate 200000 --games 2000  # a short run
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import BenchError, LoadMeter, others_text

from ddsbind.dealer import deal_batches
from ddsbind.formats.zrd import decode_zrd, encode_zrd

BLOCK = 1 << 20
LIMIT_MB = 300


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=20_000_000, help="records in the ZRD file")
    ap.add_argument("--text", type=int, default=200_000, help="records converted to the text formats")
    ap.add_argument("--generate", type=int, default=2_000_000, help="deals of the database --resume finishes")
    ap.add_argument("--games", type=int, default=20_000, help="boards of the LIN file of game records")
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()), help="where the files go (not the repo)")
    return ap.parse_args(argv)


def tile(path: Path, records: int) -> None:
    """``records`` valid ZRD records: a block of random deals and results, repeated."""
    rng = np.random.default_rng(2026)
    parts = []
    for owners in deal_batches(2026, min(BLOCK, records), threads=2):
        parts.append(encode_zrd(owners, rng.integers(0, 14, size=(owners.shape[0], 5, 4), dtype=np.uint8)))
    block = np.concatenate(parts).tobytes()
    per = len(block) // 23
    with open(path, "wb") as f:
        left = records
        while left > 0:
            k = min(left, per)
            f.write(block[: k * 23])
            left -= k


#: Runs a command and prints its peak RSS (KB): a small process between us and it, because a child's peak
#: counts the memory of the process it was forked from (ours holds the tiled block and numpy).
LAUNCH = """
import os, resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(code.stderr.decode())
print(code.returncode, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def measured(cmd: list[str]) -> tuple[float, float, float, float | None]:
    """Wall seconds, CPU seconds, peak RSS in MB and others' cores of one process."""
    with LoadMeter() as load:
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", LAUNCH, *cmd], capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
    try:
        code, rss, cpu = proc.stdout.split()
    except ValueError:
        raise BenchError(f"{' '.join(cmd)}: {proc.stderr.strip()}") from None
    if code != "0":
        raise BenchError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return wall, float(cpu), int(rss) / 1024, load.others


def codec_speeds(path: Path) -> tuple[float, float]:
    """Records/s of ZRD decode (in memory) and of reading the file (``Path.read_bytes`` of 1,000,000 records)."""
    n = 1_000_000
    with open(path, "rb") as f:
        data = f.read(n * 23)
    best_decode = best_read = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        decode_zrd(data)
        best_decode = min(best_decode, time.perf_counter() - t0)
        t0 = time.perf_counter()
        with open(path, "rb") as f:
            f.read(n * 23)
        best_read = min(best_read, time.perf_counter() - t0)
    return n / best_decode, n / best_read


def game_file(path: Path, boards: int) -> tuple[Path, int]:
    """A LIN file of about ``boards`` boards: the tests' LIN hand records (game records with play), tiled."""
    corpus = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
    from ddsbind.formats.lin import parse_lin

    texts = [p.read_text("utf-8").rstrip("\n") + "\n" for p in sorted(corpus.glob("*.lin"))]
    per = sum(len(parse_lin(t)) for t in texts)
    copies = max(1, boards // per)
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write("".join(texts))
    return path, copies * per


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench_scale_", dir=args.dir))
    py = [sys.executable, "-m", "ddsbind"]
    try:
        big = work / "big.zrd"
        started = time.perf_counter()
        tile(big, args.records)
        n = args.records
        print(f"file: {n:,} records, {big.stat().st_size / 1e6:.0f} MB, tiled in {time.perf_counter() - started:.1f} s")
        print(f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (load 1, 5, 15 min)")
        decode, read = codec_speeds(big)
        print(f"codec, this process: ZRD decode {decode:,.0f} records/s, file read {read:,.0f} records/s")
        text = work / "text.zrd"
        with open(big, "rb") as src, open(text, "wb") as dst:
            dst.write(src.read(min(args.text, n) * 23))
        script = work / "all.dl"
        script.write_text("action average hcp(north)\n")
        frame_code = (
            "import sys\nfrom ddsbind.formats import read_dataframe\n"
            "n = sum(len(f) for f in read_dataframe(sys.argv[1], chunksize=1 << 16))\nprint(n)\n"
        )
        rows: list[tuple[str, list[str], int]] = [
            ("checksum", [*py, "checksum", str(big)], n),
            ("verify --sample 0", [*py, "verify", str(big), "--sample", "0", "--quiet"], n),
            ("stats --json", [*py, "stats", str(big), "--json", "--quiet"], n),
        ]
        try:
            import matplotlib  # noqa: F401

            rows.append(("stats --plot", [*py, "stats", str(big), "--plot", str(work / "s.png"), "--quiet"], n))
        except ImportError:
            print("stats --plot: skipped (matplotlib is not installed)")
        for fmt in ("zbd", "zdd", "hand-makes"):
            rows.append((f"convert zrd -> {fmt}", [*py, "convert", str(big), str(work / f"out.{fmt}"), "--to", fmt], n))
        for fmt in ("gib", "pbn"):
            target = str(work / f"out.{fmt}")
            rows.append((f"convert zrd -> {fmt}", [*py, "convert", str(text), target, "--quiet"], min(args.text, n)))
        dds = [*py, "convert", str(text), str(work / "out.dds"), "--to", "dds", "--quiet"]
        rows.append(("convert zrd -> dds", dds, min(args.text, n)))  # its count line written after the body
        for fmt in ("gib", "pbn"):  # text inputs: the files just written, read back
            source, target = str(work / f"out.{fmt}"), str(work / f"back_{fmt}.zrd")
            rows.append((f"convert {fmt} -> zrd", [*py, "convert", source, target, "--quiet"], min(args.text, n)))
        # PBN to PBN with results in place: the file's complete tables kept (none solved), par added to each board.
        in_place = [*py, "convert", str(work / "out.pbn"), str(work / "solved.pbn"), "--solve", "--trust-results"]
        rows.append(("convert pbn -> pbn --solve --trust", [*in_place, "--quiet"], min(args.text, n)))
        try:
            import pandas  # noqa: F401

            rows.append(("read_dataframe(chunksize)", [sys.executable, "-c", frame_code, str(big)], n))
            text_frames = frame_code.replace("1 << 16", "1 << 14")
            pbn = str(work / "out.pbn")
            rows.append(("read_dataframe(pbn, chunksize)", [sys.executable, "-c", text_frames, pbn], min(args.text, n)))
        except ImportError:
            print("read_dataframe: skipped (pandas is not installed)")
        library = [*py, "dealer", str(script), "-L", str(big), "--contract", "3NS", "--contract", "4SN", "--json"]
        rows.append(("dealer -L --contract --json -o", [*library, "-o", str(work / "lib.zrd")], n))
        library_text = [*py, "dealer", str(script), "-L", str(text), "--json", "-o", str(work / "lib.pbn")]
        rows.append(("dealer -L --json -o pbn", library_text, min(args.text, n)))
        lin, boards = game_file(work / "games.lin", args.games)
        rows.append(("convert lin -> pbn", [*py, "convert", str(lin), str(work / "games.pbn"), "--quiet"], boards))
        rows.append(("convert lin -> zrj", [*py, "convert", str(lin), str(work / "games.zrj"), "--quiet"], boards))
        for fmt in ("pbn", "zrj"):  # the game files just written, back to LIN
            source, target = str(work / f"games.{fmt}"), str(work / f"back_{fmt}.lin")
            rows.append((f"convert {fmt} games -> lin", [*py, "convert", source, target, "--quiet"], boards))
        worst = 0.0
        for name, cmd, count in rows:
            wall, cpu, rss, others = measured(cmd)
            worst = max(worst, rss)
            flag = "" if rss < LIMIT_MB else f"  OVER {LIMIT_MB} MB"
            print(
                f"{name:<32} {count:>11,} records  {wall:7.2f} s  {count / wall:>12,.0f} records/s  "
                f"{count / cpu:>12,.0f} per CPU s  peak RSS {rss:6.1f} MB{flag}  others={others_text(others)}"
            )
        # generate --resume: a run stopped half-way, finished.
        db = work / "db.zbd"
        half = args.generate // 2
        measured([*py, "generate", str(db), "--count", str(half), "--seed", "7", "--quiet"])
        (work / "db.zbd.json").unlink()
        # What a stopped run leaves: its records so far and OUT.generating.json of the whole count.
        from ddsbind.database import Manifest, generating_path
        from ddsbind.database.manifest import write_manifest
        from ddsbind.database.recipe import GENERATOR, GENERATOR_VERSION

        write_manifest(
            generating_path(db),
            Manifest(format="zbd", count=args.generate, seed=7, generator=GENERATOR,
                     generator_version=GENERATOR_VERSION, record_size=13),
        )  # fmt: skip
        wall, cpu, rss, others = measured(
            [*py, "generate", str(db), "--count", str(args.generate), "--seed", "7", "--resume", "--quiet"]
        )
        worst = max(worst, rss)
        flag = "" if rss < LIMIT_MB else f"  OVER {LIMIT_MB} MB"
        print(
            f"{'generate --resume (half on disk)':<32} {args.generate:>11,} deals    {wall:7.2f} s  "
            f"{args.generate / wall:>12,.0f} deals/s    {args.generate / cpu:>12,.0f} per CPU s  "
            f"peak RSS {rss:6.1f} MB{flag}  others={others_text(others)}"
        )
        print(f"largest peak RSS: {worst:.1f} MB (aim: under {LIMIT_MB} MB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
