"""Checking a database: :func:`verify` (structure, manifest, deals against the seed, re-solved samples)."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database._args import optional_whole, whole
from ddsbind.database.check import RECORD, database_format, find_fault
from ddsbind.database.generation import is_running
from ddsbind.database.manifest import Manifest, read_run
from ddsbind.database.recipe import GENERATOR, GENERATOR_VERSION
from ddsbind.database.solving import solver_pool, tables_of_masks
from ddsbind.errors import DatabaseError, where
from ddsbind.formats import files, zbd, zdd
from ddsbind.formats.checksums import Checksum, checksum_hex, format_checksum, matches

__all__ = ["VerifyReport", "verify"]

_CHECK_CHUNK = 1 << 18  # records per step
_SOLVE_CHUNK = 4096  # re-solved records per step


@dataclass
class VerifyReport:
    """What :func:`verify` checked and the first fault found (``ok`` when none).

    Attributes
    ----------
    path, format : str
    count : int
        Whole records in the file.
    checksum : str
        The file's checksum (upper-case hex).
    checked : list of str
        One line per check passed, in order.
    sampled : int
        Records re-solved and compared.
    expected : int or None
        Records the manifest (finished or not) says the database has.
    finished : bool
        The run that made it finished (``OUT.json``, not ``OUT.generating.json``).
    running : bool
        Unfinished, and a ``generate`` process is writing it now.
    error, index, offset
        The first fault, the record it is in (``index`` from 0 as code counts;
        messages name it ``record index + 1``, as users count) and its byte
        offset (None when not about one record).
    """

    path: str
    format: str
    count: int
    checksum: str
    checked: list[str] = field(default_factory=list)
    sampled: int = 0
    expected: int | None = None
    finished: bool = False
    running: bool = False
    error: str | None = None
    index: int | None = None
    offset: int | None = None

    @property
    def ok(self) -> bool:
        """True when nothing was wrong (an unfinished run is not ok)."""
        return self.error is None

    def error_text(self) -> str | None:
        """The fault as one line (``FILE: record N, byte offset O: why``, N counted from 1), or None when ok."""
        if self.error is None:
            return None
        record = None if self.index is None else self.index + 1
        return f"{where(path=self.path, record=record, offset=self.offset)}: {self.error}"

    def lines(self) -> list[str]:
        """What ``ddsbind verify`` prints on standard output: each check passed, then the verdict when ok."""
        out = [f"ok: {c}" for c in self.checked]
        if self.ok:
            out.append(f"{self.path}: {self.count} records good, checksum {self.checksum}")
        return out

    def to_dict(self) -> dict[str, object]:
        """The report as a JSON-ready dict (with ``ok``)."""
        return {**asdict(self), "ok": self.ok}


def verify(
    path: str | os.PathLike[str],
    *,
    sample: int = 100,
    rng: np.random.Generator | int | None = None,
    threads: int | None = None,
    chunk: int = _CHECK_CHUNK,
    progress: Progress | None = None,
) -> VerifyReport:
    """Check a database: structure, the manifest, its deals, and ``sample`` re-solved records.

    Checks, in order, stopping at the first fault:

    1. the manifest (``path.json``, or ``path.generating.json`` of a run not
       finished) is valid (a bad one raises ``DatabaseError``);
    2. every record is whole and sound: 13 cards in each hand, every ZRD
       result a trick count (an unknown result, 15, is a fault), and, with a
       manifest of this recipe, the deal the manifest's seed makes for it;
    3. the record count (a file without records is a fault) and format
       against the manifest;
    4. ``sample`` records (all when ``sample >= count``), chosen at random,
       re-solved and compared with the stored tables;
    5. the checksum against the manifest's.

    A run not finished is a fault after the checks of the records present:
    "n of N records", and either a ``generate`` is writing it now or (it was
    stopped) how to finish it with ``generate --resume``.

    The file is read once, ``chunk`` records at a time (memory is one
    chunk's whatever the file's size); ``progress`` is called with the
    records checked after each chunk, then with the deals re-solved.

    Returns
    -------
    VerifyReport
        ``error``, ``index`` and ``offset`` (byte offset in the file) name the
        first fault.
    """
    path = Path(path)
    fmt = database_format(path, "verify reads")
    sample = whole(sample, "sample", 0)
    threads = optional_whole(threads, "threads", 1)
    chunk = whole(chunk, "chunk", 1)
    man, finished = read_run(path)
    size = RECORD[fmt]
    try:
        nbytes = path.stat().st_size
    except OSError as exc:
        raise DatabaseError(f"{path}: {exc.strerror}") from None
    del nbytes
    reader = files.RecordReader(path, size)
    try:
        return _verify(path, reader, fmt, man, finished, sample, rng, threads, chunk, progress)
    finally:
        reader.close()


def _verify(
    path: Path,
    reader: files.RecordReader,
    fmt: str,
    man: Manifest | None,
    finished: bool,
    sample: int,
    rng: np.random.Generator | int | None,
    threads: int | None,
    chunk: int,
    progress: Progress | None,
) -> VerifyReport:
    size, n, nbytes = reader.size, reader.count, reader.nbytes
    rep = VerifyReport(str(path), fmt, n, "", finished=finished)
    rep.expected = None if man is None else man.count
    unfinished = man is not None and not finished

    def fail(msg: str, index: int | None = None, offset: int | None = None) -> VerifyReport:
        rep.error, rep.index, rep.offset = msg, index, offset
        return rep

    if man is not None and man.format != fmt:
        rep.checksum = checksum_hex(path)
        return fail(f"the manifest says format {man.format}, the file is {fmt}")
    if nbytes % size and not unfinished:  # an unfinished run may end in a torn write
        rep.checksum = checksum_hex(path)
        return fail(f"{nbytes % size} bytes after the last whole record (truncated)", n, n * size)
    if n == 0 and not unfinished:
        rep.checksum = checksum_hex(path)
        return fail("no records: an empty database")
    ours = man is not None and (man.generator, man.generator_version) == (GENERATOR, GENERATOR_VERSION)
    seed = man.seed if ours and man is not None else None
    # One pass: each chunk is checked and summed into the checksum, then dropped.
    total = Checksum()
    for s in range(0, n, chunk):
        part = reader.read(s, s + chunk)
        fault = find_fault(part, s, fmt, seed)
        if fault is not None:
            rep.checksum = checksum_hex(path)  # the whole file's, as a sound file's report gives it
            return fail(fault.why, fault.index, fault.offset)
        total.update(part)
        if progress is not None:
            progress(part.shape[0])
    if nbytes > n * size:
        tail = np.empty(nbytes - n * size, np.uint8)
        reader.read_into(tail, n)
        total.update(tail)
    value = total.value
    rep.checksum = format_checksum(value)
    rep.checked.append(f"structure of {n} records")
    if man is None:
        rep.checked.append(f"no manifest {path.name}.json: deals and checksum not compared")
    else:
        if n > man.count or (finished and n != man.count):
            return fail(f"the manifest says {man.count} records, the file has {n}", min(n, man.count))
        if seed is not None:
            rep.checked.append(f"all {n} deals equal those of seed {seed}")
        else:
            rep.checked.append(f"deals not re-made: generator {man.generator} v{man.generator_version} is not ours")
    if fmt == "zrd" and sample > 0 and n:
        bad = _resolve_sample(rep, reader, sample, rng, threads, progress)
        if bad is not None:
            return fail("stored DD table differs from DDS's", *bad)
    if unfinished:
        assert man is not None
        rep.running = is_running(path)
        if rep.running:
            return fail(f"unfinished run: {n} of {man.count} records so far; a generate run is writing it now")
        return fail(
            f"unfinished run: {n} of {man.count} records (its generate run was stopped); "
            f"finish it with 'ddsbind generate {path} --count {man.count} --seed {man.seed} --resume'"
        )
    if man is not None:
        assert man.checksum is not None  # a finished manifest always has one (validated)
        if not matches(value, man.checksum):
            return fail(f"checksum {rep.checksum} differs from the manifest's {man.checksum}")
        rep.checked.append(f"checksum {rep.checksum} equals the manifest's")
    return rep


def _take(reader: files.RecordReader, rows: NDArray[np.int64]) -> NDArray[np.uint8]:
    """Records ``rows`` (ascending) of ``reader``, each stretch of neighbours read at once."""
    out = np.empty((rows.size, reader.size), np.uint8)
    breaks = np.flatnonzero(np.diff(rows) != 1) + 1
    for a, b in zip(np.r_[0, breaks], np.r_[breaks, rows.size], strict=True):
        reader.read_into(out[a:b], int(rows[a]))
    return out


def _resolve_sample(
    rep: VerifyReport,
    reader: files.RecordReader,
    sample: int,
    rng: np.random.Generator | int | None,
    threads: int | None,
    progress: Progress | None,
) -> tuple[int, int] | None:
    """Re-solve ``sample`` random records; (index, byte offset) of the first whose table differs, or None."""
    n, size = reader.count, reader.size
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    idx = np.arange(n) if sample >= n else np.sort(gen.choice(n, size=sample, replace=False))
    from ddsbind.deal import owners_to_masks

    with solver_pool(threads) as pool:
        for s in range(0, idx.size, _SOLVE_CHUNK):
            sel = idx[s : s + _SOLVE_CHUNK]
            part = _take(reader, sel)
            masks = owners_to_masks(zbd.owners_from_zbd(part[:, : RECORD["zbd"]]))
            solved = tables_of_masks(masks, pool=pool, progress=progress).astype(np.uint8)
            stored = zdd.tables_from_nibbles(np.ascontiguousarray(part[:, RECORD["zbd"] :]))
            rows = (solved != stored).any(axis=(1, 2))
            if rows.any():
                r = int(np.argmax(rows))
                i = int(sel[r])
                want = zdd.nibbles_from_tables(solved[r : r + 1])[0]
                return i, i * size + RECORD["zbd"] + int(np.argmax(want != part[r, RECORD["zbd"] :]))
    rep.sampled = int(idx.size)
    rep.checked.append(f"{idx.size} records re-solved: tables equal DDS's")
    return None
