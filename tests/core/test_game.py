"""ddsbind.game, the one model of play: leaders, card strings, vulnerability, the current-trick checks."""

from __future__ import annotations

import pytest

from ddsbind import Card, Deal, Seat, Vulnerability, dll, errors, game
from tests.support import without

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


@pytest.mark.parametrize("value", ["X", 4, -1, True, 2.0, None])
def test_a_bad_leader_is_first_wrong_and_a_bad_seat_is_not(value):
    """The leader is DDS's ``first`` (FirstWrongError, -19); any other seat argument has no DDS code."""
    with pytest.raises(errors.FirstWrongError):
        game.parse_leader(value)
    with pytest.raises(errors.InvalidArgumentError):
        Seat.parse(value, "first")  # no magic word: the caller chooses the class
    assert game.parse_leader("w") is Seat.W


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C4CACJ", ["C4", "CA", "CJ"]),
        ("C10CA", ["CT", "CA"]),
        ("SA, S10,HT", ["SA", "ST", "HT"]),
        ("  sa\ts2 \n", ["SA", "S2"]),
        ("", []),
    ],
)
def test_card_strings(text, expected):
    """Run together, separated by commas or white space, ``10`` or ``T``: one parser for every entry point."""
    assert game.parse_cards(text) == [Card.parse(c) for c in expected]


def test_a_bad_card_names_its_position_and_class():
    """A play's bad card is a PlayFaultError at its play index; a current trick's is SuitOrRankError (DDS -12)."""
    with pytest.raises(errors.PlayFaultError) as info:
        game.parse_cards("SA,HK,X9")
    assert (info.value.item, info.value.index) == ("play", 2)
    with pytest.raises(errors.SuitOrRankError) as info2:
        game.parse_trick(["SA", "Z"])
    assert (info2.value.item, info2.value.index) == ("current trick card", 1)
    with pytest.raises(errors.PlayFaultError):
        game.parse_cards(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("None", 0),
        ("love", 0),
        ("-", 0),
        ("", 0),
        ("All", 1),
        ("both", 1),
        ("NS", 2),
        ("N-S", 2),
        ("n/s", 2),
        ("EW", 3),
        ("E-W", 3),
        (3, 3),
    ],
)
def test_vulnerability_spellings(value, expected):
    assert Vulnerability.parse(value) == expected


@pytest.mark.parametrize("value", ["sideways", 4, -1, True, 1.0])
def test_bad_vulnerability(value):
    with pytest.raises(errors.InvalidArgumentError, match="vulnerab"):
        Vulnerability.parse(value)


def test_current_trick_checks_name_the_card_before_the_counts():
    """W "led" SA still in its hand on a full deal: named as the played card, not as a card count."""
    with pytest.raises(errors.PlayedCardError, match="SA is on the current trick and still held by W"):
        game.check_current_trick(Deal.from_pbn(FULL), Seat.W, [Card.parse("SA")])
    with pytest.raises(errors.CardCountError, match="at most 3"):
        game.check_current_trick(Deal.from_pbn(FULL), Seat.W, [Card.parse(c) for c in ("SA", "SK", "SQ", "SJ")])
    with pytest.raises(errors.CardCountError, match="one card fewer"):
        game.check_current_trick(without(FULL, "SQ"), Seat.W, [Card.parse("SQ")])
    game.check_current_trick(without(FULL, "SQ"), Seat.N, [Card.parse("SQ")])


def test_the_dll_layer_runs_the_same_checks_in_dds_order(in_tmp_cwd):
    """SolveBoard (DLL) with one card on the trick: hand lengths first (DDS's order), then the played card."""
    fut = dll.futureTricks()
    uneven = without(FULL, "SQ")  # N played SQ ...
    dl = dll.deal(trump=4, first=3, remainCards=uneven.remain_cards.tolist())  # ... but W is said to lead
    dl.currentTrickSuit[0], dl.currentTrickRank[0] = 0, 12
    assert dll.SolveBoard(dl, -1, 1, 1, fut, 0) == dll.RETURN_CARD_COUNT
    dl.first = 0
    dl.currentTrickSuit[0], dl.currentTrickRank[0] = 0, 14  # SA, which W holds
    assert dll.SolveBoard(dl, -1, 1, 1, fut, 0) == dll.RETURN_PLAYED_CARD
    assert "SA is on the current trick and still held by W" in dll.last_error()[2]
    assert not (in_tmp_cwd / "dump.txt").exists()


def test_play_out_plays_through_the_same_checks():
    """A revoke mid-play is refused with its 0-based position; tricks are numbered from the deal's size."""
    with pytest.raises(errors.PlayFaultError, match="revoke") as info:
        game.play_out(Deal.from_pbn(FULL), "NT", "N", "SQ S8 SK HA")
    assert info.value.index == 3
    tricks = game.play_out(Deal.from_pbn(FULL), "NT", "N", "SQ,S8,SK,SA,S2")
    assert [t.number for t in tricks] == [1, 2] and tricks[0].winner is Seat.W
