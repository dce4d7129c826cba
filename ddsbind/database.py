"""Databases of random deals and their double-dummy tables: generate, verify, inspect.

A database is a ZRD file (deal + DD table, 23 bytes a record) or a ZBD file
(deals only, 13 bytes), made by :func:`generate` from a count and a seed,
with a manifest ``OUT.json`` beside it.

The deals
---------
Deal ``k`` of seed ``S`` is a pure function of ``(S, k)``, so any range can be
made anywhere and any record re-made alone:

1. Philox4x64-10 (numpy's :class:`numpy.random.Philox`) keyed by ``S``
   (``0 <= S < 2**128``) with counter ``k`` gives one block of four 64-bit
   words ``w0..w3``.
2. ``x = w0 + w1 * 2**64 + w2 * 2**128`` (192 bits, ``w3`` unused) is scaled
   to a deal number ``n = floor(x * D / 2**192)``, where ``D`` is the number
   of bridge deals (:data:`ddsbind.formats.dealnum.D`, below ``2**96``).  Every
   number below ``D`` is hit by ``floor(2**192 / D)`` or one more values of
   ``x``: uniform to within ``D / 2**192 < 2**-96``.
3. The deal is Pavlicek's deal number ``n``
   (:func:`ddsbind.formats.dealnum.deals_from_numbers`).

This recipe is :data:`GENERATOR` version :data:`GENERATOR_VERSION`; the
manifest records both, and a changed recipe gets a new version.

Files and crash safety
----------------------
* Records are appended in deal order, whole records only, synced to disk
  after each batch (:class:`ddsbind.formats.RecordWriter` with ``fsync``).
* While a run is unfinished, ``OUT.generating.json`` (written atomically
  before the first record) holds the format, count, seed and generator; a
  run with ``resume=True`` refuses anything else, naming what differs.
* Resuming re-reads every whole record on disk, re-makes its deal from the
  seed and compares the bytes, checks every result nibble is 0..13, cuts the
  file back to just before the first record that fails (or a partial tail),
  and continues from there.  The finished file is byte-identical to an
  uninterrupted run: each record is a pure function of ``(S, k)`` and DDS's
  tables are deterministic.
* Distributed runs (Dask) solve shards (deal ranges) on workers; the client
  writes each returned shard atomically as ``OUT.parts/START-STOP.part`` and
  appends the parts to ``OUT`` in order as they become contiguous, deleting
  each part once appended.  Resuming keeps every valid part, so only the
  missing shards are solved again.
* At the end the manifest ``OUT.json`` is written atomically (temporary file,
  fsync, rename) and the in-progress file removed.

All DD solving goes through :func:`solve_tables`.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.errors import DatabaseError
from ddsbind.formats import dealnum, files, zbd, zdd
from ddsbind.formats.checksums import checksum

__all__ = [
    "GENERATOR",
    "GENERATOR_VERSION",
    "DatabaseError",
    "DatabaseInfo",
    "Manifest",
    "TableFiller",
    "VerifyReport",
    "deal_numbers_for",
    "generate",
    "info",
    "make_deals",
    "make_records",
    "manifest_path",
    "plot_info",
    "render_info",
    "solve_tables",
    "verify",
]

#: Name of the deal recipe (see the module docstring).
GENERATOR = "ddsbind-philox4x64-mulshift192"
#: Version of the recipe; bumped whenever the deals of a (seed, index) would change.
GENERATOR_VERSION = 1

_FORMATS = ("zrd", "zbd")
_RECORD = {"zrd": files.RECORD_SIZES["zrd"], "zbd": files.RECORD_SIZES["zbd"]}
_BATCH = 64  # deals solved and appended (and synced) at a time: the work a crash can lose
_PLAIN_BATCH = 1 << 18  # deals per batch when nothing is solved (zbd)
_SHARD = 256  # default deals per distributed shard
_CHECK_CHUNK = 1 << 18  # records per step when re-validating a file
_PART = re.compile(r"^(\d{12})-(\d{12})\.part$")


# -- the one door to the solver -------------------------------------------------------------


def solve_tables(
    masks: NDArray[np.uint32], *, threads: int | None = None, progress: Progress | None = None
) -> NDArray[np.int8]:
    """Double-dummy tables of many deals: the only place this module solves.

    Parameters
    ----------
    masks : ndarray, shape (N, 4, 4), uint32
        remainCards of each deal (hands N E S W, suits S H D C, bit ``rank``).
    threads : int, optional
        Threads of the :class:`~ddsbind.SolverPool` that solves them (None:
        every thread DDS has, one per core).
    progress : callable, optional
        Called with the number of deals finished as they finish.

    Returns
    -------
    ndarray, shape (N, 5, 4), int8
        Tricks by strain S H D C NT and declarer N E S W.
    """
    from ddsbind.pool import SolverPool

    with SolverPool(threads) as pool:
        return pool.dd_tables_array(masks, progress=progress)


# -- the deals -------------------------------------------------------------------------------

_D_LIMBS = np.array([(dealnum.D >> (32 * i)) & 0xFFFFFFFF for i in range(3)], dtype=np.uint64)
_M32 = np.uint64(0xFFFFFFFF)


def _check_seed(seed: int) -> int:
    s = int(seed)
    if not 0 <= s < 1 << 128:
        raise DatabaseError(f"seed must be an integer in 0 .. 2**128-1, got {seed}")
    return s


def deal_numbers_for(seed: int, start: int, stop: int) -> NDArray[np.uint8]:
    """Deal numbers of deals ``start .. stop-1`` of ``seed``, packed ``(n, 12)`` uint8 little-endian.

    Each is ``floor(x * D / 2**192)`` for the 192-bit ``x`` of Philox block
    ``k`` (module docstring); the product is done in 32-bit limbs.
    """
    seed = _check_seed(seed)
    if not 0 <= start <= stop:
        raise DatabaseError(f"bad deal range {start} .. {stop}")
    n = stop - start
    raw = np.random.Philox(key=seed, counter=start).random_raw(4 * n).reshape(n, 4)
    x = np.empty((n, 6), dtype=np.uint64)  # 32-bit limbs of w0, w1, w2, least significant first
    x[:, 0::2] = raw[:, :3] & _M32
    x[:, 1::2] = raw[:, :3] >> np.uint64(32)
    cols = np.zeros((n, 10), dtype=np.uint64)
    for i in range(6):
        for j in range(3):
            p = x[:, i] * _D_LIMBS[j]  # < 2**64, exact
            cols[:, i + j] += p & _M32
            cols[:, i + j + 1] += p >> np.uint64(32)
    carry = np.zeros(n, dtype=np.uint64)
    for k in range(9):
        cols[:, k] += carry
        carry = cols[:, k] >> np.uint64(32)
        cols[:, k] &= _M32
    top = cols[:, 6:9].astype("<u4")  # bits 192 .. 287 of x * D: the number, < D < 2**96
    return np.ascontiguousarray(top).view(np.uint8).reshape(n, 12)


def make_deals(seed: int, start: int, stop: int) -> NDArray[np.int8]:
    """Deals ``start .. stop-1`` of ``seed`` as owner arrays ``(n, 52)`` int8 (DDS seat of SA..C2)."""
    return dealnum.deals_from_numbers(deal_numbers_for(seed, start, stop))


def make_records(
    seed: int,
    start: int,
    stop: int,
    format: str = "zrd",
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> NDArray[np.uint8]:
    """Records ``start .. stop-1`` of the database of ``seed``: ``(n, 23)`` ZRD or ``(n, 13)`` ZBD bytes.

    ZRD records are solved through :func:`solve_tables`.  This is what a
    distributed worker runs for one shard.
    """
    owners = make_deals(seed, start, stop)
    deals = zbd.zbd_from_owners(owners)
    if format == "zbd":
        if progress is not None:
            progress(stop - start)
        return deals
    from ddsbind.deal import owners_to_masks

    tables = solve_tables(owners_to_masks(owners), threads=threads, progress=progress)
    out = np.empty((stop - start, _RECORD["zrd"]), dtype=np.uint8)
    out[:, :13] = deals
    zdd.nibbles_from_tables(tables.astype(np.uint8), out=out[:, 13:])
    return out


def _shard_bytes(seed: int, start: int, stop: int, format: str, threads: int | None) -> bytes:
    """A shard's records as bytes (what a Dask worker returns)."""
    return make_records(seed, start, stop, format, threads=threads).tobytes()


