"""Cribbage game records in Code64: our reading of seed 004 ("Open Code64
Implementation of a Record for a Game of CRIBBAGE", as exported by HALSCRIB
CLX 1.0).

The seed lists the fields and their widths but not how they are packed; the
packing below is OUR reading of it (also written down in the project's
``specs/formats.md``).  No second source exists to check it against.

Text layer
----------
The record is standard Base64 (RFC 4648 alphabet ``A-Z a-z 0-9 + /``, ``=``
padding to a multiple of four characters; ``"Hal"`` encodes as ``"SGFs"``).
The reader ignores ASCII whitespace (space, tab, CR, LF, FF, VT) anywhere in
the text, so wrapped records read; any other character outside the alphabet,
misplaced or excess ``=``, a length that is not a multiple of four, or
non-zero unused bits in the last character is a :class:`FormatError` that
gives the 0-based character position in the text as given.  The writer
emits one line, no whitespace.

Bit layer
---------
The decoded bytes are one bit stream, most significant bit of byte 0 first.
Fields follow each other without alignment in the order below, each written
most significant bit first.  After the last deal the stream is padded with
zero bits to a whole byte; there is nothing after that byte (extra bytes, or
a non-zero padding bit, are errors).  A record of ``n`` deals is therefore
exactly ``ceil((583 + 150 n) / 8)`` bytes.

Header, 583 bits::

    bits  width  field
       0   128   origin (software encoder), 16 ASCII bytes, NUL-padded
     128   128   program name, 16 ASCII bytes, NUL-padded
     256    64   player 0 name, 8 ASCII bytes, NUL-padded
     320    64   player 1 name, 8 ASCII bytes, NUL-padded
     384   144   comments, 18 ASCII bytes, NUL-padded
     528    12   year    1..4095
     540     4   month   1..12
     544     5   day     1..31 (and valid for the month)
     549     6   hour    0..23
     555     6   minute  0..59
     561     6   second  0..59
     567     8   number of games 0..255 (= number of deals flagged last-of-game)
     575     8   number of deals - 1 (0..255 for 1..256 deals)

Text fields hold printable ASCII (0x20..0x7E); the rest of the field is NUL
bytes, and nothing but NUL may follow the first NUL.  The text fields end on
a byte boundary (bit 528), so they are plain bytes 0..65 of the record.

Deal ``k`` (0-based) starts at bit ``583 + 150 k``; 150 bits::

    offset  width  field
        0   4 x 6  player 0's kept hand (4 cards)
       24   4 x 6  player 1's kept hand (4 cards)
       48   2 x 6  player 0's discards to the crib
       60   2 x 6  player 1's discards to the crib
       72       6  starter card
       78   8 x 7  pegging plays, in the order played
      134       7  player 0's score, 0..121
      141       7  player 1's score, 0..121
      148       1  dealer (player number 0 or 1)
      149       1  last deal of its game (1) or not (0)

Card, 6 bits ``ss rrrr``: ``ss`` is the suit, 00 spades, 01 hearts,
10 diamonds, 11 clubs; ``rrrr`` the rank, 1 ace, 2..10, 11 jack, 12 queen,
13 king (0, 14 and 15 are not cards).  ``11 1101`` is the king of clubs.

Pegging play, 7 bits ``p ss rrrr``: ``p`` the player, then the card.
``0 11 1101`` is the king of clubs played by player 0, ``1 11 1101`` by
player 1.  ``1 11 1111`` is "no play": the game ended during pegging, and
every later play slot of that deal is "no play" too.

Rules checked on encode and on decode (a :class:`FormatError` names the deal,
the field and the value; deals are numbered from 1 in messages, and the
error's ``index`` attribute is the 0-based deal index; a text-layer error's
``offset`` is the 0-based character position):

* the 13 cards of a deal (two kept hands, four discards, starter) are
  distinct;
* each pegging play is a card from that player's kept hand, played at most
  once; a deal with fewer than 8 plays (the game ended during pegging) must
  be flagged last of its game;
* scores are 0..121; dealer is 0 or 1;
* 1..256 deals, and the number of deals flagged last-of-game equals the
  header's number of games.  Deals after the last flagged deal are an
  unfinished game, which the header does not count.

Not checked (the record cannot show them or the seed does not say): that
pegging obeys the 31 limit and "go", that scores rise within a game or
reach 121 at its end, that dealers alternate.  The seed calls the scores
"scores after pegging" in one place; we store whatever the record holds.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import math
from collections.abc import Mapping
from typing import Any

from ddsbind.cribbage.records import (
    DATE_FIELDS,
    MAX_DEALS,
    MAX_SCORE,
    PLAY_SLOTS,
    TEXT_WIDTHS,
    Card,
    Deal,
    Play,
    Session,
    deal_error,
    header_error,
    validate,
)
from ddsbind.cribbage.records import MAX_GAMES as MAX_GAMES  # the record's constants, here before the split
from ddsbind.cribbage.records import RANKS as RANKS
from ddsbind.cribbage.records import SUITS as SUITS
from ddsbind.errors import FormatError

__all__ = [
    "DEAL_BITS",
    "HEADER_BITS",
    "MAX_DEALS",
    "MAX_JSON_CHARS",
    "MAX_SCORE",
    "MAX_TEXT_CHARS",
    "NO_PLAY",
    "Card",
    "Deal",
    "Play",
    "Session",
    "decode",
    "encode",
    "from_json",
    "from_json_text",
    "record_length",
    "to_json",
    "validate",
]

HEADER_BITS = 8 * sum(TEXT_WIDTHS.values()) + sum(f[1] for f in DATE_FIELDS) + 8 + 8
DEAL_BITS = 150
#: The 7-bit pegging code for "no play" (player 1, clubs, rank 15).
NO_PLAY = 0b1111111

_WHITESPACE = frozenset(" \t\r\n\f\v")
_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


# --------------------------------------------------------------------------
# Bits


def _char_error(pos: int, ch: str, problem: str) -> FormatError:
    """An error at 0-based character ``pos`` of the text (also ``.offset``)."""
    exc = FormatError(f"Base64 text, character {pos} (0-based) = {ch!r}: {problem}")
    exc.offset = pos
    return exc


class _BitWriter:
    """Append fields most significant bit first; pad with zeros to a byte."""

    def __init__(self) -> None:
        self.value = 0
        self.nbits = 0

    def put(self, value: int, width: int) -> None:
        self.value = self.value << width | value
        self.nbits += width

    def to_bytes(self) -> bytes:
        pad = -self.nbits % 8
        return (self.value << pad).to_bytes((self.nbits + pad) // 8, "big")


class _BitReader:
    """Read fields most significant bit first from a byte string."""

    def __init__(self, data: bytes) -> None:
        self.bits = format(int.from_bytes(data, "big"), f"0{8 * len(data)}b") if data else ""
        self.pos = 0

    def get(self, width: int) -> int:
        value = int(self.bits[self.pos : self.pos + width], 2)
        self.pos += width
        return value

    def rest(self) -> str:
        return self.bits[self.pos :]


def record_length(n_deals: int) -> int:
    """Bytes in a record of ``n_deals`` deals: ``ceil((583 + 150 n) / 8)`` (before Base64)."""
    return math.ceil((HEADER_BITS + DEAL_BITS * n_deals) / 8)


def encode(session: Session) -> str:
    """Write a session as a Code64 (Base64) record.

    Parameters
    ----------
    session : Session
        A session that passes :func:`validate`.

    Returns
    -------
    str
        The record: one line of standard Base64 with ``=`` padding.

    Raises
    ------
    FormatError
        If the session breaks a rule of the format (see :func:`validate`).

    Examples
    --------
    >>> text = encode(session)  # doctest: +SKIP
    >>> decode(text) == session  # doctest: +SKIP
    True
    """
    validate(session)
    w = _BitWriter()
    texts = (session.origin, session.program, *session.players, session.comments)
    for width, text in zip(TEXT_WIDTHS.values(), texts, strict=True):
        w.put(int.from_bytes(text.encode("ascii").ljust(width, b"\0"), "big"), 8 * width)
    p = session.played
    date = (p.year, p.month, p.day, p.hour, p.minute, p.second)
    for (_, width, _, _), value in zip(DATE_FIELDS, date, strict=True):
        w.put(value, width)
    w.put(session.games, 8)
    w.put(len(session.deals) - 1, 8)
    for deal in session.deals:
        for cards in (*deal.hands, *deal.discards, (deal.starter,)):
            for card in cards:
                w.put(card.code, 6)
        for play in deal.pegging:
            w.put(play.code, 7)
        for _ in range(PLAY_SLOTS - len(deal.pegging)):
            w.put(NO_PLAY, 7)
        w.put(deal.scores[0], 7)
        w.put(deal.scores[1], 7)
        w.put(deal.dealer, 1)
        w.put(int(deal.last_of_game), 1)
    return base64.b64encode(w.to_bytes()).decode("ascii")


def _unbase64(text: str) -> bytes:
    """Base64 text (ASCII whitespace ignored) to bytes, strictly; positions are 0-based in ``text``."""
    chars: list[str] = []
    positions: list[int] = []
    for i, ch in enumerate(text):
        if ch in _WHITESPACE:
            continue
        if ch not in _ALPHABET and ch != "=":
            raise _char_error(i, ch, "not in the Base64 alphabet")
        chars.append(ch)
        positions.append(i)
    if not chars:
        raise FormatError("Base64 text = '': empty record")
    clean = "".join(chars)
    first_pad = clean.find("=")
    if first_pad >= 0:
        for j in range(first_pad, len(clean)):
            if clean[j] != "=":
                raise _char_error(positions[j], clean[j], "data after '=' padding")
        if len(clean) - first_pad > 2:
            problem = f"{len(clean) - first_pad} padding characters, at most 2 allowed"
            raise _char_error(positions[first_pad], "=", problem)
    if len(clean) % 4:
        raise FormatError(
            f"Base64 text, length = {len(clean)} characters (whitespace not counted): "
            "not a multiple of 4 (missing '=' padding?)"
        )
    try:
        data = base64.b64decode(clean, validate=True)
    except (binascii.Error, ValueError) as exc:  # the checks above should leave nothing for this
        raise FormatError(f"Base64 text: {exc}") from None
    if base64.b64encode(data).decode("ascii") != clean:
        last = first_pad - 1 if first_pad >= 0 else len(clean) - 1
        problem = "unused low bits before the '=' padding are not zero"
        raise _char_error(positions[last], clean[last], problem)
    return data


def _read_text(r: _BitReader, field: str) -> str:
    raw = r.get(8 * TEXT_WIDTHS[field]).to_bytes(TEXT_WIDTHS[field], "big")
    text, _, tail = raw.partition(b"\0")
    if tail.strip(b"\0"):
        raise header_error(field, raw, "bytes other than NUL after the first NUL")
    for i, byte in enumerate(text):
        if not 0x20 <= byte <= 0x7E:
            raise header_error(field, raw, f"byte {i} (0-based) = 0x{byte:02x} is not printable ASCII")
    return text.decode("ascii")


def _read_card(r: _BitReader, k: int, field: str) -> Card:
    code = r.get(6)
    if not 1 <= code & 15 <= 13:
        raise deal_error(k, field, f"0b{code:06b}", f"rank {code & 15} is not a card (1..13)")
    return Card.from_code(code)


def _read_cards(r: _BitReader, k: int, n: int, field: str) -> tuple[Card, ...]:
    return tuple(_read_card(r, k, f"{field} {i + 1}") for i in range(n))


def _read_deal(r: _BitReader, k: int) -> Deal:
    # Record order: player 0's kept hand, player 1's, then player 0's discards, player 1's.
    hands = (_read_cards(r, k, 4, "player 0 kept hand card"), _read_cards(r, k, 4, "player 1 kept hand card"))
    discards = (_read_cards(r, k, 2, "player 0 discard"), _read_cards(r, k, 2, "player 1 discard"))
    starter = _read_card(r, k, "starter")
    plays: list[Play] = []
    no_play_at = None
    for j in range(PLAY_SLOTS):
        code = r.get(7)
        field = f"pegging play {j + 1}"
        if code == NO_PLAY:
            no_play_at = j if no_play_at is None else no_play_at
            continue
        if no_play_at is not None:
            raise deal_error(k, field, f"0b{code:07b}", f"a play after 'no play' in play {no_play_at + 1}")
        if not 1 <= code & 15 <= 13:
            raise deal_error(k, field, f"0b{code:07b}", f"rank {code & 15} is not a card (1..13)")
        plays.append(Play(code >> 6, Card.from_code(code & 63)))
    scores = (r.get(7), r.get(7))
    dealer = r.get(1)
    last = bool(r.get(1))
    return Deal(
        hands=hands,
        discards=discards,
        starter=starter,
        pegging=tuple(plays),
        scores=scores,
        dealer=dealer,
        last_of_game=last,
    )


#: The longest Code64 text :func:`decode` reads: 16 times the Base64 of the longest record
#: (whitespace is ignored anywhere, but a longer text cannot be a record; refused before decoding).
MAX_TEXT_CHARS = 16 * 4 * math.ceil(record_length(MAX_DEALS) / 3)
#: The longest JSON text :func:`from_json_text` reads (the largest session's JSON is about 250 kB).
MAX_JSON_CHARS = 1 << 22


def decode(text: str | bytes) -> Session:
    """Read a Code64 (Base64) cribbage record.

    Parameters
    ----------
    text : str or bytes
        The record.  ASCII whitespace and line breaks anywhere are ignored.

    Returns
    -------
    Session
        The header and the deals; ``encode(decode(text))`` is ``text`` without
        its whitespace.

    Raises
    ------
    FormatError
        For any text that is not a valid record: a character outside the
        Base64 alphabet (with its 0-based position), bad padding, a wrong
        length, a non-zero padding bit, or a field that breaks a rule (naming
        the deal, counted from 1, the field and the value).

    Examples
    --------
    >>> session = decode(open("game.c64").read())  # doctest: +SKIP
    >>> session.players, len(session.deals)  # doctest: +SKIP
    (('Hal', 'Ann'), 9)
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    if not isinstance(text, str):
        raise FormatError(f"record = {type(text).__name__}: not text")
    if len(text) > MAX_TEXT_CHARS:
        raise FormatError(f"record text: more than {MAX_TEXT_CHARS} characters, longer than any record")
    data = _unbase64(text)
    header_bytes = record_length(0)
    if len(data) < header_bytes:
        raise FormatError(f"record length = {len(data)} bytes: shorter than the {header_bytes}-byte header")
    r = _BitReader(data)
    texts = [_read_text(r, field) for field in TEXT_WIDTHS]
    values = []
    for name, width, lo, hi in DATE_FIELDS:
        value = r.get(width)
        if not lo <= value <= hi:
            raise header_error(name, value, f"not in {lo}..{hi}")
        values.append(value)
    year, month, day, hour, minute, second = values
    try:
        played = dt.datetime(year, month, day, hour, minute, second)
    except ValueError:
        raise header_error("day", day, f"not a day of {year:04d}-{month:02d}") from None
    games = r.get(8)
    n_deals = r.get(8) + 1
    expected = record_length(n_deals)
    if len(data) < expected:
        raise FormatError(
            f"record length = {len(data)} bytes: truncated, the header's {n_deals} deals need {expected} bytes"
        )
    if len(data) > expected:
        raise FormatError(
            f"record length = {len(data)} bytes: {len(data) - expected} extra bytes after "
            f"the {n_deals} deals and their zero padding ({expected} bytes)"
        )
    deals = tuple(_read_deal(r, k) for k in range(n_deals))
    pad = r.rest()
    if "1" in pad:
        raise FormatError(f"padding bits after deal {n_deals} (1-based) = 0b{pad}: not all zero")
    session = Session(
        origin=texts[0],
        program=texts[1],
        players=(texts[2], texts[3]),
        comments=texts[4],
        played=played,
        games=games,
        deals=deals,
    )
    validate(session)
    return session


