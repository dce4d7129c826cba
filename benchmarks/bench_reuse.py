"""`convert --solve` on a PBN file that already holds results: checking them (the default) against trusting them.

Run: ``python benchmarks/bench_reuse.py [N]`` (N random deals, default 100).
Three runs of what ``ddsbind convert x.pbn y.pbn --solve`` does
(:func:`ddsbind.formats.pbn.add_results` with a
:class:`ddsbind.database.TableFiller`), each on the same N deals:

* ``full solve``: a deals-only file (no results given);
* ``check``: the file that run wrote, with one entry made wrong, solved
  again and compared (the default; the wrong board is named once);
* ``trust``: the same file with ``--trust-results`` (nothing solved).

Each row gives wall seconds and CPU seconds (user+sys of this process,
DDS's threads included: on a shared machine CPU is the steadier figure),
with the load average beside them.  Nothing here asserts on speed.
"""

from __future__ import annotations

import os
import re
import resource
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

from ddsbind.database import TableFiller
from ddsbind.deal import Deal
from ddsbind.errors import ResultsWarning
from ddsbind.formats.pbn import add_results, format_pbn


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def timed(fn: Callable[[], bytes]) -> tuple[bytes, float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    out = fn()
    return out, time.perf_counter() - wall, _cpu() - cpu


def main(n: int = 100) -> None:
    deals = [Deal.random(35_000 + k) for k in range(n)]
    bare = format_pbn(deals).encode("latin-1")
    print(f"{n} random deals, load average {os.getloadavg()[0]:.2f}")
    print(f"{'run':<34}{'wall s':>9}{'CPU s':>9}")
    solved, wall, cpu = timed(lambda: add_results(bare, fill=TableFiller())[0])
    print(f"{'full solve (no results given)':<34}{wall:>9.2f}{cpu:>9.2f}")
    full_cpu = cpu
    # one entry made wrong: the first deal's North in notrump, in both tags
    head, sep, rest = solved.partition(b'[DoubleDummyTricks "')
    digit = int(rest[:1], 16)
    wrong_digit = f"{(digit + 1) % 14:x}".encode()
    given = head + sep + wrong_digit + rest[1:]
    given = re.sub(rb"(?m)^N NT( +)\d+$", lambda m: b"N NT" + m.group(1) + b"%d" % ((digit + 1) % 14), given, count=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResultsWarning)
        checked, wall, cpu = timed(lambda: add_results(given, fill=TableFiller())[0])
    named = sum(issubclass(w.category, ResultsWarning) for w in caught)
    print(f"{'check (the default)':<34}{wall:>9.2f}{cpu:>9.2f}   {named} board named")
    check_cpu = cpu
    trusted, wall, cpu = timed(lambda: add_results(given, fill=TableFiller(trust_results=True))[0])
    print(f"{'trust (--trust-results)':<34}{wall:>9.2f}{cpu:>9.2f}")
    assert checked == solved and trusted != solved  # checking wrote DDS's entry back; trusting kept the wrong one
    ratio = np.array([check_cpu, cpu]) / max(full_cpu, 1e-9)
    print(f"CPU over the full solve: check {ratio[0]:.2f}, trust {ratio[1]:.3f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
