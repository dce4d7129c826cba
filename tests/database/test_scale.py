"""Large files in flat memory, and statistics that merge (issue 38).

Memory: every streaming command runs in one child process over a file of N
records and one of 2N (the same valid records, tiled), with a small chunk
size; before each run the child resets its peak resident set
(``/proc/self/clear_refs``), and after it reads the peak (``VmHWM``) and
tracemalloc's peak.  A command whose memory grows with the file (a memory
map's pages, a list of every record) shows the 2N file's extra megabytes;
one that streams shows the same peak within 10%.  (The RSS comparison has a
floor of 256 kB for page and allocator granularity: the files differ by
2.3 MB.)

Merging: the statistics of a file equal the merge of the statistics of any
split of it, to the byte in ``--json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise as pairs
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddsbind.cli import main
from ddsbind.database import statistics
from ddsbind.dealer.statistics import ContractTally, contract_report
from ddsbind.formats.zrd import encode_zrd

N = 100_000

PROBE = r"""
import json, os, sys, tracemalloc
from pathlib import Path
import numpy as np

work, small, large = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
CHUNK = 1024

from ddsbind.database import generation, stats, verify
from ddsbind.dealer import library
from ddsbind.formats import read_dataframe
from ddsbind.formats.checksums import checksum
from ddsbind.formats.convert import convert
from ddsbind.cli import main

generation._CHECK_CHUNK = CHUNK
library.CHUNK = CHUNK
script = work / "all.dl"
script.write_text("action average hcp(north)\n")

def dealer(path):
    out = work / "lib.zrd"
    out.unlink(missing_ok=True)
    args = ["dealer", str(script), "-L", str(path), "--contract", "3NS", "--contract", "4SN", "--json",
            "-o", str(out), "--threads", "1"]
    try:
        main(args, standalone_mode=False)
    finally:
        sys.stdout.flush()

def converted(target):
    def run(path):
        out = work / f"out.{target}"
        out.unlink(missing_ok=True)
        convert(path, out, dst_format=target, chunk=CHUNK)
    return run

def resume(path):
    # A stopped run of len(path) deals: the first half on disk, the manifest of the whole; then finished.
    from ddsbind.database import Manifest, generate, generating_path
    from ddsbind.database.manifest import write_manifest
    db = path.with_suffix(".zbd")
    for p in (db, Path(f"{db}.json"), generating_path(db)):
        p.unlink(missing_ok=True)
    n = os.path.getsize(path) // 23 // 50
    generate(db, n // 2, 5, batch=CHUNK)
    Path(f"{db}.json").unlink()
    write_manifest(generating_path(db), Manifest(format="zbd", count=n, seed=5, record_size=13))
    generate(db, n, 5, resume=True, batch=CHUNK)

commands = {
    "checksum": lambda p: checksum(p, chunk=CHUNK * 23),
    "verify": lambda p: verify(p, sample=0, chunk=CHUNK),
    "stats": lambda p: stats(p, par_sample=50, chunk=CHUNK).to_dict(),
    "convert zbd": converted("zbd"),
    "convert zdd": converted("zdd"),
    "convert hand-makes": converted("hand-makes"),
    "read_dataframe": lambda p: sum(len(f) for f in read_dataframe(p, chunksize=CHUNK)),
    "dealer -L --contract --json -o": dealer,
    "generate --resume": resume,
}
tiny = work / "tiny.zrd"
with open(small, "rb") as f:
    tiny.write_bytes(f.read(23 * 3 * CHUNK))
if len(sys.argv) > 4:  # one command over one file, for a process's own peak (ru_maxrss)
    sys.stdout = open(os.devnull, "w")
    commands[sys.argv[4]](Path(sys.argv[2]))
    sys.exit(0)
"""

#: The end of a probe: each of its ``commands`` over ``tiny`` (a warm-up), ``small`` and ``large``, measured.
MEASURE = r"""
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1])

