"""Writers that stream (issue 38): PBN results added in place a chunk of games at a time, and DDS's counted text.

Results in place: :func:`ddsbind.formats.pbn.iter_add_results` at chunks of
1, 2 and 3 games gives the bytes and the warnings of the file done in one
chunk (every game solved by one ``fill`` call and edited at once, as
``add_results`` worked before it streamed), over the corpus of
tests/data/records and generated files, in their line endings, without the
empty lines between games, and with a byte-order mark.  ``fill`` and ``par``
here are functions of the deal, not DDS (``tests/formats/test_writers.py``
solves the corpus with DDS): what is tested is where the bytes go.

DDS's reference text (its first line counts the hands) is written by
:class:`ddsbind.formats.files.BatchWriter` through a temporary body file:
the same bytes as :func:`ddsbind.formats.ddsref.format_reference` of every
deal at once, and nothing left behind when it fails.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pytest

from ddsbind.deal import Deal
from ddsbind.errors import FieldWarning, FormatError
from ddsbind.formats import ddsref, pbn, reading, registry
from ddsbind.formats.convert import convert
from ddsbind.formats.files import BatchWriter
from ddsbind.formats.zrd import decode_zrd, encode_zrd

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
CORPUS = sorted(p.name for p in RECORDS.glob("*.pbn"))
DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def _fill(owners: np.ndarray, tables: np.ndarray | None) -> np.ndarray:
    """A table that is a function of the deal alone (some entries contradict a file's, which warns)."""
    weights = np.arange(52, dtype=np.int64) * 7 + 1
    seed = (owners.astype(np.int64) * weights).sum(axis=1)
    return ((seed[:, None, None] + np.arange(20).reshape(5, 4)) % 14).astype(np.uint8)


def _par(tables: np.ndarray, dealers, vuls) -> list[tuple[int, list[str]]]:
    """A par answer from the table, the dealer and the vulnerability (DDS's contract texts)."""
    texts = (["3N-N+1"], ["4S-EW", "4H-EW"], ["5H*-NS-2"], [])
    return [
        (int(t.sum()) - 100 * d - 10 * int(v), texts[(int(t.sum()) + d) % 4])
        for t, d, v in zip(tables, dealers, vuls, strict=True)
    ]


def _added(data: bytes, chunk: int, par=_par) -> tuple[bytes, int, list[str], int]:
    """``iter_add_results`` joined: bytes, games, the warnings said, and the most deals one ``fill`` call had."""
    most = 0

    def fill(owners, tables):
        nonlocal most
        most = max(most, len(owners))
        return _fill(owners, tables)

    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        pieces = list(pbn.iter_add_results(io.BytesIO(data), "in.pbn", fill=fill, par=par, chunk=chunk))
    return b"".join(p for p, _ in pieces), sum(n for _, n in pieces), [str(w.message) for w in said], most


def _variants(data: bytes) -> dict[str, bytes]:
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    out = {
        "as written": data,
        "CRLF": b"\r\n".join(lines),
        "no empty lines": b"\n".join(line for line in lines if line.strip()),
        "byte-order mark": data if data.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + data,
    }
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:  # a UTF-8 mark before Windows-1252 bytes would make a file no writer makes
        del out["byte-order mark"]
    return out


def _generated() -> bytes:
    """80 boards of PBN, results on some, an Event and a note between games, one game on a line of its own tags."""
    rng = np.random.default_rng(38)
    owners = np.repeat(np.arange(4, dtype=np.int8), 13)[np.argsort(rng.random((80, 52)), axis=1)]
    tables = rng.integers(0, 14, (80, 5, 4)).astype(np.uint8)
    tables[::3] = 15
    text = pbn.format_pbn(owners, tables).replace('[Board "5"]', '{a note}\n[Event "Café"]\n[Board "5"]')
    return text.replace('[Board "9"]\n[Dealer "N"]', '[Board "9"] [Dealer "N"]').encode("utf-8")


@pytest.mark.parametrize("name", [*CORPUS, "generated"])
def test_results_added_a_chunk_of_games_at_a_time_equal_the_file_done_at_once(name):
    """Without this, `convert big.pbn out.pbn --solve` streamed could write other bytes than the file done whole."""
    data = _generated() if name == "generated" else (RECORDS / name).read_bytes()
    for variant, text in _variants(data).items():
        whole = _added(text, 10**6)
        assert whole[0] != text and whole[1] > 0, (name, variant)
        for chunk in (1, 2, 3):
            got = _added(text, chunk)
            assert got[:2] == whole[:2], (name, variant, chunk)
            assert sorted(got[2]) == sorted(whole[2]), (name, variant, chunk)  # said as each chunk is read
            assert got[3] <= chunk, (name, variant, chunk)  # DDS asked a chunk at a time
        assert _added(text, 2, par=None)[:2] == _added(text, 10**6, par=None)[:2], (name, variant)


def test_a_game_without_an_empty_line_after_it_gets_its_results_in_itself():
    """Without this, a file whose games have no empty line between them got each game's table inside the next."""
    text = "".join(f'[Event "e{k}"]\n[Board "{k}"]\n[Deal "{DEAL}"]\n' for k in (1, 2, 3)).encode()
    out, n = pbn.add_results(text, fill=_fill)
    boards = pbn.parse_pbn(out)
    assert n == 3 and [b.tags["Event"] for b in boards] == ["e1", "e2", "e3"]
    want = _fill(np.stack([Deal.from_pbn(DEAL).owners()]), None)[0]
    assert all(b.table is not None and np.array_equal(b.table, want) for b in boards)
    assert out.index(b"[OptimumResultTable") < out.index(b'[Event "e2"]')


def test_results_in_place_check_the_file_and_keep_it_when_nothing_is_solved():
    """Without this, `convert x.pbn y.pbn` (no --solve) could change bytes, or pass a bad file read in blocks."""
    data = (RECORDS / "bba_results.pbn").read_bytes()
    pieces = list(pbn.iter_add_results(io.BytesIO(data), "x.pbn", chunk=1))
    assert b"".join(p for p, _ in pieces) == data and sum(n for _, n in pieces) == len(pbn.parse_pbn(data))
    bad = data.replace(b'[Deal "', b'[Deal "N:A', 1)
    with pytest.raises(FormatError, match=r"x\.pbn: record \d+ \(Board \d+\), line \d+: bad Deal"), reading(True):
        list(pbn.iter_add_results(io.BytesIO(bad), "x.pbn"))
    with pytest.warns(FieldWarning, match=r"bad Deal"):  # read leniently: that board set aside, named, kept as written
        assert b"".join(p for p, _ in pbn.iter_add_results(io.BytesIO(bad), "x.pbn")) == bad


@pytest.mark.filterwarnings("ignore::ddsbind.errors.ResultsWarning")  # the fill contradicts the file's tables
def test_convert_in_place_reports_each_chunk_and_leaves_no_file_on_a_late_error(tmp_path):
    """Without this, a bad board far into a large PBN file could leave half a solved file or a silent progress bar."""
    src, dst = tmp_path / "in.pbn", tmp_path / "out.pbn"
    data = _generated()
    src.write_bytes(data)
    done: list[int] = []
    assert convert(src, dst, fill=_fill, chunk=16, progress=done.append) == 80
    assert done == [16] * 5 and dst.read_bytes() == pbn.add_results(data, str(src), fill=_fill)[0]
    lines = data.split(b"\n")
    at = [i for i, line in enumerate(lines) if line.startswith(b"[Deal ")][70]
    lines[at] = lines[at].replace(b"N:", b"N:A", 1)
    src.write_bytes(b"\n".join(lines))
    with pytest.raises(FormatError) as err, reading(True):
        convert(src, tmp_path / "bad.pbn", fill=_fill, chunk=16)
    assert f"line {at + 1}: bad Deal" in str(err.value) and "bad.pbn not written" in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pbn", "out.pbn"]


def _records(n: int, seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    owners = np.repeat(np.arange(4, dtype=np.int8), 13)[np.argsort(rng.random((n, 52)), axis=1)]
    tables = rng.integers(0, 14, (n, 5, 4)).astype(np.uint8)
    tables[::4, 2, 1] = 15  # some tables unknown in part: written without a TABLE line
    return owners, tables


@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_dds_text_written_batch_by_batch_equals_the_whole_file(tmp_path, chunk):
    """Without this, a large conversion to DDS's reference text (its count first) could write other bytes."""
    owners, tables = _records(60)
    src = tmp_path / "in.zrd"
    src.write_bytes(encode_zrd(owners, tables).tobytes())
    want = ddsref.format_reference([Deal.from_owners(o) for o in owners], tables).encode("ascii")
    out = tmp_path / "out.dds"
    assert convert(src, out, dst_format="dds", chunk=chunk) == 60
    assert out.read_bytes() == want and want.startswith(b"NUMBER 60\n")
    back = ddsref.parse_reference(out.read_bytes())
    assert np.array_equal(np.stack([h.deal.owners() for h in back]), decode_zrd(src.read_bytes())[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.zrd", "out.dds"]


def test_dds_text_of_no_records_and_to_standard_output(tmp_path, capfdbinary):
    """Without this, an empty input or `convert x.zrd - --to dds` could write no count line, or none at all."""
    empty = tmp_path / "empty.zrd"
    empty.write_bytes(b"")
    convert(empty, tmp_path / "empty.dds", dst_format="dds", chunk=7)
    assert (tmp_path / "empty.dds").read_bytes() == b"NUMBER 0\n"
    owners, tables = _records(9)
    src = tmp_path / "in.zrd"
    src.write_bytes(encode_zrd(owners, tables).tobytes())
    capfdbinary.readouterr()
    convert(src, "-", dst_format="dds", chunk=2)
    want = ddsref.format_reference([Deal.from_owners(o) for o in owners], tables).encode("ascii")
    assert capfdbinary.readouterr().out == want


def test_a_failure_while_writing_dds_text_leaves_the_target_as_it_was(tmp_path):
    """Without this, a failed conversion to DDS's text could leave a half-written file or its body beside it."""
    target = tmp_path / "out.dds"
    target.write_bytes(b"NUMBER 0\n")
    owners, _ = _records(5)
    bad = owners.copy()
    bad[0, :4] = 0  # North holds 17 cards
    with pytest.raises(registry.FormatError), BatchWriter(target, registry.get("dds")) as w:
        w.write(registry.Records(owners))
        w.write(registry.Records(bad))
        w.write(registry.Records(owners))
    assert target.read_bytes() == b"NUMBER 0\n" and [p.name for p in tmp_path.iterdir()] == ["out.dds"]


def test_library_mode_writes_dds_text_batch_by_batch(tmp_path, monkeypatch):
    """Without this, `dealer -L LIB -o deals.dds` kept every accepted deal in memory, or wrote another count."""
    from ddsbind.dealer import library
    from ddsbind.hands import hcp
    from tests.support import cli

    owners, tables = _records(300, seed=9)
    tables[:] = np.where(tables == 15, 7, tables)
    path = tmp_path / "lib.zrd"
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    keep = hcp(owners)[:, 0] >= 12
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(north) >= 12\naction average hcp(north)\n")
    monkeypatch.setattr(library, "CHUNK", 32)
    out = tmp_path / "out.dds"
    res = cli("dealer", script, "-L", path, "-o", out, "--to", "dds", "--threads", "1", "--contract", "3NS")
    assert res.exit_code == 0, res.output
    want = ddsref.format_reference([Deal.from_owners(o) for o in owners[keep]], tables[keep]).encode("ascii")
    assert out.read_bytes() == want
