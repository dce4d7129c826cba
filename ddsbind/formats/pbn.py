r"""PBN files: ``[Deal "..."]`` tags and their double-dummy results.

Specification (our reading, with sources)
-----------------------------------------
* A file is games separated by empty lines.  Lines starting with ``%`` are
  directives/comments; ``{...}`` (possibly over several lines) and ``;`` to
  the end of a line are commentary.  A tag is ``[Name "value"]`` on its own
  line or several on one line (``[Board "7"] [Dealer "S"]``, as some writers
  put them), with or without the space before the value (``[Event"x"]``),
  or with its value unquoted on a line of its own (``[Event Random Deal #]``,
  as WBridge5 writes it);
  a value ``"#"`` is the previous game's value of that tag (PBN 4.8; one
  reading for every reader: :func:`inherited_values`).  Encoding
  (:func:`pbn_encoding`): PBN 2.1's ISO-8859-1 by default; UTF-8 after a
  byte-order mark; the charset a ``%Content-type: text/x-pbn; charset=X``
  line declares (Bridge Composer writes one); else UTF-8 when the bytes are
  valid UTF-8 and not all ASCII (files with suit symbols written by tools
  that never say so).  Writing back uses the encoding read.
* ``[Deal]``: a hand written ``-`` is unknown (PBN 2.1); when it is the only
  unknown hand and the other three hold 13 cards each, it holds the rest.
* ``[Deal "F:h1 h2 h3 h4"]``: first seat F (N E S W), hands clockwise, each
  ``S.H.D.C`` with ranks AKQJT98765432 (``10`` accepted), ``-`` or empty for
  a void; parsed by :meth:`ddsbind.deal.Deal.from_pbn`.
* ``[DoubleDummyTricks "..."]`` (Bridge Composer's tag, not in the PBN
  standard): 20 hex digits, five per declarer in the order **North, South,
  East, West**, each five in the order NT, S, H, D, C; the digit is the
  tricks that declarer takes.  ``-`` or ``*`` marks an unknown value (read as
  15).  The declarer order N S E W is how two independent readers of the tag
  index it (``decls = "NSEW"``, and ``[.north, .south, .east, .west]``); we
  found no primary text and name this as our reading.
* ``[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]`` (PBN 2.1
  section 5.7): a table section; each entry is ``declarer denomination
  tricks``, e.g. ``N NT 10``, declarer N/E/S/W, denomination S/H/D/C/NT,
  tricks 0..13.  Columns are found by name in the header (a ``\...``
  suffix is a width/alignment hint); BBA's header ``"Declarer Suit
  Tricks"`` (names separated by spaces, all entries on one line) reads the
  same; entries may come in any order; missing ones stay unknown (15).
* Reading takes both tags; when both are present they must agree.  A
  board whose results cannot be read (a garbage value, the two tags
  disagreeing) has them set aside with a :class:`~ddsbind.errors.ResultsWarning`
  naming the line; the rest of the file reads.
* Writing emits both: ``DoubleDummyTricks`` only for a complete table,
  ``OptimumResultTable`` entries for the known values (no section when none
  is known), in Bridge Composer's layout (seen in files Bridge Composer
  5.118 wrote after its own analysis): declarers N S E W, strains NT S H D
  C, the strain right-aligned to width 2, the tricks to the width the
  header gives, ``Result\1R`` when no declarer takes ten tricks
  (``N NT 5``) and ``Result\2R`` when one does (``N  S  7``, ``N NT 10``).
* ``[OptimumScore "EW 130"]`` and ``[ParContract "EW 1D+3"]``: par as
  Bridge Composer writes it, from DDS's ``DealerPar`` (:func:`format_par`
  says each convention and where it comes from): the score from the par
  side's view, ``N`` for notrump, ``=``/``+n``/``-n``, ties lowest first,
  a single seat when only one partner makes it.
* :func:`add_results` adds all four to every game of a file, keeping every
  other byte (``ddsbind convert x.pbn y.pbn --solve``).  New one-line tags
  go before the game's ``[Auction]``/``[Play]`` and the table after the
  game, where Bridge Composer puts them.
* Tag values: ``\"`` is a quote and ``\\`` a backslash (PBN 2.1, after
  PGN); any other backslash reads as itself (``\2R``).  Written values
  escape both (:func:`quote`); a value with a line break cannot be written.
* The module's seams: the text's encodings and its games' tag syntax are
  :mod:`ddsbind.formats.pbntext`, the result tags' codecs
  :mod:`ddsbind.formats.pbntables`, results and par added to a file's games
  :mod:`ddsbind.formats.pbnresults`, game records (auction, play)
  :mod:`ddsbind.formats.pbngame`; this module reads and writes boards (a
  deal, its results, its tags) and re-exports the others' names.
* In memory, tables are DDS order ``(5, 4)`` uint8, strains S H D C NT,
  hands N E S W, 15 = unknown; orders convert through
  :mod:`ddsbind.formats.order`.
"""

