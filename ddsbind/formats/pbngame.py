r"""PBN game records (a deal as it was bid and played), the rules of play, and ZRJ conversion.

No DDS calls here: this module knows text, bytes and the laws of play only.

Specification (PBN 2.1, with our reading where noted)
-----------------------------------------------------
* A game is a block of tags separated from the next by an empty line.  A tag
  is ``[Name "value"]`` on its own line; ``%`` lines, ``{...}`` comments (also
  over several lines) and ``;`` to the end of a line are commentary.  A value
  ``"#"`` repeats the previous game's value.  Text is ISO-8859-1.
* Tags read: ``Board`` (a number), ``Dealer`` (N E S W), ``Vulnerable``
  (``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``), ``Deal`` (see
  :mod:`ddsbind.formats.pbn`), ``Contract`` (``Pass``, or level, strain
  ``S H D C NT``, then ``X`` or ``XX``), ``Declarer`` (N E S W), ``Result``
  (tricks won by declarer, 0..13).  Every tag is kept in ``tags``.
* ``[Auction "F"]`` section: the calls from seat F (the dealer), tokens
  ``Pass``, ``X``, ``XX``, ``1C`` .. ``7NT``; ``AP`` stands for the closing
  passes (3 after a bid, 4 when nobody bid); ``*`` ends the auction; notes
  ``=n=`` and NAGs ``$n`` are skipped.  A call may carry ``!``, ``?`` or
  ``!?`` (our reading of ZRJ's punctuation bits: mark 1, 2 and 3).
* ``[Play "L"]`` section: L is the opening leader (declarer's left-hand
  opponent).  Each trick is four tokens **by seat, starting from L** -- not
  in play order -- so a trick's leader is the previous trick's winner and
  its cards are read starting from that seat's column.  A card is suit and
  rank (``SA``, ``HT``, ``D10``); ``-`` is a card not played (the play
  stopped: a claim); ``*`` ends the play.  A card after a ``-`` or ``*``
  (in play order) is an error: a card after the claim.  Cards carry ``!``,
  ``?``, ``!?`` as calls do.
* Writing emits ``Event``/``Site``/``Date`` only if read, then ``Board``,
  ``Dealer``, ``Vulnerable``, ``Deal``, ``Declarer``, ``Contract``,
  ``Result``, the ``Auction`` section, then the ``Play`` section (one trick a
  line, by seat from L; ``-`` for cards not played; ``*`` after an
  unfinished play).

In memory seats are :class:`~ddsbind.deal.Seat` (DDS order N=0 E=1 S=2 W=3),
the trump a :class:`~ddsbind.deal.Strain` (S=0 H=1 D=2 C=3 NT=4), and the play
a list of cards **in play order** from the opening lead.

Play rules (:func:`play_tricks`): each card must be held by the seat to
play, must follow the suit led when it can, the winner of a trick (highest
trump, else highest card of the suit led) leads the next, and at most 52
cards are played.  A fault raises :class:`~ddsbind.errors.FormatError`
naming the play's 0-based position, its trick and seat and the card.

ZRJ conversion (:func:`game_to_zrj`, :func:`zrj_to_game`): ZRJ holds the
board number only, so dealer and vulnerability come from the 16-board cycle;
a game whose dealer and vulnerability do not match its board number (or
that has none) is stored with a board byte 240..255 that gives them, and the
number is lost (``board`` becomes None).  The auction is split into the
passes before the opening bid (at most 3 in bits ``II``; a passed-out
auction is 3 initial passes then one stored pass) and the calls from the
opening bid.  A game whose auction and play do not fit in the 62 bytes is
truncated **in its play only** and a :class:`TruncatedPlayWarning` says
which game and how many cards were dropped.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, FormatError
from ddsbind.formats import _order, pbn, zrj
from ddsbind.formats._common import atomic_output
from ddsbind.game import Play, PlayedTrick, trick_winner

if TYPE_CHECKING:
    from ddsbind.formats.registry import Format

__all__ = [
    "GameRecord",
    "PlayedTrick",
    "TruncatedPlayWarning",
    "format_games",
    "game_to_zrj",
    "games_to_zrj_bytes",
    "parse_games",
    "play_tricks",
    "read_games",
    "trick_winner",
    "write_games",
    "zrj_to_game",
]

SEATS = "NESW"
_VUL_NAMES = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
_MARKS = {"": 0, "!": 1, "?": 2, "!?": 3}
_MARK_TEXT = {v: k for k, v in _MARKS.items()}
_CALL = re.compile(r"^(PASS|XX|X|AP|[1-7](?:NT|[SHDCN]))([!?]*)$", re.IGNORECASE)
_CARD = re.compile(r"^([SHDC](?:10|[2-9TJQKA]))([!?]*)$", re.IGNORECASE)
_CONTRACT = re.compile(r"^([1-7])(NT|N|S|H|D|C)(XX|X)?$", re.IGNORECASE)
_ZRJ_STRAIN = "CDHSN"  # ZRJ strain code 0..4
_ORDINAL = ("1st", "2nd", "3rd", "4th")


class TruncatedPlayWarning(UserWarning):
    """A game's play did not fit in a ZRJ record and was cut short (the rest reads as a claim)."""


