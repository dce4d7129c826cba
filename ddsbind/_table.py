"""The table's vocabulary: seats, sides, strains and vulnerability, and the board-number rules.

:class:`Seat`, :class:`Side`, :class:`Strain` and :class:`Vulnerability`,
numbered as DDS numbers them (seats 0 = North, 1 = East, 2 = South, 3 =
West; strains 0 = spades .. 3 = clubs, 4 = notrump; vulnerability 0 none,
1 both, 2 NS, 3 EW), with the rules of the table as their methods (the next
seat, partner, side, a board number's dealer and vulnerability) and the
rules' array forms (:func:`sides_of`, :func:`sides_vulnerable`).

Their public home is :mod:`ddsbind.deal`, which re-exports every name here
and which their ``__module__`` names (pickles and the reference pages name
it too); import them from there (or from the package top).  This module holds them
apart from cards and deals so that each stays small enough to read.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from enum import Enum, IntEnum
from typing import Any, ClassVar, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind._holdings import SUITS
from ddsbind.errors import DDSError, InvalidArgumentError, TrumpWrongError

__all__ = [
    "Seat",
    "Side",
    "Strain",
    "Vulnerability",
    "format_member",
    "parse_member",
    "sides_of",
    "sides_vulnerable",
]


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

    @property
    def full_name(self) -> str:
        """``"North-South"`` or ``"East-West"``."""
        return ("North-South", "East-West")[self]

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


# Their public home is ddsbind.deal: reprs, pickles and the documentation name it, not this module.
for _public in (Seat, Side, Strain, Vulnerability, sides_of, sides_vulnerable):
    _public.__module__ = "ddsbind.deal"
