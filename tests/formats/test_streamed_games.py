"""Game-record files converted a batch at a time give the bytes, warnings and errors of the files read whole (#38).

Each conversion between PBN game records, LIN and ZRJ (and from them to a deal
format) is run through :func:`ddsbind.formats.convert.convert`, which reads and
writes a batch at a time, with tiny batches and tiny text blocks (blocks that
end mid-line, mid-character, mid-pair), and compared with what the formats'
whole-file functions (a game codec's ``load``/``dump``, a format's ``load``/``dump``) give.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ddsbind.errors import FormatError
from ddsbind.formats import _common, games, lin, lintext, reading, registry
from ddsbind.formats.convert import convert
from ddsbind.record import GameRecord

RECORDS = Path(__file__).parent.parent / "data" / "records"
CORPUS = sorted(RECORDS.glob("*.lin")) + sorted(RECORDS.glob("*.pbn"))


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text read 7 bytes at a time; LIN's buffer dropped after every pair."""
    monkeypatch.setattr(_common, "TEXT_BLOCK", 7)
    monkeypatch.setattr(lintext, "TEXT_BLOCK", 7)
    monkeypatch.setattr(lintext, "_KEEP", 3)


def _whole(src: Path, sfmt: registry.Format, dfmt: registry.Format) -> tuple[bytes | None, str | None, list[str]]:
    """The output of ``src`` converted to ``dfmt`` read and written whole: bytes (or the error) and warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if games.carries_games(src, sfmt, dfmt):
                assert sfmt.games is not None and dfmt.games is not None
                records = sfmt.games.load(src.read_bytes(), str(src))
                data = dfmt.games.dump(records)
                dropped = dfmt.games.unheld(records) if dfmt.games.unheld is not None else []
                if dropped:
                    warnings.warn(f"{dfmt.name} cannot hold {src}'s {', '.join(dropped)}: dropped", stacklevel=1)
            else:
                assert sfmt.load is not None and dfmt.encode is not None
                got = sfmt.load(src.read_bytes(), str(src))
                data = dfmt.encode(registry.Records(got.owners, got.tables)).tobytes()
                with open(src, "rb") as f:
                    dropped = sfmt.extras(f, str(src)) if sfmt.extras is not None else []
                if dropped:
                    warnings.warn(f"{dfmt.name} cannot hold {src}'s {', '.join(dropped)}: dropped", stacklevel=1)
        except FormatError as exc:
            return None, str(exc), []
    return data, None, sorted(str(w.message) for w in caught)


def _streamed(src: Path, out: Path, target: str, chunk: int) -> tuple[bytes | None, str | None, list[str]]:
    out.unlink(missing_ok=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            convert(src, out, dst_format=target, chunk=chunk)
        except FormatError as exc:
            assert not out.exists()
            return None, str(exc).removesuffix(f"; {out} not written"), []
    return out.read_bytes(), None, sorted(str(w.message) for w in caught)


def _check(src: Path, tmp_path: Path, targets: tuple[str, ...] = ("pbn", "lin", "zrj", "zrd")) -> int:
    """Every target of ``src`` streamed in batches of 1, 3 and 1000 equals the whole; how many were compared."""
    sfmt = registry.by_extension(src)
    assert sfmt is not None
    compared = 0
    for target in targets:
        dfmt = registry.get(target)
        if sfmt is dfmt and sfmt.annotate is not None:
            continue  # PBN to PBN keeps the file as it is (pbn.add_results), not game by game
        want = _whole(src, sfmt, dfmt)
        for chunk in (1, 3, 1000):
            got = _streamed(src, tmp_path / f"out.{target}", target, chunk)
            assert got == want, (src.name, target, chunk)
            compared += 1
    return compared


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_game_files_convert_in_batches_as_read_whole(tmp_path, small_blocks, path):
    """Without this, converting a large LIN or PBN game file a batch at a time could change a byte or an error."""
    assert _check(path, tmp_path) >= 9


@pytest.mark.filterwarnings("ignore")  # ZRJ's board-cycle and truncated-play warnings: compared in the checks
@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.lin")), ids=lambda p: p.name)
def test_zrj_made_from_the_corpus_converts_in_batches_as_read_whole(tmp_path, small_blocks, path):
    """Without this, a large ZRJ file converted to PBN or LIN a batch at a time could differ from the whole file's."""
    src = tmp_path / "in.zrj"
    convert(path, src)
    assert _check(src, tmp_path, ("pbn", "lin", "zrj")) == 9


