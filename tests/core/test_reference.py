"""Every answer checked against DDS's own reference hands (DDS 2.9.0 hands/list*.txt).

Provenance: ../shared/reference/dds-hands/ (see its README); TABLE lines are
``resTable[strain][hand]`` in DDS order, FUT lines ``futureTricks`` of
SolveBoard(target=-1, solutions=3, mode=1).
"""

from __future__ import annotations

import numpy as np
import pytest

import ddsbind
from ddsbind import dll
from tests.support import LIST1000_POOL_TABLES


def _future_tuple(fut) -> tuple:
    n = fut.cards
    return (n, tuple(fut.suit[0:n]), tuple(fut.rank[0:n]), tuple(fut.equals[0:n]), tuple(fut.score[0:n]))


def test_fut_lines_via_solve_board(list100):
    """solve_board returns exactly DDS's cards, equals and scores for every FUT line of list100."""
    for i, h in enumerate(list100):
        sol = ddsbind.solve_board(h.deal, h.trump, h.first, target=-1, solutions=3, mode=1)
        f = h.future
        got = [(c.card.suit, c.card.rank, sum(1 << e.rank for e in c.equals), c.score) for c in sol]
        want = list(zip(f.suit, f.rank, f.equals, f.score, strict=True))
        assert got == want, f"hand {i}"


def test_fut_lines_via_dll_solveboard(list100):
    """dll.SolveBoard, used as in C, fills futureTricks exactly as the FUT lines say."""
    fut = dll.futureTricks()
    for i, h in enumerate(list100):
        dl = dll.deal()
        dl.trump = h.trump
        dl.first = h.first
        for hand in range(4):
            for suit in range(4):
                dl.remainCards[hand][suit] = int(h.deal.remain_cards[hand, suit])
        assert dll.SolveBoard(dl, -1, 3, 1, fut, 0) == dll.RETURN_NO_FAULT
        f = h.future
        assert _future_tuple(fut) == (f.cards, f.suit, f.rank, f.equals, f.score), f"hand {i}"


def test_fut_lines_via_dll_solveboardpbn(list100):
    """dll.SolveBoardPBN with the file's own PBN strings agrees with the FUT lines."""
    fut = dll.futureTricks()
    for i, h in enumerate(list100[:20]):
        dl = dll.dealPBN(trump=h.trump, first=h.first, remainCards=h.pbn.encode())
        assert dll.SolveBoardPBN(dl, -1, 3, 1, fut, 1) == dll.RETURN_NO_FAULT
        f = h.future
        assert _future_tuple(fut) == (f.cards, f.suit, f.rank, f.equals, f.score), f"hand {i}"


@pytest.mark.slow
def test_table_lines_via_dd_table(list100):
    """dd_table (CalcDDtable) reproduces every TABLE line of list100, in DDS order."""
    for i, h in enumerate(list100):
        assert np.array_equal(np.asarray(ddsbind.dd_table(h.deal)), h.table), f"hand {i}"


def test_par_lines(list100):
    """par() gives DDS's PAR strings for every hand's vulnerability."""
    for i, h in enumerate(list100):
        p = ddsbind.par(h.table, h.vul)
        assert (*p.score_text, *p.contracts) == h.par, f"hand {i}"


def test_par2_lines(list100):
    """dealer_par() gives DDS's PAR2 score and contracts for every hand's dealer and vulnerability."""
    for i, h in enumerate(list100):
        p = ddsbind.dealer_par(h.table, h.dealer, h.vul)
        assert (str(p.score), *p.contracts) == h.dealer_par, f"hand {i}"


def test_par_via_dll_matches_strings(list100):
    """dll.Par used as in C writes the PAR line's strings into parResults."""
    h = list100[3]
    res = dll.ddTableResults(resTable=h.table.tolist())
    pres = dll.parResults()
    assert dll.Par(res, pres, h.vul) == dll.RETURN_NO_FAULT
    s = dll.ffi.string
    got = (
        s(pres.parScore[0]),
        s(pres.parScore[1]),
        s(pres.parContractsString[0]),
        s(pres.parContractsString[1]),
    )
    assert tuple(x.decode() for x in got) == h.par


def test_trace_lines_via_analyse_play(list100):
    """analyse_play gives DDS's TRACE for every PLAY line of list100."""
    for i, h in enumerate(list100):
        assert ddsbind.analyse_play(h.deal, h.trump, h.first, h.play) == list(h.trace), f"hand {i}"


