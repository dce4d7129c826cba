"""What the analysis board shows: the boards of a file or a pasted deal, and a position reached by play.

Nothing here serves or solves: :mod:`ddsbind.board.app` asks these
functions for the boards and for the position an address names
(``?board=2&play=HJ,H2,HA``), and solves what they return on the solver
pool.  Every card is played through :class:`ddsbind.game.Play`, the one
model of the rules; a bad card, deal or file raises the library's own
:class:`ddsbind.Error`, whose one line the page shows.

Conventions (DDS's): seats N=0 E=1 S=2 W=3, strains S=0 H=1 D=2 C=3 NT=4.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from ddsbind._typing import renamed
from ddsbind.deal import Card, Deal, Seat, Strain, Vulnerability, pbn_to_masks
from ddsbind.errors import Error, InvalidArgumentError
from ddsbind.game import Play
from ddsbind.record import GameRecord
from ddsbind.record import contract_text as record_contract_text
from ddsbind.scoring import Call, Contract

__all__ = [
    "Board",
    "BoardQuery",
    "Position",
    "RecordBoards",
    "board_json",
    "board_query",
    "contract_text",
    "deal_board",
    "exports",
    "load_boards",
    "played_record",
    "position",
    "position_json",
    "read_deal",
    "read_query",
    "seen_by_default",
    "single_dummy_view",
]

#: Trump and declarer of a board without a contract (a deal, a passed-out game).
DEFAULT_STRAIN = Strain.NT
DEFAULT_DECLARER = Seat.S
#: The board's port on 127.0.0.1 unless told (the next free one above it when taken): a link lasts across restarts.
DEFAULT_PORT = 8452
#: How many ports from :data:`DEFAULT_PORT` up are tried.
PORT_TRIES = 50
#: At most this many cards in a ``play`` address (a whole deal).
MAX_PLAY = 52
#: The single-dummy view's layouts unless ``samples`` says, and its seed unless ``seed`` says (reproducible).
SD_SAMPLES = 200
SD_SEED = 1
#: At most this many layouts a single-dummy request (``samples``).
SD_MAX_SAMPLES = 5000


@dataclass(frozen=True)
class Board:
    """One board of the page: a deal with its dealer and vulnerability, and the game record it came from.

    Attributes
    ----------
    number : int
        Its number on the page, from 1 (the ``board`` of the address).
    deal : Deal
        The 52 cards before the opening lead.
    dealer : Seat or None
    vulnerable : Vulnerability
    label : str
        The board number of the record (or ``number``), as the page lists it.
    game : GameRecord or None
        The game record (auction, contract, play) when the file holds one.
    board : int
        The file's board number (the ``board`` of the address); 0: ``number``.
    room : str or None
        ``"Open"`` or ``"Closed"`` for a team match's record (the ``room`` of the address).
    table : int
        Its place, from 1, among the file's records of this board number (the ``table`` of the address).
    """

    number: int
    deal: Deal
    dealer: Seat | None
    vulnerable: Vulnerability
    label: str
    game: GameRecord | None = field(default=None, compare=False, repr=False)
    board: int = 0
    room: str | None = None
    table: int = 1

    @property
    def file_board(self) -> int:
        """The file's board number: ``board``, else the place ``number``."""
        return self.board or self.number

    @property
    def contract_strain(self) -> Strain | None:
        """The record's contract strain, None without a record or contract."""
        return None if self.game is None else self.game.strain

    @property
    def contract_declarer(self) -> Seat | None:
        """The record's declarer, None without a record or contract."""
        return None if self.game is None or self.game.strain is None else self.game.declarer

    @property
    def record_play(self) -> list[Card]:
        """The record's cards in play order from the opening lead (empty without one)."""
        return [] if self.game is None else list(self.game.play)


