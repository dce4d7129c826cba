"""Files of fixed-size records: memory-mapped chunked readers, append-safe writers.

Formats handled here: the fixed-size ones of :mod:`.registry` (record size in
bytes: ``zbd`` 13, ``zdd`` 10, ``zrd`` 23, ``hand-makes`` 16, ``zrj`` 80,
written as raw records).  A file is records back to back, no header.

Reading rules
-------------
* The file is read ``chunk`` records at a time by position
  (:class:`RecordReader`, ``pread`` into a buffer of one chunk), so memory
  stays that of one chunk whatever the file's size: files larger than RAM
  are fine, and the process's resident set does not grow with the file (a
  memory map's pages would count in it as they are touched).
* A record whose first 4 bytes are zero ends the list (Pavlicek's null
  terminator); nothing after it is read.
* A file whose length is not a whole number of records, with no terminator
  before the tail, has a truncated tail: ``FormatError`` with the index and
  byte offset of the partial record once the reader reaches it (ignored with
  ``on_error="skip"`` or ``"raw"``).
* A malformed record (deal not 13/13/13/13, nibble 14, unused bits set) raises
  ``FormatError`` with its index and byte offset, or is dropped
  (``on_error="skip"``) or kept as decoded and flagged in ``Chunk.bad``
  (``on_error="raw"``).

Writing rules
-------------
* :class:`RecordWriter` appends whole records with ``O_APPEND`` writes; if a
  write fails part-way the file is truncated back to its previous length, so
  it never ends in a partial record.  ``fsync=True`` syncs after each write.
  ``atomic=True`` writes a new file beside the target instead and renames it
  into place only when the writer closes without error (all or nothing).
* It refuses a file that already ends in a partial record (``repair=True``
  truncates that tail) or whose last record is a null terminator (appended
  records would be invisible).
* :class:`BatchWriter` writes batches of records in any writable format
  (record, text, DDS's counted text) to one file, atomically: the one
  writer of ``convert`` and of the dealer's ``-o``.
* :func:`atomic_output` is the package's one atomic writer of a whole file
  (used here, by :mod:`ddsbind.database` and by the dealer's output files);
  :func:`naming` puts a file's name in front of a ``FormatError`` raised
  while reading it.  Both are public here for the layers above ``formats``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind._typing import Progress
from ddsbind.deal import owners_to_masks
from ddsbind.errors import FormatError
from ddsbind.formats import _common, registry
from ddsbind.formats._common import (
    OnError,
    add_note,
    atomic_output,
    check_on_error,
    end_of_list,
    naming,
    null_records,
)
from ddsbind.formats.registry import Format, FormatLike, Records

__all__ = [
    "RECORD_SIZES",
    "BatchWriter",
    "Chunk",
    "RecordReader",
    "RecordWriter",
    "append_records",
    "atomic_output",
    "count_records",
    "end_of_list",
    "guess_format",
    "iter_chunks",
    "naming",
    "open_records",
    "read_records",
    "save_figure",
]

_S = TypeVar("_S", bound=np.generic)

#: Record size in bytes of each fixed-size format (from :mod:`.registry`).
RECORD_SIZES: dict[str, int] = {f.name: f.record_size for f in registry.formats() if f.record_size is not None}


def guess_format(path: str | os.PathLike[str]) -> str | None:
    """The name of the format a file extension names (``.zbd .zrd .zdd .zbs .pbn .gib ...``), or None."""
    fmt = registry.by_extension(path)
    return None if fmt is None else fmt.name


def _format(path: str | os.PathLike[str], fmt: FormatLike | None) -> tuple[Format, int]:
    f = registry.guess(path, fmt)
    if f.record_size is None:
        raise FormatError(f"not a fixed-size record format: {f.name!r} (one of {sorted(RECORD_SIZES)})")
    return f, f.record_size


@dataclass
class Chunk:
    """Records decoded from one stretch of a file.

    Attributes
    ----------
    start : int
        File index of the first record of the stretch.
    index : ndarray, shape (n,), int64
        File index of each returned record (gaps where ``on_error="skip"``).
    raw : ndarray, shape (n, size), uint8
        The records' bytes.
    owners : ndarray, shape (n, 52), int8, or None
        DDS seat of each card SA..C2 (``masks`` instead when asked).
    masks : ndarray, shape (n, 4, 4), uint32, or None
    tables : ndarray, shape (n, 5, 4), uint8, or None
        Strains S H D C NT, hands N E S W, 15 = unknown.
    hand, makes : ndarray or None
        For ``hand-makes``: DDS seat ``(n,)`` and makes ``(n, 5)`` S H D C NT.
    bad : ndarray, shape (n,), bool
        Malformed records kept by ``on_error="raw"``.
    """

    start: int
    index: NDArray[np.int64]
    raw: NDArray[np.uint8]
    owners: NDArray[np.int8] | None = None
    masks: NDArray[np.uint32] | None = None
    tables: NDArray[np.uint8] | None = None
    hand: NDArray[np.uint8] | None = None
    makes: NDArray[np.uint8] | None = None
    bad: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return int(self.index.shape[0])


def open_records(path: str | os.PathLike[str], format: FormatLike | None = None) -> NDArray[np.uint8]:
    """Memory-map a file as ``(N, size)`` uint8 whole records (read-only; terminator not applied)."""
    _, size = _format(path, format)
    nbytes = Path(path).stat().st_size
    n = nbytes // size
    if n == 0:
        return np.zeros((0, size), dtype=np.uint8)
    return np.memmap(path, dtype=np.uint8, mode="r", shape=(n, size))


class RecordReader:
    """A file of fixed-size records read by position: memory is what each read asks for, never the file's size.

    Reads are ``os.preadv`` into a fresh array, so one reader may serve
    several threads at once; the kernel is told the file is read in order.

    Parameters
    ----------
    path : path-like
    size : int
        Bytes per record.

    Attributes
    ----------
    count : int
        Whole records in the file when it was opened.
    nbytes : int
        The file's size in bytes when it was opened.
    """

    def __init__(self, path: str | os.PathLike[str], size: int) -> None:
        self.path = Path(path)
        self.size = size
        self._fd = os.open(self.path, os.O_RDONLY)
        try:
            self.nbytes = os.fstat(self._fd).st_size
            if hasattr(os, "posix_fadvise"):
                os.posix_fadvise(self._fd, 0, 0, os.POSIX_FADV_SEQUENTIAL)
        except BaseException:
            os.close(self._fd)
            raise
        self.count = self.nbytes // size

    def read(self, begin: int, end: int) -> NDArray[np.uint8]:
        """Records ``begin .. end`` (clipped to the whole records) as ``(n, size)`` uint8."""
        end = min(end, self.count)
        out = np.empty((max(end - begin, 0), self.size), dtype=np.uint8)
        self.read_into(out, begin)
        return out

    def read_into(self, out: NDArray[np.uint8], begin: int) -> int:
        """Fill ``out`` (C-contiguous uint8, whole records) from record ``begin``; returns bytes read."""
        view = out.reshape(-1).data
        pos, got = begin * self.size, 0
        while got < len(view):
            n = os.preadv(self._fd, [view[got:]], pos + got)
            if n == 0:
                raise FormatError(f"{self.path} shrank while being read: {pos + got} bytes")
            got += n
        return got

    def close(self) -> None:
        """Close the file (reads after this fail)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def count_records(
    path: str | os.PathLike[str], format: FormatLike | None = None, *, chunk: int = 1 << 20, check: bool = True
) -> int:
    """Number of records before the null terminator (or in the whole file).

    With ``check`` (the default) the records counted are validated too, in
    vectorised chunks: a malformed record, or a file that ends in a partial
    record (its size not a whole number of records, when no null terminator
    comes first), raises ``FormatError`` naming the file, the record and its
    byte offset.  ``check=False`` only looks for the terminator.
    """
    fmt, size = _format(path, format)
    count = 0
    with naming(path):
        for start, part in _list_chunks(path, fmt, size, chunk, tail=check):
            if check:
                fmt.validate(part, start, "raise")
            count = start + part.shape[0]
    return count


