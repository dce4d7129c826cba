"""A brute-force double-dummy solver for small endings, written from the rules of play alone.

The oracle for endings that DDS's reference lists do not cover: it shares
no line with ddsbind or DDS.  Every legal card is tried at every turn
(follow suit when able; the highest trump wins a trick, else the highest
card of the suit led), so it is only for endings of a few cards a hand.

Cards are ``(suit, rank)`` pairs: suits 0=S 1=H 2=D 3=C, ranks 2..14 (A=14);
seats 0=N 1=E 2=S 3=W; ``trump`` 0..3, or 4 for notrump.
"""

from __future__ import annotations

import functools

Card = tuple[int, int]
Hands = tuple[frozenset[Card], ...]

RANKS = "23456789TJQKA"


def parse_pbn(pbn: str) -> Hands:
    """The four hands of a PBN deal ``"N:S.H.D.C E... S... W..."`` (any first seat), in seat order N E S W."""
    first, body = pbn[0], pbn[2:]
    hands: list[frozenset[Card]] = [frozenset()] * 4
    for i, hand in enumerate(body.split()):
        seat = ("NESW".index(first) + i) % 4
        hands[seat] = frozenset(
            (suit, RANKS.index(r) + 2) for suit, ranks in enumerate(hand.split(".")) for r in ranks.upper()
        )
    return tuple(hands)


def card_text(card: Card) -> str:
    """``"SA"``, ``"H7"``, ``"CT"``."""
    return "SHDC"[card[0]] + RANKS[card[1] - 2]


def legal(hand: frozenset[Card], trick: tuple[Card, ...]) -> list[Card]:
    """The cards ``hand`` may play to ``trick``: the suit led when it holds one, else any."""
    if trick:
        same = [c for c in hand if c[0] == trick[0][0]]
        if same:
            return sorted(same)
    return sorted(hand)


def winner(trick: tuple[Card, ...], leader: int, trump: int) -> int:
    """The seat that wins a full trick led by ``leader``."""

    def strength(card: Card) -> tuple[int, int]:
        if card[0] == trump:
            return (2, card[1])
        return (1, card[1]) if card[0] == trick[0][0] else (0, 0)

    best = max(range(4), key=lambda i: strength(trick[i]))
    return (leader + best) % 4


@functools.cache
def ns_tricks(hands: Hands, trump: int, leader: int, trick: tuple[Card, ...] = ()) -> int:
    """Tricks North-South take from here with best play by both sides (double dummy).

    ``trick``: the cards already played to the current trick (up to 4), led by ``leader``.
    """
    if len(trick) == 4:
        win = winner(trick, leader, trump)
        return (win % 2 == 0) + ns_tricks(hands, trump, win)
    if not any(hands) and not trick:
        return 0
    seat = (leader + len(trick)) % 4
    results = []
    for card in legal(hands[seat], trick):
        rest = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
        played = (*trick, card)
        if len(played) == 4:
            win = winner(played, leader, trump)
            results.append((win % 2 == 0) + ns_tricks(rest, trump, win))
        else:
            results.append(ns_tricks(rest, trump, leader, played))
    return max(results) if seat % 2 == 0 else min(results)


def side_tricks(pbn: str, trump: int, leader: int, side: int) -> int:
    """Tricks ``side`` (0 = NS, 1 = EW) takes from the start of an ending with best play."""
    hands = parse_pbn(pbn)
    ns = ns_tricks(hands, trump, leader)
    return ns if side == 0 else len(hands[0]) - ns
