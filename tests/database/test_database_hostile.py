"""Databases used as a hostile user would: unfinished runs, bad arguments, bad manifests, par sampling.

Runs that could hang or crash (a killed or paused ``generate``) are
subprocesses, and every wait is for a condition (a file reaching a size),
polled, with a generous overall timeout: nothing depends on machine speed.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ddsbind import database as db
from ddsbind.database.statistics import record_hash
from ddsbind.deal import Vulnerability
from ddsbind.errors import FormatError
from ddsbind.formats import decode_zrd
from tests.support import COUNT, REC, SEED, ask_dds, cli, copy_db, one_error, python_m, wait_for


def start_generate(out: Path, *flags: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "ddsbind", "generate", str(out), "--count", str(COUNT), "--seed", str(SEED)]
    return subprocess.Popen([*cmd, "--batch", "2", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def has_records(out: Path, n: int) -> Callable[[], bool]:
    return lambda: out.exists() and out.stat().st_size >= n * REC


def killed_run(out: Path, records: int) -> None:
    """A ``generate`` of COUNT deals killed (SIGKILL) once at least ``records`` are on disk."""
    proc = start_generate(out)
    try:
        wait_for(has_records(out, records), proc)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert out.stat().st_size < COUNT * REC


def nothing_but(directory: Path, *names: str) -> None:
    assert sorted(p.name for p in directory.iterdir()) == sorted(names)


# -- unfinished runs (item 3) ------------------------------------------------------------------


def test_verify_of_a_killed_run_says_unfinished_and_fails(tmp_path):
    """Without this, verify of a killed generate said 'N records good', exit 0, while the manifest wanted more."""
    out = tmp_path / "k.zrd"
    killed_run(out, 4)
    have = out.stat().st_size // REC
    r = python_m("ddsbind", "verify", out, "--sample", "2")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"unfinished run: {have} of {COUNT} records" in r.stderr and "--resume" in r.stderr, r.stderr
    assert f"all {have} deals equal those of seed {SEED}" in r.stdout
    assert "records good" not in r.stdout and "Traceback" not in r.stderr
    rep = db.verify(out, sample=0)
    assert not rep.ok and rep.expected == COUNT and rep.count == have and not rep.running
    assert (rep.error_text() or "").startswith(f"{out}: unfinished run: {have} of {COUNT} records")
    s = db.stats(out)
    assert not s.finished and f"unfinished run: {have} of {COUNT} records" in "\n".join(s.lines())
    assert s.tricks is not None and s.tricks[0, 0].sum() == have


def test_verify_of_a_killed_run_checks_its_deals_against_the_seed(tmp_path):
    """Without this, an unfinished database could hold deals of another seed and verify would not look."""
    out = tmp_path / "k.zrd"
    killed_run(out, 4)
    data = bytearray(out.read_bytes())
    other = db.make_records(SEED + 1, 1, 2, "zbd")[0]
    data[REC : REC + 13] = other.tobytes()  # a sound deal, but not deal 1 of the recorded seed
    out.write_bytes(bytes(data))
    rep = db.verify(out, sample=0)
    assert not rep.ok and rep.index == 1 and f"seed {SEED}" in (rep.error or ""), rep


def test_verify_while_generate_runs_then_after_it_finishes(ref, tmp_path):
    """Without this, verify of a run still writing could pass it as a complete database."""
    out = tmp_path / "live.zrd"
    proc = start_generate(out)
    try:
        wait_for(has_records(out, 2), proc)
        proc.send_signal(signal.SIGSTOP)  # still running, frozen mid-run
        rep = db.verify(out, sample=0)
        assert not rep.ok and not rep.finished and rep.running and rep.expected == COUNT
        assert f"of {COUNT} records so far; a generate run is writing it now" in (rep.error or ""), rep.error
        s = db.stats(out, par_sample=0)
        assert s.running and "a generate run is writing it now" in s.lines()[1]
    finally:
        proc.send_signal(signal.SIGCONT)
        proc.wait(timeout=600)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    rep = db.verify(out, sample=0)
    assert rep.ok and rep.finished and rep.count == COUNT, rep
    assert out.read_bytes() == ref.read_bytes()


def test_verify_of_an_empty_database_is_an_error(tmp_path):
    """Without this, a 0-byte .zrd verified as '0 records good', exit 0."""
    empty = tmp_path / "empty.zrd"
    empty.write_bytes(b"")
    rep = db.verify(empty)
    assert not rep.ok and "no records" in (rep.error or "")
    r = cli("verify", empty)
    assert r.exit_code == 1 and "records good" not in r.output


def test_stats_of_truncated_or_junk_files_name_the_file(ref, tmp_path):
    """Without this, stats of a damaged file printed a count (or an error naming no file)."""
    torn = copy_db(ref, tmp_path / "torn.zrd")
    with open(torn, "ab") as f:
        f.write(b"\x01\x02\x03")
    with pytest.raises(FormatError, match=rf"{torn}: .*truncated"):
        db.stats(torn)
    junk = tmp_path / "junk.zbd"
    junk.write_bytes(b"\xff" * 13 * 5)
    with pytest.raises(FormatError, match=rf"{junk}: record 1, byte offset 0"):
        db.stats(junk)


# -- arguments checked before anything is written (item 9, smaller items) -----------------------


@pytest.mark.parametrize(
    ("count", "seed", "field"),
    [(2.7, 1, "count"), (2, 1.9, "seed"), ("5", 1, "count"), (True, 1, "count"), (3, True, "seed"), (3, "7", "seed")],
)
def test_counts_and_seeds_must_be_integers(tmp_path, count, seed, field):
    """Without this, generate(out, 2.7, 1.9) made 2 deals of seed 1, and '5' or True were taken as counts."""
    with pytest.raises(db.DatabaseError, match=f"{field} must be an integer"):
        db.generate(tmp_path / "x.zbd", count, seed)
    nothing_but(tmp_path)
    assert db.generate(tmp_path / "x.zbd", np.int64(3), np.uint64(2)).count == 3


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"workers": 2, "scheduler": "tcp://127.0.0.1:1"}, "not both"),
        ({"batch": 0}, "batch"),
        ({"shard": 0}, "shard"),
        ({"threads": 0}, "threads"),
        ({"workers": 1.5}, "workers"),
    ],
)
def test_refused_arguments_leave_nothing_and_do_not_block_the_next_run(tmp_path, kwargs, says):
    """Without this, a refused generate left OUT, OUT.generating.json or OUT.parts, and blocked the retry."""
    out = tmp_path / "x.zbd"
    with pytest.raises(db.DatabaseError, match=says):
        db.generate(out, 30, 1, **kwargs)
    nothing_but(tmp_path)
    assert db.generate(out, 30, 1).count == 30


def test_workers_without_dask_leave_nothing(tmp_path, monkeypatch):
    """Without this, --workers without Dask left an empty OUT and its manifest, and the retry was refused."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "x.zbd"
    with pytest.raises(db.DatabaseError, match=r"pip install 'dask\[distributed\]'"):
        db.generate(out, 30, 1, workers=2)
    nothing_but(tmp_path)
    assert db.generate(out, 30, 1).count == 30


