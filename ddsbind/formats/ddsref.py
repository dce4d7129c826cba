"""DDS's reference-hands text layout (the ``hands/list*.txt`` files of DDS).

Format name ``dds``.  A file starts with ``NUMBER n``, then one block per
hand, each line a keyword and fields separated by spaces (trailing spaces
are common and ignored), strings in double quotes:

``PBN dealer vul trump first "N:..."``
    dealer (DDS seat 0=N 1=E 2=S 3=W) and vulnerability (DDS encoding
    0 none, 1 both, 2 NS, 3 EW) for par; trump (0=S 1=H 2=D 3=C 4=NT) and
    the hand on lead for the FUT line; the deal as a PBN string.
``FUT n suit[n] rank[n] equals[n] score[n]``
    ``futureTricks`` of ``SolveBoard(deal, target=-1, solutions=3, mode=1)``.
``TABLE t0 .. t19``
    ``ddTableResults.resTable[strain][hand]`` row-major: strains S H D C NT,
    hands N E S W; tricks for that declarer.
``PAR "NS score" "EW score" "NS:contracts" "EW:contracts"``
    ``Par()`` for that vulnerability.
``PAR2 "score" "contract" ...``
    ``DealerPar()`` for that dealer and vulnerability.
``PLAY n "C4CA..."`` and ``TRACE n v0 .. v(n-1)``
    a play sequence (two characters a card) and ``AnalysePlayPBN``'s
    ``solvedPlay`` for it (``TRACE`` has one value more than cards played).

Text files are read line by line; a block's lines may come in any order after
its ``PBN`` line.  Errors raise :class:`~ddsbind.errors.FormatError` naming the
line number.  The writer emits ``NUMBER``, ``PBN`` and, where known,
``TABLE`` lines: converting never solves anything.
"""

from __future__ import annotations

import io
import os
import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from os import PathLike, fspath
from pathlib import Path
from typing import IO

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Deal
from ddsbind.errors import DDSError, FormatError
from ddsbind.formats._common import atomic_output, is_strict, set_aside, text_pieces

__all__ = [
    "Future",
    "ReferenceHand",
    "find_reference_dir",
    "format_reference",
    "iter_reference",
    "parse_reference",
    "read_reference",
    "reference_body",
    "reference_head",
    "write_reference",
]


@dataclass(frozen=True)
class Future:
    """A FUT line: the ``futureTricks`` fields ``cards``, ``suit``, ``rank``, ``equals``, ``score``."""

    cards: int
    suit: tuple[int, ...]
    rank: tuple[int, ...]
    equals: tuple[int, ...]
    score: tuple[int, ...]


@dataclass(frozen=True)
class ReferenceHand:
    """One hand block of a reference file; lines the block lacks are ``None``."""

    dealer: int
    vul: int
    trump: int
    first: int
    deal: Deal
    pbn: str
    future: Future | None = None
    #: ``(5, 4)`` int array, strains S H D C NT x hands N E S W.
    table: NDArray[np.int64] | None = None
    par: tuple[str, str, str, str] | None = None
    dealer_par: tuple[str, ...] | None = None
    play: str | None = None
    trace: tuple[int, ...] | None = None


def _ints(fields: Sequence[str], lineno: int, what: str) -> list[int]:
    try:
        return [int(f) for f in fields]
    except ValueError:
        raise FormatError(f"line {lineno}: {what} fields must be integers: {' '.join(fields)!r}") from None


def read_reference(source: str | PathLike[str] | Iterable[str]) -> list[ReferenceHand]:
    """Read a DDS reference-hands file.

    Parameters
    ----------
    source : path or iterable of lines
        A file path (UTF-8 text), or the file's lines.

    Returns
    -------
    list of ReferenceHand
        In file order; the count is checked against the ``NUMBER`` line.
    """
    if isinstance(source, str | PathLike):
        return parse_reference(Path(source).read_bytes(), name=fspath(source))
    return parse_reference(list(source))


def parse_reference(data: bytes | Iterable[str], *, name: str = "reference file") -> list[ReferenceHand]:
    """:func:`read_reference` of a file's bytes (UTF-8) or lines; ``name`` is used in error messages."""
    if isinstance(data, bytes | bytearray | memoryview):
        return list(iter_reference(io.BytesIO(data), name=name))
    return list(_hands(data, name))


def iter_reference(f: IO[bytes], *, name: str = "reference file") -> Iterator[ReferenceHand]:
    """:func:`parse_reference` of an open file (UTF-8), hand by hand: memory is a block of text and one hand.

    Errors are :func:`parse_reference`'s (the same line numbers), raised when
    the reading reaches them; the ``NUMBER`` line's count is checked at the end.
    """
    return _hands((line for piece in text_pieces(f, "utf-8", name) for line in piece.splitlines()), name)


