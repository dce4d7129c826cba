"""How long does ``ddsbind dealer`` take to start?  A one-deal script, against Debian's ``dealer`` and bare numpy.

Runs ``ddsbind dealer -s 1 tiny.dl`` (``produce 1``, ``action printoneline``)
``--repeat`` times as a fresh process, Debian's ``dealer`` on the same script
when installed, and ``python -c "import numpy"`` (the floor: Python and
numpy alone), alternating the three so they see the same load; prints the
median and the minimum wall seconds of each, the CPU seconds (user + sys) of
each, the ratio of ours to Debian's, and the load averages before and after.
The package is byte-compiled first, as ``pip install`` does (with
``PYTHONDONTWRITEBYTECODE`` set every start would compile it again).  The first
ddsbind run (which fills lark's grammar cache and the cache of parsed scripts,
``ddsbind.dealer.syntax``) is not counted.  Run it on an idle machine for
the figure the issue asks for (at most 0.2 s); on a busy one, the CPU
seconds hold best.

    python benchmarks/bench_dealer_startup.py --repeat 15
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compiled, load_text


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + sys) of ``command`` run as a fresh process, its output dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def median_min(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f} s, min {min(values):.3f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    compiled()
    dealer = shutil.which("dealer") or ("/usr/games/dealer" if Path("/usr/games/dealer").exists() else None)
    print(f"load at start: {load_text()}")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "tiny.dl"
        script.write_text("produce 1\naction printoneline\n")
        ours_command = [sys.executable, "-m", "ddsbind", "dealer", "-s", "1", str(script)]
        timed(ours_command)  # fills lark's cache of the analysed grammar and the script's cached tree
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        floor: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            ours.append(timed(ours_command))
            if dealer:
                theirs.append(timed([dealer, "-s", "1", str(script)]))
            floor.append(timed([sys.executable, "-c", "import numpy"]))
    walls = {name: [w for w, _ in runs] for name, runs in (("ours", ours), ("theirs", theirs), ("floor", floor))}
    cpus = {name: [c for _, c in runs] for name, runs in (("ours", ours), ("floor", floor))}
    print(f"ddsbind dealer: {median_min(walls['ours'])} ({args.repeat} runs)")
    print(f"ddsbind dealer CPU (user+sys): {median_min(cpus['ours'])}")
    print(f"python -c 'import numpy': {median_min(walls['floor'])}; CPU {median_min(cpus['floor'])}")
    if theirs:
        print(f"Debian dealer:  {median_min(walls['theirs'])}")
        ratio = statistics.median(walls["ours"]) / statistics.median(walls["theirs"])
        print(f"ratio ours/dealer (medians): {ratio:.0f}")
    print(f"load at end: {load_text()}")


if __name__ == "__main__":
    main()
