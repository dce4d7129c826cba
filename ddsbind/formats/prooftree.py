"""Proof trees' binary file (``.tree``): Hirschberg's tree files, as we read them.

A proof tree (:class:`ddsbind.proof.ProofTree`, built by
:func:`ddsbind.proof.prove`) is kept per card, as its JSON has it; the binary
file groups the cards into tricks, one cell a trick, as Hirschberg's tree
files do.  :func:`encode_tree` and :func:`decode_tree` read and write it
(``ProofTree.to_bytes`` and ``ProofTree.from_bytes`` call them); nothing here
solves: the tree's nodes and the replay of its play are
:mod:`ddsbind.prooftypes`'s.

Binary tree file (``.tree``), version 1
---------------------------------------
Our reading of Hirschberg's layout (versions 3-4: card equivalents and a
duplicate flag, no winner).  Every field is a 32-bit word, unsigned,
little-endian (``'<u4'``); offsets below count words.

Primary header, 3 words:

* word 0: magic, the bytes ``b"DDPT"``.
* word 1: version, 1.
* word 2: bits 0-3 cards per player (1..13); bits 4-6 trump (0..4, S H D C
  NT); bits 8-9 the leader of the first trick (0..3, N E S W); bit 12 the
  good guys (0 NS, 1 EW); bits 16-19 the target (0..cards per player);
  every other bit 0.

Secondary header, 8 words: the four hands in seat order N, E, S, W, two
words a hand: ``spades | hearts << 16`` then ``diamonds | clubs << 16``,
each suit a 16-bit DDS holding (bit ``r`` set for rank ``r``, 2..14; bits
0, 1 and 15 are 0).  Every hand holds *cards per player* cards, no card
twice.

Body: one word ``n``, the number of words after it, then ``n`` words of
cells, and nothing after them.  A cell is one trick from one position:

* bits 0-5, 6-11, 12-17, 18-23: the four cards in play order from the
  leader, each a card index ``13 * suit + 14 - rank`` (SA = 0 .. C2 = 51).
  The card is the one played; its class (the *equivalent*) is every card of
  the player's hand rank-equivalent to it at the start of the trick.
* bits 24-27: the round, the trick's number as in a full deal (an ending of
  ``k`` cards a hand starts at round ``14 - k``).
* bits 28-29: the trick's leader (N E S W).
* bit 30: duplicate flag.  When set, the next word is a pointer: the
  0-based word index, among the cell words (0 = the word after ``n``), of
  an earlier cell without the flag after whose trick the same position was
  reached; the play from here is the play after that cell, not written
  again.
* bit 31: 0.

Cells are in depth-first order: the cells of one position (one per path of
the four cards through the defence's classes, in the tree's move order),
each followed at once by the cells of the position after its trick (round
one higher), unless it is a duplicate or the last trick.  The tree is read
back exactly (for a tree :func:`~ddsbind.proof.check_tree` accepts): the node numbering
is depth-first, first occurrence, every turn a node and every end of play
a leaf; a move's cards are the card played, then the rest of its class
from the highest down; the leaf's tricks are counted on replay.  A
reference inside a trick (not at a trick's start) cannot be written and is
refused.

Example: ``ddsbind.proof.prove("N:A... K... Q... J...", "NT", "W", goodguys="NS")`` is 13 words (shown
as little-endian word values): ``54504444`` (``DDPT``), ``00000001``,
``00010341`` (1 card, NT, W leads, NS, target 1), the hands ``00004000``
``00000000`` (N: SA), ``00002000 00000000``, ``00001000 00000000``,
``00000800 00000000``, the body's ``00000001``, and one cell ``3d081003``:
SJ (3), SA (0), SK (1), SQ (2), round 13, W leads.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import NamedTuple

from ddsbind.deal import SUITS, Card, Deal, Seat, Strain
from ddsbind.errors import FormatError, ProofError
from ddsbind.prooftypes import Leaf, Move, Node, Pos, cells, class_order, next_pos, rank_classes

__all__ = ["MAGIC", "VERSION", "TreeFile", "decode_tree", "encode_tree"]

#: The first four bytes of a tree file.
MAGIC = b"DDPT"
#: The version this module reads and writes.
VERSION = 1


class TreeFile(NamedTuple):
    """What a tree file holds: the ending, its strain and leader, the good guys, the target and the tree."""

    #: The ending, every hand the same length, before the first card.
    deal: Deal
    #: The trump suit, or NT.
    strain: Strain
    #: The hand on lead to the first trick.
    leader: Seat
    #: The good guys: 0 NS, 1 EW.
    side: int
    #: Tricks the good guys take in the ending, whatever the defence.
    target: int
    #: The first turn; nodes reached by several paths are one object.
    root: Node | Leaf


def encode_tree(tree: TreeFile) -> bytes:
    """The tree file of ``tree`` (the spec in the module docstring); :func:`decode_tree` reads it back equal.

    Raises :class:`~ddsbind.errors.ProofError` for a tree the format cannot
    hold: a reference inside a trick, or a class whose cards are not in the
    format's order.
    """
    n = max(tree.deal.hand_lengths)
    hdr = n | tree.strain << 4 | tree.leader << 8 | tree.side << 12 | tree.target << 16
    if not 0 <= tree.target <= n:
        raise ProofError(None, f"target {tree.target} is not 0..{n}")
    words = [int.from_bytes(MAGIC, "little"), VERSION, hdr]
    masks = tree.deal.remain_cards
    for s in Seat:
        words += [int(masks[s, 0]) | int(masks[s, 1]) << 16, int(masks[s, 2]) | int(masks[s, 3]) << 16]
    body: list[int] = []
    start_of: dict[int, int] = {}
    for cell in cells(tree.root, tree.deal, tree.strain, tree.leader, tree.side):
        for m in cell.moves:
            if m.cards != class_order(m.cards[0], m.cards):
                raise ProofError(None, f"class {[str(c) for c in m.cards]} is not in the tree file's order")
        w = sum(m.cards[0].index << 6 * k for k, m in enumerate(cell.moves))
        w |= cell.round << 24 | cell.leader << 28
        after = cell.after
        if after is not None and cell.duplicate:
            body += [w | 1 << 30, start_of[id(after)]]
        else:
            if after is not None:
                start_of[id(after)] = len(body)
            body.append(w)
    words.append(len(body))
    words += body
    return struct.pack(f"<{len(words)}I", *words)


def decode_tree(data: bytes) -> TreeFile:
    """Read a tree file; ``FormatError`` gives the byte offset of the first bad word.

    The tree is read, not checked: use :func:`ddsbind.proof.check_tree`.
    """
    return _Reader(bytes(data)).tree()


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        if len(data) % 4:
            raise FormatError(
                f"{len(data)} bytes is not a whole number of 4-byte words", offset=len(data) - len(data) % 4
            )
        self.words = struct.unpack(f"<{len(data) // 4}I", data)
        self.next_id = 0
        self.by_cell: dict[int, Node] = {}

    def word(self, i: int, what: str) -> int:
        if i >= len(self.words):
            raise FormatError(f"the file ends before {what}", offset=4 * i)
        return self.words[i]

    def tree(self) -> TreeFile:
        if self.data[:4] != MAGIC:
            raise FormatError(f"not a proof tree file (magic {self.data[:4]!r}, expected {MAGIC!r})", offset=0)
        version = self.word(1, "the version")
        if version != VERSION:
            raise FormatError(f"version {version} is not {VERSION}", offset=4)
        h = self.word(2, "the primary header")
        n, strain, leader, side, target = h & 15, h >> 4 & 15, h >> 8 & 15, h >> 12 & 15, h >> 16 & 0xFFFF
        if h & ~(15 | 7 << 4 | 3 << 8 | 1 << 12 | 15 << 16) or not 1 <= n <= 13 or strain > 4 or target > n:
            raise FormatError(f"primary header {h:#010x}: bad or reserved bits set, or values out of range", offset=8)
        masks = []
        for s in range(4):
            row = []
            for j in range(2):
                w = self.word(3 + 2 * s + j, "the hands")
                for half in (w & 0xFFFF, w >> 16):
                    if half & ~0x7FFC:
                        raise FormatError(f"hand {Seat(s).name}: bits outside ranks 2..14", offset=4 * (3 + 2 * s + j))
                    row.append(half)
            if sum(m.bit_count() for m in row) != n:
                raise FormatError(f"hand {Seat(s).name} does not hold {n} cards", offset=4 * (3 + 2 * s))
            masks.append(row)
        for suit in range(4):
            if sum(masks[h][suit] for h in range(4)) != _or(masks[h][suit] for h in range(4)):
                raise FormatError(f"a {SUITS[suit]} card is in two hands", offset=12)
        deal = Deal(masks)
        self.strain = Strain(strain)
        self.side = side
        count = self.word(11, "the body's word count")
        if 12 + count != len(self.words):
            raise FormatError(f"the body says {count} words follow, the file holds {len(self.words) - 12}", offset=44)
        self.base = 12
        self.at = 12
        self.cell_start: set[int] = set()
        root = self.position(Pos(deal, Seat(leader), (), 0))
        if self.at != len(self.words):
            raise FormatError("a cell that belongs to no position", offset=4 * self.at)
        return TreeFile(deal, self.strain, Seat(leader), side, target, root)

    def fresh_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def position(self, pos: Pos) -> Node:
        """Read the cells of the trick starting at ``pos`` (and, recursively, their subtrees)."""
        assert pos.start is not None
        rnd = 14 - max(pos.start.hand_lengths)
        top = Node(self.fresh_id(), pos.leader)
        first = True
        while self.at < len(self.words) and (self.words[self.at] >> 24 & 15) == rnd:
            off = 4 * self.at
            w = self.words[self.at]
            if w >> 31 or (w >> 28 & 3) != pos.leader:
                raise FormatError(f"cell {w:#010x}: reserved bit set or leader is not {pos.leader.name}", offset=off)
            first = False
            self.cell_start.add(self.at - self.base)
            cell_index = self.at - self.base
            self.at += 1
            node: Node = top
            cur = pos
            for k in range(4):
                idx = w >> 6 * k & 63
                if idx > 51:
                    raise FormatError(f"card {k + 1} of the cell: {idx} is not a card index 0..51", offset=off)
                card = Card.from_index(idx)
                play = cur.play(self.strain)
                legal = play.legal_cards()
                if card not in legal:
                    raise FormatError(f"{card} is not a legal card at {play.where()}", offset=off)
                seat = play.to_play
                klass = next(c for c in rank_classes(pos.start, seat, legal) if card in c)
                cur = next_pos(cur, card, self.strain, self.side)
                move = next((m for m in node.moves if m.cards[0] == card), None)
                if move is not None and move is not node.moves[-1]:
                    raise FormatError(f"cells out of depth-first order at {card}", offset=off)
                if k < 3:
                    if move is None:
                        move = Move(class_order(card, klass), Node(self.fresh_id(), seat.next()))
                        node.moves.append(move)
                    assert isinstance(move.next, Node)
                    node = move.next
                    continue
                if move is not None:
                    raise FormatError(f"the same trick twice from one position ({card})", offset=off)
                cards = class_order(card, klass)
                if w >> 30 & 1:
                    ptr = self.word(self.at, "a duplicate's pointer")
                    self.at += 1
                    target = self.by_cell.get(ptr)
                    if target is None or ptr >= cell_index:
                        raise FormatError(
                            f"pointer {ptr} is not an earlier cell followed by a position", offset=off + 4
                        )
                    node.moves.append(Move(cards, target))
                elif cur.start is None:
                    node.moves.append(Move(cards, Leaf(self.fresh_id(), cur.taken)))
                else:
                    holder = Move(cards, Leaf(-1, 0))
                    node.moves.append(holder)
                    sub = self.position(cur)
                    holder.next = sub
                    self.by_cell[cell_index] = sub
        if first:
            raise FormatError(f"no cell for the trick at round {rnd}, {pos.leader.name} to lead", offset=4 * self.at)
        return top


def _or(values: Iterator[int]) -> int:
    out = 0
    for v in values:
        out |= v
    return out
