"""Converting between deal formats without solving anything.

Formats are the entries of :mod:`ddsbind.formats.registry` (``zbd``,
``zrd``, ``zdd``, ``hand-makes``, ``zrj``, ``zbs``, ``pbn``, ``dds``
(DDS's reference-hands text, :mod:`ddsbind.formats.ddsref`), ``gib``).
Game records in, game records out: a file of game records (``zrj``, or
PBN with contracts, auctions or plays) converted to a format that holds them
(``pbn``, ``zrj``) keeps everything -- deal, board, dealer, vulnerability,
auction, contract, declarer, result, play and PBN's other tags
(:mod:`ddsbind.formats.games` decides, :func:`~ddsbind.formats.games.carries_games`);
into any other format a game file gives its deals.  PBN to PBN keeps the
file as it is, byte for byte, and with ``fill`` adds the double-dummy results
and par in place (:func:`ddsbind.formats.pbn.add_results`), for bare deals and
game records alike.  What the target cannot hold and the input has (a PBN
file's board numbers, dealers, vulnerability, other tags into ZRD; a PBN
game's Event or notes on cards into LIN) is named once in a
:class:`DroppedDataWarning`.
Every input is read as :class:`~ddsbind.formats.registry.Records`: deals
``(N, 52)`` owners and/or tables ``(N, 5, 4)`` (DDS order, 15 = unknown);
every output takes what it can hold:

* a result the input lacks is written as 15 (``zrd``, ``zdd``,
  ``hand-makes``), left out (``pbn``, ``dds``), or refused with a clear error
  (``gib``, which has no "unknown");
* a target that holds deals refuses an input that holds only results;
* ``zbs`` holds diagrams: writing one as a full-deal format requires full
  deals (the error names the record).

Fixed-size inputs are streamed in chunks (:data:`CHUNK` records), PBN,
GIB, DDS, LIN and ZBS inputs a chunk of :data:`TEXT_CHUNK` records at a time
from the open file (:attr:`Format.read <ddsbind.formats.registry.Format>`),
and every output is written as they come (:class:`~ddsbind.formats.files.BatchWriter`:
the fixed-size formats encoded, PBN, GIB, LIN, ZBS and DDS's reference
layout through :attr:`Format.dump_part <ddsbind.formats.registry.Format>`,
the last one's counted first line written once the body is done): memory
does not grow with the file.  Game records (PBN games, LIN, ZRJ into a
format that holds them) go a batch of :data:`GAME_CHUNK` records at a time
(:func:`ddsbind.formats.games.convert_games`), the bytes those of the file
read and written whole.  PBN to PBN is read, solved and written a chunk of
games at a time (:func:`ddsbind.formats.pbn.iter_add_results`); game
records solved into PBN are first written as PBN to a temporary file beside
the target, then solved in place from it the same way.
The output is all or nothing: it is written to a temporary file beside the
target, fsynced and renamed into place only when everything succeeded; on
any failure the target is absent (or unchanged) and the message says so.
``"-"`` as the target writes to standard output.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.deal import Seat
from ddsbind.errors import DroppedDataWarning, FormatError, ResultsWarning
from ddsbind.formats import files, games, registry
from ddsbind.formats._common import add_note, atomic_output, disagreements
from ddsbind.formats.pbn import ANNOTATE_CHUNK, Fill, ParFunc
from ddsbind.formats.registry import Format, FormatLike, Records

__all__ = ["FORMATS", "DroppedDataWarning", "convert", "read_any"]


#: What a refused ``--solve`` into a target without results says to do instead.
_SOLVE_INTO = "solving (--solve) applies to a target that can (zrd, zdd, pbn, dds, gib)"


def results_lost(dfmt: Format, hand: int) -> str | None:
    """What of the input's double-dummy results ``dfmt`` cannot hold (None: it holds them all).

    The one rule of what a target keeps of the 20 results a record: none in a
    format of deals or played games, one hand's five in hand-makes.
    """
    if not dfmt.results:
        return "double-dummy results (20 a record)"
    if dfmt.name == "hand-makes":
        others = ", ".join(s.name for s in Seat if s != Seat(hand))
        return f"double-dummy results of {others} (hand-makes keeps {Seat(hand).name}'s)"
    return None


def _warn_dropped(items: list[str], src: str | os.PathLike[str], dfmt: Format) -> None:
    if items:
        warnings.warn(
            DroppedDataWarning(f"{dfmt.name} cannot hold {os.fspath(src)}'s {', '.join(items)}: dropped"),
            stacklevel=3,
        )


def _warn_disagreements(
    given: NDArray[np.uint8], filled: NDArray[np.uint8], first: int, src: str | os.PathLike[str]
) -> None:
    """One :class:`ResultsWarning` per record whose given results the filler's answer contradicts."""
    known = given <= 13
    for i in np.flatnonzero((known & (given != filled)).any(axis=(1, 2))).tolist():
        wrong = "; ".join(disagreements(given[i], filled[i]))
        warnings.warn(
            ResultsWarning(
                f"{os.fspath(src)}: record {first + i + 1}: its results contradict the deal, "
                f"DDS's written instead: {wrong}"
            ),
            stacklevel=4,
        )