# --------------------------------------------------------------------------
# The laws of play are ddsbind.game's; a fault in a file is a FormatError.


def play_tricks(
    deal: Deal,
    trump: Strain | int | str,
    leader: Seat | int | str,
    plays: Iterable[Card | str],
) -> list[PlayedTrick]:
    """Play ``plays`` (play order from the opening lead) out on a full ``deal`` and return the tricks.

    The rules and checks are :class:`ddsbind.game.Play`'s; a fault raises
    :class:`~ddsbind.errors.FormatError` naming the play's 0-based position,
    its trick, the seat and the card.  The last trick is unfinished
    (``winner`` None) if the play stops mid-trick.
    """
    cards = list(plays)
    if len(cards) > 52:
        raise FormatError(f"play 52 ({cards[52]}): {len(cards)} cards in the play, at most 52")
    table = Play(deal, trump, leader)
    try:
        table.play_all(cards)
    except DDSError as exc:
        raise FormatError(_play_fault(exc.index or 0, exc)) from None
    return table.all_tricks()


def _play_fault(number: int, exc: DDSError) -> str:
    """``"play 5 (trick 2, 2nd card, E): SA is not held by E (held by W)"`` from a :class:`~ddsbind.game.Play` fault."""
    where, _, what = (exc.reason or "").partition(": ")
    return f"play {number} ({where}): {what}"


def _mark(text: str, what: str) -> int:
    if text not in _MARKS:
        raise FormatError(f"{what}: annotation {text!r} is not !, ? or !?")
    return _MARKS[text]


# --------------------------------------------------------------------------
# Game records


@dataclass
class GameRecord:
    """One played deal: the PBN game-record tags and sections, decoded.

    Attributes
    ----------
    deal : Deal
        The deal before the opening lead.
    dealer : Seat or None
    vulnerable : str
        ``"None"``, ``"NS"``, ``"EW"`` or ``"All"``.
    board : int or None
    auction : list of str
        Calls from the dealer: ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``.
    auction_marks : list of int
        Per call 0, 1 (``!``), 2 (``?``) or 3 (``!?``).
    contract : str or None
        ``"Pass"`` (passed out), e.g. ``"4HX"``, or None when unknown.
    declarer : Seat or None
    result : int or None
        Tricks won by declarer.
    play : list of Card
        In play order from the opening lead; may stop early (a claim).
    play_marks : list of int
        Per card, as ``auction_marks``.
    tags : dict
        Every tag read, name -> value (written back for names this module does not own).
    """

    deal: Deal
    dealer: Seat | None = None
    vulnerable: str = "None"
    board: int | None = None
    auction: list[str] = field(default_factory=list)
    auction_marks: list[int] = field(default_factory=list)
    contract: str | None = None
    declarer: Seat | None = None
    result: int | None = None
    play: list[Card] = field(default_factory=list)
    play_marks: list[int] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def passed_out(self) -> bool:
        """True when the contract is ``Pass``."""
        return (self.contract or "").upper() == "PASS"

    @property
    def level(self) -> int:
        """Contract level 1..7 (0 passed out or unknown)."""
        m = _CONTRACT.match(self.contract or "")
        return int(m.group(1)) if m else 0

    @property
    def trump(self) -> Strain | None:
        """The contract's strain, None when passed out or unknown."""
        m = _CONTRACT.match(self.contract or "")
        return Strain.parse(m.group(2)) if m else None

    @property
    def doubled(self) -> int:
        """0 undoubled, 1 doubled, 2 redoubled."""
        m = _CONTRACT.match(self.contract or "")
        return len(m.group(3) or "") if m else 0

    @property
    def leader(self) -> Seat | None:
        """The opening leader: declarer's left-hand opponent."""
        return None if self.declarer is None else self.declarer.next()

    def tricks(self) -> list[PlayedTrick]:
        """The play as tricks (checked; see :func:`play_tricks`)."""
        if not self.play:
            return []
        if self.trump is None or self.leader is None:
            raise FormatError("a play needs a contract and a declarer")
        return play_tricks(self.deal, self.trump, self.leader, self.play)

    def declarer_tricks_played(self) -> int:
        """Tricks declarer's side won among the finished tricks of the play."""
        if self.declarer is None:
            return 0
        side = self.declarer % 2
        return sum(1 for t in self.tricks() if t.winner is not None and t.winner % 2 == side)


