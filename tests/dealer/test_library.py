"""Library mode: dealer scripts over solved databases (ZRD, ZBD + ZDD), their stored results, nothing solved."""

from __future__ import annotations

import importlib
import io
import json
import math
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ddsbind import database as db
from ddsbind.cli import main
from ddsbind.deal import Deal, owners_to_masks
from ddsbind.dealer import deal_batch, parse, run
from ddsbind.dealer import library as lib
from ddsbind.dealer.statistics import contract_report, simulate
from ddsbind.errors import DatabaseError, FormatError
from ddsbind.formats.zrd import decode_zrd, encode_zrd
from tests.support import cli

# Two records of Pavlicek's library, as /work/shared/specs/formats.md gives them (his bytes, his reading).
PAVLICEK = [
    bytes.fromhex("72 52 7a 0a e1 7a e4 f9 52 e0 41 fc 7c 49 49 49 49 2b 2a 39 39 67 67"),
    bytes.fromhex("af fe 56 23 69 97 45 8c 20 70 7d 20 be 37 37 a3 a3 75 75 39 39 85 85"),
]
# The spec's hands N / E / S / W (S.H.D.C) of the two records.
PAVLICEK_HANDS = [
    "N:J873.J42.Q65.KT2 AT652.A976.AJ82. Q4.85.KT9.A87643 K9.KQT3.743.QJ95",
    "N:543.J86532.K.AKT QJT6.KT94.96.752 AK9872.7.J2.QJ43 .AQ.AQT87543.986",
]
# The spec's results, Pavlicek's order: strains NT S H D C, each seats W N E S.
PAVLICEK_RESULTS = [
    [[9, 4, 9, 4], [9, 4, 9, 4], [11, 2, 10, 2], [9, 3, 9, 3], [7, 6, 7, 6]],
    [[7, 3, 7, 3], [3, 10, 3, 10], [5, 7, 5, 7], [9, 3, 9, 3], [5, 8, 5, 8]],
]

HCP = np.array([4, 3, 2, 1] + [0] * 9)
SEED = 2024


def dds_table(pav: list[list[int]]) -> np.ndarray:
    """A DDS table [strain S H D C NT][declarer N E S W] from Pavlicek's NT S H D C x W N E S, by hand."""
    table = np.zeros((5, 4), dtype=np.int64)
    for pav_strain, dds_strain in enumerate((4, 0, 1, 2, 3)):
        for pav_seat, dds_seat in enumerate((3, 0, 1, 2)):
            table[dds_strain, dds_seat] = pav[pav_strain][pav_seat]
    return table