from __future__ import annotations

import codecs
import io
import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Deal, Seat, pbn_to_masks
from ddsbind.errors import DDSError, FormatError, ResultsWarning
from ddsbind.formats import _common
from ddsbind.formats._common import atomic_output
from ddsbind.formats.pbnresults import Fill, ParFunc, existing_table, format_par, solve_games
from ddsbind.formats.pbntables import (
    format_double_dummy_tricks,
    format_optimum,
    optimum_header,
    parse_ability,
    parse_double_dummy_tricks,
)
from ddsbind.formats.pbntext import (
    PLACED,
    REPEATABLE,
    GameText,
    TagUpdate,
    decode_pbn,
    edit_lines,
    encode_pbn,
    inherited_values,
    iter_games,
    path_of,
    pbn_encoding,
    pbn_lines,
    quote,
    set_tags,
    split_games,
    with_values,
    write_text,
)
from ddsbind.game import Vulnerability

__all__ = [
    "ANNOTATE_CHUNK",
    "PLACED",
    "REPEATABLE",
    "Fill",
    "GameText",
    "PBNBoard",
    "ParFunc",
    "TagUpdate",
    "add_results",
    "decode_pbn",
    "edit_lines",
    "encode_pbn",
    "format_double_dummy_tricks",
    "format_par",
    "format_pbn",
    "inherited_values",
    "iter_add_results",
    "iter_boards",
    "iter_games",
    "parse_ability",
    "parse_double_dummy_tricks",
    "parse_pbn",
    "pbn_encoding",
    "pbn_lines",
    "quote",
    "read_deal",
    "read_pbn",
    "set_tags",
    "split_games",
    "with_values",
    "write_pbn",
    "write_text",
]


@dataclass
class PBNBoard:
    """One game of a PBN file.

    Attributes
    ----------
    deal : Deal
    table : ndarray, shape (5, 4), uint8, or None
        DD results in DDS order (strains S H D C NT, hands N E S W), 15 where
        unknown; None when the game has neither result tag.
    tags : dict
        Every tag of the game, name -> value.
    """

    deal: Deal
    table: NDArray[np.uint8] | None = None
    tags: dict[str, str] = field(default_factory=dict)


def read_deal(text: str) -> Deal:
    """A ``[Deal]`` value: hands by :meth:`ddsbind.deal.Deal.from_pbn`, ``-`` an unknown hand (PBN 2.1).

    When exactly one hand is unknown and the other three hold 13 cards
    each, the unknown hand holds the 13 cards left (as LIN's missing fourth
    hand); other unknown hands stay empty
    (:meth:`~ddsbind.deal.Deal.with_unknown_hands`: read and kept, not
    solved).  ``FormatError`` naming the value otherwise.
    """
    try:
        masks = pbn_to_masks(text)
        lengths = [sum(bin(m).count("1") for m in row) for row in masks]
        if sorted(lengths) == [0, 13, 13, 13]:
            missing = lengths.index(0)
            full = (1 << 15) - 4  # ranks 2..A
            masks[missing] = [full & ~(masks[0][s] | masks[1][s] | masks[2][s] | masks[3][s]) for s in range(4)]
        elif 0 in lengths and len(set(lengths)) > 1:  # hands unknown: kept, never solved
            return Deal.with_unknown_hands(masks)
        return Deal(masks)
    except (DDSError, ValueError) as exc:
        raise FormatError(f"bad Deal {text!r}: {exc}") from None


def parse_pbn(text: str | bytes, *, name: str = "PBN") -> list[PBNBoard]:
    """Parse PBN text into :class:`PBNBoard` s (games without a ``Deal`` tag are skipped).

    Parameters
    ----------
    text : str or bytes
        The file's text (bytes are read by :func:`decode_pbn`: ISO-8859-1,
        or UTF-8 after a byte-order mark).
    name : str
        What to call the text in error messages (a file name).

    Raises
    ------
    FormatError
        Naming the line (and the game, as ``index``): a ``Deal "#"`` with
        no earlier deal to inherit, text that is not a tag, a ``{`` never
        closed, or bytes that are not text.  A bad deal sets its board aside
        (a :class:`~ddsbind.errors.FieldWarning`, the rest read); strict
        reading refuses it, and a file none of whose deals reads is refused.
    """
    if isinstance(text, str):
        return list(iter_boards(text.removeprefix("\ufeff").split("\n"), name=name))
    return list(iter_boards(pbn_lines(io.BytesIO(text), name), name=name))