def test_bad_scheduler_address_leaves_nothing(tmp_path):
    """Without this, --scheduler notaurl failed ('missing port number') after creating OUT and its manifest."""
    pytest.importorskip("distributed", reason="the 'distributed' extra is not installed")
    out = tmp_path / "x.zbd"
    with pytest.raises(db.DatabaseError, match="notaurl"):
        db.generate(out, 30, 1, scheduler="notaurl")
    nothing_but(tmp_path)
    assert db.generate(out, 30, 1).count == 30


def test_unwritable_targets_are_named_by_the_target(tmp_path):
    """Without this, errors named a temporary file (/proc/.x.zrd.generating.json.tmp...) or only 'afile'."""
    afile = tmp_path / "afile"
    afile.write_text("not a directory")
    target = afile / "x.zrd"
    with pytest.raises(db.DatabaseError) as exc:
        db.generate(target, 3, 1)
    assert str(target) in str(exc.value) and "not a directory" in str(exc.value)
    nothing_but(tmp_path, "afile")
    if Path("/proc/self").is_dir():
        with pytest.raises(db.DatabaseError) as exc:
            db.generate("/proc/x.zrd", 3, 1)
        msg = str(exc.value)
        assert msg.startswith("cannot write /proc/x.zrd") and ".tmp" not in msg and ".part" not in msg, msg