def _normal_call(token: str) -> str:
    t = token.upper()
    if t == "PASS":
        return "Pass"
    if t in ("X", "XX"):
        return t
    return t[0] + ("NT" if t[1:] in ("N", "NT") else t[1:])


def _parse_contract(text: str, g: int) -> str | None:
    t = text.strip()
    if not t:
        return None
    if t.upper() == "PASS":
        return "Pass"
    m = _CONTRACT.match(t)
    if not m:
        raise FormatError(f"PBN: Contract {text!r} is not Pass or e.g. 4H, 3NTX, 6CXX", index=g)
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    return f"{m.group(1)}{strain}{(m.group(3) or '').upper()}"


def _seat_tag(value: str | None, name: str, g: int) -> Seat | None:
    if value is None or not value.strip() or value.strip() == "?":
        return None
    v = value.strip().upper()
    if v not in ("N", "E", "S", "W"):
        raise FormatError(f"PBN: {name} {value!r} is not N, E, S or W", index=g)
    return Seat("NESW".index(v))


def _split_games(text: str) -> list[tuple[dict[str, str], dict[str, list[str]]]]:
    """Games as (tag values, section tokens per tag), split by :mod:`.pbn`'s game splitter."""
    return [
        ({tag: value for tag, value, _ in g.tags}, {tag: " ".join(lines).split() for tag, lines in g.sections.items()})
        for g in pbn._games(text, "PBN")
    ]


def _skip(token: str) -> bool:
    return token.startswith("$") or (len(token) > 1 and token.startswith("=") and token.endswith("="))


def _auction(tokens: list[str], g: int) -> tuple[list[str], list[int]]:
    calls: list[str] = []
    marks: list[int] = []
    for k, tok in enumerate(t for t in tokens if not _skip(t)):
        if tok == "*":
            break
        m = _CALL.match(tok)
        if not m:
            raise FormatError(f"PBN: auction token {k} {tok!r} is not a call", index=g)
        call, mark = m.group(1).upper(), _mark(m.group(2), f"PBN: auction token {k}")
        if call == "AP":
            bid = any(c[0].isdigit() for c in calls)
            calls += ["Pass"] * (3 if bid else 4)
            marks += [mark] * (3 if bid else 4)
        else:
            calls.append(_normal_call(call))
            marks.append(mark)
    return calls, marks


def _play(tokens: list[str], deal: Deal, trump: Strain, first: Seat, g: int) -> tuple[list[Card], list[int]]:
    """Tokens of a Play section (tricks by seat from ``first``) in play order, checked."""
    toks = list(tokens)
    if "*" in toks:
        end = toks.index("*")
        extra = [t for t in toks[end + 1 :] if t != "-"]
        if extra:
            raise FormatError(f"PBN: {extra[0]} comes after the end of the play ('*'), after the claim", index=g)
        toks = toks[:end]
    if len(toks) > 52:
        bad = toks[52]
        raise FormatError(f"PBN: {bad} is play token {52}: {len(toks)} tokens, at most 52 (13 tricks)", index=g)
    table = Play(deal, trump, first)
    plays: list[Card] = []
    marks: list[int] = []
    stopped = None
    for k in range(0, len(toks), 4):
        group = toks[k : k + 4] + ["-"] * (4 - len(toks[k : k + 4]))
        leader = table.leader
        for j in range(4):
            seat = Seat((leader + j) % 4)
            tok = group[(seat - first) % 4]
            where = f"PBN: play {k + j} (trick {k // 4 + 1}, {_ORDINAL[j]} card, {seat.name})"
            if tok == "-":
                stopped = stopped or where.removeprefix("PBN: ")
                continue
            m = _CARD.match(tok)
            if not m:
                raise FormatError(f"{where}: {tok!r} is not a card", index=g)
            card = Card.parse(m.group(1))
            if stopped:
                raise FormatError(f"{where}: {card} comes after the claim (no card at {stopped})", index=g)
            try:
                table.play(card)
            except DDSError as exc:
                raise FormatError(f"PBN: {_play_fault(k + j, exc)}", index=g) from None
            plays.append(card)
            marks.append(_mark(m.group(2), where))
    return plays, marks


