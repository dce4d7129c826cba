"""How long does ``ddsbind dealer`` take to start?  Wall time of a one-deal script, against Debian's ``dealer``.

Runs ``ddsbind dealer -s 1 tiny.dl`` (``produce 1``, ``action printoneline``)
``--repeat`` times as a fresh process, and Debian's ``dealer`` on the same
script when installed, alternating the two so both see the same load; prints
the median and the minimum wall seconds of each and their ratio.  The first
ddsbind run (which fills lark's grammar cache and the cache of parsed
scripts, ``ddsbind.dealer.syntax``) is not counted.  Run it on an
idle machine for the figure the issue asks for (under 0.2 s).

    python benchmarks/bench_dealer_startup.py --repeat 15
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    dealer = shutil.which("dealer") or ("/usr/games/dealer" if Path("/usr/games/dealer").exists() else None)
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "tiny.dl"
        script.write_text("produce 1\naction printoneline\n")
        ours_command = [sys.executable, "-m", "ddsbind", "dealer", "-s", "1", str(script)]
        wall(ours_command)  # fills lark's cache of the analysed grammar and the script's cached tree
        ours, theirs = [], []
        for _ in range(args.repeat):
            ours.append(wall(ours_command))
            if dealer:
                theirs.append(wall([dealer, "-s", "1", str(script)]))
    print(f"ddsbind dealer: median {statistics.median(ours):.3f} s, min {min(ours):.3f} s ({args.repeat} runs)")
    if theirs:
        print(f"Debian dealer:  median {statistics.median(theirs):.3f} s, min {min(theirs):.3f} s")
        print(f"ratio ours/dealer (medians): {statistics.median(ours) / statistics.median(theirs):.0f}")


if __name__ == "__main__":
    main()
