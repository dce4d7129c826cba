"""Par of double-dummy tables, one or millions at a time, without DDS: DDS's ``DealerPar`` and ``Par``.

Par is the result when both sides bid perfectly knowing the double-dummy
table: the side that can make the higher contract bids it, the other side
sacrifices (doubled) when going down costs less.  Two forms, as DDS gives them:

* :func:`dealer_pars` / :func:`dealer_par_scores`: DDS's ``DealerPar``, the
  dealer bidding first (who can bid a contract first decides ties); one
  score, from North-South's view.
* :func:`pars` / :func:`par_scores`: DDS's ``Par``, once with North-South
  bidding first and once with East-West first (the two differ only in
  "hot" deals).

The answers are DDS 2.9's, field for field, contract lists included (tests
compare them against DDS on real deals and on arbitrary tables); they are
computed by ddsbind's own C kernel (``native/parkernel.c``) over arrays of
tables, some million tables a second a core, releasing the GIL.
:func:`ddsbind.par` and :func:`ddsbind.dealer_par` are the one-table case.

Conventions: tables are ``(n, 5, 4)`` trick counts 0..13 in DDS's order
(strains S H D C NT, declarers N E S W); seats N=0 E=1 S=2 W=3;
vulnerability DDS's 0 none, 1 both, 2 NS, 3 EW.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import SUIT_SYMBOLS, Seat, Side, Strain, sides_of, sides_vulnerable
from ddsbind.errors import InvalidArgumentError
from ddsbind.game import Vulnerability
from ddsbind.results import DDTable
from ddsbind.scoring import Contract, DealerParContract, score

__all__ = [
    "DealerPar",
    "Par",
    "ParContract",
    "dealer_par_scores",
    "dealer_pars",
    "par_scores",
    "pars",
    "sacrifice_flags",
]

#: Contracts a par answer holds at most (DDS's structs hold 10).
PAR_SLOTS = 10
_FIELDS = 8  # level, strain, seats, result, starred, against level, strain, seats (native/parkernel.h)
_SEATS_TEXT = ("N", "E", "S", "W", "NS", "EW")
_DDS_LETTER = "SHDCN"  # DDS's strain letters, in DDS's order
_STRAIN_SYMBOLS = (*SUIT_SYMBOLS, "NT")


# -- arrays in ---------------------------------------------------------------------------------


def _tables(tables: ArrayLike | Sequence[DDTable]) -> NDArray[np.int8]:
    """``(n, 5, 4)`` int8, C order, checked 0..13; a single ``(5, 4)`` table is ``n`` 1."""
    if isinstance(tables, DDTable):
        return tables.array.reshape(1, 5, 4).copy()
    if isinstance(tables, Sequence) and tables and isinstance(tables[0], DDTable):
        tables = [np.asarray(t) for t in cast(Sequence[DDTable], tables)]
    a = np.asarray(tables)
    if a.ndim == 2:
        a = a.reshape(1, *a.shape)
    if a.ndim != 3 or a.shape[1:] != (5, 4):
        raise InvalidArgumentError(f"DD tables have shape (n, 5 strains, 4 declarers), got {a.shape}")
    if a.size and a.dtype.kind not in "iu":
        raise InvalidArgumentError(f"DD tables hold whole trick counts 0..13, got {a.dtype} values")
    if a.size:
        bad = (a < 0) | (a > 13)
        if bad.any():
            i = int(np.flatnonzero(bad.any(axis=(1, 2)))[0])
            raise InvalidArgumentError(f"DD table {i + 1} holds trick counts outside 0..13: {a[i].tolist()}")
    return np.ascontiguousarray(a, dtype=np.int8)


def _per_table(value: Any, n: int, parse: Any, what: str) -> NDArray[np.int8]:
    """One seat or vulnerability for every table: a scalar (any spelling) or an array of DDS numbers."""
    if isinstance(value, np.ndarray | Sequence) and not isinstance(value, str):
        a = np.asarray(value)
        if a.shape != (n,):
            raise InvalidArgumentError(f"{what}: {a.shape[0] if a.ndim == 1 else a.shape} values for {n} tables")
        if a.dtype.kind not in "iu":
            a = np.array([int(parse(v)) for v in a.tolist()], dtype=np.int64)
        if a.size and (a.min() < 0 or a.max() > 3):
            raise InvalidArgumentError(f"{what} numbers are 0..3, got {int(a.min())}..{int(a.max())}")
        return np.ascontiguousarray(a, dtype=np.int8)
    return np.full(n, int(parse(value)), dtype=np.int8)


def _kernel() -> tuple[Any, Any]:
    from ddsbind._dealkernel import ffi, lib

    return ffi, lib


#: Tables from which a call is split across the cores (the kernel releases the GIL): smaller calls,
#: such as a library run's chunks (themselves on worker threads), run on the calling thread.
SPLIT = 1 << 17


class _Raw(NamedTuple):
    """What the kernel filled, beside the checked tables and vulnerabilities."""

    tables: NDArray[np.int8]
    vul: NDArray[np.int8]
    score: NDArray[np.int32]
    number: NDArray[np.int8]
    contracts: NDArray[np.int8] | None
    sacrifice: NDArray[np.int8] | None


def _run(
    tables: ArrayLike | Sequence[DDTable],
    dealer: Any,
    vulnerable: Any,
    contracts: bool,
    *,
    sides: bool = False,
    sacrifice: bool = False,
) -> _Raw:
    """The kernel over the tables, across the cores when there are many.

    ``sides`` runs both sides' par (``Par``: results ``(n, 2, ...)``, NS
    bidding first then EW; ``dealer`` unused), else dealer par (``DealerPar``:
    results ``(n, ...)``; ``sacrifice`` asks whether each one's contracts go down).
    """
    t = _tables(tables)
    n = t.shape[0]
    v = _per_table(vulnerable, n, Vulnerability.parse, "vulnerable")
    d = None if sides else _per_table(dealer, n, lambda x: Seat.parse(x, "dealer"), "dealer")
    views = (2,) if sides else ()
    raw = _Raw(
        t,
        v,
        np.empty((n, *views), dtype=np.int32),
        np.empty((n, *views), dtype=np.int8),
        np.zeros((n, *views, PAR_SLOTS, _FIELDS), dtype=np.int8) if contracts else None,
        np.empty(n, dtype=np.int8) if sacrifice and not sides else None,
    )
    ffi, lib = _kernel()

    def part(a: int, b: int) -> None:
        def buf(kind: str, x: NDArray[Any] | None, writable: bool = True) -> Any:
            return ffi.NULL if x is None else ffi.from_buffer(kind, x[a:b], require_writable=writable)

        filled = (buf("int32_t[]", raw.score), buf("int8_t[]", raw.number), buf("int8_t[]", raw.contracts))
        given = (buf("int8_t[]", t, False), b - a)
        if d is None:
            lib.ddsbind_sides_par(*given, buf("int8_t[]", v, False), *filled)
        else:
            lib.ddsbind_dealer_par(
                *given, buf("int8_t[]", d, False), buf("int8_t[]", v, False), *filled, buf("int8_t[]", raw.sacrifice)
            )

    cores = min(os.cpu_count() or 1, max(1, n // SPLIT))
    if cores == 1:
        if n:
            part(0, n)
        return raw
    from concurrent.futures import ThreadPoolExecutor

    bounds = np.linspace(0, n, cores + 1).astype(int).tolist()
    with ThreadPoolExecutor(cores) as pool:
        list(pool.map(part, bounds[:-1], bounds[1:]))
    return raw


def dealer_par_scores(
    tables: ArrayLike | Sequence[DDTable],
    dealer: Seat | int | str | ArrayLike,
    vulnerable: Vulnerability | int | str | ArrayLike,
) -> NDArray[np.int32]:
    """North-South's par score of each table, ``dealer`` bidding first (DDS's ``DealerPar``'s score).

    Parameters
    ----------
    tables : array_like, shape (n, 5, 4) or (5, 4)
        Trick counts 0..13, DDS order (strains S H D C NT, declarers N E S W).
    dealer : Seat, 0..3 or name, or array of shape (n,) of 0..3
        Who bids first, one for all tables or one a table.
    vulnerable : Vulnerability, 0..3 or name, or array of shape (n,) of DDS's 0..3
        Who is vulnerable (0 none, 1 both, 2 NS, 3 EW).

    Returns
    -------
    ndarray, shape (n,), int32
        Positive when North-South gain, negative when East-West do, 0 passed out.

    Raises
    ------
    InvalidArgumentError
        A table of another shape or with a count outside 0..13 (naming the
        table, counting from 1), a bad dealer or vulnerability.

    Examples
    --------
    >>> t = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [9, 4, 9, 4]]
    >>> dealer_par_scores(t, "N", "none").tolist()
    [400]
    """
    return _run(tables, dealer, vulnerable, contracts=False).score


def sacrifice_flags(
    tables: ArrayLike | Sequence[DDTable],
    dealer: Seat | int | str | ArrayLike,
    vulnerable: Vulnerability | int | str | ArrayLike,
) -> NDArray[np.bool_]:
    """Whether each table's dealer par (DDS's ``DealerPar``) is a sacrifice: its contracts go down (doubled).

    Arguments as :func:`dealer_par_scores`'s; ``(n,)`` bool.  DDS writes
    such a contract ``"4S*-EW-2"``, or ``"4S-E-2"`` when one player alone
    can take it in the strain the opponents bid.

    Examples
    --------
    >>> t = [[3, 8, 3, 8], [10, 3, 10, 3], [5, 7, 5, 7], [6, 6, 6, 6], [6, 6, 6, 6]]
    >>> sacrifice_flags(t, "N", "NS").tolist(), sacrifice_flags(t, "N", "EW").tolist()
    ([True], [False])
    """
    flags = _run(tables, dealer, vulnerable, contracts=False, sacrifice=True).sacrifice
    assert flags is not None
    return flags.astype(bool)


def par_scores(
    tables: ArrayLike | Sequence[DDTable], vulnerable: Vulnerability | int | str | ArrayLike
) -> NDArray[np.int32]:
    """Par scores ``(n, 2)`` of DDS's ``Par``: column 0 NS bidding first (NS's view), 1 EW first (EW's view).

    ``tables`` and ``vulnerable`` as :func:`dealer_par_scores`'s.

    Examples
    --------
    >>> t = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [9, 4, 9, 4]]
    >>> par_scores(t, "none").tolist()
    [[400, -400]]
    """
    return _run(tables, None, vulnerable, contracts=False, sides=True).score


# -- one contract -------------------------------------------------------------------------------


def _level_words(contract: Contract) -> str:
    return f"{contract.level}{_STRAIN_SYMBOLS[contract.strain]}{'X' if contract.doubled else ''}"


def _seats_words(seats: tuple[Seat, ...]) -> str:
    return " or ".join(str(s) for s in seats)


@dataclass(frozen=True)
class ParContract:
    """One par contract, with what it scores and, for a sacrifice, what it saves against.

    Attributes
    ----------
    contract : Contract
        Level and strain; doubled (1) for a sacrifice; its declarer when only one seat can declare it.
    declarers : tuple of Seat
        The seats that can declare it: one, or both of a side.
    result : int
        Overtricks (positive) or undertricks (negative); 0 just made.
    score : int
        What the declaring side scores, by the Laws (a sacrifice's is negative).
    against : Contract or None
        For a sacrifice: the opponents' contract it outbids (undoubled, as
        they would make it).  Dealer par names the contract DDS's
        ``DealerPar`` weighed the sacrifice against; both sides' par
        (``Par`` names none) the opponents' best-scoring making contract
        that ranks below the sacrifice.
    against_declarers : tuple of Seat
        Who would declare ``against``.
    against_score : int
        What ``against`` would score for the opponents (the sacrificing side would lose that).
    """

    contract: Contract
    declarers: tuple[Seat, ...]
    result: int
    score: int
    against: Contract | None = None
    against_declarers: tuple[Seat, ...] = ()
    against_score: int = 0

    @property
    def side(self) -> Side:
        """The declaring side."""
        return self.declarers[0].side

    def explain(self) -> str:
        """In players' words: ``"4♠X by E, down 2, saves against 4♥ by N: EW -300 vs -620"``.

        A make reads ``"3NT by N or S, 1 overtrick: NS +430"``.

        Examples
        --------
        >>> c = ParContract(Contract.parse("4SX"), (Seat.E,), -2, -300, Contract.parse("4H"), (Seat.N,), 620)
        >>> c.explain()
        '4\u2660X by E, down 2, saves against 4\u2665 by N: EW -300 vs -620'
        """
        text = f"{_level_words(self.contract)} by {_seats_words(self.declarers)}"
        n = abs(self.result)
        if self.result < 0:
            text += f", down {n}"
        elif self.result > 0:
            text += f", {n} overtrick{'s' if n > 1 else ''}"
        if self.against is not None:
            text += f", saves against {_level_words(self.against)} by {_seats_words(self.against_declarers)}"
            return f"{text}: {self.side} {self.score:+d} vs {-self.against_score:+d}"
        return f"{text}: {self.side} {self.score:+d}"

    def to_dict(self) -> dict[str, Any]:
        """For JSON: contract, declarers, result, score, and what a sacrifice saves against (or None)."""
        saves = None
        if self.against is not None:
            saves = {
                "contract": str(self.against),
                "declarers": "".join(str(s) for s in self.against_declarers),
                "score": self.against_score,
            }
        return {
            "contract": str(self.contract),
            "declarers": "".join(str(s) for s in self.declarers),
            "result": self.result,
            "score": self.score,
            "saves_against": saves,
            "words": self.explain(),
        }


@functools.cache
def _seats_of(code: int) -> tuple[Seat, ...]:
    """The seats of a kernel seats code: 0..3 one seat, 4 NS, 5 EW."""
    return Side(code - 4).seats if code >= 4 else (Seat(code),)


@functools.cache
def _contract(level: int, strain: int, doubled: int, seats: int) -> Contract:
    """The (immutable, so shared) contract of a kernel row; its declarer when one seat alone declares it."""
    declarers = _seats_of(seats)
    return Contract(level, Strain(strain), doubled, declarers[0] if len(declarers) == 1 else None)


def _scored(rows: NDArray[np.int8], tables: NDArray[np.int8], vul: NDArray[np.int8]) -> NDArray[np.int64]:
    """``(m, 2)``: what each kernel row's contract scores for its side, and what its ``against`` would score.

    ``rows`` ``(m, 8)`` as the kernel writes them, ``tables`` ``(m, 5, 4)`` and ``vul``
    ``(m,)`` those of each row's table; one :func:`ddsbind.scoring.score` call for all.
    """
    out = np.zeros((rows.shape[0], 2), dtype=np.int64)
    if not rows.shape[0]:
        return out
    r = rows.astype(np.int64)
    level, strain, seats, result = r[:, 0], r[:, 1], r[:, 2], r[:, 3]
    v = vul.astype(np.int64)
    tricks = np.clip(level + 6 + result, 0, 13)
    out[:, 0] = score(level, strain, (result < 0).astype(np.int64), tricks, sides_vulnerable(sides_of(seats), v))
    has = r[:, 5] > 0
    if has.any():
        a_seat = np.where(r[:, 7] >= 4, r[:, 7] - 4, r[:, 7])
        a_tricks = tables[np.flatnonzero(has), r[has, 6], a_seat[has]].astype(np.int64)
        out[has, 1] = score(r[has, 5], r[has, 6], 0, a_tricks, sides_vulnerable(sides_of(r[has, 7]), v[has]))
    return out


def _contracts_of(rows: NDArray[np.int8], scores: NDArray[np.int64]) -> tuple[ParContract, ...]:
    """Kernel rows (level, strain, seats, result, starred, against...) and their :func:`_scored` as contracts."""
    out = []
    for row, (made, saved) in zip(rows.tolist(), scores.tolist(), strict=True):
        level, strain, seats, result, _, a_level, a_strain, a_seats = row
        contract = _contract(level, strain, 1 if result < 0 else 0, seats)
        if result >= 0 or a_level == 0:
            out.append(ParContract(contract, _seats_of(seats), result, made))
            continue
        against = _contract(a_level, a_strain, 0, a_seats)
        out.append(ParContract(contract, _seats_of(seats), result, made, against, _seats_of(a_seats), saved))
    return tuple(out)


def _explained(
    out: NDArray[np.int8], number: NDArray[np.int8], tables: NDArray[np.int8], vul: NDArray[np.int8]
) -> list[tuple[ParContract, ...]]:
    """Each result's contracts: ``out`` ``(k, 10, 8)`` kernel rows, ``number`` used of each; tables, vul by result."""
    used = np.arange(PAR_SLOTS) < number[:, None].astype(np.int64)
    which = np.nonzero(used)[0]
    scores = _scored(out[used], tables[which], vul[which])
    ends = np.cumsum(number.astype(np.int64))
    return [
        _contracts_of(out[i, : int(number[i])], scores[e - int(number[i]) : e]) for i, e in enumerate(ends.tolist())
    ]


