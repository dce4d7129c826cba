"""Library mode: dealer scripts over a solved database, its deals in file order and its stored DD results.

A *library* is a file of solved deals: ZRD (23-byte records, the deal and
its twenty double-dummy results; Pavlicek's library of 10,485,760 deals is
one), or a ZBD file (13-byte deals) with the ZDD file of the same stem
beside it (10-byte results, record ``i`` of one for record ``i`` of the
other).  The files are read by position a chunk of records at a time, so a
library larger than memory runs in constant memory.

Every record read is checked with :func:`ddsbind.database.check.find_fault`,
the check ``ddsbind verify`` runs: 13 cards in each hand, every result a
trick count 0..13 (15, unknown, and 14, invalid, are refused).  A damaged
library is refused with a :class:`~ddsbind.errors.FormatError` whose one
line names the file, the record and the byte offset; so is a file that is
not a whole number of records (before anything is read).  A record whose
first four bytes are zero (Pavlicek's list terminator) is not a deal, as
``verify`` says too: libraries have no terminator.

In memory, as everywhere in ddsbind: owners ``(n, 52)`` int8 (DDS seat
N=0 E=1 S=2 W=3 of card SA..C2), masks ``(n, 4, 4)`` uint32, tables
``(n, 5, 4)`` uint8 ``[strain S H D C NT][declarer N E S W]``.  The bytes are
Pavlicek's (seats W N E S, strains NT S H D C); they are converted by
:mod:`ddsbind.formats` (:func:`~ddsbind.formats.zdd.tables_from_nibbles`,
:func:`~ddsbind.formats.zbd.owners_from_zbd`, :mod:`ddsbind.formats.order`)
and nowhere here.

For the dealer language a chunk is a :class:`LibraryFrame`: ``tricks()``
reads the stored result (no solver is made, no DDS search runs), and
:class:`LibraryHands` (a :class:`ddsbind.hands.Hands` built from the
records) computes per-hand counts (``hcp``, suit lengths, controls,
``pt0``..``pt9``...) straight from each suit's 26 bits of the ZBD bytes
through :func:`ddsbind.hands.seat_table`'s tables, the deal's owner rows
only when a function needs them; ``tricks()`` reads its one nibble of the
stored results in place.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database.check import find_fault
from ddsbind.dealer.dealing import DealerError, Predeal, ordered_map
from ddsbind.dealer.language import Expr, Frame, Script, Solver
from ddsbind.errors import DatabaseError, FormatError
from ddsbind.formats import files, order, zbd, zdd
from ddsbind.formats.files import naming
from ddsbind.hands import HIGH_RANKS, Hands, seat_table, suit_codes

__all__ = [
    "CHUNK",
    "Library",
    "LibraryChunk",
    "LibraryFrame",
    "LibraryHands",
    "iter_library",
    "open_library",
    "predeal_condition",
]

#: Records per chunk read, checked and evaluated at a time.
CHUNK = 1 << 16
_DEAL = zbd.RECORD_SIZE  # 13
_RESULT = zdd.RECORD_SIZE  # 10
_RECORD = _DEAL + _RESULT  # 23, a ZRD record


@dataclasses.dataclass
class LibraryChunk:
    """Records ``start .. start + n`` of a library, checked.

    Attributes
    ----------
    start : int
        Library index of the first record (its index in the file).
    deals : ndarray, shape (n, 13), uint8
        The ZBD bytes (a view into the chunk read).
    results : ndarray, shape (n, 10), uint8
        The ZDD bytes.
    """

    start: int
    deals: NDArray[np.uint8]
    results: NDArray[np.uint8]

    def __len__(self) -> int:
        return int(self.deals.shape[0])

    @functools.cached_property
    def owners(self) -> NDArray[np.int8]:
        """``(n, 52)`` int8: the DDS seat (N=0 E=1 S=2 W=3) of each card SA..C2."""
        return zbd.owners_from_zbd(self.deals)

    @property
    def masks(self) -> NDArray[np.uint32]:
        """``(n, 4, 4)`` uint32 remainCards masks ``[hand N E S W][suit S H D C]``, bit ``rank``."""
        from ddsbind.deal import owners_to_masks

        return np.asarray(owners_to_masks(self.owners), dtype=np.uint32)

    @functools.cached_property
    def tables(self) -> NDArray[np.uint8]:
        """``(n, 5, 4)`` uint8 DD tables ``[strain S H D C NT][declarer N E S W]``, tricks 0..13."""
        return zdd.tables_from_nibbles(self.results)


class Library:
    """A solved database opened for reading: a ZRD file, or a ZBD file and the ZDD file beside it.

    Parameters
    ----------
    path : path-like
        ``.zrd``; or ``.zbd`` (its results in the ``.zdd`` of the same stem),
        or that ``.zdd`` (its deals in the ``.zbd``).
    start : int
        Records skipped before the first read (0: from the first), to split a
        large library; messages name records from 1, as users count (start
        100 reads from record 101).
    count : int, optional
        Records read from ``start`` (default: to the end of the file); more
        than the file holds from ``start`` is refused.

    Raises
    ------
    DatabaseError
        Not a ``.zrd``/``.zbd``/``.zdd`` path, a missing partner file, or
        the two files of a pair holding different numbers of records.
    FormatError
        A file that is not a whole number of records: its path, the partial
        record's index and byte offset.
    DealerError
        ``start``/``count`` outside the file (``start`` 290 and ``count`` 50
        of a file of 300 records included).
    OSError
        A file cannot be read.
    """

    def __init__(self, path: str | os.PathLike[str], *, start: int = 0, count: int | None = None) -> None:
        p = Path(path)
        fmt = files.guess_format(p)
        if fmt == "zrd":
            self.paths: tuple[Path, ...] = (p,)
        elif fmt in ("zbd", "zdd"):
            deals, results = p.with_suffix(".zbd"), p.with_suffix(".zdd")
            partner = results if fmt == "zbd" else deals
            if not partner.exists():
                raise DatabaseError(f"{p}: a .{fmt} library needs its partner {partner} (deals .zbd, results .zdd)")
            self.paths = (deals, results)
        else:
            raise DatabaseError(f"{p}: a library is a .zrd file, or a .zbd file with its .zdd beside it")
        self.format = fmt if fmt == "zrd" else "zbd+zdd"
        sizes: tuple[int, ...] = (_RECORD,) if fmt == "zrd" else (_DEAL, _RESULT)
        counts = [_whole_records(q, size) for q, size in zip(self.paths, sizes, strict=True)]
        if len(set(counts)) > 1:
            deals_path, results_path = self.paths[0], self.paths[-1]
            raise DatabaseError(f"{deals_path} holds {counts[0]} deals but {results_path} holds {counts[1]} results")
        self.size = counts[0]
        if isinstance(start, bool) or not 0 <= int(start) <= self.size:
            raise DealerError(
                f"library start: record {start + 1} is not in {p}, which holds records 1 .. {self.size}"
                " (start is the records skipped, from 0)"
            )
        self.start = int(start)
        available = self.size - self.start
        if count is None:
            count = available
        if isinstance(count, bool) or int(count) < 0:
            raise DealerError(f"library count must not be negative, got {count}")
        if int(count) > available:
            # Asked for more than the file holds: refused, never a run over fewer deals than asked for.
            raise DealerError(
                f"library start and count ask for records {self.start + 1} .. "
                f"{self.start + int(count)}, but {p} holds {self.size}: "
                f"give a count of at most {available}, or no count (to the end)"
            )
        self.stop = self.start + int(count)
        # Read by position, not mapped: a mapped file's pages would count in the process's memory as it is read.
        self._readers = [files.RecordReader(q, size) for q, size in zip(self.paths, sizes, strict=True)]

    @property
    def path(self) -> Path:
        """The file named first (the ZRD file, or the pair's ZBD file)."""
        return self.paths[0]

    def __len__(self) -> int:
        """Records selected (``start`` up to the end or ``count``)."""
        return self.stop - self.start

    def __repr__(self) -> str:
        return f"Library({str(self.path)!r}, records {self.start}..{self.stop} of {self.size})"

    def chunks(
        self, size: int = CHUNK, *, limit: int | None = None, progress: Progress | None = None
    ) -> Iterator[LibraryChunk]:
        """The selected records, ``size`` at a time, each chunk checked before it is given.

        ``limit`` stops after that many records; ``progress`` is called with
        the number of records of each chunk given.  Raises
        :class:`~ddsbind.errors.FormatError` at the first damaged record.
        """
        for begin, end in self.spans(size, limit):
            chunk = self.read(begin, end)
            yield chunk
            if progress is not None:
                progress(len(chunk))

    def spans(self, size: int = CHUNK, limit: int | None = None) -> Iterator[tuple[int, int]]:
        """``(begin, end)`` file indices of the chunks of :meth:`chunks`, lazily."""
        if size < 1:
            raise DealerError(f"chunk size must be at least 1, got {size}")
        stop = self.stop if limit is None else min(self.stop, self.start + limit)
        for begin in range(self.start, stop, size):
            yield begin, min(begin + size, stop)

    def read(self, begin: int, end: int) -> LibraryChunk:
        """Records ``begin .. end`` (file indices) as a checked :class:`LibraryChunk`."""
        if len(self._readers) == 1:
            recs = self._readers[0].read(begin, end)
            self._check(recs, begin)
            return LibraryChunk(begin, recs[:, :_DEAL], recs[:, _DEAL:])
        deals = self._readers[0].read(begin, end)
        results = self._readers[1].read(begin, end)
        self._check(np.concatenate([deals, results], axis=1), begin)
        return LibraryChunk(begin, deals, results)

    def _check(self, recs: NDArray[np.uint8], begin: int) -> None:
        """``verify``'s record check; the first fault as a one-line ``FormatError`` naming file, record, offset."""
        fault = find_fault(recs, begin, "zrd")
        if fault is None:
            return
        byte = fault.offset - fault.index * _RECORD
        if len(self.paths) == 1:
            path, offset = self.paths[0], fault.offset
        elif byte < _DEAL:
            path, offset = self.paths[0], fault.index * _DEAL + byte
        else:
            path, offset = self.paths[1], fault.index * _RESULT + byte - _DEAL
        with naming(path):
            raise FormatError(fault.why, index=fault.index, offset=offset)


def _whole_records(path: Path, size: int) -> int:
    """Records in ``path``; ``FormatError`` (path, partial record, its byte offset) when not whole."""
    nbytes = path.stat().st_size
    n, rest = divmod(nbytes, size)
    if rest:
        with naming(path):
            raise FormatError(
                f"{rest} bytes after the last whole {size}-byte record (truncated)", index=n, offset=n * size
            )
    return n


def open_library(path: str | os.PathLike[str] | Library, *, start: int = 0, count: int | None = None) -> Library:
    """A :class:`Library` (one passed in is returned as it is); see :class:`Library` for the arguments."""
    if isinstance(path, Library):
        return path
    return Library(path, start=start, count=count)


def iter_library(
    path: str | os.PathLike[str],
    *,
    start: int = 0,
    count: int | None = None,
    chunk: int = CHUNK,
    progress: Progress | None = None,
) -> Iterator[LibraryChunk]:
    """Read a library in chunks: each chunk's ``owners``, ``masks`` and ``tables`` in DDS order.

    Examples
    --------
    >>> for part in iter_library("rpdd.zrd", count=1000):  # doctest: +SKIP
    ...     nt_north = part.tables[:, 4, 0]  # tricks North takes in notrump
    """
    yield from Library(path, start=start, count=count).chunks(chunk, progress=progress)


# --------------------------------------------------------------------------
# The dealer language over a chunk


# A suit of a ZBD deal is 26 consecutive bits of its 104 (card ``13 * suit + rank``, the ace first,
# at bits ``2 * card``): ranks A..8 in its low 14 bits, 7..2 in the 12 above.
_HIGH_BITS = 2 * HIGH_RANKS
_HIGH_MASK = (1 << _HIGH_BITS) - 1
_LOW_MASK = (1 << (26 - _HIGH_BITS)) - 1


@functools.lru_cache(maxsize=2)
def _hands_codes(ranks: int) -> NDArray[np.intp]:
    """ZBD's bits of ``ranks`` consecutive cards of a suit -> :func:`ddsbind.hands.suit_codes`'s code of them.

    ZBD puts the first card in the lowest two bits, as a Pavlicek seat;
    ``suit_codes`` puts it in the highest digit, as a DDS seat.
    """
    bits = np.arange(4**ranks, dtype=np.intp)
    codes = np.zeros_like(bits)
    for r in range(ranks):
        seats = order.dds_seats((bits >> (2 * r)) & 3).astype(np.intp)
        codes |= seats << (2 * (ranks - 1 - r))
    return codes


@functools.lru_cache(maxsize=64)
def _suit_luts(weights: tuple[int, ...]) -> tuple[NDArray[np.uint32] | None, NDArray[np.uint32] | None]:
    """:func:`ddsbind.hands.seat_table` of 13 weights, indexed by a suit's ZBD bits: ranks A..8, then 7..2.

    Each entry holds the suit's weighted sum of each DDS seat in byte
    ``seat``; a part whose weights are all 0 is None.
    """
    high, low = weights[:HIGH_RANKS], weights[HIGH_RANKS:]
    return (
        seat_table(high, HIGH_RANKS)[_hands_codes(HIGH_RANKS)] if any(high) else None,
        seat_table(low, 13 - HIGH_RANKS)[_hands_codes(13 - HIGH_RANKS)] if any(low) else None,
    )


def _weights(weights: Sequence[float]) -> tuple[int, ...] | None:
    """13 weights (ace first), or None when they are no bytes: a fraction, or a suit's sum past 255."""
    if any(isinstance(x, float) and not x.is_integer() for x in weights):
        return None
    w = tuple(int(x) for x in weights)[:13]
    w = w + (0,) * (13 - len(w))
    if any(x < 0 for x in w) or sum(w) > 255:
        return None
    return w


class LibraryHands(Hands):
    """:class:`ddsbind.hands.Hands` of a chunk of ZBD records, counted from the bytes.

    The counts (:meth:`count`, ``lengths``, ``hcp``...) read each suit's
    bits of the records in place and look them up in
    :func:`ddsbind.hands.seat_table`'s tables (re-indexed once for ZBD's
    bit order), two look-ups per suit; ``owners`` (needed by ``hascard``,
    printing and unusual weights) is decoded the first time it is asked for.
    """

    def __init__(self, deals: NDArray[np.uint8]) -> None:
        self.deals = deals
        self.n = int(deals.shape[0])
        self._counts = {}
        self._one_suit: dict[int, NDArray[np.int8]] = {}
        self._bits: dict[int, tuple[NDArray[np.intp], NDArray[np.intp]]] = {}

    @functools.cached_property
    def owners(self) -> NDArray[np.int8]:  # type: ignore[override]
        """``(n, 52)`` int8 DDS seats of SA..C2, decoded from the ZBD bytes on first use."""
        return zbd.owners_from_zbd(self.deals)

    @functools.cached_property
    def _codes(self) -> tuple[NDArray[np.intp], NDArray[np.intp]] | None:
        return suit_codes(self.owners)

    @functools.cached_property
    def _words(self) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """The deals' bits 0..63 and 64..103 (:func:`ddsbind.formats.zbd.deal_words`), as intp views."""
        low, high = zbd.deal_words(self.deals)
        return low.view(np.intp), high.view(np.intp)

    def _suit_bits(self, suit: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """The ZBD bits of ``suit``'s ranks A..8 and of its ranks 7..2, ``(n,)`` intp each (look-up indices)."""
        if suit not in self._bits:
            low, high = self._words  # suits at bits 0, 26, 52 (across the two words) and 78
            if suit == 0:
                field = low
            elif suit == 1:
                field = low >> 26
            elif suit == 2:
                field = ((low >> 52) & 0xFFF) | (high << 12)
            else:
                field = high >> 14
            self._bits[suit] = (field & _HIGH_MASK, (field >> _HIGH_BITS) & _LOW_MASK)
        return self._bits[suit]

    def _suit_sums(self, w: tuple[int, ...], suits: Sequence[int] = range(4)) -> NDArray[np.uint32]:
        """``(len(suits), n)`` uint32 ``[suit, deal]``: byte ``seat`` of a word is that seat's sum of weights ``w``."""
        out = np.zeros((len(suits), self.n), dtype=np.uint32)
        for lut, part in zip(_suit_luts(w), (0, 1), strict=True):
            if lut is not None:
                for row, suit in zip(out, suits, strict=True):
                    row += lut.take(self._suit_bits(suit)[part], mode="clip")  # in range by construction
        return out

    def _count(self, weights: tuple[float, ...], by_suit: bool) -> NDArray[Any]:
        """A count from the records' bits when its weights fit a byte a suit, else :class:`Hands`'s."""
        w = _weights(weights)
        if w is None or (not by_suit and 4 * sum(w) > 255):
            return super()._count(weights, by_suit)
        sums = self._suit_sums(w)
        if by_suit:
            return sums.view(np.uint8).reshape(4, self.n, 4).transpose(1, 2, 0).astype(np.int16)
        total = sums[0] + sums[1] + sums[2] + sums[3]  # a hand's sum fits its byte too (4 suits * 255 / 4)
        return total.view(np.uint8).reshape(self.n, 4).astype(np.int16)

    @functools.cached_property
    def lengths(self) -> NDArray[np.int8]:
        """``(n, 4, 4)`` int8 suit lengths ``[deal, seat, suit]`` (a view of the per-suit sums, not a copy)."""
        sums = self._suit_sums((1,) * 13)
        return sums.view(np.int8).reshape(4, self.n, 4).transpose(1, 2, 0)

    def lengths_in(self, suit: int) -> NDArray[np.int8]:
        """``(n, 4)`` int8: each seat's length in ``suit``, that suit alone counted (unless all four are)."""
        if "lengths" in self.__dict__:
            return self.lengths[:, :, suit]
        if suit not in self._one_suit:
            self._one_suit[suit] = self._suit_sums((1,) * 13, (suit,)).view(np.int8).reshape(self.n, 4)
        return self._one_suit[suit]


class LibraryFrame(Frame):
    """A chunk for the dealer language: its :class:`LibraryHands` and the stored results for ``tricks()``."""

    def __init__(
        self, chunk: LibraryChunk, script: Script, seed: int = 0, first: int = 0, solver: Solver | None = None
    ) -> None:
        super().__init__(LibraryHands(chunk.deals), solver, script.pointcount, script.altcounts, seed, first)
        self.chunk = chunk

    def tables_for(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """The stored DD tables ``(len(rows), 5, 4)`` of the deals ``rows`` (read, never solved).

        A few rows are decoded alone; from a quarter of the chunk on, the
        whole chunk's tables are decoded once and kept for later calls.
        """
        if "all_tables" not in self.__dict__ and rows.size * 4 < self.hands.n:
            return zdd.tables_from_nibbles(self.chunk.results[rows]).view(np.int8)
        if rows.size == self.hands.n:
            return self.all_tables
        return self.all_tables[rows]

    # The planner's questions, answered from the stored tables: nothing is ever solved or tracked.

    def result(self, rows: NDArray[np.intp], strain: int, seat: int) -> NDArray[Any]:
        """The stored ``tricks(seat, strain)`` of the deals ``rows``, uint8: one nibble a record, read in place."""
        if "all_tables" in self.__dict__:
            return self.column(self.all_tables[:, strain], rows, seat).view(np.uint8)
        byte, shift = zdd.result_nibble(strain, seat)
        results = self.chunk.results
        column = results[:, byte] if rows.size == self.hands.n else results[rows, byte]
        return (column >> shift) & 15

    def tricks(self, rows: NDArray[np.intp], strain: int, seat: int) -> NDArray[np.int64]:
        """``tricks(seat, strain)`` of the deals ``rows``: the stored result."""
        return self.result(rows, strain, seat).astype(np.int64)

    def at_least(self, rows: NDArray[np.intp], strain: int, seat: int, need: int) -> NDArray[np.int64]:
        """``tricks(seat, strain) >= need`` of the deals ``rows`` (1 or 0), from the stored result."""
        return (self.result(rows, strain, seat) >= need).astype(np.int64)

    def need(self, rows: NDArray[np.intp], pairs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
        """Nothing to do: every result of a library record is stored."""

    def known(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """The stored tables of the deals ``rows``: every result is known."""
        return self.tables_for(rows)

    @functools.cached_property
    def all_tables(self) -> NDArray[np.int8]:
        """Every stored table of the chunk ``(n, 5, 4)`` int8, decoded once."""
        return zdd.tables_from_nibbles(self.chunk.results).view(np.int8)


def predeal_condition(predeal: Predeal) -> Expr | None:
    """The predeal as a condition on ZBD bytes: 1 where each predealt card is in its seat (None: no predeal).

    In library mode the deals are given, so a predeal selects them instead
    of fixing cards.
    """
    fixed = np.flatnonzero(predeal.owners >= 0)
    if fixed.size == 0:
        return None
    owners = np.where(predeal.owners >= 0, predeal.owners, 0).astype(np.int8).reshape(1, 52)
    expected = zbd.zbd_from_owners(owners)[0]  # the predealt cards' codes as ZBD writes them
    mask = np.zeros(_DEAL, dtype=np.uint8)
    for card in fixed.tolist():
        mask[card // 4] |= np.uint8(3 << (2 * (card % 4)))
    used = np.flatnonzero(mask)
    want = (expected & mask)[used]
    mask_used = mask[used]

    def test(f: Frame, rows: NDArray[np.intp]) -> NDArray[np.int64]:
        assert isinstance(f.hands, LibraryHands)
        deals = f.hands.deals[:, used] if rows.size == f.hands.n else f.hands.deals[rows][:, used]
        return ((deals & mask_used) == want).all(axis=1).astype(np.int64)

    return test


def _condition(script: Script) -> Expr | None:
    """The script's condition in library mode: the predeal (as a condition) first, then the script's own."""
    predeal = predeal_condition(script.predeal)
    if predeal is None:
        return script.condition
    if script.condition is None:
        return predeal
    condition = script.condition

    def both(f: Frame, rows: NDArray[np.intp]) -> NDArray[np.int64]:
        out = predeal(f, rows)
        alive = np.flatnonzero(out)
        if alive.size:
            out[alive] = condition(f, rows[alive]) != 0
        return out

    return both


def library_batches(
    library: Library,
    script: Script,
    total: int,
    threads: int | None,
    chunk: int | None = None,
    seed: int = 0,
    solver: Solver | None = None,
) -> Iterator[tuple[None, Frame, NDArray[np.intp]]]:
    """The run's batches over a library: ``(None, frame, rows passing)`` per chunk, in file order.

    Each chunk is read, checked and filtered on a worker thread (``threads``;
    ``None`` is one per core); the first ``total`` selected records are read,
    ``chunk`` records at a time (default :data:`CHUNK`).  ``seed`` keys
    ``rnd()``: record ``i`` of the selection draws as deal ``i`` of a run;
    ``solver`` scores ``par()`` from the stored tables (nothing is solved).
    """
    condition = _condition(script)

    def job(span: tuple[int, int]) -> tuple[None, Frame, NDArray[np.intp]]:
        frame = LibraryFrame(library.read(*span), script, seed, span[0] - library.start, solver)
        rows = np.arange(frame.hands.n, dtype=np.intp)
        if condition is not None:
            rows = rows[condition(frame, rows) != 0]
        return None, frame, rows

    size = chunk or CHUNK
    yield from ordered_map(job, library.spans(size, total), threads if total > size else 1)


def library_total(library: Library, script: Script, generate: int | None) -> int:
    """Records a run reads: the whole selection, or fewer when ``generate`` (option, then script) says so."""
    limit = generate if generate is not None else script.generate
    return len(library) if limit is None else min(len(library), limit)