#: Records per batch read from a fixed-size input: a batch decoded to owners and tables is about 90
#: bytes a record, so memory stays some tens of megabytes whatever the file's size.
CHUNK = 1 << 18

#: Records per part written to a text format (PBN, GIB, LIN) or read from one: its text, and the boards
#: read, built deal by deal, stay small.
TEXT_CHUNK = 1 << 14

#: Game records per batch read and written game by game (PBN games, LIN, ZRJ): a record with its auction,
#: play and source text is some kilobytes in Python.
GAME_CHUNK = 1 << 10

#: Names of the formats convert reads or writes.
FORMATS = tuple(f.name for f in registry.formats())


def read_batches(path: str | os.PathLike[str], fmt: Format, *, chunk: int = CHUNK) -> Iterator[Records]:
    """Yield :class:`Records` batches of a file, ``chunk`` records at most each.

    Chunks of a fixed-size file, and of a text file its format reads a chunk
    at a time (:attr:`Format.read <ddsbind.formats.registry.Format>`: PBN,
    GIB, DDS, LIN, ZBS): memory is one chunk's whatever the file's size.  A
    format with no ``read`` (none built in; a registered one may lack it)
    gives the whole file once.
    """
    if fmt.fixed:
        for c in files.iter_chunks(path, fmt, chunk=chunk):
            yield Records(c.owners, c.tables, c.hand, c.makes)
    elif fmt.read is not None:
        if chunk < 1:
            raise FormatError("chunk must be at least 1 record")
        with open(path, "rb") as f:
            yield from fmt.read(f, os.fspath(path), chunk)
    elif fmt.load is not None:
        yield fmt.load(Path(path).read_bytes(), os.fspath(path))
    else:
        raise FormatError(f"{fmt.name} files cannot be read")


def read_any(path: str | os.PathLike[str], format: FormatLike | None = None, *, chunk: int = CHUNK) -> Iterator[tuple]:
    """Yield ``(owners or None, tables or None)`` batches from a file of any readable format."""
    for r in read_batches(path, registry.guess(path, format), chunk=chunk):
        yield r.owners, r.tables


def _write_annotated(
    fmt: Format,
    f: IO[bytes],
    name: str,
    out: IO[bytes],
    fill: Fill | None,
    par: ParFunc | None,
    chunk: int,
    progress: Progress | None,
) -> int:
    """Write ``fmt.annotate`` of the open file ``f`` to ``out`` piece by piece; the games with a deal."""
    assert fmt.annotate is not None
    total = 0
    for piece, done in fmt.annotate(f, name, fill, par, chunk):
        out.write(piece)
        total += done
        if progress is not None and done:
            progress(done)
    return total


