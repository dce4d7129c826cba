"""Cards, seats, strains and deals, in DDS's conventions.

Conventions used everywhere in ddsbind (they are DDS's own):

* Seats (``Seat``): 0 = North, 1 = East, 2 = South, 3 = West.
* Strains (``Strain``): 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs,
  4 = notrump.  Suits are strains 0..3.
* Ranks: 2 .. 14 (14 = ace).
* ``remainCards`` masks: ``masks[hand][suit]`` has bit ``r`` set when that hand
  holds rank ``r`` of that suit, so the ace is ``1 << 14 = 16384`` and the two
  is ``1 << 2 = 4``.
* Card index (for the 52-entry owner arrays): ``13 * suit + (14 - rank)``,
  i.e. SA, SK, ..., S2, HA, ..., C2 -- the order Pavlicek's formats use.  An
  owner array holds the DDS seat of each card, or -1 where the card is absent.

Pavlicek's seat order (W N E S) is converted to these in
``ddsbind.formats.order`` and nowhere else.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, ClassVar, TypeVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from ddsbind import _holdings, _html, hands
from ddsbind._holdings import RANKS, RANKS_HIGH_FIRST, SEAT_LETTERS, SUIT_SYMBOLS, SUITS
from ddsbind.errors import (
    ArgumentError,
    CardCountError,
    DDSError,
    DuplicateCardsError,
    InvalidArgumentError,
    PBNError,
    SuitOrRankError,
    TrumpWrongError,
    ZeroCardsError,
)

__all__ = [
    "RANKS",
    "RANKS_HIGH_FIRST",
    "SEAT_LETTERS",
    "STRAIN_LETTERS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "Deal",
    "Seat",
    "Side",
    "Strain",
    "Vulnerability",
    "hand_masks_text",
    "hand_to_masks",
    "masks_to_owners",
    "masks_to_pbn",
    "owners_to_masks",
    "pbn_to_masks",
    "sides_of",
    "sides_vulnerable",
]

#: DDS's strain order, one letter each (N for notrump): ``STRAIN_LETTERS[Strain.NT] == "N"``.
STRAIN_LETTERS = SUITS + "N"
_RANK_OF_CHAR = {c: i + 2 for i, c in enumerate(RANKS)}
_FULL_SUIT = _holdings.FULL_SUIT
#: Rank bit of each of the 13 card positions inside a suit (A first).
_RANK_BITS = (1 << (14 - np.arange(13))).astype(np.uint32)
_RANK_BITS64 = _RANK_BITS.astype(np.uint64)
_LANE_SHIFTS = (np.arange(4, dtype=np.uint64) * np.uint64(16))[:, np.newaxis]


_E = TypeVar("_E", bound=IntEnum)


def parse_member(
    cls: type[_E],
    value: object,
    names: Mapping[str, int],
    error: Callable[[str, bool], DDSError],
    what: str,
    numbers: str,
) -> _E:
    """The one parse of ddsbind's small DDS enums (seats, strains, vulnerability).

    ``value`` is a member, its DDS number (an int, never a bool or a float)
    or a name: ``names`` maps upper-case names, stripped of spaces, ``-`` and
    ``/`` (so ``"N-S"`` is ``"NS"``; a lone ``"-"`` stays), to numbers.
    A member of another enum (a :class:`Vulnerability` where a :class:`Seat`
    is meant) is refused, whatever its number.
    Anything else raises ``error(message, dds)``; ``what`` names the argument and
    ``numbers`` spells the numbering (``"0=N 1=E 2=S 3=W"``).  ``dds`` is True
    only for a number out of range, the input DDS takes and would refuse
    with the class's code; a word or a value of another type is never a DDS
    input, so its message carries no DDS code.
    """
    if isinstance(value, Enum) and not isinstance(value, cls):
        # A Vulnerability is no seat and a Seat no strain, whatever their numbers.
        raise error(f"{what} {value!r:.40} is a {type(value).__name__}, not a {cls.__name__} ({numbers})", False)
    if isinstance(value, str):
        key = value.strip().upper()
        if key not in ("-", ""):
            key = key.replace("-", "").replace("/", "")
        if key in names:
            return cls(names[key])
        raise error(f"{what} {value!r:.40} is not one of {', '.join(n for n in names if n)} ({numbers})", False)
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise error(f"{what} {value!r:.40} is not a number ({numbers}) or a name", False)
    try:
        return cls(operator.index(value))
    except ValueError:
        raise error(f"{what} {value!r} is not {numbers}", True) from None


_NUMERIC_FORMATS = frozenset("bcdoxXn")


def format_member(member: IntEnum, word: str, spec: str) -> str:
    """``format()`` of a seat, strain or vulnerability: the bridge ``word``, or the DDS number for a numeric spec.

    ``f"{seat}"`` and ``f"{seat:>3}"`` give the word (``"N"``); ``f"{seat:d}"``
    gives DDS's number, so code that wants the number asks for it.
    """
    if spec and spec[-1] in _NUMERIC_FORMATS:
        return format(int(member), spec)
    return format(word, spec)


class _BridgeEnum(IntEnum):
    """The base of :class:`Seat`, :class:`Side`, :class:`Strain` and :class:`Vulnerability`.

    Each subclass names its vocabulary in its class line (``names``: the
    upper-case names it reads; ``numbers``: its numbering spelt out;
    ``what``/``field``: how an error names the argument; ``error``: the
    class raised) and inherits the one :meth:`parse`.  ``format()`` gives
    the member's ``str()``, its bridge word, or DDS's number for a numeric
    spec (:func:`format_member`).
    """

    _names: ClassVar[Mapping[str, int]]
    _numbers: ClassVar[str]
    _what: ClassVar[str]
    _field: ClassVar[str]
    _error: ClassVar[type[DDSError]]

    def __init_subclass__(
        cls,
        *,
        names: Mapping[str, int],
        numbers: str,
        what: str,
        field: str | None = None,
        error: type[DDSError] = InvalidArgumentError,
        **kwargs: object,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls._names, cls._numbers, cls._what, cls._field, cls._error = names, numbers, what, field or what, error

    @classmethod
    def parse(
        cls: type[_E], value: _E | int | str, what: str | None = None, *, error: type[DDSError] | None = None
    ) -> _E:
        """Accept a member, its DDS number, or one of its names (any case; ``"N-S"`` is ``"NS"``).

        ``what`` names the argument in the error (the enum's own word by
        default), ``error`` is the class raised (the enum's own unless the
        caller knows DDS's code for the argument: :func:`ddsbind.game.parse_leader`
        passes ``FirstWrongError``).  Nothing else is read: not ``True``, not
        ``2.0``, not a member of another of these enums whatever its number.
        """
        spec: Any = cls
        field = what or spec._field
        raised = error or spec._error
        return parse_member(
            cls, value, spec._names, lambda m, dds: raised(m, field=field, dds=dds), what or spec._what, spec._numbers
        )

    def __format__(self, spec: str) -> str:
        return format_member(self, str(self), spec)


_SEAT_NAMES = {name: i for i, names in enumerate([("N", "NORTH"), ("E", "EAST"), ("S", "SOUTH"), ("W", "WEST")])
               for name in names}  # fmt: skip
_SIDE_NAMES = {"NS": 0, "NORTHSOUTH": 0, "EW": 1, "EASTWEST": 1}
# Each strain by its letter and its name, singular and plural, as each seat by its letter and name (N, NORTH).
_STRAIN_NAMES = {
    **{letter: i for i, letter in enumerate(SUITS)},
    **{f"{name}{s}": i for i, name in enumerate(("SPADE", "HEART", "DIAMOND", "CLUB")) for s in ("", "S")},
    **dict.fromkeys(["N", "NT", "NOTRUMP", "NOTRUMPS"], 4),
}
_VUL_NAMES = {
    **dict.fromkeys(["NONE", "LOVE", "NEITHER", "O", "-", ""], 0),
    **dict.fromkeys(["BOTH", "ALL", "B"], 1),
    **dict.fromkeys(["NS", "NORTHSOUTH"], 2),
    **dict.fromkeys(["EW", "EASTWEST"], 3),
}


class Seat(_BridgeEnum, names=_SEAT_NAMES, numbers="0=N 1=E 2=S 3=W", what="seat"):
    """A seat, numbered as DDS numbers hands: N=0, E=1, S=2, W=3.

    :meth:`parse` reads a ``Seat``, its DDS number or a letter or name
    (``"N"``, ``"north"``).
    """

    N = 0
    E = 1
    S = 2
    W = 3

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (left-hand opponent for 1, the seat itself for 4).

        The order of play and of the auction: ``leader.next(k)`` plays the
        trick's ``k``-th card after the lead.
        """
        return Seat((self + steps) % 4)

    def steps_from(self, first: Seat | int) -> int:
        """How many places clockwise this seat sits from ``first``: 0..3, the inverse of :meth:`next`.

        The position of this seat's card in a trick led by ``first``
        (0 for the lead): ``first.next(seat.steps_from(first)) == seat``.

        >>> Seat.N.steps_from(Seat.E), Seat.W.steps_from(Seat.W)
        (3, 0)
        """
        return (self - first) % 4

    @property
    def lho(self) -> Seat:
        """The left-hand opponent: the next seat clockwise, who plays after this seat (declarer's LHO leads)."""
        return self.next(1)

    @property
    def rho(self) -> Seat:
        """The right-hand opponent: the seat before this one clockwise (the opening leader's RHO is declarer)."""
        return self.next(3)

    @property
    def full_name(self) -> str:
        """``"North"``, ``"East"``, ``"South"`` or ``"West"``."""
        return ("North", "East", "South", "West")[self]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return Seat((self + 2) % 4)

    @property
    def side(self) -> Side:
        """The seat's side: :attr:`Side.NS` for N and S, :attr:`Side.EW` for E and W."""
        return Side(self % 2)

    @classmethod
    def dealer_of_board(cls, board: int) -> Seat:
        """The dealer of board number ``board`` (1-based): N E S W for boards 1 2 3 4, then again (board 5: N).

        The one copy of the rule; :meth:`Vulnerability.of_board` is its
        vulnerability's.  Board 0 or below continues the cycle backwards.

        >>> Seat.dealer_of_board(1), Seat.dealer_of_board(8)
        (<Seat.N: 0>, <Seat.W: 3>)
        """
        return cls.N.next(_board_index(board))

    def __str__(self) -> str:
        """The seat's letter, ``"N"``, as bridge writes it (``int(seat)`` is DDS's number)."""
        return self.name