def _tiled_lin(tmp_path: Path, copies: int, late_name: str) -> Path:
    """``copies`` of the corpus's vugraph archive, one after the other; a player named ``late_name`` near the end."""
    text = (RECORDS / "vugraph_final.lin").read_text("utf-8")
    text = text if text.endswith("\n") else text + "\n"
    body = text * copies
    at = body.rindex("pn|")
    path = tmp_path / "big.lin"
    path.write_bytes((body[: at + 3] + late_name + body[at + 3 :]).encode("utf-8"))
    return path


@pytest.mark.filterwarnings("ignore")  # ZRJ's board-cycle and truncated-play warnings: compared in the checks
@pytest.mark.parametrize("late_name", ["Rôti ", "Łukasz "])
def test_a_late_name_decides_the_pbn_encoding_of_the_whole_file(tmp_path, small_blocks, late_name):
    """Without this, a name PBN's ISO-8859-1 cannot hold, met late in a LIN file, would leave a PBN of two encodings."""
    src = _tiled_lin(tmp_path, 12, late_name)
    data, error, _ = _whole(src, registry.get("lin"), registry.get("pbn"))
    assert error is None and data is not None
    assert data.startswith(b"\xef\xbb\xbf") == (late_name == "Łukasz ")  # a byte-order mark only when needed
    for chunk in (1, 5, 1000):
        assert _streamed(src, tmp_path / "out.pbn", "pbn", chunk)[0] == data, chunk
    assert _check(src, tmp_path, ("lin", "zrj")) == 6


