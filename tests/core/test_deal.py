"""Deal, Card, Seat and Strain: parsing, formatting, identity and the owner/mask conversions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsbind import Card, Deal, Seat, Strain, errors
from ddsbind.deal import masks_to_owners, owners_to_masks

PBN = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"

deals = st.integers(min_value=0, max_value=2**63).map(Deal.random)


def test_pbn_any_first_hand_and_voids():
    """A PBN string starting with any seat, with '-' or empty voids and '10', reads the same deal."""
    d = Deal.from_pbn(PBN)
    west_first = "W:AT942.AQ4.32.KJ3 QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652"
    assert Deal.from_pbn(west_first) == d
    assert d.to_pbn("W") == west_first
    v = Deal.from_pbn("E:-.AK.QJ.10 AK.Q.K.J QJ.J.A.Q T9.T.T.A")
    assert v.hand("E") == [Card.parse(c) for c in ("HA", "HK", "DQ", "DJ", "CT")]
    assert v.to_pbn("E") == "E:.AK.QJ.T AK.Q.K.J QJ.J.A.Q T9.T.T.A"


def test_masks_follow_dds_convention():
    """remainCards has bit r for rank r, hands N E S W and suits S H D C, as DDS reads it."""
    d = Deal.from_pbn(PBN)
    m = d.remain_cards
    assert m.dtype == np.uint32 and m.shape == (4, 4)
    assert m[Seat.N, Strain.S] == (1 << 12) | (1 << 11) | (1 << 6)  # QJ6
    assert m[Seat.W, Strain.H] == (1 << 14) | (1 << 12) | (1 << 4)  # AQ4
    assert d.holder("CA") == Seat.S


def test_from_hands_and_owners():
    """Deals built from card lists or owner arrays equal the PBN-built deal."""
    d = Deal.from_pbn(PBN)
    hands = {s.name: [str(c) for c in d.hand(s)] for s in Seat}
    assert Deal.from_hands(hands) == d
    assert Deal.from_hands([d.hand(s) for s in Seat]) == d
    assert Deal.from_owners(d.owners()) == d
    assert hash(Deal.from_owners(d.owners())) == hash(d)


@pytest.mark.parametrize(
    "pbn,error,words",
    [
        ("N:AKQ... J... T... 9...", errors.CardCountError, "N=3 E=1"),
        ("N:A... A... K... Q...", errors.DuplicateCardsError, "SA"),
        ("X:A... K... Q... J...", errors.PBNError, "must start with"),
        ("N:A... K... Q...", errors.PBNError, "4 hands"),
        ("N:A.. K... Q... J...", errors.PBNError, "4 suits"),
        ("N:AA... K... Q... J...", errors.DuplicateCardsError, "SA twice"),
        ("N:... ... ... ...", errors.ZeroCardsError, "no cards"),
    ],
)
def test_bad_deals_name_the_fault(pbn, error, words):
    """An impossible deal raises the DDS error class naming the card or hands at fault."""
    with pytest.raises(error, match=words):
        Deal.from_pbn(pbn)


def test_partial_deal_and_mid_trick_lengths():
    """End positions with equal hands are deals; one card fewer for hands on the trick is allowed."""
    end = Deal.from_pbn("N:AK... QJ... T9... 87...")
    assert end.hand_lengths == (2, 2, 2, 2) and end.n_cards == 8 and not end.is_full
    mid = Deal.from_pbn("N:K... QJ... T9... 87...")
    assert mid.hand_lengths == (1, 2, 2, 2)


def test_card_parse_and_index():
    """Cards parse from 'SA', 'h10', and index SA=0 .. C2=51 like Pavlicek's card order."""
    assert Card.parse("h10") == Card(1, 10)
    assert Card.parse("SA").index == 0 and Card.parse("C2").index == 51
    assert Card.from_index(13) == Card.parse("HA")
    with pytest.raises(errors.SuitOrRankError, match="not a card"):
        Card.parse("Z9")


@settings(max_examples=200, deadline=None)
@given(deals)
def test_round_trips(d):
    """PBN text, owner arrays and masks all round-trip a random deal exactly."""
    assert Deal.from_pbn(d.to_pbn()) == d
    assert Deal.from_pbn(d.to_pbn("S")) == d
    assert Deal.from_owners(d.owners()) == d
    assert np.array_equal(masks_to_owners(owners_to_masks(d.owners())), d.owners())


@settings(max_examples=100, deadline=None)
@given(deals, st.integers(0, 3))
def test_rotation_moves_hands_clockwise(d, k):
    """rotated(k) gives seat s's cards to seat s+k."""
    r = d.rotated(k)
    for s in Seat:
        assert r.hand(s.next(k)) == d.hand(s)


def test_bulk_owner_mask_conversion_shapes():
    """owners_to_masks/masks_to_owners work on (N, 52) and (N, 4, 4) arrays in one call."""
    owners = np.stack([Deal.random(i).owners() for i in range(50)])
    masks = owners_to_masks(owners)
    assert masks.shape == (50, 4, 4)
    assert np.array_equal(masks_to_owners(masks), owners)
    bad = masks.copy()
    bad[7, 1, 0] |= bad[7, 0, 0]
    with pytest.raises(errors.DuplicateCardsError):
        masks_to_owners(bad)