def _list_chunks(
    path: str | os.PathLike[str], fmt: Format, size: int, chunk: int, *, tail: bool
) -> Iterator[tuple[int, NDArray[np.uint8]]]:
    """The records of a file before its null record, ``chunk`` at a time: (file index of the first, records).

    With ``tail``, a partial record at the end of a file without a null
    record raises ``FormatError`` once every whole record has been given.
    """
    with RecordReader(path, size) as reader:
        n = reader.count
        for start in range(0, n, chunk):
            part = reader.read(start, start + chunk)
            end = end_of_list(part)
            yield start, part[:end]
            if end < part.shape[0]:
                return
    if tail:
        _check_tail(path, n, size)


def _check_tail(path: str | os.PathLike[str], n: int, size: int) -> None:
    """``FormatError`` if the file holds more than ``n`` whole records: a partial record at its end."""
    tail = Path(path).stat().st_size - n * size
    if tail:
        raise FormatError(
            f"truncated tail: {tail} bytes after the last whole {size}-byte record", index=n, offset=n * size
        )


def _decode(fmt: Format, start: int, idx: NDArray[np.int64], recs: NDArray[np.uint8], bad, masks: bool) -> Chunk:
    assert fmt.decode is not None
    r = fmt.decode(recs)
    c = Chunk(start=start, index=idx, raw=recs, owners=r.owners, tables=r.tables, hand=r.hand, makes=r.makes, bad=bad)
    if masks and c.owners is not None:
        c.masks = owners_to_masks(c.owners)
    return c


