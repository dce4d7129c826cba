"""hypothesis: round trips through every format, and random bytes into every decoder."""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ddsbind.deal import Deal
from ddsbind.errors import FormatError
from ddsbind.formats import (
    deal_numbers,
    deals_from_numbers,
    decode_diagrams,
    decode_hand_makes,
    decode_suits,
    decode_zbd,
    decode_zdd,
    decode_zrd,
    decode_zrj,
    encode_diagrams,
    encode_hand_makes,
    encode_suits,
    encode_zbd,
    encode_zdd,
    encode_zrd,
    encode_zrj,
    gib,
    pbn,
    zdd,
)
from ddsbind.formats.dealnum import D, numbers_from_ints

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RESULTS = [*list(range(14)), 15]


@st.composite
def deals(draw, max_n: int = 8) -> np.ndarray:
    """Random full deals as owner arrays (n, 52)."""
    n = draw(st.integers(0, max_n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    return np.stack([rng.permutation(base) for _ in range(n)]) if n else np.zeros((0, 52), np.int8)


def tables(n: int, complete: bool = False):
    return hnp.arrays(np.uint8, (n, 5, 4), elements=st.sampled_from(RESULTS[:14] if complete else RESULTS))


@SETTINGS
@given(data=st.data())
def test_zrd_round_trip(data):
    """Without this, some deal or table could be altered by writing and reading ZRD."""
    owners = data.draw(deals())
    t = data.draw(tables(owners.shape[0]))
    o2, t2 = decode_zrd(encode_zrd(owners, t).tobytes())
    np.testing.assert_array_equal(o2, owners)
    np.testing.assert_array_equal(t2, t)


@SETTINGS
@given(owners=deals())
def test_zbd_round_trip_owners_and_masks(owners):
    """Without this, ZBD could alter deals, or its masks output could disagree with its owners."""
    recs = encode_zbd(owners)
    np.testing.assert_array_equal(decode_zbd(recs), owners)
    masks = decode_zbd(recs, masks=True)
    for o, m in zip(owners, masks, strict=True):
        np.testing.assert_array_equal(Deal.from_owners(o).remain_cards, m)
    np.testing.assert_array_equal(encode_zbd(masks), recs)


@SETTINGS
@given(data=st.data())
def test_zdd_and_hand_makes_round_trip(data):
    """Without this, ZDD tables or 16-byte makes could be altered by a round trip."""
    owners = data.draw(deals())
    n = owners.shape[0]
    t = data.draw(tables(n))
    np.testing.assert_array_equal(decode_zdd(encode_zdd(t)), t)
    hand = data.draw(hnp.arrays(np.uint8, (n,), elements=st.integers(0, 3)))
    makes = t[np.arange(n), :, hand]
    o2, h2, m2 = decode_hand_makes(encode_hand_makes(owners, hand, makes))
    np.testing.assert_array_equal(o2, owners)
    np.testing.assert_array_equal(h2, hand)
    np.testing.assert_array_equal(m2, makes)


@SETTINGS
@given(data=st.data(), reverse=st.booleans())
def test_zbs_round_trip_any_layout(data, reverse):
    """Without this, ZBS diagrams with unused cards (endings, single suits) could be altered."""
    g = data.draw(st.integers(0, 6))
    diag = data.draw(hnp.arrays(np.int8, (g, 52), elements=st.integers(-1, 3)))
    diag[:, 0] = np.maximum(diag[:, 0], 0)  # a diagram must place a card
    words = encode_diagrams(diag, reverse=reverse)
    np.testing.assert_array_equal(decode_diagrams(words.tobytes(), reverse=reverse), diag)


@SETTINGS
@given(
    digits=hnp.arrays(np.uint8, (5, 13), elements=st.integers(0, 4)),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_zbs_suit_words_round_trip(digits, flags):
    """Without this, single suit layouts and their group flags could be altered."""
    for reverse in (False, True):
        d2, f2 = decode_suits(encode_suits(digits, flags, reverse=reverse), reverse=reverse)
        np.testing.assert_array_equal(d2, digits)
        assert f2.tolist() == flags


@SETTINGS
@given(owners=deals(max_n=20))
def test_deal_numbers_round_trip(owners):
    """Without this, some deals would get a number that maps back to another deal."""
    np.testing.assert_array_equal(deals_from_numbers(deal_numbers(owners)), owners)


@SETTINGS
@given(nums=st.lists(st.integers(0, D - 1), max_size=10))
def test_numbers_round_trip(nums):
    """Without this, some numbers in 0..D-1 would not map to a deal and back."""
    packed = numbers_from_ints(nums)
    np.testing.assert_array_equal(deal_numbers(deals_from_numbers(packed)), packed)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_text_formats_round_trip(data):
    """Without this, PBN or GIB text could alter deals or tables."""
    owners = data.draw(deals(max_n=4))
    n = owners.shape[0]
    t = data.draw(tables(n, complete=True))
    boards = pbn.parse_pbn(pbn.format_pbn(owners, t))
    assert [b.deal for b in boards] == [Deal.from_owners(o) for o in owners]
    for b, tt in zip(boards, t, strict=True):
        np.testing.assert_array_equal(b.table, tt)
    for o, tt in zip(owners, t, strict=True):
        d2, t2 = gib.parse_gib_line(gib.format_gib_line(Deal.from_owners(o), tt))
        assert d2 == Deal.from_owners(o)
        np.testing.assert_array_equal(t2, tt)


def _decoders():
    return {
        "zbd": lambda b: decode_zbd(b),
        "zbd-masks": lambda b: decode_zbd(b, masks=True),
        "zdd": lambda b: decode_zdd(b),
        "zrd": lambda b: decode_zrd(b),
        "hand-makes": lambda b: decode_hand_makes(b),
        "zrj": lambda b: decode_zrj(b),
        "zbs": lambda b: decode_diagrams(b),
        "zbs-rev": lambda b: decode_diagrams(b, reverse=True),
        "numbers": lambda b: (
            deals_from_numbers(np.frombuffer(b, np.uint8).reshape(-1, 12))
            if len(b) % 12 == 0
            else deals_from_numbers(np.frombuffer(b[: len(b) // 12 * 12], np.uint8).reshape(-1, 12))
        ),
        "pbn": lambda b: pbn.parse_pbn(b.decode("latin-1")),
        "pbn-tags": lambda b: pbn.parse_pbn(
            '[Deal "N:' + b.decode("latin-1") + '"]\n[DoubleDummyTricks "' + b.hex()[:20] + '"]'
        ),
        "gib": lambda b: gib.parse_gib_line(b.decode("latin-1")),
    }


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200), which=st.sampled_from(sorted(_decoders())))
def test_random_bytes_give_decode_or_format_error(data, which):
    """Without this, a corrupt file could crash a reader with an unexpected exception."""
    with contextlib.suppress(FormatError):
        _decoders()[which](data)


def _encode_back(which: str, decoded) -> bytes:
    """The bytes the matching encoder writes for what a record-sized decoder returned."""
    if which == "zbd":
        return encode_zbd(decoded).tobytes()
    if which == "zrd":
        return encode_zrd(*decoded).tobytes()
    if which == "zdd":
        return encode_zdd(decoded).tobytes()
    if which == "hand-makes":
        return encode_hand_makes(*decoded).tobytes()
    return encode_zrj(decoded).tobytes()


def _accepted_is_right(which: str, blob: bytes) -> None:
    """``blob`` decodes to a FormatError naming its record, or to what the encoder writes back as the same records.

    ZBD, ZRD, ZDD and 16-byte makes have no spare bits: what is accepted
    re-encodes byte for byte.  A ZRJ record may carry bytes after its
    terminator that no field holds, so it must decode back to equal deals,
    auctions and plays.
    """
    try:
        decoded = _decoders()[which](blob)
    except FormatError as exc:
        assert exc.index is not None
        return
    again = _encode_back(which, decoded)
    if which != "zrj":
        assert again == blob
    else:
        assert decode_zrj(again) == decoded


@settings(max_examples=200, deadline=None)
@given(data=st.data(), which=st.sampled_from(["zbd", "zrd", "zdd", "hand-makes", "zrj"]))
def test_record_sized_random_bytes(data, which):
    """Without this, whole-record garbage (the common corruption) could escape as another exception, or be
    accepted as a record the writer would not write."""
    size = {"zbd": 13, "zrd": 23, "zdd": 10, "hand-makes": 16, "zrj": 80}[which]
    n = data.draw(st.integers(1, 4))
    _accepted_is_right(which, data.draw(st.binary(min_size=n * size, max_size=n * size)))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), which=st.sampled_from(["zrd", "hand-makes", "zrj"]))
def test_valid_deals_random_results_decode_right_or_format_error(data, which):
    """Without this, a record whose deal is sound but whose results are garbage (a flipped byte after the deal)
    could be accepted as results the writer never wrote."""
    size = {"zrd": 23, "hand-makes": 16, "zrj": 80}[which]
    owners = data.draw(deals(max_n=3).filter(len))
    blob = b"".join(
        encode_zbd(o[None]).tobytes() + data.draw(st.binary(min_size=size - 13, max_size=size - 13)) for o in owners
    )
    _accepted_is_right(which, blob)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), stride=st.sampled_from([13, 16, 23]), swar=st.booleans())
