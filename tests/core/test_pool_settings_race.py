"""DDS's thread settings changing while boards are solved: refused or serialised, never a wrong answer."""

from __future__ import annotations

import threading
import time

import pytest

import ddsbind
from ddsbind import dll, errors
from ddsbind._binding import slots

#: How long the mixed load runs (seconds); long enough for hundreds of toggles.
DURATION = 12.0


@pytest.fixture()
def restore_threads():
    """Give DDS back its default thread count after the test."""
    yield
    dll.SetMaxThreads(0)


@pytest.mark.slow
def test_settings_toggled_under_load_never_break_a_solve(list100, restore_threads):
    """Toggling SetMaxThreads while tables and boards are solved gives right answers and only clean refusals."""
    tables = list100[:1]
    boards = list100[10:30]
    stop = threading.Event()
    errors: list[BaseException] = []
    counts = {"tables": 0, "boards": 0, "toggled": 0, "refused": 0}
    lock = threading.Lock()

    def guarded(fn):
        def run():
            try:
                fn()
            except BaseException as exc:
                errors.append(exc)
                stop.set()

        return run

    @guarded
    def table_loop():
        while not stop.is_set():
            got = ddsbind.dd_tables([h.deal for h in tables])
            assert [t.array.tolist() for t in got] == [h.table.tolist() for h in tables]
            with lock:
                counts["tables"] += 1
            time.sleep(0.2)

    def board_loop(k):
        @guarded
        def run():
            i = k
            while not stop.is_set():
                h = boards[i % len(boards)]
                sol = ddsbind.solve_board(h.deal, h.trump, h.first)
                assert tuple(c.score for c in sol.cards) == h.future.score, h.pbn
                with lock:
                    counts["boards"] += 1
                i += 4
                time.sleep(0.015 * (2 + i % 5))

        return run

    @guarded
    def toggle_loop():
        n = 1
        while not stop.is_set():
            try:
                dll.SetMaxThreads(n)
                with lock:
                    counts["toggled"] += 1
                n = 3 - n
            except RuntimeError as exc:
                assert "while boards are being solved" in str(exc)
                with lock:
                    counts["refused"] += 1
            time.sleep(0.001)

    workers = [threading.Thread(target=table_loop), threading.Thread(target=toggle_loop)]
    workers += [threading.Thread(target=board_loop(k)) for k in range(4)]
    for w in workers:
        w.start()
    stop.wait(DURATION)
    stop.set()
    for w in workers:
        w.join()
    assert not errors, errors[0]
    assert counts["toggled"] > 0 and counts["tables"] > 0 and counts["boards"] > 0, counts
    assert slots.count == ddsbind.dds_info().threads


def test_settings_change_refused_from_a_thread_holding_a_slot():
    """A thread already solving (holding a slot) cannot change DDS's threads under its own call."""
    with slots.any(), pytest.raises(errors.StateError, match="while boards are being solved"):
        dll.SetMaxThreads(0)
