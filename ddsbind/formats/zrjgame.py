"""Game records as ZRJ records and back: :class:`~ddsbind.record.GameRecord` <-> :class:`~.zrj.PlayedDeal`.

No DDS calls here.  The byte layout is :mod:`ddsbind.formats.zrj`'s; the
game-record model is :mod:`ddsbind.record`'s.

Specification (our reading)
---------------------------
* ZRJ holds the board number only, so dealer and vulnerability come from the
  16-board cycle (:meth:`ddsbind.deal.Seat.dealer_of_board`,
  :meth:`~ddsbind.deal.Vulnerability.of_board`).  A game whose dealer
  and vulnerability do not match its board number (or that has none) is
  stored with a board byte 240..255 that gives them, and the number is lost
  (``board`` becomes None; a warning says so when there was a number: one
  per game whose number does not fit the cycle, and one for the whole
  conversion naming the board byte's limit for numbers above 240).
* The auction is split into the passes before the opening bid (at most 3, in
  bits ``II``; a passed-out auction is 3 initial passes then one stored pass)
  and the calls from the opening bid (at most 45 bytes).  An auction that
  goes on after it ended is refused.
* A game whose auction and play do not fit in the 62 bytes is truncated **in
  its play only**, and a :class:`TruncatedPlayWarning` says which game and
  how many cards were dropped (the rest reads as a claim).
* Declarer's tricks (bits ``TTTT``) come from ``result``, or from a complete
  play; a result the play contradicts is refused (both ways).
* Reading stops at the null record (:func:`ddsbind.formats._common.end_of_list`).
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from ddsbind.deal import Seat, Strain, Vulnerability
from ddsbind.errors import FormatError, TruncatedPlayWarning
from ddsbind.formats import order, zrj
from ddsbind.formats._common import check_whole, end_of_list, records
from ddsbind.record import GameRecord, read_call
from ddsbind.scoring import Contract

__all__ = [
    "TruncatedPlayWarning",
    "game_to_zrj",
    "games_to_zrj_bytes",
    "unheld",
    "zrj_bytes_to_games",
    "zrj_to_game",
]


def _held(mark: int) -> int:
    """A mark as ZRJ's two punctuation bits hold it: ``!`` ``?`` ``!?`` (1..3); PBN's ``!!`` ``??`` ``?!`` none."""
    return mark if mark <= 3 else 0


def unheld(games: Sequence[GameRecord]) -> list[str]:
    """What of these game records ZRJ cannot hold, in words (for the one warning a conversion gives).

    ZRJ holds the deal, board, auction, contract, result and play with
    ``!``/``?``/``!?`` marks; not tags (Event, players, ...), notes and
    alerts, commentary, nor PBN's ``!!``/``??``/``?!``.
    """
    out = []
    tags: list[str] = []
    for g in games:
        tags += [t for t in g.tags if t not in _RECORD_TAGS and t not in tags]
    if tags:
        out.append(f"tags {', '.join(tags[:4])}{', ...' if len(tags) > 4 else ''}")
    if any(g.notes or g.alerts for g in games):
        out.append("notes and alerts")
    if any(g.commentary for g in games):
        out.append("commentary")
    if any(m > 3 for g in games for m in (*g.auction_marks, *g.play_marks)):
        out.append("PBN's !!, ?? and ?! marks")
    if any(g.sections for g in games):
        out.append("tables of other tags")
    if any(g.board is not None and g.board > zrj.MAX_BOARD for g in games):
        out.append(f"board numbers above {zrj.MAX_BOARD} (its board byte holds 1..{zrj.MAX_BOARD})")
    return out


#: Tags whose content ZRJ holds in its fields.
_RECORD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")


def _call_byte(call: str, mark: int) -> int:
    c = call.upper()
    if c in ("PASS", "X", "XX"):
        code, level = {"PASS": 5, "X": 6, "XX": 7}[c], 0
    else:
        bid = Contract.parse(c)
        code, level = int(order.bid_strains(bid.strain)), bid.level
    return (mark & 3) << 6 | level << 3 | code


def _byte_call(byte: int) -> tuple[str, int]:
    text = zrj.call_text(byte).rstrip("!?*")
    call = {"P": "Pass", "X": "X", "R": "XX"}.get(text) or read_call(text)
    return call, byte >> 6


def _board_byte(rec: GameRecord, index: int) -> int:
    from ddsbind.formats._common import game_label

    dealer = rec.dealer if rec.dealer is not None else Seat.N
    if rec.board is not None and 1 <= rec.board <= zrj.MAX_BOARD:
        b = rec.board
        if Seat.dealer_of_board(b) == dealer and Vulnerability.of_board(b) == rec.vulnerable:
            return b - 1
    for v in range(zrj.MAX_BOARD, 256):
        if Seat.dealer_of_board(v + 1) == dealer and Vulnerability.of_board(v + 1) == rec.vulnerable:
            # A number beyond the board byte is named once for the whole conversion (unheld), not per game.
            if rec.board is not None and rec.board <= zrj.MAX_BOARD:
                warnings.warn(
                    f"{game_label(rec.board, index)}: dealer {dealer.name}, vulnerable {rec.vulnerable.pbn} "
                    f"does not fit ZRJ's board cycle at board {rec.board}; stored without its number",
                    UserWarning,
                    stacklevel=3,
                )
            return v
    raise AssertionError("every dealer and vulnerability occurs in the 16-board cycle")


def game_to_zrj(rec: GameRecord, *, index: int = 0) -> zrj.PlayedDeal:
    """A game record as a :class:`~ddsbind.formats.zrj.PlayedDeal` (truncating the play with a warning).

    Raises
    ------
    FormatError
        No contract (nor passed out), a
        declarer missing for a contract, no result for an unfinished play, a
        result the play contradicts, an auction that goes on after it ended,
        or one over 45 calls after the opening passes (ZRJ's limit); the
        message names the game as the file numbers it (``Board 2 (game 4 of the file)``).
    """

    from ddsbind.formats._common import game_label

    def fault(msg: str) -> FormatError:
        return FormatError(f"{game_label(rec.board, index)}: {msg}")

    if rec.contract is None and not rec.passed_out:
        raise fault("ZRJ needs a contract (Pass for a passed-out deal)")
    try:
        rec.check_auction()
        rec.check_result()
    except FormatError as exc:
        raise fault(str(exc)) from None
    if rec.passed_out:
        contract, declarer, tricks = 0, 0, 0
        if rec.play:
            raise fault("a passed-out deal has a play")
    else:
        if rec.declarer is None:
            raise fault(f"contract {rec.contract} has no declarer")
        trump = rec.trump
        assert trump is not None  # a contract, not passed out
        contract = 5 * rec.level + int(order.bid_strains(trump)) + 40 * rec.doubled
        declarer = int(rec.declarer)
        if rec.result is not None:
            tricks = rec.result
        elif len(rec.play) == 52:
            tricks = rec.declarer_tricks_played()
        else:
            raise fault("no Result and an unfinished play; ZRJ needs declarer's tricks")
    calls = list(rec.auction)
    marks = list(rec.auction_marks or [0] * len(calls))
    passes = 0
    while passes < 3 and passes < len(calls) - 1 and calls[passes] == "Pass" and not marks[passes]:
        passes += 1
    room_calls = zrj.MAX_CALLS_END - zrj.FIRST_MOVE
    if len(calls) - passes > room_calls:
        raise fault(f"{len(calls)} calls do not fit in a ZRJ record (at most {room_calls} after the passes)")
    call_bytes = [_call_byte(c, _held(m)) for c, m in zip(calls[passes:], marks[passes:], strict=True)]
    pmarks = rec.play_marks or [0] * len(rec.play)
    play_bytes = [zrj.play_byte(c, _held(m)) for c, m in zip(rec.play, pmarks, strict=True)]
    room = zrj.RECORD_SIZE - zrj.FIRST_MOVE - len(call_bytes)
    if len(play_bytes) > room:
        warnings.warn(
            f"{game_label(rec.board, index)}: the auction ({len(calls)} calls) leaves room for {room} of the "
            f"{len(play_bytes)} cards played; the ZRJ record keeps the first {room} (the rest reads as a claim)",
            TruncatedPlayWarning,
            stacklevel=2,
        )
        play_bytes = play_bytes[:room]
    return zrj.PlayedDeal(
        owners=rec.deal.owners(),
        board_byte=_board_byte(rec, index),
        contract=contract,
        tricks=tricks,
        declarer=declarer,
        initial_passes=passes,
        calls=call_bytes,
        plays=play_bytes,
    )


def zrj_to_game(p: zrj.PlayedDeal, *, index: int = 0) -> GameRecord:
    """A :class:`~ddsbind.formats.zrj.PlayedDeal` as a game record, its auction, play and result checked.

    Raises
    ------
    FormatError
        A play that breaks the rules (naming the record, the play's position
        and the card), an auction that goes on after it ended, or declarer's
        tricks that the play contradicts.
    """
    rec = GameRecord(deal=p.deal, dealer=p.dealer, vulnerable=p.vulnerability)
    rec.board = p.board
    calls = [_byte_call(b) for b in p.calls]
    rec.auction = ["Pass"] * p.initial_passes + [c for c, _ in calls]
    rec.auction_marks = [0] * p.initial_passes + [m for _, m in calls]
    code = p.strain
    if code is None:  # passed out (contract byte 0)
        rec.passed_out = True
        if p.plays:
            raise FormatError(f"ZRJ: passed out but has {len(p.plays)} plays", index=index)
    else:
        rec.contract = Contract(p.level, Strain(code), p.doubled)
        rec.declarer = Seat(p.declarer)
        rec.result = p.tricks
        rec.play = [zrj.play_card(b) for b in p.plays]
        rec.play_marks = [b >> 6 for b in p.plays]
    try:
        rec.check_auction()
        if rec.result is None:
            rec.tricks()
        else:
            rec.check_result()  # plays the cards out too
    except FormatError as exc:
        raise FormatError(f"ZRJ: {exc}", index=index) from None
    return rec


def iter_zrj_games(f: IO[bytes], chunk: int) -> Iterator[list[GameRecord]]:
    """:func:`zrj_bytes_to_games` of an open binary file, ``chunk`` records a batch: memory is a batch's.

    A length that is not whole records raises first, as for the whole file;
    reading stops at the null record; errors name the record as the file
    numbers it.
    """
    here = f.tell()
    check_whole(f.seek(0, os.SEEK_END) - here, zrj.RECORD_SIZE, "ZRJ")
    f.seek(here)
    base = 0
    while data := f.read(max(chunk, 1) * zrj.RECORD_SIZE):
        recs = records(data, zrj.RECORD_SIZE, "ZRJ")
        n = end_of_list(recs)
        games = [zrj_to_game(p, index=base + i) for i, p in enumerate(zrj.decode_zrj(recs[:n], base=base))]
        if games:
            yield games
        if n < recs.shape[0]:
            return
        base += n


def zrj_bytes_to_games(data: bytes) -> list[GameRecord]:
    """Game records of a ZRJ file's bytes, up to its null record (:func:`~ddsbind.formats.zrj.decode_zrj`)."""
    return [zrj_to_game(p, index=i) for i, p in enumerate(zrj.decode_zrj(data))]


def games_to_zrj_bytes(games: Sequence[GameRecord]) -> bytes:
    """ZRJ records of ``games``; a play too long for a record is cut with a :class:`TruncatedPlayWarning`."""
    out = io.BytesIO()
    write_zrj_games([games], out)
    return out.getvalue()


def write_zrj_games(batches: Iterable[Sequence[GameRecord]], out: IO[bytes]) -> int:
    """Write batches of game records to ``out`` as ZRJ records (:func:`games_to_zrj_bytes` of them all, batch by
    batch: memory is a batch's); returns how many."""
    first = 0
    for games in batches:
        recs = [game_to_zrj(g, index=first + i) for i, g in enumerate(games)]
        out.write(zrj.encode_zrj(recs, truncate=True).tobytes())
        first += len(recs)
    return first