class Side(_BridgeEnum, names=_SIDE_NAMES, numbers="0=NS 1=EW", what="side"):
    """A side (partnership): NS=0 (North and South), EW=1 (East and West); ``seat % 2`` is its seat's side.

    The one spelling of a side in ddsbind: :meth:`Seat.side`, par's side
    bidding first (:meth:`ddsbind.Par.words`), proof trees' good guys, and
    :meth:`Vulnerability.is_vulnerable` all use it.

    Examples
    --------
    >>> Side.parse("e-w"), Seat.W.side, Side.NS.seats, str(Side.EW.opponents)
    (<Side.EW: 1>, <Side.EW: 1>, (<Seat.N: 0>, <Seat.S: 2>), 'NS')
    """

    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The side's two seats, in DDS's order: ``(N, S)`` or ``(E, W)``."""
        return Seat(self), Seat(self + 2)

    @property
    def opponents(self) -> Side:
        """The other side."""
        return Side(1 - self)

    def __str__(self) -> str:
        """``"NS"`` or ``"EW"``; ``int(side)`` is 0 or 1."""
        return self.name


class Strain(
    _BridgeEnum,
    names=_STRAIN_NAMES,
    numbers="0=S 1=H 2=D 3=C 4=NT",
    what="strain",
    field="trump",
    error=TrumpWrongError,
):
    """A strain, numbered as DDS numbers them: S=0, H=1, D=2, C=3, NT=4.

    :meth:`parse` reads a ``Strain``, its DDS number, a letter ``"S"``,
    ``"H"``, ``"D"``, ``"C"``, ``"N"``/``"NT"`` or a name ``"spades"``,
    ``"hearts"``, ``"diamonds"``, ``"clubs"``, ``"notrump"`` (any case, singular
    or plural, as :class:`Seat` reads ``"north"``), and raises
    ``TrumpWrongError`` for anything else (``True`` is not hearts).
    """

    S = 0
    H = 1
    D = 2
    C = 3
    NT = 4

    @property
    def symbol(self) -> str:
        """``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"``."""
        return "NT" if self is Strain.NT else SUITS[self]

    def __str__(self) -> str:
        """``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"``, as bridge writes it (``int(strain)`` is DDS's number)."""
        return self.symbol


