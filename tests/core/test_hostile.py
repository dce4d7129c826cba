"""Input a hostile or careless user passes: the process survives and answers are right or refused clearly.

Anything that crashed the interpreter before ddsbind checked it runs in a
subprocess, so a regression fails one test instead of killing the run.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import ddsbind
from ddsbind import Card, Deal, Seat, Strain, dll, errors
from tests.support import python_c, python_m

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


# -- crashes and process exits -------------------------------------------------------


def test_short_or_null_struct_arguments_are_refused(tmp_path):
    """Output structs too small and NULL pointers raise ArgumentError instead of a SIGSEGV or heap abort."""
    proc = python_c(
        f"""
        from ddsbind import Deal, dll, errors
        d = Deal.from_pbn({FULL!r}).remain_cards.tolist()
        dl = dll.deal(trump=3, first=1, remainCards=d)
        tdeal = dll.ddTableDeal(cards=d)
        calls = [
            ("futp", lambda: dll.SolveBoard(dl, -1, 3, 1, dll.futureTricks(count=0), 0)),
            ("dl", lambda: dll.SolveBoard(dll.deal(count=0), -1, 3, 1, dll.futureTricks(), 0)),
            ("tablep", lambda: dll.CalcDDtable(tdeal, dll.ddTableResults(count=0))),
            ("resp", lambda: dll.CalcAllTables(dll.ddTableDeals(noOfTables=1), -1, [0] * 5,
                                               dll.ddTablesRes(count=0), dll.allParResults())),
            ("dl", lambda: dll.SolveBoard(dll.ffi.cast("struct deal *", 0), -1, 3, 1, dll.futureTricks(), 0)),
            ("futp", lambda: dll.SolveBoard(dl, -1, 3, 1, dll.ffi.cast("struct futureTricks *", 0), 0)),
            ("presp", lambda: dll.Par(dll.ddTableResults(), dll.ffi.NULL, 0)),
            ("sidesRes", lambda: dll.SidesPar(dll.ddTableResults(), dll.parResultsDealer(count=1), 0)),
        ]
        for arg, call in calls:
            try:
                call()
                print("accepted")
            except errors.ArgumentError as exc:
                print("refused", exc.detail.startswith(arg + " "))
        print("CalcDDtable", dll.CalcDDtable(tdeal, dll.ddTableResults(count=1)))
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:-1] == ["refused True"] * 8
    assert lines[-1] == "CalcDDtable 1"


