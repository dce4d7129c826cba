"""One vocabulary: one reader of contracts and calls, one Side, enums of another kind refused.

Every spelling a former reader of contract or call text accepted (scoring's
``Contract.parse``, the pool's ``parse_contract``, the dealer language's
``parse_contract`` and ``_z_contract``, PBN's Contract tag, LIN's and PBN's
auction calls, the notebook auction) is read by :meth:`Contract.parse` /
:meth:`Call.parse` with the result the former reader gave; bad text raises
``ContractError`` naming it.  The two wrong answers of issue 34 (a
Vulnerability read as "declarer vulnerable", a Vulnerability written as
dealer's integer code) have their tests here.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import ddsbind
from ddsbind import Call, Contract, Seat, Side, Strain, Vulnerability
from ddsbind.deal import sides_of
from ddsbind.errors import ContractError, Error, InvalidArgumentError, TrumpWrongError
from ddsbind.scoring import DealerParContract, score

# -- the one reader of contracts ------------------------------------------------------------

#: (text, level, strain, doubled, declarer): what the former readers gave for their spellings.
SPELLINGS = [
    # scoring.Contract.parse and pool.parse_contract
    ("4S", 4, Strain.S, 0, None),
    ("3NT", 3, Strain.NT, 0, None),
    ("3N", 3, Strain.NT, 0, None),
    ("4SX", 4, Strain.S, 1, None),
    ("6HXX", 6, Strain.H, 2, None),
    ("4\u2660X", 4, Strain.S, 1, None),
    ("5H*", 5, Strain.H, 1, None),
    ("5H**", 5, Strain.H, 2, None),
    ("5HR", 5, Strain.H, 2, None),
    ("3NTS", 3, Strain.NT, 0, Seat.S),
    ("4SX N", 4, Strain.S, 1, Seat.N),
    ("4SX by North", 4, Strain.S, 1, Seat.N),
    (" 7C XX by West ", 7, Strain.C, 2, Seat.W),
    ("4s", 4, Strain.S, 0, None),
    # doubled with its declarer, as --contract 4SXN writes it
    ("4SXN", 4, Strain.S, 1, Seat.N),
    ("3NTXXE", 3, Strain.NT, 2, Seat.E),
    # PBN's Contract tag (pbngame._parse_contract)
    ("3NTX", 3, Strain.NT, 1, None),
    ("6CXX", 6, Strain.C, 2, None),
    ("4h", 4, Strain.H, 0, None),
]


@pytest.mark.parametrize(("text", "level", "strain", "doubled", "declarer"), SPELLINGS)
def test_every_former_spelling_reads_the_same_contract(text, level, strain, doubled, declarer):
    """Without this, a contract some reader used to accept would now be refused or read as another contract."""
    assert Contract.parse(text) == Contract(level, strain, doubled, declarer)


def test_the_dealer_languages_contracts_read_as_their_readers_did():
    """Without this, a dealer script's x3N or DealerV2's z4Hx would score another contract than before."""
    for level, strain, doubled in itertools.product(range(1, 8), "SHDCN", range(3)):
        z = f"z{level}{strain}{'x' * doubled}"
        # _z_contract: (int(text[1]), "SHDCN".index(text[2]), len(text) - 3)
        assert Contract.parse(z) == Contract(int(z[1]), Strain.parse(z[2]), len(z) - 3), z
    # dealer/scoring.parse_contract: strip, upper, drop a leading X, NT -> N; (level, strain), undoubled
    for text in ("3N", "x3N", "X3NT", " x4s ", "3nt", "x7C"):
        old = text.strip().upper().removeprefix("X").replace("NT", "N")
        assert Contract.parse(text) == Contract(int(old[0]), Strain.parse(old[1])), text


def test_pass_is_no_contract():
    """Without this, PBN's passed-out Contract tag would be an error or a contract."""
    assert Contract.parse_or_pass("Pass") is None
    assert Contract.parse_or_pass(" pass ") is None
    assert Contract.parse_or_pass("3NTX") == Contract(3, Strain.NT, 1)
    with pytest.raises(ContractError, match="'Pass'"):
        Contract.parse("Pass")


@pytest.mark.parametrize("text", ["8NT", "3Z", "", "4SXXX", "x", "z4Hxxx", "4S by Q", "y3N", "3N-N", "Pass"])
def test_bad_contract_text_is_one_contract_error_naming_it(text):
    """Without this, a mistyped contract would raise some other class, or an error not saying which text."""
    with pytest.raises(ContractError, match=repr(text)[:10].replace("*", r"\*")):
        Contract.parse(text)