# -- DealerPar ------------------------------------------------------------------------------------


def _score_words(ns_score: int) -> str:
    """NS's score as the side that gains reads it: ``-110`` -> ``"EW +110"``; 0 -> ``"0"``."""
    if ns_score == 0:
        return "0"
    return f"NS +{ns_score}" if ns_score > 0 else f"EW +{-ns_score}"


def _declarer_words(seats: str) -> str:
    """``"N"`` -> ``"North"``; ``"EW"`` -> ``"East or West (either partner)"`` (either partner can declare)."""
    names = [Seat.parse(letter).full_name for letter in seats]
    return names[0] if len(names) == 1 else f"{names[0]} or {names[1]} (either partner)"


def _either(levels: Sequence[str]) -> str:
    """``["4S", "5S"]`` -> ``"4S or 5S"``; three or more with commas."""
    return levels[0] if len(levels) == 1 else f"{', '.join(levels[:-1])} or {levels[-1]}"


@dataclass(frozen=True)
class DealerPar:
    """``DealerPar()``'s answer: score from NS's view, contracts as DDS writes them.

    ``details`` holds the same contracts as :class:`ParContract` (what each
    scores and, for a sacrifice, what it saves against); empty when built
    from DDS's text alone.
    """

    score: int
    contracts: tuple[str, ...]
    details: tuple[ParContract, ...] = field(default=(), compare=False, repr=False)

    def words(self) -> str:
        """The par contracts and score as a person reads them.

        DDS's ``"4S*-EW-1"`` (a sacrifice in 4 spades by East or West, one
        down) reads ``"4\u2660 doubled by East or West (either partner), 1 down"``;
        ``"3N-N+1"`` reads ``"3NT by North, 1 overtrick"``; several contracts
        are joined by ``"; or "``, then the score from the gaining side.

        Examples
        --------
        >>> DealerPar(-110, ("2S-EW",)).words()
        '2\u2660 by East or West (either partner): EW +110'
        """
        parts = []
        for item in self.contracts:
            if not item.strip() or item == "pass":
                continue  # an unused slot of DDS's answer; "pass" is said below
            p = DealerParContract.parse(item)
            c = p.contract
            text = f"{c.level}{_STRAIN_SYMBOLS[c.strain]}" + (" doubled" if c.doubled else "")
            text += f" by {_declarer_words(p.seats)}"
            if p.result:
                n = abs(p.result)
                text += f", {n} down" if p.result < 0 else f", {n} overtrick{'s' if n > 1 else ''}"
            parts.append(text)
        if not parts:
            return f"passed out: {_score_words(self.score)}"
        return f"{'; or '.join(parts)}: {_score_words(self.score)}"

    def explain(self) -> str:
        """Each contract in players' words (:meth:`ParContract.explain`), ``"; or "`` between; ``"passed out"``."""
        if not self.details:
            return "passed out" if self.score == 0 else self.words()
        return "; or ".join(c.explain() for c in self.details)

    def to_dict(self) -> dict[str, Any]:
        """For JSON: NS's score, DDS's contracts, each contract explained, and the words."""
        return {
            "score": self.score,
            "contracts": list(self.contracts),
            "details": [c.to_dict() for c in self.details],
            "words": self.words(),
            "explained": self.explain(),
        }

    def _repr_html_(self) -> str:
        """Dealer par in notebooks: the score, DDS's contracts and the words."""
        from html import escape

        from ddsbind import _html

        row = [f"{self.score:+d}", escape(" ".join(self.contracts)), escape(self.words())]
        return _html.grid("dealerpar", ["", "NS score", "contracts", "in words"], [("par", row)])