@pytest.mark.parametrize("board", [True, False, "7", 7.0, 0, -1])
def test_diagram_refuses_a_board_that_is_no_board_number(board):
    """diagram(board=True) is refused, not headed "Board True": a board number is an int from 1."""
    with pytest.raises(errors.InvalidArgumentError, match="is not a board number"):
        Deal.from_pbn("N:A... K... Q... J...").diagram(board=board)


def test_diagram_heads_an_int_board_number():
    """A numpy or Python int board number heads the diagram as written (oracle: the string by hand)."""
    deal = Deal.from_pbn("N:A... K... Q... J...")
    assert deal.diagram(board=np.int64(7), dealer="S").splitlines()[0] == "Board 7, dealer S"


@pytest.mark.parametrize(
    "word, strain",
    [("SPADES", Strain.S), ("hearts", Strain.H), ("Diamond", Strain.D), ("clubs", Strain.C), ("notrump", Strain.NT)],
)
def test_strain_parse_reads_names_as_seat_parse_reads_north(word: str, strain: Strain) -> None:
    """Without this, Strain.parse took NOTRUMP but refused SPADES while Seat.parse takes NORTH: the oracle is
    Seat.parse's own rule (letter or name, any case), issue 47 item 16."""
    assert Seat.parse("NORTH") is Seat.N
    assert Strain.parse(word) is strain
    with pytest.raises(errors.TrumpWrongError):
        Strain.parse("spadez")


# -- the rules of the table ---------------------------------------------------------------------


def test_the_seats_around_the_table():
    """Without this, a leader, a declarer or a dummy found from another seat would sit in the wrong chair."""
    # As a player says it: North's left-hand opponent is East, right-hand West, partner South.
    assert (Seat.N.lho, Seat.N.rho, Seat.N.partner) == (Seat.E, Seat.W, Seat.S)
    assert (Seat.W.lho, Seat.W.rho, Seat.W.partner) == (Seat.N, Seat.S, Seat.E)
    for seat in Seat:
        assert seat.lho.rho is seat and seat.lho.lho is seat.partner and seat.rho.side is seat.lho.side
        assert seat.partner.side is seat.side and seat.lho.side is seat.side.opponents
        for first in Seat:
            k = seat.steps_from(first)
            assert 0 <= k <= 3 and first.next(k) is seat
    # A trick led by W: the third card (index 2) is E's, and N plays the second.
    assert (Seat.E.steps_from(Seat.W), Seat.N.steps_from(Seat.W)) == (2, 1)


def test_a_board_number_fixes_its_dealer_and_vulnerability():
    """Without this, every file without Dealer/Vulnerable tags would be scored at the wrong vulnerability."""
    from ddsbind import Vulnerability

    # The duplicate board cycle as printed on the boards (Laws, Law 2): dealer, then vulnerable.
    printed = (
        "N None, E NS, S EW, W All, N NS, E EW, S All, W None, N EW, E All, S None, W NS, N All, E None, S NS, W EW"
    )
    for board, spot in enumerate(printed.split(", "), start=1):
        dealer, vul = spot.split()
        for n in (board, board + 16, board + 160):
            assert Seat.dealer_of_board(n) is Seat.parse(dealer), n
            assert Vulnerability.of_board(n) is Vulnerability.parse(vul), n
    assert Seat.dealer_of_board(np.int64(6)) is Seat.E and Vulnerability.of_board(np.uint8(4)) is Vulnerability.BOTH
    for bad in ("3", 2.0, None, True):
        with pytest.raises(errors.InvalidArgumentError, match="board number") as info:
            Seat.dealer_of_board(bad)  # type: ignore[arg-type]
        assert repr(bad) in str(info.value)
        with pytest.raises(errors.InvalidArgumentError, match="board number"):
            Vulnerability.of_board(bad)  # type: ignore[arg-type]


def test_the_array_forms_agree_with_the_seats_and_vulnerabilities():
    """Without this, par over many tables could score a side at the other side's vulnerability."""
    from ddsbind import Side, Vulnerability
    from ddsbind.deal import sides_of, sides_vulnerable

    seats = np.array([int(s) for s in Seat for _ in Vulnerability])
    vuls = np.array([int(v) for _ in Seat for v in Vulnerability])
    sides = sides_of(seats)
    assert sides.tolist() == [int(Seat(s).side) for s in seats]
    assert sides_of([4, 5]).tolist() == [Side.NS, Side.EW]  # DDS par's pair codes
    expected = [Vulnerability(v).is_vulnerable(Seat(s)) for s, v in zip(seats, vuls, strict=True)]
    assert sides_vulnerable(sides, vuls).tolist() == expected
    assert sides_vulnerable(sides_of(seats.reshape(4, 4)), vuls.reshape(4, 4)).ravel().tolist() == expected
