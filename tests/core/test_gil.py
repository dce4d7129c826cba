"""DDS runs with the GIL released."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

import pytest

from ddsbind import dll

# They measure how much of the CPU the main thread gets: `make test` runs them apart from its parallel
# (pytest-xdist) run, with no other worker's tests competing for the cores.
pytestmark = pytest.mark.serial


def held_limit() -> float:
    """What a call holding the GIL could leave another Python thread, generously: the worker gives the GIL up
    every switch interval until it enters C."""
    return 4 * sys.getswitchinterval()


def _loop_rate(seconds: float = 0.3) -> float:
    """Iterations per second of the counting loop below on this machine, now, with nothing else running."""
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        count += 1
    return count / seconds


def _python_seconds_during(work: Callable[[], object], events: dict[str, threading.Event]) -> tuple[float, float]:
    """Run ``work`` on a worker thread; (seconds of Python the main thread got, seconds of the call).

    The main thread counts loop iterations from ``events["entered"]`` (set
    just before the worker enters C) to ``events["done"]`` (set when C
    returns); the count, at the rate the same loop ran just before alone,
    says how long the main thread ran -- whatever the machine's speed.
    """
    rate = _loop_rate()
    stamps: list[float] = []

    def timed() -> None:  # the call's length as the worker sees it (the main thread may not run meanwhile)
        stamps.append(time.perf_counter())
        work()
        stamps.append(time.perf_counter())

    worker = threading.Thread(target=timed)
    worker.start()
    assert events["entered"].wait(timeout=60)
    count = 0
    while not events["done"].is_set():
        count += 1
        time.perf_counter()  # the baseline loop's work per iteration
    worker.join()
    call = stamps[1] - stamps[0]
    assert call > 20 * held_limit(), f"the call took {call:.3f} s, too short to tell (give it more work)"
    return count / rate, call


def test_python_threads_run_while_dds_solves(list100, calc_all_tables_spy):
    """Other Python threads keep running during a DDS call; an app's UI or I/O does not freeze.

    A worker runs one long ``dll.CalcAllTables`` call (16 full deals).  Were
    the GIL held during it, the main thread would get at most a few switch
    intervals; released, it runs for a good part of the call, sharing the
    cores with DDS's threads (and whatever else the machine runs).  The switch
    interval is scaled to the length of a first, unmeasured call, so the call
    is long in switch intervals whatever the machine's speed and core count.
    """
    tdeals = dll.ddTableDeals()
    tdeals.noOfTables = 16
    for i, h in enumerate(list100[:16]):
        for hand in range(4):
            for suit in range(4):
                tdeals.deals[i].cards[hand][suit] = int(h.deal.remain_cards[hand][suit])
    res, pres = dll.ddTablesRes(), dll.allParResults()
    t0 = time.perf_counter()
    assert dll.CalcAllTables(tdeals, -1, [0] * 5, res, pres) == dll.RETURN_NO_FAULT
    first = time.perf_counter() - t0
    calc_all_tables_spy["entered"].clear()
    calc_all_tables_spy["done"].clear()
    status: list[int] = []
    default = sys.getswitchinterval()
    sys.setswitchinterval(min(default, max(1e-5, first / 1000)))
    try:
        ran, call = _python_seconds_during(
            lambda: status.append(dll.CalcAllTables(tdeals, -1, [0] * 5, res, pres)), calc_all_tables_spy
        )
        limit = held_limit()
    finally:
        sys.setswitchinterval(default)
    assert status == [dll.RETURN_NO_FAULT]
    assert res.results[15].resTable[4][0] == list100[15].table[4][0]  # the call really solved
    assert ran > max(5 * limit, 0.05 * call), f"the main thread ran {ran:.3f} s of a {call:.3f} s call"


def test_the_measure_sees_a_call_that_holds_the_gil():
    """The control: the same measure during a C call that keeps the GIL (builtin ``sum`` over a range)
    finds the main thread all but stopped -- so the test above can fail."""
    n = 1_000_000
    while True:  # a sum long enough to tell, whatever the machine's speed and load
        t0 = time.perf_counter()
        sum(range(n))
        if time.perf_counter() - t0 > 0.5:
            break
        n *= 2
    n *= 2
    events = {"entered": threading.Event(), "done": threading.Event()}

    def work() -> None:
        events["entered"].set()
        sum(range(n))
        events["done"].set()

    ran, call = _python_seconds_during(work, events)
    # Below the other test's floor (5 limits, 5% of the call) with room for a loaded machine's noise in the
    # loop rate: a call that holds the GIL leaves the main thread a few switch intervals at most.
    assert ran < max(2 * held_limit(), 0.02 * call), (
        f"the main thread ran {ran:.3f} s of a {call:.3f} s call holding the GIL"
    )


def test_python_threads_run_while_the_dealing_kernel_deals():
    """The dealing kernel deals with the GIL released: dealer threads deal in parallel and an app stays live.

    A worker deals 2**20 deals in one kernel call; the switch interval is
    scaled to a first, unmeasured call, as above.
    """
    import numpy as np

    from ddsbind.dealer.kernel import deal_rows

    base, cards, slots = np.full(52, -1, np.int8), np.arange(52), np.repeat(np.arange(4, dtype=np.int8), 13)
    t0 = time.perf_counter()
    deal_rows(5, 0, 1 << 20, base, cards, slots)
    first = time.perf_counter() - t0
    events = {"entered": threading.Event(), "done": threading.Event()}
    dealt: list[np.ndarray] = []

    def work() -> None:
        events["entered"].set()
        dealt.append(deal_rows(5, 0, 1 << 20, base, cards, slots))
        events["done"].set()

    default = sys.getswitchinterval()
    sys.setswitchinterval(min(default, max(1e-5, first / 1000)))
    try:
        ran, call = _python_seconds_during(work, events)
        limit = held_limit()
    finally:
        sys.setswitchinterval(default)
    assert dealt[0].shape == (1 << 20, 52)
    assert ran > max(5 * limit, 0.05 * call), f"the main thread ran {ran:.3f} s of a {call:.3f} s call"