def read_deal(text: str) -> Deal:
    """A pasted PBN deal of 52 cards; one hand left as ``-`` gets the cards the other three do not hold.

    Raises the PBN reader's error for bad text, and ``InvalidArgumentError``
    naming the hands for two or more hands left as ``-``, or naming the hand
    and the cards for a hand with a card missing or too many.
    """
    masks = pbn_to_masks(text.strip())
    counts = {seat: sum(bin(m).count("1") for m in masks[seat]) for seat in Seat}
    hands = text.strip().strip('"').partition(":")[2].split()
    first = Seat.parse(text.strip().strip('"')[:1])
    unknown = [first.next(i) for i, h in enumerate(hands) if h == "-"]
    if len(unknown) > 1:
        names = " and ".join(s.name for s in sorted(unknown))
        raise InvalidArgumentError(f"hands {names} are left as '-': give all but one hand (that one is completed)")
    held = [sum(masks[seat][suit] for seat in Seat) for suit in range(4)]
    missing = [Card(suit, rank) for suit in range(4) for rank in range(14, 1, -1) if not held[suit] >> rank & 1]
    if unknown:
        seat = unknown[0]
        if any(counts[s] != 13 for s in Seat if s != seat):
            short = ", ".join(f"{s.name} {counts[s]}" for s in Seat if s != seat and counts[s] != 13)
            raise InvalidArgumentError(f"hand {seat.name} is left as '-': the others must hold 13 cards each ({short})")
        masks[seat] = [(0x7FFC & ~held[suit]) for suit in range(4)]
        return Deal(masks)
    wrong = [s for s in Seat if counts[s] != 13]
    if wrong:
        parts = []
        for s in wrong:
            n = counts[s]
            many = " (too many)" if n > 13 else " (too few)"
            parts.append(f"{s.name} holds {n} card{'s' if n != 1 else ''}{many}")
        cards = " ".join(str(c) for c in missing)
        where = f"; nobody holds {cards}" if missing else ""
        raise InvalidArgumentError(f"each hand holds 13 cards: {', '.join(parts)}{where}")
    return Deal(masks)


def deal_board(
    text: str, number: int = 1, dealer: Seat | None = None, vulnerable: Vulnerability | None = None
) -> Board:
    """A board of pasted text: a PBN deal (:func:`read_deal`), a LIN board or a BBO handviewer address.

    A LIN board or handviewer address keeps its dealer, vulnerability,
    auction and play; a PBN deal has dealer N and nobody vulnerable; either
    unless ``dealer`` or ``vulnerable`` is given.
    """
    import warnings

    from ddsbind.formats.handviewer import is_handviewer, parse_handviewer
    from ddsbind.formats.lin import parse_lin

    text = text.strip()
    game = None
    with warnings.catch_warnings():  # display settings of an address change nothing the board shows
        warnings.simplefilter("ignore")
        if is_handviewer(text):
            game = parse_handviewer(text)
        elif re.search(r"(^|\|)md\|", text, re.I):
            games = parse_lin(text, name="the pasted LIN")
            if len(games) != 1:
                raise InvalidArgumentError(f"the pasted LIN holds {len(games)} boards: paste one")
            game = games[0]
    if game is not None:
        seat = game.dealer if dealer is None else dealer
        vul = game.vulnerable if vulnerable is None else vulnerable
        label = str(game.board) if game.board is not None else str(number)
        return Board(number, game.deal, seat, vul, label, game)
    deal = read_deal(text)
    seat = Seat.N if dealer is None else dealer
    vul = Vulnerability.NONE if vulnerable is None else vulnerable
    return Board(number, deal, seat, vul, str(number))