# -- manifests validated on reading (item 10) --------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("checksum", 12345), ("checksum", None), ("count", "40"), ("count", None), ("seconds", None), ("seed", -1)],
)
def test_a_bad_manifest_field_is_named_by_verify_and_stats(ref, tmp_path, field, value):
    """Without this, a hand-edited manifest gave tracebacks, or a false 'ok: checksum equals the manifest's'."""
    bad = copy_db(ref, tmp_path / "m.zrd")
    man_file = db.manifest_path(bad)
    man = json.loads(man_file.read_text())
    man[field] = value
    man_file.write_text(json.dumps(man))
    for call in (lambda: db.verify(bad, sample=0), lambda: db.stats(bad)):
        with pytest.raises(db.DatabaseError, match=rf"{man_file}: field '{field}'"):
            call()
    r = cli("verify", bad, "--sample", 0)
    assert r.exit_code == 1 and "Traceback" not in r.output and "ok: checksum" not in r.output, r.output
    assert f"field '{field}'" in r.output


def test_bad_seconds_in_an_unfinished_manifest_stops_resume_before_solving(tmp_path):
    """Without this, '"seconds": "fast"' let --resume solve every deal, then crash without a manifest."""
    out = tmp_path / "r.zrd"
    killed_run(out, 2)
    before = out.read_bytes()
    side = db.generating_path(out)
    meta = json.loads(side.read_text())
    meta["seconds"] = "fast"
    side.write_text(json.dumps(meta))
    solved: list[int] = []
    with pytest.raises(db.DatabaseError, match=rf"{side}: field 'seconds'"):
        db.generate(out, COUNT, SEED, resume=True, progress=solved.append)
    assert solved == [] and out.read_bytes() == before
    meta["seconds"] = 1.5
    side.write_text(json.dumps(meta))
    man = db.generate(out, COUNT, SEED, resume=True)
    assert man.seconds >= 1.5 and db.verify(out, sample=0).ok


# -- par sample (item 7) ----------------------------------------------------------------------


def test_par_sample_is_the_records_of_smallest_hash_and_agrees_with_dds(ref, dds_oracle, tmp_path):
    """Without this, the par sample could depend on where records sit (shards would disagree) or par be misread."""
    s = db.stats(ref, par_sample=6)
    data = ref.read_bytes()
    keys = record_hash(np.frombuffer(data, np.uint8).reshape(-1, REC))
    order = np.argsort(keys, kind="stable")[:6]
    _, tables = decode_zrd(data)
    st = s.statistics
    assert st is not None and s.par_deals == 6
    assert np.array_equal(st.par_keys, keys[order]) and np.array_equal(st.par_tables, tables[order])
    dealers = (keys[order] & np.uint64(3)).astype(int)
    assert st.par_dealers.tolist() == dealers.tolist()
    assert s.sacrifice is not None and sorted(s.sacrifice) == ["All", "EW", "NS", "None"]
    for vul in ("None", "All", "NS", "EW"):
        # Oracle: DDS's DealerPar called from C (tests/dds_solve_oracle.c); a doubled contract going down reads
        # like "4S*-EW-2" (or "4S-E-2": one player alone sacrifices in the strain the opponents bid).
        # DDS's vulnerability codes: 0 none, 1 both, 2 NS, 3 EW.
        code = int(Vulnerability.parse(vul))
        asks = [
            f"dealerpar {d} {code} " + " ".join(map(str, t.ravel()))
            for d, t in zip(dealers, tables[order], strict=True)
        ]
        answers = ask_dds(dds_oracle, asks, tmp_path)
        assert all(a[0] == "par" for a in answers), answers
        want = [any(re.search(r"[NESW]-\d+$", c) for c in a[3:]) for a in answers]
        assert st.sacrifices[:, code].tolist() == want, vul
        assert s.sacrifice[vul] == pytest.approx(np.mean(want))
    assert "the dealer drawn from each sampled deal's hash" in "\n".join(s.lines())
    par = s.to_dict()["statistics"]["par"]
    assert par["deals"] == 6 and sum(par["dealers"].values()) == 6 and s.count == COUNT
    json.dumps(par)


# -- threads (item 11) -------------------------------------------------------------------------


