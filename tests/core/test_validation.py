"""Bad input never reaches DDS: both layers report DDS's own code and name the fault.

DDS writes dump.txt into the current directory on every input error it finds,
so each check here also asserts that no dump.txt appeared.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddsbind
from ddsbind import dll, errors

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def _deal_struct(pbn: str = FULL, trump: int = 4, first: int = 0):
    d = ddsbind.Deal.from_pbn(pbn)
    return dll.deal(trump=trump, first=first, remainCards=d.remain_cards.tolist())


CASES = [
    # (what, changes to struct/args, expected code name, words in the detail)
    ("target < -1", {"target": -2}, "RETURN_TARGET_WRONG_LO", "target -2"),
    ("target > 13", {"target": 14}, "RETURN_TARGET_WRONG_HI", "target 14"),
    ("solutions 0", {"solutions": 0}, "RETURN_SOLNS_WRONG_LO", "solutions 0"),
    ("solutions 4", {"solutions": 4}, "RETURN_SOLNS_WRONG_HI", "solutions 4"),
    ("mode -1", {"mode": -1}, "RETURN_MODE_WRONG_LO", "mode -1"),
    ("mode 3", {"mode": 3}, "RETURN_MODE_WRONG_HI", "mode 3"),
    ("trump 5", {"trump": 5}, "RETURN_TRUMP_WRONG", "trump 5"),
    ("first 4", {"first": 4}, "RETURN_FIRST_WRONG", "first 4"),
    ("thread", {"thread": 99}, "RETURN_THREAD_INDEX", "threadIndex 99"),
    ("trick rank 15", {"trick": ((0, 15),)}, "RETURN_SUIT_OR_RANK", "currentTrickRank[0]"),
    ("trick suit 4", {"trick": ((4, 14),)}, "RETURN_SUIT_OR_RANK", "currentTrickSuit[0]"),
    ("bit 15 set", {"mask": (0, 0, 1 << 15)}, "RETURN_SUIT_OR_RANK", "remainCards[0][0]"),
    ("no cards", {"pbn": "N:... ... ... ..."}, "RETURN_ZERO_CARDS", "no cards"),
    (
        "target 3 of 2 tricks",
        {"pbn": "N:AK... QJ... T9... 87...", "target": 3},
        "RETURN_TARGET_TOO_HIGH",
        "target 3",
    ),
    ("uneven hands", {"pbn": "N:AKQ... QJ... T9... 8..."}, "RETURN_CARD_COUNT", "N=3"),
    ("trick too short", {"pbn": "N:AKQ... QJ... T9... 87...", "first": 1}, "RETURN_SUIT_OR_RANK", "is 0"),
    ("played and held", {"pbn": "N:K... QJ... T9... 87...", "trick": ((0, 13),)}, "RETURN_PLAYED_CARD", "SK"),
    ("duplicate", {"pbn": "N:A... A... Q... J..."}, "RETURN_DUPLICATE_CARDS", "SA"),
]


@pytest.mark.parametrize("what,change,code_name,words", CASES, ids=[c[0] for c in CASES])
def test_dll_returns_dds_code_and_names_fault(in_tmp_cwd, what, change, code_name, words):
    """dll.SolveBoard returns DDS's code for each fault, explains it, and DDS never dumps a file."""
    if "pbn" in change:
        if code_name == "RETURN_DUPLICATE_CARDS":
            dup = [[1 << 14, 0, 0, 0], [1 << 14, 0, 0, 0], [1 << 12, 0, 0, 0], [1 << 11, 0, 0, 0]]
            dl = dll.deal(trump=4, first=0, remainCards=dup)
        else:
            masks = [[0] * 4 for _ in range(4)]
            pbn_hands = change["pbn"][2:].split()
            for h, txt in enumerate(pbn_hands):
                for s, hold in enumerate(txt.split(".")):
                    for ch in hold:
                        masks[h][s] |= 1 << ("23456789TJQKA".index(ch) + 2)
            dl = dll.deal(trump=4, first=change.get("first", 0), remainCards=masks)
    else:
        dl = _deal_struct(trump=change.get("trump", 4), first=change.get("first", 0))
    for k, (s, r) in enumerate(change.get("trick", ())):
        dl.currentTrickSuit[k] = s
        dl.currentTrickRank[k] = r
    if "mask" in change:
        h, s, v = change["mask"]
        dl.remainCards[h][s] |= v
    fut = dll.futureTricks()
    rc = dll.SolveBoard(
        dl,
        change.get("target", -1),
        change.get("solutions", 3),
        change.get("mode", 1),
        fut,
        change.get("thread", 0),
    )
    assert rc == getattr(dll, code_name)
    code, fn, detail = dll.last_error()
    assert (code, fn) == (rc, "SolveBoard")
    assert words in detail
    assert not (in_tmp_cwd / "dump.txt").exists()