def test_trace_via_dll_analyseplaypbn(list100):
    """dll.AnalysePlayPBN with the file's PBN deal and PLAY string fills solvedPlay like TRACE."""
    for h in list100[:10]:
        dl = dll.dealPBN(trump=h.trump, first=h.first, remainCards=h.pbn.encode())
        play = dll.playTracePBN(number=len(h.play) // 2, cards=h.play.encode())
        solved = dll.solvedPlay()
        assert dll.AnalysePlayPBN(dl, play, solved, 0) == dll.RETURN_NO_FAULT
        assert list(solved.tricks[0 : solved.number]) == list(h.trace)


@pytest.mark.slow
def test_list1000_tables(list1000):
    """The TABLE lines of list1000's first half come out of DDS's batch tables exactly (500 deals, DDS's threads).

    A quarter of the deals go in as an array (dd_tables_array), a quarter as
    Deal objects (dd_tables), so both entry points meet the reference; the
    second half's lines are solved through the pool
    (``test_pool.test_list1000_fut_and_table_lines``): each line once.
    """
    mine = [h for i, h in enumerate(list1000) if i not in LIST1000_POOL_TABLES]
    assert len(mine) + len(LIST1000_POOL_TABLES) == len(list1000)
    half = len(mine) // 2
    from_array = ddsbind.dd_tables_array(np.stack([h.deal.remain_cards for h in mine[:half]]))
    from_deals = ddsbind.dd_tables([h.deal for h in mine[half:]])
    got = np.concatenate([from_array, np.stack([t.array for t in from_deals])])
    want = np.stack([h.table for h in mine])
    bad = np.flatnonzero((got != want).any(axis=(1, 2)))
    assert bad.size == 0, f"hands {bad[:10].tolist()} differ"


def _fill_boards(bo, hands, pbn: bool):
    bo.noOfBoards = len(hands)
    for i, h in enumerate(hands):
        dl = bo.deals[i]
        dl.trump, dl.first = h.trump, h.first
        if pbn:
            dl.remainCards = h.pbn.encode()
        else:
            dl.remainCards = h.deal.remain_cards.tolist()
        bo.target[i], bo.solutions[i], bo.mode[i] = -1, 3, 1


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SolveAllBoards", "SolveAllBoardsBin", "SolveAllChunksBin", "SolveAllChunksPBN"])
def test_batch_solvers_match_fut_lines(list100, name):
    """DDS's multi-board solvers, called through the DLL layer, fill solvedBoards as the FUT lines say."""
    hands = list100[40:60]
    pbn = name in ("SolveAllBoards", "SolveAllChunksPBN")
    bo = dll.boardsPBN() if pbn else dll.boards()
    _fill_boards(bo, hands, pbn)
    solved = dll.solvedBoards()
    fn = getattr(dll, name)
    rc = fn(bo, solved, 2) if "Chunks" in name else fn(bo, solved)
    assert rc == dll.RETURN_NO_FAULT
    for i, h in enumerate(hands):
        f = h.future
        assert _future_tuple(solved.solvedBoard[i]) == (f.cards, f.suit, f.rank, f.equals, f.score), i


@pytest.mark.slow
def test_calc_all_tables_pbn_matches_table_lines(list100):
    """CalcAllTablesPBN with the files' PBN strings gives the TABLE lines, and its par the PAR lines."""
    hands = [h for h in list100[60:90] if h.vul == list100[60].vul]
    deals = dll.ddTableDealsPBN(noOfTables=len(hands))
    for i, h in enumerate(hands):
        deals.deals[i].cards = h.pbn.encode()
    res, pres = dll.ddTablesRes(), dll.allParResults()
    assert dll.CalcAllTablesPBN(deals, hands[0].vul, [0] * 5, res, pres) == dll.RETURN_NO_FAULT
    for i, h in enumerate(hands):
        assert [list(r) for r in res.results[i].resTable] == h.table.tolist()
        assert dll.ffi.string(pres.presults[i].parContractsString[0]).decode() == h.par[2]


def test_analyse_all_plays_matches_trace_lines(list100):
    """AnalyseAllPlaysBin over several boards gives each board's TRACE line."""
    hands = list100[:10]
    bo, plays, solved = dll.boards(), dll.playTracesBin(noOfBoards=len(hands)), dll.solvedPlays()
    _fill_boards(bo, hands, pbn=False)
    for i, h in enumerate(hands):
        cards = [h.play[k : k + 2] for k in range(0, len(h.play), 2)]
        plays.plays[i].number = len(cards)
        for k, c in enumerate(cards):
            plays.plays[i].suit[k] = "SHDC".index(c[0])
            plays.plays[i].rank[k] = "23456789TJQKA".index(c[1]) + 2
    assert dll.AnalyseAllPlaysBin(bo, plays, solved, 1) == dll.RETURN_NO_FAULT
    for i, h in enumerate(hands):
        assert list(solved.solved[i].tricks[0 : solved.solved[i].number]) == list(h.trace), i


def test_par_family_agrees_with_par2(list100):
    """SidesPar agrees with the PAR lines, DealerParBin and its text converter with PAR2, for every hand."""
    text = dll.ffi.new(f"char[{dll.DEALER_TEXT_SIZE}]")
    for i, h in enumerate(list100):
        res = dll.ddTableResults(resTable=h.table.tolist())
        master = dll.parResultsMaster()
        assert dll.DealerParBin(res, master, h.dealer, h.vul) == dll.RETURN_NO_FAULT
        assert master.score == int(h.dealer_par[0]), i
        assert dll.ConvertToDealerTextFormat(master, text) == dll.RETURN_NO_FAULT
        assert dll.ffi.string(text).decode().startswith(f"Par {master.score}"), i
        sides = dll.parResultsDealer(count=2)
        assert dll.SidesPar(res, sides, h.vul) == dll.RETURN_NO_FAULT
        # SidesPar scores each side from its own view, like Par's "NS ..." / "EW ..." strings.
        assert (sides[0].score, sides[1].score) == (int(h.par[0].split()[1]), int(h.par[1].split()[1])), i
