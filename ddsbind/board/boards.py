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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ddsbind.deal import Card, Deal, Seat, Strain, Vulnerability
from ddsbind.errors import InvalidArgumentError
from ddsbind.game import Play

__all__ = [
    "Board",
    "Position",
    "board_json",
    "contract_text",
    "deal_board",
    "load_boards",
    "position",
    "position_json",
]

#: Trump and declarer of a board without a contract (a deal, a passed-out game).
DEFAULT_TRUMP = Strain.NT
DEFAULT_DECLARER = Seat.S
#: At most this many cards in a ``play`` address (a whole deal).
MAX_PLAY = 52


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
    game : object or None
        The game record (auction, contract, play) when the file holds one:
        an object with ddsbind's game-record attributes (``auction``,
        ``contract``, ``declarer``, ``result``, ``play``, ``trump``, ``tags``).
    """

    number: int
    deal: Deal
    dealer: Seat | None
    vulnerable: Vulnerability
    label: str
    game: Any = field(default=None, compare=False, repr=False)

    @property
    def contract_trump(self) -> Strain | None:
        """The record's contract strain, None without a record or contract."""
        return None if self.game is None else self.game.trump

    @property
    def contract_declarer(self) -> Seat | None:
        """The record's declarer, None without a record or contract."""
        return None if self.game is None or self.game.trump is None else self.game.declarer

    @property
    def record_play(self) -> list[Card]:
        """The record's cards in play order from the opening lead (empty without one)."""
        return [] if self.game is None else list(self.game.play)


def deal_board(text: str, number: int = 1) -> Board:
    """A board of one pasted PBN deal string (dealer N, nobody vulnerable); raises the deal's ``PBNError``."""
    deal = Deal.from_pbn(text.strip())
    if not deal.is_full:
        raise InvalidArgumentError(f"the deal holds {deal.n_cards} cards; the board plays full deals of 52")
    return Board(number, deal, Seat.N, Vulnerability.NONE, str(number))


def load_boards(path: str | os.PathLike[str]) -> list[Board]:
    """Every board of a file ddsbind reads: game records (PBN, LIN, ZRJ) or deals (ZRD, ZBD, GIB...).

    Files that hold game records keep their auction and play; files of
    deals get each board's dealer and vulnerability from its position in
    the 16-board cycle.  Raises the reader's ``FormatError`` (or
    ``OSError``) for a file that cannot be read.
    """
    from ddsbind.formats import board_dealer, board_vulnerability, read_games
    from ddsbind.formats.convert import read_any
    from ddsbind.formats.games import game_formats
    from ddsbind.formats.registry import guess

    fmt = guess(path)
    boards: list[Board] = []
    if fmt in game_formats():
        for i, g in enumerate(read_games(path)):
            label = str(g.board) if g.board is not None else str(i + 1)
            room = g.tags.get("Room")
            boards.append(Board(i + 1, g.deal, g.dealer, g.vulnerable, f"{label} {room}" if room else label, g))
        return boards
    for owners, _tables in read_any(path):
        if owners is None:
            raise InvalidArgumentError(f"{os.fspath(path)} holds results without deals: nothing to play")
        for row in owners:
            n = len(boards) + 1
            deal = Deal.from_owners(row)
            boards.append(Board(n, deal, board_dealer(n), board_vulnerability(n), str(n)))
    return boards


@dataclass
class Position:
    """A board, a contract's trump and declarer, and the cards played from the opening lead.

    ``state`` is the :class:`~ddsbind.game.Play` after those cards: the
    cards still held, the trick in progress and its leader, the tricks done.
    """

    board: Board
    trump: Strain
    declarer: Seat
    play: list[Card]
    state: Play

    @property
    def solve_args(self) -> tuple[Deal, Strain, Seat, tuple[Card, ...]]:
        """``(deal, trump, first, current_trick)`` as :func:`ddsbind.solve_board` takes the position."""
        s = self.state
        return s.deal(), self.trump, s.leader, tuple(s.current)


def position(
    board: Board,
    play: str | Sequence[Card | str] = (),
    trump: Strain | int | str | None = None,
    declarer: Seat | int | str | None = None,
) -> Position:
    """The position after ``play`` (cards from the opening lead, ``"HJ,H2,HA"`` or a list).

    ``trump`` and ``declarer`` default to the record's contract, else NT by
    South.  A card not held, a revoke or more than 52 cards raise
    ``PlayFaultError`` naming the card and its place in the play.
    """
    t = Strain.parse(trump) if trump not in (None, "") else board.contract_trump
    d = Seat.parse(declarer) if declarer not in (None, "") else board.contract_declarer
    t = DEFAULT_TRUMP if t is None else t
    d = DEFAULT_DECLARER if d is None else d
    cards: list[Card | str] = [c for c in play.replace(" ", ",").split(",") if c] if isinstance(play, str) else [*play]
    if len(cards) > MAX_PLAY:
        raise InvalidArgumentError(f"{len(cards)} cards in the play; a deal has {MAX_PLAY}")
    state = Play(board.deal, t, d.next())
    state.play_all(cards)
    return Position(board, t, d, [Card.parse(c) for c in cards], state)


# -- JSON for the page -------------------------------------------------------------------


def contract_text(game: Any) -> str | None:
    """A record's contract as the page shows it: ``"4HX"``, ``"Pass"``, or None when unknown.

    Read through ``str``, so a contract held as text or as a contract object
    (whose text may add ``" by W"``: the page names the declarer apart) reads alike.
    """
    if game.contract is None:
        return "Pass" if getattr(game, "passed_out", False) else None
    return str(game.contract).split(" by ")[0]


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
        "record": None,
    }
    if g is not None:
        doc["record"] = {
            "auction": list(g.auction),
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
    deal = s.deal()
    hands = {seat.name: [[str(c) for c in deal.hand(seat) if c.suit == suit] for suit in range(4)] for seat in Seat}
    # Play.tricks holds completed tricks only: each has its winner.
    done = [(t, t.winner) for t in s.tricks if t.winner is not None]
    tricks = [
        {"number": t.number, "leader": t.leader.name, "cards": _cards(t.cards), "winner": w.name} for t, w in done
    ]
    won = sum(1 for _, w in done if w % 2 == pos.declarer % 2)
    return {
        "trump": pos.trump.name,
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
    }