found = {}
stdout = sys.stdout
sys.stdout = open(os.devnull, "w")
for name, command in commands.items():
    command(tiny)  # warm-up: lazy imports and caches are not the file's
    peaks = []
    for path in (small, large):
        open("/proc/self/clear_refs", "w").write("5")
        before = status("VmRSS")
        tracemalloc.start()
        command(path)
        traced = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peaks.append([status("VmHWM") - before, traced // 1024])
    found[name] = peaks
sys.stdout = stdout
print(json.dumps(found))
"""


def tiled(path: Path, records: int, block: np.ndarray) -> Path:
    """``records`` ZRD records: ``block``'s, repeated."""
    reps = -(-records // block.shape[0])
    path.write_bytes(np.tile(block, (reps, 1))[:records].tobytes())
    return path


@pytest.fixture(scope="module")
def block() -> np.ndarray:
    rng = np.random.default_rng(38)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    owners = base[np.argsort(rng.random((4096, 52)), axis=1)]
    return encode_zrd(owners, rng.integers(0, 14, (4096, 5, 4)).astype(np.uint8))


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc/self/clear_refs")
def test_peak_memory_of_each_command_does_not_grow_with_the_file(tmp_path, block):
    """Without this, a command could hold the whole file (a map's pages, every record) and fail on 100M deals."""
    _assert_flat(
        PROBE, tmp_path, tiled(tmp_path / "small.zrd", N, block), tiled(tmp_path / "large.zrd", 2 * N, block), 9
    )


def _assert_flat(probe: str, tmp_path: Path, small: Path, large: Path, commands: int) -> None:
    """Run ``probe`` (then :data:`MEASURE`) over two files; each command's peaks over the larger within 10%."""
    proc = subprocess.run(
        [sys.executable, "-c", probe + MEASURE, str(tmp_path), str(small), str(large)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout.splitlines()[-1])
    assert len(found) == commands
    for name, ((rss_n, traced_n), (rss_2n, traced_2n)) in found.items():
        assert rss_2n <= max(rss_n * 1.1, rss_n + 256), (name, "RSS kB", rss_n, rss_2n)
        assert traced_2n <= max(traced_n * 1.1, traced_n + 64), (name, "traced kB", traced_n, traced_2n)


#: Runs a command and prints its peak RSS (kB): a small process between pytest and it, since a child's
#: peak counts the memory of the process it was forked from.
LAUNCH = """
import resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, text=True)
assert proc.returncode == 0, proc.stderr
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.slow
def test_peak_rss_of_each_command_process_does_not_grow_with_the_file(tmp_path, block):
    """Without this, a command mapping the whole file (its pages counted as they are read) would pass unseen."""
    sizes = {"tiny": 3 * 1024, "small": 4 * N, "large": 8 * N}
    paths = {k: tiled(tmp_path / f"{k}.zrd", n, block) for k, n in sizes.items()}
    names = ["checksum", "verify", "stats", "convert zbd", "read_dataframe", "dealer -L --contract --json -o"]

    def peak(name: str, size: str) -> int:
        cmd = [sys.executable, "-c", PROBE, str(tmp_path), str(paths[size]), str(paths["large"]), name]
        proc = subprocess.run([sys.executable, "-c", LAUNCH, *cmd], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return int(proc.stdout.split()[-1])

    for name in names:
        base = peak(name, "tiny")
        grown = [peak(name, "small") - base, peak(name, "large") - base]
        # The large file is 9.2 MB bigger than the small one: a command holding it shows that much more.
        assert grown[1] <= max(grown[0] * 1.1, grown[0] + 2048), (name, "kB over the tiny file's peak", grown)


def _split_stats(tmp_path: Path, data: bytes, cuts: list[int], par: int | None) -> tuple[str, str]:
    """JSON of the statistics of ``data`` whole, and of its parts at ``cuts`` (record indices) merged."""
    whole = tmp_path / "whole.zrd"
    whole.write_bytes(data)
    bounds = [0, *cuts, len(data) // 23]
    parts = []
    for k, (a, b) in enumerate(pairs(bounds)):
        p = tmp_path / f"part{k}.zrd"
        p.write_bytes(data[a * 23 : b * 23])
        parts.append(statistics.stats(p, par_sample=par, chunk=7))
    merged = statistics.stats_of(parts)
    assert merged is not None
    one = statistics.stats(whole, par_sample=par)
    assert one.statistics is not None
    ranges = statistics.merge(statistics.range_statistics(whole, a, b, par_sample=par) for a, b in pairs(bounds))
    assert json.dumps(ranges.to_dict()) == json.dumps(one.statistics.to_dict())
    return json.dumps(one.statistics.to_dict(), indent=1), json.dumps(merged.to_dict(), indent=1)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), data=st.data())
def test_statistics_of_parts_merge_into_those_of_the_whole_byte_for_byte(tmp_path_factory, seed, n, data):
    """Without this, shards of a database read on a Dask cluster would report other statistics than one file."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    owners = base[np.argsort(rng.random((n, 52)), axis=1)]
    tables = rng.integers(0, 14, (n, 5, 4)).astype(np.uint8)
    tables[rng.random(n) < 0.05, 2, 1] = 15  # a few incomplete tables, skipped by both
    recs = encode_zrd(owners, tables)
    recs[n // 2 :] = recs[: n - n // 2]  # duplicates: equal records, equal hashes
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    tmp = tmp_path_factory.mktemp("merge")
    par = data.draw(st.sampled_from([None, min(5, n)]))  # par of every deal, or a sample
    whole, merged = _split_stats(tmp, recs.tobytes(), cuts, par=par)
    assert whole == merged


def test_stats_of_shards_on_the_command_line_equal_stats_of_the_file(tmp_path, block):
    """Without this, `ddsbind stats SHARD...` could differ from `ddsbind stats FILE` of the same records."""
    data = block[:300].tobytes()
    (tmp_path / "all.zrd").write_bytes(data)
    (tmp_path / "a.zrd").write_bytes(data[: 23 * 120])
    (tmp_path / "b.zrd").write_bytes(data[23 * 120 :])
    runner = CliRunner()
    one = runner.invoke(main, ["stats", str(tmp_path / "all.zrd"), "--json", "--par-sample", "9"])
    two = runner.invoke(
        main, ["stats", str(tmp_path / "b.zrd"), str(tmp_path / "a.zrd"), "--json", "--par-sample", "9"]
    )
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    whole, shards = json.loads(one.output), json.loads(two.output)
    assert json.dumps(whole["statistics"]) == json.dumps(shards["statistics"])
    assert [f["count"] for f in shards["files"]] == [180, 120]
    text = runner.invoke(main, ["stats", str(tmp_path / "a.zrd"), str(tmp_path / "b.zrd"), "--par-sample", "0"])
    assert "2 files, 300 records" in text.output and "  NS NT" in text.output and "  EW NT" in text.output


def test_stats_reports_each_side_apart(tmp_path):
    """Without this, a file where NS hold all the tricks read '1NT makes 50%', the two sides averaged."""
    rng = np.random.default_rng(1)
    base = np.repeat(np.arange(4, dtype=np.int8), 13)
    owners = base[np.argsort(rng.random((40, 52)), axis=1)]
    tables = np.zeros((40, 5, 4), np.uint8)
    tables[:, :, 0] = tables[:, :, 2] = 10  # N and S take 10 tricks in every strain, E and W 3
    tables[:, :, 1] = tables[:, :, 3] = 3
    path = tmp_path / "ns.zrd"
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    s = statistics.stats(path, par_sample=0)
    assert s.makes is not None
    assert s.makes[0, :, :4].tolist() == [[1.0] * 4] * 5 and s.makes[0, :, 4:].sum() == 0  # NS: up to 4-level
    assert s.makes[1].sum() == 0  # EW: nothing
    assert s.to_dict()["statistics"]["makes"]["NS"]["NT"] == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 200), cut=st.integers(0, 200))
def test_contract_tallies_of_parts_merge_and_agree_with_direct_sums(seed, n, cut):
    """Without this, library mode's streamed --contract report could differ from the report of the kept deals."""
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, 14, (n, 5, 4)).astype(np.int8)
    contracts = ["3NS", "4SN", "5CE"]
    cut = min(cut, n)
    results = np.stack([tables[:, 4, 2], tables[:, 0, 0], tables[:, 3, 1]], axis=1)
    a, b = ContractTally(contracts, "ns"), ContractTally(contracts, "ns")
    a.add(results[:cut])
    b.add(results[cut:])
    merged = a.merge(b).report()
    whole = contract_report(tables, contracts, "ns")
    assert merged.render("json") == whole.render("json")
    from ddsbind.dealer.scoring import imps, score

    s0 = score(True, 3, 4, results[:, 0].astype(np.int64))  # NS vulnerable: South and North declare
    s1 = score(True, 4, 0, results[:, 1].astype(np.int64))
    diff = (s1 - s0).astype(np.float64)
    got = merged.differences[0]
    assert got["score"] == pytest.approx(diff.mean())
    assert got["score_se"] == pytest.approx(diff.std(ddof=1) / np.sqrt(n))
    imp = imps(s1 - s0).astype(np.float64)
    assert got["imps"] == pytest.approx(imp.mean())
    assert got["imps_se"] == pytest.approx(imp.std(ddof=1) / np.sqrt(n))


@pytest.mark.parametrize("target", ["pbn", "gib", "lin", "zbs", "dds"])
def test_text_outputs_written_part_by_part_equal_the_whole_file(tmp_path, block, target):
    """Without this, converting a large record file to PBN, GIB, LIN, ZBS or DDS held every record, or split wrongly."""
    from ddsbind.formats import registry
    from ddsbind.formats.convert import convert
    from ddsbind.formats.zrd import decode_zrd

    src = tmp_path / "in.zrd"
    src.write_bytes(block[:50].tobytes())
    owners, tables = decode_zrd(src.read_bytes())
    fmt = registry.get(target)
    assert fmt.dump is not None
    want = fmt.dump(registry.Records(owners, tables, hand=np.zeros(50, np.uint8)))
    for chunk in (7, 50, 1000):
        out = tmp_path / f"out{chunk}.{target}"
        assert convert(src, out, dst_format=target, chunk=chunk) == 50
        assert out.read_bytes() == want, chunk
    empty = tmp_path / "empty.zrd"
    empty.write_bytes(b"")
    convert(empty, tmp_path / f"empty.{target}", dst_format=target, chunk=7)
    assert (tmp_path / f"empty.{target}").read_bytes() == fmt.dump(registry.Records(np.zeros((0, 52), np.int8)))


#: Text inputs (issue 38): the commands :data:`MEASURE` measures over PBN, GIB, DDS and ZBS files of the records of a
#: small and a large ZRD file, read 256 records and 16 kB of text at a time; results added to a PBN file in place,
#: 256 games at a time; DDS's reference text written (its body through a temporary file); library mode's PBN output.
TEXT_PROBE = r"""
import json, os, sys, tracemalloc
from pathlib import Path

work, small, large = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
tiny = work / "tiny.zrd"
CHUNK = 256

from ddsbind.cli import main
from ddsbind.dealer import library
from ddsbind.formats import _common, read_dataframe
from ddsbind.formats.convert import convert

_common.TEXT_BLOCK = 1 << 14
library.CHUNK = CHUNK
tiny.write_bytes(small.read_bytes()[: 23 * 3 * CHUNK])
files = {}
for fmt in ("pbn", "gib", "dds", "zbs"):
    for zrd in (tiny, small, large):
        files[fmt, zrd] = zrd.with_suffix(f".{fmt}")
        convert(zrd, files[fmt, zrd], dst_format=fmt)
script = work / "all.dl"
script.write_text("condition hcp(north) >= 10\naction average hcp(north)\n")

def converted(fmt, target):
    def run(path):
        out = work / f"out.{target}"
        out.unlink(missing_ok=True)
        convert(files[fmt, path], out, src_format=fmt, dst_format=target, chunk=CHUNK)
    return run

def frames(fmt):
    return lambda path: sum(len(f) for f in read_dataframe(files[fmt, path], format=fmt, chunksize=CHUNK))

def dealer(path):
    out = work / "lib.pbn"
    out.unlink(missing_ok=True)
    main(["dealer", str(script), "-L", str(path), "--json", "-o", str(out), "--threads", "1"], standalone_mode=False)
    sys.stdout.flush()

def in_place(path):
    # PBN to PBN with results (convert --solve --trust-results: the file's complete tables kept, none solved).
    from ddsbind.database import TableFiller

    out = work / "solved.pbn"
    out.unlink(missing_ok=True)
    convert(files["pbn", path], out, fill=TableFiller(trust_results=True, cache_size=64), chunk=CHUNK)

def to_dds(path):
    out = work / "out.dds"
    out.unlink(missing_ok=True)
    convert(path, out, dst_format="dds", chunk=CHUNK)

commands = {f"convert {fmt} -> zrd": converted(fmt, "zrd") for fmt in ("pbn", "gib", "dds", "zbs")}
commands["convert gib -> pbn"] = converted("gib", "pbn")
commands["convert pbn -> pbn --solve --trust-results"] = in_place
commands["convert zrd -> dds"] = to_dds
commands["read_dataframe pbn"] = frames("pbn")
commands["read_dataframe gib"] = frames("gib")
commands["dealer -L -o pbn"] = dealer
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc/self/clear_refs")
def test_peak_memory_of_text_inputs_does_not_grow_with_the_file(tmp_path, block):
    """Without this, converting or framing a large PBN, GIB, DDS or ZBS file, adding results to a PBN file in place
    or writing DDS's reference text could hold the whole file and run out of RAM."""
    # The large PBN file is 310 kB bigger (its boards in memory some MB, traced): reading it whole shows.
    small, large = tiled(tmp_path / "small.zrd", 800, block), tiled(tmp_path / "large.zrd", 1600, block)
    _assert_flat(TEXT_PROBE, tmp_path, small, large, 10)


def _mixed_pbn(block: np.ndarray) -> bytes:
    """PBN text of 40 deals, results on boards 11..30 only, in UTF-8 with a byte-order mark and an Event."""
    from ddsbind.formats.pbn import format_pbn
    from ddsbind.formats.zrd import decode_zrd

    owners, tables = decode_zrd(block[:40].tobytes())
    tables[:10] = 15
    tables[30:] = 15
    text = format_pbn(owners, tables).replace('[Board "', '[Event "Rôti"]\n[Board "')
    return b"\xef\xbb\xbf" + text.encode("utf-8")


@pytest.mark.parametrize("source", ["pbn", "gib", "dds", "zbs"])
@pytest.mark.parametrize("target", ["pbn", "gib", "lin", "zbs", "dds", "zrd"])
def test_text_inputs_read_in_chunks_convert_to_the_whole_file_output(tmp_path, block, source, target):
    """Without this, a text file read a chunk at a time could convert to other bytes than the file read whole."""
    import warnings

    from ddsbind.errors import FormatError
    from ddsbind.formats import registry
    from ddsbind.formats.convert import convert

    src = tmp_path / f"in.{source}"
    if source == "pbn":
        src.write_bytes(_mixed_pbn(block))
    else:
        convert(tiled(tmp_path / "in.zrd", 40, block), src, dst_format=source)
    sfmt, dfmt = registry.get(source), registry.get(target)
    assert sfmt.load is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = sfmt.load(src.read_bytes(), str(src))
        records = registry.Records(  # each deal's own dealer, vulnerability and par go with it (DDS's text has them)
            whole.owners,
            whole.tables,
            hand=np.zeros(len(whole), np.uint8),
            dealers=whole.dealers,
            vulnerabilities=whole.vulnerabilities,
            pars=whole.pars,
        )
        try:
            if dfmt.dump is not None:
                want = dfmt.dump(records)
            else:
                assert dfmt.encode is not None
                want = dfmt.encode(records).tobytes()
        except FormatError as exc:  # gib from deals without complete results: refused whole and in chunks
            with pytest.raises(FormatError, match=str(exc).split(": ")[-1][:30]):
                convert(src, tmp_path / "refused", src_format=source, dst_format=target, chunk=7)
            return
        if source == target == "pbn":
            want = src.read_bytes()  # PBN to PBN keeps the file as it is
        elif (source, target) == ("pbn", "lin"):  # the file's Event goes to LIN's vg| header (event, no teams)
            want = "vg|Rôti,,I,,,,0,,0|\n".encode() + want
        for chunk in (1, 7, 1000):
            out = tmp_path / f"out{chunk}.{target}"
            assert convert(src, out, src_format=source, dst_format=target, chunk=chunk) == len(whole)
            assert out.read_bytes() == want, chunk
        assert read_dataframe_rows(src, source, 7) == len(whole)


def read_dataframe_rows(path: Path, fmt: str, chunk: int) -> int:
    """Rows of ``read_dataframe(path, chunksize=chunk)``, each frame at most ``chunk`` rows."""
    pytest.importorskip("pandas")
    from ddsbind.formats import read_dataframe

    sizes = [len(f) for f in read_dataframe(path, format=fmt, chunksize=chunk)]
    assert all(0 < s <= chunk for s in sizes)
    return sum(sizes)


@pytest.mark.filterwarnings("ignore::ddsbind.errors.DroppedDataWarning")  # ZRD holds no tags: said, then the error
@pytest.mark.parametrize("errors", ["bad deal", "bad byte", "unclosed brace"])
def test_text_read_in_chunks_names_the_line_the_whole_file_names(tmp_path, block, errors):
    """Without this, a PBN error far into a large file read in blocks could name the wrong line or board."""
    from ddsbind.errors import FormatError
    from ddsbind.formats import _common, pbn
    from ddsbind.formats.convert import convert

    text = _mixed_pbn(block)[3:].decode("utf-8")
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith('[Deal "') and i > 300)
    if errors == "bad deal":
        lines[at] = lines[at].replace("N:", "N:A", 1)
        data = "\n".join(lines).encode("utf-8")
    elif errors == "bad byte":  # the Event of the board at line `at`: a byte UTF-8 has not
        raw = [line.encode("utf-8") for line in lines]
        raw[at - 4] = raw[at - 4].replace(b"R\xc3\xb4ti", b"R\xffti")
        data = b"%Content-type: text/x-pbn; charset=UTF-8\n" + b"\n".join(raw)
    else:
        lines[at] += " {open"
        data = "\n".join(lines).encode("utf-8")
    src = tmp_path / "bad.pbn"
    src.write_bytes(data)
    # A bad deal is set aside with a warning when read leniently; strict reading refuses it, naming its line.
    strict = errors == "bad deal"
    with _common.reading(strict), pytest.raises(FormatError) as whole:  # the text decoded whole, then parsed
        pbn.parse_pbn(pbn.decode_pbn(data, str(src)), name=str(src))
    old = _common.TEXT_BLOCK
    _common.TEXT_BLOCK = 100  # blocks that end mid-line, mid-character
    try:
        with _common.reading(strict), pytest.raises(FormatError) as streamed:
            convert(src, tmp_path / "out.zrd", chunk=3)
    finally:
        _common.TEXT_BLOCK = old
    assert str(streamed.value).split("; ")[0] == str(whole.value).split("; ")[0]
    line = at - 2 if errors == "bad byte" else at + 1  # the Event 3 lines up, after a header line
    assert f"line {line}" in str(streamed.value)


def test_library_mode_writes_text_output_part_by_part_as_the_kept_deals_would_be(tmp_path, block, monkeypatch):
    """Without this, `dealer -L LIB -o deals.pbn` streaming its output could write other bytes than before."""
    from ddsbind.dealer import library
    from ddsbind.dealer.files import write_deals
    from ddsbind.formats.zrd import decode_zrd
    from ddsbind.hands import hcp
    from tests.support import cli

    path = tiled(tmp_path / "lib.zrd", 600, block)
    owners, tables = decode_zrd(path.read_bytes())
    keep = hcp(owners)[:, 0] >= 12
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(north) >= 12\ndealer east\nvulnerable ns\naction average hcp(north)\n")
    monkeypatch.setattr(library, "CHUNK", 64)  # many batches, some with no deal accepted
    for fmt in ("pbn", "gib", "lin", "zbs"):
        out = tmp_path / f"out.{fmt}"
        res = cli("dealer", script, "-L", path, "-o", out, "--threads", "1", "--contract", "3NS")
        assert res.exit_code == 0, res.output
        want = tmp_path / f"want.{fmt}"
        write_deals(want, owners[keep], tables[keep], dealer="E", vulnerable="NS")
        assert out.read_bytes() == want.read_bytes(), fmt


#: Game-record files (issue 38): LIN, PBN game records and ZRJ files of the same boards (the records corpus's
#: LIN files, tiled), each converted to the other game formats and to a deal format, 4 records a batch and 4 kB
#: of text a read.
GAME_PROBE = r"""
import json, os, sys, tracemalloc, warnings
from pathlib import Path

warnings.simplefilter("ignore")  # what ZRJ or LIN cannot hold of the boards: said once, not measured
work, small, large = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
tiny = work / "tiny.lin"
CHUNK = 4

from ddsbind.formats import _common, lintext
from ddsbind.formats.convert import convert

_common.TEXT_BLOCK = lintext.TEXT_BLOCK = 1 << 12
lintext._KEEP = 1 << 10
tiny.write_text("".join(small.read_text("utf-8").splitlines(keepends=True)[:10]), "utf-8")
files = {}
for path in (tiny, small, large):
    files["lin", path] = path
    for fmt in ("pbn", "zrj"):
        files[fmt, path] = path.with_suffix(f".{fmt}")
        convert(path, files[fmt, path])

def converted(fmt, target):
    def run(path):
        out = work / f"out.{target}"
        out.unlink(missing_ok=True)
        convert(files[fmt, path], out, dst_format=target, chunk=CHUNK)
    return run

def solved(path):
    # Game records solved into PBN (convert --solve): a filler answering 7 everywhere, the pipeline's memory, not DDS's.
    import numpy as np

    out = work / "solved.pbn"
    out.unlink(missing_ok=True)
    convert(files["lin", path], out, fill=lambda owners, tables: np.full((len(owners), 5, 4), 7, np.uint8), chunk=CHUNK)

commands = {
    "convert lin -> pbn": converted("lin", "pbn"),
    "convert lin -> pbn --solve": solved,
    "convert lin -> zrj": converted("lin", "zrj"),
    "convert lin -> zrd": converted("lin", "zrd"),
    "convert pbn games -> lin": converted("pbn", "lin"),
    "convert zrj -> pbn": converted("zrj", "pbn"),
}
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc/self/clear_refs")
def test_peak_memory_of_game_record_conversions_does_not_grow_with_the_file(tmp_path):
    """Without this, converting (or solving into PBN) a large LIN, PBN game or ZRJ file would hold every game record."""
    records = Path(__file__).parent.parent / "data" / "records"
    board = "".join(p.read_text("utf-8").rstrip("\n") + "\n" for p in sorted(records.glob("*.lin"))[:2])
    small, large = tmp_path / "small.lin", tmp_path / "large.lin"
    small.write_text(board * 6, "utf-8")  # 42 boards: read whole, the large file doubles the peak
    large.write_text(board * 12, "utf-8")
    _assert_flat(GAME_PROBE, tmp_path, small, large, 6)