def test_the_declarer_is_checked_in_one_place():
    """Without this, 'names no declarer' would be refused by each caller its own way, with different classes."""
    assert Contract.parse("3NT").declared("S") == Contract(3, Strain.NT, 0, Seat.S)
    assert Contract.parse("3NTS").declared() == Contract.parse("3NTS").declared(2)
    with pytest.raises(ContractError, match="names no declarer"):
        Contract.parse("3NT").declared()
    with pytest.raises(ContractError, match="declared by S, but declarer=N"):
        Contract.parse("3NTS").declared("N")
    for call in (
        lambda: ddsbind.makes(["N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"], "7NT"),
        lambda: ddsbind.dd_score("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432", "7NT"),
    ):
        with pytest.raises(ContractError, match="names no declarer"):
            call()


# -- the one reader of calls ------------------------------------------------------------------

#: Each call spelling of LIN (p, d, r, 1n...), PBN (Pass, X, XX, 1NT) and the notebook auction, and PBN's spelling.
CALLS = {
    "p": "Pass",
    "P": "Pass",
    "PASS": "Pass",
    "pass": "Pass",
    "d": "X",
    "X": "X",
    "r": "XX",
    "XX": "XX",
    "xx": "XX",
    "1c": "1C",
    "2N": "2NT",
    "2nt": "2NT",
    "7NT": "7NT",
    "4\u2660": "4S",
}


@pytest.mark.parametrize(("text", "pbn"), CALLS.items())
def test_every_call_spelling_reads_as_the_formats_did(text, pbn):
    """Without this, an auction call LIN or PBN files write would be refused or read as another call."""
    call = Call.parse(text)
    assert str(call) == pbn
    assert Call.parse(pbn) == call


def test_calls_know_bids_passes_and_doubles():
    """Without this, a format could not tell a bid's level and strain from a pass or a double."""
    assert (Call.parse("3n").level, Call.parse("3n").strain, Call.parse("3n").is_bid) == (3, Strain.NT, True)
    assert Call.parse("Pass").is_pass and not Call.parse("X").is_pass
    assert (Call.parse("X").doubled, Call.parse("XX").doubled, Call.parse("XX").level) == (1, 2, 0)
    assert Contract.parse("4SX by N").call == Call.parse("4S")


@pytest.mark.parametrize("text", ["8C", "1Z", "XXX", "", "AP", "1SX"])
def test_bad_call_text_is_one_contract_error_naming_it(text):
    """Without this, a bad auction token would raise another class, or not say which token."""
    with pytest.raises(ContractError, match=f"call {text!r}"):
        Call.parse(text)


def test_the_notebook_auction_shows_read_calls_with_symbols():
    """Without this, the notebook auction would print a call Call.parse read as text, or change a pass."""
    from ddsbind import _html

    shown = [_html.call(str(Call.parse(t))) for t in ("1s", "2n", "p", "d", "r")]
    assert shown[0].startswith("1") and "\u2660" in shown[0]
    assert shown[1:] == ["2NT", "Pass", "X", "XX"]


# -- DDS's DealerPar text: one parser for the solver's words and PBN's ParContract --------------


def test_dealer_par_text_is_read_once_for_words_and_pbn():
    """Without this, the words and PBN's ParContract could read DDS's par text two different ways."""
    from ddsbind.formats.pbn import format_par

    p = DealerParContract.parse("5H*-NS-2")
    assert (p.contract, p.declarers, p.result, p.seats) == (Contract(5, Strain.H, 1), (Seat.N, Seat.S), -2, "NS")
    assert DealerParContract.parse("3N-N+1").contract == Contract(3, Strain.NT, 0, Seat.N)
    assert format_par(-300, ["5H*-NS-2"]) == ("NS -300", "NS 5HX-2")
    assert ddsbind.DealerPar(-300, ("5H*-NS-2",)).words().startswith("5\u2665 doubled by North or South")
    for bad in ("4 spades", "4S-", "4S-NE", "8S-N"):
        with pytest.raises(ContractError, match=repr(bad)):
            DealerParContract.parse(bad)
        with pytest.raises(ContractError, match=repr(bad)):
            format_par(0, [bad])


# -- sides ------------------------------------------------------------------------------------


