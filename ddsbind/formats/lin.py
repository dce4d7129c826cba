"""Bridge Base Online's LIN hand records, read into and written from :class:`~ddsbind.formats.pbngame.GameRecord`.

No DDS calls here; the rules of play are :mod:`ddsbind.game`'s.

Layout (as BBO writes its hand records and handviewer links)
-------------------------------------------------------------
* A LIN text is a sequence of ``tag|value|`` pairs: a tag is two letters
  (read in any case), its value runs to the next ``|``.  Whitespace and line
  breaks between pairs are ignored except as board separators (below); the
  last ``|`` of a file may be missing.  Text is UTF-8 (ISO-8859-1 when it is
  not valid UTF-8).
* Boards: a file holds any number, one per line or a whole session on one
  line.  Once the board being read has its ``md|``, a new board starts at
  ``qx|``, at the next ``md|`` and at a line break; tags before a board's
  ``md|`` (a vugraph header ``vg|``, ``pn|``, ``qx|``) belong to it.
* ``md|`` the deal: a dealer digit **1=S 2=W 3=N 4=E**, then the hands
  separated by ``,`` in the order **S, W, N, E** (always from South,
  whoever deals).  A hand is suit letters ``S H D C`` each followed by its
  ranks (``AKQJT98765432``, ``10`` read as ``T``); the fourth hand may be
  empty or missing (it holds the cards the other three do not).
* ``sv|`` vulnerability: ``o`` (also ``0``, ``-``) none, ``n`` NS, ``e``
  EW, ``b`` both.
* ``ah|Board N|`` the board number (another title is kept in the tag
  ``LinTitle``); ``qx|o12|`` (room ``o``/``c`` and board) is kept in the tag
  ``LinQx`` and gives the board number when there is no ``ah|``.
* ``mb|`` one call, in bidding order from the dealer: ``p`` pass, ``d``
  double, ``r`` redouble, ``1c`` .. ``7n`` (``n`` or ``nt`` notrump); a
  trailing ``!`` is an alert (call mark 1).  ``an|text|`` annotates the call
  before it; annotations are kept in the tag ``LinAnnotations`` as
  ``index:text`` items (0-based call index) joined by ``|``.
* ``pc|`` one card (``SA``, ``h10``), in play order from the opening lead,
  each checked by :class:`ddsbind.game.Play`.  ``mc|N|`` a claim: declarer's
  side takes N tricks in all (the ``result``); the play stops there.
* The contract and declarer are derived from the auction (the last bid, its
  doubles, the first of declaring side to name the strain); four passes is
  ``Pass``.  The result is the claim, else the tricks of a complete play.
* ``pn|`` player names S, W, N, E (comma separated) go to the tags
  ``South``, ``West``, ``North``, ``East`` and hold for later boards until
  the next ``pn|``; more than four names (both rooms: open S W N E, then
  closed S W N E) are kept whole in ``LinPlayers``, and a closed-room board
  (``qx|c..|``) takes the second four.
* ``nt|`` commentary is kept in the tag ``LinNotes`` (joined by ``|``).
  ``rh|``, ``st|`` and ``pg|`` (heading reset, small text, page break) are
  display commands and skipped.  Any other tag (``vg|``, ``sk|``, ...) is
  kept verbatim, in order, in the tag ``LinOther`` and written back.

Writing gives one board a line: ``qx|`` (if kept), ``pn|`` (if any name),
``st||md|...|rh||ah|Board N|sv|...|``, the calls (``!`` for any call mark,
``an|`` after an annotated call), ``pg||``, the cards, ``mc|N|`` when the
result is known and the play is not complete, then ``nt|`` and the other
kept tags.  All four hands are written.

In memory seats are :class:`~ddsbind.deal.Seat` in DDS order (N=0 E=1 S=2
W=3); LIN's hand index i (0=S 1=W 2=N 3=E) and dealer digit i+1 are DDS
seat ``(i + 2) % 4``.  A malformed board raises
:class:`~ddsbind.errors.FormatError` naming the board (its position in the
file, ``index``, and its number when known) and the tag; text that is no
``tag|value|`` pair gives its character offset (``offset``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ddsbind.deal import RANKS, SUITS, Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, Error, FormatError
from ddsbind.formats.pbngame import GameRecord, closing_passes
from ddsbind.game import Play, Vulnerability

__all__ = ["contract_of_auction", "format_lin", "parse_lin"]

_TAG = re.compile(r"[A-Za-z]{2}")
_CALL = re.compile(r"^(P|PASS|D|X|R|XX|[1-7](?:NT|N|S|H|D|C))(!?)$", re.IGNORECASE)
_VUL = {"o": Vulnerability.NONE, "0": Vulnerability.NONE, "-": Vulnerability.NONE}
_VUL |= {"n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.BOTH}
_VUL_LETTER = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
#: LIN's hand order S, W, N, E as DDS seats.
_LIN_SEATS = (Seat.S, Seat.W, Seat.N, Seat.E)
_NAME_TAGS = ("South", "West", "North", "East")
_SKIPPED = ("rh", "st", "pg")


def _lin_seat(i: int) -> Seat:
    """LIN hand index 0..3 (S W N E) as a DDS seat."""
    return Seat((i + 2) % 4)


@dataclass
class _Pair:
    tag: str
    value: str
    newline_before: bool


@dataclass
class _Board:
    pairs: list[_Pair] = field(default_factory=list)

    @property
    def has_deal(self) -> bool:
        return any(p.tag == "md" for p in self.pairs)


def _pairs(text: str, name: str) -> list[_Pair]:
    out: list[_Pair] = []
    pos, n = 0, len(text)
    while pos < n:
        bar = text.find("|", pos)
        if bar < 0:
            rest = text[pos:].strip()
            if rest:
                raise FormatError(f"{name}: {rest[:20]!r} (character {pos}) is not a tag|value| pair", offset=pos)
            break
        raw = text[pos:bar]
        tag = raw.strip()
        if not _TAG.fullmatch(tag):
            raise FormatError(f"{name}: {tag[:20]!r} (character {pos}) is not a two-letter tag", offset=pos)
        end = text.find("|", bar + 1)
        if end < 0:  # the file's last '|' missing
            value, pos = text[bar + 1 :].rstrip("\r\n"), n
        else:
            value, pos = text[bar + 1 : end], end + 1
        out.append(_Pair(tag.lower(), value, "\n" in raw or "\r" in raw))
    return out


def _boards(pairs: list[_Pair]) -> list[_Board]:
    boards: list[_Board] = []
    cur = _Board()
    for p in pairs:
        if cur.has_deal and (p.tag in ("qx", "md") or p.newline_before):
            boards.append(cur)
            cur = _Board()
        cur.pairs.append(p)
    if cur.pairs:
        boards.append(cur)
    return boards


def _decode(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    raw = bytes(data).removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


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
    if len(hands) < 4 or not hands[3].strip():
        full = (1 << 15) - 4  # ranks 2..14
        masks[_lin_seat(3)] = [full & ~(masks[0][s] | masks[1][s] | masks[2][s] | masks[3][s]) for s in range(4)]
    lengths = [sum(bin(x).count("1") for x in m) for m in masks]
    if lengths != [13, 13, 13, 13]:
        raise FormatError(
            "hands of " + ", ".join(f"{Seat(s).name} {lengths[s]}" for s in range(4)) + " cards; each needs 13"
        )
    return dealer, Deal(masks)


def _call(token: str) -> tuple[str, int]:
    m = _CALL.match(token.strip())
    if not m:
        raise FormatError(f"{token!r} is not a call (p, d, r, 1c .. 7n, optionally with '!')")
    c = m.group(1).upper()
    mark = 1 if m.group(2) else 0
    if c in ("P", "PASS"):
        return "Pass", mark
    if c in ("D", "X"):
        return "X", mark
    if c in ("R", "XX"):
        return "XX", mark
    return c[0] + ("NT" if c[1:] in ("N", "NT") else c[1:]), mark


def contract_of_auction(dealer: Seat | int, calls: Sequence[str]) -> tuple[str | None, Seat | None]:
    """The contract and declarer an auction reaches.

    Parameters
    ----------
    dealer : Seat or 0..3
        The seat of the first call (DDS order N=0 E=1 S=2 W=3).
    calls : sequence of str
        ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``.

    Returns
    -------
    (contract, declarer)
        E.g. ``("4HX", Seat.S)``; ``("Pass", None)`` after four passes;
        ``(None, None)`` when nobody has bid and the auction has not ended.
        The last bid decides even when the closing passes are missing.

    Examples
    --------
    >>> contract_of_auction(Seat.N, ["1S", "Pass", "4S", "X", "Pass", "Pass", "Pass"])
    ('4SX', <Seat.N: 0>)
    """
    last = next((k for k in range(len(calls) - 1, -1, -1) if calls[k] not in ("Pass", "X", "XX")), None)
    if last is None:
        return ("Pass", None) if len(calls) >= 4 else (None, None)
    bid = calls[last]
    doubles = "".join(c for c in calls[last + 1 :] if c in ("X", "XX"))
    doubled = "XX" if "XX" in doubles else ("X" if "X" in doubles else "")
    side = (int(dealer) + last) % 2
    strain = bid[1:]
    first = next(k for k in range(last + 1) if (int(dealer) + k) % 2 == side and calls[k][1:] == strain)
    return bid + doubled, Seat((int(dealer) + first) % 4)


class _Reader:
    """Reads one board's pairs into a :class:`GameRecord`."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def read(self, board: _Board) -> GameRecord:
        tags: dict[str, str] = {}
        dealer: Seat | None = None
        deal: Deal | None = None
        vul = Vulnerability.NONE
        number: int | None = None
        qx_board: int | None = None
        calls: list[str] = []
        marks: list[int] = []
        notes: list[str] = []
        comments: list[str] = []
        other: list[str] = []
        cards: list[Card] = []
        claim: int | None = None
        play: Play | None = None
        declarer: Seat | None = None
        contract: str | None = None
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
                    m = re.fullmatch(r"\s*board\s*(\d+)\s*", value, re.IGNORECASE)
                    if m:
                        number = int(m.group(1))
                    else:
                        tags["LinTitle"] = value
                elif tag == "qx":
                    tags["LinQx"] = value
                    m = re.fullmatch(r"\s*[ocOC]?(\d+)\s*", value)
                    qx_board = int(m.group(1)) if m else None
                elif tag == "pn":
                    names = value.split(",")
                    self.names.clear()
                    self.names.update({k: n for k, n in zip(_NAME_TAGS, names, strict=False) if n})
                    if len(names) > 4:
                        self.names["LinPlayers"] = value
                elif tag == "mb":
                    if cards or claim is not None:
                        raise FormatError("a call after the play began")
                    if calls and closing_passes(calls) == 0:
                        raise FormatError(f"a call after the auction ended ({' '.join(calls[-4:])})")
                    call, mark = _call(value)
                    if call in ("X", "XX") and all(c == "Pass" for c in calls):
                        raise FormatError(f"{call} before any bid")
                    calls.append(call)
                    marks.append(mark)
                elif tag == "an":
                    if not calls:
                        raise FormatError("an annotation before any call")
                    notes.append(f"{len(calls) - 1}:{value}")
                elif tag == "pc":
                    if claim is not None:
                        raise FormatError("a card after the claim")
                    if play is None:
                        if deal is None or dealer is None:
                            raise FormatError("a card before the deal (md|)")
                        contract, declarer = contract_of_auction(dealer, calls)
                        if contract is None or contract == "Pass" or declarer is None:
                            raise FormatError("a card without a contract (the auction names none)")
                        play = Play(deal, Strain.parse(contract[1] if contract[1] != "N" else "NT"), declarer.next())
                    card = Card.parse(value.strip())
                    try:
                        play.play(card)
                    except DDSError as exc:
                        raise FormatError(f"card {len(cards) + 1}, {exc.reason or exc}") from None
                    cards.append(card)
                elif tag == "mc":
                    v = value.strip()
                    if not v.isdigit() or int(v) > 13:
                        raise FormatError(f"{value!r} is not a claim of 0..13 tricks")
                    if claim is not None:
                        raise FormatError("a second claim")
                    claim = int(v)
                elif tag == "nt":
                    comments.append(value)
                elif tag in _SKIPPED:
                    pass
                else:
                    other.append(f"{tag}|{value}|")
            except FormatError as exc:
                raise FormatError(f"tag {tag}|{value[:40]}|: {exc}") from None
            except (DDSError, ValueError) as exc:
                raise FormatError(f"tag {tag}|{value[:40]}|: {exc}") from None
        if deal is None:
            raise FormatError("no deal (md|)")
        rec = GameRecord(deal=deal, dealer=dealer, vulnerable=vul, board=number if number is not None else qx_board)
        rec.auction, rec.auction_marks = calls, marks
        assert dealer is not None
        rec.contract, rec.declarer = contract_of_auction(dealer, calls)
        rec.play = cards
        rec.play_marks = [0] * len(cards)
        players = dict(self.names)
        every = players.get("LinPlayers", "").split(",")
        if len(every) >= 8 and tags.get("LinQx", "").strip()[:1].lower() == "c":
            players.update({k: n for k, n in zip(_NAME_TAGS, every[4:8], strict=True) if n})  # the closed room
        tags.update(players)
        if notes:
            tags["LinAnnotations"] = "|".join(notes)
        if comments:
            tags["LinNotes"] = "|".join(comments)
        if other:
            tags["LinOther"] = "".join(other)
        rec.tags = tags
        if claim is not None:
            if rec.contract in (None, "Pass"):
                raise FormatError(f"tag mc|{claim}|: a claim without a contract")
            rec.result = claim
            try:
                rec.check_result()
            except FormatError as exc:
                raise FormatError(f"tag mc|{claim}|: {exc}") from None
        elif len(cards) == 52:
            rec.result = rec.declarer_tricks_played()
        return rec


