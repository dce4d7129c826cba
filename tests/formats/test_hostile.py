"""Hostile input to files, convert and the CLI: every record converted or reported, nothing half-written."""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.errors import FormatError
from ddsbind.formats import RecordWriter, files, pbn, read_records, registry, zbs
from ddsbind.formats.checksums import checksum, checksum_bytes
from ddsbind.formats.convert import convert
from ddsbind.formats.registry import Format, Records
from tests.support import DEAL0, DEAL1, RECORD0, RECORD1, cli, python_m


def _owners(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.repeat(np.arange(4, dtype=np.int8), 13)[np.argsort(rng.random((n, 52)), axis=1)]


# --------------------------------------------------------------------------
# PBN: every game converted or reported with its line


def test_pbn_deal_tag_followed_by_comment_is_read():
    """Without this, a [Deal] with a trailing '; comment' would be dropped silently."""
    boards = pbn.parse_pbn(f'[Board "1"]\n[Deal "{DEAL0}"] ; first\n\n[Deal "{DEAL1}"]\n')
    assert [b.deal for b in boards] == [Deal.from_pbn(DEAL0), Deal.from_pbn(DEAL1)]


def test_pbn_semicolon_and_brace_inside_tag_values_are_kept():
    """Without this, an Event name holding ';' or '{' would cut the line and lose the game."""
    boards = pbn.parse_pbn(f'[Event "A; {{B}}"]\n[Deal "{DEAL0}"]\n')
    assert boards[0].tags["Event"] == "A; {B}"
    assert boards[0].deal == Deal.from_pbn(DEAL0)


def test_pbn_first_deal_inheriting_nothing_is_reported():
    """Without this, a first [Deal "#"] would vanish and the file convert to fewer deals."""
    with pytest.raises(FormatError, match=r"line 2: \[Deal \"#\"\]"):
        pbn.parse_pbn('[Board "1"]\n[Deal "#"]\n')


def test_pbn_unterminated_brace_is_reported():
    """Without this, an unclosed '{' would swallow every later game without a word."""
    with pytest.raises(FormatError, match=r"line 2: '\{' commentary is never closed"):
        pbn.parse_pbn(f'[Deal "{DEAL0}"]\n{{ open\n[Deal "{DEAL1}"]\n')


def test_pbn_games_without_blank_line_are_both_read():
    """Without this, the first of two games not separated by a blank line would be lost."""
    boards = pbn.parse_pbn(f'[Board "1"]\n[Deal "{DEAL0}"]\n[Board "2"]\n[Deal "{DEAL1}"]\n')
    assert [b.deal for b in boards] == [Deal.from_pbn(DEAL0), Deal.from_pbn(DEAL1)]
    assert [b.tags["Board"] for b in boards] == ["1", "2"]


def test_pbn_binary_file_is_reported_not_zero_records(tmp_path):
    """Without this, a binary file read as PBN would report '0 records written' and exit 0."""
    p = tmp_path / "x.bin"
    p.write_bytes(RECORD0 + RECORD1)
    r = cli("convert", p, tmp_path / "o.zbd", "--from", "pbn")
    assert r.exit_code == 1
    assert "x.bin: line 1:" in r.output
    assert not (tmp_path / "o.zbd").exists()


# --------------------------------------------------------------------------
# Other text inputs


def test_dds_table_with_huge_number_is_clear_and_writes_nothing(tmp_path):
    """Without this, a huge TABLE value gave an OverflowError traceback and a 0-byte output."""
    p = tmp_path / "x.dds"
    p.write_text(f'NUMBER 1\nPBN 0 0 4 0 "{DEAL0}"\nTABLE {" ".join(["4"] * 19)} {10**30}\n')
    r = cli("--strict", "convert", p, tmp_path / "x.zdd", "--from", "dds")
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)  # a one-line error, not a traceback
    assert "line 3" in r.output and "0..13" in r.output
    assert not (tmp_path / "x.zdd").exists()
    r = cli("convert", p, tmp_path / "x.zdd", "--from", "dds")  # read leniently: the table set aside, named once
    assert r.exit_code == 0 and r.output.count("line 3") == 1 and "0..13" in r.output


def test_non_utf8_text_names_file_and_line(tmp_path):
    """Without this, a non-UTF-8 reference file gave a bare codec error with no file or line."""
    p = tmp_path / "ref.txt"
    p.write_bytes(f'NUMBER 1\nPBN 0 0 4 0 "{DEAL0}"\n'.encode() + b"TABLE \xff\n")
    r = cli("convert", p, tmp_path / "o.zbd", "--from", "dds")
    assert r.exit_code == 1
    assert str(p) in r.output and "line 3" in r.output and "0xff" in r.output