def test_side_is_the_one_spelling_of_a_partnership():
    """Without this, par's side bidding first, proof trees' good guys and seats' sides could disagree."""
    assert [Seat(s).side for s in range(4)] == [Side.NS, Side.EW, Side.NS, Side.EW]
    assert Side.parse("n-s") is Side.NS and Side.parse("E/W") is Side.EW and Side.parse(1) is Side.EW
    assert Side.EW.seats == (Seat.E, Seat.W) and Side.NS.opponents is Side.EW
    assert f"{Side.EW}" == "EW" and f"{Side.EW:d}" == "1"
    assert Vulnerability.NS.is_vulnerable(Side.NS) and not Vulnerability.NS.is_vulnerable("EW")
    assert Vulnerability.EW.is_vulnerable("W") and Vulnerability.BOTH.sides == (Side.NS, Side.EW)
    for ns, ew in itertools.product((False, True), repeat=2):
        v = Vulnerability.of_sides(ns, ew)
        assert (v.is_vulnerable(Side.NS), v.is_vulnerable(Side.EW)) == (ns, ew)
    with pytest.raises(InvalidArgumentError, match="is a Seat, not a Side"):
        Side.parse(Seat.N)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="'NE'"):
        Side.parse("NE")


def test_proof_trees_read_their_good_guys_as_a_side():
    """Without this, prove(goodguys=...) would read sides its own way."""
    from ddsbind.proof import estimate_size

    ending = "N:A... K... Q... J..."
    assert estimate_size(ending, "NT", "W", goodguys=Side.EW) == estimate_size(ending, "NT", "W", goodguys="e-w")
    with pytest.raises(InvalidArgumentError, match="goodguys"):
        estimate_size(ending, "NT", "W", goodguys="NE")


# -- letters and hands as text: one home ------------------------------------------------------

#: The letter strings a module would copy instead of importing them from ddsbind.deal.
_LETTER_STRINGS = {"NESW", "SHDC", "AKQJT98765432", "23456789TJQKA", "\u2660\u2665\u2666\u2663", "\u2660"}