def iter_chunks(
    path: str | os.PathLike[str],
    format: FormatLike | None = None,
    *,
    chunk: int = 1 << 20,
    on_error: OnError = "raise",
    masks: bool = False,
    progress: Progress | None = None,
) -> Iterator[Chunk]:
    """Read a record file in chunks, stopping at the null terminator.

    Parameters
    ----------
    path : path-like
    format : {"zbd", "zdd", "zrd", "hand-makes", "zrj"}, optional
        Guessed from the extension when None.
    chunk : int
        Records per chunk.
    on_error : {"raise", "skip", "raw"}
        Malformed records: raise ``FormatError`` (index and byte offset), drop
        them, or keep them flagged in ``Chunk.bad``.  A truncated tail raises
        only with ``"raise"``.
    masks : bool
        Also give remainCards masks ``(n, 4, 4)``.
    progress : callable, optional
        Called with the number of records read after each chunk.

    Yields
    ------
    Chunk
    """
    check_on_error(on_error)
    if chunk < 1:
        raise FormatError("chunk must be at least 1 record")
    fmt, size = _format(path, format)
    with naming(path):
        for start, part in _list_chunks(path, fmt, size, chunk, tail=on_error == "raise"):
            bad, keep = fmt.validate(part, start, on_error)
            idx = np.arange(start, start + part.shape[0], dtype=np.int64)
            if keep is not None:
                part, idx, bad = part[keep], idx[keep], bad[keep]
            yield _decode(fmt, start, idx, part, bad, masks)
            if progress is not None:
                progress(int(idx.shape[0]))