def convert(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    src_format: FormatLike | None = None,
    dst_format: FormatLike | None = None,
    hand: int = 0,
    chunk: int = CHUNK,
    progress: Progress | None = None,
    fill: Fill | None = None,
    par: ParFunc | None = None,
) -> int:
    """Convert ``src`` into ``dst``; returns the number of records written.

    Parameters
    ----------
    src : path-like
    dst : path-like, or ``"-"`` for standard output
    src_format, dst_format : str, optional
        One of :data:`FORMATS`; guessed from the extension (``.zbd .zrd .zdd
        .zrj .zbs .pbn .gib``) when None.
    hand : int
        DDS seat whose makes a ``hand-makes`` output stores.
    chunk : int
        Records per batch read from a fixed-size input.
    progress : callable, optional
        Called with the number of records written after each batch.
    fill : callable, optional
        ``fill(owners, tables) -> tables`` applied to each batch read that has
        deals (``ddsbind convert --solve`` passes
        :class:`ddsbind.database.TableFiller`, which solves unknown results);
        this module itself never solves.  A format that can carry the
        results in place (PBN to PBN: :func:`ddsbind.formats.pbn.add_results`,
        game records or bare deals alike, every tag kept) has them added there.
    par : callable, optional
        With ``fill``, for a format that carries par (PBN): DDS's
        ``DealerPar`` for each table (:data:`ddsbind.formats.pbn.ParFunc`),
        written as ``OptimumScore`` and ``ParContract``.

    Raises
    ------
    FormatError
        The target needs something the input lacks (deals, or complete
        results for ``gib``), ``dst`` exists and is not empty, ``fill`` is
        given for game records written to a format that cannot hold results
        (ZRJ, LIN), or to any target that cannot hold them (ZBD, ZBS: the
        results would be solved and thrown away), or malformed input, with
        its record number (or line).

    Warns
    -----
    DroppedDataWarning
        Once, naming what the target cannot hold and the input has (a PBN
        file's board numbers, dealers, vulnerability and other tags written
        to ZRD; a PBN file's Event or notes on cards written to LIN; the
        double-dummy results of a ZRD or PBN file written to ZBD, ZBS or
        LIN, or all but one hand's to hand-makes).
    ResultsWarning
        Once per record (per board, for PBN written in place) whose results
        the input gives and ``fill``'s answer contradicts (a checking filler
        solves every deal), naming each entry; ``fill``'s answer is written.

    On any failure ``dst`` is left as it was (absent, or unchanged) and the
    message says so.
    """
    sfmt = registry.guess(src, src_format, "input")
    to_stdout = os.fspath(dst) == "-"
    if to_stdout and not dst_format:
        raise FormatError("name the output format (--to) when writing to standard output")
    dfmt = registry.guess(dst, dst_format, "output")
    if not to_stdout and Path(dst).exists() and Path(dst).stat().st_size:
        raise FormatError(f"output {os.fspath(dst)!r} exists and is not empty; refusing to overwrite it")
    games_chunk = min(chunk, ANNOTATE_CHUNK)  # games with results added in place: their lines held, some kB each
    if sfmt is dfmt and sfmt.annotate is not None:
        with open(src, "rb") as f, atomic_output(dst) as out:
            return _write_annotated(sfmt, f, os.fspath(src), out, fill, par, games_chunk, progress)
    if games.carries_games(src, sfmt, dfmt):
        if fill is not None and dfmt.annotate is None:
            raise FormatError(
                f"{os.fspath(src)} holds game records, and {dfmt.name} files cannot hold double-dummy results: "
                "solving (--solve) applies to a target that can (pbn)"
            )
        if fill is None:
            n, dropped = games.convert_games(src, dst, sfmt, dfmt, chunk=min(chunk, GAME_CHUNK), progress=progress)
            _warn_dropped(dropped, src, dfmt)
            return n
        # Solving into PBN: the records written as PBN to a temporary file (beside the target) a batch at a
        # time, then that file's results added in place a chunk at a time: two passes, memory of a chunk.
        spool_dir = None if to_stdout else Path(dst).resolve().parent
        with tempfile.TemporaryFile(dir=spool_dir) as spool:
            n, dropped = games.convert_games(src, spool, sfmt, dfmt, chunk=min(chunk, GAME_CHUNK))
            _warn_dropped(dropped, src, dfmt)
            spool.seek(0)
            with atomic_output(dst) as out:
                _write_annotated(dfmt, spool, os.fspath(dst), out, fill, par, games_chunk, progress)
        return n
    if not sfmt.readable:
        raise FormatError(f"{sfmt.name} files cannot be read")
    if not dfmt.writable:
        raise FormatError(f"{dfmt.name} records cannot be written from deals and results")
    if dfmt.deals and not sfmt.deals:
        raise FormatError(f"{dfmt.name} needs deals but a {sfmt.name} file holds only results")
    if fill is not None and not dfmt.results:
        raise FormatError(f"{dfmt.name} files cannot hold double-dummy results: {_SOLVE_INTO}")

    unheld: list[str] = []
    if sfmt.extras is not None:
        with open(src, "rb") as f:
            unheld = sfmt.extras(f, os.fspath(src))
    lost_results = results_lost(dfmt, hand)
    lost = False

    if not dfmt.fixed or not sfmt.fixed:
        chunk = min(chunk, TEXT_CHUNK)  # a text record is some hundreds of bytes, read or made in Python

    def batches() -> Iterator[Records]:
        first = 0
        for b in read_batches(src, sfmt, chunk=chunk):
            nonlocal lost
            if fill is not None and b.owners is not None:
                filled = fill(b.owners, b.tables)
                if b.tables is not None:
                    _warn_disagreements(b.tables, filled, first, src)
                b = dataclasses.replace(b, tables=filled)
            lost = lost or (lost_results is not None and b.tables is not None and bool((b.tables <= 13).any()))
            first += len(b)
            yield b

    def tagged(r: Records) -> Records:
        # What any target may take: deals, tables, and the hand a one-hand target keeps.
        # ... and each deal's own dealer, vulnerability and par, where the input gives them.
        return Records(
            r.owners,
            r.tables,
            hand=np.full(len(r), hand, np.uint8),
            dealers=r.dealers,
            vulnerabilities=r.vulnerabilities,
            pars=r.pars,
        )

    total = 0
    if dfmt.fixed and dfmt.encode is not None and not to_stdout:
        with files.RecordWriter(dst, dfmt, atomic=True) as w:
            try:
                for batch in batches():
                    n = w.write_records(tagged(batch))
                    total += n
                    if progress is not None:
                        progress(n)
            except BaseException as exc:
                add_note(exc, f"{os.fspath(dst)} not written")
                raise
    else:
        # Anything else (text formats, or records to standard output) batch by batch, in the memory of one.
        with files.BatchWriter(dst, dfmt) as writer:
            for batch in batches():
                n = writer.write(tagged(batch))
                total += n
                if progress is not None:
                    progress(n)
    # Every drop named once, after writing (the results are seen only as the batches stream by).
    _warn_dropped([*unheld, *([lost_results] if lost and lost_results else [])], src, dfmt)
    return total
