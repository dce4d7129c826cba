"""Deal numbers: the vectorised limbs agree with Pavlicek's loop in plain integers."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.errors import FormatError
from ddsbind.formats import deal_from_number, deal_number, deal_numbers, deals_from_numbers, ints_from_numbers
from ddsbind.formats.dealnum import D, numbers_from_ints


def pavlicek_number_to_owners(number: int) -> list[int]:
    """Pavlicek's number-to-deal loop exactly as specs/formats.md states it (seats N E S W = 0..3)."""
    vacant, c, k, i, out = [13, 13, 13, 13], 52, D, number, []
    for _ in range(52):
        for h in range(4):
            x = k * vacant[h] // c
            if i < x or h == 3:
                out.append(h)
                vacant[h] -= 1
                k = x
                break
            i -= x
        c -= 1
    return out


def pavlicek_owners_to_number(owners: list[int]) -> int:
    """The same loop run the other way, adding X for each seat tried before the owner."""
    vacant, c, k, i = [13, 13, 13, 13], 52, D, 0
    for own in owners:
        for h in range(4):
            x = k * vacant[h] // c
            if h == own:
                vacant[h] -= 1
                k = x
                break
            i += x
        c -= 1
    return i


def test_vectorised_matches_plain_loop_both_ways():
    """Without this, the fast limb arithmetic could drift from Pavlicek's definition."""
    rng = np.random.default_rng(7)
    nums = [
        0,
        1,
        D - 1,
        D // 2,
        *(int(x) for x in rng.integers(0, 2**62, 20)),
        *(D - 1 - int(x) for x in range(5)),
    ]
    nums += [int.from_bytes(rng.bytes(12), "little") % D for _ in range(30)]
    owners = deals_from_numbers(nums)
    for n, o in zip(nums, owners, strict=True):
        assert o.tolist() == pavlicek_number_to_owners(n)
        assert pavlicek_owners_to_number(o.tolist()) == n
    assert ints_from_numbers(deal_numbers(owners)) == nums


def test_reference_deals_numbers(reference):
    """Without this, real deals (DDS's reference hands) could get numbers off Pavlicek's mapping."""
    deals, _ = reference
    owners = np.stack([d.owners() for d in deals[:100]])
    got = ints_from_numbers(deal_numbers(owners))
    assert got == [pavlicek_owners_to_number(o.tolist()) for o in owners]


def test_scalar_api_matches_bulk():
    """Without this, deal_number/deal_from_number (used by other tools) could disagree with the arrays."""
    d = Deal.random(11)
    n = deal_number(d)
    assert deal_from_number(n) == d
    assert ints_from_numbers(deal_numbers(d.owners()[None])) == [n]


@pytest.mark.parametrize("bad", [D, D + 1, 2**96 - 1])
def test_out_of_range_numbers_are_rejected(bad):
    """Without this, numbers past the last deal would decode to garbage instead of an error."""
    with pytest.raises(FormatError):
        deal_from_number(bad)
    packed = np.frombuffer(bad.to_bytes(12, "little"), np.uint8).reshape(1, 12)
    with pytest.raises(FormatError) as e:
        deals_from_numbers(np.concatenate([np.zeros((1, 12), np.uint8), packed]))
    assert e.value.index == 1


def test_negative_number_rejected():
    """Without this, a negative number would wrap around silently."""
    with pytest.raises(FormatError):
        numbers_from_ints([-1])


def test_partial_deal_rejected():
    """Without this, an ending (fewer than 52 cards) would get a meaningless number."""
    with pytest.raises(FormatError, match="not a full deal"):
        deal_number(Deal.from_pbn("N:A... .A.. ..A. ...A"))