def _damaged(tmp_path: Path, how: str) -> Path:
    text = (RECORDS / "vugraph_final.lin").read_text("utf-8") * 6
    at = text.index("md|", len(text) * 2 // 3)
    damage = {"not a pair": "xyz|", "bad tag": "m1|", "bad deal": "md|9|", "no bar": ""}[how]
    text = text[:at] + damage + text[at:] if how != "no bar" else text.rstrip("\n|") + " trailing words"
    path = tmp_path / "bad.lin"
    path.write_text(text, "latin-1" if how == "bad tag" else "utf-8")
    return path


@pytest.mark.parametrize("how", ["not a pair", "bad tag", "bad deal", "no bar"])
def test_errors_far_into_a_lin_file_read_in_batches_name_what_the_whole_file_names(tmp_path, small_blocks, how):
    """Without this, an error in a large LIN file read a block at a time could name another board or character."""
    src = _damaged(tmp_path, how)
    with reading(True):  # strictly: a claim cut by a missing bar is refused too (leniently it is set aside)
        want = _whole(src, registry.get("lin"), registry.get("pbn"))
        assert want[1] is not None and "record " in want[1] and "line " in want[1]
        for chunk in (1, 4):
            assert _streamed(src, tmp_path / "out.pbn", "pbn", chunk) == want
            assert _streamed(src, tmp_path / "out.zrd", "zrd", chunk)[1] == want[1]


@pytest.mark.filterwarnings("ignore")  # what ZRJ cannot hold of the LIN file it is made from
def test_zrj_errors_read_in_batches_name_the_record_the_whole_file_names(tmp_path):
    """Without this, a bad record deep in a ZRJ file converted a batch at a time could be named by its batch place."""
    src = tmp_path / "in.zrj"
    convert(_tiled_lin(tmp_path, 2, ""), src)
    data = bytearray(src.read_bytes())
    data[80 * 9 + 14] = 3  # the 10th record's (index 9) contract byte: invalid
    src.write_bytes(bytes(data))
    want = _whole(src, registry.get("zrj"), registry.get("pbn"))
    assert want[1] is not None and want[1].startswith("record 10, byte offset 734: ")
    assert _streamed(src, tmp_path / "out.pbn", "pbn", 4) == want
    src.write_bytes(bytes(data[: 80 * 5]) + bytes(80) + bytes(data[80 * 6 :]) + b"\1")  # a null record, a tail
    want = _whole(src, registry.get("zrj"), registry.get("lin"))
    assert want[1] is not None and "truncated" in want[1]
    assert _streamed(src, tmp_path / "out.lin", "lin", 2) == want
    src.write_bytes(bytes(data[: 80 * 5]) + bytes(80) + bytes(data[80 * 6 :]))  # read up to the null record
    got = _streamed(src, tmp_path / "out.lin", "lin", 2)
    assert got == _whole(src, registry.get("zrj"), registry.get("lin")) and got[0] is not None
    assert got[0].count(b"\n") == 5


def test_game_records_read_in_batches_are_the_records_read_whole(tmp_path, small_blocks):
    """Without this, a reader of a large game file a batch at a time could give other records than the whole file."""
    for path in CORPUS:
        fmt = registry.by_extension(path)
        assert fmt is not None and fmt.games is not None
        try:
            whole = fmt.games.load(path.read_bytes(), str(path))
        except FormatError:
            continue
        with open(path, "rb") as f:
            parts = list(fmt.games.read(f, str(path), 2))
        assert all(0 < len(p) <= 2 for p in parts)
        streamed = [g for p in parts for g in p]
        assert [(g.deal, g.auction, g.play, g.tags, g.commentary) for g in streamed] == [
            (g.deal, g.auction, g.play, g.tags, g.commentary) for g in whole
        ]
        assert np.array_equal(np.array([g.deal.owners() for g in streamed]), np.array([g.deal.owners() for g in whole]))


@pytest.mark.parametrize(
    ("parts", "encoding"),
    [
        (["abc", "déf", "ghi"], None),
        (["abc", "Ł", "é"], None),
        (["a", "é", "€"], "cp1252"),
        (["a", "é", "Ł"], "cp1252"),
        (["a", "b"], "utf-8-sig"),
        (["é", "Ł"], "latin-1"),
        ([], None),
    ],
)
def test_text_written_in_parts_is_encoded_as_the_whole_text(parts, encoding, monkeypatch):
    """Without this, a PBN file written part by part could change encoding half-way (a file no reader reads)."""
    import io

    from ddsbind.formats.pbntext import encode_pbn, write_text

    monkeypatch.setattr(_common, "TEXT_BLOCK", 2)  # the spool goes to a file and is re-encoded a block at a time
    out = io.BytesIO()
    write_text(parts, out, encoding)
    assert out.getvalue() == encode_pbn("".join(parts), encoding)


@pytest.mark.filterwarnings("ignore::ddsbind.errors.ResultsWarning")  # BBA's garbage table entry: said by the reader
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_frames_of_game_files_read_in_chunks_are_those_of_the_records_read_whole(small_blocks, path):
    """Without this, read_dataframe(chunksize=) of a large game file would hold it whole, or give other rows."""
    pd = pytest.importorskip("pandas")
    from ddsbind.formats import dataframe, read_dataframe

    fmt = registry.by_extension(path)
    assert fmt is not None and fmt.games is not None
    if not fmt.holds_games(path):  # a file of bare deals: read as deals (test_scale.py)
        assert sum(len(p) for p in read_dataframe(path, chunksize=2)) == len(read_dataframe(path))
        return
    try:
        whole = fmt.games.load(path.read_bytes(), str(path))
    except FormatError as exc:
        with pytest.raises(FormatError, match="^" + str(exc)[:30]):
            list(read_dataframe(path, chunksize=2))
        return
    parts = list(read_dataframe(path, chunksize=2))
    assert len(parts) == -(-len(whole) // 2)
    for k, part in enumerate(parts):
        pd.testing.assert_frame_equal(part, dataframe._games_frame(whole[2 * k : 2 * k + 2], None))


def test_mangled_lin_files_read_as_a_stream_give_the_records_or_error_of_the_whole_text(monkeypatch):
    """Without this, LIN read a block at a time could split a pair, a comment or a board otherwise than whole text."""
    import io
    import random

    texts = [p.read_text("utf-8") for p in sorted(RECORDS.glob("*.lin"))]
    bits = ["|", "\n", "%", "md|", " ", "\r\n", "|md|", "nt|md|", "pn|A,B|", "x", "% c\n", "st||", "ah|Board 3|", "é"]

    def outcome(read: Callable[[], list[GameRecord]]) -> tuple[object, ...]:
        try:
            got = read()
        except FormatError as exc:
            return ("error", str(exc), exc.index, exc.offset)
        return tuple((g.deal, g.auction, g.play, g.tags, g.commentary, g.commentary_at, g.result, g.board) for g in got)

    rng = random.Random(38)
    kinds = set()
    for _ in range(150):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 4)):  # a few pieces inserted or cut anywhere
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(bits) + text[i:] if rng.random() < 0.5 else text[:i] + text[i + 3 :]
        data = text.encode("utf-8") if rng.random() < 0.8 else text.encode("latin-1", "replace")
        want = outcome(lambda data=data: lin.parse_lin(data, name="f.lin"))
        monkeypatch.setattr(lintext, "TEXT_BLOCK", rng.choice([1, 2, 3, 7, 50]))
        monkeypatch.setattr(lintext, "_KEEP", rng.choice([0, 1, 5, 100]))
        assert outcome(lambda data=data: list(lin.iter_lin(io.BytesIO(data), "f.lin"))) == want, text
        kinds.add(want[0] == "error")
    assert kinds == {True, False}  # both records and errors were compared
