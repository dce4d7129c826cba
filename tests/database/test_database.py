"""ZRD/ZBD databases: the deal generator, generate (resumable, crash-safe, Dask), verify, info, convert --solve.

DDS solving costs about 0.1 s per deal per core, so the solved databases here
are small (24 deals) and one reference database is made once per module.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from collections import Counter
from itertools import combinations_with_replacement, permutations
from pathlib import Path

import numpy as np
import pytest

from ddsbind import database as db
from ddsbind.database.generation import _lock
from ddsbind.deal import Vulnerability
from ddsbind.formats import dealnum, decode_zrd, iter_chunks, read_records
from tests.support import COUNT, REC, SEED, cli, copy_db, wait_for

NO_DASK = "the 'distributed' extra (dask[distributed]) is not installed"


# -- the generator ---------------------------------------------------------------------------


def test_deal_numbers_equal_big_integer_formula():
    """Without this, the limb arithmetic could map Philox output to the wrong (or out-of-range) deal numbers."""
    start, stop = 1000, 1500
    got = dealnum.ints_from_numbers(db.deal_numbers_for(2**100 + 7, start, stop))
    raw = np.random.Philox(key=2**100 + 7).random_raw(4 * stop).reshape(stop, 4)[start:]
    want = [((int(w[0]) | int(w[1]) << 64 | int(w[2]) << 128) * dealnum.D) >> 192 for w in raw]
    assert got == want
    assert max(got) < dealnum.D


def test_deal_k_depends_only_on_seed_and_k():
    """Without this, a shard made elsewhere or a re-made record would not match the database."""
    whole = db.make_deals(5, 0, 300)
    assert np.array_equal(db.make_deals(5, 123, 140), whole[123:140])
    assert np.array_equal(db.make_deals(5, 299, 300), whole[299:])
    assert not np.array_equal(db.make_deals(6, 0, 300), whole)
    assert ((whole[:, :, None] == np.arange(4)).sum(axis=1) == 13).all()


def _pattern_probabilities() -> dict[tuple[int, ...], float]:
    """Exact probability of each hand pattern (suit lengths, longest first) of one 13-card hand."""
    total = math.comb(52, 13)
    out: dict[tuple[int, ...], float] = {}
    for combo in combinations_with_replacement(range(14), 4):
        if sum(combo) != 13:
            continue
        ways = sum(math.prod(math.comb(13, k) for k in p) for p in set(permutations(combo)))
        out[tuple(sorted(combo, reverse=True))] = ways / total
    return out


def _chi2_critical(df: int, z: float = 4.75) -> float:
    """Wilson-Hilferty upper quantile of chi-square(df) at normal quantile z (4.75: about 1 in a million)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_generated_deals_are_uniform_chi_square(tmp_path):
    """Without this, a biased generator (hand patterns or card owners) would poison every statistic drawn from it."""
    n = 200_000
    out = tmp_path / "u.zbd"
    db.generate(out, n, 20261122)
    owners = np.concatenate([c.owners for c in iter_chunks(out)])
    assert owners.shape == (n, 52)
    # Card owners: each of the 52 cards is held by each seat with probability 1/4.
    counts = np.stack([(owners == h).sum(axis=0) for h in range(4)], axis=1)
    chi2 = ((counts - n / 4) ** 2 / (n / 4)).sum()
    assert chi2 < _chi2_critical(52 * 3), chi2
    # Hand patterns of all four hands, against the exact probabilities; rare patterns pooled.
    seen: Counter[tuple[int, ...]] = Counter()
    for h in range(4):
        held = owners == h
        per_suit = np.stack([held[:, s * 13 : (s + 1) * 13].sum(axis=1) for s in range(4)], axis=1)
        pats, freq = np.unique(-np.sort(-per_suit, axis=1), axis=0, return_counts=True)
        seen.update({tuple(int(x) for x in p): int(f) for p, f in zip(pats, freq, strict=True)})
    probs = _pattern_probabilities()
    hands = 4 * n
    assert set(seen) <= set(probs)
    obs, exp = [], []
    pooled_o = pooled_e = 0.0
    for pat, p in probs.items():
        if p * hands >= 20:
            obs.append(seen.get(pat, 0))
            exp.append(p * hands)
        else:
            pooled_o += seen.get(pat, 0)
            pooled_e += p * hands
    obs.append(pooled_o)
    exp.append(pooled_e)
    o, e = np.array(obs), np.array(exp)
    chi2 = ((o - e) ** 2 / e).sum()
    assert chi2 < _chi2_critical(len(o) - 1), chi2