def test_pythonic_layer_raises_named_errors(in_tmp_cwd):
    """solve_board raises the DDSError subclass with DDS's code and names the card or field."""
    with pytest.raises(errors.TargetWrongHiError, match="target 14") as info:
        ddsbind.solve_board(FULL, 4, 0, target=14)
    assert info.value.code == dll.RETURN_TARGET_WRONG_HI
    with pytest.raises(errors.PlayedCardError, match="SA is on the current trick and still held by N"):
        ddsbind.solve_board("N:A... K... Q... J...", 4, 0, current_trick=["SA"])
    with pytest.raises(errors.CardCountError, match="N=1 E=1 S=1 W=1"):
        ddsbind.solve_board("N:A... K... Q... J...", 4, 1, current_trick=["S2"])
    with pytest.raises(errors.DuplicateCardsError, match="SA"):
        ddsbind.Deal.from_pbn("N:A... A... Q... J...")
    with pytest.raises(errors.PBNError, match="'X'"):
        ddsbind.Deal.from_pbn("N:AX... K... Q... J...")
    with pytest.raises(errors.PlayFaultError, match="is not held by"):
        ddsbind.analyse_play("N:A.A.. K.K.. Q.Q.. J.J..", 4, 0, "SASKSQSJHKHAHQHJ")
    with pytest.raises(errors.PlayFaultError, match="revoke"):
        ddsbind.analyse_play("N:A.A.. K.K.. Q.Q.. J.J..", 4, 0, "SAHK")
    assert not (in_tmp_cwd / "dump.txt").exists()


def test_wrong_argument_types_raise_argument_error():
    """Passing a non-struct to the DLL layer raises ArgumentError, not a crash or a cffi internals error."""
    fut = dll.futureTricks()
    with pytest.raises(errors.ArgumentError, match="dl must be a struct deal"):
        dll.SolveBoard("N:AKQ", -1, 3, 1, fut, 0)
    with pytest.raises(errors.ArgumentError, match="must be a struct futureTricks"):
        dll.SolveBoard(_deal_struct(), -1, 3, 1, dll.ddTableResults(), 0)
    with pytest.raises(errors.ArgumentError, match="does not fit a C int"):
        dll.SolveBoard(_deal_struct(), 2**40, 3, 1, fut, 0)


def test_table_limits_are_handled():
    """CalcAllTables refuses more tables than DDS takes, and dd_tables batches so users never see that."""
    deals = dll.ddTableDeals(noOfTables=dll.max_tables(5) + 1)
    rc = dll.CalcAllTables(deals, -1, [0] * 5, dll.ddTablesRes(), dll.allParResults())
    assert rc == dll.RETURN_TOO_MANY_TABLES
    assert dll.CalcAllTables(deals, -1, [1] * 5, dll.ddTablesRes(), dll.allParResults()) == dll.RETURN_NO_SUIT