class Vulnerability(
    _BridgeEnum, names=_VUL_NAMES, numbers="0 none, 1 both, 2 NS, 3 EW", what="vulnerability", field="vulnerable"
):
    """Who is vulnerable, numbered as DDS numbers it: NONE=0, BOTH=1, NS=2, EW=3.

    The one spelling of vulnerability in ddsbind: PBN writes it ``None``,
    ``All``, ``NS``, ``EW`` (:attr:`pbn`); :meth:`parse` reads those, PBN's
    ``Love``/``-``/``Both`` and the CLI's lower-case names.
    """

    NONE = 0
    BOTH = 1
    NS = 2
    EW = 3

    @property
    def pbn(self) -> str:
        """PBN's spelling: ``"None"``, ``"All"``, ``"NS"`` or ``"EW"``."""
        return ("None", "All", "NS", "EW")[self]

    def __str__(self) -> str:
        """PBN's spelling (:attr:`pbn`); ``int(vul)`` is DDS's number."""
        return self.pbn

    def is_vulnerable(self, who: Seat | Side | int | str) -> bool:
        """True when ``who``'s side is vulnerable: ``who`` a :class:`Side` (or ``"NS"``/``"EW"``) or a seat.

        A plain int or a one-letter text is a seat (0..3, ``"N"``); a
        :class:`Side` member or ``"NS"``/``"EW"`` a side.

        >>> Vulnerability.NS.is_vulnerable("S"), Vulnerability.NS.is_vulnerable(Side.EW)
        (True, False)
        """
        if isinstance(who, Side):
            side = who
        elif isinstance(who, str) and who.strip().upper().replace("-", "").replace("/", "") in _SIDE_NAMES:
            side = Side.parse(who)
        else:
            side = Seat.parse(who).side
        return self is Vulnerability.BOTH or self == (Vulnerability.NS, Vulnerability.EW)[side]

    @classmethod
    def of_sides(cls, ns: bool, ew: bool) -> Vulnerability:
        """The vulnerability with North-South vulnerable when ``ns``, East-West when ``ew``.

        >>> Vulnerability.of_sides(True, True), Vulnerability.of_sides(False, True)
        (<Vulnerability.BOTH: 1>, <Vulnerability.EW: 3>)
        """
        if not isinstance(ns, bool | np.bool_) or not isinstance(ew, bool | np.bool_):
            raise InvalidArgumentError(f"of_sides takes two bools (NS, EW vulnerable), got {ns!r:.20}, {ew!r:.20}")
        return (cls.NONE, cls.EW, cls.NS, cls.BOTH)[2 * bool(ns) + bool(ew)]

    @property
    def sides(self) -> tuple[Side, ...]:
        """The vulnerable sides: ``()``, ``(Side.NS,)``, ``(Side.EW,)`` or both."""
        return tuple(s for s in Side if self.is_vulnerable(s))

    @classmethod
    def of_board(cls, board: int) -> Vulnerability:
        """The vulnerability of board number ``board`` (1-based), by the 16-board cycle.

        Boards 1..16: None NS EW Both, NS EW Both None, EW Both None NS,
        Both None NS EW; then again (board 17 as board 1).  The one copy of
        the rule, beside :meth:`Seat.dealer_of_board`.

        >>> Vulnerability.of_board(1), Vulnerability.of_board(4), Vulnerability.of_board(18)
        (<Vulnerability.NONE: 0>, <Vulnerability.BOTH: 1>, <Vulnerability.NS: 2>)
        """
        return cls(_BOARD_VULNERABILITY[_board_index(board) % 16])