def test_full_deal_check_counts_each_seat(data, stride, swar):
    """Without this, a ZBD record not giving each hand 13 cards could pass the check (or a sound one be refused),
    whatever the records' stride, with numpy's popcount or the fallback for numpy before 2.0."""
    from ddsbind.formats import _common, zbd

    owners = data.draw(deals(max_n=6))
    packed = encode_zbd(owners).reshape(-1, 13) if len(owners) else np.zeros((0, 13), np.uint8)
    flips = data.draw(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 255)), max_size=len(packed)))
    packed = packed.copy()
    for row, (byte, value) in enumerate(flips):
        packed[row, byte] = value
    rows = np.zeros((len(packed), stride), np.uint8)
    rows[:, :13] = packed
    seats = zbd.owners_from_zbd(packed)
    want = np.array([any((row == h).sum() != 13 for h in range(4)) for row in seats], dtype=bool)
    popcount = _common.popcount
    try:
        if swar:
            _common.popcount = _common._popcount_swar
        assert np.array_equal(zbd.bad_deals(rows[:, :13]), want)
    finally:
        _common.popcount = popcount


@settings(max_examples=100, deadline=None)
@given(data=st.data(), stride=st.sampled_from([10, 23]))
def test_results_over_13_found_in_place(data, stride):
    """Without this, a ZRD/ZDD result nibble 14 or 15 could slip past the check verify and library mode run."""
    n = data.draw(st.integers(1, 5))
    nibbles = data.draw(hnp.arrays(np.uint8, (n, 20), elements=st.integers(0, 13)))
    bad = data.draw(st.none() | st.tuples(st.integers(0, n - 1), st.integers(0, 19), st.sampled_from([14, 15])))
    if bad is not None:
        nibbles[bad[0], bad[1]] = bad[2]
    rows = np.zeros((n, stride), np.uint8)
    rows[:, stride - 10 :] = nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)
    assert zdd.any_over_13(rows[:, stride - 10 :]) is (bad is not None)
