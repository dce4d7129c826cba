"""How fast is library mode?  Records per second of ``ddsbind dealer SCRIPT --library FILE``, beside Debian's dealer.

A library of ``--records`` random deals with random results 0..13 is
written (a ZRD file in a temporary directory; the results need not be true
double-dummy results for speed), then three scripts run over it through the
command line, each a fresh process, **startup included** (Python, imports,
parsing the script, opening the file):

1. ``condition``: a condition only (HCP and shape), ``average`` of one count;
2. ``tricks``: the condition with ``tricks()``,
   ``hcp(north) + hcp(south) >= 25 && tricks(north, notrumps) >= 9``;
3. ``frequency``: ``frequency`` of two expressions (combined HCP against
   North's notrump tricks), every record counted;
4. ``issue``: issue #38's case, a condition (HCP and a spade fit), two
   averages of stored results and a frequency, in one script.

The package is byte-compiled first, as ``pip install`` leaves it.
Records/s = records / wall seconds of the process; "per CPU second" divides
by its user + system CPU time instead (less sensitive to a busy machine).  Beside them, Debian's
``dealer`` generates the same number of random deals through script 1 (it
has no library; its ``tricks()`` would solve): deals/s of its process, and
**ratio** = ours / dealer.  The output is checked: each run's
``Generated N hands`` must be N.

``others`` is how many cores other processes kept busy meanwhile: figures
are comparable only when it is near 0.  Run from the repository root::

    .venv/bin/python benchmarks/bench_library.py                     # 4,000,000 records
    .venv/bin/python benchmarks/bench_library.py --records 100000    # a short smoke run
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import BenchError, LoadMeter, compiled, others_text

from ddsbind.dealer import deal_batches
from ddsbind.formats.zrd import encode_zrd

SCRIPTS = {
    "condition": """condition hcp(north) + hcp(south) >= 25 && shape(north, any 4333 + any 4432 + any 5332)
action average hcp(south)
""",
    "tricks": """condition hcp(north) + hcp(south) >= 25 && tricks(north, notrumps) >= 9
action average hcp(north)
""",
    "frequency": """action frequency "hcp/nt" (hcp(north) + hcp(south), 15, 35, tricks(north, notrumps), 0, 13)
""",
    "issue": """condition hcp(north) + hcp(south) >= 20 && spades(north) + spades(south) >= 8
action average "nt" tricks(north, notrumps), average "spades" tricks(north, spades),
  frequency "hcp" (hcp(north) + hcp(south), 20, 40)
""",
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=4_000_000, help="records in the library (and deals dealer deals)")
    ap.add_argument("--threads", type=int, default=2, help="--threads of the ddsbind runs")
    ap.add_argument("--library", type=Path, default=None, help="use this ZRD file instead of writing one")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dealer", default=shutil.which("dealer") or "/usr/games/dealer", help="Debian's dealer")
    return ap.parse_args(argv)


def write_library(path: Path, records: int, seed: int) -> None:
    """``records`` random deals with random results 0..13, as ZRD."""
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        for owners in deal_batches(seed, records, threads=2):
            tables = rng.integers(0, 14, size=(owners.shape[0], 5, 4), dtype=np.uint8)
            f.write(encode_zrd(owners, tables).tobytes())


def timed_process(cmd: list[str]) -> tuple[float, float, str, float | None]:
    """Wall seconds, CPU seconds (user + system), standard output and others' cores of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with LoadMeter() as load:
        started = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, proc.stdout, load.others


def generated(out: str) -> int:
    match = re.search(r"^Generated (\d+) hands", out, re.M)
    if match is None:
        raise BenchError(f"no 'Generated N hands' line in:\n{out}")
    return int(match.group(1))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    compiled()
    with tempfile.TemporaryDirectory() as tmp:
        library = args.library
        if library is None:
            library = Path(tmp) / "library.zrd"
            started = time.perf_counter()
            write_library(library, args.records, args.seed)
            print(f"library: {args.records} random records written in {time.perf_counter() - started:.1f} s")
        records = library.stat().st_size // 23
        theirs = None
        if Path(args.dealer).exists():
            script = Path(tmp) / "dealer.dl"
            script.write_text(f"generate {records}\n{SCRIPTS['condition']}")
            wall, cpu, out, others = timed_process([args.dealer, "-s", str(args.seed), str(script)])
            if generated(out) != records:
                raise BenchError(f"dealer generated {generated(out)} deals, not {records}")
            theirs = records / wall
            print(
                f"dealer (condition, random deals): {records} deals, {wall:.3f} s: "
                f"{theirs:,.0f} deals/s, {records / cpu:,.0f} per CPU second, others={others_text(others)}"
            )
        else:
            print(f"dealer: not found at {args.dealer} (apt-get install dealer)")
        for name, text in SCRIPTS.items():
            script = Path(tmp) / f"{name}.dl"
            script.write_text(text)
            cmd = [sys.executable, "-m", "ddsbind", "dealer", str(script), "-L", str(library), "--threads"]
            wall, cpu, out, others = timed_process([*cmd, str(args.threads)])
            if generated(out) != records:
                raise BenchError(f"{name}: {generated(out)} records read, not {records}")
            ours = records / wall
            ratio = f", ratio ours/dealer {ours / theirs:.2f}" if theirs else ""
            print(
                f"ddsbind -L {name} threads={args.threads}: {records} records, {wall:.3f} s with startup: "
                f"{ours:,.0f} records/s{ratio}, {records / cpu:,.0f} per CPU second, others={others_text(others)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
