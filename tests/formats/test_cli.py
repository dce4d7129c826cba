"""The convert and checksum commands, through click's CliRunner."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.formats import read_records
from tests.support import RECORD0, RECORD1, cli


@pytest.fixture
def two(tmp_path):
    p = tmp_path / "two.zrd"
    p.write_bytes(RECORD0 + RECORD1)
    return p


def test_convert_chain_returns_same_bytes(two, tmp_path):
    """Without this, converting through PBN, GIB, ZBS and ZDD could lose or alter data."""
    assert cli("convert", two, tmp_path / "a.pbn").exit_code == 0
    assert cli("convert", tmp_path / "a.pbn", tmp_path / "b.gib").exit_code == 0
    assert cli("convert", tmp_path / "b.gib", tmp_path / "c.zrd").exit_code == 0
    assert (tmp_path / "c.zrd").read_bytes() == two.read_bytes()
    assert cli("convert", two, tmp_path / "d.zbs").exit_code == 0
    assert cli("convert", tmp_path / "d.zbs", tmp_path / "e.zbd").exit_code == 0
    assert (tmp_path / "e.zbd").read_bytes() == RECORD0[:13] + RECORD1[:13]
    assert cli("convert", two, tmp_path / "f.zdd").exit_code == 0
    assert (tmp_path / "f.zdd").read_bytes() == RECORD0[13:] + RECORD1[13:]
    r = cli("convert", two, tmp_path / "g.bin", "--to", "hand-makes", "--hand", "N")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "g.bin").read_bytes()[13:16] == bytes.fromhex("412463")


def test_convert_writes_missing_results_as_unknown(two, tmp_path):
    """Without this, a deal-only input would get invented results instead of 'unknown'."""
    assert cli("convert", two, tmp_path / "a.zbd").exit_code == 0
    assert cli("convert", tmp_path / "a.zbd", tmp_path / "b.zrd").exit_code == 0
    assert (read_records(tmp_path / "b.zrd").tables == 15).all()


def test_convert_refuses_what_the_target_cannot_hold(two, tmp_path):
    """Without this, converting would silently invent results GIB has no way to mark unknown."""
    assert cli("convert", two, tmp_path / "a.zbd").exit_code == 0
    r = cli("convert", tmp_path / "a.zbd", tmp_path / "b.gib")
    assert r.exit_code == 1
    assert "complete double-dummy results" in r.output
    r = cli("convert", tmp_path / "a.zbd", tmp_path / "b.zdd")
    assert r.exit_code == 0
    r = cli("convert", tmp_path / "b.zdd", tmp_path / "c.zrd")
    assert r.exit_code == 1 and "only results" in r.output


def test_convert_needs_a_format_it_can_tell(two, tmp_path):
    """Without this, an unknown extension would be guessed wrongly instead of asking."""
    r = cli("convert", two, tmp_path / "out.xyz")
    assert r.exit_code == 1 and "cannot tell" in r.output
    r = cli("convert", two, tmp_path / "out.xyz", "--to", "zbd")
    assert r.exit_code == 0


def test_convert_reports_corrupt_input(tmp_path):
    """Without this, corrupt input would produce a traceback instead of a one-line error."""
    p = tmp_path / "bad.zrd"
    p.write_bytes(RECORD0 + b"\xff" + RECORD1[1:])
    r = cli("convert", p, tmp_path / "o.pbn")
    assert r.exit_code == 1
    assert "record 2, byte offset 23" in r.output  # the second record, as users count


def test_checksum_command(two, tmp_path):
    """Without this, the command-line checksum or its --verify exit status could be wrong."""
    p = tmp_path / "r0.zrd"
    p.write_bytes(RECORD0)
    r = cli("checksum", p)
    assert r.exit_code == 0 and r.output.strip() == "2837B89A3"
    assert cli("checksum", p, "--verify", "2837b89a3").exit_code == 0
    assert cli("checksum", p, "--verify", "2837B89A4").exit_code == 1


def test_convert_list1000_to_zrd_and_back_via_pbn(reference, tmp_path):
    """Without this, DDS's reference deals and TABLEs would not survive converting through ZRD."""
    deals, tables = reference
    from ddsbind.formats import pbn

    pbn.write_pbn(tmp_path / "ref.pbn", deals, tables)
    assert cli("convert", tmp_path / "ref.pbn", tmp_path / "ref.zrd").exit_code == 0
    back = read_records(tmp_path / "ref.zrd")
    np.testing.assert_array_equal(back.owners, np.stack([d.owners() for d in deals]))
    np.testing.assert_array_equal(back.tables, tables)
    assert cli("convert", tmp_path / "ref.zrd", tmp_path / "back.pbn").exit_code == 0
    boards = pbn.read_pbn(tmp_path / "back.pbn")
    assert [b.deal for b in boards] == deals
    np.testing.assert_array_equal(np.stack([b.table for b in boards]), tables)


def test_convert_dds_reference_format(tmp_path, two):
    """Without this, the dds (reference-hands) format name in convert could be broken."""
    r = cli("convert", two, tmp_path / "ref.txt", "--to", "dds")
    assert r.exit_code == 0, r.output
    r = cli("convert", tmp_path / "ref.txt", tmp_path / "back.zrd", "--from", "dds")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "back.zrd").read_bytes() == two.read_bytes()


GAME = """[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"]
[Declarer "W"]
[Contract "2S"]
[Result "{result}"]
[Auction "N"]
Pass Pass Pass 1S
Pass 2S AP
[Play "N"]
CT C4 CA CJ
HK H9 H8 H4
*
"""


def test_convert_game_records_pbn_to_pbn_keeps_them(tmp_path):
    """Without this, `ddsbind convert games.pbn out.pbn` wrote only the deals ("1 records written")."""
    src = tmp_path / "games.pbn"
    src.write_text(GAME.format(result="8"), encoding="latin-1")
    r = cli("convert", src, tmp_path / "out.pbn")
    assert r.exit_code == 0, r.output
    out = (tmp_path / "out.pbn").read_text(encoding="latin-1")
    for line in ('[Contract "2S"]', '[Declarer "W"]', '[Result "8"]', '[Auction "N"]', '[Play "N"]', "CT C4 CA CJ"):
        assert line in out


def test_convert_refuses_a_result_the_play_contradicts(tmp_path):
    """Without this, a Result above what declarer could still take was copied into ZRJ with exit 0."""
    src = tmp_path / "games.pbn"
    src.write_text(GAME.format(result="12"), encoding="latin-1")  # the defence won both tricks played: 0..11
    r = cli("--strict", "convert", src, tmp_path / "out.zrj")
    assert r.exit_code == 1
    assert "Result 12 contradicts the play" in r.output and "games.pbn: record 1 (Board 1), line 7: " in r.output
    assert "record 0" not in r.output  # boards are named as the file numbers them, not from 0
    assert not (tmp_path / "out.zrj").exists()
    # Read leniently, the Result is set aside with a warning; ZRJ, which needs declarer's tricks, refuses the record.
    r = cli("convert", src, tmp_path / "out.zrj")
    said = 'record 1 (Board 1), line 7: [Result "12"] set aside: Result 12 contradicts the play'
    assert r.exit_code == 1 and said in r.output
    assert not (tmp_path / "out.zrj").exists()