def _dealer_text(row: list[int]) -> str:
    """A kernel row as DDS's ``DealerPar`` writes it: ``"4S*-EW-1"``, ``"3N-N+1"``, ``"5D-E-2"``."""
    level, strain, seats, result, starred = row[:5]
    tail = f"+{result}" if result > 0 else (str(result) if result < 0 else "")
    return f"{level}{_DDS_LETTER[strain]}{'*' if starred else ''}-{_SEATS_TEXT[seats]}{tail}"


def dealer_pars(
    tables: ArrayLike | Sequence[DDTable],
    dealer: Seat | int | str | ArrayLike,
    vulnerable: Vulnerability | int | str | ArrayLike,
    *,
    explain: bool = True,
) -> list[DealerPar]:
    """DDS's ``DealerPar`` of each table, contracts and explanations included.

    Arguments as :func:`dealer_par_scores`'s (which is faster when only
    the scores are wanted).  A passed-out table's contracts are
    ``("pass",)``, as DDS writes them.  ``explain`` False leaves
    :attr:`DealerPar.details` empty (DDS's score and text only: faster).

    Examples
    --------
    >>> t = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [9, 4, 9, 4]]
    >>> p = dealer_pars(t, "N", "none")[0]
    >>> p.score, p.contracts, p.explain()
    (400, ('3N-NS',), '3NT by N or S: NS +400')
    """
    t, v, scores, number, out, _ = _run(tables, dealer, vulnerable, contracts=True)
    assert out is not None
    details = _explained(out, number, t, v) if explain else [()] * t.shape[0]
    result = []
    for i in range(t.shape[0]):
        k = int(number[i])
        if k == 0 and scores[i] == 0:
            result.append(DealerPar(0, ("pass",)))
            continue
        texts = tuple(_dealer_text(r) for r in out[i, :k].tolist())
        result.append(DealerPar(int(scores[i]), texts, details[i]))
    return result