#: DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW) of boards 1..16 (:meth:`Vulnerability.of_board`).
_BOARD_VULNERABILITY = (0, 2, 3, 1, 2, 3, 1, 0, 3, 1, 0, 2, 1, 0, 2, 3)


def _board_index(board: int) -> int:
    """``board - 1`` for a board number (an int); ``InvalidArgumentError`` naming it otherwise."""
    if isinstance(board, bool) or not isinstance(board, int | np.integer):
        raise InvalidArgumentError(f"a board number is a whole number (1, 2, ...), got {board!r:.20}", field="board")
    return int(board) - 1


def sides_of(seats: ArrayLike) -> NDArray[np.int64]:
    """The side of each seat of an array, as :attr:`Seat.side` numbers it: 0 NS (N, S), 1 EW (E, W).

    Vectorised :attr:`Seat.side` for many seats at once.  DDS's par codes
    for a pair, 4 (NS) and 5 (EW), give their side too.

    >>> sides_of([0, 1, 2, 3, 4, 5]).tolist()
    [0, 1, 0, 1, 0, 1]
    """
    return np.asarray(seats, dtype=np.int64) % 2


def sides_vulnerable(sides: ArrayLike, vulnerable: ArrayLike) -> NDArray[np.bool_]:
    """Whether each side is vulnerable: :meth:`Vulnerability.is_vulnerable` for arrays.

    ``sides`` 0 NS, 1 EW (:func:`sides_of`); ``vulnerable`` DDS's codes
    (0 none, 1 both, 2 NS, 3 EW), broadcast against ``sides``.

    >>> sides_vulnerable([0, 1, 0, 1], [1, 1, 2, 2]).tolist()
    [True, True, True, False]
    """
    s, v = np.asarray(sides), np.asarray(vulnerable)
    return (
        (v == Vulnerability.BOTH)
        | ((s == Side.NS) & (v == Vulnerability.NS))
        | ((s == Side.EW) & (v == Vulnerability.EW))
    )


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``suit`` 0..3 (S H D C) and ``rank`` 2..14 (14 = ace)."""

    suit: int
    rank: int

    def __post_init__(self) -> None:
        for name in ("suit", "rank"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer):
                raise SuitOrRankError(f"card {name} {v!r} is not an int", dds=False)
        if not (0 <= self.suit <= 3):
            raise SuitOrRankError(f"card suit {self.suit!r} out of range 0..3 (0=S 1=H 2=D 3=C)", dds=False)
        if not (2 <= self.rank <= 14):
            raise SuitOrRankError(f"card rank {self.rank!r} out of range 2..14", dds=False)

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse ``"SA"``, ``"hT"``, ``"D10"`` or ``"C2"`` (suit letter, then rank)."""
        if isinstance(text, Card):
            return text
        t = str(text).strip().upper()
        if len(t) >= 2 and t[0] in SUITS:
            rank = "T" if t[1:] == "10" else t[1:]
            if rank in _RANK_OF_CHAR:
                return cls(SUITS.index(t[0]), _RANK_OF_CHAR[rank])
        raise SuitOrRankError(f"not a card: {text!r} (expected suit S/H/D/C then rank 2-9, T, J, Q, K, A)", dds=False)

    @property
    def index(self) -> int:
        """Card index 0..51: ``13 * suit + (14 - rank)`` (SA = 0, C2 = 51)."""
        return 13 * self.suit + 14 - self.rank

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with that index (see :attr:`index`)."""
        if not 0 <= index < 52:
            raise SuitOrRankError(f"card index {index} out of range 0..51", dds=False)
        return cls(index // 13, 14 - index % 13)

    def __str__(self) -> str:
        return SUITS[self.suit] + RANKS[self.rank - 2]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


# --------------------------------------------------------------------------
# Vectorised conversions between owner arrays and remainCards masks.


def owners_to_masks(owners: ArrayLike) -> NDArray[np.uint32]:
    """Turn owner arrays ``(..., 52)`` into remainCards masks ``(..., 4, 4)``.

    ``owners[..., i]`` is the DDS seat (0=N 1=E 2=S 3=W) holding card ``i``
    (``13 * suit + 14 - rank``), or -1 when the card is absent.  The result
    is ``uint32`` with ``masks[..., hand, suit]`` bit ``rank`` set per card.
    Values other than -1..3 raise ``InvalidArgumentError`` (a ``ValueError``).
    """
    own = np.asarray(owners)
    if own.shape[-1:] != (52,):
        raise InvalidArgumentError(f"owner array must end in 52 cards, got shape {own.shape}")
    if own.size and (own.min() < -1 or own.max() > 3):
        raise InvalidArgumentError("owner values must be -1 (absent) or a DDS seat 0..3")
    by_suit = own.reshape(-1, 4, 13)
    # Each card puts its rank bit into the 16-bit lane of its owner in a uint64;
    # a suit's 13 cards have distinct bits, so summing them packs the suit's four
    # holdings (N, E, S, W lanes) into one word without carries.
    lanes = np.left_shift(_RANK_BITS64, (by_suit.astype(np.uint64) & np.uint64(3)) * np.uint64(16))
    lanes[by_suit < 0] = 0
    packed = lanes.sum(axis=-1, dtype=np.uint64)  # (n, suit)
    masks = (packed[:, np.newaxis, :] >> _LANE_SHIFTS) & np.uint64(0xFFFF)  # (n, hand, suit)
    return masks.astype(np.uint32).reshape((*own.shape[:-1], 4, 4))


def masks_to_owners(masks: ArrayLike) -> NDArray[np.int8]:
    """Turn remainCards masks ``(..., 4, 4)`` into owner arrays ``(..., 52)``.

    The inverse of :func:`owners_to_masks`.  A card held by two hands raises
    ``DuplicateCardsError`` (DDS code -4); bits outside 2..14 raise
    ``SuitOrRankError`` (-12).
    """
    m = np.asarray(masks).astype(np.uint32, copy=False)
    if m.shape[-2:] != (4, 4):
        raise InvalidArgumentError(f"masks must end in (4 hands, 4 suits), got shape {m.shape}")
    if np.any(m & ~np.uint32(_FULL_SUIT)):
        raise SuitOrRankError("remainCards masks may only use bits 2..14 (ranks 2..ace)")
    held = (m[..., np.newaxis] & _RANK_BITS) != 0  # (..., hand, suit, 13)
    count = held.sum(axis=-3)  # (..., suit, 13)
    if np.any(count > 1):
        bad = np.argwhere((count > 1).reshape(-1, 4, 13).any(axis=(1, 2)))[0, 0]
        exc = _holdings.duplicate(m.reshape(-1, 4, 4)[bad].tolist())
        assert exc is not None  # the record has a card in two hands
        raise exc.at(int(bad), "deal") if m.ndim > 2 else exc
    seat = np.argmax(held, axis=-3).astype(np.int8)
    owners = np.where(count == 1, seat, np.int8(-1)).astype(np.int8)
    return owners.reshape((*owners.shape[:-2], 52))


# --------------------------------------------------------------------------
# PBN deal strings.

_PBN_RE = re.compile(r"^\s*([NESWnesw])\s*:\s*(.*?)\s*$", re.S)


def _parse_pbn_hand(text: str, seat: Seat | None) -> list[int]:
    """One hand's ``S.H.D.C`` text as four masks; errors name ``seat``, or the text itself for a hand on its own."""
    label = f"hand {text!r}" if seat is None else f"hand {seat.name}"
    dds = seat is not None  # a hand on its own is never a DDS input: no DDS code in its messages
    suits = text.split(".")
    if len(suits) != 4:
        whole = label if seat is None else f"{label} {text!r}"
        raise PBNError(f"{whole} must have 4 suits separated by '.', found {len(suits)}", dds=dds)
    out = []
    for s, holding in enumerate(suits):
        mask = 0
        h = holding.upper().replace("10", "T")
        if h == "-":
            h = ""
        for ch in h:
            rank = _RANK_OF_CHAR.get(ch)
            if rank is None:
                raise PBNError(f"{label}: {ch!r} in {SUITS[s]} {holding!r} is not a rank", dds=dds)
            bit = 1 << rank
            if mask & bit:
                raise DuplicateCardsError(f"{label} lists {SUITS[s]}{ch} twice", dds=dds)
            mask |= bit
        out.append(mask)
    return out


