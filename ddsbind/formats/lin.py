"""Bridge Base Online's LIN hand records, read into and written from :class:`~ddsbind.record.GameRecord`.

No DDS calls here; the rules of play are :mod:`ddsbind.game`'s.

Layout (as BBO writes hand records, sessions, vugraph archives and handviewer links; as Bridge Composer exports)
--------------------------------------------------------------------------------------------------------------
* A LIN text is a sequence of ``tag|value|`` pairs: a tag is two letters
  (read in any case), its value runs to the next ``|``.  Whitespace and line
  breaks between pairs are ignored (a board may run over several lines: BBO's
  vugraph archives and Bridge Composer write one trick a line); the last
  ``|`` of a file may be missing.  Text is UTF-8 (ISO-8859-1 when it is not
  valid UTF-8).
* Boards: a file holds any number, a whole session on one line or one board
  over several.  Once the board being read has its ``md|``, a new board
  starts at a header tag (``qx|``, ``pn|``, ``vg|``, ``mn|``, ``rs|``, ...,
  :data:`HEADER_TAGS`), at the next ``md|``, or at the start of a line that
  holds an ``md|`` with no call, card or claim ahead of it on the line.  So
  headers before a board's deal belong to that board; headers after the
  file's last board (TMPbn2LinVG repeats the ``pn|`` there) belong to no
  board: they are kept verbatim in the last record's tag ``LinTrailer`` and
  written back after it, and change nobody's players.
* ``md|`` the deal: a dealer digit **1=S 2=W 3=N 4=E**, then the hands
  separated by ``,`` in the order **S, W, N, E** (always from South,
  whoever deals).  A hand is suit letters ``S H D C`` each followed by its
  ranks (``AKQJT98765432``, ``10`` read as ``T``); one hand may be empty
  (the fourth, as BBO writes it, also missing): it holds the cards the
  other three do not.
* ``sv|`` vulnerability: ``o`` (also ``0``, ``-``) none, ``n`` NS, ``e``
  EW, ``b`` both; absent, the board number's (as PBN's missing ``Vulnerable``).
* ``qx|o12|`` (BBO) or ``qx|o12,BOARD 12|`` (Bridge Composer): room (``o``
  open, ``c`` closed) and board, read by :func:`read_qx`.  The board number,
  and the tag ``Room`` (``Open``/``Closed``, as PBN names it); the value is
  kept whole in ``LinQx`` and written back.
* ``ah|Board 12|`` the title: it gives the board number (over ``qx|``'s);
  the title is kept whole in ``LinTitle`` and written back (renumbered if the
  record's board changed).  Without ``ah|`` none is written when ``qx|``
  gives the number.
* ``mb|`` one call, in bidding order from the dealer: ``p`` pass, ``d``
  double, ``r`` redouble, ``1c`` .. ``7n`` (``n`` or ``nt`` notrump); a
  trailing ``!`` is an alert (``alerts``).  ``an|text|`` explains the call
  before it: a note (``notes``, ``call_notes``); an empty ``an||`` alerts it.  The auction is checked by
  the rules (bids ascend, a double only of the opponents' bid, a redouble
  only of their double, nothing after the auction ended).
* ``pc|`` one card (``SA``, ``h10``), in play order from the opening lead,
  each checked by :class:`ddsbind.game.Play`.  ``mc|N|`` a claim: declarer's
  side takes N tricks in all (the ``result``); the play stops there.
* ``up|n|`` undo (our reading): the last ``n`` actions (calls, or cards once
  the play began; 1 when ``n`` is empty) are taken back, as if never made.
* The contract and declarer are derived from the auction (the last bid, its
  doubles, the first of declaring side to name the strain); four passes is
  ``Pass``.  The result is the claim, else the tricks of a complete play.
* ``pn|`` player names S, W, N, E (comma separated) go to the tags
  ``South``, ``West``, ``North``, ``East`` and hold for later boards until
  the next ``pn|``; more than four names (both rooms: open S W N E, then
  closed S W N E) are kept whole in ``LinPlayers``, and a closed-room board
  (``qx|c..|``) takes the second four.
* ``nt|`` commentary goes to ``commentary`` (PBN's ``{...}``) and its place,
  the number of calls and cards before it, to ``commentary_at``: written
  back at that place in the auction or play (a comment after a call or card
  an ``up|`` takes back stands after those kept, before the replacement).
  ``rh|``, ``st|`` and ``pg|`` (heading reset, small text, page break) are
  display commands and skipped.  Any other tag (``vg|``, ``mn|``, ``rs|``,
  ``sk|``, ...) is kept verbatim, in order: before the deal in the tag
  ``LinHeader``, after it in ``LinOther``; both are written back where they
  were.  A ``vg|``'s event (field 1) and teams (fields 6 and 8) are also
  the tags ``Event``, ``HomeTeam`` and ``VisitTeam`` of every board after
  it (:func:`match_tags`).

Writing gives one board a line: ``LinHeader`` (the file's first board
without a ``vg|`` in it: ``vg|`` from its ``Event``, ``HomeTeam`` and
``VisitTeam``), ``qx|`` (if kept, or
``qx|o12|`` from a ``Room`` tag), ``pn|`` (if any name: the names as the
record holds them now, in their room's four places of the eight-name list
read; a name with ``,`` or ``|``, which LIN cannot hold, is refused naming
the seat), ``st||md|...|rh||``,
``ah|`` (the kept title, or ``Board N`` when no ``qx|`` gives the number),
``sv|...|``, the calls (``!`` for an alerted call, ``an|`` after each of its
notes with text), ``pg||``, the cards, ``mc|N|`` when the result is known and
the play is not complete, commentary without a place (``nt|``),
``LinOther`` and ``LinTrailer``; commentary with a place stands at it.  All four hands are
written.  LIN has no mark for a good or bad call (PBN's ``!``/``?``), no
notes on cards, and no alert other than on a call: those are left out.

In memory seats are :class:`~ddsbind.deal.Seat` in DDS order (N=0 E=1 S=2
W=3); LIN's hand index i (0=S 1=W 2=N 3=E) and dealer digit i+1 are DDS
seat ``(i + 2) % 4``.  A malformed board raises
:class:`~ddsbind.errors.FormatError` naming the board (its position in the
file, ``index``, and its number when known) and the tag; text that is no
``tag|value|`` pair gives its character offset (``offset``).
"""

