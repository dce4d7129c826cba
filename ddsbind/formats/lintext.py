"""LIN's text: its encoding, its ``tag|value|`` pairs, the boards they form, and the letters of its values.

The layout is :mod:`ddsbind.formats.lin`'s docstring.  :func:`lin_pieces`
decodes a file a block at a time (:func:`lin_encoding` decides UTF-8 or
ISO-8859-1 first), :func:`lin_pairs` reads the pairs of the text as they
come, :func:`lin_boards` groups them into boards; :func:`read_qx`,
:func:`match_tags` and :func:`lin_hand` read and write single values, and
the tables below name LIN's letters (seats, vulnerability, calls) as
:mod:`ddsbind.deal`, :mod:`ddsbind.game` and :mod:`ddsbind.scoring` name
them.  No DDS calls; :mod:`ddsbind.formats.linread` and
:mod:`ddsbind.formats.linwrite` read and write records through them.
"""

from __future__ import annotations

import codecs
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from ddsbind.deal import SUITS, Deal, Seat
from ddsbind.errors import FormatError
from ddsbind.formats._common import TEXT_BLOCK, Utf8Check
from ddsbind.game import Vulnerability
from ddsbind.scoring import Call

__all__ = [
    "BOARD_TAGS",
    "CALL_OF_LETTER",
    "DISPLAY_TAGS",
    "HEADER_TAGS",
    "LETTER_OF_CALL",
    "LETTER_OF_VUL",
    "LIN_SEATS",
    "MATCH_FIELDS",
    "NAME_TAGS",
    "VUL_OF_LETTER",
    "LinBoard",
    "LinPair",
    "board_of_title",
    "lin_boards",
    "lin_encoding",
    "lin_hand",
    "lin_pairs",
    "lin_pieces",
    "match_tags",
    "read_qx",
]

