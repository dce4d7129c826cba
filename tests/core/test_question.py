"""ddsbind.tricks / ddsbind.makes and SolverPool's questions: DDS's tables' answers at a fraction of the work.

Oracles: the TABLE lines of DDS's reference lists (list100, list1000), and
DDS's own batch (``dd_tables``, ``CalcAllTables``) on random deals.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ddsbind
from ddsbind.deal import Deal
from ddsbind.errors import CardCountError, ContractError, InvalidArgumentError, TrumpWrongError
from ddsbind.pool import SolverPool
from ddsbind.scoring import Contract
from tests.support import ending

STRAIN_LETTERS = "SHDCN"


def reference(hands) -> tuple[np.ndarray, np.ndarray]:
    """Masks ``(n, 4, 4)`` and DDS's TABLE lines ``(n, 5, 4)`` of reference hands."""
    masks = np.stack([h.deal.remain_cards for h in hands])
    tables = np.stack([np.asarray(h.table) for h in hands])
    return masks, tables


def pairs_of(n: int, offset: int = 0) -> np.ndarray:
    """A (strain, declarer) pair number 0..19 for each of ``n`` deals, so every pair is met."""
    return (np.arange(n) * 7 + offset) % 20


def check_tricks(pool: SolverPool, masks: np.ndarray, tables: np.ndarray, pairs: np.ndarray) -> None:
    for pair in range(20):
        strain, declarer = divmod(pair, 4)
        rows = np.flatnonzero(pairs == pair)
        got = pool.tricks(masks[rows], strain, declarer)
        assert got.dtype == np.int8
        assert got.tolist() == tables[rows, strain, declarer].tolist(), (strain, declarer)


def check_makes(pool: SolverPool, masks: np.ndarray, tables: np.ndarray, pairs: np.ndarray) -> None:
    """Each deal at the two levels around its result: just made, and failing by one."""
    for pair in range(20):
        strain, declarer = divmod(pair, 4)
        rows = np.flatnonzero(pairs == pair)
        result = tables[rows, strain, declarer].astype(int)
        for level in range(1, 8):
            at = rows[(result - 6 == level) | (result - 5 == level)]
            if at.size == 0:
                continue
            got = pool.makes(masks[at], f"{level}{STRAIN_LETTERS[strain]}", declarer)
            assert got.dtype == np.bool_
            assert got.tolist() == (tables[at, strain, declarer] >= level + 6).tolist(), (level, strain, declarer)


@pytest.mark.parametrize("threads", [1, 2])
def test_tricks_and_makes_equal_list100_tables(list100, threads):
    """Without this, a simulation's trick counts or make rates could differ from DDS's own tables."""
    masks, tables = reference(list100)
    with SolverPool(threads) as pool:
        check_tricks(pool, masks, tables, pairs_of(len(masks), threads))
        check_makes(pool, masks, tables, pairs_of(len(masks), threads + 5))


@pytest.mark.slow
def test_tricks_and_makes_equal_list1000_tables(list1000):
    """Without this, DDS's thousand reference deals could get other tricks or make answers (1 and 2 threads)."""
    masks, tables = reference(list1000)
    quarter = len(masks) // 4
    with SolverPool(1) as pool:
        check_tricks(pool, masks[:quarter], tables[:quarter], pairs_of(quarter))
        check_makes(pool, masks[:quarter], tables[:quarter], pairs_of(quarter, 3))
    with SolverPool(2) as pool:
        check_tricks(pool, masks[quarter:], tables[quarter:], pairs_of(len(masks) - quarter))
        check_makes(pool, masks[quarter:], tables[quarter:], pairs_of(len(masks) - quarter, 3))


