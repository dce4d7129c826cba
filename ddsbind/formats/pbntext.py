"""PBN's text: the encoding of a file (read whole or a block at a time, written back as read), and its games' tags.

PBN 2.1 says ISO-8859-1; the programs that write PBN also write UTF-8, with
a byte-order mark or without, and Bridge Composer declares its charset in a
``%Content-type: text/x-pbn; charset=UTF-8`` line.  :func:`pbn_encoding`
reads all of these, :func:`decode_pbn`/:func:`pbn_lines` decode a whole
file or stream its lines, :func:`encode_pbn` writes a text back in the
encoding it was read in.

The syntax of the text's games (tags, sections, ``{...}``/``;`` commentary,
``#``, the specification in :mod:`ddsbind.formats.pbn`'s docstring) is here
too: :func:`iter_games` finds each game's tags and sections with their
lines, :func:`with_values` resolves ``#``, :func:`set_tags`/:func:`edit_lines`
change tags keeping every other byte, :func:`quote` writes a value.  Every
PBN reader (boards, game records, results added) reads through them;
:mod:`ddsbind.formats.pbn` re-exports them all.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import shutil
import tempfile
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ddsbind.errors import FormatError
from ddsbind.formats import _common
from ddsbind.formats._common import decode_text, text_pieces
from ddsbind.formats.pbntables import Verbatim

__all__ = [
    "PLACED",
    "REPEATABLE",
    "GameText",
    "TagUpdate",
    "decode_pbn",
    "edit_lines",
    "encode_pbn",
    "inherited_values",
    "iter_games",
    "pbn_encoding",
    "pbn_lines",
    "quote",
    "set_tags",
    "split_games",
    "with_values",
    "write_text",
]

_BOM = b"\xef\xbb\xbf"


#: ``%Content-type: text/x-pbn; charset=UTF-8`` (Bridge Composer's header line): the declared encoding.
_CHARSET = re.compile(rb"^%\s*Content-type:[^\n]*?charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE | re.MULTILINE)


def pbn_encoding(data: bytes | bytearray | memoryview | IO[bytes], name: str = "PBN") -> str:
    """The encoding of a PBN file's bytes, as a Python codec name.

    ``"utf-8-sig"`` after a UTF-8 byte-order mark; else the charset a
    ``%Content-type ... charset=X`` line declares (``FormatError`` for a
    charset Python does not know); else ``"utf-8"`` when the bytes are valid
    UTF-8 and not all ASCII; else PBN 2.1's ``"latin-1"`` (ISO-8859-1), or
    ``"cp1252"`` when the ISO-8859-1 text holds Windows-1252's bytes 0x80-0x9F.
    An open binary file is read from where it stands a block at a time,
    and put back there.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        return _file_encoding(data, name)
    raw = bytes(data)
    if raw.startswith(_BOM):
        return "utf-8-sig"
    declared = _CHARSET.search(raw)
    if declared:
        return _as_windows_writes(_declared(declared, name), raw)
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return _as_windows_writes("latin-1", raw)
        return "utf-8"
    return "latin-1"


#: Bytes ISO-8859-1 gives to control characters that Windows-1252 gives to letters and signs (the euro sign, quotes).
_C1 = re.compile(rb"[\x80-\x9f]")
_UNDEFINED_1252 = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")


def _as_windows_writes(encoding: str, data: bytes | IO[bytes]) -> str:
    """``"cp1252"`` for an ISO-8859-1 text holding bytes 0x80-0x9F that Windows-1252 reads (Windows programs write
    them: the euro sign 0x80), else ``encoding``.

    The two encodings agree on every other byte, so the text reads as
    Windows wrote it and is written back byte for byte.  Bytes that
    Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep ISO-8859-1,
    whose reader names them as bytes that are not text.
    """
    if codecs.lookup(encoding).name != "iso8859-1":
        return encoding
    if isinstance(data, bytes):
        blocks: Iterable[bytes] = [data]
    else:
        start = data.tell()
        blocks = iter(lambda: data.read(_common.TEXT_BLOCK), b"")
    found = False
    try:
        for block in blocks:
            if _UNDEFINED_1252.search(block):
                return encoding
            found = found or _C1.search(block) is not None
    finally:
        if not isinstance(data, bytes):
            data.seek(start)
    return "cp1252" if found else encoding


def _declared(declared: re.Match[bytes], name: str) -> str:
    charset = declared.group(1).decode("ascii")
    try:
        return codecs.lookup(charset).name
    except LookupError:
        raise FormatError(
            f"%Content-type declares charset {charset!r}, an encoding we do not know", path=path_of(name)
        ) from None


