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
* In memory, tables are DDS order ``(5, 4)`` uint8, strains S H D C NT,
  hands N E S W, 15 = unknown; orders convert through
  :mod:`ddsbind.formats.order`.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import SEAT_LETTERS, Deal, Seat, Strain, pbn_to_masks
from ddsbind.errors import DDSError, FormatError, ResultsWarning
from ddsbind.formats import _common, _dtypes, order
from ddsbind.formats._common import atomic_output, disagreements
from ddsbind.formats.pbntables import (
    Verbatim,
    format_double_dummy_tricks,
    format_optimum,
    optimum_header,
    par_agrees,
    parse_ability,
    parse_double_dummy_tricks,
    parse_optimum,
)
from ddsbind.formats.pbntext import decode_pbn, encode_pbn, pbn_encoding, pbn_lines, write_text
from ddsbind.game import Vulnerability
from ddsbind.scoring import DealerParContract

__all__ = [
    "PBNBoard",
    "decode_pbn",
    "encode_pbn",
    "format_double_dummy_tricks",
    "format_pbn",
    "parse_ability",
    "parse_double_dummy_tricks",
    "parse_pbn",
    "pbn_encoding",
    "read_pbn",
    "write_pbn",
    "write_text",
]

#: Control characters (C0 but tab/form feed/vertical tab, DEL, C1): binary data, not ISO-8859-1 text.
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: One tag anywhere in a line: ``[Name "value"]`` (the space before the value may be missing: ``[Event"x"]``).
_TAG_ANY = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
#: A line that is one tag whose value has no quotes (WBridge5 writes ``[Event Random Deal #]``).
_TAG_BARE = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+([^"\[\]]*?)\s*\]\s*')
#: A line that is one tag and nothing else.
_TAG = re.compile(r"^\s*" + _TAG_ANY.pattern + r"\s*$")
#: In a tag value ``\\`` is a backslash and ``\"`` a quote; any other backslash is itself (``\2R`` in a table header).
_ESCAPED = re.compile(r'\\([\\"])')
_TO_ESCAPE = re.compile(r'\\(?=[\\"]|$)|"')
#: A tag's new value and section lines, or None to remove it (:func:`set_tags`).
TagUpdate = tuple[str, Sequence[str]] | None


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


def quote(value: str, tag: str = "") -> str:
    """A tag value as written between quotes: each ``"`` and backslash escaped with a backslash (PBN 2.1, as PGN).

    A value that holds a line break or another control character cannot be
    written (a PBN string is one line of printing characters): ``FormatError``
    naming the tag.  Public in the package (game records write tags too);
    :func:`split_games` reads the result back to ``value``.
    """
    if isinstance(value, Verbatim):
        return str(value)
    bad = _NOT_TEXT.search(value) or re.search("[\n\r\t\f\v]", value)
    if bad:
        what = "a line break" if bad.group() in "\n\r" else f"the control character 0x{ord(bad.group()):02x}"
        name = f"[{tag}] " if tag else ""
        raise FormatError(f"PBN: tag {name}value {value[:40]!r} holds {what}; a PBN tag value is one line of text")
    return value.replace("\\", "\\\\").replace('"', '\\"')


@dataclass
class GameText:
    """One game of PBN text as :func:`split_games` finds it (public in the package: game records read it too).

    Line numbers are 0-based indexes into ``text.split("\\n")`` for ``start``,
    ``end`` (one past the game's last line) and ``spans`` (each tag's first
    occurrence: its line and one past its section's last line); ``line`` is
    the 1-based line of the first tag, for messages.
    """

    line: int  # 1-based line of the game's first tag
    tags: list[tuple[str, str, int]] = field(default_factory=list)  # name, value, line
    sections: dict[str, list[str]] = field(default_factory=dict)
    start: int = 0
    end: int = 0
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Values of the repeated tag ``Note``, in order.
    notes: list[str] = field(default_factory=list)
    #: The text of each ``{...}`` and ``;`` commentary in the game (or before it, after the previous one).
    commentary: list[str] = field(default_factory=list)
    #: Where each commentary starts: ``(section, n)`` inside a :data:`PLACED` section after its first n
    #: tokens (as the section's text splits on white space), or None (among the tags, before or after them).
    places: list[tuple[str, int] | None] = field(default_factory=list)

    def names(self) -> set[str]:
        return {name for name, _, _ in self.tags}


#: Tags that may repeat within one game (PBN 2.1's notes); any other repeated tag starts a new game.
REPEATABLE = ("Note",)
#: Sections whose commentary has a place among their tokens (:attr:`GameText.places`): a call's, a card's.
PLACED = ("Auction", "Play")


def _strip_commentary(
    line: str, in_brace: bool, found: list[str] | None = None, starts: list[int] | None = None
) -> tuple[str, bool]:
    """``line`` without ``{...}`` and ``; ...`` commentary outside tag values; and whether a ``{`` stays open.

    With ``found``, each commentary's text is appended to it (a ``{`` still
    open extends its last item, a line break included); with ``starts``,
    where each commentary that begins on this line stands in the line returned.
    """
    if not in_brace and "{" not in line and ";" not in line:
        return line, False  # most lines: nothing to strip, every character kept as the loop would
    out = []
    in_quote = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_brace:
            if ch == "}":
                in_brace = False
            elif found is not None:
                found[-1] += ch
            i += 1
            continue
        if in_quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(line):
                out.append(line[i + 1])
                i += 1
            elif ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
            out.append(ch)
        elif ch == "{":
            in_brace = True
            if starts is not None:
                starts.append(len(out))
            out.append(" ")
            if found is not None:
                found.append("")
        elif ch == ";":
            if starts is not None:
                starts.append(len(out))
            if found is not None:
                found.append(line[i + 1 :].strip())
            break
        else:
            out.append(ch)
        i += 1
    if in_brace and found is not None:
        found[-1] += "\n"
    return "".join(out), in_brace


def split_games(text: str, name: str) -> list[GameText]:
    """Split PBN text into games, keeping each tag's line number (:func:`iter_games` of its lines)."""
    return list(iter_games(text.split("\n"), name))


def iter_games(lines: Iterable[str], name: str) -> Iterator[GameText]:
    """The games of PBN text given line by line (``text.split("\\n")``), each as soon as it ends.

    Games are separated by empty lines; a tag that repeats within a game
    starts a new game too (files that omit the empty line).  Text outside
    any tag, a ``{`` never closed and control bytes raise ``FormatError``
    with the line number, when the reading reaches them.
    """
    game: GameText | None = None
    current: str | None = None
    in_brace = False
    brace_line = 0

    board = ""  # the last Board tag read, to name the board in messages
    pending: list[str] = []  # commentary before the next game's first tag
    pending_places: list[tuple[str, int] | None] = []

    def at(lineno: int) -> str:
        return f"line {lineno}" + (f" (after Board {board})" if board else "")

    for index, raw in enumerate(lines):
        lineno = index + 1
        raw = raw.removesuffix("\r")
        bad = _NOT_TEXT.search(raw)
        if bad:
            raise FormatError(f"{name}: {at(lineno)}: byte 0x{ord(bad.group()):02x} is not PBN text")
        if not in_brace:
            if not raw.strip():
                if game is not None:
                    yield game
                game, current = None, None
                continue
            if raw.startswith("%"):
                continue
        was_open = in_brace
        spots: list[tuple[str, int] | None] = []
        if was_open and pending:
            found, spots = [pending.pop()], [pending_places.pop()]  # the commentary still open
        elif was_open and game is not None and game.commentary:
            found, spots = [game.commentary.pop()], [game.places.pop()]
        else:
            found = []
        starts: list[int] = []
        line, in_brace = _strip_commentary(raw, in_brace, found, starts)
        if in_brace and not was_open:
            brace_line = lineno
        if game is not None:
            game.end = index + 1
        bare = _TAG_BARE.fullmatch(line)
        if bare:  # WBridge5's [Event Random Deal #]: a value without quotes, read as if quoted
            line = f'[{bare.group(1)} "{quote(bare.group(2))}"]'
        pos = 0
        for m in _TAG_ANY.finditer(line):
            before = line[pos : m.start()].strip()
            if before:
                raise FormatError(f"{name}: {at(lineno)}: {before[:40]!a} is not a PBN tag")
            tag = m.group(1)
            if game is not None and tag in game.names() and tag not in REPEATABLE:
                if not pos:  # the line is the new game's: the old one ended on the line before
                    game.end = index
                yield game  # no empty line before this game
                game = None
            if game is None:
                game = GameText(lineno, start=index, end=index + 1)
                game.commentary, pending = pending, []
                game.places, pending_places = pending_places, []
            value = _ESCAPED.sub(r"\1", m.group(2))
            game.tags.append((tag, value, lineno))
            if tag == "Board" and value != "#":
                board = value
            if tag in REPEATABLE:
                game.notes.append(value)
            else:
                game.sections[tag] = []
                game.spans[tag] = (index, index + 1)
            current = tag
            pos = m.end()
        for start in starts:
            section = game.sections.get(current) if game is not None and current in PLACED else None
            if current is not None and section is not None and start >= pos:  # among the section's tokens
                spots.append((current, len(" ".join(section).split()) + len(line[pos:start].split())))
            else:
                spots.append(None)
        if game is not None:
            game.commentary += found
            game.places += spots
        else:
            pending += found
            pending_places += spots
        rest = line[pos:].strip()
        if rest:
            if current is None or game is None:
                raise FormatError(f"{name}: {at(lineno)}: {rest[:40]!a} is neither a PBN tag nor a tag's section")
            if current in REPEATABLE:
                raise FormatError(f"{name}: {at(lineno)}: {rest[:40]!a} follows a [{current}] tag (no section)")
            game.sections[current].append(rest)
            game.spans[current] = (game.spans[current][0], index + 1)
    if in_brace:
        raise FormatError(f"{name}: {at(brace_line)}: '{{' commentary is never closed")
    if game is not None:
        yield game


def inherited_values(games: Sequence[GameText], name: str = "PBN") -> list[dict[str, str]]:
    """Each game's tag values with ``"#"`` read as PBN 4.8 says: the value of that tag in the previous game.

    The one reading of ``#`` for every reader (deals, game records, adding
    results).  The previous game is the one just before in the file (with
    its own ``#`` already resolved); a ``#`` whose previous game lacks the
    tag is kept as ``#`` and named (:func:`ddsbind.formats._common.set_aside`),
    but for ``Deal`` and ``Board``, which raise ``FormatError`` naming the line.  A repeated tag (``Note``)
    keeps its first value here.
    """
    return [values for _, values in with_values(games, name)]


def with_values(games: Iterable[GameText], name: str = "PBN") -> Iterator[tuple[GameText, dict[str, str]]]:
    """Each game with its :func:`inherited_values`, game by game (the reading of ``#`` for a stream of games)."""
    previous: dict[str, str] = {}
    for g, game in enumerate(games):
        values: dict[str, str] = {}
        for tag, value, lineno in game.tags:
            if tag in values:
                continue
            if value == "#" and tag in previous:
                value = previous[tag]
            elif value == "#" and tag in ("Deal", "Board"):
                raise FormatError(f'{name}: line {lineno}: [{tag} "#"] but the game before has no {tag}', index=g)
            elif value == "#":  # kept as written: "#" itself
                board = values.get("Board", previous.get("Board"))
                why = f"line {lineno}: the game before has no {tag} to repeat"
                _common.set_aside(board, tag, value, why, source=name, index=g)
            values[tag] = value
        yield game, values
        previous = values


def set_tags(
    text: str,
    games: Sequence[GameText],
    updates: Sequence[Mapping[str, TagUpdate]],
    *,
    before_play: Collection[str] = (),
) -> str:
    """``text`` with tags of its games set, replaced or removed, every other byte kept.

    ``games`` is :func:`split_games` of ``text``; ``updates[k]`` maps a tag
    name of game k to ``(value, section_lines)`` (set: the tag line and its
    section replace the old ones in place, or are added after the game's
    last line) or None (removed with its section).  A tag line that holds
    more than the tag (several tags on one line, commentary) has only the
    tag itself replaced.  A tag named in ``before_play`` that the game lacks
    is added before the game's ``[Auction]`` (else ``[Play]``) section, as
    Bridge Composer places its one-line tags; others after the game's last
    line.  Line endings follow the game's (``\\r\\n`` or ``\\n``).
    """
    lines = text.split("\n")
    edit_lines(lines, games, updates, before_play=before_play)
    return "\n".join(lines)


def edit_lines(
    lines: list[str],
    games: Sequence[GameText],
    updates: Sequence[Mapping[str, TagUpdate]],
    *,
    before_play: Collection[str] = (),
    base: int = 0,
) -> None:
    """:func:`set_tags` on a text's lines, in place: ``lines[0]`` is the text's line ``base`` (0-based).

    Every line a game's update touches (from its first tag to its end) must
    be in ``lines``: a reader of a stream edits the lines it holds, games at a time.
    """
    edits: list[tuple[int, int, list[str]]] = []  # (first line, one past last, new lines), in ``lines``
    for game, update in zip(games, updates, strict=True):
        if not update:
            continue
        eol = "\r" if lines[game.start - base].endswith("\r") else ""
        added: list[str] = []
        early: list[str] = []
        sections = [game.spans[t][0] - base for t in ("Auction", "Play") if t in game.spans]
        for tag, change in update.items():
            new = [] if change is None else [f'[{tag} "{quote(change[0], tag)}"]', *change[1]]
            if tag in game.spans:
                first, last = (i - base for i in game.spans[tag])
                own = lines[first].removesuffix("\r")
                alone = _TAG.fullmatch(own) is not None and own.strip().startswith(f"[{tag}")
                if alone:
                    edits.append((first, last, [x + eol for x in new]))
                else:  # the tag shares its line (other tags, commentary): its text replaced in the line itself
                    m = next(m for m in _TAG_ANY.finditer(own) if m.group(1) == tag)
                    lines[first] = own[: m.start()] + (new[0] if new else "") + own[m.end() :] + eol
                    edits.append((first + 1, last, [x + eol for x in new[1:]]))
            elif new and tag in before_play and sections:
                early += new
            elif new:
                added += new
        if early:
            edits.append((min(sections), min(sections), [x + eol for x in early]))
        if added:
            edits.append((game.end - base, game.end - base, [x + eol for x in added]))
    for first, last, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[first:last] = new


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
    bad: list[tuple[str | None, str, str, int]] = []  # deals set aside, not yet named
    first: FormatError | None = None
    good = False
    for g, (game, values) in enumerate(with_values(iter_games(lines, name), name)):
        lines_of = {tag: lineno for tag, _, lineno in reversed(game.tags)}
        deal_text = values.get("Deal")
        if deal_text is None:
            continue
        where = f"{name}: line {lines_of['Deal']}"
        try:
            deal = read_deal(deal_text)
        except FormatError as exc:
            if _common.is_strict() or first is None:
                first = FormatError(f"{where}: {exc}", index=g)
            if _common.is_strict():
                raise first from None
            bad.append((values.get("Board"), deal_text, f"line {lines_of['Deal']}: {exc.message}", g))
            if good:
                _name_bad_deals(bad, name)
            continue
        if not good:
            good = True
            _name_bad_deals(bad, name)
        table = None
        try:
            table = _existing_table(values, game.sections)
        except FormatError as exc:
            board = values.get("Board", "?")
            if _common.is_strict():
                why = f"results refused (strict reading): {exc}"
                raise FormatError(f"{where} (Board {board}): {why}", index=g) from None
            warnings.warn(ResultsWarning(f"{where} (Board {board}): results set aside: {exc}"), stacklevel=3)
        yield game, values, PBNBoard(deal=deal, table=table, tags=values)
    if bad and first is not None:  # not one deal of the file reads
        raise first


def _name_bad_deals(bad: list[tuple[str | None, str, str, int]], name: str) -> None:
    """Name each deal set aside once (its board, text and why) and forget it."""
    for board, text, why, g in bad:
        _common.set_aside(board, "Deal", text, why, source=name, index=g)
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
        out.append(f'[Dealer "{(d if d is not None else order.board_dealer(b)).name}"]')
        out.append(f'[Vulnerable "{(v if v is not None else order.board_vulnerability(b)).pbn}"]')
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

#: ``fill(owners, tables) -> tables``: unknown entries (15) of DDS-order tables solved.
Fill = Callable[[NDArray[np.int8], NDArray[np.uint8] | None], NDArray[np.uint8]]
#: ``par(tables, dealers, vulnerabilities) -> [(ns_score, contracts), ...]``: DDS's ``DealerPar`` for each
#: complete table (dealer a DDS seat, vulnerability a :class:`~ddsbind.game.Vulnerability`), its score from
#: North-South's view and its contracts as DDS writes them (``"4S*-EW-1"``, ``"3N-N+1"``).
ParFunc = Callable[[NDArray[np.uint8], Sequence[int], Sequence[Vulnerability]], Sequence[tuple[int, Sequence[str]]]]


#: Bid rank of a strain (C < D < H < S < NT), by DDS strain (S H D C NT): the order Bridge Composer lists ties in.
_BID_RANK = {Strain.C: 0, Strain.D: 1, Strain.H: 2, Strain.S: 3, Strain.NT: 4}


def format_par(ns_score: int, contracts: Sequence[str]) -> tuple[str, str]:
    """``(OptimumScore, ParContract)`` values from DDS's ``DealerPar`` answer, as Bridge Composer writes them.

    Conventions and where each comes from (Bridge Composer 5.118's own
    double-dummy analysis of eight boards, saved by it in a public
    repository's test fixture, ``pbn-order-test-bc-dd.pbn``, and that
    repository's notes on it; PBN 2.1 section 3.9 where they are silent):

    * ``OptimumScore`` names the side that declares par and gives the score
      from **that side's** view: ``"EW -100"`` for East-West's sacrifice
      ``2SX-1``, ``"EW 130"`` for their ``1D+3``, ``"NS 400"`` (Bridge
      Composer).  Nobody makes anything (DDS gives no contract): ``"NS 0"``
      (PBN 2.1's form, side and score; Bridge Composer's choice not seen).
    * ``ParContract``: the declaring side, or the single seat when only one
      partner takes the tricks (``"N 3N="``, ``"E 2S="``; the seats are
      DDS's, :class:`ddsbind.scoring.DealerParContract`), then level,
      strain with ``N`` for notrump, ``X`` for a doubled sacrifice, and the
      result: ``=`` made exactly, ``+n`` overtricks, ``-n`` down (Bridge
      Composer).  Every tie is listed, joined by ``"; "``, lowest bid first:
      ``"EW 2SX-1; EW 3CX-1"``, ``"NS 4H=; NS 4S="`` (Bridge Composer).
      ``"Pass"`` when nobody makes anything (our choice, PBN 2.1's word).

    DDS's text is read by :meth:`ddsbind.scoring.DealerParContract.parse`
    (``ContractError`` otherwise).

    Examples
    --------
    >>> format_par(-300, ["5H*-NS-2"])
    ('NS -300', 'NS 5HX-2')
    >>> format_par(630, ["3N-N+1"])
    ('NS 630', 'N 3N+1')
    >>> format_par(-420, ["4S-EW", "4H-EW"])
    ('EW 420', 'EW 4H=; EW 4S=')
    """
    pars = sorted(
        (DealerParContract.parse(c) for c in contracts),
        key=lambda p: (p.contract.level, _BID_RANK[p.contract.strain]),
    )
    if not pars:
        return "NS 0", "Pass"
    side = "NS" if pars[0].declarers[0] % 2 == 0 else "EW"
    out = []
    for p in pars:
        c = p.contract
        strain = "N" if c.strain == Strain.NT else Strain(c.strain).symbol
        result = f"{p.result:+d}" if p.result else "="
        out.append(f"{p.seats} {c.level}{strain}{'X' * c.doubled}{result}")
    return f"{side} {ns_score if side == 'NS' else -ns_score}", "; ".join(out)


def _existing_table(values: Mapping[str, str], sections: Mapping[str, list[str]]) -> NDArray[np.uint8] | None:
    """The results a game's tags give (Bridge Composer's two, Deep Finesse's ``Ability``); None without any.

    Where several are given, each known entry must agree (``FormatError``
    naming the two tags); the table holds every entry any of them knows.
    """
    table: NDArray[np.uint8] | None = None
    first = ""
    readers: list[tuple[str, Callable[[], NDArray[np.uint8]]]] = [
        ("DoubleDummyTricks", lambda: parse_double_dummy_tricks(values["DoubleDummyTricks"])),
        (
            "OptimumResultTable",
            lambda: parse_optimum(values["OptimumResultTable"], sections.get("OptimumResultTable", [])),
        ),
        ("Ability", lambda: parse_ability(values["Ability"])),
    ]
    for tag, read in readers:
        if tag not in values or (tag != "OptimumResultTable" and not values[tag].strip()):
            continue
        got = read()
        if table is None:
            table, first = got, tag
            continue
        both = (table <= 13) & (got <= 13)
        if not np.array_equal(table[both], got[both]):
            raise FormatError(f"{first} and {tag} disagree")
        table = np.where(table <= 13, table, got).astype(np.uint8)
    return table


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
        _solve_games(held, base, batch, name, fill, par)
        # The line the reading stands on stays: the next game may start on it (no empty line between games).
        keep = [] if final else held[-1:]
        done = held[: len(held) - len(keep)]
        text = "\n".join(done) + ("\n" if keep and done else "")
        held, base = keep, base + read_lines - len(keep)
        try:
            return encoder.encode(text, final)
        except UnicodeEncodeError as exc:
            raise FormatError(f"{name}: the text cannot be written back in its encoding {encoding}: {exc}") from None

    for game, values, board in _dealt_games(read(), name):
        batch.append((game, values, board))
        # Full, and the last game ends before the line the reading stands on (its edits are all in `held`).
        if len(batch) >= chunk and game.end < base + len(held):
            piece = written(False)
            yield piece, len(batch)
            batch = []
    yield written(True), len(batch)


def _solve_games(
    lines: list[str],
    base: int,
    batch: Sequence[tuple[GameText, dict[str, str], PBNBoard]],
    name: str,
    fill: Fill,
    par: ParFunc | None,
) -> None:
    """Results (and par) of the games of ``batch`` solved by ``fill`` and set in ``lines`` (line ``base`` first)."""
    if not batch:
        return
    unknown = [item for item in batch if not item[2].deal.is_full]
    for game, values, _ in unknown:  # refused for that board only: the rest of the file is solved
        why = f"line {game.spans['Deal'][0] + 1}: hands unknown or short, not solved (the deal is kept)"
        _common.set_aside(values.get("Board"), "Deal", values["Deal"], why, source=name)
    batch = [item for item in batch if item[2].deal.is_full]
    if not batch:
        return
    owners = np.stack([board.deal.owners() for _, _, board in batch])
    known = [np.full((5, 4), _dtypes.UNKNOWN, np.uint8) if b.table is None else b.table for _, _, b in batch]
    tables = np.asarray(fill(owners, np.stack(known).astype(np.uint8)), dtype=np.uint8).reshape(-1, 5, 4)
    for (game, values, _), given, table in zip(batch, known, tables, strict=True):
        wrong = disagreements(given, table)
        if wrong:
            where = f"{name}: line {game.spans['Deal'][0] + 1} (Board {values.get('Board', '?')})"
            warnings.warn(
                ResultsWarning(f"{where}: its results contradict the deal, DDS's written instead: {'; '.join(wrong)}"),
                stacklevel=4,
            )
    pars: Sequence[tuple[int, Sequence[str]]] = []
    if par is not None:
        dealers, vuls = zip(*(_dealer_vul(values) for _, values, _ in batch), strict=True)
        pars = par(tables, list(dealers), list(vuls))
    updates: list[dict[str, TagUpdate]] = []
    for k, ((_, values, board), table) in enumerate(zip(batch, tables, strict=True)):
        old = board.table  # None when the game has no result tag, or one set aside (unreadable): replaced here
        update: dict[str, TagUpdate] = {}
        complete = bool(np.all(table <= 13))
        if complete and (old is None or not np.array_equal(old, table) or "DoubleDummyTricks" not in values):
            update["DoubleDummyTricks"] = (format_double_dummy_tricks(table), [])
        if pars:
            score, contract = format_par(*pars[k])
            for tag, value in (("OptimumScore", score), ("ParContract", contract)):
                if not par_agrees(tag, values.get(tag), value):  # right in the file's spelling: left as it is
                    update[tag] = (value, [])
                    _name_wrong_par(name, values, tag, value)
        if old is None or not np.array_equal(old, table) or "OptimumResultTable" not in values:
            # last: Bridge Composer writes the table after the one-line tags
            update["OptimumResultTable"] = (optimum_header(table), format_optimum(table))
        updates.append(update)
    games = [game for game, _, _ in batch]
    edit_lines(lines, games, updates, before_play=("DoubleDummyTricks", "OptimumScore", "ParContract"), base=base)


def _name_wrong_par(name: str, values: Mapping[str, str], tag: str, value: str) -> None:
    if tag in values:
        board = values.get("Board", "?")
        why = f"[{tag} {values[tag]!r}] is not the par of its double-dummy table, {value!r} written instead"
        warnings.warn(ResultsWarning(f"{name}: Board {board}: {why}"), stacklevel=5)


def _dealer_vul(values: dict[str, str]) -> tuple[int, Vulnerability]:
    board = values.get("Board", "").strip()
    number = int(board) if board.isdigit() and int(board) > 0 else None
    unsaid_dealer, vul = _common.unsaid(number)
    letter = values.get("Dealer", "").strip().upper()
    if len(letter) == 1 and letter in SEAT_LETTERS:
        dealer = SEAT_LETTERS.index(letter)
    else:
        dealer = int(unsaid_dealer) if unsaid_dealer is not None else 0  # DealerPar needs a dealer: North
    said = values.get("Vulnerable", "").strip()
    with contextlib.suppress(DDSError):
        vul = Vulnerability.parse(said) if said else vul
    return dealer, vul


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