def test_dd_tables_names_the_bad_deal():
    """A bad deal inside a long batch is reported by its index in the caller's list."""
    masks = np.stack([ddsbind.Deal.from_pbn(FULL).remain_cards] * 40)
    masks[37, 0, 0] |= 1 << 15
    with pytest.raises(errors.SuitOrRankError, match="deal 38"):  # index 37: the 38th, as users count
        ddsbind.dd_tables_array(masks)


_ints = st.integers(min_value=-(2**31), max_value=2**31 - 1)
_small = st.integers(min_value=-3, max_value=20)
_masks = st.lists(st.integers(min_value=0, max_value=2**32 - 1) | st.integers(0, 0x7FFC), min_size=16, max_size=16)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    masks=_masks,
    trump=_small,
    first=_small,
    target=_small,
    solutions=_small,
    mode=_small,
    trick=st.lists(st.tuples(_small, _small), min_size=3, max_size=3),
    thread=_small,
)
def test_random_malformed_structs_never_crash(in_tmp_cwd, masks, trump, first, target, solutions, mode, trick, thread):
    """Random struct contents give a DDS code (or a solution), never a crash and never a dump.txt."""
    dl = dll.deal(trump=trump, first=first, remainCards=[masks[i : i + 4] for i in range(0, 16, 4)])
    for k, (s, r) in enumerate(trick):
        dl.currentTrickSuit[k] = s
        dl.currentTrickRank[k] = r
    rc = dll.SolveBoard(dl, target, solutions, mode, dll.futureTricks(), thread)
    assert rc == dll.RETURN_NO_FAULT or errors.error_class(rc) is not errors.DDSError
    assert not (in_tmp_cwd / "dump.txt").exists()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_random_pbn_text_raises_only_dds_errors(text):
    """Random text as a PBN deal raises a DDSError (PBNError or a deal error), nothing else."""
    with contextlib.suppress(errors.DDSError):
        ddsbind.Deal.from_pbn(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=79))
def test_random_pbn_bytes_to_dll_pbn_functions(in_tmp_cwd, raw):
    """Random bytes in dealPBN.remainCards give a DDS code, never a crash or dump."""
    dl = dll.dealPBN(trump=4, first=0)
    dl.remainCards = raw.replace(b"\0", b" ")
    rc = dll.SolveBoardPBN(dl, -1, 1, 1, dll.futureTricks(), 0)
    if rc != dll.RETURN_NO_FAULT:
        assert errors.error_class(rc) is not errors.DDSError
        assert dll.last_error()[:2] == (rc, "SolveBoardPBN")
    assert not (in_tmp_cwd / "dump.txt").exists()


_junk = st.one_of(
    st.integers(-5, 20),
    st.text(max_size=4),
    st.none(),
    st.floats(allow_nan=True),
    st.lists(st.integers(-1, 2**16), max_size=5),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    deal=st.one_of(st.text(max_size=60), st.just("N:A... K... Q... J..."), _junk),
    trump=_junk,
    first=_junk,
    target=_junk,
    trick=st.lists(st.one_of(st.text(max_size=3), st.sampled_from(["SA", "S2", "HK"])), max_size=4),
)
def test_random_malformed_pythonic_calls_raise_dds_errors(in_tmp_cwd, deal, trump, first, target, trick):
    """Junk arguments to solve_board raise a DDSError subclass (never another type, never a crash)."""
    with contextlib.suppress(errors.DDSError):
        ddsbind.solve_board(deal, trump, first, target=target, current_trick=trick)
    assert not (in_tmp_cwd / "dump.txt").exists()


@settings(max_examples=100, deadline=None)
@given(table=st.lists(st.integers(-3, 20), min_size=20, max_size=20), vul=_junk, dealer=_junk)
def test_random_par_inputs_raise_dds_errors(table, vul, dealer):
    """Out-of-range tables, vulnerabilities or dealers for par raise DDSError, never reach DDS."""
    t = np.array(table).reshape(5, 4)
    with contextlib.suppress(errors.DDSError):
        ddsbind.par(t, vul)
    with contextlib.suppress(errors.DDSError):
        ddsbind.dealer_par(t, dealer, vul)