# --------------------------------------------------------------------------
# JSON mapping


def to_json(session: Session) -> dict[str, Any]:
    """A session as JSON-ready dicts and lists, cards as strings like ``"5H"`` or ``"TD"``.

    Parameters
    ----------
    session : Session

    Returns
    -------
    dict
        Keys ``origin``, ``program``, ``players`` (two names), ``comments``,
        ``played`` (ISO 8601, ``"2024-05-01T12:30:45"``), ``games`` and
        ``deals``; each deal has ``dealer``, ``hands`` (two lists of 4 cards),
        ``discards`` (two lists of 2), ``starter``, ``pegging`` (a list of
        ``{"player": p, "card": c}``), ``scores`` (two ints) and
        ``last_of_game``.  :func:`from_json` reads it back.
    """
    validate(session)
    return {
        "origin": session.origin,
        "program": session.program,
        "players": list(session.players),
        "comments": session.comments,
        "played": session.played.isoformat(),
        "games": session.games,
        "deals": [
            {
                "dealer": d.dealer,
                "hands": [[str(c) for c in h] for h in d.hands],
                "discards": [[str(c) for c in h] for h in d.discards],
                "starter": str(d.starter),
                "pegging": [{"player": p.player, "card": str(p.card)} for p in d.pegging],
                "scores": list(d.scores),
                "last_of_game": d.last_of_game,
            }
            for d in session.deals
        ],
    }


