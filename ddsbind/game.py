"""The rules of bridge play, without DDS: vulnerability, tricks, legal cards, playing a sequence out.

This is the one model of play in ddsbind.  The solver's input checks, the
play analysis, the game-record formats (PBN, ZRJ) and the proof trees all
play cards through :class:`Play` and ask :func:`trick_winner` who won, so a
rule lives here and nowhere else.  No DDS import.  A played deal as a
value (a position and the cards played from it, checked once) is a
:class:`CardPlay`: the one input of the double-dummy play analysis.

Conventions (DDS's): seats 0=N 1=E 2=S 3=W (:class:`~ddsbind.deal.Seat`),
strains 0=S 1=H 2=D 3=C 4=NT (:class:`~ddsbind.deal.Strain`); vulnerability
in DDS's encoding 0 none, 1 both, 2 NS, 3 EW (:class:`Vulnerability`).

A position is what DDS's ``deal`` struct holds: the cards still in the hands,
the trump, the leader of the current trick and the cards already played to
it (which the hands no longer hold).  Faults raise
:class:`~ddsbind.errors.PlayFaultError` (DDS code -98) naming the card, and
the play's 0-based position through ``.at(i, "play")``; a fault in the
current trick given with the position raises the class DDS returns for it
(``PlayedCardError``, ``DuplicateCardsError``, ``CardCountError``), or
``PlayFaultError`` for a revoke.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ddsbind import _holdings
from ddsbind.deal import SUITS, Card, Deal, Seat, Strain, Vulnerability
from ddsbind.errors import (
    ArgumentError,
    CardCountError,
    DDSError,
    DuplicateCardsError,
    FirstWrongError,
    PlayedCardError,
    PlayFaultError,
    SuitOrRankError,
)

__all__ = [
    "CardPlay",
    "Play",
    "PlayedTrick",
    "Vulnerability",
    "as_deal",
    "check_current_trick",
    "check_trick_cards",
    "check_trick_lengths",
    "parse_cards",
    "parse_leader",
    "parse_trick",
    "play_out",
    "trick_winner",
]

_ORDINAL = ("1st", "2nd", "3rd", "4th")


def as_deal(deal: object) -> Deal:
    """A :class:`Deal` from a ``Deal``, a PBN string or a ``(4, 4)`` mask array; ``ArgumentError`` otherwise."""
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.from_pbn(deal)
    if isinstance(deal, np.ndarray | list | tuple):
        return Deal(deal)
    raise ArgumentError(f"a deal must be a Deal, a PBN string or a (4, 4) mask array, got {type(deal).__name__}")


def parse_leader(value: Seat | int | str) -> Seat:
    """The hand on lead (DDS's ``first``: 0=N 1=E 2=S 3=W, or a letter or name).

    Anything else raises ``FirstWrongError`` (DDS code -19), the class DDS
    returns for a bad ``first``, from every entry point.
    """
    return Seat.parse(value, "first", error=FirstWrongError)


@dataclass(frozen=True)
class PlayedTrick:
    """One trick: its number (1..13), leader, cards in play order, and winner (None while unfinished)."""

    number: int
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None


def trick_winner(cards: Sequence[Card], leader: Seat | int, trump: Strain | int) -> Seat:
    """The seat that wins a complete trick: the highest trump, else the highest card of the suit led.

    ``cards`` are in play order from ``leader``; ``trump`` 4 (NT) has no trumps.
    """
    led = cards[0].suit
    best = max(range(len(cards)), key=lambda k: (cards[k].suit == trump, cards[k].suit == led, cards[k].rank))
    return Seat(leader).next(best)


_CARD_TOKEN = re.compile(r"[SHDC](?:10|[2-9TJQKA])", re.IGNORECASE)


def parse_cards(
    cards: str | Iterable[Card | str],
    *,
    error: type[DDSError] = PlayFaultError,
    item: str = "play",
) -> list[Card]:
    """Cards from a list (``Card`` or ``"SA"``, ``"H10"``) or a string.

    A string may run the cards together (``"C4CACJ"``, as DDS's reference
    files do) or separate them by commas or white space (``"SA, S2"``);
    ``10`` and ``T`` are both tens.  A token that is not a card raises
    ``error`` (``PlayFaultError`` by default) naming it, with its 0-based
    position through ``.at(i, item)``.
    """
    if isinstance(cards, str):
        tokens: list[str] = []
        for part in re.split(r"[\s,]+", cards.strip()):
            pos = 0
            while pos < len(part):
                m = _CARD_TOKEN.match(part, pos)
                if m is None:
                    raise error(f"{part[pos:]!r} does not start with a card", dds=False).at(len(tokens), item)
                tokens.append(m.group(0))
                pos = m.end()
        items: Iterable[Card | str] = tokens
    elif isinstance(cards, Iterable):
        items = cards
    else:
        raise error(f"{cards!r:.40} is not a card string or a sequence of cards", dds=False)
    out = []
    for i, c in enumerate(items):
        if not isinstance(c, Card | str):
            raise error(f"{c!r:.40} is not a card", dds=False).at(i, item)
        try:
            out.append(Card.parse(c))
        except DDSError:
            raise error(f"{c!r} is not a card", dds=False).at(i, item) from None
    return out


def parse_trick(cards: str | Iterable[Card | str]) -> list[Card]:
    """The cards already on the current trick, as :func:`parse_cards` reads them.

    A token that is not a card raises ``SuitOrRankError`` (DDS's code for a
    bad ``currentTrickSuit``/``currentTrickRank``), at ``"current trick card"`` i.
    """
    return parse_cards(cards, error=SuitOrRankError, item="current trick card")


class Play:
    """A position being played out, every card checked as it is played.

    Parameters
    ----------
    deal : Deal
        The cards still held.  Cards already on the current trick are not in
        it (those hands hold one card fewer), as in DDS's ``deal`` struct.
    trump : Strain, 0..4 or name
    leader : Seat, 0..3 or name
        The hand that led the current trick (or leads the next one).
    current_trick : cards or str
        Up to 3 cards already played to the current trick, in play order from
        ``leader`` (a string is read by :func:`parse_trick`).  Checked by
        :func:`check_current_trick`: not held by anyone, not repeated, no
        revoke (judged from the cards the player still holds), and the hands
        that played hold one card fewer than the others.

    Attributes
    ----------
    trump : Strain
    leader : Seat
        The leader of the trick in progress.
    current : list of Card
        The cards of the trick in progress, in play order.
    tricks : list of PlayedTrick
        Tricks completed since the start (a current trick given at the start
        counts towards the first).
    count : int
        Cards played through :meth:`play` since the start.
    """

    def __init__(
        self,
        deal: Deal,
        trump: Strain | int | str,
        leader: Seat | int | str,
        current_trick: str | Iterable[Card | str] = (),
    ) -> None:
        self.trump = Strain.parse(trump)
        self.leader = parse_leader(leader)
        self._masks = [[int(m) for m in row] for row in deal.remain_cards.tolist()]
        trick = parse_trick(current_trick)
        check_current_trick(deal, self.leader, trick)
        self.current: list[Card] = list(trick)
        self.tricks: list[PlayedTrick] = []
        self.count = 0

    # -- queries -----------------------------------------------------------

    @property
    def to_play(self) -> Seat:
        """The seat whose turn it is."""
        return self.leader.next(len(self.current))

    @property
    def cards_left(self) -> int:
        """Cards still held by the four hands."""
        return sum(m.bit_count() for row in self._masks for m in row)

    @property
    def finished(self) -> bool:
        """True when every card has been played."""
        return self.cards_left == 0

    @property
    def trick_number(self) -> int:
        """The number (1..13) of the trick in progress (or of the next one), counted as in a full deal.

        The hands that have not played to it hold ``14 - number`` cards, so an
        ending of 3 cards a hand is at trick 11.
        """
        return 14 - max(sum(m.bit_count() for m in row) for row in self._masks)

    def holds(self, seat: Seat | int, card: Card) -> bool:
        """True when ``seat`` still holds ``card``."""
        return bool(self._masks[seat][card.suit] >> card.rank & 1)

    def holder(self, card: Card) -> Seat | None:
        """The seat still holding ``card``, or None (played, or never in the deal)."""
        return next((Seat(h) for h in range(4) if self._masks[h][card.suit] >> card.rank & 1), None)

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play: the suit led if it has one, else any; ace first, spades first."""
        hand = self._masks[self.to_play]
        suits = range(4)
        if self.current and hand[self.current[0].suit]:
            suits = range(self.current[0].suit, self.current[0].suit + 1)
        return [Card(s, r) for s in suits for r in range(14, 1, -1) if hand[s] >> r & 1]

    def deal(self) -> Deal:
        """The cards still held, as a :class:`Deal` (the current trick's cards are not in it)."""
        return Deal(self._masks)

    def where(self) -> str:
        """Where the next card goes, for messages: ``"trick 3, 2nd card, E"``."""
        return f"trick {self.trick_number}, {_ORDINAL[len(self.current)]} card, {self.to_play.name}"

    # -- playing -----------------------------------------------------------

    def play(self, card: Card | str) -> PlayedTrick | None:
        """Play ``card`` for the seat to play; returns the trick when this card completes it.

        Raises ``PlayFaultError`` (with ``card`` set) when the card is not a
        card, is not held by the seat to play (naming who holds it, or that
        it was played), or is a revoke.  Nothing changes on a fault.
        """
        try:
            c = Card.parse(card)
        except DDSError:
            raise PlayFaultError(f"{self.where()}: {card!r} is not a card", dds=False) from None
        seat = self.to_play
        if not self.holds(seat, c):
            holder = self.holder(c)
            why = f"held by {holder.name}" if holder is not None else "already played"
            if self.cards_left == 0:
                why = "every card has been played"
            raise PlayFaultError(f"{self.where()}: {c} is not held by {seat.name} ({why})", card=str(c))
        cur = self.current
        if cur and c.suit != cur[0].suit and self._masks[seat][cur[0].suit]:
            raise PlayFaultError(
                f"{self.where()}: {c} is a revoke: {seat.name} holds {SUITS[cur[0].suit]}, the suit led",
                card=str(c),
            )
        number = self.trick_number
        self._masks[seat][c.suit] &= ~(1 << c.rank)
        cur.append(c)
        self.count += 1
        if len(cur) < 4:
            return None
        win = trick_winner(cur, self.leader, self.trump)
        done = PlayedTrick(number, self.leader, tuple(cur), win)
        self.tricks.append(done)
        self.leader, self.current = win, []
        return done

    def play_all(self, cards: str | Iterable[Card | str]) -> list[PlayedTrick]:
        """Play a sequence; a fault is raised with its 0-based position in ``cards`` (``.at(i, "play")``).

        Returns the tricks completed by these cards.
        """
        done = []
        for i, c in enumerate(parse_cards(cards)):
            try:
                t = self.play(c)
            except DDSError as exc:
                raise exc.at(i, "play") from None
            if t is not None:
                done.append(t)
        return done

    def all_tricks(self) -> list[PlayedTrick]:
        """The completed tricks, then the trick in progress (``winner`` None) if it has cards."""
        if self.current:
            return [*self.tricks, PlayedTrick(self.trick_number, self.leader, tuple(self.current), None)]
        return list(self.tricks)


def check_trick_lengths(lengths: Sequence[int], leader: Seat | int, played: int) -> None:
    """Check that hand lengths fit ``played`` cards on the current trick led by ``leader``.

    The hands that played to the trick hold one card fewer than the others
    (``lengths`` is N, E, S, W).  Raises ``CardCountError`` (DDS code -14).
    """
    expected = [max(lengths)] * 4
    for k in range(played):
        expected[Seat(leader).next(k)] -= 1
    if list(lengths) != expected:
        on_trick = f" with {played} card(s) on the current trick led by {Seat(leader).name}" if played else ""
        raise CardCountError(
            "hands hold N={} E={} S={} W={} cards{}; ".format(*lengths, on_trick)
            + "the hands that played to the current trick must hold one card fewer than the others",
            field="remainCards",
        )


def check_trick_cards(masks: Sequence[Sequence[int]], leader: Seat | int, trick: Sequence[Card]) -> None:
    """Check the current trick's cards against the holdings, in DDS's order.

    ``masks`` is ``remainCards[hand][suit]`` (plain ints, no stray bits), the
    hands that played to the trick no longer holding its cards.  Raises
    ``PlayedCardError`` (a trick card still held), ``DuplicateCardsError``
    (a card held twice, or twice on the trick), ``PlayFaultError`` (a revoke).
    """
    for c in trick:
        for h in range(4):
            if masks[h][c.suit] >> c.rank & 1:
                raise PlayedCardError(f"{c} is on the current trick and still held by {Seat(h).name}", card=str(c))
    dup = _holdings.duplicate(masks)
    if dup is not None:
        raise dup
    if len(set(trick)) != len(trick):
        raise DuplicateCardsError("the same card is played twice to the current trick", field="currentTrick")
    for k in range(1, len(trick)):
        player = Seat(leader).next(k)
        led = trick[0].suit
        if trick[k].suit != led and masks[player][led]:
            raise PlayFaultError(
                f"current trick: {Seat(player).name} plays {trick[k]} but holds {SUITS[led]} (revoke)",
                card=str(trick[k]),
            )


def check_current_trick(deal: Deal, leader: Seat | int, trick: Sequence[Card]) -> None:
    """Check the cards already on the current trick against the cards still held.

    ``deal`` holds the cards still in the hands (not the trick's), ``trick`` is
    in play order from ``leader``.  The one check of a position every
    Pythonic entry point runs (``solve_board``, the pool, ``best_line``,
    ``analyse_play``), raising the class DDS returns for each fault:
    ``CardCountError`` (more than 3 cards), then the cards
    (:func:`check_trick_cards`: ``PlayedCardError`` for a trick card still
    held, ``DuplicateCardsError`` for a card twice on the trick,
    ``PlayFaultError`` for a revoke), then the hand lengths
    (:func:`check_trick_lengths`, ``CardCountError``).  The cards come
    before the lengths so that a trick card still held is named as such.
    (The DLL layer, where DDS derives the trick's size from the card count,
    runs the same two checks in DDS's order: lengths, then cards.)
    """
    if len(trick) > 3:
        raise CardCountError(f"the current trick holds at most 3 cards, got {len(trick)}", field="currentTrick")
    check_trick_cards(deal.remain_cards.tolist(), leader, trick)
    check_trick_lengths(deal.hand_lengths, leader, len(trick))


def play_out(
    deal: Deal,
    trump: Strain | int | str,
    leader: Seat | int | str,
    cards: str | Iterable[Card | str],
    current_trick: str | Iterable[Card | str] = (),
) -> list[PlayedTrick]:
    """Play ``cards`` out from a position and return every trick, the last unfinished if the play stops mid-trick.

    The checks and the numbering of faults are :class:`Play`'s.
    """
    p = Play(deal, trump, leader, current_trick)
    p.play_all(cards)
    return p.all_tricks()


@dataclass(frozen=True, init=False)
class CardPlay:
    """The play of a deal: a position (cards held, strain, leader, trick in progress) and the cards played from it.

    The one input of the double-dummy play analysis: :func:`ddsbind.analyse_play`,
    :func:`ddsbind.costly_cards`, :func:`ddsbind.best_line` and the batch functions of
    :mod:`ddsbind.play` take one (or its arguments, as they always did), and
    :attr:`ddsbind.record.GameRecord.card_play` is a game record's.  Every card is
    played out by :class:`Play` on construction, so a ``CardPlay`` always holds a
    legal play; it compares and hashes by value.

    Parameters
    ----------
    deal : Deal, PBN string or (4, 4) masks
        The cards held when the play starts (the current trick's cards are not in it).
    strain : Strain, 0..4 or name
    leader : Seat, 0..3 or name
        The hand that led the current trick, or leads the first trick
        (DDS's ``first``); declarer sits to its right.
    plays : str or cards
        The cards played, in play order: ``"C4CACJ"`` (as DDS's reference
        files write them), ``"C4 CA C10"``, ``"C4,CA"`` or a list of cards.
    current_trick : str or cards
        Up to 3 cards already on the trick when the play starts, in play order from ``leader``.

    Raises
    ------
    ArgumentError
        ``deal`` is not a deal.
    TrumpWrongError, FirstWrongError
        A bad strain or leader.
    PlayedCardError, DuplicateCardsError, CardCountError, SuitOrRankError, PlayFaultError
        A bad current trick, as :func:`ddsbind.solve_board` refuses it.
    PlayFaultError
        A card of ``plays`` that is not a card, not held by the seat to play,
        or a revoke; ``.index`` is its 0-based position in ``plays``.

    Examples
    --------
    >>> p = CardPlay("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "S", "E", "CA C8 C5 C2")
    >>> p.declarer.name, p.plays[0], p.replayed().to_play.name
    ('N', Card('CA'), 'E')
    """

    deal: Deal
    strain: Strain
    leader: Seat
    #: The cards played after ``current_trick``, in play order.
    plays: tuple[Card, ...]
    current_trick: tuple[Card, ...]

    def __init__(
        self,
        deal: Deal | str | Sequence[Sequence[int]],
        strain: Strain | int | str,
        leader: Seat | int | str,
        plays: str | Iterable[Card | str] = (),
        current_trick: str | Iterable[Card | str] = (),
    ) -> None:
        start = as_deal(deal)
        table = Play(start, strain, leader, current_trick)
        cards = parse_cards(plays)
        for name, value in (
            ("deal", start),
            ("strain", table.trump),
            ("leader", table.leader),
            ("plays", tuple(cards)),
            ("current_trick", tuple(table.current)),
        ):
            object.__setattr__(self, name, value)
        table.play_all(cards)

    @property
    def declarer(self) -> Seat:
        """The seat to the leader's right: the analysis counts tricks for its side."""
        return self.leader.rho

    @property
    def from_opening_lead(self) -> bool:
        """True when the play starts at the opening lead: a full deal and no trick in progress."""
        return self.deal.is_full and not self.current_trick

    def replayed(self) -> Play:
        """A :class:`Play` at the position the play reaches: every card of ``plays`` played out."""
        table = Play(self.deal, self.strain, self.leader, self.current_trick)
        table.play_all(self.plays)
        return table
