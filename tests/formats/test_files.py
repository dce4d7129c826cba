"""Record files: chunked memory-mapped reading, terminators, errors with offsets, safe appends."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from ddsbind.errors import FormatError
from ddsbind.formats import RecordWriter, append_records, count_records, iter_chunks, read_records, verify
from ddsbind.formats.checksums import checksum, checksum_bytes
from tests.support import RECORD0, RECORD1


def _random_owners(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    return np.stack([rng.permutation(base) for _ in range(n)])


def test_chunks_cover_file_in_order(tmp_path):
    """Without this, chunked reading of big files could drop, repeat or reorder records."""
    owners = _random_owners(257)
    tables = np.random.default_rng(1).integers(0, 14, (257, 5, 4)).astype(np.uint8)
    p = tmp_path / "a.zrd"
    append_records(p, owners=owners, tables=tables)
    chunks = list(iter_chunks(p, chunk=50))
    assert [c.start for c in chunks] == list(range(0, 257, 50))
    np.testing.assert_array_equal(np.concatenate([c.owners for c in chunks]), owners)
    np.testing.assert_array_equal(np.concatenate([c.tables for c in chunks]), tables)
    np.testing.assert_array_equal(np.concatenate([c.index for c in chunks]), np.arange(257))


def test_null_terminator_stops_reading(tmp_path):
    """Without this, Pavlicek's null-terminated lists would be read past their end as garbage."""
    p = tmp_path / "t.zrd"
    p.write_bytes(RECORD0 + RECORD1 + bytes(23) + b"\x01" * 30)
    assert count_records(p) == 2
    assert len(read_records(p)) == 2


def test_truncated_tail_reports_index_and_offset(tmp_path):
    """Without this, a cut-off download would be read silently, or fail without saying where."""
    p = tmp_path / "t.zrd"
    p.write_bytes(RECORD0 + RECORD1 + RECORD0[:5])
    with pytest.raises(FormatError) as e:
        read_records(p)
    assert (e.value.index, e.value.offset) == (2, 46)
    assert len(read_records(p, on_error="skip")) == 2


def test_malformed_record_reports_index_and_offset(tmp_path):
    """Without this, users could not find the corrupt record in a large file."""
    bad_deal = bytes([0xFF]) + RECORD0[1:]  # SA..SJ all South: 16 cards to South
    bad_nibble = RECORD1[:13] + bytes([0xE7]) + RECORD1[14:]
    p = tmp_path / "m.zrd"
    p.write_bytes(RECORD0 + bad_deal + RECORD1 + bad_nibble)
    with pytest.raises(FormatError) as e:
        list(iter_chunks(p, chunk=2))
    assert (e.value.index, e.value.offset) == (1, 23)
    skipped = read_records(p, on_error="skip")
    assert skipped.index.tolist() == [0, 2]
    raw = read_records(p, on_error="raw")
    assert raw.bad.tolist() == [False, True, False, True]
    assert raw.tables[3, 4, 0] == 14  # kept as read: byte 13 high nibble = NT by North
    q = tmp_path / "m2.zrd"
    q.write_bytes(RECORD0 + bad_nibble)
    with pytest.raises(FormatError, match="14") as e:
        read_records(q)
    assert (e.value.index, e.value.offset) == (1, 23)


def test_zdd_and_zbd_and_hand_makes_files(tmp_path):
    """Without this, the other fixed-size formats could not be read and written as files."""
    owners = _random_owners(10)
    tables = np.full((10, 5, 4), 15, np.uint8)
    tables[:, 0, :] = 7
    append_records(tmp_path / "a.zbd", owners=owners)
    append_records(tmp_path / "a.zdd", tables=tables)
    append_records(tmp_path / "a.hm", "hand-makes", owners=owners, hand=np.arange(10) % 4, makes=tables[:, :, 0])
    np.testing.assert_array_equal(read_records(tmp_path / "a.zbd").owners, owners)
    np.testing.assert_array_equal(read_records(tmp_path / "a.zdd").tables, tables)
    hm = read_records(tmp_path / "a.hm", "hand-makes", masks=True)
    np.testing.assert_array_equal(hm.hand, np.arange(10) % 4)
    assert hm.masks.shape == (10, 4, 4)
    np.testing.assert_array_equal(hm.tables[np.arange(10), :, hm.hand], tables[:, :, 0])


def test_writer_appends_whole_records_and_refuses_partial_files(tmp_path):
    """Without this, an interrupted writer could leave a file whose records are all shifted."""
    p = tmp_path / "w.zrd"
    owners = _random_owners(3)
    with RecordWriter(p, fsync=True) as w:
        w.write(owners[:2])
        w.write(owners[2:])
        w.flush()
    assert p.stat().st_size == 3 * 23
    np.testing.assert_array_equal(read_records(p).owners, owners)
    with open(p, "ab") as f:
        f.write(b"\x01\x02")
    with pytest.raises(FormatError, match="partial"):
        RecordWriter(p)
    with RecordWriter(p, repair=True) as w:
        w.write(owners[:1])
    assert p.stat().st_size == 4 * 23