# -- generate: resume and refusals ------------------------------------------------------------


class _StopError(Exception):
    pass


def _interrupted_zbd(out: Path, count: int, seed: int, after: int) -> None:
    """A ZBD run stopped (as by a crash) once ``after`` deals were reported."""
    seen = [0]

    def tick(k: int) -> None:
        seen[0] += k
        if seen[0] >= after:
            raise _StopError

    with pytest.raises(_StopError):
        db.generate(out, count, seed, batch=100, progress=tick)


def test_resume_refuses_other_seed_count_or_generator(tmp_path):
    """Without this, --resume could splice deals of another seed, count or recipe into one file."""
    out = tmp_path / "r.zbd"
    _interrupted_zbd(out, 1000, 3, after=300)
    with pytest.raises(db.DatabaseError, match=r"seed 3 \(on disk\) vs 4"):
        db.generate(out, 1000, 4, resume=True)
    with pytest.raises(db.DatabaseError, match=r"count 1000 \(on disk\) vs 999"):
        db.generate(out, 999, 3, resume=True)
    side = Path(f"{out}.generating.json")
    meta = json.loads(side.read_text())
    meta["generator_version"] = 0
    side.write_text(json.dumps(meta))
    with pytest.raises(db.DatabaseError, match="generator_version 0"):
        db.generate(out, 1000, 3, resume=True)


def test_existing_output_is_never_overwritten(tmp_path):
    """Without this, a second generate could silently destroy a finished (or unfinished) database."""
    out = tmp_path / "done.zbd"
    db.generate(out, 500, 1)
    before = out.read_bytes()
    r = cli("generate", out, "--count", 500, "--seed", 2)
    assert r.exit_code == 1
    assert "exists" in r.output and "--resume" in r.output
    assert out.read_bytes() == before
    part = tmp_path / "part.zbd"
    _interrupted_zbd(part, 1000, 1, after=300)
    with pytest.raises(db.DatabaseError, match="exists"):
        db.generate(part, 1000, 1)


def test_resume_of_a_finished_database_changes_nothing(tmp_path):
    """Without this, --resume on a finished but damaged database could re-bless it with a new checksum."""
    out = tmp_path / "fin.zbd"
    first = db.generate(out, 500, 4)
    assert db.generate(out, 500, 4, resume=True).checksum == first.checksum
    data = bytearray(out.read_bytes())
    data[100] ^= 0x01
    out.write_bytes(bytes(data))
    with pytest.raises(db.DatabaseError, match="no longer matches"):
        db.generate(out, 500, 4, resume=True)
    assert out.read_bytes() == bytes(data)


def test_resume_recuts_bad_records_and_partial_tail(tmp_path):
    """Without this, a torn or corrupted record left by a crash would stay in the finished file."""
    whole = tmp_path / "whole.zbd"
    db.generate(whole, 1000, 7)
    out = tmp_path / "cut.zbd"
    _interrupted_zbd(out, 1000, 7, after=600)
    data = bytearray(out.read_bytes())
    assert 0 < len(data) < 1000 * 13
    data[250 * 13 + 4] ^= 0x10  # a deal byte of record 251 (index 250) corrupted
    out.write_bytes(bytes(data) + b"\x01\x02\x03")  # and a partial record
    notes = []
    db.generate(out, 1000, 7, resume=True, log=notes.append)
    assert out.read_bytes() == whole.read_bytes()
    assert any("keeping 250 records" in m and "record 251" in m for m in notes), notes
    assert not Path(f"{out}.generating.json").exists()


def test_two_runs_never_write_one_file(tmp_path):
    """Without this, two resumed runs of the same database at once could interleave their records."""
    out = tmp_path / "l.zbd"
    _interrupted_zbd(out, 1000, 2, after=300)
    held = _lock(out)
    try:
        with pytest.raises(db.DatabaseError, match="another process is generating"):
            db.generate(out, 1000, 2, resume=True)
    finally:
        os.close(held)
    db.generate(out, 1000, 2, resume=True)
    assert out.stat().st_size == 1000 * 13