def _get(obj: object, key: str, where: str) -> Any:
    if not isinstance(obj, Mapping):
        raise FormatError(f"{where} = {type(obj).__name__}: expected a JSON object")
    if key not in obj:
        raise FormatError(f"{where}, {key}: missing")
    return obj[key]


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormatError(f"{where} = {value!r}: expected a JSON array")
    return value


def _json_cards(value: object, k: int, field: str) -> list[Card]:
    out = []
    for card in _list(value, f"deal {k + 1} (1-based), {field}"):
        try:
            out.append(Card.parse(card))
        except FormatError:
            raise deal_error(k, field, repr(card), "not a card like '5H', 'KC', 'AS', '10D' or 'TD'") from None
    return out


def _json_deal(k: int, d: object) -> Deal:
    where = f"deal {k + 1} (1-based)"
    hands = [
        _json_cards(h, k, f"player {p} kept hand")
        for p, h in enumerate(_list(_get(d, "hands", where), f"{where}, hands"))
    ]
    discards = [
        _json_cards(h, k, f"player {p} discards")
        for p, h in enumerate(_list(_get(d, "discards", where), f"{where}, discards"))
    ]
    starter = _json_cards([_get(d, "starter", where)], k, "starter")[0]
    plays = []
    for j, play in enumerate(_list(_get(d, "pegging", where), f"{where}, pegging")):
        field = f"{where}, pegging play {j + 1}"
        card = _json_cards([_get(play, "card", field)], k, f"pegging play {j + 1} card")[0]
        plays.append(Play(_get(play, "player", field), card))
    return Deal(
        hands=hands,  # type: ignore[arg-type]
        discards=discards,  # type: ignore[arg-type]
        starter=starter,
        pegging=plays,  # type: ignore[arg-type]
        scores=_list(_get(d, "scores", where), f"{where}, scores"),  # type: ignore[arg-type]
        dealer=_get(d, "dealer", where),
        last_of_game=_get(d, "last_of_game", where),
    )