# -- manifests and small files ---------------------------------------------------------------


@dataclass
class Manifest:
    """What ``OUT.json`` records about a finished database (``OUT.generating.json`` while unfinished)."""

    format: str
    count: int
    seed: int
    generator: str = GENERATOR
    generator_version: int = GENERATOR_VERSION
    ddsbind_version: str = ""
    dds_version: str | None = None
    checksum: str | None = None
    seconds: float = 0.0
    record_size: int = 0

    def to_json(self) -> str:
        """The manifest as JSON text (seed as a string when above 2**53, for other JSON readers)."""
        d = asdict(self)
        if self.seed >= 1 << 53:
            d["seed"] = str(self.seed)
        return json.dumps(d, indent=2) + "\n"

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Manifest:
        """Read a manifest; ``DatabaseError`` naming the file when it is not one."""
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
            d["seed"] = int(d["seed"])
            known = {f for f in cls.__dataclass_fields__}
            return cls(**{k: v for k, v in d.items() if k in known})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DatabaseError(f"{os.fspath(path)}: not a readable ddsbind manifest ({exc})") from None


def manifest_path(out: str | os.PathLike[str]) -> Path:
    """The manifest of database ``out``: ``out`` with ``.json`` appended (``deals.zrd.json``)."""
    return Path(os.fspath(out) + ".json")


