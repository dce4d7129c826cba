"""One hand on its own: a thin typed view of ``ddsbind.hands``' batch evaluation.

A :class:`Hand` is four ``remainCards`` masks (spades first) read by
:func:`ddsbind.deal.hand_to_masks`, the one reader of a hand's text; its
counts are :class:`ddsbind.hands.Hands`' over one owner row (the hand as
North, every other card absent), so a hand and a batch cannot disagree.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from ddsbind import _html
from ddsbind._holdings import SUITS
from ddsbind.deal import Card, Deal, Seat, hand_masks_text, hand_to_masks, masks_to_owners
from ddsbind.errors import ArgumentError
from ddsbind.hands import Hands

__all__ = ["Hand"]


class Hand:
    """One hand of up to 13 cards, and its evaluation (the dealer language's definitions).

    Parameters
    ----------
    text : str
        The hand as PBN writes one, ``S.H.D.C``, ranks ``AKQJT98765432``
        (``10`` for the ten accepted), a void empty or ``-``.

    Raises
    ------
    PBNError, DuplicateCardsError, CardCountError
        (all :class:`ddsbind.Error`) naming the hand: not four suits, a
        character that is no rank, a card twice, more than 13 cards.

    Examples
    --------
    >>> h = Hand("AK32.KJ4.Q98.A32")
    >>> h.hcp, h.controls, h.losers, h.ltc, h.lengths, h.shape, h.pattern
    (17, 6, 7, 7.5, (4, 3, 3, 3), '4-3-3-3', '4-3-3-3')
    """

    __slots__ = ("__dict__", "_masks")

    def __init__(self, text: str) -> None:
        self._masks = tuple(hand_to_masks(text))

    @classmethod
    def from_deal(cls, deal: Deal, seat: Seat | str | int) -> Hand:
        """The hand ``seat`` holds in ``deal`` (N, E, S, W: any spelling :meth:`Seat.parse` reads)."""
        if not isinstance(deal, Deal):
            raise ArgumentError(f"Hand.from_deal takes a Deal, got {type(deal).__name__}")
        return cls(deal.hand_text(seat))

    @property
    def masks(self) -> tuple[int, int, int, int]:
        """The hand's ``remainCards`` masks, spades, hearts, diamonds, clubs (bit ``r`` for rank ``r``)."""
        s, h, d, c = self._masks
        return s, h, d, c

    def owners(self) -> NDArray[np.int8]:
        """The 52-entry owner row (card order SA..C2): 0 (North) for the hand's cards, -1 for the others."""
        return masks_to_owners([list(self._masks), [0] * 4, [0] * 4, [0] * 4])

    @functools.cached_property
    def _batch(self) -> Hands:
        return Hands(self.owners()[np.newaxis])

    @property
    def cards(self) -> list[Card]:
        """The hand's cards, spades first, each suit from the ace down."""
        return [Card(s, r) for s, m in enumerate(self._masks) for r in range(14, 1, -1) if m >> r & 1]

    def __len__(self) -> int:
        return sum(m.bit_count() for m in self._masks)

    @property
    def hcp(self) -> int:
        """High-card points, A=4 K=3 Q=2 J=1."""
        return int(self._batch.hcp[0, 0])

    @property
    def controls(self) -> int:
        """Controls, A=2 K=1."""
        return int(self._batch.controls[0, 0])

    @property
    def losers(self) -> int:
        """Losers by the dealer language's rule (:mod:`ddsbind.hands`), 0..12."""
        return int(self._batch.losers[0, 0])

    @property
    def ltc(self) -> float:
        """DealerV2's modern losing trick count, in losers (7.5; :func:`ddsbind.hands.ltc` keeps hundredths)."""
        return int(self._batch.ltc[0, 0]) / 100

    @property
    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths: spades, hearts, diamonds, clubs."""
        s, h, d, c = (int(x) for x in self._batch.lengths[0, 0])
        return s, h, d, c

    @property
    def shape(self) -> str:
        """The suit lengths in suit order, spades first: ``"5-4-3-1"`` for five spades and a singleton club."""
        return "-".join(map(str, self.lengths))

    @property
    def pattern(self) -> str:
        """The lengths longest first, whatever the suits: ``"5-4-3-1"`` for 1-3-5-4 too."""
        return "-".join(map(str, sorted(self.lengths, reverse=True)))

    def text(self, void: str = "") -> str:
        """The hand as PBN writes it, ``S.H.D.C``; ``void`` stands for an empty suit."""
        return hand_masks_text(self._masks, void)

    def diagram(self) -> str:
        """The hand as four lines, a suit letter then its ranks (``-`` for a void), as :meth:`Deal.diagram` draws one.

        Examples
        --------
        >>> print(Hand("AKQ2.KJ4..AT9832").diagram())
        S AKQ2
        H KJ4
        D -
        C AT9832
        """
        return "\n".join(f"{SUITS[s]} {h}" for s, h in enumerate(self.text("-").split(".")))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Hand({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._masks == other._masks

    def __hash__(self) -> int:
        return hash(self._masks)

    def _repr_html_(self) -> str:
        """The hand's four suits (suit symbols, red hearts and diamonds) under its points and shape, for notebooks."""
        return _html.hand(self.text().split("."), f"{self.hcp} HCP, {self.shape}, LTC {self.ltc:g}")
