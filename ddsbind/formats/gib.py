"""GIB library text: one deal and its double-dummy results a line.

Specification
-------------
* One deal a line, 88 characters: the hands of West, North, East and South
  separated by single spaces, each ``S.H.D.C`` with ranks AKQJT98765432 and
  a void empty (13 cards + 3 dots = 16 characters), then ``:``, then 20 hex
  digits (``0``-``9``, ``a``-``d``; either case on reading).
* The digits run strain by strain, NT, S, H, D, C; within a strain the
  tricks **North-South** take with **South, East, North, West on lead**.
* From a DDS table (tricks each hand takes as declarer): the opening leader
  sits at declarer's left, so South leads against East, East against North,
  North against West, West against South.  Hence, per strain,
  ``S lead = 13 - T[E]``, ``E lead = T[N]``, ``N lead = 13 - T[W]``,
  ``W lead = T[S]``.  The seat/strain orders go through
  :mod:`ddsbind.formats.order`.
* GIB has no "unknown": writing a table with a 15 is refused.
* Blank lines are skipped on reading.  A malformed line is set aside: named
  once in a :class:`~ddsbind.errors.FieldWarning` (its line, text and why),
  the rest of the file read; strict reading refuses it (``FormatError``
  with its line index), and a file none of whose lines reads is refused.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Deal
from ddsbind.errors import DDSError, FormatError
from ddsbind.formats import order
from ddsbind.formats._common import atomic_output, is_strict, set_aside, text_pieces

__all__ = ["format_gib", "format_gib_line", "iter_gib", "parse_gib", "parse_gib_line", "read_gib", "write_gib"]

_HEX = "0123456789abcdef"


def _gib_from_pav(pav: NDArray[np.integer]) -> NDArray[np.int64]:
    z = np.asarray(pav, dtype=np.int64).reshape(-1, 5, 4)  # [strain NT S H D C, declarer W N E S]
    return np.stack([13 - z[..., 2], z[..., 1], 13 - z[..., 0], z[..., 3]], axis=-1)  # leaders S E N W


def _pav_from_gib(gib: NDArray[np.integer]) -> NDArray[np.int64]:
    g = np.asarray(gib, dtype=np.int64).reshape(-1, 5, 4)  # [strain, leader S E N W]
    return np.stack([13 - g[..., 2], g[..., 1], 13 - g[..., 0], g[..., 3]], axis=-1).reshape(-1, 20)


def parse_gib_line(line: str, index: int = 0, *, name: str | None = None) -> tuple[Deal, NDArray[np.uint8]]:
    """Parse one GIB line into a deal and its DDS table ``(5, 4)`` uint8 (S H D C NT x N E S W).

    ``index`` is the line's 0-based index (``FormatError.index``); with
    ``name`` (a file name) errors also say ``name: line index+1``.
    """
    where = "" if name is None else f"{name}: line {index + 1}: "
    text = line.strip()
    hands, sep, digits = text.partition(":")
    if not sep or len(digits) != 20:
        raise FormatError(f"{where}GIB line {text[:60]!r} is not 'W N E S hands:20 hex digits'", index=index)
    try:
        gib = [int(c, 16) for c in digits]
    except ValueError:
        raise FormatError(f"{where}GIB line has a non-hex result digit in {digits!r}", index=index) from None
    if max(gib) > 13:
        raise FormatError(f"{where}GIB result digit above 13 in {digits!r}", index=index)
    parts = hands.split(" ")
    if len(parts) != 4:
        raise FormatError(f"{where}GIB line needs 4 hands separated by single spaces, got {hands[:60]!r}", index=index)
    try:
        deal = Deal.from_pbn("W:" + hands)
    except (DDSError, ValueError) as exc:
        raise FormatError(f"{where}GIB deal {hands!r}: {exc}", index=index) from None
    if not deal.is_full:
        raise FormatError(f"{where}GIB deal {hands!r} is not a full deal", index=index)
    table = order.dds_tables(_pav_from_gib(np.array(gib)))[0]
    return deal, table.astype(np.uint8)


def format_gib_line(deal: Deal, table: ArrayLike) -> str:
    """One GIB line (88 characters) for a full deal and a complete DDS table."""
    t = np.asarray(table).reshape(5, 4)
    if np.any(t > 13) or np.any(t < 0):
        raise FormatError("GIB text cannot hold unknown results: the table must be complete (0..13)")
    if not deal.is_full:
        raise FormatError("GIB text holds full deals only")
    gib = _gib_from_pav(order.pav_tables(t)).reshape(20)
    hands = deal.to_pbn("W")[2:]
    return hands + ":" + "".join(_HEX[int(v)] for v in gib)


def parse_gib(data: bytes | str, *, name: str = "GIB") -> tuple[NDArray[np.int8], NDArray[np.uint8]]:
    """GIB text to owners ``(N, 52)`` int8 (DDS seats) and tables ``(N, 5, 4)`` uint8 (DDS order).

    Blank lines are skipped; a bad line raises ``FormatError`` naming ``name``
    and its 1-based line number (``index`` is the 0-based line index).
    """
    if isinstance(data, str):
        lines: Iterable[str] = data.splitlines()
    else:
        lines = _lines(io.BytesIO(data), name)
    parts = list(_batches(lines, name, max(len(data), 1)))
    if not parts:
        return np.zeros((0, 52), np.int8), np.zeros((0, 5, 4), np.uint8)
    if len(parts) == 1:
        return parts[0]
    return np.concatenate([o for o, _ in parts]), np.concatenate([t for _, t in parts])


def iter_gib(
    f: IO[bytes], *, name: str = "GIB", chunk: int = 1 << 14
) -> Iterator[tuple[NDArray[np.int8], NDArray[np.uint8]]]:
    """:func:`parse_gib` of an open file, ``chunk`` deals at a time: owners ``(n, 52)`` and tables ``(n, 5, 4)``.

    Memory is one chunk's and a block of text, whatever the file's size;
    errors are :func:`parse_gib`'s (the same line numbers), raised when the
    reading reaches them.
    """
    return _batches(_lines(f, name), name, chunk)


def _lines(f: IO[bytes], name: str) -> Iterator[str]:
    """The lines (``str.splitlines``) of a GIB file's bytes (ISO-8859-1), a block at a time."""
    for piece in text_pieces(f, "latin-1", name):
        yield from piece.splitlines()


