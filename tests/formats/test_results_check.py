"""Results another program wrote, checked by `convert --solve` against the deal (issue 35).

The corpus file ``tests/data/records/bridgecomposer_wrong_cell.pbn`` is Bridge
Composer's layout with DDS's tables, but for one deliberately wrong entry on
board 2 (East declaring spades: 9 in both tags, DDS says 8).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import ddsbind
from ddsbind.database import TableFiller
from ddsbind.errors import DroppedDataWarning, ResultsWarning
from ddsbind.formats._common import disagreements
from ddsbind.formats.convert import convert
from ddsbind.formats.pbn import parse_pbn
from ddsbind.formats.zrd import decode_zrd
from tests.support import cli, one_error

WRONG = Path(__file__).resolve().parents[1] / "data" / "records" / "bridgecomposer_wrong_cell.pbn"
#: The two lines of board 2 that hold the wrong entry, and the same lines as DDS has them.
WRONG_LINES = (b'[DoubleDummyTricks "8586a8586a4946358463"]', b"E  S  9\n")
RIGHT_LINES = (b'[DoubleDummyTricks "8586a8586a4846358463"]', b"E  S  8\n")


def _fixed() -> bytes:
    data = WRONG.read_bytes()
    for wrong, right in zip(WRONG_LINES, RIGHT_LINES, strict=True):
        assert data.count(wrong) == 1
        data = data.replace(wrong, right)
    return data


def test_the_corpus_file_holds_exactly_one_wrong_entry():
    """Without this, the tests below could pass on a file with no wrong entry (or several), proving nothing."""
    boards = parse_pbn(WRONG.read_bytes())
    wrong = [(b.tags["Board"], disagreements(b.table, np.asarray(ddsbind.dd_table(b.deal)))) for b in boards]
    assert wrong == [("1", []), ("2", ["E in S: 9 given, 8 by DDS"]), ("3", [])]


def test_solve_checks_given_results_names_the_board_and_writes_dds(tmp_path):
    """Without this, `--solve` would copy a wrong table another program wrote into the output without a word."""
    out = tmp_path / "checked.pbn"
    r = cli("convert", WRONG, out, "--solve", "--quiet")
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stderr.splitlines() if x.startswith("ddsbind: warning:")]
    assert len(lines) == 1, r.stderr  # the board named once
    assert "line 57 (Board 2)" in lines[0] and lines[0].endswith("E in S: 9 given, 8 by DDS")
    assert out.read_bytes() == _fixed()  # DDS's answer in both tags, every other byte kept
    assert "3 deals solved" in r.stdout and "3 records' given results checked" in r.stdout


def test_trust_results_keeps_given_results_and_solves_nothing(tmp_path):
    """Without this, a user who trusts a file's tables has no way to skip solving every deal again."""
    out = tmp_path / "trusted.pbn"
    r = cli("convert", WRONG, out, "--solve", "--trust-results", "--quiet")
    assert r.exit_code == 0, r.output
    assert "0 deals solved" in r.stdout and "results contradict" not in r.stderr
    # The file's par tags of board 2 were BC's from DDS's table, not from the wrong entry trusted: named, rewritten.
    assert "Board 2: [OptimumScore 'NS 130'] is not the par of its double-dummy table" in r.stderr
    b2 = parse_pbn(out.read_bytes())[1]
    assert b2.table is not None and b2.table[0, 1] == 9  # the file's (wrong) entry, trusted as asked


def test_trust_results_without_solve_is_refused(tmp_path):
    """Without this, `--trust-results` alone would be silently ignored and the user think something was kept."""
    one_error(cli("convert", WRONG, tmp_path / "x.pbn", "--trust-results"), "--trust-results applies to --solve")


def test_check_into_another_format_names_the_record(tmp_path):
    """Without this, converting another program's tables into ZRD with --solve would store a wrong entry."""
    out = tmp_path / "checked.zrd"
    with pytest.warns(ResultsWarning, match=r"record 2: .*E in S: 9 given, 8 by DDS") as caught:
        warnings.simplefilter("ignore", DroppedDataWarning)  # ZRD holds no board numbers: not the subject here
        convert(WRONG, out, fill=TableFiller())
    assert len([w for w in caught if issubclass(w.category, ResultsWarning)]) == 1
    _, tables = decode_zrd(out.read_bytes())
    for table, board in zip(tables, parse_pbn(WRONG.read_bytes()), strict=True):
        np.testing.assert_array_equal(table, np.asarray(ddsbind.dd_table(board.deal)))


def test_table_filler_checks_given_entries_and_trusts_only_when_asked():
    """Without this, a partial or complete table a file gives would be kept even where it contradicts its deal."""
    boards = parse_pbn(WRONG.read_bytes())
    owners = np.stack([b.deal.owners() for b in boards])
    given = np.stack([b.table for b in boards]).astype(np.uint8)
    given[0, 4, :] = 15  # board 1: notrump unknown
    truth = np.stack([np.asarray(ddsbind.dd_table(b.deal)) for b in boards]).astype(np.uint8)
    checking = TableFiller()
    np.testing.assert_array_equal(checking(owners, given), truth)
    assert (checking.solved, checking.checked) == (3, 3)
    trusting = TableFiller(trust_results=True)
    got = trusting(owners, given)
    assert trusting.solved == 1 and trusting.checked == 0  # only board 1's unknown entries
    np.testing.assert_array_equal(got[0], truth[0])
    np.testing.assert_array_equal(got[1], given[1])  # the wrong entry kept: trusted


def test_disagreements_ignore_unknown_entries_and_name_each_wrong_one():
    """Without this, an unknown entry (15) would be reported as a contradiction, or a second wrong one missed."""
    truth = np.arange(20, dtype=np.uint8).reshape(5, 4) % 14
    given = truth.copy()
    given[4, 0] = 15  # N in NT unknown
    assert disagreements(given, truth) == []
    given[0, 3] = (truth[0, 3] + 1) % 14  # W in S
    given[3, 1] = (truth[3, 1] + 2) % 14  # E in C
    assert disagreements(given, truth) == [
        f"E in C: {given[3, 1]} given, {truth[3, 1]} by DDS",
        f"W in S: {given[0, 3]} given, {truth[0, 3]} by DDS",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert disagreements(truth, truth) == []


def test_trust_results_never_copies_a_given_table_onto_another_record():
    """Without this, `--solve --trust-results` gave a record without results another record's unchecked (wrong)
    table ("1 records reused a solved deal"): oracle DDS's own table of the deal (issue 47, item 2)."""
    board = parse_pbn(WRONG.read_bytes())[1]  # board 2, whose given table is wrong in one entry
    owners = np.stack([board.deal.owners()] * 2)
    given = np.stack([board.table, np.full((5, 4), 15)]).astype(np.uint8)  # the same deal again, no results
    truth = np.asarray(ddsbind.dd_table(board.deal)).astype(np.uint8)
    trusting = TableFiller(trust_results=True)
    got = trusting(owners, given)
    np.testing.assert_array_equal(got[0], given[0])  # trusted where it was given
    np.testing.assert_array_equal(got[1], truth)  # DDS's table, not the trusted copy
    assert (trusting.solved, trusting.reused) == (1, 0)
    again = trusting(owners[1:], given[1:])  # a later batch reuses what DDS solved, not what was given
    np.testing.assert_array_equal(again[0], truth)
    assert trusting.reused == 1