def iter_boards(lines: Iterable[str], *, name: str = "PBN") -> Iterator[PBNBoard]:
    """:func:`parse_pbn` of text given line by line (:func:`pbn_lines` of a file): each board as it is read.

    Memory is one game's, whatever the file's size; errors are
    :func:`parse_pbn`'s, raised when the reading reaches them.
    """
    for _, _, board in _dealt_games(lines, name):
        yield board


def _dealt_games(lines: Iterable[str], name: str) -> Iterator[tuple[GameText, dict[str, str], PBNBoard]]:
    """Each game with a deal, its tag values (``#`` resolved) and its board, as :func:`iter_boards` reads them.

    A deal that cannot be read sets its game aside (:func:`_common.set_aside`:
    the board, the ``Deal`` and why, named once a good deal is read), its
    text kept; strict reading refuses it, and so does a file with no deal
    that reads (the first fault).
    """
    bad: list[tuple[str | None, str, str, int, int]] = []  # deals set aside, not yet named
    first: FormatError | None = None
    good = False
    path = path_of(name)
    for g, (game, values) in enumerate(with_values(iter_games(lines, name), name)):
        lines_of = {tag: lineno for tag, _, lineno in reversed(game.tags)}
        deal_text = values.get("Deal")
        if deal_text is None:
            continue
        board = values.get("Board")
        line = lines_of["Deal"]
        try:
            deal = read_deal(deal_text)
        except FormatError as exc:
            if _common.is_strict() or first is None:
                first = FormatError(exc.message, index=g, board=board, line=line, path=path)
            if _common.is_strict():
                raise first from None
            bad.append((board, deal_text, exc.message, g, line))
            if good:
                _name_bad_deals(bad, path)
            continue
        if not good:
            good = True
            _name_bad_deals(bad, path)
        table = None
        try:
            table = existing_table(values, game.sections)
        except FormatError as exc:
            if _common.is_strict():
                why = f"results refused (strict reading): {exc}"
                raise FormatError(why, index=g, board=board, line=line, path=path) from None
            at = f"{name}: line {line} (Board {board or '?'})"
            warnings.warn(ResultsWarning(f"{at}: results set aside: {exc}"), stacklevel=3)
        yield game, values, PBNBoard(deal=deal, table=table, tags=values)
    if bad and first is not None:  # not one deal of the file reads
        raise first


def _name_bad_deals(bad: list[tuple[str | None, str, str, int, int]], path: str | None) -> None:
    """Name each deal set aside once (its board, text and why, at its record and line) and forget it."""
    for board, text, why, g, line in bad:
        _common.set_aside(board, "Deal", text, why, source=path, index=g, line=line)
    bad.clear()


def read_pbn(path: str | os.PathLike[str]) -> list[PBNBoard]:
    """Read a PBN file (ISO-8859-1, or UTF-8 after a byte-order mark) into :class:`PBNBoard` s."""
    with open(path, "rb") as f:
        return list(iter_boards(pbn_lines(f, os.fspath(path)), name=os.fspath(path)))


