"""ddsbind.Hand: one hand on its own, counted by hand from its text and against the batch evaluation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddsbind
from ddsbind import hands
from ddsbind.deal import Deal, Seat
from ddsbind.errors import CardCountError, DuplicateCardsError, InvalidArgumentError, PBNError
from ddsbind.hand import Hand
from ddsbind.hands import LTC_TOPS

HONOURS = "AKQJT"


def _by_text(text: str) -> tuple[int, int, int, int]:
    """hcp, controls, dealer's losers and ltc in hundredths, read off the hand's text suit by suit."""
    hcp = controls = losers = ltc = 0
    for suit in text.split("."):
        hcp += sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in suit)
        controls += sum({"A": 2, "K": 1}.get(c, 0) for c in suit)
        top = min(len(suit), 3)
        losers += top - ("A" in suit) - ("K" in suit and top >= 2) - ("Q" in suit and top >= 3)
        ltc += LTC_TOPS["".join(c if c in HONOURS else "x" for c in suit[:3])]
    return hcp, controls, losers, ltc


def test_worked_example():
    """Without this, a user reading one hand would get wrong points, losers, a loser count in hundredths or no shape."""
    h = ddsbind.Hand("AK32.KJ4.Q98.A32")
    assert (h.hcp, h.controls, h.losers, h.ltc) == (17, 6, 7, 7.5)
    assert isinstance(h.ltc, float)
    assert h.lengths == (4, 3, 3, 3) and h.shape == "4-3-3-3" and h.pattern == "4-3-3-3"
    odd = Hand("K2.Q76.AJT9832.5")
    assert odd.shape == "2-3-7-1" and odd.pattern == "7-3-2-1" and len(odd) == 13


def test_text_forms():
    """Without this, a hand would not print as PBN writes it, nor as a diagram, nor read back from its repr."""
    h = Hand("AKQ2.KJ4..A10983")
    assert str(h) == "AKQ2.KJ4..AT983" and h.text("-") == "AKQ2.KJ4.-.AT983"
    assert h.diagram().splitlines() == ["S AKQ2", "H KJ4", "D -", "C AT983"]
    assert eval(repr(h), {"Hand": Hand}) == h and hash(eval(repr(h), {"Hand": Hand})) == hash(h)
    assert [str(c) for c in Hand("A.-.-.2").cards] == ["SA", "C2"]


def test_html():
    """Without this, a notebook would show a hand as a plain repr, or lose its void or points."""
    html = Hand("AKQ2.KJ4..AT9832")._repr_html_()
    assert "17 HCP, 4-3-0-6" in html and "&mdash;" in html and "\u2660" in html


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("AKQ2.KJ4.T98.A3X", PBNError, "'X' in C"),
        ("AKQ2.KJ4.T98.AA32", DuplicateCardsError, "lists CA twice"),
        ("AKQJT98.KJ4.T98.A32", CardCountError, "holds 16 cards"),
        ("AKQ2.KJ4.T98", PBNError, "must have 4 suits"),
    ],
)
def test_wrong_hand_is_one_error(text, error, words):
    """Without this, a mistyped hand would crash, pass silently, or give an error that does not name it."""
    with pytest.raises(error) as caught:
        Hand(text)
    assert isinstance(caught.value, ddsbind.Error)
    assert repr(text) in str(caught.value) and words in str(caught.value)


def test_not_a_string():
    """Without this, a hand given as a list or number would crash inside the parser instead of naming the fault."""
    with pytest.raises(ddsbind.Error, match="must be a string"):
        Hand(["SA"])  # type: ignore[arg-type]


def test_from_hands_with_one_hand_says_so():
    """Without this, one hand given to Deal.from_hands fails with a DDS code about currentTrickSuit."""
    with pytest.raises(InvalidArgumentError, match=r"four hands.*ddsbind\.Hand"):
        Deal.from_hands("AKQ2.KJ4.T98.A32")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="hand E is one string"):
        Deal.from_hands([["SA"], "AKQ2.KJ4.T98.A32", [], []])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(Seat)))
def test_matches_text_and_batch(seed, seat):
    """Without this, a hand on its own could disagree with its seat in a deal, the batch API or its own cards."""
    deal = Deal.random(seed)
    h = Hand.from_deal(deal, seat)
    assert h == Hand(deal.hand_text(seat)) and str(h) == deal.hand_text(seat)
    assert (h.hcp, h.controls, h.losers, round(h.ltc * 100)) == _by_text(str(h))
    owners = deal.owners()
    assert h.ltc * 100 == int(hands.ltc(owners)[seat]) and h.lengths == deal.lengths(seat)
    assert (h.hcp, h.controls, h.losers) == (deal.hcp(seat), deal.controls(seat), deal.losers(seat))
    assert np.array_equal(h.owners() == 0, owners == seat)