def test_too_many_threads_is_one_catchable_threads_warning(tmp_path):
    """Without this, --threads 64 printed a raw UserWarning with its source line, once per solving batch."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        db.generate(tmp_path / "t.zrd", 4, 3, threads=64, batch=1)
        db.verify(tmp_path / "t.zrd", sample=2, threads=64)
    kinds = [w.category for w in caught]
    assert kinds == [db.ThreadsWarning, db.ThreadsWarning], [str(w.message) for w in caught]
    assert issubclass(db.ThreadsWarning, UserWarning)
    assert "asked for 64 solver threads" in str(caught[0].message)


def test_stats_says_when_the_checksum_differs_from_the_manifest(ref, tmp_path):
    """Without this, stats could say the checksum matches a manifest that records another one."""
    assert db.stats(ref, par_sample=0).checksum_matches is True
    other = copy_db(ref, tmp_path / "c.zrd")
    man_file = db.manifest_path(other)
    man = json.loads(man_file.read_text())
    man["checksum"] = "0x" + man["checksum"].lower()  # the same value, spelled otherwise
    man_file.write_text(json.dumps(man))
    assert db.stats(other, par_sample=0).checksum_matches is True
    man["checksum"] = "ABC"
    man_file.write_text(json.dumps(man))
    s = db.stats(other, par_sample=0)
    assert s.checksum_matches is False and "checksum DIFFERS (manifest ABC)" in s.lines()[1]
    assert s.sacrifice is None and s.par_deals == 0
    assert not db.verify(other, sample=0).ok


def test_a_disk_error_mid_run_is_named_by_the_target_and_resumable(tmp_path, monkeypatch):
    """Without this, a full disk surfaced as a bare '[Errno 28]' naming no file, or a temporary file."""
    import errno

    from ddsbind.database import generation as gen_module

    out = tmp_path / "full.zbd"
    real = gen_module.write_manifest

    def full_disk(path, man):
        if path == db.manifest_path(out):
            raise OSError(errno.ENOSPC, "No space left on device", f"{tmp_path}/.full.zbd.json.x1y2.part")
        real(path, man)

    monkeypatch.setattr(gen_module, "write_manifest", full_disk)
    with pytest.raises(db.DatabaseError) as exc:
        db.generate(out, 500, 3)
    msg = str(exc.value)
    assert msg.startswith(f"generating {out} stopped: No space left on device") and "--resume" in msg, msg
    assert ".part" not in msg
    monkeypatch.setattr(gen_module, "write_manifest", real)
    assert db.generate(out, 500, 3, resume=True).count == 500
    assert db.verify(out).ok


def test_stats_flags_a_manifest_count_the_file_disagrees_with(ref, tmp_path):
    """Without this, stats printed "manifest: 25 deals ... checksum matches" for a 24-record file without a word
    about the count: the oracle is the file's own size, 24 records of 23 bytes (issue 47, item 16)."""
    assert db.stats(ref, par_sample=0).count_matches is True
    other = copy_db(ref, tmp_path / "c.zrd")
    man_file = db.manifest_path(other)
    man = json.loads(man_file.read_text())
    man["count"] = COUNT + 1
    man_file.write_text(json.dumps(man))
    s = db.stats(other, par_sample=0)
    assert s.count == other.stat().st_size // REC == COUNT
    assert s.count_matches is False and s.file_dict()["count_matches"] is False
    assert s.lines()[1].endswith(f"; count DIFFERS (the file holds {COUNT} records)"), s.lines()
    r = cli("stats", other, "--par-sample", 0)
    assert r.exit_code == 0 and f"count DIFFERS (the file holds {COUNT} records)" in r.stdout, r.output


def test_stats_reads_a_hand_makes_file_as_checksum_does(ref, tmp_path):
    """Without this, stats listed hand-makes among what it reads, then refused every hand-makes file (whose name
    cannot tell its format): the oracle is `checksum` of the same bytes and the convert that wrote them."""
    hm = tmp_path / "north.hm"
    assert cli("convert", ref, hm, "--to", "hand-makes", "--quiet").exit_code == 0
    one_error(cli("stats", hm), r"north\.hm: the extension names no record format: name it with --from")
    r = cli("stats", hm, "--from", "hand-makes", "--par-sample", 0)
    assert r.exit_code == 0, r.output
    checksum = cli("checksum", hm, "--quiet").stdout.strip()
    assert r.stdout.splitlines()[0] == f"{hm}: hand-makes, {COUNT} records, checksum {checksum}"