def parse_games(text: str) -> list[GameRecord]:
    """Parse PBN text into :class:`GameRecord` s (games without a ``Deal`` tag are skipped).

    Raises
    ------
    FormatError
        A bad tag, call or card, the wrong opening leader, or a malformed
        play (a card not held, a revoke, more than 52 cards, a card after the
        claim), naming the game (``index``), the play's position and the card.
    """
    out: list[GameRecord] = []
    previous: dict[str, str] = {}
    for g, (raw, sections) in enumerate(_split_games(text)):
        values = {k: (previous.get(k, "") if v == "#" else v) for k, v in raw.items()}
        previous = values
        if not values.get("Deal"):
            continue
        try:
            deal = Deal.from_pbn(values["Deal"])
        except (DDSError, ValueError) as exc:
            raise FormatError(f"PBN: bad Deal {values['Deal']!r}: {exc}", index=g) from None
        if not deal.is_full:
            raise FormatError("PBN: a game record needs a full deal (13 cards each)", index=g)
        rec = GameRecord(deal=deal, tags=dict(values))
        board = values.get("Board", "").strip()
        if board:
            if not board.isdigit():
                raise FormatError(f"PBN: Board {board!r} is not a number", index=g)
            rec.board = int(board)
        rec.dealer = _seat_tag(values.get("Dealer"), "Dealer", g)
        vul = values.get("Vulnerable", "None").strip().lower() or "none"
        if vul not in _VUL_NAMES:
            raise FormatError(f"PBN: Vulnerable {values['Vulnerable']!r} is not None, NS, EW or All", index=g)
        rec.vulnerable = _VUL_NAMES[vul]
        rec.contract = _parse_contract(values.get("Contract", ""), g)
        rec.declarer = _seat_tag(values.get("Declarer"), "Declarer", g)
        result = values.get("Result", "").strip()
        if result:
            if not result.isdigit() or int(result) > 13:
                raise FormatError(f"PBN: Result {result!r} is not 0..13 tricks", index=g)
            rec.result = int(result)
        if "Auction" in values:
            opener = _seat_tag(values["Auction"], "Auction", g)
            if rec.dealer is not None and opener is not None and opener != rec.dealer:
                raise FormatError(
                    f"PBN: the auction starts with {opener.name}, the dealer is {rec.dealer.name}", index=g
                )
            rec.dealer = rec.dealer if rec.dealer is not None else opener
            rec.auction, rec.auction_marks = _auction(sections.get("Auction", []), g)
        tokens = [t for t in sections.get("Play", []) if not _skip(t)]
        if "Play" in values and tokens and tokens != ["*"]:
            first = _seat_tag(values["Play"], "Play", g)
            trump, declarer, leader = rec.trump, rec.declarer, rec.leader
            if trump is None or declarer is None or leader is None:
                raise FormatError("PBN: a Play section needs a Contract (not Pass) and a Declarer", index=g)
            if first != leader:
                raise FormatError(
                    f"PBN: wrong leader: Play starts with {first.name if first is not None else '?'} "
                    f"but declarer {declarer.name}'s left-hand opponent {leader.name} leads",
                    index=g,
                )
            rec.play, rec.play_marks = _play(tokens, deal, trump, leader, g)
        out.append(rec)
    return out


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


_OWNED = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")


def format_games(games: Sequence[GameRecord]) -> str:
    """PBN text for game records (see the module docstring for what is written)."""
    out = ["% PBN 2.1", "% EXPORT", ""]
    for rec in games:
        for name in ("Event", "Site", "Date"):
            if name in rec.tags:
                out.append(f'[{name} "{_quote(rec.tags[name])}"]')
        if rec.board is not None:
            out.append(f'[Board "{rec.board}"]')
        if rec.dealer is not None:
            out.append(f'[Dealer "{rec.dealer.name}"]')
        out.append(f'[Vulnerable "{rec.vulnerable}"]')
        out.append(f'[Deal "{rec.deal.to_pbn(rec.dealer if rec.dealer is not None else Seat.N)}"]')
        for name, value in rec.tags.items():
            # Table sections (e.g. OptimumResultTable) are not kept: their rows are not read here.
            if name not in _OWNED and name not in ("Event", "Site", "Date") and not name.endswith("Table"):
                out.append(f'[{name} "{_quote(value)}"]')
        out.append(f'[Declarer "{rec.declarer.name if rec.declarer is not None else ""}"]')
        out.append(f'[Contract "{rec.contract or ""}"]')
        out.append(f'[Result "{"" if rec.result is None else rec.result}"]')
        if rec.auction and rec.dealer is not None:
            out.append(f'[Auction "{rec.dealer.name}"]')
            marks = rec.auction_marks or [0] * len(rec.auction)
            calls = [c + _MARK_TEXT[m] for c, m in zip(rec.auction, marks, strict=True)]
            out += [" ".join(calls[k : k + 4]) for k in range(0, len(calls), 4)]
        if rec.play:
            out += _play_lines(rec)
        out.append("")
    return "\n".join(out)


