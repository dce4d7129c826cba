"""Proof trees' data: nodes, leaves and moves, and the replay of a tree's play (no DDS, no file format).

:class:`Node`, :class:`Leaf` and :class:`Move` are the tree
(:class:`ddsbind.proof.ProofTree` holds its root).  The rest is what every
reader of a tree shares: :class:`Pos` (a position met in the tree),
:func:`next_pos` (the position after a card), :func:`rank_classes` (Hirschberg's
rank-equivalence classes of a hand's legal cards), :func:`class_order`
(a class as the tree holds it) and :func:`cells` (the tree cut into tricks,
as the tree file and the text write it).  :mod:`ddsbind.proof` builds and
checks trees with them, :mod:`ddsbind.formats.prooftree` reads and writes
the binary file.

Conventions (DDS's): seats N=0 E=1 S=2 W=3, strains S=0 H=1 D=2 C=3 NT=4;
the good guys are a side, 0 NS or 1 EW.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from dataclasses import dataclass, field

from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import ProofError, StateError
from ddsbind.game import Play

__all__ = ["Cell", "Leaf", "Move", "Node", "Pos", "cells", "class_order", "letters", "next_pos", "rank_classes"]


@dataclass(eq=False)
class Leaf:
    """The end of play: ``tricks`` the good guys took in the whole ending."""

    id: int
    tricks: int


@dataclass(eq=False)
class Move:
    """A class of cards: ``cards[0]`` is the card played, the rest are equivalent to it."""

    cards: tuple[Card, ...]
    next: Node | Leaf


@dataclass(eq=False)
class Node:
    """A turn to play: ``seat`` plays one of ``moves`` (good guys: exactly one)."""

    id: int
    seat: Seat
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True)
class Pos:
    """A position: the hands at the start of the trick, its leader, the cards on it, good guys' tricks so far."""

    #: None once every card has been played (a Deal holds at least one card).
    start: Deal | None
    leader: Seat
    trick: tuple[Card, ...]
    taken: int

    def play(self, trump: Strain) -> Play:
        """The position as a :class:`~ddsbind.game.Play` (the trick's cards played); ``StateError`` at the end."""
        if self.start is None:
            raise StateError("no cards left to play")
        p = Play(self.start, trump, self.leader)
        p.play_all(self.trick)
        return p


def rank_classes(start: Deal, seat: Seat, legal: list[Card]) -> list[tuple[Card, ...]]:
    """The legal cards of ``seat`` split into Hirschberg's rank-equivalence classes at the trick's start.

    Each class highest card first; classes in ``legal``'s order (spades first, ace down).
    """
    masks = start.remain_cards
    out: list[list[Card]] = []
    prev: Card | None = None
    for c in legal:
        if prev is not None and prev.suit == c.suit:
            between = sum(int(masks[h, c.suit]) for h in range(4) if h != seat) >> (c.rank + 1)
            if not between & ((1 << (prev.rank - c.rank - 1)) - 1):
                out[-1].append(c)
                prev = c
                continue
        out.append([c])
        prev = c
    return [tuple(k) for k in out]


def class_order(played: Card, cls: tuple[Card, ...]) -> tuple[Card, ...]:
    """The class ``cls`` as the tree holds it: the played card, then the rest highest first."""
    return (played, *sorted((c for c in cls if c != played), reverse=True))


def next_pos(pos: Pos, card: Card, trump: Strain, side: int) -> Pos:
    """The position after ``card`` is played from ``pos``; a trick's fourth card counts it for ``side`` (0 NS, 1 EW)."""
    trick = (*pos.trick, card)
    if len(trick) < 4:
        return Pos(pos.start, pos.leader, trick, pos.taken)
    p = pos.play(trump)
    done = p.play(card)
    assert done is not None and done.winner is not None
    return Pos(None if p.finished else p.deal(), p.leader, (), pos.taken + (done.winner.side == side))


@dataclass
class Cell:
    """One trick from one position: its round (1..13), leader, seats in play order, the four moves and the winner.

    ``duplicate``: the position after it was met before (written as a
    reference); ``depth`` and ``label`` place it in the text (``12b.13``).
    """

    round: int
    leader: Seat
    seats: tuple[Seat, ...]
    moves: tuple[Move, ...]
    winner: Seat
    #: The trick-start node after the trick (None after the last trick).
    after: Node | None
    duplicate: bool
    depth: int
    label: str


def cells(root: Node | Leaf, deal: Deal, trump: Strain, leader: Seat, side: int) -> Iterator[Cell]:
    """Every trick path of the tree from ``root`` (the play of ``deal``), depth-first, as the tree file writes them.

    ``side`` is the good guys (0 NS, 1 EW).  Raises :class:`~ddsbind.errors.ProofError` for a tree that
    cannot be cut into tricks (a leaf or a reference inside a trick).
    """
    written: set[int] = set()
    inside: set[int] = set()

    def paths(n: Node | Leaf, pos: Pos, prefix: tuple[Move, ...]) -> Iterator[tuple[tuple[Move, ...], Pos]]:
        if len(prefix) == 4:
            yield prefix, pos
            return
        if not isinstance(n, Node):
            raise ProofError(n.id, "a leaf inside a trick")
        if id(n) in inside and prefix:
            raise ProofError(n.id, "a reference inside a trick cannot be written as tricks")
        inside.add(id(n))
        for m in n.moves:
            yield from paths(m.next, next_pos(pos, m.cards[0], trump, side), (*prefix, m))

    def trick(n: Node, pos: Pos, depth: int, label: str) -> Iterator[Cell]:
        written.add(id(n))
        assert pos.start is not None
        rnd = 14 - max(pos.start.hand_lengths)
        all_paths = list(paths(n, pos, ()))
        for k, (moves, nxt) in enumerate(all_paths):
            here = f"{label}{rnd}" + (letters(k) if len(all_paths) > 1 else "")
            after = moves[-1].next
            seats = tuple(pos.leader.next(j) for j in range(4))
            node_after = after if isinstance(after, Node) else None
            dup = node_after is not None and id(node_after) in written
            yield Cell(
                rnd,
                pos.leader,
                seats,
                moves,
                nxt.leader,
                node_after,
                dup,
                depth,
                here,
            )
            if node_after is not None and not dup:
                yield from trick(node_after, nxt, depth + 1, here + ".")

    if isinstance(root, Node):
        yield from trick(root, Pos(deal, leader, (), 0), 0, "")


def letters(k: int) -> str:
    """Branch labels a, b, ..., z, aa, bb, ..."""
    return string.ascii_lowercase[k % 26] * (1 + k // 26)