def _label(k: int, board: _Board) -> str:
    for p in board.pairs:
        if p.tag == "ah":
            m = re.fullmatch(r"\s*board\s*(\d+)\s*", p.value, re.IGNORECASE)
            if m:
                return f"board {k + 1} of the file (Board {m.group(1)})"
    return f"board {k + 1} of the file"


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
        In file order; dealer, vulnerability, board, auction (with alert
        marks), contract and declarer (from the auction), play, result
        (claim or complete play) and kept tags.

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
    text = _decode(data)
    boards = _boards(_pairs(text, name))
    reader = _Reader({})
    out = []
    for k, board in enumerate(boards):
        if not board.has_deal:
            if all(p.tag in _SKIPPED for p in board.pairs):
                continue  # display commands after the last board
            tags = ", ".join(f"{p.tag}|" for p in board.pairs)
            raise FormatError(f"{name}: {_label(k, board)}: tags {tags} but no deal (md|)", index=k)
        try:
            out.append(reader.read(board))
        except FormatError as exc:
            raise FormatError(f"{name}: {_label(k, board)}: {exc}", index=k) from None
        except Error as exc:
            raise FormatError(f"{name}: {_label(k, board)}: {exc}", index=k) from None
    return out


# --------------------------------------------------------------------------
# Writing


