"""Concurrent callers: each thread gets correct answers; batch and single calls never share DDS memory."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import ddsbind
from ddsbind import _marshal, dll, errors, solver


def _run_together(n: int, fn):
    """Run fn(i) in n threads released at once by a Barrier; return results in order."""
    barrier = threading.Barrier(n)

    def task(i):
        barrier.wait()
        return fn(i)

    with ThreadPoolExecutor(n) as ex:
        return list(ex.map(task, range(n)))


def test_many_threads_solve_board_like_serial(list100):
    """Sixteen threads (more than DDS's thread memories) solving at once get the serial answers."""
    hands = list100[:16]
    serial = [ddsbind.solve_board(h.deal, h.trump, h.first) for h in hands]
    parallel = _run_together(16, lambda i: ddsbind.solve_board(hands[i].deal, hands[i].trump, hands[i].first))
    assert [s.cards for s in parallel] == [s.cards for s in serial]


def test_same_thread_index_from_many_threads(list100):
    """Many threads passing the same threadIndex to dll.SolveBoard are serialised, not corrupted."""
    hands = list100[16:24]

    def solve(i):
        h = hands[i]
        fut = dll.futureTricks()
        dl = dll.deal(trump=h.trump, first=h.first, remainCards=h.deal.remain_cards.tolist())
        assert dll.SolveBoard(dl, -1, 3, 1, fut, 0) == dll.RETURN_NO_FAULT
        return tuple(fut.score[0 : fut.cards])

    got = _run_together(len(hands), solve)
    assert got == [h.future.score for h in hands]


@pytest.mark.slow
def test_batch_and_single_calls_at_once(list100):
    """dd_tables (DDS's own threads) and solve_board calls started together all come out right."""
    hands = list100[24:40]

    def work(i):
        if i == 0:
            return ddsbind.dd_tables([h.deal for h in hands])
        h = hands[i]
        return ddsbind.solve_board(h.deal, h.trump, h.first).best_score

    out = _run_together(len(hands), work)
    assert [t.array.tolist() for t in out[0]] == [h.table.tolist() for h in hands]
    assert out[1:] == [max(h.future.score) for h in hands[1:]]


@pytest.mark.slow
def test_thread_settings_refused_while_solving(list100, calc_all_tables_spy):
    """Changing DDS's threads while a batch runs raises instead of freeing memory under it."""
    hands = list100[:32]
    worker = threading.Thread(target=lambda: solver.calc_tables(_marshal.table_masks([h.deal for h in hands])))
    worker.start()
    calc_all_tables_spy["entered"].wait(timeout=60)
    try:
        with pytest.raises(errors.StateError, match="while boards are being solved"):
            dll.SetMaxThreads(0)
    finally:
        worker.join()


def test_set_max_threads_when_idle_reports_real_count():
    """SetMaxThreads works when idle, and dds_info says how many threads DDS really runs."""
    info = ddsbind.dds_info()
    dll.SetMaxThreads(64)
    after = ddsbind.dds_info()
    assert 1 <= after.threads <= max(after.cores, 1)
    dll.SetMaxThreads(0)
    assert ddsbind.dds_info().threads == info.threads


@pytest.mark.parametrize("bad", [-1, 10_000])
def test_thread_index_bounds_follow_dds(bad):
    """A threadIndex outside DDS's configured threads gets DDS's -15 from the DLL layer."""
    dl = dll.deal(trump=4, first=0, remainCards=[[1 << 14, 0, 0, 0], [1 << 13, 0, 0, 0],
                                                 [1 << 12, 0, 0, 0], [1 << 11, 0, 0, 0]])  # fmt: skip
    assert dll.SolveBoard(dl, -1, 1, 1, dll.futureTricks(), bad) == dll.RETURN_THREAD_INDEX
