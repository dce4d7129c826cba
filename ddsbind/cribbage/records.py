"""Cribbage game records: cards, pegging plays, deals and sessions, and the rules a record must keep.

The types a Code64 record holds (:class:`Card`, :class:`Play`, :class:`Deal`,
:class:`Session`) and :func:`validate`, which checks a session against the
record's rules before it is written (and after it is read): distinct cards,
pegging from the kept hands, scores 0..121, 1..256 deals, the header's games
matching the deals flagged last of their game.  The record's bits and its
Base64 text, and the JSON mapping, are :mod:`ddsbind.cribbage.code64`'s, whose
docstring is the format's full description; every name here is also a name
of that module.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ddsbind.errors import FormatError

__all__ = [
    "DATE_FIELDS",
    "MAX_DEALS",
    "MAX_GAMES",
    "MAX_SCORE",
    "PLAY_SLOTS",
    "RANKS",
    "SUITS",
    "TEXT_WIDTHS",
    "Card",
    "Deal",
    "Play",
    "Session",
    "deal_error",
    "header_error",
    "validate",
]

#: Suit letters, index = suit number of the ``ss`` bits (S H D C = 0..3).
SUITS = "SHDC"
#: Rank characters, index = rank - 1 (ace .. king); ``"10"`` is read as ``"T"``.
RANKS = "A23456789TJQK"

#: Width in bytes of the header's text fields, in record order.
TEXT_WIDTHS = {"origin": 16, "program": 16, "player 0 name": 8, "player 1 name": 8, "comments": 18}
#: Date fields: name, width in bits, smallest and largest value.
DATE_FIELDS = (
    ("year", 12, 1, 4095),
    ("month", 4, 1, 12),
    ("day", 5, 1, 31),
    ("hour", 6, 0, 23),
    ("minute", 6, 0, 59),
    ("second", 6, 0, 59),
)
MAX_DEALS = 256
MAX_GAMES = 255
MAX_SCORE = 121
PLAY_SLOTS = 8

_CARD_TEXT = re.compile(r"\s*(10|[A2-9TJQK])([SHDC])\s*", re.IGNORECASE)


# --------------------------------------------------------------------------
# Records


@dataclass(frozen=True, order=True)
class Card:
    """A cribbage card: ``suit`` 0..3 (S H D C, the ``ss`` bits) and ``rank`` 1..13 (ace .. king).

    Not :class:`ddsbind.Card`: bridge ranks run 2..14 with the ace high, here
    the ace is 1 and the code is the seed's 6-bit ``ss rrrr``.
    """

    suit: int
    rank: int

    def __post_init__(self) -> None:
        if type(self.suit) is not int or not 0 <= self.suit <= 3:
            raise FormatError(f"card suit = {self.suit!r}: not in 0..3 (S H D C)")
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise FormatError(f"card rank = {self.rank!r}: not in 1..13 (ace .. king)")

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read ``"5H"``, ``"KC"``, ``"AS"``, ``"10D"`` or ``"TD"`` (rank, then suit; any case).

        Raises
        ------
        FormatError
            If ``text`` is not a card.
        """
        if isinstance(text, Card):
            return text
        m = _CARD_TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise FormatError(f"card = {text!r}: not a card (rank A 2-9 T/10 J Q K, then suit S H D C)")
        rank = "T" if m[1] == "10" else m[1].upper()
        return cls(SUITS.index(m[2].upper()), RANKS.index(rank) + 1)

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with 6-bit code ``ss rrrr`` (``0b111101`` is the king of clubs)."""
        return cls(code >> 4 & 3, code & 15)

    @property
    def code(self) -> int:
        """The 6-bit code ``ss rrrr``."""
        return self.suit << 4 | self.rank

    @property
    def value(self) -> int:
        """Pegging value: ace 1, pip cards their rank, jack, queen and king 10."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@dataclass(frozen=True)
class Play:
    """One pegging play: ``player`` (0 or 1) played ``card``."""

    player: int
    card: Card

    @property
    def code(self) -> int:
        """The 7-bit code ``p ss rrrr``."""
        return self.player << 6 | self.card.code