def test_writer_rolls_back_a_failed_record(tmp_path):
    """Without this, a record that fails validation could be half-written."""
    p = tmp_path / "w.zrd"
    owners = _random_owners(2)
    append_records(p, owners=owners)
    bad = owners.copy()
    bad[1, 0] = bad[1, 13] = 0  # not 13 each
    with pytest.raises(FormatError, match="record 2: not a full deal"), RecordWriter(p) as w:
        w.write(bad)
    assert p.stat().st_size == 2 * 23


def test_writer_refuses_file_ending_in_terminator(tmp_path):
    """Without this, appended records could land after a terminator and be invisible."""
    p = tmp_path / "t.zbd"
    p.write_bytes(RECORD0[:13] + bytes(13))
    with pytest.raises(FormatError, match="terminator"):
        RecordWriter(p)


def test_checksum_pads_and_verifies(tmp_path):
    """Without this, checksum verification of odd-length files or via the published hex could be wrong."""
    data = bytes(range(1, 11))  # 10 bytes: words 0x04030201, 0x08070605, 0x00000a09
    assert checksum_bytes(data) == 0x04030201 + 0x08070605 + 0x0A09
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    assert checksum(p) == checksum_bytes(data)
    assert verify(p, f"{checksum(p):x}")
    assert not verify(p, "1")


def test_checksum_of_many_chunks(tmp_path, monkeypatch):
    """Without this, chunk boundaries in big files could corrupt the sum."""
    from ddsbind.formats import checksums as mod

    monkeypatch.setattr(mod, "_CHUNK", 64)
    data = np.random.default_rng(3).integers(0, 256, 1001, dtype=np.uint8).tobytes()
    p = tmp_path / "g.bin"
    p.write_bytes(data)
    words = np.frombuffer(data[:1000], "<u4").astype(object).sum() + int.from_bytes(data[1000:] + bytes(3), "little")
    assert mod.checksum(p) == words


def test_read_records_joins_chunks_field_by_field(tmp_path, monkeypatch):
    """Without this, a file longer than one chunk (a million records) could come back with fields mixed up or lost."""
    from ddsbind.formats import files

    bad_deal = bytes([0xFF]) + RECORD0[1:]
    p = tmp_path / "m.zrd"
    p.write_bytes(RECORD0 + bad_deal + RECORD1 + RECORD0 + RECORD1)
    whole = read_records(p, on_error="raw", masks=True)
    monkeypatch.setattr(files, "iter_chunks", functools.partial(files.iter_chunks, chunk=2))
    joined = read_records(p, on_error="raw", masks=True)
    assert whole.index.shape == (5,) and whole.bad.tolist() == [False, True, False, False, False]
    for name in ("index", "raw", "owners", "masks", "tables", "bad"):
        np.testing.assert_array_equal(getattr(joined, name), getattr(whole, name), err_msg=name)
    assert joined.hand is None and joined.makes is None


def test_atomic_output_names_the_target_not_its_temporary_file(tmp_path, monkeypatch):
    """Without this, an unwritable target was named by its temporary file (`.x.zrj.cj44j1tz.part`)."""
    import os

    from ddsbind.formats._common import atomic_output

    target = tmp_path / "no-such-dir" / "x.zrj"
    with pytest.raises(OSError) as e, atomic_output(target) as out:
        out.write(b"never")
    assert str(target) in str(e.value) and ".part" not in str(e.value) and "not written" in str(e.value)

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    full = tmp_path / "full.zrj"
    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError) as e, atomic_output(full) as out:
        out.write(b"data")
    assert str(full) in str(e.value) and ".part" not in str(e.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["zbs", "pbn", "gib", "lin", "dds"])
def test_parts_written_one_by_one_join_to_the_whole_file(name):
    """Without this, a large conversion written part by part could differ from the same file written whole."""
    from ddsbind.dealer import deal_batch
    from ddsbind.formats.registry import Records, get

    fmt = get(name)
    assert fmt.dump is not None and fmt.dump_part is not None
    owners = deal_batch(7, 0, size=5)
    tables = np.random.default_rng(7).integers(0, 14, (5, 5, 4), dtype=np.uint8)
    parts = [fmt.dump_part(Records(owners[a:b], tables[a:b]), a, b == 5) for a, b in ((0, 2), (2, 3), (3, 5))]
    head = b"" if fmt.head is None else fmt.head(5)  # DDS's count line, written once the parts are done
    assert head + b"".join(parts) == fmt.dump(Records(owners, tables))