def hand_to_masks(text: str) -> list[int]:
    """One hand on its own, ``S.H.D.C`` as PBN writes a hand, as four ``remainCards`` masks (spades first).

    Ranks ``AKQJT98765432`` (``10`` accepted for the ten), a void empty or
    ``-``; at most 13 cards.  Raises ``PBNError`` (not four suits, a
    character that is no rank), ``DuplicateCardsError`` (a card twice) or
    ``CardCountError`` (more than 13 cards), each naming the hand.

    Examples
    --------
    >>> hand_to_masks("A.-.-.2")
    [16384, 0, 0, 4]
    """
    if not isinstance(text, str):
        raise ArgumentError(f"a hand must be a string such as 'AKQ2.KJ4.T98.A32', got {type(text).__name__}")
    masks = _parse_pbn_hand(text.strip(), None)
    n = _holdings.hand_lengths([masks])[0]
    if n > 13:
        raise CardCountError(f"hand {text!r} holds {n} cards; at most 13", dds=False)
    return masks


def hand_masks_text(masks: Sequence[int], void: str = "") -> str:
    """One hand's four masks (S H D C) as ``S.H.D.C`` text, ranks ace first, ``void`` for an empty suit."""
    return _hand_text(masks, void)


def _holding_text(mask: int) -> str:
    return "".join(RANKS[r - 2] for r in range(14, 1, -1) if mask >> r & 1)