def _tuple(x: object) -> object:
    """``tuple(x)`` for a non-string iterable, else ``x`` (left for :func:`validate` to reject)."""
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        return x
    return tuple(x)


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One deal of a cribbage game, as the record holds it.

    Attributes
    ----------
    hands : tuple of two tuples of 4 Card
        The hands each player kept (player 0's, then player 1's), in record order.
    discards : tuple of two tuples of 2 Card
        What each player put in the crib (player 0's, then player 1's).
    starter : Card
        The starter (cut) card.
    pegging : tuple of Play, length 0..8
        The plays in order.  Fewer than 8 means the game ended during pegging.
    scores : tuple of two int
        Player 0's and player 1's score after the deal, 0..121.
    dealer : int
        The dealer, 0 or 1 (the crib is the dealer's).
    last_of_game : bool
        True if this deal ends its game.
    """

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    discards: tuple[tuple[Card, ...], tuple[Card, ...]]
    starter: Card
    pegging: tuple[Play, ...]
    scores: tuple[int, int]
    dealer: int
    last_of_game: bool

    def __post_init__(self) -> None:
        # Accept lists (JSON, hand-written code) but store tuples, so that
        # equality and hashing do not depend on how a deal was built.
        for name in ("hands", "discards"):
            value = _tuple(getattr(self, name))
            if isinstance(value, tuple):
                value = tuple(_tuple(h) for h in value)
            object.__setattr__(self, name, value)
        object.__setattr__(self, "pegging", _tuple(self.pegging))
        object.__setattr__(self, "scores", _tuple(self.scores))

    @property
    def crib(self) -> tuple[Card, ...]:
        """The dealer's crib: player 0's discards, then player 1's."""
        return (*self.discards[0], *self.discards[1])

    def running_counts(self) -> Iterator[tuple[Play, int, bool]]:
        """Yield ``(play, count after it, True if the count restarted before it)``.

        The record has no "go" marks; the count restarts exactly when the next
        card would take it past 31 (always the case after 31 itself).
        """
        count = 0
        for play in self.pegging:
            reset = count + play.card.value > 31
            if reset:
                count = 0
            count += play.card.value
            yield play, count, reset


@dataclass(frozen=True, kw_only=True)
class Session:
    """A cribbage session: the record's header and its deals.

    Attributes
    ----------
    origin : str
        Software that wrote the record, at most 16 printable ASCII characters.
    program : str
        Cribbage program name, at most 16 printable ASCII characters.
    players : tuple of two str
        Player 0's and player 1's names, at most 8 printable ASCII characters each.
    comments : str
        At most 18 printable ASCII characters.
    played : datetime.datetime
        Date and time of the session: naive, whole seconds, year 1..4095.
    games : int
        Number of games, 0..255; must equal the number of deals flagged
        ``last_of_game``.
    deals : tuple of Deal
        1..256 deals in order.
    """

    origin: str = ""
    program: str = ""
    players: tuple[str, str] = ("", "")
    comments: str = ""
    played: dt.datetime
    games: int
    deals: tuple[Deal, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _tuple(self.players))
        object.__setattr__(self, "deals", _tuple(self.deals))

    def to_text(self) -> str:
        """The session as a person reads it: the header, then each deal's hands, crib, pegging and scores.

        Players without a name are called ``player 0`` and ``player 1``.
        :func:`to_json` is the machine-readable form.
        """
        names = [name or f"player {p}" for p, name in enumerate(self.players)]
        lines = [
            f"Origin:   {self.origin}",
            f"Program:  {self.program}",
            f"Players:  0 = {names[0]}, 1 = {names[1]}",
            f"Played:   {self.played:%Y-%m-%d %H:%M:%S}",
            f"Comments: {self.comments}",
            f"Games: {self.games}   Deals: {len(self.deals)}",
        ]
        width = max(len(n) for n in names)
        game = 1
        for k, deal in enumerate(self.deals):
            dealer = names[deal.dealer]
            lines += ["", f"Deal {k + 1} (game {game}), dealer {dealer}"]
            for p in (0, 1):
                hand = " ".join(str(c) for c in deal.hands[p])
                discards = " ".join(str(c) for c in deal.discards[p])
                lines.append(f"  {names[p]:<{width}}  keeps {hand}   discards {discards}")
            lines.append(f"  Crib ({dealer}): {' '.join(str(c) for c in deal.crib)}   Starter: {deal.starter}")
            lines.append("  Pegging:")
            for j, (play, count, reset) in enumerate(deal.running_counts()):
                if reset:
                    lines.append("     -- count restarts --")
                lines.append(f"    {j + 1}. {names[play.player]:<{width}}  {play.card!s:<3} count {count:>2}")
            if len(deal.pegging) < 8:
                lines.append(f"     -- no further plays: the game ended after {len(deal.pegging)} --")
            lines.append(f"  Scores: {names[0]} {deal.scores[0]}, {names[1]} {deal.scores[1]}")
            if deal.last_of_game:
                lines.append(f"  == end of game {game} ==")
                game += 1
        return "\n".join(line.rstrip() for line in lines)


# --------------------------------------------------------------------------
# Validation


def deal_error(k: int, field: str, value: object, problem: str) -> FormatError:
    """An error in deal ``k``: the message counts from 1, ``.index`` is ``k`` (0-based)."""
    exc = FormatError(f"deal {k + 1} (1-based), {field} = {value}: {problem}")
    # Set after construction: FormatError would prefix "record k" to the message.
    exc.index = k
    return exc


def header_error(field: str, value: object, problem: str) -> FormatError:
    return FormatError(f"header, {field} = {value!r}: {problem}")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_text(field: str, value: object) -> bytes:
    width = TEXT_WIDTHS[field]
    if not isinstance(value, str):
        raise header_error(field, value, "not a string")
    for i, ch in enumerate(value):
        if not " " <= ch <= "~":
            raise header_error(field, value, f"character {i} (0-based) {ch!r} is not printable ASCII")
    if len(value) > width:
        raise header_error(field, value, f"{len(value)} characters, at most {width} fit")
    return value.encode("ascii")


def _check_cards(k: int, field: str, cards: object, n: int) -> tuple[Card, ...]:
    if not isinstance(cards, tuple) or len(cards) != n:
        raise deal_error(k, field, cards, f"expected {n} cards")
    for card in cards:
        if not isinstance(card, Card):
            raise deal_error(k, field, card, "not a Card")
    return cards


def _check_deal(k: int, deal: object) -> None:
    if not isinstance(deal, Deal):
        raise deal_error(k, "deal", type(deal).__name__, "not a Deal")
    seen: dict[Card, str] = {}
    kept: list[tuple[Card, ...]] = []
    for name, pairs, n in (("kept hand", deal.hands, 4), ("discards", deal.discards, 2)):
        if not isinstance(pairs, tuple) or len(pairs) != 2:
            raise deal_error(k, f"{name} (both players)", pairs, "expected one per player")
        for p in (0, 1):
            field = f"player {p} {name}"
            cards = _check_cards(k, field, pairs[p], n)
            if name == "kept hand":
                kept.append(cards)
            for card in cards:
                if card in seen:
                    raise deal_error(k, field, card, f"card already in {seen[card]}")
                seen[card] = field
    starter = _check_cards(k, "starter", (deal.starter,), 1)[0]
    if starter in seen:
        raise deal_error(k, "starter", starter, f"card already in {seen[starter]}")

    pegging = deal.pegging
    if not isinstance(pegging, tuple) or len(pegging) > PLAY_SLOTS:
        raise deal_error(k, "pegging", pegging, f"expected a sequence of at most {PLAY_SLOTS} plays")
    played: set[Card] = set()
    for j, play in enumerate(pegging):
        field = f"pegging play {j + 1}"
        if not isinstance(play, Play):
            raise deal_error(k, field, play, "not a Play")
        if not _is_int(play.player) or play.player not in (0, 1):
            raise deal_error(k, field + " player", play.player, "not 0 or 1")
        if not isinstance(play.card, Card):
            raise deal_error(k, field + " card", play.card, "not a Card")
        if play.card not in kept[play.player]:
            raise deal_error(k, field, play.card, f"not in player {play.player}'s kept hand")
        if play.card in played:
            raise deal_error(k, field, play.card, "card played twice")
        played.add(play.card)

    scores = deal.scores
    if not isinstance(scores, tuple) or len(scores) != 2:
        raise deal_error(k, "scores", scores, "expected two scores")
    for p, score in enumerate(scores):
        if not _is_int(score) or not 0 <= score <= MAX_SCORE:
            raise deal_error(k, f"player {p} score", score, f"not in 0..{MAX_SCORE}")
    if not _is_int(deal.dealer) or deal.dealer not in (0, 1):
        raise deal_error(k, "dealer", deal.dealer, "not 0 or 1")
    if not isinstance(deal.last_of_game, bool):
        raise deal_error(k, "last-of-game flag", deal.last_of_game, "not a bool")
    if len(pegging) < PLAY_SLOTS and not deal.last_of_game:
        raise deal_error(
            k,
            "pegging",
            f"{len(pegging)} plays",
            "fewer than 8 plays (game ended during pegging) but the deal is not flagged last of game",
        )


def validate(session: Session) -> None:
    """Check that ``session`` can be written as a record (the rules: :mod:`ddsbind.cribbage.code64`'s docstring).

    Parameters
    ----------
    session : Session
        The session to check.

    Raises
    ------
    FormatError
        At the first problem, naming the deal (counted from 1), the field and
        the value.
    """
    if not isinstance(session, Session):
        raise FormatError(f"session = {type(session).__name__}: not a Session")
    players = session.players
    if not isinstance(players, tuple) or len(players) != 2:
        raise header_error("players", players, "expected two names")
    texts = (session.origin, session.program, *players, session.comments)
    for field, value in zip(TEXT_WIDTHS, texts, strict=True):
        _check_text(field, value)
    played = session.played
    if not isinstance(played, dt.datetime):
        raise header_error("played", played, "not a datetime.datetime")
    if played.tzinfo is not None:
        raise header_error("played", played, "has a time zone; the record holds local time only")
    if played.microsecond:
        raise header_error("played", played, "has a fraction of a second; the record holds whole seconds")
    if played.year > 4095:
        raise header_error("year", played.year, "not in 1..4095 (12 bits)")
    if not _is_int(session.games) or not 0 <= session.games <= MAX_GAMES:
        raise header_error("number of games", session.games, f"not in 0..{MAX_GAMES}")
    deals = session.deals
    if not isinstance(deals, tuple) or not 1 <= len(deals) <= MAX_DEALS:
        n = len(deals) if isinstance(deals, tuple) else deals
        raise header_error("number of deals", n, f"not in 1..{MAX_DEALS}")
    for k, deal in enumerate(deals):
        _check_deal(k, deal)
    flagged = sum(deal.last_of_game for deal in deals)
    if flagged != session.games:
        raise header_error(
            "number of games",
            session.games,
            f"does not match the {flagged} deal(s) flagged last of their game",
        )