def read_records(
    path: str | os.PathLike[str],
    format: FormatLike | None = None,
    *,
    on_error: OnError = "raise",
    masks: bool = False,
) -> Chunk:
    """Read a whole record file into one :class:`Chunk` (see :func:`iter_chunks`)."""
    fmt, size = _format(path, format)
    chunks = list(iter_chunks(path, fmt, on_error=on_error, masks=masks))
    if not chunks:
        return _decode(fmt, 0, np.zeros(0, np.int64), np.zeros((0, size), np.uint8), np.zeros(0, bool), masks)
    if len(chunks) == 1:
        return chunks[0]

    def cat(vals: list[NDArray[_S] | None]) -> NDArray[_S] | None:
        # Every chunk of one read has the same fields set.
        arrays = [v for v in vals if v is not None]
        return np.concatenate(arrays) if arrays else None

    return Chunk(
        start=0,
        index=np.concatenate([c.index for c in chunks]),
        raw=np.concatenate([c.raw for c in chunks]),
        owners=cat([c.owners for c in chunks]),
        masks=cat([c.masks for c in chunks]),
        tables=cat([c.tables for c in chunks]),
        hand=cat([c.hand for c in chunks]),
        makes=cat([c.makes for c in chunks]),
        bad=np.concatenate([c.bad for c in chunks]),
    )


class RecordWriter:
    """Append whole records to a file; never leaves a partial record.

    Parameters
    ----------
    path : path-like
        Created if missing.
    format : str, optional
        A fixed-size format of :mod:`.registry` (``zbd``, ``zdd``, ``zrd``,
        ``hand-makes``, ``zrj``); guessed from the extension when None.
    fsync : bool
        ``os.fsync`` after every write (durable, slower).
    repair : bool
        Truncate a partial record left at the end of an existing file
        (otherwise such a file is refused with ``FormatError``).
    atomic : bool
        Write a new file instead of appending: records go to a temporary
        file beside ``path``, which replaces ``path`` (fsynced first) only
        when the writer is closed without error.  Until then, and for good
        if the ``with`` block raises or :meth:`discard` is called, ``path``
        is absent or unchanged.

    Examples
    --------
    >>> with RecordWriter("deals.zrd") as w:          # doctest: +SKIP
    ...     w.write(owners=owners, tables=tables)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: FormatLike | None = None,
        *,
        fsync: bool = False,
        repair: bool = False,
        atomic: bool = False,
    ) -> None:
        self._fmt, self.size = _format(path, format)
        self.format = self._fmt.name
        self.path = Path(path)
        self._fsync = fsync
        self._atomic: contextlib.ExitStack | None = None
        if atomic:
            # The package's one atomic writer: a temporary file beside path, renamed over it on success.
            self._atomic = contextlib.ExitStack()
            self._fd, self.records = self._atomic.enter_context(atomic_output(self.path)).fileno(), 0
            return
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            length = os.fstat(self._fd).st_size
            rest = length % self.size
            if rest:
                if not repair:
                    n = length // self.size
                    raise FormatError(
                        f"file ends in a partial record ({rest} bytes); pass repair=True to drop it",
                        index=n,
                        offset=n * self.size,
                    )
                os.ftruncate(self._fd, length - rest)
                length -= rest
            if length:
                with open(self.path, "rb") as f:
                    f.seek(length - self.size)
                    last = f.read(4)
                if last == b"\0\0\0\0":
                    n = length // self.size - 1
                    raise FormatError(
                        "file ends in a null terminator; records appended after it would be invisible",
                        index=n,
                        offset=n * self.size,
                    )
            self.records = length // self.size
        except BaseException:
            os.close(self._fd)
            raise

    def write_raw(self, recs: ArrayLike | bytes) -> int:
        """Append ``(n, size)`` uint8 records (or their bytes); returns n."""
        data = (
            bytes(recs)
            if isinstance(recs, bytes | bytearray | memoryview)
            else np.ascontiguousarray(recs, dtype=np.uint8).tobytes()
        )
        if len(data) % self.size:
            raise FormatError(f"{len(data)} bytes is not a whole number of {self.size}-byte records")
        n = len(data) // self.size
        if n and null_records(np.frombuffer(data, np.uint8).reshape(n, self.size)).any():
            raise FormatError("a record starting with 4 zero bytes would end the list; refusing to write it")
        before = os.fstat(self._fd).st_size
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            if self._fsync:
                os.fsync(self._fd)
        except BaseException as exc:
            try:
                os.ftruncate(self._fd, before)
            except OSError as undo:
                # The write's own error (say ENOSPC) is what the user must see.
                add_note(exc, f"and cutting {self.path} back to {before} bytes failed too ({undo.strerror})")
            raise
        self.records += n
        return n

    def write(
        self,
        owners: ArrayLike | None = None,
        tables: ArrayLike | None = None,
        *,
        hand: ArrayLike | None = None,
        makes: ArrayLike | None = None,
    ) -> int:
        """Encode and append records; returns how many.

        ``owners`` ``(n, 52)`` (or masks ``(n, 4, 4)``) for deal formats,
        ``tables`` ``(n, 5, 4)`` DDS order (None = unknown, 15) for ``zrd`` and
        ``zdd``; ``hand`` (DDS seat) and ``makes`` ``(n, 5)`` for ``hand-makes``.
        """
        return self.write_records(Records(_arr(owners), _arr(tables), _arr(hand), _arr(makes)))

    def write_records(self, records: Records) -> int:
        """Encode a :class:`~ddsbind.formats.registry.Records` batch and append it; returns how many."""
        if self._fmt.encode is None:
            raise FormatError(f"use write_raw for {self.format} records")
        return self.write_raw(self._fmt.encode(records))

    def flush(self, fsync: bool = True) -> None:
        """Make written records durable (``os.fsync``); writes are unbuffered anyway."""
        if fsync:
            os.fsync(self._fd)

    def close(self) -> None:
        """Close the file (syncing first when ``fsync=True``); an atomic writer's file replaces ``path``."""
        if self._fd < 0:
            return
        if self._atomic is not None:
            atomic, self._atomic, self._fd = self._atomic, None, -1
            atomic.close()  # flush, fsync, rename over path; on failure path stays as it was
            return
        try:
            if self._fsync:
                os.fsync(self._fd)
        finally:
            os.close(self._fd)
            self._fd = -1

    def discard(self) -> None:
        """Close without keeping anything an atomic writer wrote (``path`` stays as it was)."""
        if self._atomic is not None:
            atomic, self._atomic, self._fd = self._atomic, None, -1
            with contextlib.suppress(_DiscardedError):
                atomic.__exit__(_DiscardedError, _DiscardedError(), None)
        elif self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None and self._atomic is not None:
            self.discard()
        else:
            self.close()


