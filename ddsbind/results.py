"""The results the solver returns, as public types: no DDS needed to hold, compare or print them.

:class:`DDTable` (a double-dummy table), :class:`Solutions` and
:class:`ScoredCard` (what ``SolveBoard`` returned for one position) and
:class:`Position` (a checked position: deal, strain, leader, current trick).
:mod:`ddsbind._marshal` fills them from DDS's structs; everything else
(the solver, the pool, play analysis, formats that store tables) uses them
from here.

Conventions (DDS's): seats N=0 E=1 S=2 W=3; strains S=0 H=1 D=2 C=3 NT=4;
ranks 2..14.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from ddsbind import _html
from ddsbind.deal import SEAT_LETTERS, Card, Deal, Seat, Strain
from ddsbind.errors import InvalidArgumentError

__all__ = ["DDTable", "Position", "ScoredCard", "Solutions"]


@dataclass(frozen=True)
class ScoredCard:
    """A card DDS returned, its score, and the lower cards equivalent to it."""

    card: Card
    #: Tricks the side to play takes from here on with this card (DDS ``score``:
    #: -1 target not reached, -2 only card and mode 0 did not search).
    score: int
    #: Lower cards of the same suit and hand that are equivalent (from ``equals``).
    equals: tuple[Card, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """This card and its equivalents, highest first."""
        return (self.card, *self.equals)


@dataclass(frozen=True)
class Solutions:
    """``futureTricks``, decoded: the cards to play and their scores."""

    cards: tuple[ScoredCard, ...]
    #: Search nodes DDS visited.
    nodes: int

    @property
    def best_score(self) -> int:
        """The highest score among the returned cards (the DD result with solutions=3).

        -1 when DDS returned no card: with a ``target``, that no card reaches
        it (DDS's own score for "target not reached").
        """
        return max((c.score for c in self.cards), default=-1)

    def score_of(self, card: Card | str) -> int:
        """The score of ``card`` or of the returned card it is equivalent to."""
        c = Card.parse(card)
        for sc in self.cards:
            if c in sc.cards:
                return sc.score
        raise InvalidArgumentError(f"{c} is not among the returned cards or their equivalents", card=str(c))

    def __iter__(self) -> Iterator[ScoredCard]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def _repr_html_(self) -> str:
        """The cards and their scores as an HTML table for notebooks (card, tricks, equivalent cards)."""
        rows = [
            (_html.card(str(sc.card)), [str(sc.score), " ".join(_html.card(str(e)) for e in sc.equals)])
            for sc in self.cards
        ]
        return _html.grid("solutions", ["card", "tricks", "equivalent cards"], rows, f"{self.nodes} nodes")


class DDTable:
    """A double-dummy table: tricks per strain and declarer.

    ``numpy.asarray(table)`` is the ``(5, 4)`` array in DDS order (strains S H
    D C NT, declarers N E S W), as ``ddTableResults.resTable``.  Index with
    DDS numbers or names: ``table["NT", "N"]``, ``table[Strain.S, Seat.E]``.
    """

    __slots__ = ("_t",)

    def __init__(self, tricks: ArrayLike) -> None:
        a = np.asarray(tricks)
        if a.shape != (5, 4):
            raise InvalidArgumentError(f"a DD table has shape (5 strains, 4 declarers), got {a.shape}")
        if a.dtype.kind not in "iu" or a.min() < 0 or a.max() > 13:
            raise InvalidArgumentError(f"a DD table holds trick counts 0..13, got {a.tolist()}")
        t = a.astype(np.int8)
        t.setflags(write=False)
        self._t = t

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> NDArray[np.int8]:
        return self._t.astype(dtype or np.int8, copy=True)

    @property
    def array(self) -> NDArray[np.int8]:
        """The read-only ``(5, 4)`` int8 array, DDS order."""
        return self._t

    def __getitem__(self, key: tuple[Strain | int | str, Seat | int | str]) -> int:
        strain, seat = key
        return int(self._t[Strain.parse(strain), Seat.parse(seat)])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DDTable):
            return bool(np.array_equal(self._t, other._t))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._t.tobytes())

    def __repr__(self) -> str:
        return f"DDTable({self._t.tolist()})"

    def _repr_html_(self) -> str:
        """The table as an HTML grid for notebooks: strains NT S H D C down, declarers N E S W across."""
        order = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
        rows = [(_html.strain_label(s), [str(int(v)) for v in self._t[s]]) for s in order]
        return _html.grid("ddtable", ["", *SEAT_LETTERS], rows)

    def __str__(self) -> str:
        lines = ["      N   E   S   W"]
        for s in (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C):
            lines.append(f"{s.symbol:>2}  " + "".join(f"{int(v):>4}" for v in self._t[s]))
        return "\n".join(lines)


class Position(NamedTuple):
    """A checked position: what DDS's ``struct deal`` holds."""

    #: The cards still held (not the current trick's).
    deal: Deal
    #: The trump suit, or NT (DDS's ``trump``).
    strain: Strain
    #: The hand that led the current trick (DDS's ``first``).
    leader: Seat
    #: The cards already on the current trick, in play order from ``leader`` (0..3).
    trick: tuple[Card, ...]