# -- Par ------------------------------------------------------------------------------------------


def _par_contract_words(item: str) -> str:
    """One of ``Par()``'s contracts (``"EW 45S"``, ``"NS 5Hx"``) in words."""
    seats, _, contract = item.strip().partition(" ")
    doubled = contract.endswith("x")
    body = contract[:-1] if doubled else contract
    levels, strain = body[:-1], body[-1]
    named = [f"{lvl}{_STRAIN_SYMBOLS[Strain.parse(strain)]}" + (" doubled" if doubled else "") for lvl in levels]
    return f"{_either(named)} by {_declarer_words(seats)}"


@dataclass(frozen=True)
class Par:
    """``Par()``'s answer, from each side's view (which side bids first).

    ``details`` holds each view's contracts as :class:`ParContract` (NS
    bidding first, then EW); empty when built from DDS's text alone.
    """

    #: Par score as DDS writes it, e.g. ``"NS -110"`` / ``"EW 110"``.
    score_text: tuple[str, str]
    #: Par contracts as DDS writes them, e.g. ``"NS:EW 2S"``.
    contracts: tuple[str, str]
    details: tuple[tuple[ParContract, ...], tuple[ParContract, ...]] = field(
        default=((), ()), compare=False, repr=False
    )

    @property
    def score(self) -> int:
        """North-South's par score when NS bid first (negative: EW gain)."""
        return int(self.score_text[0].split()[-1])

    def words(self, side: Side | str = Side.NS) -> str:
        """The par contracts and score as a person reads them, when ``side`` bids first.

        ``side`` is a :class:`~ddsbind.Side` or its spelling (``"NS"``, ``"e-w"``).

        DDS's ``"NS:EW 45S"`` (4 or 5 spades by East or West, NS -450) reads
        ``"4\u2660 or 5\u2660 by East or West (either partner): EW +450"``; a
        sacrifice is ``doubled``; several contracts are joined by ``"; or "``;
        when nobody can make anything, ``"passed out: 0"``.

        Raises
        ------
        InvalidArgumentError
            ``side`` is no side (:meth:`ddsbind.Side.parse`).

        Examples
        --------
        >>> Par(("NS -110", "EW 110"), ("NS:EW 2S", "EW:EW 2S")).words()
        '2\u2660 by East or West (either partner): EW +110'
        """
        k = Side.parse(side, "side bidding first")
        score = int(self.score_text[k].split()[-1]) * (1 if k is Side.NS else -1)
        items = [i for i in self.contracts[k].partition(":")[2].split(",") if i.strip()]
        if not items:
            return f"passed out: {_score_words(score)}"
        return f"{'; or '.join(_par_contract_words(i) for i in items)}: {_score_words(score)}"

    def explain(self, side: Side | str = Side.NS) -> str:
        """The contracts when ``side`` bids first, each in players' words (:meth:`ParContract.explain`)."""
        k = Side.parse(side, "side bidding first")
        if not self.details[k]:
            return "passed out" if self.score == 0 else self.words(k)
        return "; or ".join(c.explain() for c in self.details[k])

    def to_dict(self) -> dict[str, Any]:
        """For JSON: each side's view (NS first, then EW): DDS's score (that side's view), contracts, each explained."""
        return {
            str(side): {
                "score": int(self.score_text[side].split()[-1]),
                "contracts": self.contracts[side],
                "details": [c.to_dict() for c in self.details[side]],
                "words": self.words(side),
                "explained": self.explain(side),
            }
            for side in Side
        }

    def _repr_html_(self) -> str:
        """Par in notebooks: a row for each side bidding first, DDS's text and the words."""
        from html import escape

        from ddsbind import _html

        rows = [
            (
                f"{side} bid first",
                [escape(self.score_text[side]), escape(self.contracts[side]), escape(self.words(side))],
            )
            for side in Side
        ]
        return _html.grid("par", ["", "score", "contracts", "in words"], rows)