def _hand_text(row: Sequence[int], void: str = "") -> str:
    """One hand's four masks (S H D C) as ``S.H.D.C`` text, ranks ace first, ``void`` for an empty suit."""
    return ".".join(_holding_text(int(m)) or void for m in row)


def pbn_to_masks(text: str) -> list[list[int]]:
    """Read a PBN deal string into ``remainCards[hand][suit]`` (DDS order), syntax only.

    Checks the seat prefix, four hands of four suits, ranks, and repeats inside
    a hand (``PBNError``, ``DuplicateCardsError``); whether the hands make a
    deal is :class:`Deal`'s (or DDS's) business.
    """
    if not isinstance(text, str):
        raise ArgumentError(f"a PBN deal must be a string, got {type(text).__name__}")
    match = _PBN_RE.match(text.strip().strip('"'))
    if not match:
        raise PBNError(f"PBN deal {text!r} must start with N:, E:, S: or W:")
    first = Seat.parse(match.group(1))
    hands = match.group(2).split()
    if len(hands) != 4:
        raise PBNError(f"PBN deal {text!r} must list 4 hands, found {len(hands)}")
    masks = [[0] * 4 for _ in range(4)]
    for i, hand_text in enumerate(hands):
        seat = first.next(i)
        masks[seat] = [0, 0, 0, 0] if hand_text == "-" else _parse_pbn_hand(hand_text, seat)  # "-": unknown hand
    return masks


def masks_to_pbn(masks: ArrayLike, first: Seat | str | int = 0) -> str:
    """Write ``remainCards[hand][suit]`` as a PBN deal string, hands clockwise from ``first``; voids empty."""
    start = Seat.parse(first)
    rows = [[int(m) for m in row] for row in np.asarray(masks).tolist()]
    hands = (_hand_text(rows[start.next(i)]) for i in range(4))
    return f"{start.name}:" + " ".join(hands)


# --------------------------------------------------------------------------