def _batches(lines: Iterable[str], name: str, chunk: int) -> Iterator[tuple[NDArray[np.int8], NDArray[np.uint8]]]:
    """The file's deals and tables, ``chunk`` at a time; a line that cannot be read is set aside.

    Each bad line is named once (:func:`~ddsbind.formats._common.set_aside`:
    its line, text and why) and the rest read; strict reading refuses it.
    The file is refused (the first bad line's error) only when no line reads.
    """
    owners, tables = [], []
    waiting: list[tuple[int, str, FormatError]] = []  # bad lines before the first good one
    good = False
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            deal, table = parse_gib_line(line, i)
        except FormatError as exc:
            where = FormatError(f"{name}: line {i + 1}: {exc.message}", index=i)
            if is_strict():
                raise where from None
            waiting.append((i, line, where))
            if good:
                _set_aside(waiting, name)
            continue
        if not good:
            good = True
            _set_aside(waiting, name)
        owners.append(deal.owners())
        tables.append(table)
        if len(owners) == chunk:
            batch = np.stack(owners), np.stack(tables)
            owners, tables = [], []
            yield batch
    if waiting:  # not one line of the file reads
        raise waiting[0][2] from None
    if owners:
        yield np.stack(owners), np.stack(tables)


def _set_aside(bad: list[tuple[int, str, FormatError]], name: str) -> None:
    """Name each bad line once (its 1-based number, text, why) and forget it."""
    for i, line, exc in bad:
        set_aside(None, f"line {i + 1}", line.strip(), exc.message.removeprefix(f"{name}: line {i + 1}: "), source=name)
    bad.clear()


def read_gib(path: str | os.PathLike[str]) -> tuple[NDArray[np.int8], NDArray[np.uint8]]:
    """Read a GIB file: owners ``(N, 52)`` int8 (DDS seats) and tables ``(N, 5, 4)`` uint8 (DDS order)."""
    return parse_gib(Path(path).read_bytes(), name=os.fspath(path))


def format_gib(deals: NDArray[np.integer] | Iterable[Deal | ArrayLike], tables: ArrayLike) -> str:
    """GIB text: one line for each full deal (``Deal`` s or owner arrays ``(N, 52)``) and complete DDS table."""
    ds = [Deal.from_owners(o) for o in deals.reshape(-1, 52)] if isinstance(deals, np.ndarray) else list(deals)
    t = np.asarray(tables).reshape(-1, 5, 4)
    if t.shape[0] != len(ds):
        raise FormatError(f"{len(ds)} deals but {t.shape[0]} tables")
    lines = [format_gib_line(d if isinstance(d, Deal) else Deal.from_owners(d), t[i]) for i, d in enumerate(ds)]
    return "".join(line + "\n" for line in lines)


def write_gib(
    path: str | os.PathLike[str], deals: NDArray[np.integer] | Iterable[Deal | ArrayLike], tables: ArrayLike
) -> None:
    """Write deals (``Deal`` s or owner arrays ``(N, 52)``) and complete DDS tables as GIB lines."""
    with atomic_output(path) as out:
        out.write(format_gib(deals, tables).encode("ascii"))