def test_seat_suit_and_rank_letters_are_spelled_in_one_module():
    """Without this, a module could spell the seats, suits or ranks again and drift from ddsbind.deal's."""
    import ast
    from pathlib import Path

    package = Path(ddsbind.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "_holdings.py" or "cribbage" in path.parts:  # cribbage is another game
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
                text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
                if text in _LETTER_STRINGS:
                    found.append(f"{path.relative_to(package)}:{node.lineno} {text!r}")
    assert found == []


def test_a_hand_is_written_as_text_in_one_place():
    """Without this, proof trees, LIN and PBN could write the same hand differently."""
    from ddsbind import Deal
    from ddsbind.deal import RANKS, RANKS_HIGH_FIRST, SUIT_SYMBOLS, SUITS

    deal = Deal.from_pbn("N:AK2... .AKT.. ..AK9. 5.4.3.2")
    assert deal.hand_text("E") == ".AKT.." and deal.hand_text("E", void="-") == "-.AKT.-.-"
    assert deal.to_pbn().split(" ")[3] == deal.hand_text(Seat.W) == "5.4.3.2"
    assert RANKS_HIGH_FIRST == RANKS[::-1] == "AKQJT98765432"
    assert [str(ddsbind.Card.from_index(i)) for i in range(0, 52, 13)] == [s + "A" for s in SUITS]
    assert Contract.parse("4" + SUIT_SYMBOLS[Strain.H]).strain is Strain.H


# -- the two wrong answers ---------------------------------------------------------------------


def test_a_vulnerability_is_not_read_as_declarer_vulnerable():
    """Without this, score(4, S, 0, 10, Vulnerability.EW) scored North's 4S as vulnerable: 620 instead of 420."""
    with pytest.raises(ContractError, match="give the declarer"):
        score(4, 0, 0, 10, vulnerable=Vulnerability.EW)
    assert score(4, 0, 0, 10, declarer="N", vulnerable=Vulnerability.EW).item() == 420
    assert score(4, 0, 0, 10, declarer=Seat.E, vulnerable=Vulnerability.EW).item() == 620
    assert score(4, 0, 0, 10, True).item() == 620 and score(4, 0, 0, 10, False).item() == 420
    with pytest.raises(ContractError, match="declarer is taken only with vulnerable="):
        score(4, 0, 0, 10, True, declarer="N")


@pytest.mark.parametrize(
    ("args", "what"),
    [
        ((4, Seat.N, 0, 10, False), "strain"),
        ((4, Vulnerability.BOTH, 0, 10, False), "strain"),
        ((Seat.S, 0, 0, 10, False), "level"),
        ((4, 0, 0, 10, [Vulnerability.NS, False]), "vulnerable"),
        ((4, 0, Strain.H, 10, False), "doubled"),
    ],
)
def test_an_enum_of_the_wrong_kind_is_refused(args, what):
    """Without this, a Seat where a strain is meant, or a Vulnerability where a bool is, would be read as its number."""
    with pytest.raises(ContractError, match=what):
        score(*args)
    assert score(4, Strain.S, 0, 10, False).item() == 420  # the right kind is welcome


def test_parsing_refuses_an_enum_of_another_kind():
    """Without this, Seat.parse(Vulnerability.BOTH) would give East and Strain.parse(Seat.S) diamonds."""
    with pytest.raises(InvalidArgumentError, match="is a Vulnerability, not a Seat"):
        Seat.parse(Vulnerability.BOTH)
    with pytest.raises(TrumpWrongError, match="is a Seat, not a Strain"):
        Strain.parse(Seat.S)
    with pytest.raises(InvalidArgumentError, match="is a Strain, not a Vulnerability"):
        Vulnerability.parse(Strain.H)
    with pytest.raises(ContractError):
        Contract.parse("4S").score(10, Seat.N)  # type: ignore[arg-type]
    assert Seat.parse(np.int8(2)) is Seat.S  # plain numbers stay DDS's numbers


@pytest.mark.parametrize(
    ("vulnerable", "tag"),
    [(Vulnerability.NONE, "None"), (Vulnerability.NS, "NS"), (Vulnerability.EW, "EW"), (Vulnerability.BOTH, "All")],
)
def test_write_deals_writes_the_vulnerability_it_is_given(tmp_path, vulnerable, tag):
    """Without this, write_deals(vulnerable=Vulnerability.BOTH) wrote [Vulnerable "NS"] (dealer's code read)."""
    from ddsbind.dealer.files import write_deals

    owners = ddsbind.Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432").owners()
    path = tmp_path / "out.pbn"
    write_deals(path, owners[None], dealer=Seat.W, vulnerable=vulnerable)
    text = path.read_text()
    assert f'[Vulnerable "{tag}"]' in text and '[Dealer "W"]' in text
    write_deals(path.with_suffix(".2.pbn"), owners[None], vulnerable=tag.lower())
    assert f'[Vulnerable "{tag}"]' in path.with_suffix(".2.pbn").read_text()


def test_write_deals_refuses_a_bare_vulnerability_number(tmp_path):
    """Without this, a number in dealer's order (1 = NS) would be written as DDS's (1 = both), or the reverse."""
    from ddsbind.dealer.files import write_deals

    owners = ddsbind.Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432").owners()
    with pytest.raises(InvalidArgumentError, match="is a number"):
        write_deals(tmp_path / "out.pbn", owners[None], vulnerable=1)  # type: ignore[arg-type]
    assert issubclass(InvalidArgumentError, Error)


# -- names ---------------------------------------------------------------------------------------


def test_solve_board_names_its_strain_and_leader_as_tricks_does():
    """Without this, solve_board(trump=, first=) and tricks(strain=) would name one thing two ways; old code breaks."""
    deal = "N:A... K... Q... J..."
    new = ddsbind.solve_board(deal, strain="NT", leader="N")
    moved = r"solve_board\(trump=..., first=...\) is now solve_board\(strain=..., leader=...\)"
    with pytest.warns(DeprecationWarning, match=moved):
        old = ddsbind.solve_board(deal, trump="NT", first="N")
    assert old.best_score == new.best_score == 1
    with pytest.raises(TypeError, match="give strain= only"):
        ddsbind.solve_board(deal, strain="NT", trump="NT", leader="N")
    with pytest.warns(DeprecationWarning):
        assert ddsbind.best_line(deal, trump="NT", first="N") == ddsbind.best_line(deal, strain="NT", leader="N")


@pytest.mark.parametrize("value", [Seat.N, Strain.NT, Vulnerability.NS, Side.EW, sides_of])
def test_the_table_types_name_their_public_home(value):
    """Without this, a pickle or a repr of a seat names ddsbind._table, a private module free to move."""
    import pickle

    import ddsbind.deal

    home = value if value is sides_of else type(value)
    assert home.__module__ == "ddsbind.deal" and getattr(ddsbind.deal, home.__name__) is home
    data = pickle.dumps(value)
    assert b"ddsbind._table" not in data and b"ddsbind.deal" in data
    assert pickle.loads(data) is value
