"""LIN boards read into :class:`~ddsbind.record.GameRecord`: :func:`parse_lin` and :func:`iter_lin`.

The layout is :mod:`ddsbind.formats.lin`'s docstring; the text's pairs and
boards are :mod:`ddsbind.formats.lintext`'s.  No DDS calls; the rules of
play are :mod:`ddsbind.game`'s, the auction's :mod:`ddsbind.record`'s.

A malformed board raises :class:`~ddsbind.errors.FormatError` whose
fields say where: ``path`` (the ``name`` given), ``record`` (the board's
place in the file, from 1; ``index`` from 0), ``board`` and ``room`` (as
``ah|``/``qx|`` number it, when they do) and ``line`` (from 1, the line of
the pair at fault); the message says which tag and what is wrong:
``"x.lin: record 4 (Board 2, closed room), line 7: tag pc|s6|: card 10,
trick 3, 2nd card, S: S6 is a revoke ..."``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ddsbind.deal import RANKS, SUITS, Card, Deal, Seat
from ddsbind.errors import ContractError, DDSError, Error, FormatError
from ddsbind.formats._common import set_aside, unsaid
from ddsbind.formats.lintext import (
    CALL_OF_LETTER,
    DISPLAY_TAGS,
    LIN_SEATS,
    NAME_TAGS,
    VUL_OF_LETTER,
    LinBoard,
    board_of_title,
    lin_boards,
    lin_pairs,
    lin_pieces,
    match_tags,
    read_qx,
)
from ddsbind.game import Play, Vulnerability
from ddsbind.record import GameRecord, auction_fault, contract_of_auction, read_call
from ddsbind.scoring import Call, Contract

__all__ = ["iter_lin", "parse_lin"]


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
    dealer = LIN_SEATS[int(v[0]) - 1]
    hands = v[1:].split(",")
    if len(hands) > 4 or len(hands) < 3:
        raise FormatError(f"{len(hands)} hands; LIN gives S, W, N and E (the last may be left out)")
    masks = [[0, 0, 0, 0] for _ in range(4)]
    for i, h in enumerate(hands):
        masks[LIN_SEATS[i]] = _parse_hand(h, LIN_SEATS[i])
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
        seat = LIN_SEATS[empty[0]]
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
        return CALL_OF_LETTER.get(t) or read_call(t), mark
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
        #: The line (from 1) of the pair being read: where a fault of the board is.
        self.line: int | None = None

    def read(self, board: LinBoard) -> GameRecord:
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
        claim_line: int | None = None
        play: Play | None = None
        for p in board.pairs:
            tag, value = p.tag, p.value
            self.line = p.line + 1
            try:
                if tag == "md":
                    if deal is not None:
                        raise FormatError("a second deal in one board")
                    dealer, deal = _parse_md(value)
                elif tag == "sv":
                    key = value.strip().lower()
                    if key not in VUL_OF_LETTER:
                        raise FormatError(f"{value!r} is not o, n, e or b")
                    vul = VUL_OF_LETTER[key]
                elif tag == "ah":
                    tags["LinTitle"] = value
                    titled = board_of_title(value)
                    number = number if titled is None else titled
                elif tag == "qx":
                    tags["LinQx"] = value
                    room, qx_board = read_qx(value)
                    if room is not None:
                        tags["Room"] = room
                elif tag == "pn":
                    names = value.split(",")
                    self.names.clear()
                    self.names.update({k: n for k, n in zip(NAME_TAGS, names, strict=False) if n})
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
                    claim, claim_line = int(v), self.line
                elif tag == "nt":
                    comments.append(value)
                    comments_at.append(len(calls) + len(cards))
                elif tag in DISPLAY_TAGS:
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
            players.update({k: n for k, n in zip(NAME_TAGS, every[4:8], strict=True) if n})  # the closed room
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
            rec.result, self.line = claim, claim_line
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
        A malformed board, naming the tag in its message and where in its
        fields: ``path`` (``name``), ``record`` (the board's place in the
        file from 1; ``index`` from 0), ``board`` and ``room`` when the file
        numbers it, ``line`` from 1.

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
    whole file, by one pass over the bytes
    (:func:`~ddsbind.formats.lintext.lin_encoding`); then the text is
    decoded a block at a time and read board by board.  Errors are
    :func:`parse_lin`'s (the same record, board, line and character
    offset), raised when the reading reaches them.
    """
    yield from _records(lin_pieces(f), name)


def _records(pieces: Iterable[str], name: str) -> Iterator[GameRecord]:
    """The game records of LIN text given in pieces, each as soon as its board is read."""
    reader = _Reader({})
    for k, board in enumerate(lin_boards(lin_pairs(pieces, name))):
        number, room = board.place()
        at: dict[str, Any] = {"index": k, "path": name, "board": number, "room": room}
        if not board.has_deal:
            if all(p.tag in DISPLAY_TAGS for p in board.pairs):
                continue  # display commands after the last board
            tags = ", ".join(f"{p.tag}|" for p in board.pairs)
            raise FormatError(f"tags {tags} but no deal (md|)", line=board.pairs[0].line + 1, **at)
        try:
            rec = reader.read(board)
        except Error as exc:  # one line: a value cut by a missing '|' may hold a line break
            why = exc.message.replace("\r", "\\r").replace("\n", "\\n")
            raise FormatError(why, line=exc.line if exc.line is not None else reader.line, **at) from None
        yield rec
