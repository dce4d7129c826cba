"""Files of fixed-size records: memory-mapped chunked readers, append-safe writers.

Formats handled here (record size in bytes): ``zbd`` 13, ``zdd`` 10, ``zrd``
23, ``hand-makes`` 16 (and ``zrj`` 80 as raw records).  A file is records back
to back, no header.

Reading rules
-------------
* The file is memory-mapped and read ``chunk`` records at a time, so files
  larger than RAM are fine.
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
* It refuses a file that already ends in a partial record (``repair=True``
  truncates that tail) or whose last record is a null terminator (appended
  records would be invisible).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import owners_to_masks
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, handmakes, zbd, zdd, zrd
from ddsbind.formats._common import OnError, check_on_error, first_bad, null_records

__all__ = [
    "RECORD_SIZES",
    "Chunk",
    "RecordWriter",
    "append_records",
    "count_records",
    "guess_format",
    "iter_chunks",
    "open_records",
    "read_records",
]

#: Record size in bytes of each fixed-size format.
RECORD_SIZES: dict[str, int] = {
    "zbd": _dtypes.ZBD.itemsize,
    "zdd": _dtypes.ZDD.itemsize,
    "zrd": _dtypes.ZRD.itemsize,
    "hand-makes": _dtypes.HAND_MAKES.itemsize,
    "zrj": _dtypes.ZRJ.itemsize,
}

_EXTENSIONS = {".zbd": "zbd", ".zrd": "zrd", ".zdd": "zdd", ".zbs": "zbs", ".pbn": "pbn", ".gib": "gib"}


def guess_format(path: str | os.PathLike[str]) -> str | None:
    """The format name for a file extension (``.zbd .zrd .zdd .zbs .pbn .gib``), or None."""
    return _EXTENSIONS.get(Path(path).suffix.lower())


def _format(path: str | os.PathLike[str], fmt: str | None) -> tuple[str, int]:
    name = fmt or guess_format(path)
    if name not in RECORD_SIZES:
        raise ValueError(f"not a fixed-size record format: {name!r} (one of {sorted(RECORD_SIZES)})")
    return name, RECORD_SIZES[name]


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


def open_records(path: str | os.PathLike[str], format: str | None = None) -> NDArray[np.uint8]:
    """Memory-map a file as ``(N, size)`` uint8 whole records (read-only; terminator not applied)."""
    _, size = _format(path, format)
    nbytes = Path(path).stat().st_size
    n = nbytes // size
    if n == 0:
        return np.zeros((0, size), dtype=np.uint8)
    return np.memmap(path, dtype=np.uint8, mode="r", shape=(n, size))


def count_records(path: str | os.PathLike[str], format: str | None = None, *, chunk: int = 1 << 20) -> int:
    """Number of records before the null terminator (or in the whole file)."""
    recs = open_records(path, format)
    for start in range(0, recs.shape[0], chunk):
        nulls = null_records(recs[start : start + chunk])
        if nulls.any():
            return start + int(np.argmax(nulls))
    return recs.shape[0]


def _bad(name: str, recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    if name == "zbd":
        return zbd.bad_deals(recs), "deal is not 13 cards in each hand"
    if name == "zdd":
        return zdd.bad_tables(recs), "a result nibble is 14"
    if name == "zrd":
        bd, bt = zrd.bad_records(recs)
        bad = bd | bt
        why = "a result nibble is 14" if bad.any() and not bd[int(np.argmax(bad))] else "deal is not 13 each"
        return bad, why
    if name == "hand-makes":
        return handmakes.bad_records(recs), "bad deal, unused bits set, or a makes nibble 14"
    return np.zeros(recs.shape[0], dtype=bool), ""


def _decode(name: str, start: int, idx: NDArray[np.int64], recs: NDArray[np.uint8], bad, masks: bool) -> Chunk:
    c = Chunk(start=start, index=idx, raw=recs, bad=bad)
    if name in ("zbd", "zrd", "hand-makes"):
        c.owners = zbd.owners_from_zbd(recs[:, :13])
        if masks:
            c.masks = owners_to_masks(c.owners)
    if name == "zrd":
        c.tables = zdd.tables_from_nibbles(recs[:, 13:])
    elif name == "zdd":
        c.tables = zdd.tables_from_nibbles(recs)
    elif name == "hand-makes":
        _, c.hand, c.makes = handmakes.decode_hand_makes(recs, on_error="raw")
        c.tables = handmakes.tables_from_makes(c.hand, c.makes)
    return c


def iter_chunks(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    chunk: int = 1 << 20,
    on_error: OnError = "raise",
    masks: bool = False,
    progress: Callable[[int], None] | None = None,
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
        raise ValueError("chunk must be at least 1 record")
    name, size = _format(path, format)
    recs = open_records(path, name)
    n = recs.shape[0]
    tail = Path(path).stat().st_size - n * size
    for start in range(0, n, chunk):
        part = recs[start : start + chunk]
        nulls = null_records(part)
        stop = bool(nulls.any())
        if stop:
            part = part[: int(np.argmax(nulls))]
        part = np.asarray(part)
        bad, why = _bad(name, part)
        idx = np.arange(start, start + part.shape[0], dtype=np.int64)
        if bad.any():
            if on_error == "raise":
                raise first_bad(bad, size, start, name.upper(), why)
            if on_error == "skip":
                part, idx, bad = part[~bad], idx[~bad], bad[~bad]
        yield _decode(name, start, idx, part, bad, masks)
        if progress is not None:
            progress(int(idx.shape[0]))
        if stop:
            return
    if tail and on_error == "raise":
        raise FormatError(
            f"truncated tail: {tail} bytes after the last whole {size}-byte record", index=n, offset=n * size
        )


def read_records(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    on_error: OnError = "raise",
    masks: bool = False,
) -> Chunk:
    """Read a whole record file into one :class:`Chunk` (see :func:`iter_chunks`)."""
    name, size = _format(path, format)
    chunks = list(iter_chunks(path, name, on_error=on_error, masks=masks))
    if not chunks:
        return _decode(name, 0, np.zeros(0, np.int64), np.zeros((0, size), np.uint8), np.zeros(0, bool), masks)
    if len(chunks) == 1:
        return chunks[0]

    def cat(attr: str) -> NDArray | None:
        vals = [getattr(c, attr) for c in chunks]
        return None if vals[0] is None else np.concatenate(vals)

    return Chunk(
        start=0,
        index=cat("index"),
        raw=cat("raw"),
        owners=cat("owners"),
        masks=cat("masks"),
        tables=cat("tables"),
        hand=cat("hand"),
        makes=cat("makes"),
        bad=cat("bad"),
    )


class RecordWriter:
    """Append whole records to a file; never leaves a partial record.

    Parameters
    ----------
    path : path-like
        Created if missing.
    format : {"zbd", "zdd", "zrd", "hand-makes", "zrj"}, optional
        Guessed from the extension when None.
    fsync : bool
        ``os.fsync`` after every write (durable, slower).
    repair : bool
        Truncate a partial record left at the end of an existing file
        (otherwise such a file is refused with ``FormatError``).

    Examples
    --------
    >>> with RecordWriter("deals.zrd") as w:          # doctest: +SKIP
    ...     w.write(owners=owners, tables=tables)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: str | None = None,
        *,
        fsync: bool = False,
        repair: bool = False,
    ) -> None:
        self.format, self.size = _format(path, format)
        self.path = Path(path)
        self._fsync = fsync
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
            raise ValueError(f"{len(data)} bytes is not a whole number of {self.size}-byte records")
        n = len(data) // self.size
        if n and null_records(np.frombuffer(data, np.uint8).reshape(n, self.size)).any():
            raise ValueError("a record starting with 4 zero bytes would end the list; refusing to write it")
        before = os.fstat(self._fd).st_size
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            if self._fsync:
                os.fsync(self._fd)
        except BaseException:
            os.ftruncate(self._fd, before)
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
        if self.format == "zbd":
            recs = zbd.encode_zbd(owners)
        elif self.format == "zrd":
            recs = zrd.encode_zrd(owners, tables)
        elif self.format == "zdd":
            if tables is None:
                raise ValueError("zdd records need tables")
            recs = zdd.encode_zdd(tables)
        elif self.format == "hand-makes":
            if hand is None:
                raise ValueError("hand-makes records need the hand (DDS seat)")
            recs = handmakes.encode_hand_makes(owners, hand, makes)
        else:
            raise ValueError(f"use write_raw for {self.format} records")
        return self.write_raw(recs)

    def flush(self, fsync: bool = True) -> None:
        """Make written records durable (``os.fsync``); writes are unbuffered anyway."""
        if fsync:
            os.fsync(self._fd)

    def close(self) -> None:
        """Close the file (syncing first when ``fsync=True``)."""
        if self._fd >= 0:
            if self._fsync:
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def append_records(
    path: str | os.PathLike[str],
    format: str | None = None,
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