def from_json_text(text: str | bytes, *, name: str = "JSON") -> Session:
    """Read a session from JSON text (the form :func:`to_json` gives, serialised).

    Parameters
    ----------
    text : str or bytes
        The JSON; bytes are UTF-8.
    name : str
        What to call the text in error messages (a file name).

    Raises
    ------
    FormatError
        Text longer than :data:`MAX_JSON_CHARS` (refused before parsing),
        bytes that are not UTF-8, JSON that does not parse or nests too
        deeply (with line and column), or a session that breaks a rule.
    """
    if len(text) > MAX_JSON_CHARS:
        raise FormatError(f"{name}: more than {MAX_JSON_CHARS} characters, longer than any session's JSON")
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise FormatError(f"{name}: line {line}: byte 0x{raw[exc.start]:02x} is not UTF-8 text") from None
    try:
        obj = json.loads(text)
    except RecursionError:
        raise FormatError(f"{name}: JSON nests too deeply to be a session") from None
    except json.JSONDecodeError as exc:
        raise FormatError(f"{name}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    return from_json(obj)


def from_json(obj: Mapping[str, Any]) -> Session:
    """Build a session from :func:`to_json`'s mapping, and validate it.

    ``origin``, ``program``, ``players`` and ``comments`` default to empty;
    ``games`` defaults to the number of deals flagged ``last_of_game``.
    Cards may be written ``"10D"`` or ``"TD"``, in any case.

    Raises
    ------
    FormatError
        For a missing key, a wrong type, a bad card or a broken rule, naming
        the deal (counted from 1), the field and the value.
    """
    where = "session"
    deals = tuple(_json_deal(k, d) for k, d in enumerate(_list(_get(obj, "deals", where), "deals")))
    played_text = _get(obj, "played", where)
    try:
        played = dt.datetime.fromisoformat(played_text)
    except (TypeError, ValueError):
        raise header_error("played", played_text, "not an ISO 8601 date and time") from None
    games = obj.get("games", sum(d.last_of_game is True for d in deals))
    players = _list(obj.get("players", ["", ""]), "players")
    session = Session(
        origin=obj.get("origin", ""),
        program=obj.get("program", ""),
        players=players,  # type: ignore[arg-type]
        comments=obj.get("comments", ""),
        played=played,
        games=games,
        deals=deals,
    )
    validate(session)
    return session