def _progress_path(out: Path) -> Path:
    return Path(os.fspath(out) + ".generating.json")


def _parts_dir(out: Path) -> Path:
    return Path(os.fspath(out) + ".parts")


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file, fsync and rename: all or nothing."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _format_of(out: Path) -> str:
    fmt = files.guess_format(out)
    if fmt not in _FORMATS:
        raise DatabaseError(f"{out}: a database is .zrd (deals and DD results) or .zbd (deals only)")
    return fmt


def _dds_version() -> str:
    from ddsbind import dds_info

    return str(dds_info().version)


# -- checking what is on disk ---------------------------------------------------------------


def _first_bad(recs: NDArray[np.uint8], seed: int, start: int, fmt: str) -> tuple[int, int, str] | None:
    """First record of ``recs`` (deals ``start..``) that is not what ``seed`` makes: (index, byte, why)."""
    n = recs.shape[0]
    if n == 0:
        return None
    want = zbd.zbd_from_owners(make_deals(seed, start, start + n))
    diff = recs[:, :13] != want
    bad_deal = diff.any(axis=1)
    bad_table = np.zeros(n, dtype=bool)
    if fmt == "zrd":
        nib = np.stack([recs[:, 13:] & 0x0F, recs[:, 13:] >> 4], axis=2).reshape(n, 20)
        (nib > 13).any(axis=1, out=bad_table)
    bad = bad_deal | bad_table
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    if bad_deal[i]:
        return start + i, int(np.argmax(diff[i])), "deal differs from the one the seed makes"
    j = int(np.argmax(nib[i] > 13))
    return start + i, 13 + j // 2, f"result nibble {int(nib[i, j])} is not 0..13"