def _hand_text(deal: Deal, seat: Seat) -> str:
    holdings = deal.to_pbn(seat)[2:].split(" ")[0].split(".")
    return "".join(SUITS[s] + h for s, h in enumerate(holdings))


def format_lin(games: Sequence[GameRecord]) -> str:
    """LIN text for game records, one board a line (see the module docstring).

    Raises
    ------
    FormatError
        A record without a full deal, without a dealer and a board number
        to take it from, or whose contract and declarer are not the ones its
        auction reaches (LIN has no contract but the auction's).
    """
    from ddsbind.formats._order import board_dealer

    lines = []
    for k, g in enumerate(games):
        if not g.deal.is_full:
            raise FormatError(f"LIN: game {k}: LIN needs a full deal (13 cards each)", index=k)
        dealer = g.dealer
        if dealer is None:
            if g.board is None:
                raise FormatError(f"LIN: game {k}: LIN needs a dealer (or a board number to take it from)", index=k)
            dealer = board_dealer(g.board)
        if g.contract is not None and contract_of_auction(dealer, g.auction) != (g.contract, g.declarer):
            said = contract_of_auction(dealer, g.auction)
            raise FormatError(
                f"LIN: game {k}: LIN takes the contract from the auction, and this auction "
                f"({' '.join(g.auction) or 'none'}) gives {said[0] or 'none'} by "
                f"{said[1].name if said[1] is not None else 'nobody'}, not {g.contract} by "
                f"{g.declarer.name if g.declarer is not None else 'nobody'}",
                index=k,
            )
        out: list[str] = []
        if "LinQx" in g.tags:
            out.append(f"qx|{g.tags['LinQx']}|")
        if "LinPlayers" in g.tags:
            out.append(f"pn|{g.tags['LinPlayers']}|")
        elif any(t in g.tags for t in _NAME_TAGS):
            out.append("pn|" + ",".join(g.tags.get(t, "") for t in _NAME_TAGS) + "|")
        digit = _LIN_SEATS.index(dealer) + 1
        out.append(f"st||md|{digit}" + ",".join(_hand_text(g.deal, s) for s in _LIN_SEATS) + "|rh||")
        if g.board is not None:
            out.append(f"ah|Board {g.board}|")
        elif "LinTitle" in g.tags:
            out.append(f"ah|{g.tags['LinTitle']}|")
        out.append(f"sv|{_VUL_LETTER[g.vulnerable]}|")
        notes: dict[int, list[str]] = {}
        for item in filter(None, g.tags.get("LinAnnotations", "").split("|")):
            idx, _, text = item.partition(":")
            if idx.isdigit():
                notes.setdefault(int(idx), []).append(text)
        marks = g.auction_marks or [0] * len(g.auction)
        for i, (c, m) in enumerate(zip(g.auction, marks, strict=True)):
            lin = {"Pass": "p", "X": "d", "XX": "r"}.get(c, c[0] + ("N" if c[1:] == "NT" else c[1:]))
            out.append(f"mb|{lin}{'!' if m else ''}|")
            out += [f"an|{t}|" for t in notes.get(i, [])]
        if g.auction:
            out.append("pg||")
        out += [f"pc|{c}|" for c in g.play]
        if g.result is not None and len(g.play) < 52 and not g.passed_out:
            out.append(f"mc|{g.result}|")
        out += [f"nt|{t}|" for t in g.tags["LinNotes"].split("|")] if "LinNotes" in g.tags else []
        out.append(g.tags.get("LinOther", ""))
        lines.append("".join(out))
    return "\n".join(lines) + ("\n" if lines else "")
