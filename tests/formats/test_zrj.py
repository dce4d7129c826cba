"""ZRJ played-deal records (our reading): fields, raw bits, validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsbind.deal import Card, Deal
from ddsbind.errors import FormatError
from ddsbind.formats import PlayedDeal, decode_zrj, encode_zrj
from ddsbind.formats.zrj import call_text, play_byte, play_card, zrj_owners
from ddsbind.game import Vulnerability

DEAL = Deal.from_pbn("N:J873.J42.Q65.KT2 AT652.A976.AJ82.- Q4.85.KT9.A87643 K9.KQT3.743.QJ95")


def _played(**kw) -> PlayedDeal:
    base = dict(owners=DEAL.owners(), board_byte=0, contract=5 * 4 + 3, tricks=10, declarer=1, initial_passes=0)
    base.update(kw)
    return PlayedDeal(**base)


def test_deal_bytes_twos_first_clubs_low():
    """Without this, ZRJ deals (a different card order from ZBD) would be scrambled."""
    rec = encode_zrj([_played()])[0]
    # byte 12 = aces; bit pairs C D H S = 0..3: CA is South (3), DA East (2), HA East (2), SA East (2).
    assert rec[12] == 3 | 2 << 2 | 2 << 4 | 2 << 6
    # byte 0 = twos: C2 North (1), D2 East (2), H2 North (1), S2 East (2)
    assert rec[0] == 1 | 2 << 2 | 1 << 4 | 2 << 6
    assert Deal.from_owners(zrj_owners(rec[None])[0]) == DEAL


def test_header_fields():
    """Without this, contract, declarer, tricks and passes would be packed into the wrong bits."""
    p = _played(board_byte=6, contract=5 * 3 + 4 + 40, tricks=9, declarer=2, initial_passes=2)
    rec = encode_zrj([p])[0]
    assert rec[13] == 6 and rec[14] == 59
    assert rec[15] == 9 << 4 | 3 << 2 | 2  # South = seat code 3
    assert rec[16] == 18 and rec[17] == 18
    q = decode_zrj(rec)[0]
    assert (q.board, q.level, q.strain, q.doubled, q.dealer, q.vulnerability) == (7, 3, 4, 1, 2, Vulnerability.BOTH)


def test_no_board_number_uses_cycle():
    """Without this, boards 240-255 would lose their dealer and vulnerability."""
    q = decode_zrj(encode_zrj([_played(board_byte=241)]))[0]
    assert q.board is None
    assert (q.dealer, q.vulnerability) == (1, Vulnerability.NS)  # board (241 mod 16) + 1 = 2


def test_calls_and_plays_keep_punctuation_bits():
    """Without this, alerts and !/? marks (unknown-meaning bits) would be lost on a round trip."""
    calls = [0b11_001_011, 0b01_000_101, 0b10_000_110, 0b00_000_111, 5, 5, 5]
    plays = [play_byte("HK", 3), play_byte("H2"), play_byte("HA", 1), play_byte("C3", 2)]
    p = _played(calls=calls, plays=plays)
    rec = encode_zrj([p])
    q = decode_zrj(rec)[0]
    assert q == p
    assert [call_text(c) for c in q.calls] == ["1S*", "P!", "X?", "R", "P", "P", "P"]
    assert [str(play_card(b)) for b in q.plays] == ["HK", "H2", "HA", "C3"]
    assert play_byte(Card.parse("SA")) & 63 == 4 * 12 + 3


def test_truncated_play_string():
    """Without this, a long auction plus 52 plays could not be stored as Pavlicek does (truncated)."""
    p = _played(calls=[5] * 20, plays=[play_byte("SA")] * 52)
    with pytest.raises(FormatError, match="do not fit"):
        encode_zrj([p])
    rec = encode_zrj([p], truncate=True)[0]
    assert rec[16] == 38 and rec[17] == 80
    assert len(decode_zrj(rec)[0].plays) == 42


def test_spare_bytes_round_trip():
    """Without this, bytes after the plays (unknown use) would be dropped."""
    p = _played(plays=[play_byte("SA")], spare=b"\x07\x00\x09")
    rec = encode_zrj([p])
    assert decode_zrj(rec)[0].spare == b"\x07\x00\x09"
    np.testing.assert_array_equal(encode_zrj(decode_zrj(rec)), rec)


@pytest.mark.parametrize(
    ("offset", "value"),
    [(14, 3), (14, 120), (15, 0xF0), (16, 17), (16, 64), (17, 17), (18, 0b00_000_000), (18, 0b00_001_101)],
)
def test_invalid_fields_rejected_with_offset(offset, value):
    """Without this, corrupt ZRJ fields would decode into nonsense instead of a located error."""
    rec = encode_zrj([_played(calls=[0b001_011, 5, 5, 5])]).copy()
    rec[0, offset] = value
    with pytest.raises(FormatError) as e:
        decode_zrj(np.concatenate([encode_zrj([_played()]), rec]))
    assert e.value.index == 1
    assert e.value.offset == 80 + offset


@settings(max_examples=200, deadline=None)
@given(tail=st.binary(min_size=67, max_size=67))
def test_valid_deal_random_rest_decodes_or_format_error(tail):
    """Without this, garbage after a valid deal could escape as another exception."""
    rec = encode_zrj([_played()])[0].tobytes()[:13] + tail
    try:
        q = decode_zrj(rec)[0]
    except FormatError:
        return
    assert encode_zrj([q]).tobytes()[:18] == rec[:18]


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    board=st.integers(0, 255),
    contract=st.sampled_from([0, *range(5, 120)]),
    tricks=st.integers(0, 13),
    declarer=st.integers(0, 3),
    passes=st.integers(0, 3),
    calls=st.lists(
        st.one_of(
            st.builds(lambda f, lv, s: f << 6 | lv << 3 | s, st.integers(0, 3), st.integers(1, 7), st.integers(0, 4)),
            st.builds(lambda f, s: f << 6 | s, st.integers(0, 3), st.integers(5, 7)),
        ),
        max_size=45,
    ),
    plays=st.lists(st.builds(lambda f, k: f << 6 | k, st.integers(0, 3), st.integers(0, 51)), max_size=62),
)
def test_zrj_round_trip(seed, board, contract, tricks, declarer, passes, calls, plays):
    """Without this, some played-deal record could change when written and read back."""
    p = PlayedDeal(
        owners=Deal.random(seed).owners(),
        board_byte=board,
        contract=contract,
        tricks=tricks,
        declarer=declarer,
        initial_passes=passes,
        calls=calls,
        plays=plays,
    )
    q = decode_zrj(encode_zrj([p], truncate=True))[0]
    p.plays = p.plays[: 62 - len(calls)]
    assert q == p