def load_boards(path: str | os.PathLike[str]) -> list[Board] | RecordBoards:
    """Every board of a file ddsbind reads: game records (PBN, LIN, ZRJ) or deals (ZRD, ZBD, GIB...).

    Files that hold game records keep their auction and play; files of
    deals get each board's dealer and vulnerability from its position in
    the 16-board cycle.  A file of fixed-size records (ZRD, ZBD...) is not
    read here but opened as :class:`RecordBoards`, each board read from
    disk when it is asked for.  Raises the reader's ``FormatError`` (or
    ``OSError``) for a file that cannot be read.
    """
    from ddsbind.formats import read_games
    from ddsbind.formats.convert import read_any
    from ddsbind.formats.games import game_formats
    from ddsbind.formats.registry import guess

    fmt = guess(path)
    boards: list[Board] = []
    if fmt.record_size is not None and fmt.decode is not None and fmt not in game_formats():
        return RecordBoards(path, fmt)
    if fmt in game_formats():
        tables: dict[int, int] = {}
        for i, g in enumerate(read_games(path, fmt)):
            number = g.board if isinstance(g.board, int) and g.board > 0 else i + 1
            room = g.tags.get("Room") or None
            tables[number] = tables.get(number, 0) + 1
            label = f"{number} {room}" if room else str(number)
            boards.append(
                Board(i + 1, g.deal, g.dealer, g.vulnerable, label, g, board=number, room=room, table=tables[number])
            )
        return boards
    for owners, _tables in read_any(path, fmt):
        if owners is None:
            raise InvalidArgumentError(f"{os.fspath(path)} holds results without deals: nothing to play")
        for row in owners:
            n = len(boards) + 1
            deal = Deal.from_owners(row)
            boards.append(Board(n, deal, Seat.dealer_of_board(n), Vulnerability.of_board(n), str(n)))
    return boards


#: ASCII digits only: ``str.isdigit`` also takes ``"²"``, which ``int`` refuses.
_NUMBER = re.compile(r"[0-9]{1,6}")


def _number(query: Mapping[str, str], name: str, low: int, high: int | None = None) -> int | None:
    """The query's ``name`` as a whole number in ``low..high``, None when absent or empty."""
    text = query.get(name) or ""
    if not text:
        return None
    value = int(text) if _NUMBER.fullmatch(text) else None
    if value is None or value < low or (high is not None and value > high):
        upto = f" to {high}" if high is not None else " or more"
        raise InvalidArgumentError(f"{name} {text[:20]!r} is not a number from {low}{upto}")
    return value


def _member(query: Mapping[str, str], names: Sequence[str], parse: Any) -> Any:
    """The first of ``names`` the query gives, read by ``parse`` (a DDS number in ASCII digits read as one)."""
    for name in names:
        text = query.get(name) or ""
        if text:
            try:
                return parse(int(text) if _NUMBER.fullmatch(text) else text)
            except Error as exc:
                raise InvalidArgumentError(f"{name}={text[:20]!r}: {exc}") from None
    return None


class RecordBoards(Sequence[Board]):
    """The boards of a file of fixed-size records (ZRD, ZBD...), each read from disk when asked for.

    Opening costs one ``stat``: memory stays flat whatever the file's size.
    Board ``n`` (from 1) is record ``n - 1``, its dealer and vulnerability
    those of board ``n`` in the 16-board cycle.  A null record at the end
    (Pavlicek's terminator) is not a board.
    """

    def __init__(self, path: str | os.PathLike[str], fmt: Any) -> None:
        from ddsbind.formats.files import RecordReader

        self.path = os.fspath(path)
        self.format = fmt
        self._reader = RecordReader(path, fmt.record_size)
        n = self._reader.count
        if n and not self._reader.read(n - 1, n)[0, :4].any():
            n -= 1
        self._count = n

    def __len__(self) -> int:
        return self._count

    def _board(self, i: int) -> Board:
        n = i + 1
        recs = self._reader.read(i, n)
        if not recs[0, :4].any():
            raise InvalidArgumentError(f"{self.path}: board {n}: a null record, the end of the file's records")
        owners = self.format.decode(recs).owners
        if owners is None:
            raise InvalidArgumentError(f"{self.path} holds results without deals: nothing to play")
        return Board(n, Deal.from_owners(owners[0]), Seat.dealer_of_board(n), Vulnerability.of_board(n), str(n))

    @overload
    def __getitem__(self, i: int) -> Board: ...
    @overload
    def __getitem__(self, i: slice) -> list[Board]: ...
    def __getitem__(self, i: int | slice) -> Board | list[Board]:
        if isinstance(i, slice):
            return [self._board(k) for k in range(*i.indices(len(self)))]
        k = i + len(self) if i < 0 else i
        if not 0 <= k < len(self):
            raise IndexError(i)
        return self._board(k)

    def close(self) -> None:
        """Close the file."""
        self._reader.close()