def _sides_text(rows: list[list[int]]) -> str:
    """One side's contracts as DDS's ``Par`` writes them: ``"EW 45S,EW 5D"``; ``"NS 4Hx"`` for a sacrifice."""
    items = []
    for row in rows:
        level, strain, seats, result, starred = row[:5]
        levels = f"{level}x" if starred else "".join(str(lvl) for lvl in range(level, level + result + 1))
        body = f"{level}{_DDS_LETTER[strain]}x" if starred else f"{levels}{_DDS_LETTER[strain]}"
        items.append(f"{_SEATS_TEXT[seats]} {body}")
    return ",".join(items)


def pars(
    tables: ArrayLike | Sequence[DDTable], vulnerable: Vulnerability | int | str | ArrayLike, *, explain: bool = True
) -> list[Par]:
    """DDS's ``Par`` of each table: both sides' views, DDS's text and the contracts explained.

    Arguments as :func:`par_scores`'s; ``explain`` False leaves
    :attr:`Par.details` empty (DDS's scores and text only: faster).

    Examples
    --------
    >>> t = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [9, 4, 9, 4]]
    >>> p = pars(t, "none")[0]
    >>> p.score_text, p.contracts
    (('NS 400', 'EW -400'), ('NS:NS 3N', 'EW:NS 3N'))
    """
    t, v, scores, number, out, _ = _run(tables, None, vulnerable, contracts=True, sides=True)
    assert out is not None
    n = t.shape[0]
    flat = (out.reshape(2 * n, PAR_SLOTS, _FIELDS), number.reshape(-1), t.repeat(2, 0), v.repeat(2))
    details = _explained(*flat) if explain else [()] * (2 * n)
    result = []
    for i in range(n):
        views = [out[i, s, : int(number[i, s])].tolist() for s in range(2)]
        texts = (f"NS:{_sides_text(views[0])}", f"EW:{_sides_text(views[1])}")
        result.append(
            Par((f"NS {int(scores[i, 0])}", f"EW {int(scores[i, 1])}"), texts, (details[2 * i], details[2 * i + 1]))
        )
    return result
