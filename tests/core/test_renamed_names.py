"""One name per idea: ``strain``, ``leader``, ``vulnerable`` (a Vulnerability), ``declarer_vulnerable`` (a bool).

Code written with the old names (``trump=``, ``first=``, ``vul=``,
``vulnerable=True``, ``.trump``) keeps working and is told, by a
DeprecationWarning, what to write now.
"""

from __future__ import annotations

import json
import warnings

import pytest

from ddsbind import Card, Deal, Seat, Strain, Vulnerability
from ddsbind.board.boards import deal_board, position
from ddsbind.dealer import scoring as dealer_scoring
from ddsbind.dealer.statistics import ContractTally, contract_report, results_report
from ddsbind.errors import ContractError
from ddsbind.game import Play, play_out, trick_winner
from ddsbind.proof import ProofTree, estimate_size, prove
from ddsbind.record import GameRecord
from ddsbind.scoring import Contract, score

ENDING = "N:A... K... Q... J..."
FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
DEAL = Deal.from_pbn(FULL)
TRICK = [Card.parse(c) for c in ("S2", "H3", "SA", "S4")]


def _quiet(call):
    """``call()`` with no warning allowed: the new spelling must not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


@pytest.mark.parametrize(
    ("name", "new", "old", "moved"),
    [
        (
            "trick_winner",
            lambda: trick_winner(TRICK, Seat.N, strain=Strain.H),
            lambda: trick_winner(TRICK, Seat.N, trump=Strain.H),
            r"trick_winner\(trump=...\) is now trick_winner\(strain=...\)",
        ),
        (
            "Play",
            lambda: Play(DEAL, strain="S", leader="E").strain,
            lambda: Play(DEAL, trump="S", leader="E").strain,
            r"Play\(trump=...\) is now Play\(strain=...\)",
        ),
        (
            "play_out",
            lambda: play_out(Deal.from_pbn(ENDING), strain="NT", leader="N", cards="SA"),
            lambda: play_out(Deal.from_pbn(ENDING), trump="NT", leader="N", cards="SA"),
            r"play_out\(trump=...\) is now play_out\(strain=...\)",
        ),
        (
            "prove",
            lambda: prove(ENDING, strain="NT", leader="N").to_dict(),
            lambda: prove(ENDING, trump="NT", first="N").to_dict(),
            r"prove\(trump=..., first=...\) is now prove\(strain=..., leader=...\)",
        ),
        (
            "estimate_size",
            lambda: estimate_size(ENDING, strain="NT", leader="N"),
            lambda: estimate_size(ENDING, trump="NT", first="N"),
            r"estimate_size\(trump=..., first=...\) is now estimate_size\(strain=..., leader=...\)",
        ),
        (
            "the board's position",
            lambda: position(deal_board(FULL), strain="S", declarer="N").strain,
            lambda: position(deal_board(FULL), trump="S", declarer="N").strain,
            r"position\(trump=...\) is now position\(strain=...\)",
        ),
        (
            "ContractTally",
            lambda: ContractTally(["4SN"], vulnerable="NS").vulnerable,
            lambda: ContractTally(["4SN"], vul="NS").vulnerable,
            r"ContractTally\(vul=...\) is now ContractTally\(vulnerable=...\)",
        ),
        (
            "contract_report",
            lambda: contract_report(_TABLES, ["4SN"], vulnerable="NS").mean_score,
            lambda: contract_report(_TABLES, ["4SN"], vul="NS").mean_score,
            r"contract_report\(vul=...\) is now contract_report\(vulnerable=...\)",
        ),
        (
            "results_report",
            lambda: results_report(_TABLES[:, 0, :1], ["4SN"], vulnerable="NS").mean_score,
            lambda: results_report(_TABLES[:, 0, :1], ["4SN"], vul="NS").mean_score,
            r"results_report\(vul=...\) is now results_report\(vulnerable=...\)",
        ),
        (
            "the dealer language's score",
            lambda: dealer_scoring.score(declarer_vulnerable=True, level=4, strain=0, tricks=10).tolist(),
            lambda: dealer_scoring.score(vulnerable=True, level=4, strain=0, tricks=10).tolist(),
            r"score\(vulnerable=...\) is now score\(declarer_vulnerable=...\)",
        ),
        (
            "score with a bool as vulnerable",
            lambda: score(4, 0, 0, 10, declarer_vulnerable=True).tolist(),
            lambda: score(4, 0, 0, 10, vulnerable=True).tolist(),
            r"score\(vulnerable=<a bool>\) is now score\(declarer_vulnerable=<a bool>\)",
        ),
        (
            "score with a Vulnerability in the bool's place",
            lambda: score(4, 0, 0, 10, None, "E", vulnerable=Vulnerability.EW).tolist(),
            lambda: score(4, 0, 0, 10, Vulnerability.EW, "E").tolist(),
            r"score\(..., <Vulnerability.EW: 3>\) is now score\(..., vulnerable=<Vulnerability.EW: 3>\)",
        ),
        (
            "Contract.score with a bool as vulnerable",
            lambda: Contract.parse("4S").score(10, declarer_vulnerable=True),
            lambda: Contract.parse("4S").score(10, vulnerable=True),
            r"Contract.score\(vulnerable=<a bool>\) is now Contract.score\(declarer_vulnerable=<a bool>\)",
        ),
        (
            "Contract.scores with a bool in vulnerable's place",
            lambda: Contract.parse("4S").scores([9, 10], declarer_vulnerable=True).tolist(),
            lambda: Contract.parse("4S").scores([9, 10], True).tolist(),
            r"Contract.score\(vulnerable=<a bool>\)",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and " is now " not in v and "\\" not in v else "",
)
def test_an_old_keyword_still_works_and_warns(name, new, old, moved):
    """Code calling with trump=, first=, vul= or vulnerable=<bool> gets the same answer and a warning naming the new
    spelling, so it can be updated before the old names go."""
    want = _quiet(new)
    with pytest.warns(DeprecationWarning, match=moved):
        got = old()
    assert got == want, name


_TABLES = __import__("numpy").array([[[10, 3, 10, 3]] * 5, [[9, 4, 9, 4]] * 5], dtype="int8")


def test_an_old_attribute_still_reads_and_warns():
    """Code reading .trump (Play, GameRecord, ProofTree) or ContractTally.vul still reads the value, warned."""
    game = GameRecord(FULL, contract="4S", declarer=Seat.N)
    tree = prove(ENDING, "NT", "N")
    objects = [
        (Play(DEAL, "H", "E"), "trump", "strain", Strain.H),
        (game, "trump", "strain", Strain.S),
        (tree, "trump", "strain", Strain.NT),
        (ContractTally(["4SN"], "EW"), "vul", "vulnerable", Vulnerability.EW),
    ]
    for thing, old, new, value in objects:
        assert _quiet(lambda t=thing, n=new: getattr(t, n)) is value
        kind = type(thing).__name__
        with pytest.warns(DeprecationWarning, match=rf"{kind}\.{old} is now {kind}\.{new}"):
            assert getattr(thing, old) is value


def test_both_spellings_at_once_are_refused():
    """Giving the old and the new name together is a mistake to show, not a silent pick of one."""
    with pytest.raises(TypeError, match="give strain= only"):
        prove(ENDING, strain="NT", leader="N", trump="NT")
    with pytest.raises(TypeError, match=r"Play\(\) got trump= and strain="):
        Play(DEAL, strain="S", trump="S", leader="E")
    with pytest.raises(ContractError, match="give one"):
        score(4, 0, 0, 10, True, "N", vulnerable="NS")
    with pytest.warns(DeprecationWarning), pytest.raises(ContractError, match="give one"):
        score(4, 0, 0, 10, True, vulnerable=False)


def test_vulnerable_is_a_vulnerability_and_declarer_vulnerable_a_bool():
    """One meaning per name: vulnerable= is the board's (read for declarer), declarer_vulnerable= declarer's side's."""
    four_spades = Contract.parse("4S by N")
    assert _quiet(lambda: four_spades.score(10, "NS")) == 620
    assert _quiet(lambda: four_spades.score(10, vulnerable=Vulnerability.EW)) == 420
    assert _quiet(lambda: four_spades.score(10, declarer_vulnerable=True)) == 620
    assert _quiet(lambda: four_spades.score(10)) == 420
    assert _quiet(lambda: score(4, 0, 0, 10, declarer="N", vulnerable="NS").item()) == 620
    with pytest.raises(ContractError, match="declarer_vulnerable"):
        score(4, 0, 0, 10)


def test_a_proof_tree_written_with_the_old_key_reads_back():
    """A tree saved as JSON before "trump" became "strain" still loads, the same tree."""
    tree = prove(ENDING, "NT", "N")
    doc = tree.to_dict()
    assert "strain" in doc and "trump" not in doc
    doc["trump"] = doc.pop("strain")
    assert ProofTree.from_json(json.dumps(doc)) == tree