def _hands(lines: Iterable[str], name: str = "reference file") -> Iterator[ReferenceHand]:
    """The hands of the file's lines; a line that cannot be used is set aside, the rest read.

    A bad ``PBN`` line sets its hand aside (with the lines that follow it, up
    to the next ``PBN``); any other bad line sets that line's field aside, the
    hand kept without it.  Each is named once (:func:`set_aside`: the hand,
    the line, its text and why); strict reading refuses instead, and a file
    in which no hand reads is refused (its first fault).
    """
    count = 0
    current: dict | None = None
    declared: int | None = None
    skipped = 0  # hands whose PBN line was set aside
    lost = False  # within a hand set aside: its lines go with it
    first: FormatError | None = None
    bad: list[tuple[str, str, str, int]] = []  # lines set aside, not yet named
    good = False  # a hand read
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        key = line.split(maxsplit=1)[0]
        if lost and key != "PBN":
            continue
        lost = False
        if key == "PBN":
            if current is not None:
                yield ReferenceHand(**current)
                count += 1
            current = {}
        try:
            number = _line(line, lineno, current)
            if number is not None:
                declared = number
        except FormatError as exc:
            if is_strict():
                raise FormatError(f"{name}: {exc.message}") from None
            first = first or FormatError(f"{name}: {exc.message}")
            if key == "PBN":
                skipped, lost, current = skipped + 1, True, None
            bad.append((f"line {lineno}", line, exc.message.split(": ", 1)[-1], count + skipped - (key == "PBN")))
        else:
            good = good or key == "PBN"
        if good:  # named once the file is known to hold a hand: a file with none is refused, not named
            for tag, value, why, index in bad:
                set_aside(None, tag, value, why, source=name, index=index)
            bad.clear()
    if current is not None:
        yield ReferenceHand(**current)
        count += 1
    if count == 0 and first is not None:  # not one hand of the file reads
        raise first
    if declared is not None and declared != count + skipped:
        set_aside(None, "NUMBER", str(declared), f"the file has {count + skipped} hands", source=name)


def _line(line: str, lineno: int, current: dict | None) -> int | None:
    """Read one line into ``current`` (a ``PBN`` line fills it anew); a ``NUMBER`` line's count is returned."""
    try:
        fields = shlex.split(line)
    except ValueError as exc:
        raise FormatError(f"line {lineno}: {exc}") from None
    key, args = fields[0], fields[1:]
    if key == "NUMBER":
        number = _ints(args[:1], lineno, "NUMBER")
        return number[0] if number else None
    if current is None:  # the caller gives a PBN line a new hand
        raise FormatError(f"line {lineno}: {key} line before any PBN line")
    if key == "PBN":
        if len(args) != 5:
            raise FormatError(f"line {lineno}: PBN needs dealer vul trump first deal, got {args!r}")
        dealer, vul, trump, first = _ints(args[:4], lineno, "PBN")
        for what, value, top in (("dealer", dealer, 3), ("vul", vul, 3), ("trump", trump, 4), ("first", first, 3)):
            if not 0 <= value <= top:
                raise FormatError(f"line {lineno}: PBN {what} {value} is not in 0..{top}")
        try:
            deal = Deal.from_pbn(args[4])
        except (DDSError, ValueError) as exc:
            raise FormatError(f"line {lineno}: {exc}") from None
        current.update(dealer=dealer, vul=vul, trump=trump, first=first, deal=deal, pbn=args[4])
        return None
    if key == "FUT":
        vals = _ints(args, lineno, "FUT")
        n = vals[0] if vals else -1
        if n < 0 or len(vals) != 1 + 4 * n:
            raise FormatError(f"line {lineno}: FUT with n={n} needs {1 + 4 * max(n, 0)} numbers")
        current["future"] = Future(
            n, tuple(vals[1 : 1 + n]), tuple(vals[1 + n : 1 + 2 * n]),
            tuple(vals[1 + 2 * n : 1 + 3 * n]), tuple(vals[1 + 3 * n :]),
        )  # fmt: skip
    elif key == "TABLE":
        vals = _ints(args, lineno, "TABLE")
        if len(vals) != 20:
            raise FormatError(f"line {lineno}: TABLE needs 20 numbers, got {len(vals)}")
        if not all(0 <= v <= 13 for v in vals):
            bad = next(v for v in vals if not 0 <= v <= 13)
            raise FormatError(f"line {lineno}: TABLE value {bad} is not a trick count 0..13")
        current["table"] = np.array(vals, dtype=np.int64).reshape(5, 4)
    elif key == "PAR":
        if len(args) != 4:
            raise FormatError(f"line {lineno}: PAR needs 4 quoted strings, got {len(args)}")
        current["par"] = tuple(args)
    elif key == "PAR2":
        current["dealer_par"] = tuple(args)
    elif key == "PLAY":
        if len(args) != 2 or len(args[1]) != 2 * _ints(args[:1], lineno, "PLAY")[0]:
            raise FormatError(f"line {lineno}: PLAY n must be followed by n two-character cards")
        current["play"] = args[1]
    elif key == "TRACE":
        vals = _ints(args, lineno, "TRACE")
        if not vals or len(vals) != 1 + vals[0]:
            raise FormatError(f"line {lineno}: TRACE n must be followed by n numbers")
        current["trace"] = tuple(vals[1:])
    else:
        raise FormatError(f"line {lineno}: unknown keyword {key!r}")
    return None


