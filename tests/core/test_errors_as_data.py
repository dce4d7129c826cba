"""Errors as data (issue 45, item 5): a DDS code in a message only where DDS says it.

Oracle: DDS itself.  The DLL layer hands DDS's ``SolveBoard`` a deal with
the spade ace in every hand and returns -4, DDS's ``RETURN_DUPLICATE_CARDS``;
every other fault here is found in Python, in something DDS never takes (a
hand's text, a card list, a strain word, a token of a play), and keeps its
class for ``except`` while its message names the fault alone.
"""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable

import pytest

import ddsbind
from ddsbind import dll, errors
from ddsbind.formats.games import read_games
from ddsbind.game import Play
from tests.support import REPO

DEAL = ddsbind.Deal.from_pbn("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3")


@pytest.mark.parametrize(
    ("make", "cls", "words"),
    [
        (lambda: ddsbind.Hand("AKQJT98765432.2.-.-"), errors.CardCountError, "holds 14 cards"),
        (lambda: ddsbind.Hand("AK32.KJ4.Q98"), errors.PBNError, "must have 4 suits"),
        (lambda: ddsbind.Deal.from_hands({"N": ["SA", "SK"], "E": ["SA"]}), errors.DuplicateCardsError, "SA"),
        (lambda: ddsbind.Card.parse("SZ"), errors.SuitOrRankError, "'SZ'"),
        (lambda: ddsbind.tricks([DEAL], "X", "N"), errors.TrumpWrongError, "strain 'X'"),
        (lambda: ddsbind.solve_board(DEAL, "spadez", "N"), errors.TrumpWrongError, "strain 'spadez'"),
        (lambda: Play(DEAL, "NT", "N").play("SX"), errors.PlayFaultError, "'SX' is not a card"),
    ],
)
def test_a_fault_dds_never_saw_keeps_its_class_without_a_dds_code(
    make: Callable[[], object], cls: type[errors.DDSError], words: str
) -> None:
    """Without this, a typo in a hand or a strain word reads "(DDS code -99)" or "(DDS code -18)": a code DDS
    never gave, sending the user to DDS's documentation for a mistake in their own text."""
    with pytest.raises(cls) as info:
        make()
    exc = info.value
    assert words in str(exc)
    assert "DDS code" not in str(exc) and exc.dds_message not in str(exc)
    assert exc.dds is False and exc.code == cls.code  # the class and its code stay, for except and for logs
    assert pickle.loads(pickle.dumps(exc)).dds is False and str(pickle.loads(pickle.dumps(exc))) == str(exc)


def test_a_bad_card_in_a_files_play_is_named_without_a_dds_code(tmp_path) -> None:
    """Without this, a misspelt card in a PBN [Play] section is reported with DDS's play-fault code, as if DDS
    had been asked to play it."""
    text = (REPO / "tests/data/records/bbohelper.pbn").read_text(encoding="utf-8")
    bad = tmp_path / "bad.pbn"
    bad.write_text(text.replace("S6\tS3\tS8\tST", "SX\tS3\tS8\tST", 1), encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_games(bad)
    said = [str(w.message) for w in caught if issubclass(w.category, errors.FieldWarning)]
    assert any("'SX' is not a card" in m for m in said), said
    assert not any("DDS code" in m for m in said), said


def test_a_fault_dds_returns_keeps_dds_code() -> None:
    """Without this, the rule above would strip the code from what DDS's own SolveBoard refuses: oracle, the
    code the DLL layer returns for the same struct."""
    dl, fut = dll.deal(), dll.futureTricks()
    dl.trump, dl.first = 4, 0
    for hand in range(4):
        dl.remainCards[hand][0] = 1 << 14  # the spade ace in every hand
    rc = dll.SolveBoard(dl, -1, 3, 1, fut, 0)
    assert rc == dll.RETURN_DUPLICATE_CARDS
    with pytest.raises(errors.DuplicateCardsError) as info:
        dll.raising.SolveBoard(dl, -1, 3, 1, fut, 0)
    assert info.value.dds is True and info.value.code == rc
    assert f"(DDS code {rc})" in str(info.value) and info.value.dds_message in str(info.value)
    with pytest.raises(errors.TrumpWrongError, match=r"\(DDS code -18\)"):
        ddsbind.solve_board(DEAL, 7, "N")  # DDS's own trump number out of range: what DDS answers -18 for