class BatchWriter:
    """Batches of :class:`~ddsbind.formats.registry.Records` written to ``path`` in any writable format.

    The file is ``fmt.dump`` of all the records, in the memory of one batch:
    record formats are encoded batch by batch; text formats written part by
    part (:attr:`Format.dump_part <ddsbind.formats.registry.Format>`, one
    batch held back to know which part is the last); a format whose first
    line counts the records (DDS's ``NUMBER``, :attr:`Format.head
    <ddsbind.formats.registry.Format>`) has its parts written to an unnamed
    temporary file beside ``path`` (in the temporary folder for standard
    output), then its head and that body copied a block at a time.  A
    format with only ``dump`` (none built in) is written whole at the end.  The
    file is written atomically (:func:`atomic_output`): it replaces ``path``
    when the writer closes without error, and a failure leaves ``path`` as
    it was.  ``"-"`` is standard output.

    Examples
    --------
    >>> with BatchWriter("deals.dds", registry.get("dds")) as w:  # doctest: +SKIP
    ...     for batch in batches:
    ...         w.write(batch)
    """

    def __init__(self, path: str | os.PathLike[str], fmt: Format) -> None:
        if fmt.encode is None and fmt.dump is None:
            raise FormatError(f"{fmt.name} records cannot be written from deals and results")
        self.format = fmt
        self.count = 0  # records written so far (held ones included)
        self._output = contextlib.ExitStack()
        self._out = self._output.enter_context(atomic_output(path))
        self._body: IO[bytes] = self._out
        if fmt.head is not None:
            folder = None if os.fspath(path) == "-" else Path(path).absolute().parent
            try:
                self._body = self._output.enter_context(tempfile.TemporaryFile(dir=folder, prefix=".ddsbind-body."))  # noqa: SIM115 - closed by the stack
            except BaseException as exc:
                self._output.__exit__(type(exc), exc, exc.__traceback__)
                raise
        self._held: list[Records] = []  # the batch not yet written (dump_part), or every batch (dump only)
        self._first = 0  # records in the parts written

    def write(self, records: Records) -> int:
        """Add a batch; returns its number of records."""
        fmt = self.format
        if fmt.encode is not None:
            self._body.write(np.ascontiguousarray(fmt.encode(records)).tobytes())
        elif fmt.dump_part is not None:
            if self._held:
                self._body.write(fmt.dump_part(self._held[0], self._first, False))
                self._first += len(self._held[0])
            self._held = [records]
        else:
            self._held.append(records)
        self.count += len(records)
        return len(records)

    def close(self) -> None:
        """Write what is held (the last part; the head and the body) and put the file in place of ``path``."""
        fmt = self.format
        try:
            if fmt.encode is None:
                held = self._held or [Records(np.zeros((0, 52), np.int8))]
                if fmt.dump_part is not None:
                    self._body.write(fmt.dump_part(held[0], self._first, True))
                else:  # a format written only whole (none built in): every batch was kept for this
                    assert fmt.dump is not None
                    self._body.write(fmt.dump(_joined(held)))
                self._held = []
            if fmt.head is not None:
                self._out.write(fmt.head(self.count))
                self._body.seek(0)
                shutil.copyfileobj(self._body, self._out, _common.TEXT_BLOCK)
        except BaseException as exc:
            self._output.__exit__(type(exc), exc, exc.__traceback__)
            raise
        self._output.close()

    def __enter__(self) -> BatchWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:  # nothing kept: path stays as it was, and the error says so
            self._output.__exit__(exc_type, exc, tb)