def _file_encoding(f: IO[bytes], name: str) -> str:
    """:func:`pbn_encoding` of an open file's bytes from where it stands, read a block at a time (then put back)."""
    start = f.tell()
    try:
        if f.read(len(_BOM)) == _BOM:
            return "utf-8-sig"
        f.seek(start)
        check = _common.Utf8Check()
        held: list[bytes] = []  # the bytes after the last line feed read so far: a line not yet searched
        while True:
            data = f.read(_common.TEXT_BLOCK)
            check.feed(data)
            cut = data.rfind(b"\n") + 1 if data else len(data)
            if data and not cut:
                held.append(data)
                continue
            declared = _CHARSET.search(b"".join([*held, data[:cut]]))
            if declared:
                f.seek(start)
                return _as_windows_writes(_declared(declared, name), f)
            held = [data[cut:]]
            if not data:
                break
        valid, ascii_only = check.feed(b"", final=True), check.ascii
        if ascii_only:
            return "latin-1"
        f.seek(start)
        return "utf-8" if valid else _as_windows_writes("latin-1", f)
    finally:
        f.seek(start)


def pbn_lines(f: IO[bytes], name: str = "PBN", encoding: str | None = None) -> Iterator[str]:
    """The lines of an open PBN file (``text.split("\\n")`` of :func:`decode_pbn` of its bytes), read a block at a time.

    The encoding is :func:`pbn_encoding`'s, found first by a pass over the
    bytes (which needs no more memory than a block); a byte-order mark is
    dropped.  Memory is a block and the longest line, whatever the file's size.
    ``encoding``: the file's :func:`pbn_encoding`, when the caller found it already.
    """
    encoding = encoding or pbn_encoding(f, name)
    if encoding == "utf-8-sig":
        f.read(len(_BOM))
        encoding = "utf-8"
    held = ""
    for piece in text_pieces(f, encoding, name):
        lines = piece.split("\n")
        lines[0] = held + lines[0]
        held = lines.pop()
        yield from lines
    yield held


def decode_pbn(data: bytes | bytearray | memoryview | str, name: str = "PBN") -> str:
    """PBN text of a file's bytes, in the encoding :func:`pbn_encoding` finds (a byte-order mark dropped).

    A ``str`` is returned without a leading byte-order mark.  Bytes that are
    not valid in the encoding the file declares raise ``FormatError`` naming
    ``name``, the line and the column.
    """
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    raw = bytes(data)
    encoding = pbn_encoding(raw, name)
    if encoding == "utf-8-sig":
        return decode_text(raw[len(_BOM) :], "utf-8", name)
    return decode_text(raw, encoding, name)


def write_text(parts: Iterable[str], out: IO[bytes], encoding: str | None = None) -> None:
    """Write text given in parts to ``out`` as ``encode_pbn("".join(parts), encoding)`` writes the whole.

    :func:`encode_pbn` chooses one encoding for the whole text (``encoding``;
    failing that ISO-8859-1; failing that a byte-order mark and UTF-8), which
    a part cannot know of the parts after it: the parts go to a spool (in
    memory up to a block, then a temporary file) in the first encoding that
    holds every part so far, re-encoded there when a part needs the next one,
    and the spool is copied to ``out`` at the end.  Memory is a part and a
    block, whatever the text's size.
    """
    choices = [c for c in (encoding, "latin-1", "utf-8-sig") if c]
    k = 0
    encoder = codecs.getincrementalencoder(choices[k])()
    with contextlib.ExitStack() as spools:
        spool = spools.enter_context(tempfile.SpooledTemporaryFile(max_size=_common.TEXT_BLOCK))
        for part in parts:
            while True:
                try:
                    spool.write(encoder.encode(part))
                    break
                except UnicodeEncodeError:  # the next encoding that holds the text so far: the spool re-encoded
                    old = choices[k]
                    while True:  # the last choice, UTF-8, holds any text
                        k += 1
                        encoder = codecs.getincrementalencoder(choices[k])()
                        again = spools.enter_context(tempfile.SpooledTemporaryFile(max_size=_common.TEXT_BLOCK))
                        if _recoded(spool, old, encoder, again):
                            spool.close()
                            spool = again
                            break
                        again.close()
        spool.write(encoder.encode("", final=True))
        spool.seek(0)
        shutil.copyfileobj(spool, out, _common.TEXT_BLOCK)


def _recoded(spool: IO[bytes], old: str, encoder: codecs.IncrementalEncoder, new: IO[bytes]) -> bool:
    """Write the text in ``spool`` (``old``'s bytes) to ``new`` by ``encoder``; False if it cannot hold it."""
    decoder = codecs.getincrementaldecoder(old)()
    spool.seek(0)
    try:
        while data := spool.read(_common.TEXT_BLOCK):
            new.write(encoder.encode(decoder.decode(data)))
        new.write(encoder.encode(decoder.decode(b"", final=True)))
    except UnicodeEncodeError:
        spool.seek(0, 2)
        return False
    return True


