"""The worked examples of specs/formats.md, bit for bit."""

from __future__ import annotations

import numpy as np

from ddsbind.deal import Deal
from ddsbind.formats import (
    D,
    checksum,
    deal_from_number,
    deal_number,
    deal_numbers,
    decode_diagrams,
    decode_hand_makes,
    decode_zdd,
    decode_zrd,
    encode_diagrams,
    encode_hand_makes,
    encode_zdd,
    encode_zrd,
    numbers_from_ints,
)
from ddsbind.formats.checksums import checksum_bytes
from tests.support import DEAL0, DEAL1, RECORD0, RECORD1, TABLE0

ZBS0 = bytes.fromhex("7b877868fde07643eb37df5eec969c56")


def test_zrd_record0_decodes_to_spec_deal_and_table():
    """Without this, Pavlicek's library would decode to the wrong deals or tables."""
    owners, tables = decode_zrd(RECORD0)
    assert Deal.from_owners(owners[0]) == Deal.from_pbn(DEAL0)
    np.testing.assert_array_equal(tables[0], TABLE0)


def test_zrd_record1_decodes_to_spec_deal_and_table():
    """Without this, a second real record (with a void in spades) could decode wrongly."""
    owners, tables = decode_zrd(RECORD1)
    assert Deal.from_owners(owners[0]) == Deal.from_pbn(DEAL1)
    # Spec, in Pavlicek's order NT/S/H/D/C x W N E S: 7373 / 3 10 3 10 / 5757 / 9393 / 5858.
    pav = {"NT": (7, 3, 7, 3), "S": (3, 10, 3, 10), "H": (5, 7, 5, 7), "D": (9, 3, 9, 3), "C": (5, 8, 5, 8)}
    for strain, (w, n, e, s) in pav.items():
        row = "SHDC".index(strain) if strain != "NT" else 4
        assert tables[0, row].tolist() == [n, e, s, w]


def test_zrd_records_encode_back_to_file_bytes():
    """Without this, files we write would not be readable by Pavlicek's tools."""
    for rec, deal in ((RECORD0, DEAL0), (RECORD1, DEAL1)):
        _owners, tables = decode_zrd(rec)
        assert encode_zrd(Deal.from_pbn(deal).owners()[None], tables).tobytes() == rec


def test_zdd_of_record0():
    """Without this, DD tables would be stored in the wrong seat or strain slots."""
    assert encode_zdd(TABLE0[None]).tobytes() == RECORD0[13:]
    np.testing.assert_array_equal(decode_zdd(RECORD0[13:])[0], TABLE0)


def test_zbs_diagram_of_record0():
    """Without this, ZBS diagrams would not match Pavlicek's bytes."""
    owners = Deal.from_pbn(DEAL0).owners()
    assert encode_diagrams(owners[None], terminate=False).tobytes() == ZBS0
    np.testing.assert_array_equal(decode_diagrams(ZBS0)[0], owners)


def test_zbs_single_suit_example():
    """Without this, partial layouts (unused cards) would be misencoded."""
    diagram = np.full(52, -1, dtype=np.int8)
    diagram[[0, 1, 2]] = 0  # N: SA SK SQ
    diagram[[10, 11, 12]] = 2  # S: S4 S3 S2
    assert encode_diagrams(diagram[None], terminate=False).tobytes() == bytes.fromhex("b4e15a90")
    np.testing.assert_array_equal(decode_diagrams(bytes.fromhex("b4e15a90"))[0], diagram)


def test_hand_makes_record0_north():
    """Without this, 16-byte hand/makes records would put makes in the wrong nibbles."""
    owners = Deal.from_pbn(DEAL0).owners()[None]
    rec = encode_hand_makes(owners, 0, TABLE0[:, 0][None])
    assert rec.tobytes() == RECORD0[:13] + bytes.fromhex("412463")
    _o, hand, makes = decode_hand_makes(rec)
    assert hand.tolist() == [0]
    assert makes[0].tolist() == [4, 2, 3, 6, 4]  # S H D C NT


def test_checksum_record0(tmp_path):
    """Without this, users could not verify downloads against Pavlicek's published sums."""
    assert f"{checksum_bytes(RECORD0):X}" == "2837B89A3"
    p = tmp_path / "r0.zrd"
    p.write_bytes(RECORD0)
    assert f"{checksum(p):X}" == "2837B89A3"


def test_deal_number_zero():
    """Without this, deal number 0 would not be Pavlicek's deal 0."""
    d = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    assert deal_number(d) == 0
    assert deal_from_number(0) == d
    assert deal_numbers(d.owners()[None]).tobytes() == bytes(12)


def test_deal_number_last():
    """Without this, the top of the number range (D-1) would map to the wrong deal."""
    d = Deal.from_pbn("N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...")
    assert deal_number(d) == D - 1
    assert deal_from_number(D - 1) == d
    packed = bytes.fromhex("ff91f48b65da4d6315e355ad")
    assert deal_numbers(d.owners()[None]).tobytes() == packed
    assert numbers_from_ints([D - 1]).tobytes() == packed


def test_deal_number_record0():
    """Without this, deal numbers would disagree with Pavlicek's for real deals."""
    d = Deal.from_pbn(DEAL0)
    assert deal_number(d) == 25_216_253_703_434_171_611_275_258_602
    assert deal_numbers(d.owners()[None]).tobytes() == bytes.fromhex("eaea5ae51f5f465c6c657a51")
    assert deal_from_number(25_216_253_703_434_171_611_275_258_602) == d


def test_d_value():
    """Without this, the range check on deal numbers would use the wrong D."""
    assert D == 53_644_737_765_488_792_839_237_440_000


def test_dtypes_match_record_layouts():
    """Without this, structured access to files (np.memmap with our dtypes) would misalign fields."""
    from ddsbind.formats import _dtypes

    sizes = {"ZBD": 13, "ZDD": 10, "ZRD": 23, "HAND_MAKES": 16, "ZRJ": 80, "DEAL_NUMBER": 12, "ZBS": 4}
    assert {k: getattr(_dtypes, k).itemsize for k in sizes} == sizes
    assert _dtypes.ZRD.fields["dd"][1] == 13
    assert _dtypes.ZRJ.fields["moves"][1] == 18
    assert _dtypes.ZBS.byteorder in ("<", "=") and _dtypes.ZBS.str == "<u4"
    structured = np.frombuffer(RECORD0 * 2, _dtypes.ZRD)
    np.testing.assert_array_equal(decode_zrd(structured)[1][1], TABLE0)
    assert structured["dd"][0].tobytes() == RECORD0[13:]