@dataclass(frozen=True)
class BoardQuery:
    """What an address asks the board for: the one reading of every query parameter.

    ``?board=18&room=closed`` (or ``&table=2``) names a board of the file by
    its board number; ``?deal=PBN`` a pasted deal, with ``dealer`` and
    ``vulnerable`` (old name ``vul``); ``strain`` (old name ``trump``; a name or DDS's 0..4) and
    ``declarer`` (or ``leader``, declarer's left-hand opponent) the contract
    played, ``level`` its level and ``doubled`` 0, 1 or 2; ``play`` the
    cards from the opening lead; ``claim=1`` the rest claimed.  For the
    single-dummy view: ``see`` the hands the player sees (seat letters,
    ``"WN"``; None: :func:`~ddsbind.board.boards.seen_by_default`), ``samples`` the layouts and
    ``seed`` their seed.
    """

    board: int | None = None
    room: str | None = None
    table: int | None = None
    deal: str | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    strain: Strain | None = None
    declarer: Seat | None = None
    level: int | None = None
    doubled: int | None = None
    play: tuple[str, ...] = ()
    claim: bool = False
    see: tuple[Seat, ...] | None = None
    samples: int | None = None
    seed: int | None = None


def _seats(query: Mapping[str, str], name: str) -> tuple[Seat, ...] | None:
    """The query's ``name`` as seat letters (``"WN"``, any order, commas allowed), None when absent."""
    text = (query.get(name) or "").replace(",", "").strip()
    if not text:
        return None
    seats = []
    for letter in text[:8]:
        try:
            seats.append(Seat.parse(letter, name))
        except Error as exc:
            raise InvalidArgumentError(f"{name}={text[:20]!r}: {exc}") from None
    if len(text) > 4 or len(set(seats)) != len(seats):
        raise InvalidArgumentError(f"{name}={text[:20]!r}: each of N, E, S, W at most once")
    return tuple(sorted(seats))


def read_query(query: Mapping[str, str]) -> BoardQuery:
    """Read an address's query into a :class:`BoardQuery`; ``InvalidArgumentError`` naming the parameter otherwise."""
    room = (query.get("room") or "").strip().lower() or None
    if room not in (None, "open", "closed"):
        raise InvalidArgumentError(f"room {room[:20]!r} is not open or closed")
    declarer = _member(query, ("declarer",), lambda v: Seat.parse(v, "declarer"))
    leader = _member(query, ("leader",), lambda v: Seat.parse(v, "leader"))
    if declarer is None and leader is not None:
        declarer = leader.rho
    elif declarer is not None and leader is not None and leader != declarer.lho:
        raise InvalidArgumentError(f"leader {leader.name} is not declarer {declarer.name}'s left-hand opponent")
    text = query.get("play") or ""
    play = tuple(c for c in text.replace(" ", ",").split(",") if c)
    if len(play) > MAX_PLAY:
        raise InvalidArgumentError(f"{len(play)} cards in the play; a deal has {MAX_PLAY}")
    return BoardQuery(
        board=_number(query, "board", 1),
        room=room,
        table=_number(query, "table", 1),
        deal=(query.get("deal") or "").strip() or None,
        dealer=_member(query, ("dealer",), lambda v: Seat.parse(v, "dealer")),
        vulnerable=_member(query, ("vulnerable", "vul"), Vulnerability.parse),
        strain=_member(query, ("strain", "trump"), Strain.parse),
        declarer=declarer,
        level=_number(query, "level", 1, 7),
        doubled=_number(query, "doubled", 0, 2),
        play=play,
        claim=query.get("claim") == "1",
        see=_seats(query, "see"),
        samples=_number(query, "samples", 1, SD_MAX_SAMPLES),
        seed=_number(query, "seed", 0),
    )