from __future__ import annotations

import codecs
import io
import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO

from ddsbind.deal import RANKS, SUITS, Card, Deal, Seat
from ddsbind.errors import ContractError, DDSError, Error, FormatError
from ddsbind.formats._common import TEXT_BLOCK, Utf8Check, set_aside, unsaid
from ddsbind.game import Play, Vulnerability
from ddsbind.record import (
    PASSED_OUT,
    GameRecord,
    auction_fault,
    contract_of_auction,
    contract_text,
    read_call,
)
from ddsbind.scoring import Call, Contract

__all__ = ["contract_of_auction", "format_lin", "iter_lin", "parse_lin", "read_qx", "write_lin_games"]

_TAG = re.compile(r"[A-Za-z]{2}")
_BOM = b"\xef\xbb\xbf"
_SPACE = re.compile(r"\s*")
#: LIN's letters for pass, double and redouble; bids are read by :func:`ddsbind.record.read_call`.
_CALL_LETTERS = {"P": Call.PASS, "D": Call.DOUBLE, "R": Call.REDOUBLE}
_LETTER_OF_CALL = {call: letter.lower() for letter, call in _CALL_LETTERS.items()}
_VUL = {"o": Vulnerability.NONE, "0": Vulnerability.NONE, "-": Vulnerability.NONE}
_VUL |= {"n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.BOTH}
_VUL_LETTER = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
#: LIN's hand order S, W, N, E as DDS seats.
_LIN_SEATS = (Seat.S, Seat.W, Seat.N, Seat.E)
_NAME_TAGS = ("South", "West", "North", "East")
_SKIPPED = ("rh", "st", "pg")
#: Tags that open a new board once the board being read has its deal.
HEADER_TAGS = ("qx", "pn", "vg", "mn", "rs", "pw", "px", "mp", "bn")
_ROOMS = {"o": "Open", "c": "Closed"}
#: Tags that only a board with a deal can hold.
_BOARD_TAGS = ("qx", "md", "sv", "ah", "mb", "an", "pc", "mc", "up")


#: ``qx|o12|`` (BBO) or ``qx|o1,BOARD 1|`` (Bridge Composer): room letter, board number, any text after a comma.
_QX = re.compile(r"\s*([ocOC]?)(\d+)\s*(?:,.*)?", re.DOTALL)


def read_qx(value: str) -> tuple[str | None, int | None]:
    """The room (``"Open"``/``"Closed"``, None if unnamed) and board number of a ``qx|`` value (None if none)."""
    m = _QX.fullmatch(value)
    if not m:
        return None, None
    return (_ROOMS[m.group(1).lower()] if m.group(1) else None), int(m.group(2))


def _lin_seat(i: int) -> Seat:
    """LIN hand index 0..3 (S W N E) as a DDS seat."""
    return Seat.S.next(i)


@dataclass
class _Pair:
    tag: str
    value: str
    line: int


@dataclass
class _Board:
    pairs: list[_Pair] = field(default_factory=list)
    #: Headers after the file's last board (a ``pn|`` TMPbn2LinVG writes there): no board's, kept verbatim.
    trailer: list[_Pair] = field(default_factory=list)

    @property
    def has_deal(self) -> bool:
        return any(p.tag == "md" for p in self.pairs)


#: Text read before it is dropped from :func:`_pairs`' buffer (characters): slicing stays rare.
_KEEP = 1 << 16
#: A deal pair, as a message counts the deals before a position ("board 3 of the file": the third deal before it).
_MD = re.compile(r"(?:^|\|)\s*md\|", re.IGNORECASE)


def _pairs(pieces: Iterable[str], name: str) -> Iterator[_Pair]:
    """The ``tag|value|`` pairs of LIN text given in pieces (split anywhere), each as soon as it is read.

    The text read whole is one piece; a file, its blocks decoded
    (:func:`iter_lin`).  Memory is a piece and the longest pair.  Text that
    is no pair raises ``FormatError`` naming its character offset in the
    whole text and the board before it (the deals :data:`_MD` finds before it).
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

    def where(at: int) -> str:
        found = deals + sum(1 for _ in _MD.finditer(buf, scan, at))
        return f"board {found} of the file" if found else "before the first board"

    while True:
        if pos >= len(buf) and (done or not more()):
            break
        if pos > _KEEP and buf[pos - 1] == "|":  # drop what is read, counting its deals as where() would
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
                raise FormatError(
                    f"{name}: {where(pos)}: {rest[:20]!r} (character {base + pos}) is not a tag|value| pair",
                    offset=base + pos,
                )
            break
        raw = buf[pos:bar]
        tag = raw.strip()
        if not _TAG.fullmatch(tag):
            raise FormatError(
                f"{name}: {where(pos)}: {tag[:20]!r} (character {base + pos}) is not a two-letter tag",
                offset=base + pos,
            )
        end = buf.find("|", bar + 1)
        if end < 0 and not done:
            more()
            continue
        line += raw.count("\n")
        if end < 0:  # the file's last '|' missing
            value, pos = buf[bar + 1 :].rstrip("\r\n"), len(buf)
        else:
            value, pos = buf[bar + 1 : end], end + 1
        yield _Pair(tag.lower(), value, line)
        line += value.count("\n")


#: Tags of a board's auction and play: a line with one of them before its ``md|`` does not open a board.
_PLAYED = ("mb", "an", "pc", "mc", "up")


def _boards(pairs: Iterable[_Pair]) -> Iterator[_Board]:
    """The boards of a stream of pairs, each as soon as the next has its deal (or the text ends).

    A line opens a board when it holds a deal and nothing of the board before
    (calls, cards, a claim) comes ahead of that deal on the line:
    "ah|Board 2|md|..." does; "pc|SA|...|qx|o2|md|..." does not (there qx|
    opens the next board).  Pairs after the last board that no board can
    hold (headers) are its ``trailer``.  Memory is a board and the pairs of
    a line up to its first deal or call.
    """
    source = iter(pairs)
    ahead: deque[_Pair] = deque()

    def deal_line(first: _Pair) -> bool:
        """Whether the line ``first`` starts holds a deal before any call, card or claim."""
        k = 0
        p: _Pair | None = first
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

    pending: _Board | None = None  # a board ended, held until the next has its deal: the trailer may be its
    cur = _Board()
    previous_line = -1
    while True:
        p = ahead.popleft() if ahead else next(source, None)
        if p is None:
            break
        new_line = p.line != previous_line and deal_line(p)
        if cur.has_deal and (p.tag in HEADER_TAGS or p.tag == "md" or new_line):
            if pending is not None:
                yield pending
            pending, cur = cur, _Board()
        cur.pairs.append(p)
        previous_line = p.line
        if pending is not None and cur.has_deal:
            yield pending
            pending = None
    if cur.pairs and pending is not None and not cur.has_deal and all(p.tag not in _BOARD_TAGS for p in cur.pairs):
        pending.trailer = cur.pairs  # headers after the last board: nobody's, kept to write back
        cur = _Board()
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


# --------------------------------------------------------------------------
# Reading


def _parse_hand(text: str, seat: Seat) -> list[int]:
    """Masks (S H D C; bit = rank) of one LIN hand."""
    masks = [0, 0, 0, 0]
    suit = -1
    t = text.strip().upper().replace("10", "T")
    for ch in t:
        if ch in SUITS:
            suit = SUITS.index(ch)
        elif ch in RANKS and suit >= 0:
            bit = 1 << (RANKS.index(ch) + 2)
            if masks[suit] & bit:
                raise FormatError(f"{seat.name}'s hand {text!r} holds {SUITS[suit]}{ch} twice")
            masks[suit] |= bit
        else:
            raise FormatError(f"{seat.name}'s hand {text!r}: {ch!r} is not a suit letter or a rank after one")
    return masks


def _parse_md(value: str) -> tuple[Seat, Deal]:
    v = value.strip()
    if not v or v[0] not in "1234":
        raise FormatError(f"{v[:1]!r} is not a dealer digit 1..4 (1=S 2=W 3=N 4=E)")
    dealer = _lin_seat(int(v[0]) - 1)
    hands = v[1:].split(",")
    if len(hands) > 4 or len(hands) < 3:
        raise FormatError(f"{len(hands)} hands; LIN gives S, W, N and E (the last may be left out)")
    masks = [[0, 0, 0, 0] for _ in range(4)]
    for i, h in enumerate(hands):
        masks[_lin_seat(i)] = _parse_hand(h, _lin_seat(i))
    for s in range(4):
        for a in range(4):
            for b in range(a + 1, 4):
                common = masks[a][s] & masks[b][s]
                if common:
                    rank = RANKS[common.bit_length() - 3]
                    raise FormatError(f"{SUITS[s]}{rank} is in both {Seat(a).name}'s and {Seat(b).name}'s hands")
    empty = [i for i in range(4) if i >= len(hands) or not hands[i].strip()]
    if len(empty) == 1:  # the one hand left out holds the rest (BBO leaves out the fourth; a handviewer, any)
        full = (1 << 15) - 4  # ranks 2..14
        seat = _lin_seat(empty[0])
        masks[seat] = [full & ~(masks[0][s] | masks[1][s] | masks[2][s] | masks[3][s]) for s in range(4)]
    lengths = [sum(bin(x).count("1") for x in m) for m in masks]
    if lengths != [13, 13, 13, 13]:
        raise FormatError(
            "hands of " + ", ".join(f"{Seat(s).name} {lengths[s]}" for s in range(4)) + " cards; each needs 13"
        )
    return dealer, Deal(masks)


def _call(token: str) -> tuple[Call, int]:
    t = token.strip()
    mark = 1 if t.endswith("!") else 0
    t = t.removesuffix("!").upper()
    try:
        return _CALL_LETTERS.get(t) or read_call(t), mark
    except ContractError:
        raise FormatError(f"{token!r} is not a call (p, d, r, 1c .. 7n, optionally with '!')") from None


#: Pairs that, unreadable, are kept as written and named (:func:`ddsbind.formats._common.set_aside`), the
#: board read without them: the vulnerability, a claim.  Any other fault refuses the file.
_SET_ASIDE = ("sv", "mc")


class _Reader:
    """Reads one board's pairs into a :class:`GameRecord` (player names carry over from board to board)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.match: dict[str, str] = {}  # the last vg|'s event and teams, for every board after it

    def read(self, board: _Board) -> GameRecord:
        tags: dict[str, str] = {}
        dealer: Seat | None = None
        deal: Deal | None = None
        vul: Vulnerability | None = None  # sv| unsaid (or unreadable): the board number's, once it is known
        number: int | None = None
        qx_board: int | None = None
        calls: list[Call] = []
        alerts: set[int] = set()
        call_notes: dict[int, list[int]] = {}
        notes: dict[int, str] = {}
        comments: list[str] = []
        comments_at: list[int] = []
        header: list[str] = []
        other: list[str] = []
        cards: list[Card] = []
        claim: int | None = None
        play: Play | None = None
        for p in board.pairs:
            tag, value = p.tag, p.value
            try:
                if tag == "md":
                    if deal is not None:
                        raise FormatError("a second deal in one board")
                    dealer, deal = _parse_md(value)
                elif tag == "sv":
                    key = value.strip().lower()
                    if key not in _VUL:
                        raise FormatError(f"{value!r} is not o, n, e or b")
                    vul = _VUL[key]
                elif tag == "ah":
                    tags["LinTitle"] = value
                    m = re.fullmatch(r"\s*board\s*(\d+)\s*", value, re.IGNORECASE)
                    if m:
                        number = int(m.group(1))
                elif tag == "qx":
                    tags["LinQx"] = value
                    room, qx_board = read_qx(value)
                    if room is not None:
                        tags["Room"] = room
                elif tag == "pn":
                    names = value.split(",")
                    self.names.clear()
                    self.names.update({k: n for k, n in zip(_NAME_TAGS, names, strict=False) if n})
                    if len(names) > 4:
                        self.names["LinPlayers"] = value
                elif tag == "mb":
                    if cards or claim is not None:
                        raise FormatError("a call after the play began")
                    call, mark = _call(value)
                    fault = auction_fault([*calls, call], dealer)
                    if fault is not None:
                        raise FormatError(fault)
                    if mark:
                        alerts.add(len(calls))
                    calls.append(call)
                elif tag == "an":
                    if not calls:
                        raise FormatError("an explanation before any call")
                    if value.strip():
                        n = max(notes, default=0) + 1
                        notes[n] = value
                        call_notes.setdefault(len(calls) - 1, []).append(n)
                    else:  # an empty explanation alerts the call (BBO Helper reads it so)
                        alerts.add(len(calls) - 1)
                elif tag == "pc":
                    if claim is not None:
                        raise FormatError("a card after the claim")
                    if play is None:
                        play = self._start_play(deal, dealer, calls)
                    card = Card.parse(value.strip())
                    try:
                        play.play(card)
                    except DDSError as exc:
                        raise FormatError(f"card {len(cards) + 1}, {exc.reason or exc}") from None
                    cards.append(card)
                elif tag == "up":
                    v = value.strip() or "1"
                    if not v.isdigit() or int(v) < 1:
                        raise FormatError(f"{value!r} is not a count of actions to undo")
                    undo = int(v)
                    if claim is not None:
                        raise FormatError("an undo after the claim")
                    # a comment after an undone action stands before its replacement, as the file has it
                    comments_at = [min(a, len(calls) + len(cards) - undo) for a in comments_at]
                    if cards:
                        if undo > len(cards):
                            raise FormatError(f"undoes {undo} cards, {len(cards)} were played")
                        del cards[len(cards) - undo :]
                        play = self._start_play(deal, dealer, calls)
                        for c in cards:
                            play.play(c)
                    else:
                        if undo > len(calls):
                            raise FormatError(f"undoes {undo} calls, {len(calls)} were made")
                        del calls[len(calls) - undo :]
                        alerts = {k for k in alerts if k < len(calls)}
                        for k in [k for k in call_notes if k >= len(calls)]:
                            for n in call_notes.pop(k):
                                del notes[n]
                elif tag == "mc":
                    v = value.strip()
                    if not v.isdigit() or int(v) > 13:
                        raise FormatError(f"{value!r} is not a claim of 0..13 tricks")
                    if deal is None:  # kept where it stands (the header), so it reads back the same
                        raise FormatError("a claim before the deal (md|)")
                    if claim is not None:
                        raise FormatError("a second claim")
                    claim = int(v)
                elif tag == "nt":
                    comments.append(value)
                    comments_at.append(len(calls) + len(cards))
                elif tag in _SKIPPED:
                    pass
                else:
                    if tag == "vg":
                        self.match = match_tags(value)
                    (other if deal is not None else header).append(f"{tag}|{value}|")
            except (FormatError, DDSError, ValueError) as exc:
                if tag not in _SET_ASIDE:
                    raise FormatError(f"tag {tag}|{value[:40]}|: {exc}") from None
                # a vulnerability or claim that cannot be used: kept as written, named once
                set_aside(number if number is not None else qx_board, f"{tag}|", value, str(exc))
                (other if deal is not None else header).append(f"{tag}|{value}|")
        if deal is None or dealer is None:
            raise FormatError("no deal (md|)")
        number = number if number is not None else qx_board
        rec = GameRecord(deal=deal, dealer=dealer, vulnerable=unsaid(number)[1] if vul is None else vul, board=number)
        rec.auction, rec.auction_marks = calls, [0] * len(calls)
        rec.alerts, rec.notes, rec.call_notes = alerts, notes, call_notes
        rec.commentary, rec.commentary_at = comments, comments_at
        rec.contract, rec.declarer = contract_of_auction(dealer, calls)
        rec.play = cards
        rec.play_marks = [0] * len(cards)
        players = dict(self.names)
        every = players.get("LinPlayers", "").split(",")
        if len(every) >= 8 and tags.get("Room") == "Closed":
            players.update({k: n for k, n in zip(_NAME_TAGS, every[4:8], strict=True) if n})  # the closed room
        tags.update(players)
        tags.update({k: v for k, v in self.match.items() if k not in tags})
        if header:
            tags["LinHeader"] = "".join(header)
        if other:
            tags["LinOther"] = "".join(other)
        if board.trailer:
            tags["LinTrailer"] = "".join(f"{p.tag}|{p.value}|" for p in board.trailer)
        rec.tags = tags
        if claim is not None:
            rec.result = claim
            try:
                if not isinstance(rec.contract, Contract):
                    raise FormatError("a claim without a contract")
                rec.check_result()
            except FormatError as exc:  # the claim set aside (kept as written), the board read without it
                rec.result = None
                set_aside(rec.board, "mc|", str(claim), exc.message)
                rec.tags["LinOther"] = rec.tags.get("LinOther", "") + f"mc|{claim}|"
        elif len(cards) == 52:
            rec.result = rec.declarer_tricks_played()
        return rec

    @staticmethod
    def _start_play(deal: Deal | None, dealer: Seat | None, calls: list[Call]) -> Play:
        if deal is None or dealer is None:
            raise FormatError("a card before the deal (md|)")
        contract, declarer = contract_of_auction(dealer, calls)
        if not isinstance(contract, Contract) or declarer is None:
            raise FormatError("a card without a contract (the auction names none)")
        return Play(deal, contract.strain, declarer.lho)


def _label(k: int, board: _Board) -> str:
    """``board 3 of the file (Board 12, closed room)`` from its ``ah|`` or ``qx|``."""
    number, room = None, ""
    for p in board.pairs:
        m = re.fullmatch(r"\s*board\s*(\d+)\s*", p.value, re.IGNORECASE) if p.tag == "ah" else None
        if m:
            number = m.group(1)
        named, qx_board = read_qx(p.value) if p.tag == "qx" else (None, None)
        if qx_board is not None:
            number = number or str(qx_board)
            room = f", {named.lower()} room" if named else ""
    return f"board {k + 1} of the file" + (f" (Board {number}{room})" if number else "")


def parse_lin(data: str | bytes, *, name: str = "LIN") -> list[GameRecord]:
    """Parse LIN text into game records, one per board (the layout is the module docstring's).

    Parameters
    ----------
    data : str or bytes
        The file's text or bytes.
    name : str
        The file's name, for messages.

    Returns
    -------
    list of GameRecord
        In file order; dealer, vulnerability, board, auction (with alerts
        and explanations), contract and declarer (from the auction), play,
        result (claim or complete play) and kept tags.

    Raises
    ------
    FormatError
        A malformed board, naming the board (``index``: 0-based position in
        the file; its number when known) and the tag.

    Examples
    --------
    >>> text = "md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|ah|Board 1|"
    >>> parse_lin(text)[0].dealer
    <Seat.N: 0>
    """
    if isinstance(data, str):
        return list(_records([data], name))
    return list(iter_lin(io.BytesIO(bytes(data)), name))  # the encoding decided as for a file: lin_encoding


def iter_lin(f: IO[bytes], name: str = "LIN") -> Iterator[GameRecord]:
    """:func:`parse_lin` of an open binary file, board by board: memory is a block and a board, not the file.

    The encoding is decided first, as :func:`parse_lin` decides it for the
    whole file, by one pass over the bytes (:func:`lin_encoding`); then the
    text is decoded a block at a time and read board by board.  Errors are
    :func:`parse_lin`'s (the same board, tag and character offset), raised
    when the reading reaches them.
    """
    encoding = lin_encoding(f)
    yield from _records(codecs.iterdecode(iter(lambda: f.read(TEXT_BLOCK), b""), encoding), name)


def _records(pieces: Iterable[str], name: str) -> Iterator[GameRecord]:
    """The game records of LIN text given in pieces, each as soon as its board is read."""
    reader = _Reader({})
    for k, board in enumerate(_boards(_pairs(pieces, name))):
        if not board.has_deal:
            if all(p.tag in _SKIPPED for p in board.pairs):
                continue  # display commands after the last board
            tags = ", ".join(f"{p.tag}|" for p in board.pairs)
            raise FormatError(f"{name}: {_label(k, board)}: tags {tags} but no deal (md|)", index=k)
        try:
            rec = reader.read(board)
        except Error as exc:  # one line: a value cut by a missing '|' may hold a line break
            why = str(exc).replace("\r", "\\r").replace("\n", "\\n")
            raise FormatError(f"{name}: {_label(k, board)}: {why}", index=k) from None
        yield rec


# --------------------------------------------------------------------------
# Writing


def _hand_text(deal: Deal, seat: Seat) -> str:
    holdings = deal.hand_text(seat).split(".")
    return "".join(SUITS[s] + h for s, h in enumerate(holdings))


def write_lin_games(batches: Iterable[Sequence[GameRecord]], out: IO[bytes]) -> int:
    """Write batches of game records to ``out`` as LIN (UTF-8), :func:`format_lin` of each batch in turn:
    the bytes of :func:`format_lin` of them all, in memory of a batch; returns how many."""
    first = 0
    for games in batches:
        out.write(format_lin(games, first=first).encode("utf-8"))
        first += len(games)
    return first


def format_lin(games: Sequence[GameRecord], *, first: int = 0) -> str:
    """LIN text for game records, one board a line (see the module docstring).

    ``first`` is the place of ``games[0]`` in the file written (for messages
    naming a game, when a file is written a batch at a time).

    Raises
    ------
    FormatError
        A record without a full deal, without a dealer and a board number
        to take it from, or whose contract and declarer are not the ones its
        auction reaches (LIN has no contract but the auction's).
    """
    from ddsbind.formats._common import game_label

    lines = []
    for k, g in enumerate(games, start=first):
        if not g.deal.is_full:
            raise FormatError(f"LIN: {game_label(g.board, k)}: LIN needs a full deal (13 cards each)", index=k)
        dealer = g.dealer
        if dealer is None:
            if g.board is None:
                where = game_label(None, k)
                raise FormatError(f"LIN: {where}: LIN needs a dealer (or a board number to take it from)", index=k)
            dealer = Seat.dealer_of_board(g.board)
        said = contract_of_auction(dealer, g.auction)
        held = (g.contract, g.declarer)
        if held[0] is not None and said != held:
            wanted = contract_text(g.contract)
            raise FormatError(
                f"LIN: {game_label(g.board, k)}: LIN takes the contract from the auction, and this auction "
                f"({' '.join(map(str, g.auction)) or 'none'}) gives {said[0] or 'none'} by "
                f"{said[1].name if said[1] is not None else 'nobody'}, not {wanted} by "
                f"{g.declarer.name if g.declarer is not None else 'nobody'}",
                index=k,
            )
        out: list[str] = [g.tags.get("LinHeader", "")]
        if k == 0 and "vg|" not in out[0] and _match_line(g):  # the file's event and teams: LIN's vg| holds them
            out.insert(0, _match_line(g))
        qx = g.tags.get("LinQx")
        if qx is None and g.board is not None and g.tags.get("Room") in ("Open", "Closed"):
            qx = f"{g.tags['Room'][0].lower()}{g.board}"
        if qx is not None:
            out.append(f"qx|{qx}|")
        players = _players(g, k)
        if players is not None:
            out.append(f"pn|{players}|")
        digit = _LIN_SEATS.index(dealer) + 1
        out.append(f"st||md|{digit}" + ",".join(_hand_text(g.deal, s) for s in _LIN_SEATS) + "|rh||")
        out.append(_title(g, qx))
        out.append(f"sv|{_VUL_LETTER[g.vulnerable]}|")
        actions = len(g.auction) + len(g.play)
        at = [actions + 1 if a is None else a for a in g.commentary_places()]  # None: after the game
        placed = list(zip(g.commentary, at, strict=True))

        def comments(place: int, placed: list[tuple[str, int]] = placed, k: int = k) -> list[str]:
            return [f"nt|{_check_value(t, k)}|" for t, a in placed if a == place]

        for i, c in enumerate(g.auction):
            out += comments(i)
            lin = _LETTER_OF_CALL.get(c, str(c).removesuffix("T"))
            out.append(f"mb|{lin}{'!' if i in g.alerts else ''}|")
            out += [f"an|{_check_value(g.notes[n], k)}|" for n in g.call_notes.get(i, []) if g.notes.get(n)]
        if g.auction:
            out.append("pg||")
        for j, card in enumerate(g.play):
            out += comments(len(g.auction) + j)
            out.append(f"pc|{card}|")
        out += comments(actions)
        if g.result is not None and len(g.play) < 52 and g.contract is not PASSED_OUT:
            out.append(f"mc|{g.result}|")
        out += comments(actions + 1)
        out.append(g.tags.get("LinOther", ""))
        out.append(g.tags.get("LinTrailer", ""))
        lines.append("".join(out))
    return "\n".join(lines) + ("\n" if lines else "")


#: The PBN tags a ``vg|`` holds: its fields 1 (the event), 6 and 8 (the teams).
_MATCH_FIELDS = {"Event": 0, "HomeTeam": 5, "VisitTeam": 7}


def match_tags(value: str) -> dict[str, str]:
    """A ``vg|`` value's event and teams as PBN tags (``Event``, ``HomeTeam``, ``VisitTeam``), those it gives."""
    fields = value.split(",")
    return {tag: fields[i].strip() for tag, i in _MATCH_FIELDS.items() if i < len(fields) and fields[i].strip()}


def _match_line(g: GameRecord) -> str:
    """``vg|event,,I,,,home,0,visit,0|`` from a record's Event and teams ('' when it has none, or one LIN cannot hold).

    The board range and carry-over (fields 4-5, 7, 9) are not known from
    one record: left empty and 0; the scoring (field 3) is ``P`` for a
    pairs event (``Scoring`` MP), else ``I``.
    """
    values = {tag: g.tags.get(tag, "") for tag in _MATCH_FIELDS}
    if not any(values.values()) or any("," in v or "|" in v or "\n" in v for v in values.values()):
        return ""
    scoring = "P" if g.tags.get("Scoring", "").upper().startswith("MP") else "I"
    return f"vg|{values['Event']},,{scoring},,,{values['HomeTeam']},0,{values['VisitTeam']},0|\n"


def _players(g: GameRecord, k: int) -> str | None:
    """The ``pn|`` value: the names S, W, N, E from the tags (as edited), in the kept eight-name list if any.

    A board of the closed room (``Room`` ``Closed``) with eight names read has
    its names in the last four places; any other, in the first four.  A
    name holding ``,`` or ``|`` cannot be written (LIN has no escape for
    either): ``FormatError`` naming the seat.  None when no name is known.
    """
    for t in _NAME_TAGS:
        name = g.tags.get(t, "")
        if "," in name or "|" in name:
            raise FormatError(
                f"LIN: game {k}: {t}'s name {name[:40]!r} holds a {',' if ',' in name else '|'!r}, "
                "which LIN's pn| cannot hold (names are separated by ',' and the value ends at '|')",
                index=k,
            )
    names = [g.tags.get(t, "") for t in _NAME_TAGS]
    every = g.tags["LinPlayers"].split(",") if "LinPlayers" in g.tags else []
    if len(every) >= 4:
        slot = 4 if len(every) >= 8 and g.tags.get("Room") == "Closed" else 0
        every[slot : slot + 4] = names
        return ",".join(every)
    return ",".join(names) if any(names) else None


def _title(g: GameRecord, qx: str | None) -> str:
    """The ``ah|`` pair: the title read (renumbered to the record's board), or ``Board N`` unless ``qx|`` says it."""
    title = g.tags.get("LinTitle")
    if title is not None:
        m = re.fullmatch(r"(\s*board\s*)(\d+)(\s*)", title, re.IGNORECASE)
        if m and g.board is not None and int(m.group(2)) != g.board:
            title = f"{m.group(1)}{g.board}{m.group(3)}"
        return f"ah|{_check_value(title, -1)}|"
    _, qx_board = read_qx(qx or "")
    if g.board is None or qx_board == g.board:
        return ""
    return f"ah|Board {g.board}|"


def _check_value(text: str, k: int) -> str:
    """A LIN value as written: one with a ``|`` cannot be (it would end the value)."""
    if "|" in text:
        from ddsbind.formats._common import game_label

        where = f"{game_label(None, k)}: " if k >= 0 else ""
        raise FormatError(f"LIN: {where}{text[:40]!r} holds a '|', which LIN values cannot", index=max(k, 0))
    return text


def extras(games: Iterable[GameRecord]) -> list[str]:
    """What LIN game records hold beyond their deals, in words (for a warning when a conversion drops it).

    One pass, stopping once every word is found (a file is read only as far as it must be).
    """
    numbers = dealt = played = tagged = False
    for g in games:
        dealt = True
        numbers = numbers or g.board is not None
        played = played or bool(g.auction or g.play)
        tagged = tagged or any(t not in _DERIVED for t in g.tags)
        if numbers and played and tagged:
            break
    out = ["board numbers"] if numbers else []
    out += ["dealers", "vulnerability"] if dealt else []
    if played:
        out.append("auctions and play")
    if tagged:
        out.append("player names and other tags")
    return out


#: Tags a LIN record holds in its own pairs (written from the record's fields or kept whole).
_DERIVED = ("Room", "LinQx", "LinTitle", "LinPlayers", "LinHeader", "LinOther", "LinTrailer", *_NAME_TAGS)
#: PBN tags whose content LIN holds in its fields (the deal, the auction, ...).
_PBN_FIELDS = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")


def unheld(games: Sequence[GameRecord]) -> list[str]:
    """What of these game records LIN cannot hold, in words: other tags, notes on cards, PBN's ``!``/``?`` marks.

    Examples
    --------
    >>> from ddsbind.deal import Deal
    >>> deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    >>> unheld([GameRecord(deal, tags={"Event": "x"})])
    ['tags Event']
    """
    out = []
    tags: list[str] = []
    for g in games:
        tags += [t for t in g.tags if t not in _DERIVED and t not in _PBN_FIELDS and t not in tags]
    if games and _match_line(games[0]):  # the first record's event and teams go to vg|: held where all agree
        tags = [t for t in tags if t not in _MATCH_FIELDS or any(g.tags.get(t) != games[0].tags.get(t) for g in games)]
    if tags:
        out.append(f"tags {', '.join(tags[:4])}{', ...' if len(tags) > 4 else ''}")
    if any(g.card_notes for g in games):
        out.append("notes on cards")
    if any(any(g.auction_marks) or any(g.play_marks) for g in games):
        out.append("PBN's good/bad-call marks (! ?)")
    if any(g.sections for g in games):
        out.append("tables of other tags")
    return out