def format_pbn(
    deals: NDArray[np.integer] | Sequence[Deal | ArrayLike],
    tables: ArrayLike | None = None,
    *,
    first_board: int = 1,
    dd_tricks: bool = True,
    optimum_table: bool = True,
    dealer: Seat | Sequence[Seat] | None = None,
    vulnerable: Vulnerability | Sequence[Vulnerability] | None = None,
    pars: Sequence[tuple[int, Sequence[str]]] | None = None,
) -> str:
    """PBN text for deals and (optionally) their DDS tables.

    Parameters
    ----------
    deals : sequence of Deal, or owner arrays (N, 52)
    tables : array_like, shape (N, 5, 4), optional
        DDS order, 15 = unknown.
    first_board : int
        Number of the first board; dealer and vulnerability follow the
        16-board cycle unless ``dealer``/``vulnerable`` are given.
    dealer : Seat or sequence of Seat, optional
        Every board's dealer (a dealer script's ``dealer``), or each board's.
    vulnerable : Vulnerability or sequence of Vulnerability, optional
        Every board's vulnerability, or each board's.
    pars : sequence of (int, sequence of str), optional
        Each board's par as DDS's ``DealerPar`` gives it, written as
        ``OptimumScore`` and ``ParContract`` (:func:`format_par`).
    dd_tricks, optimum_table : bool
        Which result tags to write.
    """
    ds = _deals(deals)
    t = None if tables is None else np.asarray(tables).reshape(-1, 5, 4)
    if t is not None and t.shape[0] != len(ds):
        raise FormatError(f"{len(ds)} deals but {t.shape[0]} tables")
    out = ["% PBN 2.1", "% EXPORT", ""]
    for i, deal in enumerate(ds):
        b = first_board + i
        d = dealer[i] if isinstance(dealer, Sequence) else dealer
        v = vulnerable[i] if isinstance(vulnerable, Sequence) else vulnerable
        out.append(f'[Board "{b}"]')
        out.append(f'[Dealer "{(d if d is not None else Seat.dealer_of_board(b)).name}"]')
        out.append(f'[Vulnerable "{(v if v is not None else Vulnerability.of_board(b)).pbn}"]')
        out.append(f'[Deal "{deal.to_pbn()}"]')
        if t is not None and dd_tricks and np.all(t[i] <= 13):
            out.append(f'[DoubleDummyTricks "{format_double_dummy_tricks(t[i])}"]')
        if pars is not None:  # Bridge Composer's order: DoubleDummyTricks, OptimumScore, ParContract, the table
            score, contract = format_par(*pars[i])
            out += [f'[OptimumScore "{score}"]', f'[ParContract "{contract}"]']
        if t is not None:
            table = t[i]
            rows = format_optimum(table) if optimum_table else []
            if rows:
                out.append(f'[OptimumResultTable "{optimum_header(table)}"]')
                out.extend(rows)
        out.append("")
    return "\n".join(out)


def write_pbn(
    path: str | os.PathLike[str],
    deals: NDArray[np.integer] | Sequence[Deal | ArrayLike],
    tables: ArrayLike | None = None,
    *,
    first_board: int = 1,
    dd_tricks: bool = True,
    optimum_table: bool = True,
) -> None:
    """Write :func:`format_pbn` text to ``path`` (ISO-8859-1), all or nothing."""
    text = format_pbn(deals, tables, first_board=first_board, dd_tricks=dd_tricks, optimum_table=optimum_table)
    with atomic_output(path) as out:
        out.write(encode_pbn(text))


def _deals(deals: NDArray[np.integer] | Sequence[Deal | ArrayLike]) -> list[Deal]:
    if isinstance(deals, np.ndarray):
        return [Deal.from_owners(o) for o in deals.reshape(-1, 52)]
    return [d if isinstance(d, Deal) else Deal.from_owners(d) for d in deals]


# --------------------------------------------------------------------------
# Adding double-dummy results to a PBN file, keeping everything else


def add_results(
    data: bytes | str, name: str = "PBN", *, fill: Fill | None = None, par: ParFunc | None = None
) -> tuple[bytes, int]:
    """A PBN file's bytes with double-dummy results added to every game with a deal; everything else kept.

    Each game with a ``Deal`` gets ``DoubleDummyTricks`` and
    ``OptimumResultTable`` (from ``fill``, which solves what the file does not
    already give) and, with ``par``, ``OptimumScore`` and ``ParContract``
    (:func:`format_par`), in the layouts Bridge Composer writes.  A result
    tag the file has already, with the same results, is left as it is;
    another value replaces it in place; new one-line tags go before the
    game's ``[Auction]``/``[Play]`` (after its last line when it has
    neither), the table after its last line, as Bridge Composer places
    them.  Every other byte is kept: tags and their
    order, game records' auctions, play and notes, comments, commentary, line
    ends, the encoding (a UTF-8 file with a byte-order mark stays one).
    Without ``fill`` the file is checked and returned unchanged.

    Results the file gives (Bridge Composer's, BBA's, Deep Finesse's
    ``Ability``) go to ``fill`` as known entries; where its answer differs
    (a checking filler solves every deal: ``convert --solve`` without
    ``--trust-results``), the tags are rewritten with its answer and one
    :class:`~ddsbind.errors.ResultsWarning` per board names the board, its
    line and each entry (declarer, strain, the file's tricks and DDS's).

    The dealer is the game's ``Dealer`` (else the board's, by the 16-board
    cycle; else North), the vulnerability its ``Vulnerable`` (else the
    board's; else none): every reader's rule (:func:`ddsbind.formats._common.unsaid`).

    Returns
    -------
    (bytes, int)
        The new file and the number of games with a deal.

    Raises
    ------
    FormatError
        A malformed file (as :func:`parse_pbn`), or a deal to solve that is
        not full (naming its line).
    """
    raw = data.encode("latin-1") if isinstance(data, str) else bytes(data)
    pieces, count = [], 0
    for piece, games in iter_add_results(io.BytesIO(raw), name, fill=fill, par=par):
        pieces.append(piece)
        count += games
    return b"".join(pieces), count