def _joined(parts: list[Records]) -> Records:
    """One batch of ``parts`` (an array kept only when every part has it)."""
    if len(parts) == 1:
        return parts[0]

    def cat(attr: str) -> NDArray | None:
        vals = [getattr(p, attr) for p in parts]
        return None if any(v is None for v in vals) else np.concatenate(vals)

    pars = None if any(p.pars is None for p in parts) else [x for p in parts for x in p.pars or []]
    return Records(
        cat("owners"),
        cat("tables"),
        cat("hand"),
        cat("makes"),
        dealers=cat("dealers"),
        vulnerabilities=cat("vulnerabilities"),
        pars=pars,
    )


class _DiscardedError(Exception):
    """Thrown into an atomic writer's output to drop it (:meth:`RecordWriter.discard`)."""


def _arr(a: ArrayLike | None) -> NDArray | None:
    return None if a is None else np.asarray(a)


def append_records(
    path: str | os.PathLike[str],
    format: FormatLike | None = None,
    *,
    owners: ArrayLike | None = None,
    tables: ArrayLike | None = None,
    hand: ArrayLike | None = None,
    makes: ArrayLike | None = None,
    fsync: bool = False,
) -> int:
    """Append records to a file in one call (see :class:`RecordWriter`); returns how many."""
    with RecordWriter(path, format, fsync=fsync) as w:
        return w.write(owners, tables, hand=hand, makes=makes)


def save_figure(figure: Any, path: str | os.PathLike[str], **options: Any) -> None:
    """Save a matplotlib ``figure`` to ``path`` atomically (:func:`atomic_output`), its type from the extension.

    ``options`` go to ``figure.savefig`` (``dpi=...``).  A failure leaves
    ``path`` as it was.
    """
    kind = os.path.splitext(os.fspath(path))[1].lower().lstrip(".") or None
    with atomic_output(path) as handle:
        figure.savefig(handle, format=kind, **options)