def encode_pbn(text: str, encoding: str | None = None) -> bytes:
    """A file's bytes for PBN ``text``, in ``encoding`` (a file's :func:`pbn_encoding`, to write it back as read).

    Without ``encoding`` (or when the text holds a character the encoding
    cannot): ISO-8859-1 when the text fits, else a byte-order mark and UTF-8.
    """
    if encoding is not None:
        try:
            return text.encode(encoding)
        except UnicodeEncodeError:
            pass
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return _BOM + text.encode("utf-8")


# --------------------------------------------------------------------------
# The games of the text: tags, their sections and commentary

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
#: A tag's new value and section lines, or None to remove it (:func:`set_tags`).
TagUpdate = tuple[str, Sequence[str]] | None


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


def path_of(name: str) -> str | None:
    """The ``path`` of an error about text called ``name``: None for the readers' default name ``"PBN"`` (no file)."""
    return None if name == "PBN" else name


def split_games(text: str, name: str) -> list[GameText]:
    """Split PBN text into games, keeping each tag's line number (:func:`iter_games` of its lines)."""
    return list(iter_games(text.split("\n"), name))


def iter_games(lines: Iterable[str], name: str) -> Iterator[GameText]:
    """The games of PBN text given line by line (``text.split("\\n")``), each as soon as it ends.

    Games are separated by empty lines; a tag that repeats within a game
    starts a new game too (files that omit the empty line).  Text outside
    any tag, a ``{`` never closed and control bytes raise ``FormatError``
    when the reading reaches them, its place in its fields: ``line``
    (1-based), ``path`` (``name``, unless the default ``"PBN"``) and, for a
    line in a game, ``record`` and ``board`` (as the file numbers it).
    """
    game: GameText | None = None
    current: str | None = None
    in_brace = False
    brace_at: dict[str, Any] = {}  # where the last '{' opened

    games = 0  # the games yielded: the record a line of ``game`` is in is games + 1
    pending: list[str] = []  # commentary before the next game's first tag
    pending_places: list[tuple[str, int] | None] = []

    def at(lineno: int) -> dict[str, Any]:
        """The location of line ``lineno`` (1-based): the file, and the game it is in (its record, its board)."""
        place: dict[str, Any] = {"path": path_of(name), "line": lineno}
        if game is not None:
            board = next((value for tag, value, _ in game.tags if tag == "Board"), None)
            place.update(index=games, board=board if board != "#" else None)
        return place

    for index, raw in enumerate(lines):
        lineno = index + 1
        raw = raw.removesuffix("\r")
        bad = _NOT_TEXT.search(raw)
        if bad:
            raise FormatError(f"byte 0x{ord(bad.group()):02x} is not PBN text", **at(lineno))
        if not in_brace:
            if not raw.strip():
                if game is not None:
                    yield game
                    games += 1
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
            brace_at = at(lineno)
        if game is not None:
            game.end = index + 1
        bare = _TAG_BARE.fullmatch(line)
        if bare:  # WBridge5's [Event Random Deal #]: a value without quotes, read as if quoted
            line = f'[{bare.group(1)} "{quote(bare.group(2))}"]'
        pos = 0
        for m in _TAG_ANY.finditer(line):
            before = line[pos : m.start()].strip()
            if before:
                raise FormatError(f"{before[:40]!a} is not a PBN tag", **at(lineno))
            tag = m.group(1)
            if game is not None and tag in game.names() and tag not in REPEATABLE:
                if not pos:  # the line is the new game's: the old one ended on the line before
                    game.end = index
                yield game  # no empty line before this game
                games += 1
                game = None
            if game is None:
                game = GameText(lineno, start=index, end=index + 1)
                game.commentary, pending = pending, []
                game.places, pending_places = pending_places, []
            value = _ESCAPED.sub(r"\1", m.group(2))
            game.tags.append((tag, value, lineno))
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
                raise FormatError(f"{rest[:40]!a} is neither a PBN tag nor a tag's section", **at(lineno))
            if current in REPEATABLE:
                raise FormatError(f"{rest[:40]!a} follows a [{current}] tag (no section)", **at(lineno))
            game.sections[current].append(rest)
            game.spans[current] = (game.spans[current][0], index + 1)
    if in_brace:
        raise FormatError("'{' commentary is never closed", **brace_at)
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
                raise FormatError(
                    f'[{tag} "#"] but the game before has no {tag}',
                    index=g,
                    board=values.get("Board"),
                    line=lineno,
                    path=path_of(name),
                )
            elif value == "#":  # kept as written: "#" itself
                board = values.get("Board", previous.get("Board"))
                why = f"the game before has no {tag} to repeat"
                _common.set_aside(board, tag, value, why, source=path_of(name), index=g, line=lineno)
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