#: Games with a deal solved together (and held, with their lines) when a file is read a chunk at a time.
ANNOTATE_CHUNK = 1 << 12


def iter_add_results(
    f: IO[bytes],
    name: str = "PBN",
    *,
    fill: Fill | None = None,
    par: ParFunc | None = None,
    chunk: int = ANNOTATE_CHUNK,
) -> Iterator[tuple[bytes, int]]:
    """:func:`add_results` of an open binary file, read from where it stands a chunk of games at a time.

    Yields ``(piece, games)``: the new file's bytes in order (joined, they
    are :func:`add_results` of the file's bytes) and the games with a deal
    each piece completes.  ``fill`` (and ``par``) is called once per
    ``chunk`` games with a deal; memory is those games' lines, whatever the
    file's size.  Errors are :func:`add_results`'s, raised when the reading
    reaches them, after the pieces before: write the pieces to a file put in
    place only at the end (:func:`~ddsbind.formats.files.atomic_output`).
    Without ``fill`` the file is checked, then its bytes are given back as
    they are, a block at a time.
    """
    start = f.tell()
    if fill is None:
        count = sum(1 for _ in iter_boards(pbn_lines(f, name), name=name))
        f.seek(start)
        while block := f.read(_common.TEXT_BLOCK):
            yield block, 0
        yield b"", count
        return
    if chunk < 1:
        raise FormatError("chunk must be at least 1 record")
    encoding = pbn_encoding(f, name)
    encoder = codecs.getincrementalencoder(encoding)()
    held: list[str] = []  # the lines read and not yet written: held[0] is the file's line `base` (0-based)
    base = 0
    batch: list[tuple[GameText, dict[str, str], PBNBoard]] = []

    def read() -> Iterator[str]:
        for line in pbn_lines(f, name):
            held.append(line)
            yield line

    def written(final: bool) -> bytes:
        nonlocal held, base
        read_lines = len(held)
        solve_games(held, base, batch, name, fill, par)
        # The line the reading stands on stays: the next game may start on it (no empty line between games).
        keep = [] if final else held[-1:]
        done = held[: len(held) - len(keep)]
        text = "\n".join(done) + ("\n" if keep and done else "")
        held, base = keep, base + read_lines - len(keep)
        try:
            return encoder.encode(text, final)
        except UnicodeEncodeError as exc:
            why = f"the text cannot be written back in its encoding {encoding}: {exc}"
            raise FormatError(why, path=path_of(name)) from None

    for game, values, board in _dealt_games(read(), name):
        batch.append((game, values, board))
        # Full, and the last game ends before the line the reading stands on (its edits are all in `held`).
        if len(batch) >= chunk and game.end < base + len(held):
            piece = written(False)
            yield piece, len(batch)
            batch = []
    yield written(True), len(batch)


#: Tags whose content a conversion deal by deal carries (deals and results), and the words for the others.
_CARRIED = ("Deal", "DoubleDummyTricks", "OptimumResultTable", "Ability")
_EXTRA_WORDS = {"Board": "board numbers", "Dealer": "dealers", "Vulnerable": "vulnerability"}


def extras(data: bytes | str | IO[bytes], name: str = "PBN") -> list[str]:
    """What a PBN file holds beyond deals and double-dummy results, in words (for a warning when dropped).

    ``"board numbers"``, ``"dealers"``, ``"vulnerability"``, ``"auctions and
    play"``, and ``"other tags (Event, ...)"`` naming up to three of them.
    """
    if isinstance(data, str):
        lines: Iterable[str] = data.removeprefix("\ufeff").split("\n")
    else:
        lines = pbn_lines(io.BytesIO(data) if isinstance(data, bytes) else data, name)
    names: list[str] = []
    for game in iter_games(lines, name):
        if "Deal" in game.names():
            names += [t for t, _, _ in game.tags if t not in names]
    out = [words for tag, words in _EXTRA_WORDS.items() if tag in names]
    if {"Auction", "Play", "Contract"} & set(names):
        out.append("auctions and play")
    other = [t for t in names if t not in (*_CARRIED, *_EXTRA_WORDS, "Auction", "Play", "Contract")]
    if other:
        out.append(f"other tags ({', '.join(other[:3])}{', ...' if len(other) > 3 else ''})")
    return out