_TAG = re.compile(r"[A-Za-z]{2}")
_BOM = b"\xef\xbb\xbf"
_SPACE = re.compile(r"\s*")
#: LIN's letters for pass, double and redouble; bids are read by :func:`ddsbind.record.read_call`.
CALL_OF_LETTER = {"P": Call.PASS, "D": Call.DOUBLE, "R": Call.REDOUBLE}
#: The letter LIN writes for pass, double and redouble.
LETTER_OF_CALL = {call: letter.lower() for letter, call in CALL_OF_LETTER.items()}
#: ``sv|``'s letters (lowercase) as vulnerabilities.
VUL_OF_LETTER = {"o": Vulnerability.NONE, "0": Vulnerability.NONE, "-": Vulnerability.NONE}
VUL_OF_LETTER |= {"n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.BOTH}
#: The letter ``sv|`` is written with.
LETTER_OF_VUL = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
#: LIN's hand order S, W, N, E as DDS seats (``md|``'s dealer digit is the index + 1).
LIN_SEATS = (Seat.S, Seat.W, Seat.N, Seat.E)
#: The PBN tags of ``pn|``'s names, in its order S, W, N, E.
NAME_TAGS = ("South", "West", "North", "East")
#: Display commands (heading reset, small text, page break): skipped when read.
DISPLAY_TAGS = ("rh", "st", "pg")
#: Tags that open a new board once the board being read has its deal.
HEADER_TAGS = ("qx", "pn", "vg", "mn", "rs", "pw", "px", "mp", "bn")
_ROOMS = {"o": "Open", "c": "Closed"}
#: Tags that only a board with a deal can hold.
BOARD_TAGS = ("qx", "md", "sv", "ah", "mb", "an", "pc", "mc", "up")
#: The PBN tags a ``vg|`` holds: its fields 1 (the event), 6 and 8 (the teams).
MATCH_FIELDS = {"Event": 0, "HomeTeam": 5, "VisitTeam": 7}

#: ``qx|o12|`` (BBO) or ``qx|o1,BOARD 1|`` (Bridge Composer): room letter, board number, any text after a comma.
_QX = re.compile(r"\s*([ocOC]?)(\d+)\s*(?:,.*)?", re.DOTALL)
#: ``ah|Board 12|``: a title that numbers the board.
_TITLE = re.compile(r"\s*board\s*(\d+)\s*", re.IGNORECASE)


def read_qx(value: str) -> tuple[str | None, int | None]:
    """The room (``"Open"``/``"Closed"``, None if unnamed) and board number of a ``qx|`` value (None if none)."""
    m = _QX.fullmatch(value)
    if not m:
        return None, None
    return (_ROOMS[m.group(1).lower()] if m.group(1) else None), int(m.group(2))


def board_of_title(value: str) -> int | None:
    """The board number an ``ah|`` title gives (``"Board 12"``: 12), None when it gives none."""
    m = _TITLE.fullmatch(value)
    return int(m.group(1)) if m else None


def match_tags(value: str) -> dict[str, str]:
    """A ``vg|`` value's event and teams as PBN tags (``Event``, ``HomeTeam``, ``VisitTeam``), those it gives."""
    fields = value.split(",")
    return {tag: fields[i].strip() for tag, i in MATCH_FIELDS.items() if i < len(fields) and fields[i].strip()}


def lin_hand(deal: Deal, seat: Seat) -> str:
    """One hand as ``md|`` writes it: each suit letter S H D C followed by its ranks (``SAK2HQDCJT9``)."""
    holdings = deal.hand_text(seat).split(".")
    return "".join(SUITS[s] + h for s, h in enumerate(holdings))


@dataclass
class LinPair:
    """One ``tag|value|`` pair: the tag in lowercase, the value as written, the line it is on (from 0)."""

    tag: str
    value: str
    line: int


@dataclass
class LinBoard:
    """The pairs of one board, in file order."""

    pairs: list[LinPair] = field(default_factory=list)
    #: Headers after the file's last board (a ``pn|`` TMPbn2LinVG writes there): no board's, kept verbatim.
    trailer: list[LinPair] = field(default_factory=list)

    @property
    def has_deal(self) -> bool:
        """Whether the board holds an ``md|``."""
        return any(p.tag == "md" for p in self.pairs)

    def place(self) -> tuple[int | None, str | None]:
        """The board number (``ah|``'s title, else ``qx|``'s) and room (``"open"``/``"closed"``) it gives, or None."""
        number: int | None = None
        room: str | None = None
        for p in self.pairs:
            if p.tag == "ah" and (titled := board_of_title(p.value)) is not None:
                number = titled
            if p.tag == "qx" and (qx := read_qx(p.value))[1] is not None:
                number = qx[1] if number is None else number
                room = qx[0].lower() if qx[0] else None
        return number, room


#: Text read before it is dropped from :func:`lin_pairs`' buffer (characters): slicing stays rare.
_KEEP = 1 << 16
#: A deal pair, as a message counts the deals before a position (record 3: the third deal before it).
_MD = re.compile(r"(?:^|\|)\s*md\|", re.IGNORECASE)


def lin_pairs(pieces: Iterable[str], name: str) -> Iterator[LinPair]:
    """The ``tag|value|`` pairs of LIN text given in pieces (split anywhere), each as soon as it is read.

    The text read whole is one piece; a file, its blocks decoded
    (:func:`lin_pieces`).  Memory is a piece and the longest pair.  Text that
    is no pair raises ``FormatError`` with ``path`` ``name``, its ``line``
    (from 1) and the record it falls in (the deals :data:`_MD` finds before
    it; none before the first), its character offset in the whole text in
    the message.
    """
    it = iter(pieces)
    buf = ""  # the text from character `base` on; when base > 0 it starts with the '|' ending a pair
    base = 0
    deals, scan = 0, 0  # deal pairs (_MD) in the text dropped, and where _MD's scan of buf resumes
    pos, line, done = 0, 0, False

    def more() -> bool:
        nonlocal buf, done
        for piece in it:
            if piece:
                buf += piece
                return True
        done = True
        return False

    def fault(at: int, text: str, why: str) -> FormatError:
        found = deals + sum(1 for _ in _MD.finditer(buf, scan, at))
        first = "" if found else ", before the first board"
        return FormatError(
            f"{text[:20]!r} (character {base + at}{first}) {why}",
            index=found - 1 if found else None,
            path=name,
            line=line + buf.count("\n", pos, at) + 1,
        )

    while True:
        if pos >= len(buf) and (done or not more()):
            break
        if pos > _KEEP and buf[pos - 1] == "|":  # drop what is read, counting its deals as fault() would
            last = -1
            for m in _MD.finditer(buf, scan, pos):
                deals, last = deals + 1, m.end()
            buf, base, scan = buf[pos - 1 :], base + pos - 1, int(last == pos)
            pos = 1
        space = _SPACE.match(buf, pos)
        start = space.end() if space else pos
        if start == len(buf) and not done:
            more()
            continue
        if buf.startswith("%", start) and not buf[buf.rfind("\n", 0, start) + 1 : start].strip():
            # A comment line (BBO Helper heads its LIN files "% Generated by BBO Helper"): skipped.
            eol = buf.find("\n", start)
            if eol < 0 and not done:
                more()
                continue
            line += buf.count("\n", pos, start)
            pos = len(buf) if eol < 0 else eol
            continue
        bar = buf.find("|", pos)
        if bar < 0:
            if not done:
                more()
                continue
            rest = buf[pos:].strip()
            if rest:
                raise fault(start, rest, "is not a tag|value| pair")
            break
        raw = buf[pos:bar]
        tag = raw.strip()
        if not _TAG.fullmatch(tag):
            raise fault(start, tag, "is not a two-letter tag")
        end = buf.find("|", bar + 1)
        if end < 0 and not done:
            more()
            continue
        line += raw.count("\n")
        if end < 0:  # the file's last '|' missing
            value, pos = buf[bar + 1 :].rstrip("\r\n"), len(buf)
        else:
            value, pos = buf[bar + 1 : end], end + 1
        yield LinPair(tag.lower(), value, line)
        line += value.count("\n")


#: Tags of a board's auction and play: a line with one of them before its ``md|`` does not open a board.
_PLAYED = ("mb", "an", "pc", "mc", "up")


def lin_boards(pairs: Iterable[LinPair]) -> Iterator[LinBoard]:
    """The boards of a stream of pairs, each as soon as the next has its deal (or the text ends).

    A line opens a board when it holds a deal and nothing of the board before
    (calls, cards, a claim) comes ahead of that deal on the line:
    "ah|Board 2|md|..." does; "pc|SA|...|qx|o2|md|..." does not (there qx|
    opens the next board).  Pairs after the last board that no board can
    hold (headers) are its ``trailer``.  Memory is a board and the pairs of
    a line up to its first deal or call.
    """
    source = iter(pairs)
    ahead: deque[LinPair] = deque()

    def deal_line(first: LinPair) -> bool:
        """Whether the line ``first`` starts holds a deal before any call, card or claim."""
        k = 0
        p: LinPair | None = first
        while p is not None and p.line == first.line:
            if p.tag == "md":
                return True
            if p.tag in _PLAYED:
                return False
            if k == len(ahead):
                p = next(source, None)
                if p is not None:
                    ahead.append(p)
            else:
                p = ahead[k]
            k += 1
        return False

    pending: LinBoard | None = None  # a board ended, held until the next has its deal: the trailer may be its
    cur = LinBoard()
    previous_line = -1
    while True:
        p = ahead.popleft() if ahead else next(source, None)
        if p is None:
            break
        new_line = p.line != previous_line and deal_line(p)
        if cur.has_deal and (p.tag in HEADER_TAGS or p.tag == "md" or new_line):
            if pending is not None:
                yield pending
            pending, cur = cur, LinBoard()
        cur.pairs.append(p)
        previous_line = p.line
        if pending is not None and cur.has_deal:
            yield pending
            pending = None
    if cur.pairs and pending is not None and not cur.has_deal and all(p.tag not in BOARD_TAGS for p in cur.pairs):
        pending.trailer = cur.pairs  # headers after the last board: nobody's, kept to write back
        cur = LinBoard()
    if pending is not None:
        yield pending
    if cur.pairs:
        yield cur


def lin_encoding(f: IO[bytes]) -> str:
    """The encoding of an open LIN file from where it stands: ``"utf-8"`` when its bytes (after a byte-order
    mark, which is skipped) are valid UTF-8, else ``"latin-1"``; decided by one pass a block at a time.

    The file is left after the byte-order mark, where its text starts.
    """
    start = f.tell()
    if f.read(len(_BOM)) != _BOM:
        f.seek(start)
    start = f.tell()
    check = Utf8Check()
    while data := f.read(TEXT_BLOCK):
        if not check.feed(data):
            break
    f.seek(start)
    return "utf-8" if check.feed(b"", final=True) else "latin-1"


def lin_pieces(f: IO[bytes]) -> Iterator[str]:
    """The text of an open binary LIN file, decoded a block (:data:`TEXT_BLOCK` bytes) at a time.

    The encoding is decided first for the whole file (:func:`lin_encoding`),
    so every block decodes as the file read whole would.
    """
    encoding = lin_encoding(f)
    return codecs.iterdecode(iter(lambda: f.read(TEXT_BLOCK), b""), encoding)