@pytest.mark.parametrize("threads", [1, 2])
def test_every_question_on_random_deals_equals_the_batch_tables(threads):
    """Without this, some strain, declarer or level could be answered wrongly on deals off the reference lists."""
    rng = np.random.default_rng(27 + threads)
    deals = [Deal.random(rng) for _ in range(6)]
    tables = ddsbind.dd_tables_array(np.stack([d.remain_cards for d in deals]))
    questions = [(s, d, -1) for s in range(5) for d in range(4)]
    questions += [(s, d, need) for s in range(5) for d in range(4) for need in (0, 7, 9, 10, 13)]
    with SolverPool(threads) as pool:
        answers = pool.answers(deals, questions)
        by_function = ddsbind.tricks(deals, "NT", "W", threads=threads)
        made = ddsbind.makes(deals, "2H", "E", threads=threads)
    for k, (strain, declarer, need) in enumerate(questions):
        want = tables[:, strain, declarer] if need < 0 else tables[:, strain, declarer] >= need
        assert answers[:, k].tolist() == want.astype(int).tolist(), (strain, declarer, need)
    assert by_function.tolist() == tables[:, 4, 3].tolist()
    assert made.tolist() == (tables[:, 1, 1] >= 8).tolist()


def test_deal_types_and_contract_spellings(list100):
    """Without this, PBN strings, Deal objects, masks and the usual contract spellings would not all be taken."""
    masks, tables = reference(list100[:4])
    deals = [h.deal for h in list100[:4]]
    pbn = [d.to_pbn() for d in deals]
    want = tables[:, 4, 2]
    for given in (masks, deals, pbn, masks.astype(np.int64)):
        assert ddsbind.tricks(given, "N", "S", threads=1).tolist() == want.tolist()
    made = (want >= 9).tolist()
    for contract, declarer in [("3NT", "S"), ("3N", 2), ("3NTS", None), ("3nt by south", None), ("3NXX", "south")]:
        assert ddsbind.makes(pbn, contract, declarer, threads=1).tolist() == made, contract
    assert ddsbind.makes(masks, Contract(3, 4, declarer=2), threads=1).tolist() == made
    assert ddsbind.makes(masks, ddsbind.Contract.parse("3NTX by S"), threads=1).tolist() == made
    assert ddsbind.tricks(np.zeros((0, 4, 4), np.uint32), 4, 0).shape == (0,)


def test_endings_count_the_tricks_left():
    """Without this, an end position's tricks would be counted out of 13, not out of the cards left."""
    rng = np.random.default_rng(5)
    for cards in (1, 3, 5):
        deal = ending(rng, cards)
        table = np.asarray(ddsbind.dd_table(deal))
        with SolverPool(1) as pool:
            for strain in range(5):
                got = [int(pool.tricks([deal], strain, seat)[0]) for seat in range(4)]
                assert got == table[strain].tolist()
            assert pool.answers([deal], [(4, 0, 0), (4, 0, cards + 1)]).tolist() == [[1, 0]]


def test_repeats_are_solved_once_and_progress_counts_every_deal(list100, searches):
    """Without this, a sample with repeated deals pays twice, and a progress bar stops short of its total."""
    masks = np.concatenate([reference(list100[:3])[0]] * 4)[[0, 1, 2, 0, 0, 1, 5, 7, 2, 11]]
    ticks: list[int] = []
    with SolverPool(2) as pool:
        got = pool.tricks(masks, "S", "N", progress=ticks.append)
        again = pool.makes(masks, "1S", "N")
    assert sum(ticks) == len(masks)
    assert sorted(searches.values()) == [2, 2, 2]  # one tricks search and one makes search per distinct deal
    assert got[0] == got[3] == got[4] and got[1] == got[5] and got[2] == got[8]
    assert again.tolist() == (got >= 7).tolist()