def test_zbs_record_that_is_not_a_deal_names_its_index(tmp_path):
    """Without this, a ZBS diagram that is no deal gave DDS's -14 text without saying which record."""
    owners = _owners(3)
    owners[2, :13] = -1  # North's cards absent: a diagram, not a deal
    p = tmp_path / "d.zbs"
    p.write_bytes(zbs.encode_diagrams(owners).tobytes())
    for target in ("o.pbn", "o.zbd", "o.gib"):
        r = cli("convert", p, tmp_path / target)
        assert r.exit_code == 1
        assert "record 3: not a " in r.output and "N=10 E=7 S=13 W=9" in r.output, r.output  # the third, from 1
        assert "DDS code" not in r.output  # DDS never saw it
        assert not (tmp_path / target).exists()


# --------------------------------------------------------------------------
# Checksums of things that are not regular files


def test_checksum_of_fifo_reads_the_stream(tmp_path):
    """Without this, the checksum of a pipe or FIFO was printed as 0."""
    data = bytes(range(1, 200))
    fifo = tmp_path / "f"
    os.mkfifo(fifo)

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as f:
            f.write(data)

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    try:
        assert checksum(fifo) == checksum_bytes(data)
    finally:
        # A reader that never opened the FIFO would leave the writer blocked: open it once to release it.
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        t.join(timeout=10)


@pytest.mark.skipif(not Path("/proc/version").exists(), reason="needs Linux /proc")
def test_checksum_of_proc_file_is_not_zero():
    """Without this, a /proc file (size 0 on stat) checksummed as 0."""
    data = Path("/proc/version").read_bytes()
    r = cli("checksum", "/proc/version")
    assert r.exit_code == 0
    assert int(r.output.strip(), 16) == checksum_bytes(data) != 0


def test_checksum_verify_rejects_non_hex():
    """Without this, a mistyped --verify value would give a Python error instead of a clear one."""
    r = cli("checksum", "/proc/version" if Path("/proc/version").exists() else __file__, "--verify", "xyz")
    assert r.exit_code == 1 and "not hexadecimal" in r.output


# --------------------------------------------------------------------------
# Cribbage text and JSON


def test_cribbage_deep_json_is_a_clear_error():
    """Without this, deeply nested JSON on stdin ended in a RecursionError traceback."""
    r = cli("cribbage", "encode", "-", input="[" * 100000 + "]" * 100000)
    assert r.exit_code == 1
    assert "nests too deeply" in r.output
    assert not isinstance(r.exception, RecursionError)


def test_cribbage_huge_text_refused_by_size(monkeypatch):
    """Without this, a 40 MB text took seconds and gigabytes before being refused."""
    from ddsbind.cribbage import code64

    def never(text: str) -> bytes:
        raise AssertionError("the text was decoded before its size was checked")

    monkeypatch.setattr(code64, "_unbase64", never)
    with pytest.raises(FormatError, match="longer than any record"):
        code64.decode("A" * (code64.MAX_TEXT_CHARS + 1))


def test_cribbage_json_syntax_error_has_line():
    """Without this, a typo in a session's JSON would be reported without where it is."""
    r = cli("cribbage", "encode", "-", input='{\n  "origin": ,\n}')
    assert r.exit_code == 1 and "line 2" in r.output


# --------------------------------------------------------------------------
# Writers: full disks, stdout, all or nothing


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_writer_on_full_device_reports_enospc():
    """Without this, a full disk was reported as 'Invalid argument' (the rollback's error)."""
    with pytest.raises(OSError) as e, RecordWriter("/dev/full", "zbd") as w:
        w.write(_owners(2))
    assert e.value.errno == errno.ENOSPC


def test_writer_reports_enospc_when_rollback_fails(tmp_path, monkeypatch):
    """Without this, a failed rollback after ENOSPC would hide why the write failed."""

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def cannot(fd, length):
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))

    w = RecordWriter(tmp_path / "a.zbd")
    monkeypatch.setattr(files.os, "write", full)
    monkeypatch.setattr(files.os, "ftruncate", cannot)
    with pytest.raises(OSError) as e:
        w.write(_owners(1))
    monkeypatch.undo()
    w.close()
    assert e.value.errno == errno.ENOSPC
    assert "cutting" in str(e.value)


