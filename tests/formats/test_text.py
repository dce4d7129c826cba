"""PBN and GIB text, and converting DDS's reference hands through ZRD."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.errors import FormatError, ResultsWarning
from ddsbind.formats import decode_zrd, encode_zrd, gib, pbn
from tests.support import RECORD0, TABLE0

# First hand of list1000.txt; its TABLE line (DDS order) is
# 5 8 5 8 | 6 6 6 6 | 5 7 5 7 | 7 5 7 5 | 6 6 6 6.
REF0 = Deal.from_pbn("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3")
REF0_TABLE = np.array([5, 8, 5, 8, 6, 6, 6, 6, 5, 7, 5, 7, 7, 5, 7, 5, 6, 6, 6, 6]).reshape(5, 4)
# Derived by hand: per strain NT S H D C, NS tricks with S, E, N, W on lead =
# 13-T[E], T[N], 13-T[W], T[S]:  NT 7 6 7 6, S 5 5 5 5, H 7 6 7 6, D 6 5 6 5, C 8 7 8 7.
REF0_GIB = "AT942.AQ4.32.KJ3 QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652:76765555767665658787"
# Record 0 of the spec: NT 9 4 9 4 by W N E S etc. -> S lead 13-9=4, E lead N=4, N lead 13-9=4, W lead S=4.
REC0_GIB = "K9.KQT3.743.QJ95 J873.J42.Q65.KT2 AT652.A976.AJ82. Q4.85.KT9.A87643:44444444322243436666"


def test_gib_line_from_reference_hand():
    """Without this, GIB files we write would give wrong NS tricks per opening leader."""
    line = gib.format_gib_line(REF0, REF0_TABLE)
    assert line == REF0_GIB
    assert len(line) == 88


def test_gib_line_reads_back_to_dds_table():
    """Without this, reading a GIB library would give wrong DD tables."""
    deal, table = gib.parse_gib_line(REF0_GIB)
    assert deal == REF0
    np.testing.assert_array_equal(table, REF0_TABLE)
    deal, table = gib.parse_gib_line(REC0_GIB)
    np.testing.assert_array_equal(table, TABLE0)
    owners, _ = decode_zrd(RECORD0)
    assert deal == Deal.from_owners(owners[0])


def test_gib_refuses_unknown_results():
    """Without this, GIB output could silently contain invented results."""
    t = REF0_TABLE.copy()
    t[0, 0] = 15
    with pytest.raises(FormatError, match="unknown"):
        gib.format_gib_line(REF0, t)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "junk",
        REF0_GIB[:-1],
        REF0_GIB[:-1] + "e",
        REF0_GIB.replace("AT942", "AT94A"),
        REF0_GIB.replace(" ", "  ", 1),
    ],
)
def test_gib_bad_lines_raise_format_error(bad):
    """Without this, a corrupt GIB line would crash with an unrelated exception."""
    with pytest.raises(FormatError):
        gib.parse_gib_line(bad)


def test_pbn_double_dummy_tricks_layout():
    """Without this, DoubleDummyTricks would not match the N S E W x NT S H D C layout other tools read."""
    # N: NT6 S5 H6 D5 C7; S the same; E: NT6 S8 H6 D7 C5; W the same.
    assert pbn.format_double_dummy_tricks(REF0_TABLE) == "65657656576867568675"
    np.testing.assert_array_equal(pbn.parse_double_dummy_tricks("6565765657686756867 5".replace(" ", "")), REF0_TABLE)


def test_pbn_reads_optimum_result_table_in_any_order():
    """Without this, PBN 2.1 result sections written by other programs would be misread."""
    rows = []
    for decl, col in (("W", 3), ("E", 1), ("N", 0), ("S", 2)):
        for den, row in (("S", 0), ("H", 1), ("D", 2), ("C", 3), ("NT", 4)):
            rows.append(f"{decl} {den} {REF0_TABLE[row, col]}")
    text = "\n".join(
        [
            "% PBN 2.1",
            '[Event "x"]',
            f'[Deal "{REF0.to_pbn("E")}"]',
            "{a comment",
            "over two lines}",
            '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
            *rows,
            "",
        ]
    )
    boards = pbn.parse_pbn(text)
    assert len(boards) == 1
    assert boards[0].deal == REF0
    np.testing.assert_array_equal(boards[0].table, REF0_TABLE)


def test_pbn_disagreeing_tags_are_set_aside_with_a_warning():
    """Without this, contradictory DD data in a PBN file would be silently accepted (or refuse the whole file)."""
    text = (
        f'[Deal "{REF0.to_pbn()}"]\n[DoubleDummyTricks "{"0" * 20}"]\n'
        '[OptimumResultTable "Declarer;Denomination;Result"]\nN S 5\n'
    )
    with pytest.warns(ResultsWarning, match="disagree"):
        (board,) = pbn.parse_pbn(text)
    assert board.table is None and board.deal == REF0


def test_pbn_partial_table_round_trips_as_unknown():
    """Without this, unknown results would be written into PBN as if they were tricks."""
    t = REF0_TABLE.copy().astype(np.uint8)
    t[4, :] = 15
    text = pbn.format_pbn([REF0], [t])
    assert "DoubleDummyTricks" not in text
    np.testing.assert_array_equal(pbn.parse_pbn(text)[0].table, t)


def test_pbn_bad_deal_is_format_error():
    """Without this, a PBN file with a broken deal would raise a DDS error instead of FormatError."""
    with pytest.raises(FormatError):
        pbn.parse_pbn('[Deal "N:AKQ.xx"]\n')


def test_list1000_through_zrd_and_back(reference, tmp_path):
    """Without this, DDS's own reference deals and tables would not survive a ZRD round trip."""
    deals, tables = reference
    owners = np.stack([d.owners() for d in deals])
    recs = encode_zrd(owners, tables)
    o2, t2 = decode_zrd(recs.tobytes())
    np.testing.assert_array_equal(o2, owners)
    np.testing.assert_array_equal(t2, tables)


def test_list1000_through_gib_and_pbn(reference, tmp_path):
    """Without this, the reference deals would not survive the GIB and PBN text formats."""
    deals, tables = reference
    gib.write_gib(tmp_path / "a.gib", deals[:200], tables[:200])
    owners, t = gib.read_gib(tmp_path / "a.gib")
    assert [Deal.from_owners(o) for o in owners] == deals[:200]
    np.testing.assert_array_equal(t, tables[:200])
    pbn.write_pbn(tmp_path / "a.pbn", deals[:200], tables[:200])
    boards = pbn.read_pbn(tmp_path / "a.pbn")
    assert [b.deal for b in boards] == deals[:200]
    np.testing.assert_array_equal(np.stack([b.table for b in boards]), tables[:200])