def format_reference(deals: Sequence[Deal], tables: NDArray[np.integer] | None = None, **fields: int) -> str:
    """Deals (and their tables, where known) as reference-layout text.

    ``tables`` is ``(N, 5, 4)`` in DDS order; a table with any entry
    outside 0..13 (e.g. 15 = unknown) gets no ``TABLE`` line.  ``fields``
    (``dealer``, ``vul``, ``trump``, ``first``; :func:`reference_body`) fill
    each ``PBN`` line.  The text is :func:`reference_head` of the count,
    then :func:`reference_body`.
    """
    return reference_head(len(deals)) + reference_body(deals, tables, **fields)


def reference_head(count: int) -> str:
    """The line a reference file of ``count`` hands starts with (``NUMBER count``)."""
    return f"NUMBER {int(count)}\n"


def reference_body(
    deals: Sequence[Deal],
    tables: NDArray[np.integer] | None = None,
    *,
    dealer: int = 0,
    vul: int = 0,
    trump: int = 4,
    first: int = 0,
) -> str:
    """:func:`format_reference` without its first line: a part of a file written part by part (each line ended).

    ``dealer`` (DDS seat), ``vul`` (DDS's vulnerability code), ``trump``
    (DDS strain) and ``first`` (the hand on lead) fill each ``PBN`` line.
    """
    if tables is not None and len(tables) != len(deals):
        raise FormatError(f"{len(deals)} deals but {len(tables)} tables")
    out = []
    for i, deal in enumerate(deals):
        out.append(f'PBN {int(dealer)} {int(vul)} {int(trump)} {int(first)} "{deal.to_pbn()}"\n')
        if tables is not None:
            t = np.asarray(tables[i]).reshape(20)
            if np.all((t >= 0) & (t <= 13)):
                out.append("TABLE " + " ".join(str(int(v)) for v in t) + "\n")
    return "".join(out)


def write_reference(
    path: str | PathLike[str],
    deals: Sequence[Deal],
    tables: NDArray[np.integer] | None = None,
    **fields: int,
) -> None:
    """Write :func:`format_reference` text to ``path``."""
    with atomic_output(path) as out:
        out.write(format_reference(deals, tables, **fields).encode("utf-8"))


def find_reference_dir(*fallbacks: str | PathLike[str]) -> Path | None:
    """The folder of DDS's reference hands (``list100.txt`` ...), or ``None``.

    Looked for, in this order: ``$DDSBIND_REFERENCE`` (a folder of
    ``list*.txt`` files), ``$DDS_SOURCE_DIR/hands`` (a DDS source tree), then
    each of ``fallbacks``; the first that holds ``list100.txt`` wins.  A
    ``DDSBIND_REFERENCE`` that does not hold it is an error, not a reason to
    look elsewhere: a user who names a folder means that one.

    Raises
    ------
    FileNotFoundError
        ``DDSBIND_REFERENCE`` is set but holds no ``list100.txt``.
    """
    named = os.environ.get("DDSBIND_REFERENCE")
    if named:
        if not (Path(named) / "list100.txt").is_file():
            raise FileNotFoundError(f"DDSBIND_REFERENCE={named} holds no list100.txt")
        return Path(named)
    tree = os.environ.get("DDS_SOURCE_DIR")
    candidates = [Path(tree) / "hands"] if tree else []
    candidates += [Path(f) for f in fallbacks]
    return next((c for c in candidates if (c / "list100.txt").is_file()), None)