def test_convert_to_stdout(tmp_path):
    """Without this, 'convert x - --to pbn' created a file named '-' instead of printing."""
    p = tmp_path / "two.zrd"
    p.write_bytes(RECORD0 + RECORD1)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = cli("convert", str(p), "-", "--to", "pbn")
    finally:
        os.chdir(cwd)
    assert r.exit_code == 0, r.stderr
    assert [b.deal for b in pbn.parse_pbn(r.stdout)] == [Deal.from_pbn(DEAL0), Deal.from_pbn(DEAL1)]
    assert "2 records written" in r.stderr
    assert not (tmp_path / "-").exists()


def test_convert_failing_part_way_leaves_no_output(tmp_path):
    """Without this, a convert failing late left a valid-looking partial file that blocked the rerun."""
    good = RECORD0 + RECORD1 + RECORD0
    p = tmp_path / "in.zrd"
    p.write_bytes(good + b"\xff" + RECORD1[1:])  # record 3 is not a deal
    dst = tmp_path / "out.zbd"
    with pytest.raises(FormatError) as e:
        convert(p, dst, chunk=1)
    assert e.value.index == 3
    assert "not written" in str(e.value)
    assert not dst.exists()
    assert [q.name for q in tmp_path.iterdir()] == ["in.zrd"]  # no temporary file left either
    p.write_bytes(good)
    assert convert(p, dst, chunk=1) == 3  # the rerun is not blocked


def test_convert_failure_leaves_existing_empty_target_unchanged(tmp_path):
    """Without this, a failed convert could clobber a file that was already there."""
    p = tmp_path / "in.zbd"
    p.write_bytes(RECORD0[:13])
    dst = tmp_path / "out.gib"
    dst.write_bytes(b"")
    r = cli("convert", p, dst)
    assert r.exit_code == 1 and "left unchanged" in r.output
    assert dst.read_bytes() == b""


def test_atomic_writer_publishes_only_on_success(tmp_path):
    """Without this, an atomic RecordWriter could expose half a file, or lose one on error."""
    dst = tmp_path / "a.zrd"

    class StopError(Exception):
        """The caller's own failure inside the with block."""

    with pytest.raises(StopError), RecordWriter(dst, atomic=True) as w:
        w.write(_owners(4))
        raise StopError
    assert not dst.exists() and list(tmp_path.iterdir()) == []
    with RecordWriter(dst, atomic=True) as w:
        w.write(_owners(4))
        assert not dst.exists()
    np.testing.assert_array_equal(read_records(dst).owners, _owners(4))
    with RecordWriter(dst) as w:  # the append mode still appends
        w.write(_owners(1, seed=5))
    assert len(read_records(dst)) == 5


def test_convert_cli_error_has_no_traceback(tmp_path):
    """Without this, a bad input could show a Python traceback instead of one line."""
    p = tmp_path / "x.dds"
    p.write_text(f'NUMBER 1\nPBN 0 0 4 0 "{DEAL0}"\nTABLE {" ".join(["99999999999999999999999"] * 20)}\n')
    res = python_m("ddsbind", "--strict", "convert", p, tmp_path / "x.zdd", "--from", "dds")
    assert res.returncode == 1
    assert "Traceback" not in res.stderr and res.stderr.startswith("ddsbind: error:")
    assert not (tmp_path / "x.zdd").exists()


# --------------------------------------------------------------------------
# The table of formats


def test_a_new_format_is_one_entry(tmp_path, monkeypatch):
    """Without this, adding a format would again mean editing files, convert and the CLI."""
    monkeypatch.setattr(registry, "_TABLE", dict(registry._TABLE))

    def dump(r: Records) -> bytes:
        return b"".join(bytes(o.astype(np.uint8)) for o in r.owners)

    def load(data: bytes, name: str) -> Records:
        return Records(np.frombuffer(data, np.int8).reshape(-1, 52).copy())

    registry.register(Format("raw52", (".r52",), deals=True, results=False, load=load, dump=dump))
    p = tmp_path / "two.zrd"
    p.write_bytes(RECORD0 + RECORD1)
    assert cli("convert", p, tmp_path / "two.r52").exit_code == 0
    r = cli("convert", tmp_path / "two.r52", tmp_path / "back.zbd")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "back.zbd").read_bytes() == RECORD0[:13] + RECORD1[:13]
    with pytest.raises(FormatError, match="already"):
        registry.register(Format("raw52", (), deals=True, results=False))


@pytest.mark.parametrize("target", [f.name for f in registry.formats() if f.writable])
def test_convert_empty_file_to_every_format(tmp_path, target):
    """Without this, an empty input could crash a text target instead of giving an empty file."""
    src = tmp_path / "empty.zrd"
    src.write_bytes(b"")
    dst = tmp_path / f"out.{target}"
    r = cli("convert", src, dst, "--to", target)
    assert r.exit_code == 0, r.output
    assert "0 records written" in r.output and dst.exists()
