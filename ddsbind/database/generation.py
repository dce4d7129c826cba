"""Making a database: :func:`generate`, resumable after a crash, in one process or on Dask workers.

Files and crash safety
----------------------
* Every argument is checked (counts, seed, the target's directory, Dask and
  its scheduler) before anything is written: a refused run leaves nothing.
* Records are appended in deal order, whole records only, synced to disk
  after each batch (:class:`ddsbind.formats.RecordWriter` with ``fsync``).
* While a run is unfinished, ``OUT.generating.json`` (written atomically
  before the first record) holds the format, count, seed and generator; a
  run with ``resume=True`` refuses anything else, naming what differs.
* Resuming re-reads every whole record on disk, re-makes its deal from the
  seed and compares the bytes, checks every result is 0..13, cuts the file
  back to just before the first record that fails (or a partial tail), and
  continues from there.  The finished file is byte-identical to an
  uninterrupted run: each record is a pure function of ``(S, k)`` and DDS's
  tables are deterministic.
* Distributed runs (Dask) solve shards (deal ranges) on workers; the client
  writes each returned shard atomically as ``OUT.parts/START-STOP.part`` and
  appends the parts to ``OUT`` in order as they become contiguous, deleting
  each part once appended.  Resuming keeps every valid part, so only the
  missing shards are solved again.
* At the end the manifest ``OUT.json`` is written atomically (temporary file,
  fsync, rename) and the in-progress file removed.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.metadata
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind._dask import dask_client
from ddsbind._typing import Progress
from ddsbind.database._args import optional_whole, whole
from ddsbind.database.check import RECORD, database_format, find_fault
from ddsbind.database.manifest import (
    Manifest,
    fsync_dir,
    generating_path,
    manifest_path,
    parts_dir,
    write_manifest,
)
from ddsbind.database.recipe import check_seed
from ddsbind.database.solving import make_records, shard_bytes, solver_pool
from ddsbind.errors import DatabaseError, where
from ddsbind.formats import files
from ddsbind.formats.checksums import checksum, checksum_hex, matches
from ddsbind.formats.files import RecordWriter, atomic_output

__all__ = ["generate", "is_running"]

_BATCH = 64  # deals solved and appended (and synced) at a time: the work a crash can lose
_PLAIN_BATCH = 1 << 18  # deals per batch when nothing is solved (zbd)
_SHARD = 256  # default deals per distributed shard
_CHECK_CHUNK = 1 << 18  # records per step when re-validating a file
_PART = re.compile(r"^(\d{12})-(\d{12})\.part$")


def _os_error(out: Path, exc: OSError) -> DatabaseError:
    """An OS error met while writing the files of ``out``, named by ``out`` (not a temporary file)."""
    why = os.strerror(exc.errno) if exc.errno else str(exc)
    return DatabaseError(f"cannot write {out}: {why}")


def _check_target(out: Path) -> None:
    """Refuse a target whose nearest existing ancestor is a file or not writable (before writing anything)."""
    for parent in out.parents:
        if parent.exists():
            if not parent.is_dir():
                raise DatabaseError(f"cannot write {out}: {parent} is not a directory")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise _os_error(out, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
            return


def _ddsbind_version() -> str:
    try:
        return importlib.metadata.version("ddsbind")
    except importlib.metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown"


def _dds_version() -> str:
    from ddsbind._binding import dds_info

    return str(dds_info().version)


# -- what is on disk -------------------------------------------------------------------------


def _valid_prefix(out: Path, seed: int, count: int, fmt: str) -> tuple[int, str | None]:
    """How many leading whole records of ``out`` are right; why the rest (if any) is dropped."""
    size = RECORD[fmt]
    nbytes = out.stat().st_size
    whole_records = min(nbytes // size, count)
    # Read by position a chunk at a time: memory stays one chunk's however large the database on disk.
    with files.RecordReader(out, size) as reader:
        for s in range(0, whole_records, _CHECK_CHUNK):
            fault = find_fault(reader.read(s, min(s + _CHECK_CHUNK, whole_records)), s, fmt, seed)
            if fault is not None:
                return fault.index, f"{where(record=fault.index + 1, offset=fault.offset)}: {fault.why}"
    if nbytes > whole_records * size:
        extra = nbytes - whole_records * size
        return whole_records, f"{extra} bytes after record {whole_records} (partial or beyond the count)"
    return whole_records, None


def _parts(out: Path, seed: int, count: int, fmt: str) -> dict[int, tuple[int, Path]]:
    """Valid part files of ``out``: start -> (stop, path).  Invalid ones are deleted."""
    d = parts_dir(out)
    found: dict[int, tuple[int, Path]] = {}
    if not d.is_dir():
        return found
    size = RECORD[fmt]
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
            ok = find_fault(np.frombuffer(data, np.uint8).reshape(b - a, size), a, fmt, seed) is None
        if ok:
            found[a] = (b, p)
        else:
            p.unlink()
    return found


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
        self.writer = RecordWriter(out, fmt, fsync=True)
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


# -- generate --------------------------------------------------------------------------------


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
        Number of deals (an integer, at least 1).
    seed : int
        ``0 <= seed < 2**128``; deal ``k`` depends only on ``(seed, k)``.
    threads : int, optional
        Solver threads per process (see :func:`~ddsbind.database.solving.tables_of_masks`).
        More than DDS runs gives one :class:`~ddsbind.database.ThreadsWarning`.
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
        Bad arguments (checked before anything is written, including Dask
        and the scheduler's address); ``out`` exists without ``resume``;
        ``resume`` with a different format, count, seed or generator; a
        manifest that fails validation; ``out`` cannot be written (named
        by ``out``).
    """
    out = Path(out)
    fmt = database_format(out)
    seed = check_seed(seed)
    count = whole(count, "count", 1)
    threads = optional_whole(threads, "threads", 1)
    batch = optional_whole(batch, "batch", 1)
    shard = whole(shard, "shard", 1)
    workers = optional_whole(workers, "workers", 1)
    if workers is not None and scheduler is not None:
        raise DatabaseError("give workers (--workers) or a scheduler (--scheduler), not both")
    if scheduler is not None and not isinstance(scheduler, str):
        raise DatabaseError(f"the scheduler must be an address such as tcp://host:8786, got {scheduler!r}")
    _check_target(out)
    note = log or (lambda _msg: None)
    want = Manifest(format=fmt, count=count, seed=seed)
    side = generating_path(out)
    if not resume:
        for p in (out, side, parts_dir(out)):
            if p.exists():
                raise DatabaseError(f"{p} exists; pass --resume to finish that run, or choose another name")
    fresh = False
    if side.exists():
        have = Manifest.from_file(side, finished=False)
        _check_same(want, have, out)
        want.seconds = have.seconds
    elif out.exists() or parts_dir(out).exists():
        return _already_complete(out, want, fmt, note, progress)
    else:
        fresh = True
    distributed = workers is not None or scheduler is not None
    if distributed and threads is None and scheduler is None:  # local workers share this machine's cores
        threads = max(1, (os.cpu_count() or 1) // (workers or 1))
    with contextlib.ExitStack() as stack:
        # Dask is checked (and its scheduler reached) before anything is written.
        client = stack.enter_context(dask_client(workers, scheduler, error=DatabaseError)) if distributed else None
        lock = _start(out, side, want, fresh)
        stack.callback(os.close, lock)
        started = time.perf_counter()
        try:
            try:
                _resume_on_disk(out, seed, count, fmt, note)
                app = _Appender(out, fmt, _parts(out, seed, count, fmt), progress)
                try:
                    if progress is not None and app.done:
                        progress(app.done)
                    app.absorb()
                    if client is not None:
                        _run_dask(client, app, out, count, seed, fmt, threads, shard, note)
                    else:
                        _run_local(app, count, seed, fmt, threads, batch, progress)
                finally:
                    app.close()
            finally:
                elapsed = time.perf_counter() - started
                want.seconds = round(want.seconds + elapsed, 3)
                if side.exists():
                    write_manifest(side, want)
            return _finish(out, want, fmt)
        except OSError as exc:  # a full disk, a removed directory: named by OUT, and resumable
            why = os.strerror(exc.errno) if exc.errno else str(exc)
            raise DatabaseError(
                f"generating {out} stopped: {why}; finish it with "
                f"'ddsbind generate {out} --count {count} --seed {seed} --resume'"
            ) from None


def _already_complete(
    out: Path, want: Manifest, fmt: str, note: Callable[[str], object], progress: Progress | None
) -> Manifest:
    """``resume`` of a finished database: its manifest when ``out`` still matches it, else ``DatabaseError``."""
    side, man_path = generating_path(out), manifest_path(out)
    if not man_path.exists():
        raise DatabaseError(f"cannot resume {out}: no {side.name} or {man_path.name} says how it was made")
    have = Manifest.from_file(man_path)
    _check_same(want, have, out)
    assert have.checksum is not None  # a finished manifest always has one (validated)
    if not out.exists() or out.stat().st_size != want.count * RECORD[fmt] or not matches(checksum(out), have.checksum):
        # Finished once, changed since: re-making it could bless a corrupted file with a new checksum.
        raise DatabaseError(
            f"{out} was finished but no longer matches {man_path.name} (size or checksum); "
            f"run 'ddsbind verify {out}' to find the damage"
        )
    note(f"{out} is already complete ({want.count} deals); nothing to do")
    if progress is not None:
        progress(want.count)
    return have


def _start(out: Path, side: Path, want: Manifest, fresh: bool) -> int:
    """Create the run's files (a fresh run: ``OUT.generating.json``, then ``OUT``) and lock ``OUT``.

    An OS error is named by ``out`` and leaves nothing a fresh run created behind (a run
    refused because another holds the lock leaves that run's files alone).
    """
    try:
        if fresh:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_manifest(side, want)
        return _lock(out)
    except OSError as exc:
        if fresh:
            side.unlink(missing_ok=True)
        raise _os_error(out, exc) from None


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


def is_running(out: Path) -> bool:
    """True while a :func:`generate` process holds ``out``'s lock (it is writing it now).

    Probes with a shared lock taken and dropped at once; ``out`` is never created.
    """
    import fcntl

    try:
        fd = os.open(out, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock the probe took
    return False


def _resume_on_disk(out: Path, seed: int, count: int, fmt: str, note: Callable[[str], object]) -> None:
    """Cut ``out`` back to its leading records that are what ``seed`` makes (a no-op on an empty file)."""
    if not out.stat().st_size:
        return
    good, why = _valid_prefix(out, seed, count, fmt)
    if why is not None:
        note(f"resume: keeping {good} records; dropping the rest ({why})")
        os.truncate(out, good * RECORD[fmt])
        fsync_dir(out.parent)
    elif good:
        note(f"resume: {good} records on disk are good")


def _finish(out: Path, run: Manifest, fmt: str) -> Manifest:
    """Check the size, drop the parts directory, write ``OUT.json`` and remove ``OUT.generating.json``."""
    size = out.stat().st_size
    if size != run.count * RECORD[fmt]:
        raise DatabaseError(f"{out} has {size} bytes after generating; expected {run.count * RECORD[fmt]}")
    d = parts_dir(out)
    if d.is_dir():
        for p in d.iterdir():
            p.unlink()
        d.rmdir()
    final = Manifest(
        format=fmt,
        count=run.count,
        seed=run.seed,
        ddsbind_version=_ddsbind_version(),
        dds_version=_dds_version() if fmt == "zrd" else None,
        checksum=checksum_hex(out),
        seconds=run.seconds,
        record_size=RECORD[fmt],
    )
    write_manifest(manifest_path(out), final)
    generating_path(out).unlink()
    fsync_dir(out.parent)
    return final


def _run_local(
    app: _Appender, count: int, seed: int, fmt: str, threads: int | None, batch: int | None, progress: Progress | None
) -> None:
    batch = batch or (_BATCH if fmt == "zrd" else _PLAIN_BATCH)
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(solver_pool(threads)) if fmt == "zrd" and app.done < count else None
        while app.done < count:
            a = app.done
            nxt = min([s for s in app.parts if s > a], default=count)
            b = min(a + batch, nxt, count)
            app.append(make_records(seed, a, b, fmt, pool=pool, progress=progress))
            app.absorb()


def _run_dask(
    client: Any,
    app: _Appender,
    out: Path,
    count: int,
    seed: int,
    fmt: str,
    threads: int | None,
    shard: int,
    note: Callable[[str], object],
) -> None:
    from distributed import as_completed

    ranges = _missing(app.done, count, app.parts, shard)
    if not ranges:
        return
    d = parts_dir(out)
    d.mkdir(exist_ok=True)
    note(f"solving {len(ranges)} shards on {len(client.scheduler_info()['workers'])} Dask workers")
    futures = [
        client.submit(shard_bytes, seed, a, b, fmt, threads, key=f"ddsbind-{fmt}-{seed}-{a}-{b}", retries=2)
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
            with atomic_output(path) as f:
                f.write(data)
            app.parts[a] = (b, path)
        app.absorb()