@pytest.mark.slow
def test_sigkill_twice_then_resume_gives_uninterrupted_bytes(ref, tmp_path):
    """Without this, a power cut or kill -9 during generate could leave a database that differs from a clean run."""
    out = tmp_path / "k.zrd"
    cmd = [sys.executable, "-m", "ddsbind", "generate", str(out), "--count", str(COUNT), "--seed", str(SEED)]
    cmd += ["--batch", "3"]
    sizes = []
    for flag in ([], ["--resume"]):
        before = out.stat().st_size if out.exists() else 0
        proc = subprocess.Popen(cmd + flag, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # Killed once two more batches are on disk (a condition, not a sleep): inside a later batch.
            wait_for(lambda b=before: out.exists() and out.stat().st_size >= b + 2 * 3 * REC, proc)
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        sizes.append(out.stat().st_size)
    assert sizes[0] < sizes[1] < COUNT * REC
    with open(out, "ab") as f:  # as if the kill had torn a write
        f.write(b"\x55" * 9)
    r = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == ref.read_bytes()
    man = json.loads(db.manifest_path(out).read_text())
    assert man["checksum"] == json.loads(db.manifest_path(ref).read_text())["checksum"]
    assert (man["format"], man["count"], man["seed"]) == ("zrd", COUNT, SEED)
    assert not Path(f"{out}.generating.json").exists()


# -- distributed ------------------------------------------------------------------------------


@pytest.mark.slow
def test_two_worker_local_cluster_gives_single_process_bytes(ref, tmp_path):
    """Without this, a Dask run could order, drop or repeat shards and differ from the one-process database."""
    pytest.importorskip("distributed", reason=NO_DASK)
    out = tmp_path / "d.zrd"
    db.generate(out, COUNT, SEED, workers=2, shard=5)
    assert out.read_bytes() == ref.read_bytes()
    assert not Path(f"{out}.parts").exists()


@pytest.mark.slow
def test_distributed_resume_solves_only_missing_shards(ref, tmp_path):
    """Without this, resuming a cluster run would solve again the shards already finished."""
    pytest.importorskip("distributed", reason=NO_DASK)
    data = ref.read_bytes()
    out = tmp_path / "p.zrd"
    out.write_bytes(data[: 5 * REC])
    parts = Path(f"{out}.parts")
    parts.mkdir()
    (parts / f"{10:012d}-{15:012d}.part").write_bytes(data[10 * REC : 15 * REC])
    Path(f"{out}.generating.json").write_text(db.Manifest(format="zrd", count=COUNT, seed=SEED).to_json())
    notes: list[str] = []
    db.generate(out, COUNT, SEED, workers=2, shard=5, resume=True, log=notes.append)
    assert any(m.startswith("solving 3 shards") for m in notes), notes  # 5-10, 15-20, 20-24
    assert out.read_bytes() == data


def test_existing_scheduler_gives_single_process_bytes(tmp_path):
    """Without this, --scheduler (a cluster started elsewhere) could be broken while --workers works."""
    distributed = pytest.importorskip("distributed", reason=NO_DASK)
    one = tmp_path / "one.zbd"
    db.generate(one, 3000, 99)
    out = tmp_path / "sched.zbd"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        r = cli("generate", out, "--count", 3000, "--seed", 99, "--scheduler", c.scheduler_address, "--shard", 700)
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == one.read_bytes()
    assert (
        json.loads(db.manifest_path(out).read_text())["checksum"]
        == db.Manifest.from_file(db.manifest_path(one)).checksum
    )


def test_resume_uses_parts_of_another_shard_size(tmp_path):
    """Without this, parts left by a run with another --shard (overlapping OUT's end) could be lost or doubled."""
    whole = tmp_path / "whole.zbd"
    db.generate(whole, 1000, 8)
    data = whole.read_bytes()
    out = tmp_path / "mix.zbd"
    out.write_bytes(data[: 100 * 13])
    parts = Path(f"{out}.parts")
    parts.mkdir()
    (parts / f"{50:012d}-{250:012d}.part").write_bytes(data[50 * 13 : 250 * 13])
    (parts / f"{300:012d}-{400:012d}.part").write_bytes(data[300 * 13 : 400 * 13])
    bad = bytearray(data[600 * 13 : 700 * 13])
    bad[13 * 5] ^= 0x40
    (parts / f"{600:012d}-{700:012d}.part").write_bytes(bytes(bad))  # a damaged part is made again
    Path(f"{out}.generating.json").write_text(db.Manifest(format="zbd", count=1000, seed=8).to_json())
    db.generate(out, 1000, 8, resume=True, batch=64)
    assert out.read_bytes() == data
    assert not parts.exists()


def test_workers_without_dask_says_how_to_install(tmp_path, monkeypatch):
    """Without this, a user lacking Dask would get a traceback instead of the one-line install hint."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    r = cli("generate", tmp_path / "x.zrd", "--count", 5, "--seed", 1, "--workers", 2)
    assert r.exit_code == 1
    assert r.output.count("\n") == 1 and "pip install 'dask[distributed]'" in r.output
    assert "Traceback" not in r.output


# -- convert --solve ---------------------------------------------------------------------------


@pytest.mark.slow
def test_generate_zbd_then_convert_solve_equals_generate_zrd(ref, tmp_path):
    """Without this, solving a deals-only database afterwards would not give the database generate makes."""
    zbd_file = tmp_path / "deals.zbd"
    assert cli("generate", zbd_file, "--count", COUNT, "--seed", SEED).exit_code == 0
    assert zbd_file.read_bytes() == b"".join(ref.read_bytes()[i * REC : i * REC + 13] for i in range(COUNT))
    out = tmp_path / "solved.zrd"
    r = cli("convert", zbd_file, out, "--solve")
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == ref.read_bytes()
    assert f"{COUNT} deals solved, 0 records reused" in r.output


def test_convert_solve_solves_each_distinct_deal_once(ref, tmp_path):
    """Without this, files of played boards (the same deal many times) would be solved over and over."""
    recs = read_records(ref)
    pick = [0, 1, 0, 2, 1, 0]
    src = tmp_path / "boards.zbd"
    src.write_bytes(b"".join(recs.raw[i, :13].tobytes() for i in pick))
    out = tmp_path / "boards.zrd"
    r = cli("convert", src, out, "--solve")
    assert r.exit_code == 0, r.output
    assert "3 deals solved, 3 records reused" in r.output
    _, tables = decode_zrd(out.read_bytes())
    assert np.array_equal(tables, recs.tables[pick])


def test_table_filler_keeps_known_results_and_fills_unknown(ref):
    """Without this, --solve could overwrite results a file already has, or leave some unknown."""
    recs = read_records(ref)
    t = recs.tables[:4].copy()
    t[1, 2, 3] = 15
    t[3] = 15
    f = db.TableFiller(trust_results=True)
    got = f(recs.owners[:4], t)
    assert np.array_equal(got, recs.tables[:4])
    assert (f.solved, f.reused) == (2, 0)
    checking = db.TableFiller()  # the default: given results solved again to check them
    assert np.array_equal(checking(recs.owners[:4], t), recs.tables[:4])
    assert (checking.solved, checking.checked) == (4, 3)


# -- verify ----------------------------------------------------------------------------------


def test_verify_accepts_a_good_database(ref):
    """Without this, verify could reject sound databases and nobody would trust it."""
    r = cli("verify", ref, "--sample", 3)
    assert r.exit_code == 0, r.output
    assert "all 24 deals equal those of seed 11" in r.output
    assert "3 records re-solved" in r.output
    rep = db.verify(ref, sample=3, rng=1)
    assert rep.ok and rep.error_text() is None and rep.to_dict()["ok"] is True
    assert rep.lines()[-1] == f"{ref}: {COUNT} records good, checksum {rep.checksum}"


def test_manifest_records_the_installed_version(ref):
    """Without this, the manifest could carry a hard-coded version instead of the installed package's."""
    import importlib.metadata

    man = db.Manifest.from_file(db.manifest_path(ref))
    assert man.ddsbind_version == importlib.metadata.version("ddsbind")
    assert (man.count, man.seed, man.record_size, man.generator) == (COUNT, SEED, REC, db.GENERATOR)


@pytest.mark.slow
def test_verify_catches_a_flipped_result_bit(ref, tmp_path):
    """Without this, a corrupted trick count would go unnoticed in a database people rely on."""
    bad = copy_db(ref, tmp_path / "bad.zrd")
    data = bytearray(bad.read_bytes())
    offset = 7 * REC + 13 + 4
    data[offset] ^= 0x01  # stays a trick count 0..13, so only re-solving can tell
    bad.write_bytes(bytes(data))
    r = cli("verify", bad, "--sample", COUNT)
    assert r.exit_code == 1
    err = [line for line in r.output.splitlines() if line.startswith("ddsbind: error")]
    assert len(err) == 1 and f"record 8, byte offset {offset}" in err[0], r.output
    assert "Traceback" not in r.output


def test_verify_catches_a_flipped_deal_bit(ref, tmp_path):
    """Without this, a corrupted card in a deal would go unnoticed in a database people rely on."""
    bad = copy_db(ref, tmp_path / "bad.zrd")
    data = bytearray(bad.read_bytes())
    data[5 * REC + 3] ^= 0x04
    bad.write_bytes(bytes(data))
    r = cli("verify", bad, "--sample", 0)
    assert r.exit_code == 1
    assert f"record 6, byte offset {5 * REC}" in r.output, r.output
    # Two flips that keep 13 cards each: only re-making the deal from the seed can tell.
    data = bytearray(ref.read_bytes())
    owners = read_records(ref).raw[5, :13]
    codes = [(int(owners[c // 4]) >> (2 * (c % 4))) & 3 for c in range(52)]
    a = 0
    b = next(c for c in range(1, 52) if codes[c] != codes[a])
    for card, code in ((a, codes[b]), (b, codes[a])):
        byte = 5 * REC + card // 4
        data[byte] = (data[byte] & ~(3 << (2 * (card % 4)))) | (code << (2 * (card % 4)))
    bad.write_bytes(bytes(data))
    r = cli("verify", bad, "--sample", 0)
    assert r.exit_code == 1
    assert f"record 6, byte offset {5 * REC}" in r.output and "seed 11" in r.output, r.output


# -- info ------------------------------------------------------------------------------------


def test_info_statistics_agree_with_the_tables(ref):
    """Without this, the trick distribution and each side's make rates stats reports could be miscounted."""
    res = db.stats(ref)
    _, tables = decode_zrd(ref.read_bytes())
    assert res.count == COUNT and res.tricks is not None
    for s in range(5):
        for d in range(4):
            assert np.array_equal(res.tricks[s, d], np.bincount(tables[:, s, d], minlength=14))
    ns = np.maximum(tables[:, :, 0], tables[:, :, 2])
    ew = np.maximum(tables[:, :, 1], tables[:, :, 3])
    assert res.makes is not None and res.makes.shape == (2, 5, 7)
    for level in range(1, 8):
        for side, best in enumerate((ns, ew)):
            assert np.allclose(res.makes[side, :, level - 1], (best >= level + 6).sum(axis=0) / COUNT)
    assert res.sacrifice is not None and set(res.sacrifice) == {"None", "NS", "EW", "All"}
    assert res.par_deals == COUNT


def test_vulnerability_spelled_one_way(ref):
    """Without this, stats' text, JSON and Python results would spell vulnerability two ways (none/both, None/All)."""
    res = db.stats(ref)
    words = [str(v) for v in Vulnerability]
    assert words == ["None", "All", "NS", "EW"]
    assert res.sacrifice is not None and list(res.sacrifice) == words
    par = res.to_dict()["statistics"]["par"]  # type: ignore[index]
    assert list(par["sacrifice"]) == words and list(par["sacrifices"]) == words
    text = "\n".join(res.lines())
    assert all(f"{w} " in text for w in words) and not any(w in text for w in (" none ", " both "))


def test_stats_prints_the_database_and_info_prints_dds(ref, tmp_path):
    """Without this, `ddsbind stats FILE` could break, or `ddsbind info` stop naming the DDS in use."""
    r = cli("stats", ref)
    assert r.exit_code == 0, r.output
    assert f"{COUNT} records" in r.output and "checksum matches" in r.output and "Mean tricks" in r.output
    doc = json.loads(cli("stats", ref, "--json", "--par-sample", 0).output)
    assert doc["count"] == COUNT
    plain = cli("info")
    assert plain.exit_code == 0 and plain.output.startswith("DDS 2.9")


def test_stats_plot_writes_a_png(ref, tmp_path):
    """Without this, --plot could fail or write something that is not an image."""
    pytest.importorskip("matplotlib", reason="the 'plot' extra (matplotlib) is not installed")
    png = tmp_path / "stats.png"
    r = cli("stats", ref, "--plot", png, "--par-sample", 8)
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_errors_are_one_line_without_traceback(tmp_path):
    """Without this, a wrong argument would dump a traceback instead of saying what is wrong."""
    for args in (
        ("generate", tmp_path / "x.pbn", "--count", 3, "--seed", 1),
        ("verify", Path(os.devnull)),
    ):
        r = cli(*args)
        assert r.exit_code != 0
        assert "Traceback" not in r.output
        assert len(r.output.strip().splitlines()) == 1, r.output