def test_free_memory_then_solve(tmp_path):
    """After dll.FreeMemory() every solver works again (DDS 2.9 alone dies with SIGSEGV)."""
    proc = python_c(
        f"""
        import ddsbind
        from ddsbind import dll
        deal = ddsbind.Deal.from_pbn({FULL!r})
        before = ddsbind.dd_table(deal)
        for _ in range(2):
            dll.FreeMemory()
            fut = dll.futureTricks()
            dl = dll.deal(trump=4, first=1, remainCards=deal.remain_cards.tolist())
            print(dll.SolveBoard(dl, -1, 1, 1, fut, 0), 13 - fut.score[0] == before["NT", "N"])
            dll.FreeMemory()
            print(ddsbind.dd_table(deal) == before, ddsbind.solve_board(deal, 4, 1).best_score == fut.score[0])
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["1 True", "True True"] * 2


def test_free_memory_just_before_a_solve_takes_its_slot(tmp_path):
    """FreeMemory from another thread after a solve's checks but before it holds its slot cannot crash it."""
    proc = python_c(
        f"""
        import contextlib, threading
        import ddsbind
        from ddsbind import _binding, dll
        deal = ddsbind.Deal.from_pbn({FULL!r})
        want = ddsbind.dd_table(deal)["NT", "N"]
        real_slot = _binding.slots.slot

        @contextlib.contextmanager
        def slot_after_free(index):
            # The worst moment: every check done, the slot not yet held.
            t = threading.Thread(target=dll.FreeMemory)
            t.start()
            t.join()
            with real_slot(index) as i:
                yield i

        _binding.slots.slot = slot_after_free
        fut = dll.futureTricks()
        dl = dll.deal(trump=4, first=1, remainCards=deal.remain_cards.tolist())
        print(dll.SolveBoard(dl, -1, 1, 1, fut, 0), 13 - fut.score[0] == want)
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "True"]


@pytest.mark.parametrize("args", [(1, 1), (10, 2), (-1, -1), (dll.MIN_MEMORY_MB - 1, 1), (2**31 - 1, 2)])
def test_set_resources_values_dds_cannot_live_with_are_refused(args, tmp_path):
    """SetResources values that end the process (or exhaust the machine) raise before DDS sees them."""
    proc = python_c(
        f"""
        import ddsbind
        from ddsbind import dll, errors
        try:
            dll.SetResources(*{args!r})
        except errors.InvalidArgumentError as exc:
            print("refused", "maxMemoryMB" in str(exc))
        print(ddsbind.solve_board("N:A... K... Q... J...", 4, 0).best_score)
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["refused True", "1"]


def test_set_resources_lower_bound_is_dds_own(tmp_path):
    """DDS itself dies one MB below MIN_MEMORY_MB and solves at it, so the refusal is exactly DDS's limit."""
    code = """
        from ddsbind import _binding
        _binding.lib.SetResources({mem}, 1)
        import ddsbind
        print(ddsbind.solve_board("N:A... K... Q... J...", 4, 0).best_score)
        """
    below = python_c(code.format(mem=dll.MIN_MEMORY_MB - 1), cwd=tmp_path)
    assert below.returncode != 0 and "1" not in below.stdout
    at = python_c(code.format(mem=dll.MIN_MEMORY_MB), cwd=tmp_path)
    assert at.returncode == 0, at.stderr
    assert at.stdout == "1\n"
    ok = python_c(code.format(mem=0), cwd=tmp_path)
    assert ok.returncode == 0 and ok.stdout == "1\n"


def test_set_resources_in_range_is_applied(list100):
    """SetResources with sound values reaches DDS and the thread count follows it; DDS still solves right."""
    h = list100[0]
    dll.SetResources(dll.MIN_MEMORY_MB, 1)
    try:
        assert ddsbind.dds_info().threads == 1
        assert ddsbind.solve_board(h.deal, h.trump, h.first).best_score == h.future.score[0]  # DDS's FUT line
    finally:
        dll.SetMaxThreads(0)
    assert ddsbind.dds_info().threads >= 1


# -- wrong answers: tables of endings ------------------------------------------------------


def _minimax_table(deal: Deal) -> np.ndarray:
    """Brute-force DD table of a small ending (independent of DDS): declarer's side's tricks."""

    def play(hands: tuple[frozenset, ...], leader: int, trump: int, side: int) -> int:
        @functools.cache
        def best(hands: tuple[frozenset, ...], leader: int) -> int:
            if not hands[0]:
                return 0
            return trick(hands, leader, ())

        def trick(hands: tuple[frozenset, ...], leader: int, played: tuple) -> int:
            player = (leader + len(played)) % 4
            if len(played) == 4:
                led = played[0][0].suit
                win = max(range(4), key=lambda k: (played[k][0].suit == trump, played[k][0].suit == led,
                                                   played[k][0].rank))  # fmt: skip
                winner = played[win][1]
                return (winner % 2 == side) + best(hands, winner)
            hand = hands[player]
            if played:
                follow = [c for c in hand if c.suit == played[0][0].suit]
                options = follow or list(hand)
            else:
                options = list(hand)
            results = []
            for c in options:
                rest = tuple(h - {c} if i == player else h for i, h in enumerate(hands))
                results.append(trick(rest, leader, (*played, (c, player))))
            return max(results) if player % 2 == side else min(results)

        return best(hands, leader)

    hands = tuple(frozenset(deal.hand(s)) for s in Seat)
    table = np.zeros((5, 4), np.int8)
    for strain in Strain:
        for declarer in Seat:
            table[strain, declarer] = play(hands, declarer.next(), int(strain), declarer % 2)
    return table


ENDINGS = [
    "N:A... K... Q... J...",
    "N:AK... QJ... T9... 87...",
    "N:A2.K.. KQ.A.. J3..A. T4...A",
    "N:AK2... QJ3... .T9.2. ...T98",
    "E:KQ.2.. A3.J.. J.A.2. T.K..A",
]


@pytest.mark.parametrize("pbn", ENDINGS)
def test_tables_of_endings_are_right(pbn):
    """dd_table, dd_tables and dd_tables_array of an ending give the brute-force tricks, not 13-based numbers."""
    deal = Deal.from_pbn(pbn)
    want = _minimax_table(deal)
    assert np.array_equal(np.asarray(ddsbind.dd_table(deal)), want)
    full = Deal.from_pbn(FULL)
    tables = ddsbind.dd_tables([full, deal, full])
    assert np.array_equal(np.asarray(tables[1]), want)
    assert tables[0] == tables[2] == ddsbind.dd_table(full)
    arr = ddsbind.dd_tables_array(np.stack([deal.remain_cards, full.remain_cards]))
    assert np.array_equal(arr[0], want) and np.array_equal(arr[1], np.asarray(tables[0]))


def test_table_of_ending_same_in_a_fresh_process(tmp_path, list100):
    """The one-card ending's table does not depend on what was solved before (it did: 13/13/13/12 vs 12s)."""
    proc = python_c(
        """
        import ddsbind
        print(ddsbind.dd_table("N:A... K... Q... J...").array.tolist())
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str([[1, 0, 1, 0]] * 5)
    assert ddsbind.dd_table(list100[1].deal).array.tolist() == list100[1].table.tolist()  # DDS's TABLE line
    assert ddsbind.dd_table("N:A... K... Q... J...").array.tolist() == [[1, 0, 1, 0]] * 5


def test_dll_table_functions_refuse_endings():
    """The DLL layer returns -14 for a table of an ending instead of DDS's 13-trick answer."""
    cards = Deal.from_pbn("N:AK... QJ... T9... 87...").remain_cards.tolist()
    assert dll.CalcDDtable(dll.ddTableDeal(cards=cards), dll.ddTableResults()) == dll.RETURN_CARD_COUNT
    code, fn, detail = dll.last_error()
    assert (code, fn, "13 in each hand" in detail) == (dll.RETURN_CARD_COUNT, "CalcDDtable", True)
    rc = dll.CalcPar(dll.ddTableDeal(cards=cards), 0, dll.ddTableResults(), dll.parResults())
    assert rc == dll.RETURN_CARD_COUNT


def test_table_of_uneven_hands_is_refused():
    """A mid-trick position (hands of different lengths) has no DD table: CardCountError naming the deal."""
    with pytest.raises(errors.CardCountError, match="deal 2: hands hold N=1 E=2"):
        ddsbind.dd_tables([FULL, "N:K... QJ... T9... 87..."])


def test_cli_table_of_an_ending(tmp_path):
    """`ddsbind table` of an ending prints the right table and says par needs a full deal."""
    proc = python_m("ddsbind", "table", "N:AK... QJ... T9... 87...", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines() if line.strip()[:2] in
            ("NT", "S ", "H ", "D ", "C ")}  # fmt: skip
    assert rows["NT"] == ["2", "0", "2", "0"]
    assert "Par" in proc.stdout and "full deal" in proc.stdout


# -- wrong answers: analyse_play with a current trick --------------------------------------------


def test_analyse_play_with_current_trick_matches_play_from_trick_start(list100):
    """Cards already on the trick give the same values as playing them out first, one per remaining card."""
    for h in list100[:8]:
        cards = [h.play[i : i + 2] for i in range(0, len(h.play), 2)]
        full = ddsbind.analyse_play(h.deal, h.trump, h.first, cards)
        assert full == list(h.trace)
        for k in (1, 2, 3):
            trick, rest = cards[:k], cards[k:]
            masks = h.deal.remain_cards.copy()
            for j, c in enumerate(trick):
                card = Card.parse(c)
                masks[Seat(h.first).next(j), card.suit] &= ~np.uint32(1 << card.rank)
            after = Deal(masks)
            got = ddsbind.analyse_play(after, h.trump, h.first, rest, current_trick=trick)
            assert got == full[k:], (h.pbn, k)
            assert ddsbind.analyse_play(after, h.trump, h.first, "", current_trick=trick) == [full[k]]


# -- silent coercions --------------------------------------------------------------------------


def test_masks_beyond_16_bits_or_floats_are_refused():
    """dd_tables_array refuses int64 masks with high bits and float masks instead of solving a wrapped deal."""
    masks = np.stack([Deal.from_pbn(FULL).remain_cards.astype(np.int64)] * 3)
    wide = masks.copy()
    wide[2, 1, 3] |= 1 << 40
    with pytest.raises(errors.SuitOrRankError, match=r"deal 3: remainCards\[1\]\[3\]") as info:
        ddsbind.dd_tables_array(wide)
    assert info.value.index == 2 and info.value.field == "remainCards[1][3]"
    with pytest.raises(errors.InvalidArgumentError, match="integers"):
        ddsbind.dd_tables_array(masks.astype(float))
    negative = masks.copy()
    negative[0, 0, 0] = -4
    with pytest.raises(errors.SuitOrRankError, match="deal 1"):
        ddsbind.dd_tables_array(negative)


@pytest.mark.parametrize("value", [np.full((5, 4), 300), np.full((5, 4), -1), np.full((5, 4), 6.5)])
def test_dd_table_values_out_of_range_are_refused(value):
    """DDTable refuses trick counts outside 0..13 (300 was stored as 44) and non-integers."""
    with pytest.raises(errors.InvalidArgumentError, match=r"0\.\.13"):
        ddsbind.DDTable(value)


def test_seats_and_strains_parse_exactly():
    """Only real seat and strain names parse: 'nonsense' is not North and True is not hearts."""
    assert Seat.parse("north") is Seat.N and Seat.parse(" W ") is Seat.W and Seat.parse(2) is Seat.S
    for bad in ("nonsense", "", "Nx", True, 2.0, None, 4):
        with pytest.raises(errors.InvalidArgumentError):
            Seat.parse(bad)
    with pytest.raises(errors.FirstWrongError, match="first 'nonsense'"):
        ddsbind.solve_board(FULL, "NT", "nonsense")
    for bad in (True, "X", 5, 1.0, "SS"):
        with pytest.raises(errors.TrumpWrongError):
            Strain.parse(bad)
    with pytest.raises(errors.TrumpWrongError):
        ddsbind.solve_board(FULL, True, "N")
    with pytest.raises(errors.SuitOrRankError):
        Card(True, 14)


def test_bad_dealer_and_non_deal_name_their_fault():
    """A bad dealer says 'dealer' (not DDS's 'First is not in 0..2'); an int as a deal is a TypeError."""
    table = ddsbind.dd_table(FULL)
    with pytest.raises(errors.InvalidArgumentError, match="dealer 7") as info:
        ddsbind.dealer_par(table, 7, "none")
    assert info.value.field == "dealer"
    with pytest.raises(errors.ArgumentError, match="a deal must be"):
        ddsbind.solve_board(42, 4, 0)
    with pytest.raises(errors.ArgumentError, match="a deal must be"):
        ddsbind.dd_table(42)


def test_revoke_on_current_trick_is_refused(in_tmp_cwd):
    """A current trick where a player shows out while holding the led suit is refused in both layers."""
    after = Deal.from_pbn("N:K... 2... 53... 64...")  # N led SA, E discarded H2 although holding S2
    with pytest.raises(errors.PlayFaultError, match="revoke") as info:
        ddsbind.solve_board(after, 4, 0, current_trick=["SA", "H2"])
    assert info.value.card == "H2"
    dl = dll.deal(trump=4, first=0, remainCards=after.remain_cards.tolist())
    dl.currentTrickSuit[0], dl.currentTrickRank[0] = 0, 14
    dl.currentTrickSuit[1], dl.currentTrickRank[1] = 1, 2
    assert dll.SolveBoard(dl, -1, 1, 1, dll.futureTricks(), 0) == dll.RETURN_PLAY_FAULT
    assert "revoke" in dll.last_error()[2]
    dl.currentTrickSuit[1], dl.currentTrickRank[1] = 0, 7  # E followed with S7: legal
    assert dll.SolveBoard(dl, -1, 1, 1, dll.futureTricks(), 0) == dll.RETURN_NO_FAULT
    assert not (in_tmp_cwd / "dump.txt").exists()


# -- errors with their position -------------------------------------------------------------------


def test_bad_deal_in_a_list_is_named_by_index():
    """dd_tables([g, g, g, bad]) says deal 4 (index 3), in the message and in .index."""
    g = Deal.random(1)
    with pytest.raises(errors.DuplicateCardsError, match="deal 4: SA") as info:
        ddsbind.dd_tables([g, g, g, "N:A... A... Q... J..."])
    assert (info.value.index, info.value.card) == (3, "SA")
    with pytest.raises(errors.PBNError, match="deal 2"):
        ddsbind.dd_tables([g, "N:junk"])


def test_best_score_without_cards_is_defined():
    """With a target no card reaches, DDS returns no cards and best_score is -1, not a max() error."""
    sol = ddsbind.solve_board(FULL, 4, 0, target=13, solutions=1)
    assert len(sol) == 0 and sol.best_score == -1
    reachable = ddsbind.solve_board(FULL, 4, 0, target=1, solutions=1)
    assert reachable.best_score >= 1


def test_dll_batch_fault_keeps_its_board_index():
    """A bad board inside SolveAllBoardsBin is reported as 'board i' by last_error and by dll.raising."""
    bo = dll.boards(noOfBoards=3)
    good = Deal.from_pbn(FULL).remain_cards.tolist()
    for i in range(3):
        bo.deals[i].trump, bo.deals[i].first, bo.deals[i].remainCards = 4, 0, good
        bo.target[i], bo.solutions[i], bo.mode[i] = -1, 1, 1
    bo.target[2] = 14
    assert dll.SolveAllBoardsBin(bo, dll.solvedBoards()) == dll.RETURN_TARGET_WRONG_HI
    assert dll.last_error() == (dll.RETURN_TARGET_WRONG_HI, "SolveAllBoardsBin", "board 3: target 14 > 13")
    with pytest.raises(errors.TargetWrongHiError) as info:
        dll.raising.SolveAllBoardsBin(bo, dll.solvedBoards())
    assert (info.value.index, info.value.field, info.value.function) == (2, "target", "SolveAllBoardsBin")