BAD = [
    (lambda d: ddsbind.tricks(d, "X", "N"), TrumpWrongError, "strain 'X'"),
    (lambda d: ddsbind.tricks(d, 5, "N"), TrumpWrongError, "strain 5"),
    (lambda d: ddsbind.tricks(d, "NT", "Q"), InvalidArgumentError, "declarer 'Q'"),
    (lambda d: ddsbind.tricks(d, "NT", True), InvalidArgumentError, "declarer True"),
    (lambda d: ddsbind.makes(d, "8NT", "N"), ContractError, "contract '8NT'"),
    (lambda d: ddsbind.makes(d, "3Z", "N"), ContractError, "contract '3Z'"),
    (lambda d: ddsbind.makes(d, "3NT"), ContractError, "no declarer"),
    (lambda d: ddsbind.makes(d, "3NTS", "N"), ContractError, "declared by S, but declarer=N"),
    (lambda d: ddsbind.makes(d, "3NT", "up"), InvalidArgumentError, "declarer 'up'"),
    (lambda d: ddsbind.makes(d, 3, "N"), ContractError, "a contract is text"),
    (lambda d: ddsbind.makes(d, Contract(9, 4, 0)), ContractError, "contract level 9"),
    (lambda d: SolverPool(1).answers(d, [(4, 0, 14)]), InvalidArgumentError, "need must be"),
    (lambda d: SolverPool(1).answers(d, [(4, 0, -1), ("Z", 0, 1)]), TrumpWrongError, "question 2: strain 'Z'"),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_bad_question_is_one_error_naming_it_before_any_solving(list100, searches, case):
    """Without this, a typo in a contract or seat could cost a whole run, or surface as a traceback."""
    call, cls, words = BAD[case]
    deals = reference(list100[:3])[0]
    with pytest.raises(cls) as caught:
        call(deals)
    assert type(caught.value) is cls
    assert words in str(caught.value)
    assert isinstance(caught.value, ddsbind.Error)
    assert not searches  # refused before DDS saw anything


def test_bad_deal_is_named_by_its_position(list100, searches):
    """Without this, a bad deal deep in a long call would not say which one it is (or would fail after solving)."""
    masks = reference(list100[:4])[0].copy()
    suit = int(np.flatnonzero(masks[2, 0])[0])
    masks[2, 0, suit] &= masks[2, 0, suit] - 1  # North a card short: hands of different lengths
    with pytest.raises(CardCountError) as caught:
        ddsbind.makes(masks, "3NT", "S", threads=1)
    assert caught.value.index == 2
    assert not searches


def _question(contract: str | Contract, declarer: object = None) -> tuple[int, int, int]:
    c = Contract.parse(contract).declared(declarer)  # type: ignore[arg-type]
    return c.level, int(c.strain), int(c.declarer)  # type: ignore[arg-type]


def test_makes_reads_contracts_as_people_write_them():
    """Without this, 3NTS, 4S by N or a Contract given to makes() would not be read as the contract meant."""
    assert _question("3NTS") == (3, 4, 2)
    assert _question("4s", "n") == (4, 0, 0)
    assert _question(" 7C XX by West ") == (7, 3, 3)
    assert _question(Contract(2, 1, 0, 1)) == (2, 1, 1)
    assert _question(Contract(2, 1, 0, 1), 1) == (2, 1, 1)


def test_callers_sharing_one_pool_get_their_own_answers(list100):
    """Without this, two threads asking one pool different questions at once could get each other's answers."""
    masks, tables = reference(list100[:12])
    questions = [("3NT", "S"), ("4S", "N"), ("2H", "E"), ("5C", "W")]
    barrier = threading.Barrier(len(questions))
    got: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []
    with SolverPool(2) as pool:

        def ask(k: int) -> None:
            try:
                barrier.wait()
                contract, declarer = questions[k]
                got[k] = pool.makes(masks, contract, declarer) if k % 2 else pool.tricks(masks, contract[1:], declarer)
            except BaseException as exc:  # handed to the test thread
                errors.append(exc)

        threads = [threading.Thread(target=ask, args=(k,)) for k in range(len(questions))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    for k, (contract, declarer) in enumerate(questions):
        level, strain, seat = _question(contract, declarer)
        want = tables[:, strain, seat] >= level + 6 if k % 2 else tables[:, strain, seat]
        assert got[k].tolist() == want.tolist(), contract
