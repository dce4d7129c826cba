"""ZRJ: a played deal in 80 bytes (Pavlicek; the details are our reading).

Pavlicek's page gives the field list only; no second source exists.  This is
our reading of it.  Unknown bits are never dropped: calls and plays are kept
as their raw bytes (punctuation bits included), and bytes after the last play
are kept in ``spare`` and written back, so ``encode(decode(b)) == b`` for
every record that decodes.

Byte-level specification
------------------------
====  ====================================================================
byte  content
====  ====================================================================
0-12  the deal, twos first: byte ``r`` holds rank ``r + 2`` (0 = twos ..
      12 = aces); within a byte, bits ``2s .. 2s+1`` are suit ``s`` with
      s = 0 C, 1 D, 2 H, 3 S; the value is the seat code 0 W, 1 N, 2 E, 3 S.
      (So the card's bit-pair index is ``4 * r + s``.)
13    board number - 1 (0..239).  240..255: no board number; dealer and
      vulnerability those of board ``(v mod 16) + 1``.
14    contract: 0 passed out; ``5 * level + strain`` (strain 0 C, 1 D, 2 H,
      3 S, 4 NT), so 1C = 5 .. 7NT = 39; +40 doubled, +80 redoubled.  1..4
      and >= 120 are invalid.
15    ``TTTTDDII`` from the high bit: TTTT tricks won by declarer (0..13),
      DD declarer seat code, II passes before the opening bid.
16    offset one past the last call (18 = no calls; at most 63).
17    offset one past the last play (at least byte 16, at most 80).
18..  calls, one byte each from the opening bid: bit 7 '?', bit 6 '!',
      bits 5-3 level (1-7; 0 for P X R), bits 2-0 strain/call (0 C 1 D 2 H
      3 S 4 NT 5 P 6 X 7 R).  Both punctuation bits set = alert/special.
then  plays, one byte each: bit 7 '?', bit 6 '!', bits 5-2 rank (0 = two
      .. 12 = ace), bits 1-0 suit (0 C 1 D 2 H 3 S); the low 6 bits are the
      card's bit-pair index in bytes 0-12.
rest  ``spare`` (zero when we write; kept verbatim when read).
====  ====================================================================

The 62 bytes for calls and plays cannot hold every auction with a full play,
so the play string may be truncated (a claim).  A record whose first 4 bytes
are zero ends a list: :func:`decode_zrj` stops there, as every reader of
records does (:func:`ddsbind.formats._common.end_of_list`).  Dealer and vulnerability of board ``b`` follow the
16-board cycle: dealer N E S W for ``(b - 1) mod 4`` = 0 1 2 3;
vulnerability None, NS, EW, Both, NS, EW, Both, None, EW, Both, None, NS,
Both, None, NS, EW.

In memory seats are DDS seats (N=0 E=1 S=2 W=3) and strains DDS strains
(S=0 H=1 D=2 C=3 NT=4), converted through :mod:`ddsbind.formats.order`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Card, Deal, Seat
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, order, zbd
from ddsbind.formats._common import apply_on_error, as_owners, end_of_list, records
from ddsbind.game import Vulnerability

__all__ = [
    "RECORD_SIZE",
    "PlayedDeal",
    "call_text",
    "check_records",
    "decode_zrj",
    "encode_zrj",
    "play_byte",
    "play_card",
    "zrj_owners",
]

RECORD_SIZE = _dtypes.ZRJ.itemsize
#: Offset of the first call (bytes 18..): public in the package, the game-record conversion sizes records by it.
FIRST_MOVE = 18
#: Largest offset one past the last call (so at most 45 call bytes).
MAX_CALLS_END = 63
#: The largest board number byte 13 holds (board - 1 = 0..239; 240..255 mean "no number").
MAX_BOARD = 240


def _pair_to_card() -> NDArray[np.intp]:
    k = np.arange(52)
    r, s = k // 4, k % 4  # rank 0 = two, suit 0 = clubs
    return (13 * order.dds_strains_from_bid(s).astype(np.intp) + (12 - r)).astype(np.intp)


#: Card index (SA=0 .. C2=51) of each ZRJ bit pair 0..51.
CARD_OF_PAIR = _pair_to_card()
_PAIR_OF_CARD = np.argsort(CARD_OF_PAIR).astype(np.intp)


def zrj_owners(recs: ArrayLike | bytes) -> NDArray[np.int8]:
    """Owner arrays ``(N, 52)`` int8 (DDS seats, cards SA..C2) of ZRJ records; no validation."""
    r = records(recs, RECORD_SIZE, "ZRJ")
    by_pair = zbd.owners_from_zbd(np.ascontiguousarray(r[:, :13]))
    return by_pair[:, _PAIR_OF_CARD]


def _deal_bytes(owners: NDArray[np.integer]) -> NDArray[np.uint8]:
    by_pair = np.asarray(owners)[:, CARD_OF_PAIR]
    return zbd.zbd_from_owners(by_pair)


def play_byte(card: Card | str, flags: int = 0) -> int:
    """The ZRJ play byte of a card, with punctuation ``flags`` (0..3) in bits 7-6."""
    c = Card.parse(card)
    return (flags & 3) << 6 | (c.rank - 2) << 2 | int(order.bid_strains(c.suit))


def play_card(byte: int) -> Card:
    """The card of a ZRJ play byte (punctuation bits ignored)."""
    rank = (byte >> 2) & 15
    if rank > 12:
        raise FormatError(f"play byte {byte:#04x} has rank code {rank} (0..12 allowed)")
    return Card(int(order.dds_strains_from_bid(byte & 3)), rank + 2)


def call_text(byte: int) -> str:
    """A call byte as text: ``1C`` .. ``7N``, ``P``, ``X``, ``R``, then ``?``/``!``/``*`` marks."""
    code, level = byte & 7, (byte >> 3) & 7
    marks = {0: "", 1: "!", 2: "?", 3: "*"}[byte >> 6]
    if code >= 5:
        if level:
            raise FormatError(f"call byte {byte:#04x}: P/X/R with level {level}")
        return "PXR"[code - 5] + marks
    if not 1 <= level <= 7:
        raise FormatError(f"call byte {byte:#04x}: bid with level {level}")
    return f"{level}{order.BID_STRAIN_LETTERS[code]}" + marks


@dataclass(eq=False)
class PlayedDeal:
    """One ZRJ record.

    Attributes
    ----------
    owners : ndarray, shape (52,), int8
        DDS seat of each card SA..C2.
    board_byte : int
        Byte 13 as stored (board - 1, or 240..255 for "no number").
    contract : int
        Byte 14 as stored (0 passed out, ``5*level+strain`` (+40 X, +80 XX)).
    tricks : int
        Tricks won by declarer.
    declarer : int
        DDS seat (N=0 E=1 S=2 W=3).
    initial_passes : int
        Passes before the opening bid (0..3).
    calls, plays : list of int
        Raw call and play bytes (punctuation bits included).
    spare : bytes
        Bytes after the last play, kept verbatim.
    """

    owners: NDArray[np.int8]
    board_byte: int = 0
    contract: int = 0
    tricks: int = 0
    declarer: int = 0
    initial_passes: int = 0
    calls: list[int] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)
    spare: bytes = b""

    @property
    def deal(self) -> Deal:
        """The deal as a :class:`~ddsbind.deal.Deal`."""
        return Deal.from_owners(self.owners)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayedDeal):
            return NotImplemented
        mine = (self.board_byte, self.contract, self.tricks, self.declarer, self.initial_passes)
        theirs = (other.board_byte, other.contract, other.tricks, other.declarer, other.initial_passes)
        return (
            mine == theirs
            and list(self.calls) == list(other.calls)
            and list(self.plays) == list(other.plays)
            and bytes(self.spare) == bytes(other.spare)
            and bool(np.array_equal(self.owners, other.owners))
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def board(self) -> int | None:
        """Board number 1..240, or None for bytes 240..255."""
        return self.board_byte + 1 if self.board_byte < MAX_BOARD else None

    @property
    def _cycle_board(self) -> int:
        # Bytes 240..255 stand for boards 1..16 of the cycle; 240 is a multiple of 16, so byte + 1 gives them.
        return int(self.board_byte) + 1

    @property
    def dealer(self) -> Seat:
        """Dealer (a DDS seat), from the 16-board cycle."""
        return Seat.dealer_of_board(self._cycle_board)

    @property
    def vulnerability(self) -> Vulnerability:
        """Who is vulnerable, from the 16-board cycle."""
        return Vulnerability.of_board(self._cycle_board)

    @property
    def level(self) -> int:
        """Contract level 1..7, 0 when passed out."""
        return (self.contract % 40) // 5

    @property
    def strain(self) -> int | None:
        """Contract strain as a DDS strain (S=0 H=1 D=2 C=3 NT=4), None when passed out."""
        if self.contract == 0:
            return None
        return int(order.dds_strains_from_bid((self.contract % 40) % 5))  # ZRJ: 0 C 1 D 2 H 3 S 4 NT

    @property
    def doubled(self) -> int:
        """0 undoubled, 1 doubled, 2 redoubled."""
        return self.contract // 40


def _check_record(r: bytes, i: int) -> None:
    def bad(msg: str, at: int) -> FormatError:
        return FormatError(f"ZRJ: {msg}", index=i, offset=i * RECORD_SIZE + at)

    c = r[14]
    if 1 <= c <= 4 or c >= 120:
        raise bad(f"contract byte {c} is invalid (0, or 5..119)", 14)
    if r[15] >> 4 > 13:
        raise bad(f"declarer won {r[15] >> 4} tricks (at most 13)", 15)
    calls_end, plays_end = r[16], r[17]
    if not FIRST_MOVE <= calls_end <= MAX_CALLS_END:
        raise bad(f"end of calls {calls_end} is outside 18..63", 16)
    if not calls_end <= plays_end <= RECORD_SIZE:
        raise bad(f"end of plays {plays_end} is outside {calls_end}..80", 17)
    for k in range(FIRST_MOVE, calls_end):
        try:
            call_text(r[k])
        except FormatError as exc:
            raise bad(str(exc), k) from None
    for k in range(calls_end, plays_end):
        if (r[k] >> 2) & 15 > 12:
            raise bad(f"play byte {r[k]:#04x} has a rank code above 12", k)


def check_records(recs: NDArray[np.uint8]) -> tuple[NDArray[np.bool_], str]:
    """The bulk validation of ZRJ records ``(N, 80)``: the deal (fields are checked per record on decoding)."""
    return zbd.bad_deals(np.ascontiguousarray(recs[:, :13])), zbd.WHY


def decode_zrj(data: ArrayLike | bytes, *, base: int = 0) -> list[PlayedDeal]:
    """Decode ZRJ records into :class:`PlayedDeal` s, up to the null record (first 4 bytes zero).

    Records after the null record are not read (not even checked).

    Raises
    ------
    FormatError
        A deal that is not 13/13/13/13, an invalid contract, trick count,
        offset, call or play; with the record index and the field's byte offset.
    """
    recs = records(data, RECORD_SIZE, "ZRJ")
    recs = recs[: end_of_list(recs)]
    apply_on_error(*check_records(recs), "raise", RECORD_SIZE, base, "ZRJ")
    owners = zrj_owners(recs)
    out = []
    for i, row in enumerate(recs):
        r = row.tobytes()
        _check_record(r, base + i)
        calls_end, plays_end = r[16], r[17]
        out.append(
            PlayedDeal(
                owners=owners[i],
                board_byte=r[13],
                contract=r[14],
                tricks=r[15] >> 4,
                declarer=int(order.dds_seats((r[15] >> 2) & 3)),
                initial_passes=r[15] & 3,
                calls=list(r[FIRST_MOVE:calls_end]),
                plays=list(r[calls_end:plays_end]),
                spare=r[plays_end:].rstrip(b"\0"),
            )
        )
    return out


def encode_zrj(deals: Sequence[PlayedDeal] | Iterable[PlayedDeal], *, truncate: bool = False) -> NDArray[np.uint8]:
    """Encode :class:`PlayedDeal` s as ``(N, 80)`` uint8 ZRJ records.

    ``truncate=True`` drops plays that do not fit (Pavlicek's truncated play
    strings); otherwise a record that does not fit raises ``FormatError``.
    """
    items = list(deals)
    out = np.zeros((len(items), RECORD_SIZE), dtype=np.uint8)
    if not items:
        return out
    owners = as_owners(np.stack([np.asarray(p.owners) for p in items]), full=True)
    out[:, :13] = _deal_bytes(owners)
    for i, p in enumerate(items):
        if not 0 <= p.tricks <= 13 or not 0 <= p.initial_passes <= 3 or not 0 <= p.board_byte <= 255:
            raise FormatError("tricks 0..13, initial passes 0..3 and board byte 0..255 needed", index=i)
        if 1 <= p.contract <= 4 or not 0 <= p.contract < 120:
            raise FormatError(f"contract byte {p.contract} is invalid", index=i)
        calls_end = FIRST_MOVE + len(p.calls)
        if calls_end > MAX_CALLS_END:
            raise FormatError(f"{len(p.calls)} calls do not fit (at most {MAX_CALLS_END - FIRST_MOVE})", index=i)
        plays = list(p.plays)
        room = RECORD_SIZE - calls_end - len(p.spare)
        if len(plays) > room:
            if not truncate:
                raise FormatError(f"{len(plays)} plays do not fit in {room} bytes (truncate=True)", index=i)
            plays = plays[:room]
        for c in p.calls:
            call_text(c)
        body = bytes(p.calls) + bytes(plays)
        out[i, 13] = p.board_byte
        out[i, 14] = p.contract
        out[i, 15] = p.tricks << 4 | int(order.pav_seats(p.declarer)) << 2 | p.initial_passes
        out[i, 16] = calls_end
        out[i, 17] = calls_end + len(plays)
        out[i, FIRST_MOVE : FIRST_MOVE + len(body)] = np.frombuffer(body, np.uint8)
        end = FIRST_MOVE + len(body)
        out[i, end : end + len(p.spare)] = np.frombuffer(p.spare, np.uint8)
    return out
