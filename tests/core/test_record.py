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
from ddsbind.scoring import Call, Contract, PassedOut

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
    assert read_call(text) == Call.parse(call) and str(read_call(text)) == call


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
    assert (contract_text(None), contract_text(PASSED_OUT), str(PASSED_OUT)) == ("", "Pass", "Pass")
    with pytest.deprecated_call():
        assert contract_text(None, passed_out=True) == "Pass"


def test_game_record_holds_a_contract_and_scores_it():
    """Without this, a record's contract would stay text that each format and the CLI read their own way."""
    g = GameRecord(DEAL, Seat.N, "EW", contract="4Hx", declarer=Seat.E, result=9)
    assert g.contract == Contract(4, Strain.H, 1) and (g.level, g.strain, g.doubled) == (4, Strain.H, 1)
    assert g.score() == -200  # vulnerable, one down doubled
    passed = GameRecord(DEAL, contract="Pass")
    assert passed.contract is PASSED_OUT and passed.strain is None and passed.score() is None
    assert passed.ns_score() == 0 and GameRecord(DEAL).contract is None and GameRecord(DEAL).ns_score() is None


def test_passed_out_is_one_value_and_the_old_flag_still_reads():
    """Without this, code written for the passed_out flag would break, or PASSED_OUT would stop being one value."""
    assert PassedOut() is PASSED_OUT and repr(PASSED_OUT) == "PASSED_OUT"
    with pytest.deprecated_call():
        old = GameRecord(DEAL, passed_out=True)
    assert old.contract is PASSED_OUT and old == GameRecord(DEAL, contract=PASSED_OUT)
    with pytest.deprecated_call():
        assert old.passed_out is True
    with pytest.deprecated_call():
        assert GameRecord(DEAL, contract="4S").passed_out is False
    with pytest.raises(AttributeError):
        old.passed_out = False  # type: ignore[misc]
    with pytest.raises(ContractError, match="passed-out game has no contract"), pytest.deprecated_call():
        GameRecord(DEAL, contract="4S", passed_out=True)


def test_a_record_holds_its_auction_as_calls():
    """Without this, an auction read from text would hold strings that each caller compares its own way."""
    g = GameRecord(DEAL, Seat.N, auction=["1n", "p", "3N", "d", "P", "p", "p"])
    assert g.auction == [Call(1, Strain.NT), Call.PASS, Call(3, Strain.NT), Call.DOUBLE, *[Call.PASS] * 3]
    assert [str(c) for c in g.auction] == ["1NT", "Pass", "3NT", "X", "Pass", "Pass", "Pass"]
    assert contract_of_auction(Seat.N, g.auction) == (Contract(3, Strain.NT, 1), Seat.N)


def test_bids_rank_in_one_order():
    """Without this, 1NT and 2C (or two suits of a level) would be ordered differently by the auction and the par."""
    bids = [Call.parse(t) for t in ("2C", "1NT", "1S", "7NT", "1C", "1H", "1D")]
    assert [str(b) for b in sorted(bids)] == ["1C", "1D", "1H", "1S", "1NT", "2C", "7NT"]
    assert [b.rank for b in sorted(bids)] == [0, 1, 2, 3, 4, 5, 34]
    assert Contract(2, Strain.C, 1).call > Contract(1, Strain.NT).call
    with pytest.raises(TypeError):
        _ = Call.parse("1C") > Call.PASS
    with pytest.raises(ContractError, match="no bid"):
        _ = Call.DOUBLE.rank


def test_auction_rules_find_the_contract_and_the_faults():
    """Without this, the contract and declarer of an auction, or an illegal call, would be judged per format."""
    calls = ["1S", "Pass", "4S", "X", "Pass", "Pass", "XX", "Pass", "Pass", "Pass"]
    assert contract_of_auction(Seat.W, calls) == (Contract(4, Strain.S, 2), Seat.W)
    assert contract_of_auction(Seat.N, ["Pass"] * 4) == (PASSED_OUT, None)
    assert contract_of_auction(Seat.N, ["Pass"] * 3) == (None, None)
    assert closing_passes(["1H", "Pass"]) == 2 and closing_passes([]) == 4
    assert auction_fault(["1NT", "1C"], Seat.N) == "call 2 (1C, E): 1C does not rank above 1NT"
    assert auction_fault(["1S", "Pass", "X"], Seat.N) == "call 3 (X, S): doubles partner's 1S"


def test_text_set_later_is_held_as_calls_and_a_contract():
    """Without this, code that sets a record's auction or contract as text would leave strings a writer misreads."""
    g = GameRecord(DEAL, Seat.N)
    g.auction, g.contract = ["p", "p", "p", "p"], "pass"
    assert g.auction == [Call.PASS] * 4 and g.contract is PASSED_OUT


def test_a_call_is_its_text_for_code_written_for_text_auctions():
    """Without this, a user's `" ".join(game.auction)` or `call == "Pass"` written for text auctions would break."""
    g = GameRecord(DEAL, Seat.N, auction=["1n", "p", "p", "p"])
    assert " ".join(g.auction) == "1NT Pass Pass Pass" and g.auction[0] == "1NT" and g.auction[1] == Call.PASS
    assert f"{g.auction[0]:<5}|" == "1NT  |" and repr(g.auction[0]) == "Call(level=1, strain=<Strain.NT: 4>, doubled=0)"
    with pytest.raises(AttributeError):
        g.auction[0].level = 2  # type: ignore[misc]