class Deal:
    """A deal or end position: which cards each of the four hands holds.

    Stored as DDS ``remainCards`` masks ``(4, 4)`` uint32, hands N E S W,
    suits S H D C, bit ``r`` for rank ``r``.  Every hand holds the same
    number of cards (1..13), except in the middle of a trick, where the hands
    that have already played to it hold one card fewer; such a ``Deal`` is
    what DDS's ``remainCards`` holds when ``currentTrick*`` is set.

    Deals are immutable, compare equal when they hold the same cards, and
    hash accordingly.

    Examples
    --------
    >>> d = Deal.from_pbn("N:AKQ... .AKQ.. ..AKQ. ...AKQ")
    >>> d.to_pbn()
    'N:AKQ... .AKQ.. ..AKQ. ...AKQ'
    """

    __slots__ = ("_hash", "_lengths", "_masks", "_unknown_hands")
    _unknown_hands: bool  # set only by with_unknown_hands: hands of unequal lengths allowed

    def __init__(self, masks: ArrayLike) -> None:
        a = np.asarray(masks)
        if a.dtype.kind not in "iu" and not (a.dtype == object and a.size and all(
                isinstance(x, int | np.integer) and not isinstance(x, bool) for x in a.flat)):  # fmt: skip
            raise InvalidArgumentError(f"remainCards must be integer masks, got {a.dtype} values")
        if a.shape != (4, 4):
            raise InvalidArgumentError(f"remainCards must have shape (4 hands, 4 suits), got {a.shape}")
        rows = [[int(x) for x in row] for row in a.tolist()]
        fault = _holdings.stray_bits(rows) or _holdings.duplicate(rows)
        if fault is not None:
            raise fault
        counts = np.array(_holdings.hand_lengths(rows))
        m = np.array(rows, dtype=np.uint32)
        if counts.max() == 0:
            raise ZeroCardsError("the deal has no cards")
        if counts.max() > 13:
            h = int(np.argmax(counts))
            raise CardCountError(f"hand {Seat(h).name} holds {counts[h]} cards; at most 13")
        if counts.max() - counts.min() > 1 and not getattr(self, "_unknown_hands", False):
            raise CardCountError(
                "hands must hold equal numbers of cards (one fewer for hands that played to the "
                f"current trick); got N={counts[0]} E={counts[1]} S={counts[2]} W={counts[3]}"
            )
        m.setflags(write=False)
        self._masks = m
        n, e, s, w = (int(x) for x in counts)
        self._lengths = (n, e, s, w)
        self._hash = hash(m.tobytes())

    # -- constructors -----------------------------------------------------

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Parse a PBN deal string such as ``"N:QJ6.K652.J85.T98 873.J97.AT764.Q4 ..."``.

        The first letter names the first hand listed (N, E, S or W); the others
        follow clockwise.  Each hand is ``S.H.D.C`` with ranks ``AKQJT98765432``
        (``10`` accepted for ten); a void is empty or ``-``; a whole hand
        ``-`` is unknown (PBN 2.1: left empty).  Raises
        ``PBNError`` (code -99) naming the hand and character at fault, or
        ``DuplicateCardsError`` / ``CardCountError`` for an impossible deal.
        """
        return cls(pbn_to_masks(text))

    @classmethod
    def from_hands(
        cls, hands: Mapping[Seat | str | int, Iterable[Card | str]] | Sequence[Iterable[Card | str]]
    ) -> Deal:
        """Build a deal from card lists per hand.

        ``hands`` is either a mapping from seat (``Seat``, ``"N"``, 0..3) to
        cards, or a sequence of four card lists in DDS order N, E, S, W.
        Cards are ``Card`` objects or strings like ``"SA"``, ``"H10"``.
        """
        if isinstance(hands, str):
            raise InvalidArgumentError(
                f"a deal needs four hands, got one string {hands!r:.60}: use ddsbind.Hand for one hand, "
                "Deal.from_pbn for a PBN deal string"
            )
        items = hands.items() if isinstance(hands, Mapping) else enumerate(hands)
        masks = [[0] * 4 for _ in range(4)]
        seen: dict[Card, Seat] = {}
        n_items = 0
        for seat_key, cards in items:
            seat = Seat.parse(seat_key)
            n_items += 1
            if isinstance(cards, str):
                raise InvalidArgumentError(
                    f"hand {seat.name} is one string {cards!r:.60}, not a list of cards ('SA', 'HK', ...): "
                    "use Deal.from_pbn for four hands' text, ddsbind.Hand for one hand"
                )
            for c in cards:
                card = Card.parse(c)
                if card in seen:
                    raise DuplicateCardsError(
                        f"card {card} is given to both {seen[card].name} and {seat.name}", dds=False
                    )
                seen[card] = seat
                masks[seat][card.suit] |= 1 << card.rank
        if not isinstance(hands, Mapping) and n_items != 4:
            raise InvalidArgumentError(f"expected 4 hands in order N, E, S, W, got {n_items}")
        return cls(masks)

    @classmethod
    def with_unknown_hands(cls, masks: ArrayLike) -> Deal:
        """A hand record's deal in which hands are unknown (PBN's ``-``): the cards given, hands of any length.

        Bidding-practice files show two hands (``"W:- K43.AQJ54.63.T95 -
        A5.KT83.K752.843"``).  The deal is read, kept and written back
        (:meth:`to_pbn`: an unknown hand is empty); it is not
        :attr:`is_full`, and solving it is refused (DDS's code for hands of
        unequal length).  Cards are checked as for any deal (none twice, at
        most 13 a hand).
        """
        deal = cls.__new__(cls)
        deal._unknown_hands = True
        deal.__init__(masks)  # type: ignore[misc]
        return deal

    @classmethod
    def from_owners(cls, owners: ArrayLike) -> Deal:
        """Build a deal from a 52-entry owner array (DDS seat per card, -1 absent)."""
        return cls(owners_to_masks(np.asarray(owners)))

    @classmethod
    def random(cls, rng: np.random.Generator | int | None = None) -> Deal:
        """A uniformly random full deal drawn with ``numpy.random.default_rng(rng)``."""
        gen = np.random.default_rng(rng)
        owners = np.repeat(np.arange(4, dtype=np.int8), 13)
        gen.shuffle(owners)
        return cls.from_owners(owners)

    # -- views -----------------------------------------------------------

    @property
    def remain_cards(self) -> NDArray[np.uint32]:
        """The read-only ``(4, 4)`` uint32 masks: hands N E S W, suits S H D C."""
        return self._masks

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> NDArray[np.uint32]:
        return self._masks.astype(dtype or np.uint32, copy=True)

    def owners(self) -> NDArray[np.int8]:
        """The 52-entry owner array: DDS seat of each card SA..C2, -1 if absent."""
        return masks_to_owners(self._masks)

    @property
    def hand_lengths(self) -> tuple[int, int, int, int]:
        """Number of cards held by N, E, S, W."""
        return self._lengths

    @property
    def n_cards(self) -> int:
        """Total number of cards in the deal (52 for a full deal)."""
        return sum(self.hand_lengths)

    @property
    def is_full(self) -> bool:
        """True for a full 52-card deal."""
        return self.n_cards == 52

    def hand(self, seat: Seat | str | int) -> list[Card]:
        """The cards of one hand, spades first, each suit from the ace down."""
        h = Seat.parse(seat)
        return [Card(s, r) for s in range(4) for r in range(14, 1, -1) if int(self._masks[h, s]) >> r & 1]

    def holder(self, card: Card | str) -> Seat | None:
        """The seat holding ``card``, or ``None`` if it is not in the deal."""
        c = Card.parse(card)
        for h in range(4):
            if int(self._masks[h, c.suit]) >> c.rank & 1:
                return Seat(h)
        return None

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, Card | str):
            return False
        return self.holder(card) is not None

    def hand_text(self, seat: Seat | str | int, void: str = "") -> str:
        """One hand as PBN writes it, ``S.H.D.C`` with ranks ace first; ``void`` stands for an empty suit.

        Examples
        --------
        >>> Deal.from_pbn("N:AKQ... .AKQ.. ..AKQ. ...AKQ").hand_text("E", void="-")
        '-.AKQ.-.-'
        """
        return _hand_text(self._masks[Seat.parse(seat)].tolist(), void)

    def to_pbn(self, first: Seat | str | int = Seat.N) -> str:
        """The PBN deal string, hands clockwise from ``first``; voids are empty."""
        return masks_to_pbn(self._masks, first)

    def rotated(self, steps: int = 1) -> Deal:
        """The deal with every hand moved ``steps`` seats clockwise (N's cards to E for 1)."""
        return Deal(np.roll(self._masks, steps % 4, axis=0))

    def with_suits_permuted(self, perm: Sequence[int]) -> Deal:
        """The deal with suit ``s`` renamed ``perm[s]`` (``perm`` is a permutation of 0..3)."""
        if sorted(perm) != [0, 1, 2, 3]:
            raise InvalidArgumentError(f"{perm!r} is not a permutation of the suits 0..3")
        out = np.empty_like(self._masks)
        out[:, list(perm)] = self._masks
        return Deal(out)

    # -- hand evaluation (ddsbind.hands: the dealer language's definitions) ----

    def hcp(self, seat: Seat | str | int) -> int:
        """High-card points of ``seat``'s hand (A=4 K=3 Q=2 J=1), as the dealer language's ``hcp``."""
        return int(hands.hcp(self.owners())[Seat.parse(seat)])

    def lengths(self, seat: Seat | str | int) -> tuple[int, int, int, int]:
        """``seat``'s suit lengths: spades, hearts, diamonds, clubs."""
        s, h, d, c = (int(x) for x in hands.suit_lengths(self.owners())[Seat.parse(seat)])
        return s, h, d, c

    def controls(self, seat: Seat | str | int) -> int:
        """Controls of ``seat``'s hand (A=2 K=1), as the dealer language's ``controls``."""
        return int(hands.controls(self.owners())[Seat.parse(seat)])

    def losers(self, seat: Seat | str | int) -> int:
        """Losers of ``seat``'s hand by the dealer language's rule (:mod:`ddsbind.hands`), 0..12."""
        return int(hands.losers(self.owners())[Seat.parse(seat)])

    def diagram(
        self,
        dealer: Seat | str | int | None = None,
        vulnerable: object = None,
        board: int | None = None,
    ) -> str:
        """The deal as a text diagram: North on top, West left, East right, South below.

        Each hand is four lines, ``S``, ``H``, ``D``, ``C`` then the ranks
        (``-`` for a void).  ``board`` (a board number, an int from 1),
        ``dealer`` and ``vulnerable`` (any spelling
        :meth:`ddsbind.Vulnerability.parse` reads), when given, head the
        diagram; a ``board`` that is no board number (``True``, ``"7"``,
        0) is an :class:`~ddsbind.errors.InvalidArgumentError`.

        Examples
        --------
        >>> print(Deal.from_pbn("N:A... K... Q... J...").diagram(dealer="N", vulnerable="all"))
        Dealer N, vulnerable All
                            S A
                            H -
                            D -
                            C -
        S J                                     S K
        H -                                     H -
        D -                                     D -
        C -                                     C -
                            S Q
                            H -
                            D -
                            C -
        """
        head = []
        if board is not None:
            if isinstance(board, bool) or not isinstance(board, int | np.integer) or board < 1:
                raise InvalidArgumentError(f"board {board!r:.40} is not a board number (an integer from 1)")
            head.append(f"Board {int(board)}")
        if dealer is not None:
            head.append(f"dealer {Seat.parse(dealer, 'dealer')}")
        if vulnerable is not None:
            head.append(f"vulnerable {Vulnerability.parse(vulnerable)}")  # type: ignore[arg-type]
        lines = [", ".join(head)] if head else []
        rows = self._masks.tolist()
        n, e, s, w = ([f"{SUITS[k]} {_holding_text(rows[h][k]) or '-'}" for k in range(4)] for h in range(4))
        width = max(20, *(len(x) + 2 for x in w + n + s))
        pad = " " * width
        lines += [pad + x for x in n]
        lines += [f"{x:<{2 * width}}{y}".rstrip() for x, y in zip(w, e, strict=True)]
        lines += [pad + x for x in s]
        if head:
            lines[0] = lines[0][0].upper() + lines[0][1:]
        return "\n".join(lines)

    # -- dunder ----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return bool(np.array_equal(self._masks, other._masks))

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"

    def __str__(self) -> str:
        return self.to_pbn()

    def _repr_html_(self) -> str:
        """The deal as an HTML hand diagram (suit symbols, red hearts and diamonds) for notebooks."""
        return _html.diagram(_html.hands_of_pbn(self.to_pbn("N")))