def _valid_prefix(out: Path, seed: int, count: int, fmt: str) -> tuple[int, str | None]:
    """How many leading whole records of ``out`` are right; why the rest (if any) is dropped."""
    size = _RECORD[fmt]
    nbytes = out.stat().st_size
    whole = min(nbytes // size, count)
    recs = files.open_records(out, fmt)
    for s in range(0, whole, _CHECK_CHUNK):
        e = min(s + _CHECK_CHUNK, whole)
        bad = _first_bad(np.asarray(recs[s:e]), seed, s, fmt)
        if bad is not None:
            return bad[0], f"record {bad[0]}, byte offset {bad[0] * size + bad[1]}: {bad[2]}"
    del recs
    if nbytes > whole * size:
        extra = nbytes - whole * size
        return whole, f"{extra} bytes after record {whole - 1} (partial or beyond the count)"
    return whole, None


def _parts(out: Path, seed: int, count: int, fmt: str) -> dict[int, tuple[int, Path]]:
    """Valid part files of ``out``: start -> (stop, path).  Invalid ones are deleted."""
    d = _parts_dir(out)
    found: dict[int, tuple[int, Path]] = {}
    if not d.is_dir():
        return found
    size = _RECORD[fmt]
    for p in sorted(d.iterdir()):
        m = _PART.match(p.name)
        if not m:
            if p.name.startswith("."):  # a temporary file of a part being written when a run died
                p.unlink()
            continue
        a, b = int(m.group(1)), int(m.group(2))
        data = p.read_bytes()
        ok = a < b <= count and len(data) == (b - a) * size
        if ok:
            ok = _first_bad(np.frombuffer(data, np.uint8).reshape(b - a, size), seed, a, fmt) is None
        if ok:
            found[a] = (b, p)
        else:
            p.unlink()
    return found


# -- generate --------------------------------------------------------------------------------


def _check_same(want: Manifest, have: Manifest, where: Path) -> None:
    diffs = []
    for name in ("format", "count", "seed", "generator", "generator_version"):
        a, b = getattr(have, name), getattr(want, name)
        if a != b:
            diffs.append(f"{name} {a} (on disk) vs {b} (asked)")
    if diffs:
        raise DatabaseError(f"cannot resume {where}: it was made with a different " + "; ".join(diffs))


class _Appender:
    """Appends records to OUT in order, and part files that become contiguous."""

    def __init__(self, out: Path, fmt: str, parts: dict[int, tuple[int, Path]], progress: Progress | None):
        self.writer = files.RecordWriter(out, fmt, fsync=True)
        self.parts = parts
        self.progress = progress

    @property
    def done(self) -> int:
        return self.writer.records

    def append(self, recs: NDArray[np.uint8] | bytes) -> None:
        self.writer.write_raw(recs)

    def absorb(self) -> None:
        """Append every part covering where OUT ends (its uncovered tail); drop parts OUT already covers."""
        size = self.writer.size
        while True:
            for a in [a for a, (b, _) in self.parts.items() if b <= self.done]:
                self.parts.pop(a)[1].unlink()
            # Parts of a run with another --shard may start before OUT's end.
            nxt = next((a for a in sorted(self.parts) if a <= self.done), None)
            if nxt is None:
                return
            stop, path = self.parts.pop(nxt)
            n = stop - self.done
            self.append(path.read_bytes()[(self.done - nxt) * size :])
            path.unlink()
            if self.progress is not None:
                self.progress(n)

    def close(self) -> None:
        self.writer.close()


def _missing(done: int, count: int, parts: dict[int, tuple[int, Path]], shard: int) -> list[tuple[int, int]]:
    """Ranges of ``done .. count`` that no part covers, cut at multiples of ``shard``."""
    out = []
    pos = done
    for a in sorted(parts):
        b = parts[a][0]
        if a > pos:
            out.append((pos, a))
        pos = max(pos, b)
    if pos < count:
        out.append((pos, count))
    ranges = []
    for a, b in out:
        while a < b:
            e = min(b, (a // shard + 1) * shard)
            ranges.append((a, e))
            a = e
    return ranges


def generate(
    out: str | os.PathLike[str],
    count: int,
    seed: int,
    *,
    threads: int | None = None,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    shard: int = _SHARD,
    batch: int | None = None,
    progress: Progress | None = None,
    log: Callable[[str], object] | None = None,
) -> Manifest:
    """Make (or finish) the database ``out`` of ``count`` deals of ``seed``.

    Parameters
    ----------
    out : path-like
        ``.zrd`` (deals and DD tables) or ``.zbd`` (deals only, nothing solved).
    count : int
        Number of deals (at least 1).
    seed : int
        ``0 <= seed < 2**128``; deal ``k`` depends only on ``(seed, k)``.
    threads : int, optional
        Solver threads per process (see :func:`solve_tables`).
    resume : bool
        Continue an interrupted run (module docstring).  Without it an
        existing ``out`` (or an unfinished run's files) is refused.
    workers : int, optional
        Solve on a Dask ``LocalCluster`` of this many single-threaded worker
        processes (needs the ``distributed`` extra).
    scheduler : str, optional
        Address of an existing Dask scheduler (``tcp://host:8786``) instead.
    shard : int
        Deals per distributed task.
    batch : int, optional
        Deals made, appended and synced at a time in one process (default
        64 for ZRD, 262,144 for ZBD): at most this much work is lost to a crash.
    progress : callable, optional
        Called with numbers of deals finished (first with those already on disk).
    log : callable, optional
        Called with one-line notes (what resuming kept or dropped).

    Returns
    -------
    Manifest
        As written to ``OUT.json``.

    Raises
    ------
    DatabaseError
        ``out`` exists without ``resume``; ``resume`` with a different format,
        count, seed or generator; Dask missing; bad arguments.
    """
    out = Path(out)
    fmt = _format_of(out)
    seed = _check_seed(seed)
    count = int(count)
    if count < 1:
        raise DatabaseError(f"count must be at least 1, got {count}")
    if batch is not None and batch < 1:
        raise DatabaseError(f"batch must be at least 1 deal, got {batch}")
    if shard < 1:
        raise DatabaseError(f"shard must be at least 1 deal, got {shard}")
    if workers is not None and scheduler is not None:
        raise DatabaseError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise DatabaseError(f"workers must be at least 1, got {workers}")
    note = log or (lambda _msg: None)
    want = Manifest(format=fmt, count=count, seed=seed)
    side = _progress_path(out)
    man_path = manifest_path(out)
    if not resume:
        for p in (out, side, _parts_dir(out)):
            if p.exists():
                raise DatabaseError(f"{p} exists; pass --resume to finish that run, or choose another name")
    prior = 0.0
    if side.exists():
        have = Manifest.from_file(side)
        _check_same(want, have, out)
        prior = have.seconds
    elif out.exists() or _parts_dir(out).exists():
        if not man_path.exists():
            raise DatabaseError(f"cannot resume {out}: no {side.name} or {man_path.name} says how it was made")
        have = Manifest.from_file(man_path)
        _check_same(want, have, out)
        if not out.exists() or out.stat().st_size != count * _RECORD[fmt] or f"{checksum(out):X}" != have.checksum:
            # Finished once, changed since: re-making it could bless a corrupted file with a new checksum.
            raise DatabaseError(
                f"{out} was finished but no longer matches {man_path.name} (size or checksum); "
                f"run 'ddsbind verify {out}' to find the damage"
            )
        note(f"{out} is already complete ({count} deals); nothing to do")
        if progress is not None:
            progress(count)
        return have
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(side, want.to_json().encode())
    lock = _lock(out)
    started = time.perf_counter()
    try:
        if out.stat().st_size:
            good, why = _valid_prefix(out, seed, count, fmt)
            if why is not None:
                note(f"resume: keeping {good} records; dropping the rest ({why})")
                os.truncate(out, good * _RECORD[fmt])
                _fsync_dir(out.parent)
            elif good:
                note(f"resume: {good} records on disk are good")
        parts = _parts(out, seed, count, fmt)
        app = _Appender(out, fmt, parts, progress)
        try:
            if progress is not None and app.done:
                progress(app.done)
            app.absorb()
            if workers is not None or scheduler is not None:
                _run_dask(app, out, count, seed, fmt, threads, workers, scheduler, shard, note)
            else:
                _run_local(app, count, seed, fmt, threads, batch, progress)
        finally:
            app.close()
    finally:
        elapsed = time.perf_counter() - started
        if side.exists():
            with_time = Manifest.from_file(side)
            with_time.seconds = round(prior + elapsed, 3)
            _write_atomic(side, with_time.to_json().encode())
        os.close(lock)
    if out.stat().st_size != count * _RECORD[fmt]:
        raise DatabaseError(f"{out} has {out.stat().st_size} bytes after generating; expected {count * _RECORD[fmt]}")
    d = _parts_dir(out)
    if d.is_dir():
        for p in d.iterdir():
            p.unlink()
        d.rmdir()
    from ddsbind import __version__

    final = Manifest(
        format=fmt,
        count=count,
        seed=seed,
        ddsbind_version=__version__,
        dds_version=_dds_version() if fmt == "zrd" else None,
        checksum=f"{checksum(out):X}",
        seconds=round(prior + elapsed, 3),
        record_size=_RECORD[fmt],
    )
    _write_atomic(man_path, final.to_json().encode())
    side.unlink()
    _fsync_dir(out.parent)
    return final


def _lock(out: Path) -> int:
    """Open ``out`` (creating it) under an exclusive lock, so two runs never write one file."""
    import fcntl

    fd = os.open(out, os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise DatabaseError(f"another process is generating {out}") from None
    return fd


def _run_local(
    app: _Appender, count: int, seed: int, fmt: str, threads: int | None, batch: int | None, progress: Progress | None
) -> None:
    batch = batch or (_BATCH if fmt == "zrd" else _PLAIN_BATCH)
    while app.done < count:
        a = app.done
        nxt = min([s for s in app.parts if s > a], default=count)
        b = min(a + batch, nxt, count)
        app.append(make_records(seed, a, b, fmt, threads=threads, progress=progress))
        app.absorb()


def _run_dask(
    app: _Appender,
    out: Path,
    count: int,
    seed: int,
    fmt: str,
    threads: int | None,
    workers: int | None,
    scheduler: str | None,
    shard: int,
    note: Callable[[str], object],
) -> None:
    try:
        import logging

        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise DatabaseError("--workers and --scheduler need Dask: pip install 'ddsbind[distributed]'") from None
    ranges = _missing(app.done, count, app.parts, shard)
    if not ranges:
        return
    d = _parts_dir(out)
    d.mkdir(exist_ok=True)
    cluster = None
    if scheduler is None:
        if threads is None:  # local workers share this machine's cores
            threads = max(1, (os.cpu_count() or 1) // (workers or 1))
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        note(f"solving {len(ranges)} shards on {len(client.scheduler_info()['workers'])} Dask workers")
        futures = [
            client.submit(_shard_bytes, seed, a, b, fmt, threads, key=f"ddsbind-{fmt}-{seed}-{a}-{b}", retries=2)
            for a, b in ranges
        ]
        where = {f.key: r for f, r in zip(futures, ranges, strict=True)}
        for fut in as_completed(futures):
            a, b = where[fut.key]
            data = fut.result()
            fut.release()
            if a == app.done:
                app.append(data)
                if app.progress is not None:
                    app.progress(b - a)
            else:
                path = d / f"{a:012d}-{b:012d}.part"
                _write_atomic(path, data)
                app.parts[a] = (b, path)
            app.absorb()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# -- convert --solve -------------------------------------------------------------------------


class TableFiller:
    """Fills unknown DD results (15) by solving each distinct deal once.

    Call it with each batch of ``(owners, tables)`` (tables None = all unknown,
    DDS order, uint8); it returns the tables with every unknown entry solved.
    Deals seen before (in this batch or an earlier one, solved or complete in
    the input) are not solved again.

    Attributes
    ----------
    solved : int
        Distinct deals sent to the solver.
    reused : int
        Records filled from a deal solved (or given complete) elsewhere.

    Notes
    -----
    It keeps every distinct deal's table (about 100 bytes each) for the whole
    run, which is what lets repeated deals anywhere in a file be solved once.
    """

    def __init__(self, *, threads: int | None = None, progress: Progress | None = None) -> None:
        self.threads = threads
        self.progress = progress
        self.solved = 0
        self.reused = 0
        self._known: dict[bytes, bytes] = {}

    def __call__(self, owners: NDArray[np.int8], tables: NDArray[np.uint8] | None) -> NDArray[np.uint8]:
        n = owners.shape[0]
        t = np.full((n, 5, 4), 15, np.uint8) if tables is None else np.array(tables, dtype=np.uint8)
        keys = zbd.encode_zbd(owners)
        complete = (t <= 13).all(axis=(1, 2))
        for i in np.flatnonzero(complete).tolist():
            self._known.setdefault(keys[i].tobytes(), t[i].tobytes())
        need = np.flatnonzero(~complete)
        fresh: dict[bytes, list[int]] = {}
        for i in need.tolist():
            k = keys[i].tobytes()
            if k in self._known:
                self._fill(t, i, self._known[k])
                self.reused += 1
            else:
                fresh.setdefault(k, []).append(int(i))
        if fresh:
            from ddsbind.deal import owners_to_masks

            first = [rows[0] for rows in fresh.values()]
            solved = solve_tables(owners_to_masks(owners[first]), threads=self.threads, progress=self.progress)
            self.solved += len(first)
            for (k, rows), table in zip(fresh.items(), solved.astype(np.uint8), strict=True):
                self._known[k] = table.tobytes()
                for i in rows:
                    self._fill(t, i, self._known[k])
                self.reused += len(rows) - 1
        return t

    @staticmethod
    def _fill(t: NDArray[np.uint8], i: int, table: bytes) -> None:
        full = np.frombuffer(table, np.uint8).reshape(5, 4)
        row = t[i]
        unknown = row == 15
        row[unknown] = full[unknown]


# -- verify ----------------------------------------------------------------------------------


@dataclass
class VerifyReport:
    """What :func:`verify` checked and the first fault found (``ok`` when none)."""

    path: str
    format: str
    count: int
    checksum: str
    checked: list[str]
    sampled: int = 0
    error: str | None = None
    index: int | None = None
    offset: int | None = None

    @property
    def ok(self) -> bool:
        """True when nothing was wrong."""
        return self.error is None


def verify(
    path: str | os.PathLike[str],
    *,
    sample: int = 100,
    rng: np.random.Generator | int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> VerifyReport:
    """Check a database: structure, the manifest, its deals, and ``sample`` re-solved records.

    Checks, in order, stopping at the first fault:

    1. every record is whole and valid (13 cards each, result nibbles 0..13,
       no unknown results in a ZRD file);
    2. with a manifest ``path.json``: the record count, every deal equals the
       one the manifest's seed makes, the checksum;
    3. ``sample`` records (all when ``sample >= count``), chosen at random,
       re-solved and compared with the stored tables.

    Returns
    -------
    VerifyReport
        ``error``, ``index`` and ``offset`` (byte offset in the file) name the
        first bad record.
    """
    path = Path(path)
    fmt = files.guess_format(path)
    if fmt not in _FORMATS:
        raise DatabaseError(f"{path}: verify reads .zrd or .zbd databases")
    size = _RECORD[fmt]
    nbytes = path.stat().st_size
    n = nbytes // size
    rep = VerifyReport(str(path), fmt, n, f"{checksum(path):X}", [])

    def fail(msg: str, index: int | None = None, offset: int | None = None) -> VerifyReport:
        rep.error, rep.index, rep.offset = msg, index, offset
        return rep

    if nbytes % size:
        return fail(f"{nbytes % size} bytes after the last whole record (truncated)", n, n * size)
    recs = files.open_records(path, fmt)
    for s in range(0, n, _CHECK_CHUNK):
        part = np.asarray(recs[s : s + _CHECK_CHUNK])
        bad = zbd.bad_deals(part[:, :13])
        if bad.any():
            i = s + int(np.argmax(bad))
            return fail("deal is not 13 cards in each hand (or the list ends early)", i, i * size)
        if fmt == "zrd":
            nib = np.stack([part[:, 13:] & 0x0F, part[:, 13:] >> 4], axis=2).reshape(-1, 20)
            badt = (nib > 13).any(axis=1)
            if badt.any():
                i = int(np.argmax(badt))
                j = int(np.argmax(nib[i] > 13))
                v = int(nib[i, j])
                what = "unknown (15)" if v == 15 else f"{v}, not a trick count"
                return fail(f"result nibble {j} is {what}", s + i, (s + i) * size + 13 + j // 2)
    rep.checked.append(f"structure of {n} records")
    man_path = manifest_path(path)
    if man_path.exists():
        man = Manifest.from_file(man_path)
        if man.format != fmt:
            return fail(f"the manifest says format {man.format}, the file is {fmt}")
        if man.count != n:
            return fail(f"the manifest says {man.count} records, the file has {n}", min(n, man.count))
        if man.generator != GENERATOR or man.generator_version != GENERATOR_VERSION:
            rep.checked.append(f"deals not re-made: generator {man.generator} v{man.generator_version} is not ours")
        else:
            for s in range(0, n, _CHECK_CHUNK):
                part = np.asarray(recs[s : s + _CHECK_CHUNK])
                want = zbd.zbd_from_owners(make_deals(man.seed, s, s + part.shape[0]))
                diff = part[:, :13] != want
                rows = diff.any(axis=1)
                if rows.any():
                    i = int(np.argmax(rows))
                    return fail(
                        f"deal differs from deal {s + i} of seed {man.seed}",
                        s + i,
                        (s + i) * size + int(np.argmax(diff[i])),
                    )
            rep.checked.append(f"all {n} deals equal those of seed {man.seed}")
        checksum_bad = man.checksum is not None and man.checksum.upper() != rep.checksum
        if not checksum_bad:
            rep.checked.append(f"checksum {rep.checksum} equals the manifest's")
    else:
        checksum_bad = False
        rep.checked.append(f"no manifest {man_path.name}: deals and checksum not compared")
    if fmt == "zrd" and sample > 0 and n:
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        idx = np.arange(n) if sample >= n else np.sort(gen.choice(n, size=sample, replace=False))
        from ddsbind.deal import owners_to_masks

        for s in range(0, idx.size, 4096):
            sel = idx[s : s + 4096]
            part = np.asarray(recs[sel])
            solved = solve_tables(
                owners_to_masks(zbd.owners_from_zbd(part[:, :13])), threads=threads, progress=progress
            ).astype(np.uint8)
            stored = zdd.tables_from_nibbles(part[:, 13:])
            rows = (solved != stored).any(axis=(1, 2))
            if rows.any():
                r = int(np.argmax(rows))
                i = int(sel[r])
                want_nib = zdd.nibbles_from_tables(solved[r : r + 1])[0]
                byte = int(np.argmax(want_nib != part[r, 13:]))
                return fail("stored DD table differs from DDS's", i, i * size + 13 + byte)
        rep.sampled = int(idx.size)
        rep.checked.append(f"{idx.size} records re-solved: tables equal DDS's")
    if checksum_bad:
        return fail(f"checksum {rep.checksum} differs from the manifest's")
    return rep


# -- info ------------------------------------------------------------------------------------

_STRAINS = ("S", "H", "D", "C", "NT")
_SEATS = ("N", "E", "S", "W")
_VULS = ("none", "ns", "ew", "both")


@dataclass
class DatabaseInfo:
    """Statistics of a database (``tricks`` and the rest are None for deals-only files)."""

    path: str
    format: str
    count: int
    checksum: str
    manifest: Manifest | None
    #: (5, 4, 14) int64: how many deals give declarer (N E S W) in strain (S H D C NT) k tricks.
    tricks: NDArray[np.int64] | None = None
    #: (5, 7) float: fraction of (deal, side) pairs where the side makes level 1..7 in the strain.
    makes: NDArray[np.float64] | None = None
    #: Vulnerability -> fraction of sampled deals whose par is a doubled sacrifice.
    sacrifice: dict[str, float] | None = None
    #: Deals the par figures are over.
    par_deals: int = 0


def info(path: str | os.PathLike[str], *, par_sample: int = 10_000, progress: Progress | None = None) -> DatabaseInfo:
    """Count, checksum and double-dummy statistics of a database file.

    Parameters
    ----------
    path : path-like
        A ``.zrd`` or ``.zbd`` file (other record formats: count and checksum only).
    par_sample : int
        Par is computed (DDS ``DealerPar``, dealer rotating N E S W by record
        index) for this many records spread evenly over the file (all if fewer).
    progress : callable, optional
        Called with the number of records read after each chunk.

    Returns
    -------
    DatabaseInfo
    """
    path = Path(path)
    fmt = files.guess_format(path)
    if fmt not in files.RECORD_SIZES:
        raise DatabaseError(f"{path}: info reads record files (.zrd, .zbd, .zdd)")
    man = Manifest.from_file(manifest_path(path)) if manifest_path(path).exists() else None
    count = files.count_records(path, fmt)
    res = DatabaseInfo(str(path), fmt, count, f"{checksum(path):X}", man)
    if fmt not in ("zrd", "zdd"):
        return res
    hist = np.zeros((5, 4, 14), dtype=np.int64)
    side = np.zeros((5, 2, 14), dtype=np.int64)
    step = max(1, count // par_sample) if par_sample > 0 else 0
    picked: list[NDArray[np.uint8]] = []
    picked_idx: list[NDArray[np.int64]] = []
    for c in files.iter_chunks(path, fmt):
        tables = c.tables
        assert tables is not None
        known = (tables <= 13).all(axis=(1, 2))
        t = tables[known]
        flat = (np.arange(20).reshape(1, 5, 4) * 14 + t.astype(np.int64)).ravel()
        hist += np.bincount(flat, minlength=280).reshape(5, 4, 14)
        best = np.stack([np.maximum(t[:, :, 0], t[:, :, 2]), np.maximum(t[:, :, 1], t[:, :, 3])], axis=2)
        side += np.bincount((np.arange(10).reshape(1, 5, 2) * 14 + best).ravel(), minlength=140).reshape(5, 2, 14)
        if step:
            sel = (c.index % step == 0) & known
            picked.append(tables[sel])
            picked_idx.append(c.index[sel])
        if progress is not None:
            progress(len(c))
    res.tricks = hist
    pairs = side.sum(axis=(1, 2))[0] if side.any() else 0
    if pairs:
        at_least = side.sum(axis=1)[:, ::-1].cumsum(axis=1)[:, ::-1]  # (5, 14): pairs with >= k tricks
        res.makes = at_least[:, 7:14] / pairs
    if step and picked:
        tables = np.concatenate(picked)[:par_sample]
        idx = np.concatenate(picked_idx)[:par_sample]
        res.sacrifice = _sacrifices(tables, idx)
        res.par_deals = int(tables.shape[0])
    return res


def _sacrifices(tables: NDArray[np.uint8], idx: NDArray[np.int64]) -> dict[str, float]:
    from ddsbind.solver import dealer_par

    out = {}
    for vul in _VULS:
        sac = 0
        for t, i in zip(tables, idx, strict=True):
            p = dealer_par(t, int(i) % 4, vul)
            # DealerPar writes a doubled contract that goes down as e.g. "4S*-EW-2".
            sac += any(re.search(r"\*-[NESW]+-\d", c) for c in p.contracts)
        out[vul] = sac / len(tables) if len(tables) else math.nan
    return out


def render_info(res: DatabaseInfo) -> list[str]:
    """The lines ``ddsbind info FILE`` prints."""
    out = [f"{res.path}: {res.format}, {res.count} records, checksum {res.checksum}"]
    m = res.manifest
    if m is not None:
        match = "matches" if m.checksum == res.checksum else f"DIFFERS (manifest {m.checksum})"
        out.append(
            f"manifest: {m.count} deals, seed {m.seed}, {m.generator} v{m.generator_version}, "
            f"DDS {m.dds_version or '-'}, {m.seconds:.1f} s; checksum {match}"
        )
    if res.tricks is None:
        return out
    per = res.tricks.sum(axis=2)
    total = int(per[0, 0])
    if total == 0:
        out.append("no complete DD tables")
        return out
    mean = (res.tricks * np.arange(14)).sum(axis=2) / np.maximum(per, 1)
    out += ["", f"Mean tricks by strain and declarer ({total} tables):", "       " + "".join(f"{s:>7}" for s in _SEATS)]
    out += [f"  {s:<4} " + "".join(f"{v:7.2f}" for v in mean[i]) for i, s in enumerate(_STRAINS)]
    dist = res.tricks.sum(axis=1) / (4 * total) * 100
    out += ["", "Tricks for a declarer, % (all four declarers):", "      " + "".join(f"{k:>5}" for k in range(14))]
    out += [f"  {s:<3} " + "".join(f"{v:5.1f}" for v in dist[i]) for i, s in enumerate(_STRAINS)]
    if res.makes is not None:
        out += [
            "",
            "Contract makes for a side (best declarer), % of deals:",
            "      " + "".join(f"{k:>6}" for k in range(1, 8)),
        ]
        out += [f"  {s:<3} " + "".join(f"{v * 100:6.1f}" for v in res.makes[i]) for i, s in enumerate(_STRAINS)]
    if res.sacrifice is not None:
        shown = ", ".join(f"{v} {p * 100:.1f}%" for v, p in res.sacrifice.items())
        out += ["", f"Par is a doubled sacrifice ({res.par_deals} deals, dealer rotating): {shown}"]
    return out


def plot_info(res: DatabaseInfo, out: str | os.PathLike[str]) -> None:
    """Draw the statistics of :func:`info` into an image (matplotlib, the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DatabaseError("--plot needs matplotlib: pip install 'ddsbind[plot]'") from None
    if res.tricks is None or res.tricks.sum() == 0:
        raise DatabaseError(f"{res.path} has no DD results to plot")
    total = res.tricks.sum(axis=(1, 2))[0]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    ax = axes[0]
    for i, s in enumerate(_STRAINS):
        ax.plot(range(14), res.tricks[i].sum(axis=0) / total * 100, marker="o", label=s)
    ax.set(title="Tricks a declarer takes", xlabel="tricks", ylabel="% of (deal, declarer)")
    ax.set_xticks(range(14))
    ax.legend(title="strain")
    ax = axes[1]
    if res.makes is not None:
        w = 0.16
        for i, s in enumerate(_STRAINS):
            ax.bar(np.arange(1, 8) + (i - 2) * w, res.makes[i] * 100, width=w, label=s)
    ax.set(title="Contract makes for a side", xlabel="level", ylabel="% of deals")
    ax.legend(title="strain")
    ax = axes[2]
    if res.sacrifice:
        vals = [v * 100 for v in res.sacrifice.values()]
        ax.bar(list(res.sacrifice), vals, color="tab:red")
        for x, v in enumerate(vals):
            ax.annotate(f"{v:.1f}%", (x, v), ha="center", va="bottom")
    ax.set(title=f"Par is a sacrifice ({res.par_deals} deals)", xlabel="vulnerable", ylabel="% of deals")
    fig.suptitle(f"{Path(res.path).name}: {res.count} deals")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