def _play_lines(rec: GameRecord) -> list[str]:
    first = rec.leader
    assert first is not None
    marks = rec.play_marks or [0] * len(rec.play)
    lines = [f'[Play "{first.name}"]']
    k = 0
    for t in rec.tricks():
        row = ["-"] * 4
        for j, c in enumerate(t.cards):
            row[(t.leader + j - first) % 4] = str(c) + _MARK_TEXT[marks[k]]
            k += 1
        lines.append(" ".join(row))
    if len(rec.play) < 52:
        lines.append("*")
    return lines


def zrj_bytes_to_games(data: bytes) -> list[GameRecord]:
    """Game records of a ZRJ file's bytes (up to its null record)."""
    return [zrj_to_game(p, index=i) for i, p in enumerate(zrj.decode_zrj(data))]


def games_to_zrj_bytes(games: Sequence[GameRecord]) -> bytes:
    """ZRJ records of ``games``; a play too long for a record is cut with a :class:`TruncatedPlayWarning`."""
    return zrj.encode_zrj([game_to_zrj(g, index=i) for i, g in enumerate(games)], truncate=True).tobytes()


def _games_format(path: str | os.PathLike[str], given: str | None, role: str) -> Format:
    from ddsbind.formats import registry  # the table imports this module

    fmt = registry.guess(path, given, role)
    if fmt.load_games is None or fmt.dump_games is None:
        games = [f.name for f in registry.formats() if f.load_games is not None]
        raise ValueError(f"{fmt.name} files hold no game records (game records are {' or '.join(games)})")
    return fmt


def read_games(path: str | os.PathLike[str], format: str | None = None) -> list[GameRecord]:
    """Read game records from a file of a format that holds them (PBN ``.pbn``, ZRJ ``.zrj``)."""
    fmt = _games_format(path, format, "input")
    assert fmt.load_games is not None
    return fmt.load_games(Path(path).read_bytes(), os.fspath(path))


def write_games(path: str | os.PathLike[str], games: Sequence[GameRecord], format: str | None = None) -> int:
    """Write game records as PBN or ZRJ (by ``format`` or the extension); returns the count.

    ``"-"`` writes to standard output.  The file is written whole or not at
    all (temporary file, fsync, rename).  ZRJ records that cannot hold the
    whole play are truncated in their play with a :class:`TruncatedPlayWarning`.
    """
    fmt = _games_format(path, format, "output")
    assert fmt.dump_games is not None
    data = fmt.dump_games(games)
    with atomic_output(path) as out:
        out.write(data)
    return len(games)


# --------------------------------------------------------------------------
# ZRJ <-> game records


def _call_byte(call: str, mark: int) -> int:
    c = call.upper()
    if c in ("PASS", "X", "XX"):
        code, level = {"PASS": 5, "X": 6, "XX": 7}[c], 0
    else:
        code, level = _ZRJ_STRAIN.index(c[1]), int(c[0])
    return (mark & 3) << 6 | level << 3 | code


def _byte_call(byte: int) -> tuple[str, int]:
    text = zrj.call_text(byte).rstrip("!?*")
    call = {"P": "Pass", "X": "X", "R": "XX"}.get(text, text if not text.endswith("N") else text + "T")
    return call, byte >> 6


def _board_byte(rec: GameRecord, index: int) -> int:
    dealer = rec.dealer if rec.dealer is not None else Seat.N
    if rec.board is not None and 1 <= rec.board <= 240:
        b = rec.board
        if _order.board_dealer(b) == dealer and pbn.VUL_TEXT[_order.board_vulnerability(b)] == rec.vulnerable:
            return b - 1
    for v in range(240, 256):
        if _order.board_dealer(v + 1) == dealer and pbn.VUL_TEXT[_order.board_vulnerability(v + 1)] == rec.vulnerable:
            if rec.board is not None:
                warnings.warn(
                    f"game {index}: board {rec.board} with dealer {dealer.name}, vulnerable {rec.vulnerable} "
                    "does not fit ZRJ's board cycle; stored without its number",
                    UserWarning,
                    stacklevel=3,
                )
            return v
    raise AssertionError("every dealer and vulnerability occurs in the 16-board cycle")


