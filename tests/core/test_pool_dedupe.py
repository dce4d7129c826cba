"""Repeated deals: every entry point solves each distinct deal once and gives each repeat the same table."""

from __future__ import annotations

import numpy as np
import pytest

import ddsbind
from ddsbind import dll
from ddsbind._marshal import distinct_deals
from ddsbind.database import TableFiller
from tests.support import ending


def test_distinct_deals_first_appearance_and_map_back():
    """Without this, repeats could be solved twice or handed another deal's table."""
    rng = np.random.default_rng(3)
    pool_of_deals = np.stack([ending(rng, 2).remain_cards for _ in range(7)])
    picks = rng.integers(0, 7, 200)
    masks = pool_of_deals[picks]
    first, inverse = distinct_deals(masks)
    assert np.array_equal(masks[first][inverse], masks)
    assert list(first) == sorted(first)  # first appearance, in input order
    assert len(np.unique(masks[first].reshape(len(first), 16), axis=0)) == len(first)
    assert all(not np.array_equal(masks[i], masks[f]) for f in first for i in range(f))  # each is a first sighting
    empty_first, empty_inverse = distinct_deals(np.zeros((0, 4, 4), np.uint32))
    assert empty_first.shape == empty_inverse.shape == (0,)


@pytest.mark.parametrize("threads", [1, 2])
def test_repeats_first_and_last_1000_apart_solved_once(list100, searches, threads):
    """Without this, a deal at both ends of a long call is solved twice, or its repeat gets a wrong table."""
    rng = np.random.default_rng(7)
    hand = list100[5]
    fillers = [ending(rng, 1) for _ in range(1000)]
    deals = [hand.deal, *fillers, hand.deal]
    progress = []
    with ddsbind.SolverPool(threads) as pool:
        out = pool.dd_tables_array(np.stack([d.remain_cards for d in deals]), progress=progress.append)
    assert out[0].tolist() == out[-1].tolist() == hand.table.tolist()
    assert sum(progress) == len(deals)
    assert searches[hand.deal.remain_cards.tobytes()] == 20  # 5 strains x 4 leaders, once
    distinct = {d.remain_cards.tobytes() for d in deals}
    assert set(searches) == distinct and all(k == 20 for k in searches.values())
    tables = {d.remain_cards.tobytes(): t.tolist() for d, t in zip(deals, out, strict=True)}
    for d, t in zip(deals, out, strict=True):
        assert t.tolist() == tables[d.remain_cards.tobytes()]


def test_module_dd_tables_solves_a_repeat_once(list100, monkeypatch):
    """Without this, ddsbind.dd_tables pays again for each repeated deal of a call, even 40 deals apart."""
    a, b = list100[11], list100[12]
    sent = []
    real = dll.raising.CalcAllTables

    def counting(tdeals, *args, **kwargs):
        sent.extend(bytes(memoryview(dll.ffi.buffer(tdeals.deals))[: 64 * tdeals.noOfTables]))
        return real(tdeals, *args, **kwargs)

    monkeypatch.setattr(dll.raising, "CalcAllTables", counting)
    fillers = [h.deal for h in list100[50:90]]
    deals = [a.deal, b.deal, a.deal, *fillers, a.deal]
    progress = []
    tables = ddsbind.dd_tables(deals, progress=progress.append)
    assert [t.array.tolist() for t in tables[:3]] == [h.table.tolist() for h in (a, b, a)]
    assert tables[-1].array.tolist() == a.table.tolist()
    assert len(sent) == 64 * 42 and sum(progress) == len(deals)  # a, b and 40 fillers, each once


def test_imap_tables_waits_for_a_repeat_in_its_window(list100, searches):
    """Without this, a stream of played boards solves every repeat of a board still being solved."""
    a, b, c = list100[20], list100[21], list100[22]
    stream = [a, b, a, c, a, b]
    with ddsbind.SolverPool(2) as pool:
        got = [t.array.tolist() for t in pool.imap_tables(h.deal for h in stream)]
    assert got == [h.table.tolist() for h in stream]
    assert searches == {h.deal.remain_cards.tobytes(): 20 for h in (a, b, c)}


def test_imap_tables_repeat_then_break(list100):
    """Without this, stopping a stream whose window shares one job between repeats could hang or raise."""
    a = list100[30]
    with ddsbind.SolverPool(2) as pool:
        stream = pool.imap_tables([a.deal] * 5 + [list100[31].deal])
        assert next(stream).array.tolist() == a.table.tolist()
        stream.close()
        assert pool.dd_tables([a.deal])[0].array.tolist() == a.table.tolist()


def test_table_filler_remembers_a_bounded_number_of_deals(list100, searches):
    """Without this, convert --solve over millions of deals keeps every distinct table in memory."""
    hands = list100[40:43]
    owners = np.stack([h.deal.owners() for h in hands])
    reference = np.stack([h.table for h in hands]).astype(np.uint8)
    filler = TableFiller(cache_size=2)
    # A repeat inside a batch: solved once, the repeat reused.
    got = filler(np.concatenate([owners, owners[:1]]), None)
    assert np.array_equal(got, np.concatenate([reference, reference[:1]]))
    assert (filler.solved, filler.reused, len(filler)) == (3, 1, 2)
    # Deal 2 was used last: remembered.  Deal 0 was used before it and 1: forgotten.
    assert np.array_equal(filler(owners[2:3], None), reference[2:3])
    assert (filler.solved, filler.reused) == (3, 2)
    assert np.array_equal(filler(owners[:1], None), reference[:1])
    assert (filler.solved, filler.reused, len(filler)) == (4, 2, 2)
    assert searches[hands[0].deal.remain_cards.tobytes()] == 40  # solved twice: the bound, not a leak
    assert searches[hands[2].deal.remain_cards.tobytes()] == 20


def test_analyse_plays_analyses_an_exact_repeat_once(list100, monkeypatch):
    """Without this, a session's repeated played boards are each analysed again by DDS."""
    from ddsbind.play import analyse_plays

    boards = []
    real = dll.raising.AnalyseAllPlaysBin

    def counting(bo, *args, **kwargs):
        boards.append(bo.noOfBoards)
        return real(bo, *args, **kwargs)

    monkeypatch.setattr(dll.raising, "AnalyseAllPlaysBin", counting)
    a, b = list100[3], list100[4]
    jobs = [(h.deal, h.trump, h.first, h.play) for h in (a, b, a, a)]
    progress = []
    got = analyse_plays(jobs, progress=progress.append)
    assert got == [list(h.trace) for h in (a, b, a, a)]
    assert sum(boards) == 2 and sum(progress) == 4
