"""DDS runs with the GIL released."""

from __future__ import annotations

import threading

from ddsbind import _marshal, solver


def test_python_threads_run_while_dds_solves(list100, calc_all_tables_spy):
    """Other Python threads keep running during a DDS call; an app's UI or I/O does not freeze.

    How we know: a worker thread runs one long CalcAllTables call (32 full
    deals).  The main thread counts loop iterations only between the moment
    the worker is about to enter DDS and the moment DDS returns.  Were the GIL
    held during the call, the count would stay near zero (at most one switch
    interval's worth before entry); with it released, the main thread runs
    freely for the whole call.
    """
    deals = [h.deal for h in list100[:32]]
    worker = threading.Thread(target=lambda: solver.calc_tables(_marshal.table_masks(deals)))  # the batch path
    worker.start()
    calc_all_tables_spy["entered"].wait(timeout=60)
    count = 0
    while not calc_all_tables_spy["done"].is_set():
        count += 1
    worker.join()
    # 32 tables take seconds (tens of millions of iterations); a held GIL would
    # allow one 5 ms switch interval of Python, some tens of thousands.
    assert count > 2_000_000, count