def game_to_zrj(rec: GameRecord, *, index: int = 0) -> zrj.PlayedDeal:
    """A game record as a :class:`~ddsbind.formats.zrj.PlayedDeal` (truncating the play with a warning).

    Raises
    ------
    ValueError
        No contract, a contract that is not Pass or e.g. 4H, 3NTX, 6CXX, a
        declarer missing for a contract, no result for an unfinished play, or
        an auction over 45 calls (ZRJ's limit).
    """
    if rec.contract is None:
        raise ValueError(f"game {index}: ZRJ needs a contract (Pass for a passed-out deal)")
    if rec.passed_out:
        contract, declarer, tricks = 0, 0, 0
        if rec.play:
            raise ValueError(f"game {index}: a passed-out deal has a play")
    else:
        if rec.declarer is None:
            raise ValueError(f"game {index}: contract {rec.contract} has no declarer")
        trump = rec.trump
        if trump is None:
            raise ValueError(f"game {index}: contract {rec.contract!r} is not Pass or e.g. 4H, 3NTX, 6CXX")
        z = _ZRJ_STRAIN.index("N" if trump == Strain.NT else "CDHS"[3 - int(trump)])
        contract = 5 * rec.level + z + 40 * rec.doubled
        declarer = int(rec.declarer)
        if rec.result is not None:
            tricks = rec.result
        elif len(rec.play) == 52:
            tricks = rec.declarer_tricks_played()
        else:
            raise ValueError(f"game {index}: no Result and an unfinished play; ZRJ needs declarer's tricks")
    calls = list(rec.auction)
    marks = list(rec.auction_marks or [0] * len(calls))
    passes = 0
    while passes < 3 and passes < len(calls) - 1 and calls[passes] == "Pass" and not marks[passes]:
        passes += 1
    if len(calls) - passes > zrj._MAX_CALLS_END - zrj._FIRST_MOVE:
        raise ValueError(f"game {index}: {len(calls)} calls do not fit in a ZRJ record (at most 45 after the passes)")
    call_bytes = [_call_byte(c, m) for c, m in zip(calls[passes:], marks[passes:], strict=True)]
    pmarks = rec.play_marks or [0] * len(rec.play)
    play_bytes = [zrj.play_byte(c, m) for c, m in zip(rec.play, pmarks, strict=True)]
    room = zrj.RECORD_SIZE - zrj._FIRST_MOVE - len(call_bytes)
    if len(play_bytes) > room:
        warnings.warn(
            f"game {index}: the auction ({len(calls)} calls) leaves room for {room} of the {len(play_bytes)} "
            f"cards played; the ZRJ record keeps the first {room} (the rest reads as a claim)",
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
    """A :class:`~ddsbind.formats.zrj.PlayedDeal` as a game record, its play checked.

    Raises
    ------
    FormatError
        A play that breaks the rules (naming the record, the play's position and the card).
    """
    deal = p.deal
    rec = GameRecord(
        deal=deal, dealer=Seat(p.dealer), vulnerable="All" if p.vulnerability == "Both" else p.vulnerability
    )
    rec.board = p.board
    calls = [_byte_call(b) for b in p.calls]
    rec.auction = ["Pass"] * p.initial_passes + [c for c, _ in calls]
    rec.auction_marks = [0] * p.initial_passes + [m for _, m in calls]
    code = p.strain
    if code is None:  # passed out (contract byte 0)
        rec.contract = "Pass"
        if p.plays:
            raise FormatError(f"ZRJ: record {index} is passed out but has {len(p.plays)} plays", index=index)
        return rec
    strain = Strain(code)
    rec.contract = f"{p.level}{strain.symbol}{'X' * p.doubled}"
    declarer = rec.declarer = Seat(p.declarer)
    rec.result = p.tricks
    rec.play = [zrj.play_card(b) for b in p.plays]
    rec.play_marks = [b >> 6 for b in p.plays]
    try:
        play_tricks(deal, strain, declarer.next(), rec.play)
    except FormatError as exc:
        raise FormatError(f"ZRJ: {exc}", index=index) from None
    return rec
