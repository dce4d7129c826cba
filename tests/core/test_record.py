"""ddsbind.record: game records and the auction's rules, read through scoring's one reader of contracts."""

from __future__ import annotations

import pytest

from ddsbind.deal import Deal, Seat, Strain
from ddsbind.errors import ContractError
from ddsbind.record import (
    PASSED_OUT,
    GameRecord,
    auction_fault,
    closing_passes,
    contract_of_auction,
    contract_text,
    read_call,
    read_contract,
)
from ddsbind.scoring import Contract

DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.765.AKQ.T9 .J432.JT98.AKQ87")


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("pass", "Pass"),
        ("p", "Pass"),
        ("x", "X"),
        ("d", "X"),
        ("XX", "XX"),
        ("r", "XX"),
        ("1n", "1NT"),
        ("7NT", "7NT"),
        ("3c", "3C"),
        ("4♠", "4S"),
    ],
)
def test_calls_are_read_into_one_spelling(text, call):
    """Without this, a record read from LIN ("1n") and one from PBN ("1NT") would hold different calls for one bid."""
    assert read_call(text) == call


@pytest.mark.parametrize("text", ["", "AP", "8S", "1Z", "1SX", "4S by N"])
def test_what_is_no_call_is_refused_by_name(text):
    """Without this, a doubled bid or a declarer could slip into an auction as a call."""
    with pytest.raises(ContractError, match=r"call .* is not a bid"):
        read_call(text)


def test_contract_text_reads_pass_and_refuses_a_declarer():
    """Without this, "Pass" would be an unreadable contract, or a declarer in the text would contradict Declarer."""
    assert read_contract(" pass ") is PASSED_OUT
    assert read_contract("3ntx") == Contract(3, Strain.NT, 1)
    with pytest.raises(ContractError, match="names a declarer"):
        read_contract("4SX by N")
    with pytest.raises(ContractError, match=r"contract '4Z' is not a level 1-7"):
        read_contract("4Z")
    assert contract_text(Contract(4, Strain.H, 2, Seat.S)) == "4HXX"
    assert (contract_text(None), contract_text(None, passed_out=True)) == ("", "Pass")


def test_game_record_holds_a_contract_and_scores_it():
    """Without this, a record's contract would stay text that each format and the CLI read their own way."""
    g = GameRecord(DEAL, Seat.N, "EW", contract="4Hx", declarer=Seat.E, result=9)
    assert g.contract == Contract(4, Strain.H, 1) and (g.level, g.strain, g.doubled) == (4, Strain.H, 1)
    assert g.score() == -200  # vulnerable, one down doubled
    passed = GameRecord(DEAL, contract="Pass")
    assert passed.passed_out and passed.contract is None and passed.strain is None and passed.score() is None


def test_auction_rules_find_the_contract_and_the_faults():
    """Without this, the contract and declarer of an auction, or an illegal call, would be judged per format."""
    calls = ["1S", "Pass", "4S", "X", "Pass", "Pass", "XX", "Pass", "Pass", "Pass"]
    assert contract_of_auction(Seat.W, calls) == (Contract(4, Strain.S, 2), Seat.W)
    assert contract_of_auction(Seat.N, ["Pass"] * 4) == (PASSED_OUT, None)
    assert contract_of_auction(Seat.N, ["Pass"] * 3) == (None, None)
    assert closing_passes(["1H", "Pass"]) == 2 and closing_passes([]) == 4
    assert auction_fault(["1NT", "1C"], Seat.N) == "call 2 (1C, E): 1C does not rank above 1NT"
    assert auction_fault(["1S", "Pass", "X"], Seat.N) == "call 3 (X, S): doubles partner's 1S"