@dataclass
class Position:
    """A board, a contract's strain and declarer, and the cards played from the opening lead.

    ``state`` is the :class:`~ddsbind.game.Play` after those cards: the
    cards still held, the trick in progress and its leader, the tricks done.
    ``fault`` is the one line saying why the card after ``play`` could not
    be played (``position(..., to_fault=True)``), else None.
    """

    board: Board
    strain: Strain
    declarer: Seat
    play: list[Card]
    state: Play
    fault: str | None = None

    @property
    def solve_args(self) -> tuple[Deal, Strain, Seat, tuple[Card, ...]]:
        """``(deal, strain, leader, current_trick)`` as :func:`ddsbind.solve_board` takes the position."""
        s = self.state
        return s.deal(), self.strain, s.leader, tuple(s.current)


@renamed(trump="strain")
def position(
    board: Board,
    play: str | Sequence[Card | str] = (),
    strain: Strain | int | str | None = None,
    declarer: Seat | int | str | None = None,
    *,
    to_fault: bool = False,
) -> Position:
    """The position after ``play`` (cards from the opening lead, ``"HJ,H2,HA"`` or a list).

    ``strain`` and ``declarer`` default to the record's contract, else NT by
    South.  A card not held, a revoke or more than 52 cards raise
    ``PlayFaultError`` naming the card and its place in the play; with
    ``to_fault`` the position is the one before that card instead, its
    ``fault`` the error's line.
    """
    t = Strain.parse(strain) if strain not in (None, "") else board.contract_strain
    d = Seat.parse(declarer) if declarer not in (None, "") else board.contract_declarer
    t = DEFAULT_STRAIN if t is None else t
    d = DEFAULT_DECLARER if d is None else d
    cards: list[Card | str] = [c for c in play.replace(" ", ",").split(",") if c] if isinstance(play, str) else [*play]
    if len(cards) > MAX_PLAY:
        raise InvalidArgumentError(f"{len(cards)} cards in the play; a deal has {MAX_PLAY}")
    state = Play(board.deal, t, d.next())
    done: list[Card] = []
    for c in cards:
        try:
            state.play(c)
        except Error as exc:
            if not to_fault:
                raise
            return Position(board, t, d, done, state, f"card {len(done) + 1} of the play, {str(c)[:8]}: {exc}")
        done.append(Card.parse(c))
    return Position(board, t, d, done, state)


def seen_by_default(pos: Position) -> tuple[Seat, ...]:
    """The hands the player of the hand to play sees at the table: his own and, once the lead is made, dummy's.

    Declarer plays dummy's cards too, so dummy to play sees declarer's
    hand; the opening leader, before dummy is shown, sees only his own.
    """
    to_play = pos.state.to_play
    dummy = pos.declarer.partner
    if not pos.play:
        return (to_play,)
    return tuple(sorted({to_play, dummy, pos.declarer if to_play == dummy else to_play}))


def single_dummy_view(pos: Position, see: Sequence[Seat]) -> str:
    """The view :func:`ddsbind.single_dummy` takes: PBN, the hands in ``see`` whole (played cards too), others ``-``.

    Raises ``InvalidArgumentError`` when the hand to play is not seen, or
    the play is over.
    """
    if pos.state.finished:
        raise InvalidArgumentError("single dummy: the play is over, no card is left to choose")
    to_play = pos.state.to_play
    if to_play not in see:
        raise InvalidArgumentError(f"single dummy: the hand to play, {to_play.name}, must be among the hands seen")
    deal = pos.board.deal
    return "N:" + " ".join(deal.hand_text(seat) if seat in see else "-" for seat in Seat)


# -- JSON for the page -------------------------------------------------------------------


def contract_text(game: GameRecord) -> str | None:
    """A record's contract as the page shows it: ``"4HX"``, ``"Pass"``, or None when unknown.

    The record's one contract text (:func:`ddsbind.record.contract_text`: the page names the declarer apart).
    """
    return record_contract_text(game.contract) or None


