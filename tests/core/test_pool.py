"""SolverPool: DDS's reference answers, input order, errors with positions, threads, streams, stopping."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest

import ddsbind
from ddsbind import _scheduler, dll, errors
from ddsbind import pool as pool_module
from ddsbind.deal import Deal
from tests.support import LIST1000_POOL_TABLES, REPO, ending


def _rss_mb() -> float:
    """This process's resident memory (Linux ``/proc/self/status``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line")


def _table_by_solve_board(deal: Deal) -> list[list[int]]:
    """A DD table from single solve_board calls: declarer's tricks = cards left - leaders' best."""
    n = deal.hand_lengths[0]
    out = [[0] * 4 for _ in range(5)]
    for strain in range(5):
        for leader in range(4):
            out[strain][(leader + 3) % 4] = n - ddsbind.solve_board(deal, strain, leader, solutions=1).best_score
    return out


@pytest.fixture()
def pool2():
    """A pool with every DDS thread, closed after the test."""
    with ddsbind.SolverPool() as p:
        yield p


@pytest.mark.parametrize("threads", [1, 2])
def test_tables_and_boards_match_reference(list100, threads):
    """Pool tables and boards equal DDS's TABLE and FUT lines, in input order, at 1 and 2 threads."""
    hands = list100[:12]
    with ddsbind.SolverPool(threads) as p:
        assert p.threads == threads
        tables = p.dd_tables([h.deal for h in hands])
        sols = p.solve_boards([(h.deal, h.trump, h.first) for h in hands])
    assert [t.array.tolist() for t in tables] == [h.table.tolist() for h in hands]
    for s, h in zip(sols, hands, strict=True):
        f = h.future
        assert [c.score for c in s.cards] == list(f.score)
        assert [(c.card.suit, c.card.rank) for c in s.cards] == list(zip(f.suit, f.rank, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_list1000_fut_and_table_lines(list1000, threads):
    """list1000.txt through the pool: boards equal the FUT lines, tables the TABLE lines of the second half, in order.

    Each reference line is solved once in the suite.  FUT: the two thread
    counts share the 1000 hands, 1 thread every fourth, 2 threads the rest
    (twice as fast, three times the hands).  TABLE: the pool solves the
    second half (``LIST1000_POOL_TABLES``), split the same way;
    ``test_reference.test_list1000_tables`` solves the first half through
    DDS's batch function, so every TABLE line meets one of the two paths.
    """
    mine = (lambda i: i % 4 == 0) if threads == 1 else (lambda i: i % 4 != 0)
    hands = [h for i, h in enumerate(list1000) if mine(i)]
    tabled = [h for i, h in enumerate(list1000) if mine(i) and i in LIST1000_POOL_TABLES]
    with ddsbind.SolverPool(threads) as p:
        tables = p.dd_tables_array(np.stack([h.deal.remain_cards for h in tabled]))
        sols = p.solve_boards([(h.deal, h.trump, h.first) for h in hands])
    assert np.array_equal(tables, np.stack([h.table for h in tabled]))
    assert [tuple(c.score for c in s.cards) for s in sols] == [h.future.score for h in hands]


def test_more_threads_than_dds_warns_and_is_right(list100):
    """Asking for more threads than cores warns with both numbers, runs what DDS gives, and still answers right.

    One more than this machine's cores, so DDS (which never runs more threads
    than cores) always gives fewer, whatever the machine.
    """
    hands = list100[12:16]
    asked = ddsbind.dds_info().cores + 1
    with pytest.warns(UserWarning, match=rf"asked for {asked} threads, DDS runs {ddsbind.dds_info().threads}"):
        p = ddsbind.SolverPool(asked)
    with p:
        assert p.threads == ddsbind.dds_info().threads
        assert [t.array.tolist() for t in p.dd_tables([h.deal for h in hands])] == [h.table.tolist() for h in hands]


def test_threads_none_is_every_dds_thread():
    """threads=None runs one worker per DDS thread and does not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with ddsbind.SolverPool() as p:
            assert p.threads == ddsbind.dds_info().threads


def test_array_and_progress(list100, pool2):
    """dd_tables_array gives (N, 5, 4) int8 in DDS order, and progress is fed every finished deal."""
    hands = list100[16:22]
    seen = []
    out = pool2.dd_tables_array(np.stack([h.deal.remain_cards for h in hands]), progress=seen.append)
    assert out.shape == (6, 5, 4) and out.dtype == np.int8
    assert np.array_equal(out, np.stack([h.table for h in hands]))
    assert sum(seen) == 6 and all(k > 0 for k in seen)
    assert pool2.dd_tables([]) == []

    class Bar:  # what tqdm offers: update(n), not a call
        n = 0

        def update(self, k):
            self.n += k

    bar = Bar()
    pool2.dd_tables([h.deal for h in hands[:2]], progress=bar)
    assert bar.n == 2


def test_endings_tables_are_tricks_left(pool2):
    """Tables of endings (fewer than 13 cards a hand) count the tricks left, as single solves do."""
    rng = np.random.default_rng(7)
    deals = [ending(rng, k) for k in (1, 3, 5)]
    assert [t.array.tolist() for t in pool2.dd_tables(deals)] == [_table_by_solve_board(d) for d in deals]


def test_bad_deal_error_names_its_index(list100, pool2):
    """A bad deal deep in a batch raises DDS's error class with .index and the index in the message."""
    masks = np.stack([h.deal.remain_cards for h in list100[:6]])
    masks[3, 1, 2] |= 1 << 15
    with pytest.raises(errors.SuitOrRankError, match="deal 4") as info:  # index 3, counted from 1
        pool2.dd_tables_array(masks)
    assert info.value.index == 3
    masks[3, 1, 2] = 0
    with pytest.raises(errors.CardCountError, match="deal 4") as info:
        pool2.dd_tables_array(masks)
    assert info.value.index == 3


def test_bad_board_error_names_its_index(list100, pool2):
    """A bad board raises its DDSError class with .index; nothing partial is returned."""
    h = list100[0]
    boards = [(h.deal, h.trump, h.first)] * 3 + [(h.deal, 7, h.first)]
    with pytest.raises(errors.TrumpWrongError, match="board 4") as info:  # index 3, counted from 1
        pool2.solve_boards(boards)
    assert info.value.index == 3
    with pytest.raises(errors.TargetWrongHiError, match="board 1") as info:
        pool2.solve_boards(boards[:2], target=14)
    assert info.value.index == 0
    with pytest.raises(errors.InvalidArgumentError, match="mode 2"):
        pool2.solve_boards(boards[:1], mode=2)


def test_current_trick_boards(pool2):
    """Boards with cards on the current trick solve as solve_board solves them."""
    deal = "N:A... K... Q... J..."
    after = Deal.from_pbn("N:.A.. K.K.. Q.Q.. J.J..")
    board = (Deal.from_pbn("N:A.A.. K.K.. Q.Q.. J.J.."), "NT", "N")
    got = pool2.solve_boards([board, (after, "NT", "N", ["SA"])])
    assert got[0].cards == ddsbind.solve_board(*board).cards
    assert got[1].cards == ddsbind.solve_board(after, "NT", "N", current_trick=["SA"]).cards
    assert pool2.solve_boards([(deal, 4, 0)])[0].best_score == 1


def test_sixteen_threads_share_a_pool_like_serial(pool2):
    """16 Python threads making thousands of solve_boards calls on one pool get the serial answers; RSS stays flat."""
    rng = np.random.default_rng(11)
    boards = [(ending(rng, 4), int(rng.integers(5)), int(rng.integers(4))) for _ in range(40)]
    serial = [ddsbind.solve_board(*b).cards for b in boards]
    barrier = threading.Barrier(16)
    bad: list[object] = []

    def client(k: int) -> None:
        barrier.wait()
        for j in range(60):
            picks = [(k * 7 + j * 3 + i) % len(boards) for i in range(3)]
            got = pool2.solve_boards([boards[i] for i in picks])
            if [s.cards for s in got] != [serial[i] for i in picks]:
                bad.append((k, j))

    rss = []
    for _ in range(4):
        threads = [threading.Thread(target=client, args=(k,)) for k in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rss.append(_rss_mb())
    assert not bad
    assert rss[-1] - rss[1] < 8, rss


def test_imap_tables_reads_a_bounded_window(pool2):
    """imap_tables over a 10,000,000-deal generator reads only a few deals ahead and keeps RSS flat."""
    rng = np.random.default_rng(3)
    pulled = [0]
    sample = [ending(rng, 3) for _ in range(25)]

    def deals():
        for i in range(10_000_000):
            pulled[0] += 1
            yield sample[i % len(sample)]

    expected = [ddsbind.DDTable(_table_by_solve_board(d)) for d in sample]
    bound = pool_module.READ_AHEAD_PER_THREAD * pool2.threads
    rss = []
    stream = pool2.imap_tables(deals())
    for i, table in enumerate(itertools.islice(stream, 400)):
        assert table == expected[i % len(sample)], i
        assert pulled[0] - (i + 1) <= bound, (i, pulled[0])
        if i in (99, 399):
            rss.append(_rss_mb())
    stream.close()
    assert rss[1] - rss[0] < 8, rss


def test_mixed_with_batch_calls_from_other_threads(list100, pool2):
    """Pool calls and DDS batch calls (CalcAllTables, CalcDDtable) from other threads at once all come out right."""
    hands = list100[22:30]
    from ddsbind import solver

    barrier = threading.Barrier(4)
    out: dict[str, object] = {}

    def run(name, fn):
        barrier.wait()
        out[name] = fn()

    jobs = {
        "pool": lambda: pool2.dd_tables([h.deal for h in hands[:4]]),
        "batch": lambda: solver.calc_tables(np.stack([h.deal.remain_cards for h in hands[4:]])),
        "single": lambda: ddsbind.dd_table(hands[0].deal),
        "boards": lambda: pool2.solve_boards([(h.deal, h.trump, h.first) for h in hands]),
    }
    threads = [threading.Thread(target=run, args=item) for item in jobs.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [t.array.tolist() for t in out["pool"]] == [h.table.tolist() for h in hands[:4]]
    assert out["batch"].tolist() == [h.table.tolist() for h in hands[4:]]
    assert out["single"].array.tolist() == hands[0].table.tolist()
    assert [tuple(c.score for c in s.cards) for s in out["boards"]] == [h.future.score for h in hands]


def test_close_from_another_thread_stops_the_call(list100):
    """close() while a call solves stops it with KeyboardInterrupt; DDS settings and new pools work after."""
    hands = list100[:40]
    p = ddsbind.SolverPool()
    started = threading.Event()
    caught: list[BaseException] = []

    def caller():
        try:
            p.dd_tables([h.deal for h in hands], progress=lambda k: started.set())
        except BaseException as exc:
            caught.append(exc)

    t = threading.Thread(target=caller)
    t.start()
    started.wait(timeout=120)
    p.close()
    t.join()
    assert len(caught) == 1 and isinstance(caught[0], KeyboardInterrupt)
    with pytest.raises(errors.StateError, match="closed"):
        p.dd_tables([hands[0].deal])
    dll.SetMaxThreads(0)  # no pool open: settings may change again
    with ddsbind.SolverPool() as fresh:
        assert fresh.dd_tables([hands[1].deal])[0].array.tolist() == hands[1].table.tolist()


def test_settings_refused_while_a_pool_is_open():
    """DDS's thread count cannot change under an open pool's workers."""
    with ddsbind.SolverPool(), pytest.raises(errors.StateError, match="SolverPool is open"):
        dll.SetMaxThreads(1)


_SIGINT_SCRIPT = textwrap.dedent(
    """
    import signal, sys, time
    import numpy as np

    # Ctrl-C raises KeyboardInterrupt, as in a user's Python, even if the test process that started this one
    # ignores SIGINT (an ignored signal stays ignored across exec: the child would never see it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import ddsbind
    from ddsbind import solver
    from ddsbind.deal import Deal

    deals = [Deal.random(i) for i in range(400)]
    with ddsbind.SolverPool() as pool:
        def progress(k):
            print("solving", flush=True)
        try:
            pool.dd_tables(deals, progress=progress)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        probe = deals[:2]
        again = pool.dd_tables(probe)
    with ddsbind.SolverPool() as fresh:
        new = fresh.dd_tables(probe)
    batch = solver.calc_tables(np.stack([d.remain_cards for d in probe]))
    same = [t.array.tolist() for t in again] == [t.array.tolist() for t in new] == batch.tolist()
    print("fresh pool agrees" if same else "fresh pool DISAGREES", flush=True)
    """
)


def test_sigint_stops_a_long_call(tmp_path):
    """Ctrl-C during a long pool.dd_tables raises KeyboardInterrupt soon; the pool and a new pool answer right."""
    script = tmp_path / "sigint.py"
    script.write_text(_SIGINT_SCRIPT)
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert proc.stdout.readline().strip() == "solving"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # a hang guard, not a timing test
    finally:
        proc.kill()
    lines = out.split()
    assert "interrupted" in out and "finished" not in out, (out[-200:], err, signal.getsignal(signal.SIGINT))
    assert out.strip().endswith("fresh pool agrees"), (lines, err)
    assert proc.returncode == 0, err


def test_module_dd_tables_gives_tables_and_progress(list100):
    """ddsbind.dd_tables gives the TABLE lines and feeds progress every deal."""
    hands = list100[30:33]
    seen = []
    tables = ddsbind.dd_tables([h.deal for h in hands], progress=seen.append)
    assert [t.array.tolist() for t in tables] == [h.table.tolist() for h in hands]
    assert sum(seen) == len(hands)
    assert ddsbind.dd_tables_array(np.zeros((0, 4, 4), np.uint32)).shape == (0, 5, 4)


def test_long_calls_queue_a_bounded_number_of_tasks(pool2):
    """dd_tables over many deals keeps only a few tasks queued, so memory does not grow with the call."""
    rng = np.random.default_rng(5)
    sample = np.stack([ending(rng, 1).remain_cards for _ in range(20)])
    masks = np.tile(sample, (100, 1, 1))
    seen = []
    out = pool2.dd_tables_array(masks, progress=lambda k: seen.append(pool2._scheduler.tasks.qsize()))
    assert np.array_equal(out, np.tile(pool2.dd_tables_array(sample), (100, 1, 1)))
    assert seen and max(seen) <= _scheduler.QUEUED_PER_THREAD * pool2.threads


def test_a_pool_nobody_closed_is_stopped_when_dropped(list100):
    """A pool used without close() stops its workers once dropped, so DDS's settings can change again."""
    import gc

    before = threading.active_count()
    assert ddsbind.SolverPool().dd_tables([list100[0].deal])[0].array.tolist() == list100[0].table.tolist()
    gc.collect()
    assert threading.active_count() == before
    dll.SetMaxThreads(0)  # refused while a pool is open