def random_library(path: Path, n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """A ZRD file of ``n`` random deals with random results 0..13; returns its owners and tables (DDS order)."""
    owners = np.concatenate([deal_batch(seed, k) for k in range((n + 16383) // 16384)])[:n]
    tables = np.random.default_rng(seed).integers(0, 14, size=(n, 5, 4), dtype=np.uint8)
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    return owners, tables


def hcp(owners: np.ndarray, seat: int) -> np.ndarray:
    """High-card points of ``seat`` in each deal, straight from the owner rows."""
    return ((owners == seat) * HCP[np.arange(52) % 13]).sum(axis=1)


def length(owners: np.ndarray, seat: int, suit: int) -> np.ndarray:
    """Cards of ``suit`` (0 S .. 3 C) ``seat`` holds in each deal."""
    return (owners[:, 13 * suit : 13 * suit + 13] == seat).sum(axis=1)


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray, np.ndarray]:
    """A random library of 20,000 records: the file, its owners, its tables."""
    path = tmp_path_factory.mktemp("library") / "random.zrd"
    owners, tables = random_library(path, 20_000)
    return path, owners, tables


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Library runs read 4096 records at a time, so a small file spans several chunks."""
    monkeypatch.setattr(lib, "CHUNK", 4096)


def test_pavlicek_layout_reads_as_he_describes(tmp_path: Path) -> None:
    """A file in Pavlicek's byte layout gives his hands and his results, as ZRD and as a ZBD + ZDD pair."""
    zrd = tmp_path / "pav.zrd"
    zrd.write_bytes(b"".join(PAVLICEK))
    (tmp_path / "pav.zbd").write_bytes(b"".join(r[:13] for r in PAVLICEK))
    (tmp_path / "pav.zdd").write_bytes(b"".join(r[13:] for r in PAVLICEK))
    want_owners = np.array([Deal.from_pbn(h).owners() for h in PAVLICEK_HANDS])
    for path in (zrd, tmp_path / "pav.zbd", tmp_path / "pav.zdd"):
        (chunk,) = lib.iter_library(path)
        assert chunk.start == 0 and len(chunk) == 2
        assert np.array_equal(chunk.owners, want_owners)
        assert np.array_equal(chunk.masks, owners_to_masks(want_owners))
        for i in range(2):
            assert np.array_equal(chunk.tables[i], dds_table(PAVLICEK_RESULTS[i]))
    # Record 0: West makes 9 tricks in NT and 11 in hearts; North 4 in NT; record 1: North 10 in spades.
    script = parse(
        'action printes(tricks(west, notrumps), " ", tricks(west, hearts), " ", tricks(north, notrumps), " ",'
        " tricks(north, spades), \\n)"
    )
    out = io.StringIO()
    result = run(script, 0, library=zrd, out=out)
    assert out.getvalue() == "9 11 4 4\n7 5 3 10\n"
    assert (result.generated, result.produced) == (2, 2)


def test_every_action_equals_numpy_over_decoded_records(library_file, small_chunks) -> None:
    """Averages, 1-D and 2-D frequencies and the accepted count equal a numpy computation over the records."""
    path, owners, tables = library_file
    script = parse(
        """condition hcp(north) + hcp(south) >= 22 && tricks(north, notrumps) >= 7
action average "hcp" hcp(north) + hcp(south), average "nt" tricks(south, notrumps),
  frequency "sp" (tricks(north, spades), 2, 11),
  frequency "two" (hcp(north), 10, 20, spades(north) + spades(south), 5, 9)
"""
    )
    result = run(script, 0, library=path, threads=2)
    h = hcp(owners, 0) + hcp(owners, 2)
    mask = (h >= 22) & (tables[:, 4, 0] >= 7)
    assert (result.generated, result.produced) == (len(owners), int(mask.sum()))
    assert math.isclose(result.sums[0], h[mask].sum())
    assert math.isclose(result.sums[1], tables[mask, 4, 2].sum())
    spades = tables[mask, 0, 0].astype(int)
    want = [(spades < 2).sum(), *[(spades == v).sum() for v in range(2, 12)], (spades > 11).sum()]
    assert result.counts[2].tolist() == want
    north, fit = hcp(owners, 0)[mask], (length(owners, 0, 0) + length(owners, 2, 0))[mask]
    rows = np.clip(north - 10 + 1, 0, 12)  # Low, 10 .. 20, High
    cols = np.clip(fit - 5 + 1, 0, 6)  # Low, 5 .. 9, High
    want2 = np.zeros((13, 7), dtype=np.int64)
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        want2[r, c] += 1
    assert np.array_equal(result.counts[3], want2)


@pytest.mark.parametrize(
    "weights",
    [(1,) * 13, (4, 3, 2, 1), (2, 1), (0, 0, 0, 0, 1), (0,) * 8 + (1, 1, 5), (9,) * 13, (60, 50), (300, 1), (4.5, 3)],
)
def test_counts_from_the_bytes_equal_hands_of_the_owners(library_file, weights) -> None:
    """Every count library mode reads from the ZBD bytes (per hand and per suit) equals Hands' count of the owners."""
    path, owners, _ = library_file
    chunk = next(lib.Library(path, count=3000).chunks(3000))
    ours, theirs = lib.LibraryHands(chunk.deals), lib.Hands(owners[:3000])
    for by_suit in (False, True):
        got, want = ours.count(weights, by_suit=by_suit), theirs.count(weights, by_suit=by_suit)
        assert got.shape == want.shape and np.array_equal(got, want), (weights, by_suit)
    assert np.array_equal(ours.lengths, theirs.lengths)
    assert np.array_equal(ours.shape_codes, theirs.shape_codes)


def test_tricks_read_in_place_equal_the_decoded_tables(library_file) -> None:
    """tricks() of every strain and declarer, on all rows and on a few, equals the record's decoded table."""
    path, _, tables = library_file
    chunk = next(lib.Library(path, count=1000).chunks(1000))
    frame = lib.LibraryFrame(chunk, parse("action average hcp(north)"))
    every, few = np.arange(1000), np.array([3, 17, 999])
    for strain in range(5):
        for seat in range(4):
            assert np.array_equal(frame.tricks(every, strain, seat), tables[:1000, strain, seat])
            assert np.array_equal(frame.at_least(few, strain, seat, 7), tables[few, strain, seat] >= 7)


LANGUAGE = """condition shape(north, any 4333 + any 5332) && hcp(north) >= 12 && !hascard(east, AS)
  && losers(south) <= 8 && controls(north, spades) >= 0 && c13(west) > 20 && top3(east, hearts) < 3
  && pt0(south) + tens(north) >= 1 && (tricks(east, clubs) > 5 ? clubs(east) >= 2 : diamonds(west) < 6)
action average "ctl" controls(north), average "cc" cccc(north) + quality(south, hearts), average "r" rnd(100),
  average "sc" score(vul, x3N, tricks(north, notrumps)),
  average "imp" imps(score(nv, x4S, tricks(south, spades)) - score(nv, x3N, tricks(south, notrumps))),
  frequency "los" (losers(north), 3, 10), printoneline, printcompact, printpbn,
  printes("hcp ", hcp(north), " tricks ", tricks(south, hearts), \\n), print(north, south)
"""


def test_every_function_and_print_equals_a_run_over_the_same_deals(library_file, small_chunks) -> None:
    """Every function, statistic and print of a library run equals a run over the same deals and tables."""
    path, owners, tables = library_file
    by_deal = {row.tobytes(): table for row, table in zip(owners, tables, strict=True)}

    def stored(o: np.ndarray) -> np.ndarray:
        return np.array([by_deal[row.tobytes()] for row in o], dtype=np.int8)

    script = parse(LANGUAGE)
    ours, theirs = io.StringIO(), io.StringIO()
    a = run(script, 7, library=path, out=ours, threads=2)
    b = run(script, 7, deals=owners, solve=stored, out=theirs, threads=1)
    assert a.produced > 20, "the condition should pass some deals"
    assert (a.generated, a.produced) == (b.generated, b.produced)
    assert a.sums == b.sums
    assert all(np.array_equal(x, y) for x, y in zip(a.counts, b.counts, strict=True))
    assert ours.getvalue() == theirs.getvalue()
    assert a.statistics_text(script) == b.statistics_text(script)


def test_generated_database_run_equals_a_run_solving_the_same_deals(tmp_path: Path) -> None:
    """A database `generate` solved, read in library mode, gives the statistics of solving its deals afresh."""
    path = tmp_path / "db.zrd"
    db.generate(path, 32, 5)
    owners, _ = decode_zrd(path.read_bytes())
    script = parse(
        """produce 32
condition hcp(north) + hcp(south) >= 18
action average "nt" tricks(north, notrumps), frequency "s" (tricks(south, spades), 4, 10),
  printes(tricks(west, diamonds), \\n)
"""
    )
    ours, theirs = io.StringIO(), io.StringIO()
    a = run(script, 1, library=path, out=ours, keep=True)
    b = run(script, 1, deals=owners, out=theirs, threads=2, keep=True)  # solved by DDS here
    assert (a.generated, a.produced) == (b.generated, b.produced) == (32, a.produced)
    assert a.sums == b.sums and ours.getvalue() == theirs.getvalue()
    assert all(np.array_equal(x, y) for x, y in zip(a.counts, b.counts, strict=True))
    assert np.array_equal(a.deals, b.deals)
    # The solving run solves only the results the script reads (the question planner): each equals the stored one.
    solved = b.known >= 0
    assert a.tables is not None and solved.any()
    assert np.array_equal(a.tables[solved], b.known[solved])


@pytest.mark.slow
def test_random_run_written_with_solve_reads_back_as_the_same_run(tmp_path: Path) -> None:
    """Deals dealt, solved and saved with -o; the same script over them with -L prints what the random run printed."""
    everything, question = tmp_path / "all.dl", tmp_path / "q.dl"
    everything.write_text("generate 24\naction average hcp(north)\n")
    question.write_text(
        "generate 24\ncondition tricks(south, hearts) >= 6 || hcp(north) > 12\n"
        'action average "s" tricks(north, spades), frequency "nt" (tricks(east, notrumps), 3, 9), printoneline\n'
    )
    saved = tmp_path / "dealt.zrd"
    res = cli("dealer", str(everything), "-s", "99", "--solve", "-o", str(saved))
    assert res.exit_code == 0, res.output
    dealt = cli("dealer", str(question), "-s", "99", "-v")  # solves the accepted deals
    read = cli("dealer", str(question), "-L", str(saved), "-v")
    assert dealt.exit_code == read.exit_code == 0, (dealt.output, read.output)
    assert read.output == dealt.output and dealt.output.count("\n") > 10


def test_library_mode_starts_no_solver(library_file, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """tricks(), --contract, --solve and -o ZRD over a library never reach a solver or DDS's search."""
    from ddsbind import dll, pool, solver

    run_module = importlib.import_module("ddsbind.dealer.run")  # the package's `run` is the function
    stats_module = importlib.import_module("ddsbind.dealer.statistics")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a solver was started in library mode")

    monkeypatch.setattr(pool.SolverPool, "__init__", refuse)
    monkeypatch.setattr(run_module, "solver_for", refuse)
    monkeypatch.setattr(stats_module, "tables_of_owners", refuse)
    for name in ("SolveBoard", "CalcDDtable", "CalcAllTables", "SolveAllBoards", "SolveAllChunksBin"):
        monkeypatch.setattr(dll, name, refuse)
    for name in ("dd_table", "dd_tables", "solve_board"):
        monkeypatch.setattr(solver, name, refuse, raising=False)
    path, owners, tables = library_file
    script = tmp_path / "s.dl"
    script.write_text("condition tricks(north, notrumps) >= 9\naction average tricks(south, spades)\n")
    out = tmp_path / "out.zrd"
    res = cli("dealer", str(script), "-L", str(path), "--contract", "3NN", "--solve", "-o", str(out))
    assert res.exit_code == 0, res.output
    mask = tables[:, 4, 0] >= 9
    got_owners, got_tables = decode_zrd(out.read_bytes())
    assert np.array_equal(got_owners, owners[mask]) and np.array_equal(got_tables, tables[mask])
    report = simulate("condition tricks(north, notrumps) >= 9", ["3NN"], library=path)
    assert report.deals == int(mask.sum()) and report.make == [1.0]


def test_library_mode_never_loads_dds(library_file) -> None:
    """A library run with tricks() and a contract report loads neither DDS nor the solver pool."""
    path, _, tables = library_file
    code = (
        "import sys\n"
        "from ddsbind.dealer.statistics import simulate\n"
        f"report = simulate('condition tricks(south, hearts) >= 8', ['4HS'], library={str(path)!r}, threads=2)\n"
        "print(report.deals, [m for m in ('ddsbind._dds', 'ddsbind._binding', 'ddsbind.pool') if m in sys.modules])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{int((tables[:, 1, 2] >= 8).sum())} []\n"


def test_cli_contract_report_json_csv_and_plot(library_file, tmp_path: Path) -> None:
    """--contract over a library reports what contract_report says of the accepted records' stored tables."""
    path, owners, tables = library_file
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(north) + hcp(south) >= 24\naction average hcp(north)\n")
    mask = hcp(owners, 0) + hcp(owners, 2) >= 24
    want = contract_report(tables[mask], ["3NS", "4SN"], "ns")
    base = ["dealer", str(script), "--library", str(path), "--contract", "3NS", "--contract", "4SN"]
    base += ["--vulnerable", "ns"]
    res = cli(*base, "--json")
    assert res.exit_code == 0, res.output
    document = json.loads(res.output)
    assert (document["generated"], document["produced"]) == (len(owners), int(mask.sum()))
    assert document["contracts"] == json.loads(json.dumps(want.as_dict()))["contracts"]
    assert document["statistics"] == [{"average": None, "value": pytest.approx(hcp(owners, 0)[mask].mean())}]
    res = cli(*base, "--csv")
    assert res.exit_code == 0 and res.output == want.render("csv")
    res = CliRunner().invoke(main, base)
    assert res.exit_code == 0
    assert f"Generated {len(owners)} hands\nProduced {int(mask.sum())} hands\n" in res.output
    assert res.output.endswith(want.render("text"))
    pytest.importorskip("matplotlib")
    res = cli(*base, "--plot", str(tmp_path / "p.png"))
    assert res.exit_code == 0 and (tmp_path / "p.png").stat().st_size > 0


def test_par_comes_from_the_stored_tables(library_file) -> None:
    """par(ns)/par(ew) in library mode are the par scores of the stored tables, with the script's vulnerability."""
    from ddsbind.solver import dealer_par

    path, _, tables = library_file
    script = parse("generate 300\ndealer east\nvulnerable NS\naction average par(ns), average par(ew)\n")
    result = run(script, 0, library=path)
    want = sum(dealer_par(table.astype(np.int64), 1, "ns").score for table in tables[:300])
    assert result.generated == 300 and result.sums == [want, -want]


def test_start_count_generate_and_produce_select_records(library_file) -> None:
    """--start/--count split a library into parts that add up; generate and produce stop early as dealer does."""
    path, owners, _ = library_file
    script = parse("condition hcp(north) >= 15\naction average hcp(south)\n")
    whole = run(script, 0, library=path)
    parts = [
        run(script, 0, library=lib.Library(path, start=s, count=c)) for s, c in ((0, 7000), (7000, 7000), (14000, None))
    ]
    assert [p.generated for p in parts] == [7000, 7000, 6000]
    assert sum(p.produced for p in parts) == whole.produced
    assert math.isclose(sum(p.sums[0] for p in parts), whole.sums[0])
    passed = np.flatnonzero(hcp(owners, 0) >= 15)
    limited = run(parse("generate 500\n" + "condition hcp(north) >= 15\naction average hcp(south)\n"), 0, library=path)
    assert (limited.generated, limited.produced) == (500, int((passed < 500).sum()))
    first = run(script, 0, library=path, produce=9, generate=None)
    assert (first.generated, first.produced) == (int(passed[8]) + 1, 9)
    assert math.isclose(first.sums[0], hcp(owners, 2)[passed[:9]].sum())


def test_predeal_selects_the_records_holding_it(library_file, small_chunks) -> None:
    """In library mode a predeal is a condition: exactly the records giving those cards to those seats."""
    path, owners, _ = library_file
    result = run(
        parse("predeal north SA, HK\npredeal west C2\naction average hcp(north)\n"), 0, library=path, keep=True
    )
    mask = (owners[:, 0] == 0) & (owners[:, 14] == 0) & (owners[:, 51] == 3)
    assert result.produced == int(mask.sum()) > 0
    assert np.array_equal(result.deals, owners[mask])
    both = run(
        parse("predeal south SK\ncondition hcp(south) >= 14\naction average hcp(east)\n"), 0, library=path, keep=True
    )
    assert np.array_equal(both.deals, owners[(owners[:, 1] == 2) & (hcp(owners, 2) >= 14)])


def test_progress_counts_every_record_read(library_file, small_chunks, tmp_path: Path) -> None:
    """The progress callback (the CLI's bar) is told of every record read, and of no more."""
    path, owners, _ = library_file
    ticks: list[int] = []
    run(parse("condition hcp(east) > 30\n"), 0, library=path, progress=ticks.append)
    assert sum(ticks) == len(owners) and len(ticks) == 5
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(east) > 30\n")
    res = cli("dealer", str(script), "-L", str(path), "--start", "501", "-m")  # records 501.., as messages count
    assert res.exit_code == 0 and "/19500 " in res.stderr, res.stderr  # the bar counts toward the selection


def _corrupt(path: Path, data: bytes, offset: int, value: bytes) -> Path:
    raw = bytearray(data)
    raw[offset : offset + len(value)] = value
    path.write_bytes(bytes(raw))
    return path


def test_damaged_libraries_are_refused_naming_record_and_offset(library_file, tmp_path: Path) -> None:
    """Partial records, a record that is no deal and results over 13 are refused in one line: record, byte offset."""
    path, _, _ = library_file
    data = path.read_bytes()[: 23 * 1000]
    script = parse("condition hcp(north) > 10\n")
    cases = [
        (
            _corrupt(tmp_path / "torn.zrd", data, len(data), b"\x01\x02\x03"),
            "record 1001, byte offset 23000: 3 bytes",
        ),
        # Bytes 0-3 of the 401st record (1-based, as messages count) all 0xff: sixteen cards to South, not a deal
        (_corrupt(tmp_path / "deal.zrd", data, 23 * 400, b"\xff" * 4), "record 401, byte offset 9200: deal"),
        # Byte 13 + 4 of record 701: a result nibble 14
        (_corrupt(tmp_path / "r14.zrd", data, 23 * 700 + 17, b"\xe3"), "record 701, byte offset 16117: DD result"),
        (_corrupt(tmp_path / "r15.zrd", data, 23 * 999 + 22, b"\x3f"), "record 1000, byte offset 22999: DD result"),
    ]
    for bad, where in cases:
        with pytest.raises(FormatError) as info:
            run(script, 0, library=bad)
        assert str(info.value).startswith(f"{bad}: {where}"), str(info.value)
        record, offset = (int(x) for x in re.findall(r"\d+", where)[:2])
        assert (info.value.record, info.value.index, info.value.offset) == (record, record - 1, offset)
        assert "\n" not in str(info.value)
    (tmp_path / "s.dl").write_text("condition hcp(north) > 10\n")
    for bad, where in cases:
        res = cli("dealer", str(tmp_path / "s.dl"), "-L", str(bad))
        assert res.exit_code == 1
        assert res.output.startswith(f"ddsbind: error: {bad}: {where}"), res.output
        assert res.output.count("\n") == 1


def test_damaged_pairs_name_the_file_at_fault(library_file, tmp_path: Path) -> None:
    """A ZBD + ZDD pair: the byte offset is in the file holding the fault; unequal lengths are refused."""
    path, _, _ = library_file
    data = np.frombuffer(path.read_bytes()[: 23 * 100], dtype=np.uint8).reshape(100, 23)
    deals, results = tmp_path / "p.zbd", tmp_path / "p.zdd"
    deals.write_bytes(data[:, :13].tobytes())
    bad = data[:, 13:].copy()
    bad[42, 3] = 0xE0  # nibble 7 of record 43 (index 42): a 14
    results.write_bytes(bad.tobytes())
    with pytest.raises(FormatError, match=rf"^{results}: record 43, byte offset 423: DD result"):
        run(parse("condition hcp(north) > 10\n"), 0, library=deals)
    results.write_bytes(data[:99, 13:].tobytes())
    with pytest.raises(DatabaseError, match=r"holds 100 deals but .* holds 99 results"):
        lib.Library(deals)
    results.unlink()
    with pytest.raises(DatabaseError, match="needs its partner"):
        lib.Library(deals)
    with pytest.raises(DatabaseError, match=r"a library is a \.zrd file"):
        lib.Library(tmp_path / "x.pbn")


def test_memory_stays_flat_over_many_chunks(tmp_path: Path, small_chunks) -> None:
    """Reading ten times more chunks does not take more memory: a library larger than RAM still runs."""
    small, large = tmp_path / "small.zrd", tmp_path / "large.zrd"
    random_library(small, 4096 * 8)
    one = np.fromfile(small, dtype=np.uint8)
    with open(large, "wb") as f:
        for _ in range(80):
            one.tofile(f)
    script = parse("condition hcp(north) + hcp(south) >= 25 && tricks(north, notrumps) >= 9\naction average hcp(west)")
    peaks = {}
    for path, threads in ((small, 1), (large, 1), (large, 2)):
        tracemalloc.start()
        result = run(script, 0, library=path, threads=threads)
        peaks[path.stem, threads] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert result.generated == path.stat().st_size // 23
    # One thread holds one chunk at a time; two hold at most five (the read-ahead), whatever the file's size.
    assert peaks["large", 1] < 1.5 * peaks["small", 1], peaks
    assert peaks["large", 2] < large.stat().st_size / 10, peaks


def test_options_are_checked(library_file, tmp_path: Path) -> None:
    """--start/--count need --library, --lead needs solving, and start beyond the file is refused, one line each."""
    path, _, _ = library_file
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(north) > 10\n")
    for args, message in [
        (["--start", "5"], "--start and --count select records of a --library"),
        (["-L", str(path), "--lead", "3NS"], "--lead scores every opening lead by solving"),
        (
            ["-L", str(path), "--start", "20002"],
            f"library start: record 20002 is not in {path}, which holds records 1 ",
        ),
        # Fewer records than asked for from --start: refused, not a run over 10 deals without a word.
        (
            ["-L", str(path), "--start", "19991", "--count", "50"],
            "library start and count ask for records 19991 .. 2004",
        ),
    ]:
        res = cli("dealer", str(script), *args)
        assert res.exit_code == 1 and res.output.startswith(f"ddsbind: error: {message}"), res.output
        assert res.output.count("\n") == 1


def test_statistics_study_example_on_pavlicek_records(tmp_path: Path) -> None:
    """examples/statistics_study.py prints the hand-derived best contracts, total tricks and NT tricks by HCP."""
    from tests.support import REPO, run_script

    path = tmp_path / "pav.zrd"
    path.write_bytes(b"".join(PAVLICEK) * 5)  # ten deals: each record five times
    proc = run_script(REPO / "examples" / "statistics_study.py", path, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    # Both deals' best is a game: record 0 West 11 in hearts, record 1 North 10 in spades; nobody makes 12.
    assert "| game | 10 | 100.00% ± 0.00 |" in out and "| partial | 0 | 0.00% ± 0.00 |" in out
    # Record 0: NS clubs 9 cards, 6 tricks; EW hearts 8 cards, 11 tricks: 17 and 17.
    # Record 1: NS spades 9 cards, 10 tricks; EW diamonds 10 cards, 9 tricks: 19 and 19.
    assert "mean +0.000 ± 0.000, standard deviation 0.000" in out
    assert "a side has two longest suits on 0.00% ± 0.00 of deals" in out
    assert "| 17 | 5 | 17.00 ± 0.00 | +0.00 |" in out and "| 19 | 5 | 19.00 ± 0.00 | +0.00 |" in out
    # Each side's longest suit is unique (no tie to break); both have 8-card fits; record 1 alone is 17-23 HCP.
    assert "| every deal, equal lengths: the suit with fewer tricks | 10 | +0.000 ± 0.000 | 0.000 |" in out
    assert "| every deal, equal lengths: the higher-ranking suit | 10 | +0.000 ± 0.000 | 0.000 |" in out
    assert "| both sides hold an 8-card fit | 10 |" in out and "| competitive: each side 17-23 HCP | 5 |" in out
    # NT by the better declarer: record 0 NS 16 HCP 4 tricks, EW 24 HCP 9; record 1 NS 22 HCP 3, EW 18 HCP 7.
    for points, tricks in ((16, 4), (24, 9), (22, 3), (18, 7)):
        assert f"| {points} | 5 | {tricks}.00 ± 0.00 |" in out


def test_example_scripts_over_the_sample_database(library_file) -> None:
    """examples/nt_by_hcp.dl (the sample database) and balanced_3nt.dl (the random library) count what numpy counts."""
    from tests.support import REPO

    sample = REPO / "examples" / "data" / "sample.zrd"
    owners, tables = decode_zrd(sample.read_bytes())
    points = hcp(owners, 0) + hcp(owners, 2)
    nt = tables[:, 4, [0, 2]].max(axis=1).astype(int)
    table = run(parse((REPO / "examples" / "nt_by_hcp.dl").read_text()), 0, library=sample)
    want = np.zeros((17, 13), dtype=np.int64)  # Low, 18 .. 32, High by Low, 3 .. 13, High
    for p, t in zip(np.clip(points - 17, 0, 16).tolist(), np.clip(nt - 2, 0, 12).tolist(), strict=True):
        want[p, t] += 1
    assert table.generated == len(owners) == 24 and np.array_equal(table.counts[0], want)
    path, owners, tables = library_file
    points = hcp(owners, 0) + hcp(owners, 2)
    nt = tables[:, 4, [0, 2]].max(axis=1).astype(int)
    balanced = np.ones(len(owners), dtype=bool)
    for seat in (0, 2):
        pattern = -np.sort(-np.stack([length(owners, seat, suit) for suit in range(4)], axis=1), axis=1)
        balanced &= np.isin(pattern @ np.array([1000, 100, 10, 1]), [4333, 4432, 5332])
    mask = (points >= 25) & (points <= 26) & balanced
    three = run(parse((REPO / "examples" / "balanced_3nt.dl").read_text()), 0, library=path)
    assert three.produced == int(mask.sum()) > 50
    assert three.sums[0] == int((nt[mask] >= 9).sum())


def test_library_mode_names_a_seed_only_where_it_plays_a_part(tmp_path: Path) -> None:
    """Without this, library mode printed "Initial random seed N" for deals read from a file, where the seed changes
    nothing: the oracle is the run itself (two seeds, the same output) and, with rnd(), the seed's effect."""
    sample = Path(__file__).resolve().parents[2] / "examples" / "data" / "sample.zrd"
    plain = tmp_path / "plain.dl"
    plain.write_text("action average hcp(north)\n")
    runs = [cli("dealer", str(plain), "-L", str(sample), "-s", str(s)) for s in (1, 2)]
    assert all(r.exit_code == 0 for r in runs)
    assert [r.stdout.splitlines()[:3] for r in runs] == [runs[0].stdout.splitlines()[:3]] * 2  # seed plays no part
    assert all("random seed" not in r.stdout for r in runs), runs[0].stdout
    drawn = tmp_path / "drawn.dl"
    drawn.write_text("condition rnd(2) == 1\naction average hcp(north)\n")
    runs = [cli("dealer", str(drawn), "-L", str(sample), "-s", str(s)) for s in (1, 2)]
    assert [f"Initial random seed {s}" in r.stdout for s, r in zip((1, 2), runs, strict=True)] == [True, True]
