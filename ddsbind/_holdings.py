"""The one check of a deal's holdings: stray bits, cards held twice, hand lengths.

Shared by :class:`ddsbind.deal.Deal`, :func:`ddsbind.deal.masks_to_owners`
and the DLL layer's checks (``_validate``), so every entry point words the
same fault the same way.  Plain Python ints (one deal is sixteen masks, and
the per-call path of the DLL layer cannot afford numpy's per-call cost);
bulk callers locate the first bad record with numpy and ask here for the
error.  No DDS import: the errors' codes load lazily.

``masks[hand][suit]`` is DDS's ``remainCards``: hands N E S W, suits S H D C,
bit ``r`` for rank ``r`` (2..14).
"""

from __future__ import annotations

from collections.abc import Sequence

from ddsbind.errors import DuplicateCardsError, SuitOrRankError

#: The one spelling of seats, suits and ranks (re-exported by :mod:`ddsbind.deal`):
#: seats in DDS's order N E S W, suits S H D C, ranks two to ace.
SEAT_LETTERS = "NESW"
SUITS = "SHDC"
#: The suits' symbols in the same order: ``SUIT_SYMBOLS[0] == "\u2660"``.
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"
RANKS = "23456789TJQKA"
#: The ranks ace down to two: the order of a suit's cards in a card index
#: (``Card.index % 13``), an owners row and a hand written as text.
RANKS_HIGH_FIRST = RANKS[::-1]
#: Bits 2..14: the ranks two to ace.
FULL_SUIT = 0x7FFC

Masks = Sequence[Sequence[int]]


def card_name(suit: int, rank: int) -> str:
    """``"SA"``-style name of a (suit 0..3, rank 2..14) card."""
    return SUITS[suit] + RANKS[rank - 2]


def stray_bits(masks: Masks) -> SuitOrRankError | None:
    """The error for the first mask with a bit outside ranks 2..14 (or negative), else None."""
    for h, row in enumerate(masks):
        # A negative int has every high bit set, so one test covers both faults.
        if (row[0] | row[1] | row[2] | row[3]) & ~FULL_SUIT:
            for s, c in enumerate(row):
                if c & ~FULL_SUIT:
                    field = f"remainCards[{h}][{s}]"
                    return SuitOrRankError(
                        f"{field} = {c:#x} (hand {SEAT_LETTERS[h]}, suit {SUITS[s]}) has bits outside ranks 2..14",
                        field=field,
                    )
    return None


def duplicate(masks: Masks) -> DuplicateCardsError | None:
    """The error for the highest card of the first suit that two hands hold, else None."""
    n, e, s_, w = masks
    for s in range(4):
        a, b, c, d = n[s], e[s], s_[s], w[s]
        if (a & b) | ((a | b) & c) | ((a | b | c) & d):
            for h in range(1, 4):
                for other in range(h):
                    both = masks[h][s] & masks[other][s]
                    if both:
                        card = card_name(s, both.bit_length() - 1)
                        return DuplicateCardsError(
                            f"{card} is held by both {SEAT_LETTERS[other]} and {SEAT_LETTERS[h]}", card=card
                        )
    return None


def hand_lengths(masks: Masks) -> list[int]:
    """Number of cards in each hand, N E S W (the masks must be free of stray bits)."""
    return [sum(map(int.bit_count, row)) for row in masks]
