"""The single bridge between Pavlicek's and DDS's orders."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ddsbind import Seat, Vulnerability
from ddsbind.formats import order
from tests.support import RECORD0, TABLE0


def test_seat_codes_map_both_ways():
    """Without this, every seat in every Pavlicek file would be rotated."""
    # Pavlicek W N E S = 0 1 2 3; DDS N E S W = 0 1 2 3.
    assert order.dds_seats([0, 1, 2, 3]).tolist() == [3, 0, 1, 2]
    assert order.pav_seats([0, 1, 2, 3]).tolist() == [1, 2, 3, 0]


def test_strains_map_both_ways():
    """Without this, NT results would be read as spades and so on."""
    assert order.dds_strains([0, 1, 2, 3, 4]).tolist() == [4, 0, 1, 2, 3]
    assert order.pav_strains([0, 1, 2, 3, 4]).tolist() == [1, 2, 3, 4, 0]


def test_table_pair_matches_spec_record0():
    """Without this, ZDD nibbles would land in the wrong cells of a DDS table."""
    raw = np.frombuffer(RECORD0[13:], np.uint8)
    nib = np.empty(20, np.uint8)
    nib[0::2], nib[1::2] = raw & 15, raw >> 4
    np.testing.assert_array_equal(order.dds_tables(nib), TABLE0)
    np.testing.assert_array_equal(order.pav_tables(TABLE0), nib)


def test_table_pair_inverse_on_reference(reference):
    """Without this, converting a table there and back could scramble the reference hands' results."""
    _, tables = reference
    np.testing.assert_array_equal(order.dds_tables(order.pav_tables(tables)), tables)
    pav = order.pav_tables(tables)
    # NT by West (Pavlicek nibble 0) is DDS [NT=4, W=3]; clubs by South (nibble 19) is DDS [C=3, S=2].
    np.testing.assert_array_equal(pav[:, 0], tables[:, 4, 3])
    np.testing.assert_array_equal(pav[:, 19], tables[:, 3, 2])


def test_packed_seat_conversion_matches_scalar():
    """Without this, the fast ZBD encoder's packed seat conversion could differ from the reference pair."""
    seats = np.array(np.meshgrid(*[np.arange(4)] * 4, indexing="ij")).reshape(4, -1).T.astype(np.uint8)
    words = np.ascontiguousarray(seats).view("<u4")[:, 0]
    got = order.pav_seats_packed(words).astype("<u4").view(np.uint8).reshape(-1, 4)
    np.testing.assert_array_equal(got, order.pav_seats(seats))


def test_the_board_cycle_kept_here_is_the_types_and_says_so():
    """Without this, code written against ``ddsbind.formats.board_dealer`` would break, or silently keep a copy."""
    for n in (1, 7, 16, 17, 300):
        with pytest.warns(DeprecationWarning, match="Seat.dealer_of_board"):
            assert order.board_dealer(n) is Seat.dealer_of_board(n)
        with pytest.warns(DeprecationWarning, match="Vulnerability.of_board"):
            assert order.board_vulnerability(n) is Vulnerability.of_board(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ddsbind.formats import board_dealer

        assert board_dealer(2) is Seat.E