def board_query(board: Board, tables: int) -> str:
    """The address's query naming ``board`` of a file (``board=1&room=closed``); ``tables``: records of its number."""
    text = f"board={board.file_board}"
    if board.room:
        return text + f"&room={board.room.lower()}"
    return text + (f"&table={board.table}" if tables > 1 else "")


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def board_json(board: Board) -> dict[str, Any]:
    """What the page shows of a board whatever the play: deal, dealer, vulnerability, the record's auction and play."""
    g = board.game
    doc: dict[str, Any] = {
        "number": board.number,
        "label": board.label,
        "deal": board.deal.to_pbn(),
        "dealer": None if board.dealer is None else board.dealer.name,
        "vulnerable": board.vulnerable.pbn,
        "vulnerable_sides": [side.name for side in board.vulnerable.sides],
        "hcp": {seat.name: board.deal.hcp(seat) for seat in Seat},
        "record": None,
    }
    if g is not None:
        doc["record"] = {
            "auction": [str(c) for c in g.auction],
            "contract": contract_text(g),
            "declarer": None if g.declarer is None else g.declarer.name,
            "result": g.result,
            "play": _cards(g.play),
            "players": {s: g.tags[s] for s in ("North", "East", "South", "West") if s in g.tags},
        }
    return doc


def position_json(pos: Position) -> dict[str, Any]:
    """The position for the page: hands (N E S W, suits S H D C, ace first), tricks, counts, the hand on turn."""
    s = pos.state
    # From the deal's hands, not s.deal(): after the 52nd card nobody holds a card, and that is no Deal.
    held = {seat: [c for c in pos.board.deal.hand(seat) if s.holds(seat, c)] for seat in Seat}
    hands = {seat.name: [[str(c) for c in held[seat] if c.suit == suit] for suit in range(4)] for seat in Seat}
    # Play.tricks holds completed tricks only: each has its winner.
    done = [(t, t.winner) for t in s.tricks if t.winner is not None]
    tricks = [
        {"number": t.number, "leader": t.leader.name, "cards": _cards(t.cards), "winner": w.name} for t, w in done
    ]
    won = sum(1 for _, w in done if w.side is pos.declarer.side)
    return {
        "strain": pos.strain.name,
        "declarer": pos.declarer.name,
        "play": _cards(pos.play),
        "hands": hands,
        "leader": s.leader.name,
        "trick": _cards(s.current),
        "tricks": tricks,
        "declarer_tricks": won,
        "defence_tricks": len(s.tricks) - won,
        "trick_number": min(len(s.tricks) + 1, 13),
        "to_play": None if s.finished else s.to_play.name,
        "legal": _cards(s.legal_cards()) if not s.finished else [],
        "finished": s.finished,
        "fault": pos.fault,
    }


# -- export ---------------------------------------------------------------------------------

#: BBO's handviewer, which shows a LIN record given as ``?lin=``.
HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"


def played_record(board: Board, contract: Contract, play: Sequence[Card]) -> GameRecord:
    """A game record of ``board`` played in ``contract`` (a declared :class:`~ddsbind.Contract`) with ``play``.

    The record's own auction when it reached this contract; otherwise
    passes to the declarer, who bids the contract (doubled by the next
    hand if it is), then three passes.
    """
    g = board.game
    dealer = board.dealer or Seat.N
    bare = contract.undeclared
    if g is not None and g.contract == bare and g.declarer == contract.declarer:
        auction = list(g.auction)
    else:
        auction = [Call.PASS] * next(k for k in range(4) if dealer.next(k) == contract.declarer)
        auction.append(contract.call)
        doubling = [Call.DOUBLE, Call.PASS, Call.PASS, Call.REDOUBLE]
        auction += doubling[: 1 if contract.doubled == 1 else 4 if contract.doubled == 2 else 0]
        auction += [Call.PASS] * 3
    return GameRecord(
        board.deal, dealer, board.vulnerable, board.file_board, auction=auction, contract=bare,
        declarer=contract.declarer, play=list(play),
    )  # fmt: skip


def exports(board: Board, contract: Contract, play: Sequence[Card]) -> dict[str, str]:
    """The deal and ``play`` so far as PBN text, a LIN line and a BBO handviewer address."""
    import urllib.parse

    from ddsbind.formats.lin import format_lin
    from ddsbind.formats.pbngame import format_games

    record = played_record(board, contract, play)
    lin = format_lin([record]).strip()
    return {
        "pbn": format_games([record]),
        "lin": lin,
        "handviewer": HANDVIEWER + "?lin=" + urllib.parse.quote(lin, safe=""),
    }
