"""The limits the DLL layer checks before DDS are DDS's own: each boundary is asked of DDS itself.

DDS is called directly (``_binding.lib``, holding every thread slot as the DLL
layer would) so that ddsbind's pre-checks cannot hide a disagreement.
"""

from __future__ import annotations

import pytest

from ddsbind import dll
from ddsbind._binding import ffi, lib, slots

STRAINS = (5, 4, 3, 2, 1)


def _filter(strains: int) -> list[int]:
    """A trumpFilter solving the first ``strains`` strains (1 = leave out)."""
    return [0 if s < strains else 1 for s in range(dll.DDS_STRAINS)]


def _table_deals(deal, n: int) -> object:
    """``n`` copies of one full deal (DDS solves duplicates once, so big calls stay cheap)."""
    tdeals = dll.ddTableDeals(noOfTables=n)
    masks = deal.remain_cards.tolist()
    for i in range(min(n, len(tdeals.deals))):
        tdeals.deals[i].cards = masks
    return tdeals


def _dds_calc_all(tdeals, strains: int) -> tuple[int, object]:
    """CalcAllTables straight into DDS, bypassing ddsbind's checks."""
    res, pres = dll.ddTablesRes(), dll.allParResults()
    with slots.all():
        rc = lib.CalcAllTables(tdeals, -1, ffi.new("int[5]", _filter(strains)), res, pres)
    return rc, res


def test_max_tables_equals_what_dds_accepts(list100):
    """dll.max_tables(k) is the largest table count DDS takes for k strains, so no batch is cut short or refused."""
    deal = list100[0].deal
    for k in STRAINS:
        n = dll.max_tables(k)
        assert _dds_calc_all(_table_deals(deal, n), k)[0] == dll.RETURN_NO_FAULT, (k, n)
        assert _dds_calc_all(_table_deals(deal, n + 1), k)[0] == dll.RETURN_TOO_MANY_TABLES, (k, n + 1)


@pytest.mark.parametrize("strains", STRAINS)
def test_dll_calc_all_tables_gives_dds_verdict_at_the_boundary(list100, strains):
    """dll.CalcAllTables accepts and refuses exactly the table counts DDS accepts and refuses."""
    deal = list100[1].deal
    n = dll.max_tables(strains)
    for count in (n, n + 1):
        ours = dll.CalcAllTables(
            _table_deals(deal, count), -1, _filter(strains), dll.ddTablesRes(), dll.allParResults()
        )
        assert ours == _dds_calc_all(_table_deals(deal, count), strains)[0], (strains, count)


@pytest.mark.slow
@pytest.mark.parametrize(("strains", "count"), [(5, 40), (4, 50)])
def test_dds_solves_a_full_call_right(list100, strains, count):
    """DDS answers a full call (40 tables of 5 strains, 50 of 4) as the TABLE lines say, so big batches are safe."""
    hands = list100[:count]
    tdeals = dll.ddTableDeals(noOfTables=count)
    for i, h in enumerate(hands):
        tdeals.deals[i].cards = h.deal.remain_cards.tolist()
    rc, res = _dds_calc_all(tdeals, strains)
    assert rc == dll.RETURN_NO_FAULT
    for i, h in enumerate(hands):
        got = [list(r) for r in res.results[i].resTable][:strains]
        assert got == h.table.tolist()[:strains], i
    rc, _ = _dds_calc_all(_table_deals(hands[0].deal, count + 1), strains)
    assert rc == dll.RETURN_TOO_MANY_TABLES


def test_dd_tables_sends_full_calls(list100, monkeypatch):
    """dd_tables (DDS's batch path) fills each CalcAllTables call to DDS's limit, so no call waits on a short tail."""
    from ddsbind import _marshal, solver

    sizes = []
    real = dll.raising.CalcAllTables

    def spy(dealsp, *args):
        sizes.append(dealsp.noOfTables)
        return real(dealsp, *args)

    monkeypatch.setattr(dll.raising, "CalcAllTables", spy)
    deal = list100[2].deal
    n = dll.max_tables(5) + 3
    out = solver.calc_tables(_marshal.table_masks([deal] * n))
    assert sizes == [dll.max_tables(5), 3]
    assert (out == list100[2].table).all()


def _boards(hand, n: int) -> object:
    """``n`` copies of one board (``boards``), FUT-line settings."""
    bo = dll.boards(noOfBoards=n)
    for i in range(min(n, len(bo.deals))):
        dl = bo.deals[i]
        dl.trump, dl.first = hand.trump, hand.first
        dl.remainCards = hand.deal.remain_cards.tolist()
        bo.target[i], bo.solutions[i], bo.mode[i] = -1, 1, 1
    return bo


def test_solve_all_boards_limit_is_dds(list100):
    """SolveAllChunksBin takes exactly the board counts and chunk sizes DDS takes."""
    h = list100[3]
    for n, chunk in ((dll.MAXNOOFBOARDS, 1), (dll.MAXNOOFBOARDS + 1, 1), (4, 0)):
        ours = dll.SolveAllChunksBin(_boards(h, n), dll.solvedBoards(), chunk)
        with slots.all():
            theirs = lib.SolveAllChunksBin(_boards(h, n), dll.solvedBoards(), chunk)
        assert ours == theirs, (n, chunk)


def _traces(hand, n: int) -> object:
    """``n`` copies of the first trick of the hand's PLAY line."""
    plays = dll.playTracesBin(noOfBoards=n)
    cards = [hand.play[k : k + 2] for k in range(0, 8, 2)]
    for i in range(min(n, len(plays.plays))):
        plays.plays[i].number = len(cards)
        for k, c in enumerate(cards):
            plays.plays[i].suit[k] = "SHDC".index(c[0])
            plays.plays[i].rank[k] = "23456789TJQKA".index(c[1]) + 2
    return plays


def test_analyse_all_plays_limits_are_dds(list100):
    """AnalyseAllPlaysBin takes the board counts DDS takes, checks them first, and ignores chunkSize as DDS does."""
    h = list100[4]
    cases = [
        (dll.MAXNOOFBOARDS, dll.MAXNOOFBOARDS, 1),
        (dll.MAXNOOFBOARDS + 1, dll.MAXNOOFBOARDS + 1, 1),
        (dll.MAXNOOFBOARDS + 1, 3, 1),
        (3, 2, 1),
        (3, 3, 0),
        (3, 3, -5),
    ]
    for n, n_plays, chunk in cases:
        ours = dll.AnalyseAllPlaysBin(_boards(h, n), _traces(h, n_plays), dll.solvedPlays(), chunk)
        with slots.all():
            theirs = lib.AnalyseAllPlaysBin(_boards(h, n), _traces(h, n_plays), dll.solvedPlays(), chunk)
        assert ours == theirs, (n, n_plays, chunk)


def test_thread_index_limit_is_dds(list100):
    """dll.SolveBoard accepts exactly the threadIndex values DDS accepts (0 .. its thread count - 1)."""
    h = list100[5]
    for index in (-1, 0, slots.count - 1, slots.count):
        dl = dll.deal(trump=h.trump, first=h.first, remainCards=h.deal.remain_cards.tolist())
        ours = dll.SolveBoard(dl, -1, 1, 1, dll.futureTricks(), index)
        with slots.all():
            theirs = lib.SolveBoard(dl[0], -1, 1, 1, dll.futureTricks(), index)
        assert ours == theirs, index
