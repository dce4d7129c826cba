"""Contracts and duplicate scores by the Laws, IMPs by the WBF scale, matchpoints; no DDS.

The one home of scoring in ddsbind: :class:`Contract`, :func:`score`
(vectorised), :func:`imps` and :func:`matchpoints`.  The dealer language's
``score()`` and ``imps()`` and the simulations' statistics call these.

Scores (Laws of Duplicate Bridge 2017, Law 77), from declarer's side:

* Trick score for each trick bid and made over six: clubs and diamonds 20,
  hearts and spades 30, notrump 40 for the first and 30 after; doubled
  twice that, redoubled four times.
* Overtricks: the trick value undoubled; doubled 100 each (200
  vulnerable); redoubled 200 (400 vulnerable).
* Premiums for making: a game (trick score of 100 or more) 300 (500
  vulnerable), else a part-score 50; small slam 500 (750), grand slam
  1000 (1500); making a doubled contract 50, a redoubled one 100.
* Undertricks: undoubled 50 each (100 vulnerable); doubled not vulnerable
  100, 200, 200, then 300 each; doubled vulnerable 200, then 300 each;
  redoubled twice doubled.

IMPs (WBF scale): a difference of 0-10 is 0 IMPs, 20-40 is 1, ... 4000 or
more is 24 (:data:`IMP_BOUNDS`).

Conventions: strains 0=S 1=H 2=D 3=C 4=NT, seats 0=N 1=E 2=S 3=W;
``doubled`` 0 undoubled, 1 doubled, 2 redoubled; tricks are declarer's,
0..13.

Examples
--------
>>> Contract.parse("4SX").score(10, declarer_vulnerable=True)
790
>>> int(imps(790 - 620))
5
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, ClassVar, Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind._typing import deprecated
from ddsbind.deal import SUIT_SYMBOLS, SUITS, Seat, Strain, Vulnerability
from ddsbind.errors import ContractError, Error

__all__ = [
    "EXTRAPOLATE_TRICKS",
    "IMP_BOUNDS",
    "PASSED_OUT",
    "Call",
    "Contract",
    "DealerParContract",
    "PassedOut",
    "PayoffTable",
    "imps",
    "matchpoints",
    "neuberg",
    "payoff",
    "score",
]

#: A score difference above ``IMP_BOUNDS[i]`` (absolute value) is worth at least ``i + 1`` IMPs (WBF scale).
IMP_BOUNDS = np.array(
    [10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740, 1990, 2240,
     2490, 2990, 3490, 3990],
    dtype=np.int64,
)  # fmt: skip

#: Most tricks (either sign) ``score(..., extrapolate=True)`` scores: 600 points a trick stay far inside 64 bits.
EXTRAPOLATE_TRICKS = 1 << 50
_INT64_MAX = (1 << 63) - 1

# The one reader of contract text.  An optional dealer-language prefix: ``x`` (dealer's ``x3N``, an
# undoubled contract) or ``z`` (DealerV2's ``z4Hx``, doubling after the strain); level; strain;
# doubling; an optional declarer.  Matched against the upper-cased text.
_CONTRACT = re.compile(
    r"^\s*(?:[XZ](?=[1-7]))?([1-7])\s*(NT|N|S|H|D|C|\u2660|\u2665|\u2666|\u2663)\s*(XX|X|\*\*|\*|R)?\s*"
    r"(?:(?:BY\s+)?(NORTH|EAST|SOUTH|WEST|N|E|S|W))?\s*$"
)
_SYMBOL_STRAINS = dict(zip(SUIT_SYMBOLS, SUITS, strict=True))
_DOUBLING = {None: 0, "X": 1, "*": 1, "XX": 2, "**": 2, "R": 2}
# The bidding order of strains, lowest first: Call.rank, the one home of the rank of bids.
_BID_ORDER = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)
# PBN's word for a pass and a passed-out board: Call.__str__ and PassedOut.__str__ write it.
_PASS_TEXT = "Pass"
# A call of an auction: a bid, or pass (P, PASS), double (X, D), redouble (XX, R).
_CALL = re.compile(r"^\s*(?:([1-7])\s*(NT|N|S|H|D|C|\u2660|\u2665|\u2666|\u2663)|(PASS|P)|(XX|R)|(X|D))\s*$")


def _match(text: object, pattern: re.Pattern[str], kind: str, example: str, expected: str) -> re.Match[str]:
    """``pattern`` matched on ``text`` upper-cased: the one check of contract and call text, naming the ``kind``."""
    if not isinstance(text, str):
        raise ContractError(f"a {kind} is text such as {example}, got {type(text).__name__}")
    m = pattern.match(text.upper())
    if m is None:
        raise ContractError(f"{kind} {text!r:.40} is not {expected}")
    return m


def _strain(text: str) -> Strain:
    """A strain letter or suit symbol as read by :data:`_CONTRACT` and :data:`_CALL`."""
    return Strain.parse(_SYMBOL_STRAINS.get(text, text))


# One contract of DDS's DealerPar answer: "4S*-EW-1" (a sacrifice, doubled), "3N-N+1", "2S-EW".
_DEALER_PAR = re.compile(r"^\s*([1-7])([SHDCN])(\*?)-(NS|EW|[NESW])([+-]\d+)?\s*$")


def _refuse_enum(value: object, what: str, allowed: type[Enum] | None = None) -> None:
    """Refuse a member of an enum of another meaning (a Vulnerability as "declarer vulnerable", a Seat as a strain)."""
    items = value if isinstance(value, list | tuple) else (value,)
    for item in items:
        if isinstance(item, Enum) and not (allowed is not None and isinstance(item, allowed)):
            want = f"a {allowed.__name__} or its number" if allowed is not None else "a plain number or bool"
            raise ContractError(f"{what} {item!r:.40} is a {type(item).__name__}; {what} takes {want}")


def _declarer(value: object) -> Seat:
    """A declarer as :meth:`Seat.parse` reads it; anything else a :class:`ContractError` naming it."""
    try:
        return Seat.parse(value, "declarer")  # type: ignore[arg-type]
    except Error:
        raise ContractError(f"declarer {value!r:.40} is not N, E, S or W (0..3)") from None


def _int_array(value: ArrayLike, what: str, low: int, high: int) -> NDArray[np.int64]:
    a = np.asarray(value)
    if a.dtype == bool or a.dtype.kind not in "iu":
        raise ContractError(f"{what} must be integers {low}..{high}, got {a.dtype}")
    a = a.astype(np.int64)
    if a.size and (a.min() < low or a.max() > high):
        bad = a[(a < low) | (a > high)].flat[0]
        raise ContractError(f"{what} {int(bad)} is not {low}..{high}")
    return a


def score(
    level: ArrayLike,
    strain: ArrayLike,
    doubled: ArrayLike,
    tricks: ArrayLike,
    declarer_vulnerable: ArrayLike | None = None,
    declarer: Seat | int | str | None = None,
    *,
    vulnerable: Vulnerability | str | None = None,
    extrapolate: bool = False,
) -> NDArray[np.int64]:
    """Declarer's duplicate score by the Laws (module docstring), over arrays that broadcast together.

    Parameters
    ----------
    level : array_like of int
        1..7.
    strain : array_like of int
        0..4 = S H D C NT.
    doubled : array_like of int
        0 undoubled, 1 doubled, 2 redoubled.
    tricks : array_like of int
        Tricks taken by declarer, 0..13.
    declarer_vulnerable : array_like of bool
        Declarer's side vulnerable (or give ``vulnerable`` and ``declarer``).
    declarer : Seat, 0..3 or "N"/"E"/"S"/"W", optional
        Declarer, needed (and only taken) with ``vulnerable``.
    vulnerable : Vulnerability or its spelling ("NS", "all"...), optional
        The board's vulnerability, read for ``declarer``'s side.  Before it
        was a :class:`~ddsbind.Vulnerability`, ``vulnerable`` was declarer's
        side's bool: a bool given as ``vulnerable=`` is still read so, with
        a DeprecationWarning, as is a Vulnerability given in
        ``declarer_vulnerable``'s place.
    extrapolate : bool
        Score tricks outside 0..13 (within :data:`EXTRAPOLATE_TRICKS`) by the
        same rules, as Debian's ``dealer`` scores its ``score(nv, x3N, 14)``
        (550): each trick beyond 13 one more overtrick, each below 0 one
        more undertrick.  The dealer language's ``score()`` does; by
        default such tricks are refused.

    Returns
    -------
    ndarray of int64
        Positive when the contract makes, negative when it goes down.

    Raises
    ------
    ContractError
        A value out of range, or not an integer (``declarer_vulnerable``: a
        bool, or 0 or 1 only); both or neither of ``declarer_vulnerable``
        and ``vulnerable``; ``vulnerable`` without its declarer; a member
        of an enum of another meaning (a :class:`~ddsbind.Seat` as ``strain``).

    Examples
    --------
    >>> score(3, 4, 0, 9, False).item(), score(4, 0, 1, 8, True).item(), score(7, 4, 2, 13, True).item()
    (400, -500, 2980)
    >>> score(4, 0, 0, 10, declarer="N", vulnerable=Vulnerability.EW).item()
    420
    """
    for value, what in ((level, "level"), (doubled, "doubled"), (tricks, "tricks")):
        _refuse_enum(value, what)
    _refuse_enum(strain, "strain", Strain)
    given, board = _vulnerability_args("score", declarer_vulnerable, vulnerable)
    if board is not None:
        if declarer is None:
            raise ContractError(
                f"vulnerable {board!r} is the board's vulnerability: give the declarer "
                "(declarer=...) or declarer's side vulnerable as a bool (declarer_vulnerable=...)"
            )
        given = board.is_vulnerable(_declarer(declarer))
    elif declarer is not None:
        raise ContractError("declarer is taken only with vulnerable=, a Vulnerability then read for its side")
    _refuse_enum(given, "declarer_vulnerable")
    lv = _int_array(level, "level", 1, 7)
    st = _int_array(strain, "strain", 0, 4)
    dbl = _int_array(doubled, "doubled", 0, 2)
    tk = _int_array(tricks, "tricks", *((-EXTRAPOLATE_TRICKS, EXTRAPOLATE_TRICKS) if extrapolate else (0, 13)))
    vul = _bool_array(given)
    lv, st, dbl, tk, vul = np.broadcast_arrays(lv, st, dbl, tk, vul)
    factor = np.int64(1) << dbl  # 1, 2, 4
    per_trick = np.where(st >= 2, np.where(st == 4, 30, 20), 30)
    trick_score = (per_trick * lv + np.where(st == 4, 10, 0)) * factor
    bonus = np.where(trick_score >= 100, np.where(vul, 500, 300), 50)
    bonus = bonus + np.where(lv == 6, np.where(vul, 750, 500), 0) + np.where(lv == 7, np.where(vul, 1500, 1000), 0)
    bonus = bonus + 50 * dbl  # the insult: 50 doubled, 100 redoubled
    over = tk - (lv + 6)
    extra = np.maximum(over, 0)
    over_value = np.where(dbl == 0, per_trick, np.where(vul, 200, 100) * (factor // 2))
    made = trick_score + bonus + extra * over_value
    down = np.maximum(-over, 0)
    undoubled = down * np.where(vul, 100, 50)
    # Doubled: not vulnerable 100, 200, 200, 300...; vulnerable 200, 300, 300...
    doubled_nv = np.where(down >= 1, 100, 0) + 200 * np.clip(down - 1, 0, 2) + 300 * np.maximum(down - 3, 0)
    doubled_v = np.where(down >= 1, 200, 0) + 300 * np.maximum(down - 1, 0)
    penalty = np.where(dbl == 0, undoubled, np.where(vul, doubled_v, doubled_nv) * (factor // 2))
    return np.where(over >= 0, made, -penalty).astype(np.int64)


def _vulnerability_args(
    function: str, declarer_vulnerable: object, vulnerable: object
) -> tuple[object, Vulnerability | None]:
    """``(declarer_vulnerable, vulnerable)``: exactly one given, ``vulnerable`` parsed; old spellings moved, warned.

    Before ``vulnerable`` meant only a :class:`~ddsbind.Vulnerability`, it
    was declarer's side's bool too: a bool there (``vulnerable=True``), or
    a Vulnerability in ``declarer_vulnerable``'s place, is moved to its new
    name with a DeprecationWarning.
    """
    if isinstance(declarer_vulnerable, Vulnerability) and vulnerable is None:
        was, now = f"{function}(..., {declarer_vulnerable!r})", f"{function}(..., vulnerable={declarer_vulnerable!r})"
        deprecated(was, now, stacklevel=3)
        declarer_vulnerable, vulnerable = None, declarer_vulnerable
    if isinstance(vulnerable, Enum) and not isinstance(vulnerable, Vulnerability):
        raise ContractError(f"vulnerable {vulnerable!r:.40} is a {type(vulnerable).__name__}, not a vulnerability")
    if vulnerable is not None and not isinstance(vulnerable, Vulnerability | str):
        deprecated(f"{function}(vulnerable=<a bool>)", f"{function}(declarer_vulnerable=<a bool>)", stacklevel=3)
        if declarer_vulnerable is not None:
            raise ContractError(f"{function}() got vulnerable={vulnerable!r} and declarer_vulnerable=: give one")
        declarer_vulnerable, vulnerable = vulnerable, None
    if vulnerable is None:
        if declarer_vulnerable is None:
            raise ContractError(f"{function}() needs declarer_vulnerable (a bool) or vulnerable (a Vulnerability)")
        return declarer_vulnerable, None
    if declarer_vulnerable is not None:
        raise ContractError(f"{function}() got declarer_vulnerable and vulnerable={vulnerable!r}: give one")
    try:
        return None, Vulnerability.parse(vulnerable)
    except Error:
        raise ContractError(f"vulnerable {vulnerable!r:.40} is not none, NS, EW or all") from None


def _bool_array(value: object) -> NDArray[np.bool_]:
    """Declarer's side vulnerable: bools, or the integers 0 and 1 only.

    Any other integer is refused, not read as "true": ``2`` may be DDS's
    vulnerability code for NS, ``-1`` a sentinel; neither means "declarer
    vulnerable".  The board's vulnerability is a :class:`~ddsbind.Vulnerability`.
    """
    vul = np.asarray(value)
    if vul.dtype == bool:
        return vul
    if vul.dtype.kind not in "iu":
        raise ContractError(f"declarer_vulnerable must be true or false, got {vul.dtype}")
    if vul.size and (vul.min() < 0 or vul.max() > 1):
        bad = int(vul[(vul < 0) | (vul > 1)].flat[0])
        raise ContractError(
            f"declarer_vulnerable {bad} is not true or false (0 or 1): for the board's vulnerability "
            "give vulnerable=Vulnerability.NS and the declarer"
        )
    return vul.astype(bool)


def _finite(values: ArrayLike, what: str) -> NDArray[np.float64] | NDArray[np.int64]:
    """``values`` as int64 (integers) or float64 (others), refusing NaN, infinities and sizes beyond 64 bits.

    The one numeric check of scoring's inputs: an integer magnitude must fit
    int64 (``-2**63`` does not: its size is ``2**63``), a float must be finite.
    """
    try:
        a = np.asarray(values)
    except (TypeError, ValueError):
        raise ContractError(f"{what} must be numbers, got {values!r:.60}") from None
    if a.dtype == bool or a.dtype.kind not in "iuf":
        raise ContractError(f"{what} must be numbers, got {a.dtype}")
    if a.dtype.kind == "f":
        if a.size and not np.isfinite(a).all():
            raise ContractError(f"{what} {a[~np.isfinite(a)].flat[0]} is not a finite number")
        return a.astype(np.float64)
    if a.size and (a.max() > _INT64_MAX or a.min() < -_INT64_MAX):
        bad = a.max() if a.max() > _INT64_MAX else a.min()
        raise ContractError(f"{what} {int(bad)} is beyond 64-bit integers (at most {_INT64_MAX} in size)")
    return a.astype(np.int64)


def imps(difference: ArrayLike) -> NDArray[np.int64]:
    """IMPs for a score ``difference`` (WBF scale), with the difference's sign.

    Raises
    ------
    ContractError
        Not numbers; NaN or an infinity; an integer whose size passes
        ``2**63 - 1`` (``-2**63`` included).

    >>> imps([0, 20, -430, 5000]).tolist()
    [0, 1, -10, 24]
    """
    d = _finite(difference, "score differences")
    magnitude = np.searchsorted(IMP_BOUNDS, np.abs(d), side="left")
    return (np.sign(d) * magnitude).astype(np.int64)


def matchpoints(scores: ArrayLike, *, percent: bool = False) -> NDArray[np.float64]:
    """Matchpoints of each score against the others of its field (the last axis).

    One point for each score beaten, half for each tie, as ``(n - 1)`` tops;
    with ``percent``, as a percentage of the top (100 beats every other
    score; a field of one scores 50%).

    Parameters
    ----------
    scores : array_like, shape (..., n)
        Scores from one side's view (NS, say) of the same board at ``n`` tables.

    Raises
    ------
    ContractError
        Not numbers, NaN or infinite, or a single score (no field).

    Examples
    --------
    >>> matchpoints([420, 450, 450, -50]).tolist()
    [1.0, 2.5, 2.5, 0.0]
    """
    s = _finite(scores, "matchpoint scores")
    if s.ndim == 0:
        raise ContractError("matchpoints need a field: an array of scores, one per table")
    beaten = (s[..., :, None] > s[..., None, :]).sum(axis=-1)
    ties = (s[..., :, None] == s[..., None, :]).sum(axis=-1) - 1
    points = beaten + 0.5 * ties
    if not percent:
        return points.astype(np.float64)
    top = s.shape[-1] - 1
    return np.full(s.shape, 50.0) if top == 0 else 100.0 * points / top


def neuberg(points: ArrayLike, expected: int) -> NDArray[np.float64]:
    """Neuberg's adjustment: matchpoints won in a field of ``n`` results (the last axis) scaled to ``expected``.

    ``points`` are :func:`matchpoints`' (1 a score beaten, a half a tie; top
    ``n - 1``); the answer is on the top of ``expected - 1``:
    ``(points + 1/2) * expected / n - 1/2``.  Scaled thus, a board played
    fewer times than the others weighs as much as they do.

    Raises
    ------
    ContractError
        Not numbers, or ``expected`` smaller than the field or below 1.

    >>> neuberg([0.0, 1.0, 2.0], 4).round(6).tolist()
    [0.166667, 1.5, 2.833333]
    """
    p = _finite(points, "matchpoints").astype(np.float64)
    n = p.shape[-1] if p.ndim else 1
    if int(expected) < max(n, 1):
        raise ContractError(f"Neuberg scales a field of {n} results up, not to {expected}")
    return (p + 0.5) * int(expected) / n - 0.5


@dataclass(frozen=True)
class Contract:
    """A contract: ``level`` 1..7, ``strain`` (S H D C NT), ``doubled`` 0/1/2, and optionally the ``declarer``.

    The one contract type of ddsbind: the solver and pool (:func:`ddsbind.makes`),
    the dealer language and simulations, every record format and the CLI
    take and give this, read from text by :meth:`parse` (the one reader).
    ``str()`` is PBN's spelling, ``"4SX"``, ``"3NT"``, with ``" by N"`` when
    the declarer is known.

    Examples
    --------
    >>> c = Contract.parse("4SX by N")
    >>> c.level, c.strain, c.doubled, c.declarer, str(c)
    (4, <Strain.S: 0>, 1, <Seat.N: 0>, '4SX by N')
    >>> c.score(9, declarer_vulnerable=False), c.score(11, vulnerable="NS")
    (-100, 990)
    """

    level: int
    strain: Strain
    doubled: int = 0
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int | np.integer) or not 1 <= self.level <= 7:
            raise ContractError(f"contract level {self.level!r} is not 1..7")
        object.__setattr__(self, "level", int(self.level))
        try:
            object.__setattr__(self, "strain", Strain.parse(self.strain))
        except Error:
            raise ContractError(f"contract strain {self.strain!r:.40} is not S, H, D, C or NT (0..4)") from None
        if isinstance(self.doubled, bool) or self.doubled not in (0, 1, 2):
            raise ContractError(f"doubled {self.doubled!r} is not 0 (undoubled), 1 (doubled) or 2 (redoubled)")
        object.__setattr__(self, "doubled", int(self.doubled))
        if self.declarer is not None:
            object.__setattr__(self, "declarer", _declarer(self.declarer))

    @classmethod
    def parse(cls, text: str | Contract) -> Contract:
        """Read a contract: the one reader of contract text in ddsbind.

        Reads ``"4S"``, ``"3NT"``/``"3N"``, ``"4SX"``, ``"6HXX"``, ``"4\u2660X"``
        (any case, spaces around the parts allowed), with an optional
        declarer after it: ``"4SXN"``, ``"4SX N"``, ``"4SX by North"``.
        Doubled is ``X`` (or ``*``), redoubled ``XX`` (or ``**``, ``R``).
        The dealer languages' spellings read the same: dealer's ``"x3N"``
        (undoubled 3NT) and DealerV2's ``"z4Hx"``/``"z6Sxx"`` (doubled,
        redoubled).  A :class:`Contract` is returned as it is.

        Raises
        ------
        ContractError
            Anything else, naming the text; passed out (``"Pass"``) included:
            it is no contract (:meth:`parse_or_pass` reads it as None).

        Examples
        --------
        >>> Contract.parse("3nts"), Contract.parse("z4Hx"), Contract.parse("x3N")
        (Contract(level=3, strain=<Strain.NT: 4>, doubled=0, declarer=<Seat.S: 2>), \
Contract(level=4, strain=<Strain.H: 1>, doubled=1, declarer=None), \
Contract(level=3, strain=<Strain.NT: 4>, doubled=0, declarer=None))
        """
        if isinstance(text, Contract):
            return text
        expected = "a level 1-7, a strain S H D C NT, then X or XX and a declarer if any"
        level, strain, dbl, seat = _match(text, _CONTRACT, "contract", "'4SX' or a Contract", expected).groups()
        who = Seat.parse(seat) if seat else None
        return cls(int(level), _strain(strain), _DOUBLING[dbl], who)

    @classmethod
    def parse_or_pass(cls, text: str | Contract | None) -> Contract | None:
        """:meth:`parse`, with ``"Pass"`` (any case; a passed-out board, as PBN's Contract tag writes it) read as None.

        >>> Contract.parse_or_pass("pass") is None, str(Contract.parse_or_pass("3NTX"))
        (True, '3NTX')
        """
        if text is None or (isinstance(text, str) and text.strip().upper() == _PASS_TEXT.upper()):
            return None
        return cls.parse(text)

    def declared(self, declarer: Seat | int | str | None = None) -> Contract:
        """This contract with its declarer known: the named one, or ``declarer``; both given must agree.

        The one check that a contract names its declarer, for everything
        that needs one (:func:`ddsbind.makes`, simulations' contracts).

        Raises
        ------
        ContractError
            Neither names a declarer, or they name two.
        InvalidArgumentError
            A bad ``declarer`` (as :meth:`Seat.parse`).

        Examples
        --------
        >>> str(Contract.parse("3NT").declared("S")), str(Contract.parse("4SXN").declared())
        ('3NT by S', '4SX by N')
        """
        seat = None if declarer is None else Seat.parse(declarer, "declarer")
        if seat is None and self.declarer is None:
            raise ContractError(f"contract {self} names no declarer (say '{self} by N', or give the declarer)")
        if seat is not None and self.declarer is not None and seat != self.declarer:
            bare = replace(self, declarer=None)
            raise ContractError(
                f"contract {bare} is declared by {self.declarer.name}, but declarer={seat.name} was given"
            )
        return self if seat is None or self.declarer is not None else replace(self, declarer=seat)

    @property
    def trick_target(self) -> int:
        """Tricks declarer needs: ``level + 6``."""
        return self.level + 6

    @property
    def call(self) -> Call:
        """The last bid of the auction that reached it: ``Call.parse("4S")`` for ``4SX by N``.

        Contracts rank as their bids do (``sorted(contracts, key=lambda c: c.call)``: 1C lowest, 7NT highest).
        """
        return Call(self.level, self.strain)

    @property
    def undeclared(self) -> Contract:
        """This contract without its declarer: what a game record holds (its declarer is held apart)."""
        return self if self.declarer is None else replace(self, declarer=None)

    def score(
        self,
        tricks: int,
        vulnerable: Vulnerability | str | None = None,
        *,
        declarer_vulnerable: bool | None = None,
        extrapolate: bool = False,
    ) -> int:
        """Declarer's score taking ``tricks`` (0..13) by the Laws.

        ``vulnerable`` is the board's :class:`~ddsbind.Vulnerability` (or its
        spelling, ``"NS"``, ``"all"``...) read for the :attr:`declarer`, who
        must then be known (unless nobody or everybody is vulnerable);
        ``declarer_vulnerable`` is declarer's side's as a bool.  Neither:
        not vulnerable.  A bool given as ``vulnerable`` (its meaning before)
        is read as ``declarer_vulnerable``, with a DeprecationWarning.
        ``extrapolate`` scores tricks beyond 0..13 as :func:`score` does (the
        same rule as :meth:`scores`: one numeric policy for one deal and for arrays).
        """
        return int(self.scores(tricks, vulnerable, declarer_vulnerable=declarer_vulnerable, extrapolate=extrapolate))

    def scores(
        self,
        tricks: ArrayLike,
        vulnerable: Vulnerability | str | None = None,
        *,
        extrapolate: bool = False,
        declarer_vulnerable: bool | None = None,
    ) -> NDArray[np.int64]:
        """:meth:`score` over an array of tricks (``extrapolate`` as :func:`score`'s)."""
        if vulnerable is None and declarer_vulnerable is None:
            declarer_vulnerable = False
        vul = self._vulnerable(declarer_vulnerable, vulnerable)
        return score(self.level, int(self.strain), self.doubled, tricks, vul, extrapolate=extrapolate)

    def _vulnerable(self, declarer_vulnerable: object, vulnerable: object) -> bool:
        given, vul = _vulnerability_args("Contract.score", declarer_vulnerable, vulnerable)
        if vul is None:
            if not isinstance(given, bool | np.bool_):
                raise ContractError(f"declarer_vulnerable {given!r:.40} is neither true nor false")
            return bool(given)
        if self.declarer is None:
            if vul in (Vulnerability.NONE, Vulnerability.BOTH):
                return vul is Vulnerability.BOTH
            raise ContractError(f"vulnerability {vul} needs the contract's declarer (say '{self} by N')")
        return vul.is_vulnerable(self.declarer)

    def __str__(self) -> str:
        text = f"{self.level}{self.strain}{('', 'X', 'XX')[self.doubled]}"
        return text if self.declarer is None else f"{text} by {self.declarer}"


class Call(str):
    """One call of an auction: a bid (``level`` 1..7 and ``strain``), a pass, a double or a redouble.

    ``level`` is 0 and ``strain`` None for a pass, a double or a redouble;
    ``doubled`` is 1 for a double, 2 for a redouble, else 0.  A call is its
    own text, PBN's spelling: ``"1C"``, ``"2NT"``, ``"Pass"``, ``"X"``,
    ``"XX"`` (a ``str``, so that code written for auctions of text, such as
    ``" ".join(game.auction)``, reads on).  :meth:`parse` is the one reader of
    call text (PBN's and LIN's auctions).  :data:`Call.PASS`,
    :data:`Call.DOUBLE` and :data:`Call.REDOUBLE` are the three calls that are no bid.

    Bids compare by rank, the one bidding order of ddsbind (:attr:`rank`):
    a higher level ranks higher, then C < D < H < S < NT within a level.
    Comparing a pass, double or redouble with ``<`` raises ``TypeError``.

    Examples
    --------
    >>> [str(Call.parse(t)) for t in ("1c", "2N", "p", "d", "r", "XX", "pass")]
    ['1C', '2NT', 'Pass', 'X', 'XX', 'XX', 'Pass']
    >>> Call.parse("3n").is_bid, Call.parse("X").doubled, Call.parse("Pass").is_pass
    (True, 1, True)
    >>> Call.parse("1NT") < Call.parse("2C"), max(Call.parse("2S"), Call.parse("2H"))
    (True, Call(level=2, strain=<Strain.S: 0>, doubled=0))
    """

    PASS: ClassVar[Call]
    DOUBLE: ClassVar[Call]
    REDOUBLE: ClassVar[Call]
    _parts: tuple[int, Strain | None, int]

    def __new__(cls, level: int = 0, strain: Strain | int | str | None = None, doubled: int = 0) -> Call:
        parts: tuple[int, Strain | None, int]
        if level == 0 and strain is None:
            if isinstance(doubled, bool) or doubled not in (0, 1, 2):
                raise ContractError(f"call doubled {doubled!r} is not 0 (pass), 1 (double) or 2 (redouble)")
            text, parts = (_PASS_TEXT, "X", "XX")[doubled], (0, None, int(doubled))
        else:
            if doubled != 0:
                raise ContractError("a call is a bid, a pass, a double or a redouble: not a doubled bid")
            if strain is None:
                raise ContractError(f"bid of level {level!r} needs a strain (S, H, D, C or NT)")
            bid = Contract(level, strain)  # type: ignore[arg-type]  # checks level and strain
            text, parts = f"{bid.level}{bid.strain}", (bid.level, bid.strain, 0)
        call = super().__new__(cls, text)
        call.__dict__["_parts"] = parts
        return call

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Call is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Call.parse, (str(self),))

    def __repr__(self) -> str:
        return f"Call(level={self.level}, strain={self.strain!r}, doubled={self.doubled})"

    @property
    def level(self) -> int:
        """1..7 for a bid, else 0."""
        return self._parts[0]

    @property
    def strain(self) -> Strain | None:
        """A bid's strain, else None."""
        return self._parts[1]

    @property
    def doubled(self) -> int:
        """1 for a double, 2 for a redouble, else 0."""
        return self._parts[2]

    @classmethod
    def parse(cls, text: str | Call) -> Call:
        """Read ``"1C"`` .. ``"7NT"`` (``"7N"``, suit symbols), ``"P"``/``"Pass"``, ``"X"``/``"D"``, ``"XX"``/``"R"``.

        Any case; spaces around the call are allowed.

        Raises
        ------
        ContractError
            Anything else, naming the text.
        """
        if isinstance(text, Call):
            return text
        expected = "a bid 1C..7NT, Pass (P), X (D) or XX (R)"
        level, strain, _passed, redoubled, doubled = _match(text, _CALL, "call", "'1C', 'Pass', 'X'", expected).groups()
        if level:
            return cls(int(level), _strain(strain))
        return cls(doubled=2 if redoubled else 1 if doubled else 0)

    @property
    def is_bid(self) -> bool:
        """True for a bid (1C..7NT)."""
        return self.level > 0

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.level == 0 and self.doubled == 0

    @property
    def rank(self) -> int:
        """A bid's place in the bidding order: 0 for 1C .. 34 for 7NT (strains C < D < H < S < NT).

        Raises
        ------
        ContractError
            For a pass, a double or a redouble, which have no rank.
        """
        if self.strain is None:
            raise ContractError(f"{self} is no bid: only bids rank")
        return (self.level - 1) * 5 + _BID_ORDER.index(self.strain)

    def _ranks(self, other: object) -> tuple[int, int] | None:
        if not isinstance(other, Call) or not self.is_bid or not other.is_bid:
            return None
        return self.rank, other.rank

    def __lt__(self, other: object) -> bool:
        ranks = self._ranks(other)
        return NotImplemented if ranks is None else ranks[0] < ranks[1]

    def __le__(self, other: object) -> bool:
        ranks = self._ranks(other)
        return NotImplemented if ranks is None else ranks[0] <= ranks[1]

    def __gt__(self, other: object) -> bool:
        ranks = self._ranks(other)
        return NotImplemented if ranks is None else ranks[0] > ranks[1]

    def __ge__(self, other: object) -> bool:
        ranks = self._ranks(other)
        return NotImplemented if ranks is None else ranks[0] >= ranks[1]


Call.PASS = Call()
Call.DOUBLE = Call(doubled=1)
Call.REDOUBLE = Call(doubled=2)


class PassedOut:
    """The one value of a passed-out board: no level, no strain, no declarer, scored 0.

    A game record's contract is a :class:`Contract`, :data:`PASSED_OUT` (four
    passes) or None (not known).  ``str()`` is PBN's spelling, ``"Pass"``,
    as :meth:`Contract.parse_or_pass` and :func:`ddsbind.record.read_contract` read it.
    """

    __slots__ = ()
    _instance: ClassVar[PassedOut | None] = None

    def __new__(cls) -> PassedOut:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASSED_OUT"

    def __str__(self) -> str:
        return _PASS_TEXT

    def __reduce__(self) -> str:
        return "PASSED_OUT"


#: A passed-out board's contract: the one value (``str()`` ``"Pass"``).
PASSED_OUT: Final = PassedOut()


@dataclass(frozen=True)
class DealerParContract:
    """One contract of DDS's ``DealerPar`` answer, read from DDS's text (``"4S*-EW-1"``, ``"3N-N+1"``).

    Attributes
    ----------
    contract : Contract
        Level and strain; doubled (1) for a sacrifice (DDS's ``*``); its
        declarer when DDS names one seat, else None.
    declarers : tuple of Seat
        The seats that can declare it: one, or both of a side (``"EW"``).
    result : int
        Tricks over (positive) or under (negative) the contract; 0 exactly made.

    Examples
    --------
    >>> p = DealerParContract.parse("4S*-EW-1")
    >>> str(p.contract), p.declarers, p.result
    ('4SX', (<Seat.E: 1>, <Seat.W: 3>), -1)
    """

    contract: Contract
    declarers: tuple[Seat, ...]
    result: int = 0

    @classmethod
    def parse(cls, text: str) -> DealerParContract:
        """Read one of DDS's ``DealerPar`` contracts; :class:`ContractError` naming the text otherwise."""
        m = _DEALER_PAR.match(text) if isinstance(text, str) else None
        if m is None:
            raise ContractError(f"par contract {text!r:.40} is not as DDS writes one (e.g. 4S*-EW-1)")
        level, strain, sacrifice, seats, result = m.groups()
        declarers = tuple(Seat.parse(s) for s in seats)
        who = declarers[0] if len(declarers) == 1 else None
        return cls(Contract(int(level), Strain.parse(strain), 1 if sacrifice else 0, who), declarers, int(result or 0))

    @property
    def seats(self) -> str:
        """The declaring seats' letters: ``"N"``, ``"EW"``."""
        return "".join(s.name for s in self.declarers)


@dataclass(frozen=True)
class PayoffTable:
    """Each pair of strategies compared deal by deal: the mean gain of the row over the column and its standard error.

    As redeal's payoff tables: ``mean[i, j]`` is the mean over the deals of
    what strategy ``i`` gains over ``j`` on the same deal (IMPs, or the
    share of the board in matchpoints, 1 a win, 1/2 a tie, 0 a loss, or
    total points), ``se[i, j]`` its standard error (the deals' standard
    deviation over the square root of their number).

    Attributes
    ----------
    names : tuple of str
    mean, se : ndarray, shape (k, k), float64
    scoring : str
        ``"imps"``, ``"matchpoints"`` or ``"total"``.
    deals : int
    """

    names: tuple[str, ...]
    mean: NDArray[np.float64]
    se: NDArray[np.float64]
    scoring: str
    deals: int

    def __str__(self) -> str:
        width = max(8, *(len(n) for n in self.names)) + 1
        unit = {"imps": "IMPs", "matchpoints": "MP share", "total": "points"}[self.scoring]
        lines = [f"{unit} of the row against the column, mean (standard error), {self.deals} deals"]
        lines.append(" " * width + "".join(f"{n:>{2 * width}}" for n in self.names))
        for i, name in enumerate(self.names):
            cells = "".join(
                f"{'':>{2 * width}}" if i == j else f"{f'{self.mean[i, j]:+.2f} ({self.se[i, j]:.2f})':>{2 * width}}"
                for j in range(len(self.names))
            )
            lines.append(f"{name:<{width}}{cells}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape

        from ddsbind import _html

        rows = [
            (
                escape(name),
                [
                    "" if i == j else f"{self.mean[i, j]:+.2f}&nbsp;({self.se[i, j]:.2f})"
                    for j in range(len(self.names))
                ],
            )
            for i, name in enumerate(self.names)
        ]
        header = ["", *(escape(n) for n in self.names)]
        caption = f"{self.scoring}: row against column, mean (standard error), {self.deals} deals"
        return _html.grid("payoff", header, rows, caption)


def payoff(scores: Mapping[str, ArrayLike], scoring: str = "imps") -> PayoffTable:
    """A redeal-style payoff table of strategies scored on the same deals.

    Parameters
    ----------
    scores : mapping of name -> array_like, shape (n,)
        Each strategy's score on deal ``0 .. n-1``, all from one side's view
        (e.g. ``{"3NT": ..., "4S": ...}`` from :meth:`Contract.scores` over the
        deals' double-dummy tricks).
    scoring : ``"imps"``, ``"matchpoints"`` or ``"total"``
        How one deal's two scores compare: :func:`imps` of the difference;
        matchpoints (1 the better score, 1/2 each on a tie, 0); or the difference in points.

    Examples
    --------
    >>> t = payoff({"3NT": [400, 400, -50], "5C": [400, -50, -50]})
    >>> round(float(t.mean[0, 1]), 2), round(float(t.mean[1, 0]), 2)
    (3.33, -3.33)
    """
    if scoring not in ("imps", "matchpoints", "total"):
        raise ContractError(f"scoring {scoring!r} is not 'imps', 'matchpoints' or 'total'")
    if not scores:
        raise ContractError("a payoff table needs at least one strategy")
    names = tuple(str(n) for n in scores)
    arrays = [_finite(v, f"strategy {name!r:.40}'s scores").astype(np.float64) for name, v in scores.items()]
    n = arrays[0].shape
    if any(a.ndim != 1 or a.shape != n for a in arrays):
        shapes = [a.shape for a in arrays]
        raise ContractError(f"every strategy needs one score per deal, the same deals: shapes {shapes}")
    k, deals = len(arrays), n[0]
    mean = np.zeros((k, k))
    se = np.zeros((k, k))
    for i, j in itertools.product(range(k), repeat=2):
        diff = arrays[i] - arrays[j]
        if scoring == "imps":
            gain = imps(diff).astype(np.float64)
        elif scoring == "matchpoints":
            gain = (np.sign(diff) + 1) / 2
        else:
            gain = diff
        mean[i, j] = gain.mean() if deals else np.nan
        se[i, j] = gain.std(ddof=1) / np.sqrt(deals) if deals > 1 else np.nan
    return PayoffTable(names, mean, se, scoring, deals)
