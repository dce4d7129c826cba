"""Proof trees of double-dummy problems: one good-guy card against every defence, to the end of play.

Conventions (DDS's): seats N=0 E=1 S=2 W=3, strains S=0 H=1 D=2 C=3 NT=4;
the *good guys* are a side, ``"NS"`` or ``"EW"``.

:func:`prove` builds the tree: at each turn of the good guys one card (the
lowest card of the best-scoring class, scored by DDS), at each turn of a
defender every legal class of rank-equivalent cards.  Rank equivalence is
Dan Hirschberg's: two cards of a suit in one hand are equivalent when no
other player holds a card of the suit between them, judged from the hands
at the *start* of the trick (a card on the table still separates).  A
position reached again (same cards held, same hand to play, same cards on
the trick, same tricks still needed) is one node, referenced again; the end
of play is a leaf of its own on every path (nothing is left to share).
:func:`check_tree` verifies a tree, wherever it came from.

The tree's nodes are :mod:`ddsbind.prooftypes`'s; its binary file (``.tree``,
Hirschberg's tree files as we read them) is :mod:`ddsbind.formats.prooftree`'s,
where its layout is specified.  :meth:`ProofTree.to_bytes` and
:meth:`ProofTree.from_bytes` read and write it; :meth:`ProofTree.to_json` its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ddsbind._typing import Progress
from ddsbind.deal import STRAIN_LETTERS, Card, Deal, Seat, Side, Strain
from ddsbind.errors import (
    DDSError,
    FormatError,
    InvalidArgumentError,
    ProofError,
    ProofTooLargeError,
    TargetTooHighError,
)
from ddsbind.formats import prooftree
from ddsbind.game import Play
from ddsbind.prooftypes import Leaf, Move, Node, Pos, cells, class_order, next_pos, rank_classes

__all__ = [
    "ESTIMATE_FACTOR",
    "Leaf",
    "Move",
    "Node",
    "ProofError",
    "ProofTooLargeError",
    "ProofTree",
    "check_tree",
    "estimate_size",
    "prove",
]

_LIST_STYLE = "margin:0;padding-left:1.2em;list-style:none;text-align:left"


# -- the tree ---------------------------------------------------------------


def _parse_side(goodguys: Side | str | None, leader: Seat) -> Side:
    if goodguys is None:
        return leader.side  # the side on lead, as composed problems are set ("South to play and make...")
    return Side.parse(goodguys, "goodguys")


@dataclass(eq=False)
class ProofTree:
    """A proof that the good guys take ``target`` tricks against any defence.

    Attributes
    ----------
    deal : Deal
        The ending, every hand the same length, before the first card.
    trump : Strain
    leader : Seat
        The hand on lead to the first trick.
    goodguys : str
        ``"NS"`` or ``"EW"``.
    target : int
        Tricks the good guys take in the ending, whatever the defence.
    root : Node or Leaf
        The first turn; nodes reached by several paths are the same object.
    dds_calls : int
        ``SolveBoard`` calls :func:`prove` made (0 for a tree read back).
    """

    deal: Deal
    trump: Strain
    leader: Seat
    goodguys: str
    target: int
    root: Node | Leaf
    dds_calls: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProofTree) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    @property
    def side(self) -> Side:
        """The good guys as a :class:`~ddsbind.Side`: NS (0) or EW (1)."""
        return Side.parse(self.goodguys, "goodguys")

    def nodes(self) -> Iterator[Node | Leaf]:
        """Every distinct node once, depth-first, first occurrence (ids ascending for a tree from :func:`prove`)."""
        seen: set[int] = set()
        stack: list[Node | Leaf] = [self.root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            yield n
            if isinstance(n, Node):
                stack.extend(m.next for m in reversed(n.moves))

    @property
    def size(self) -> int:
        """The number of distinct nodes, leaves included."""
        return sum(1 for _ in self.nodes())

    def check(self) -> None:
        """Raise :class:`ProofError` unless the tree proves its target (see :func:`check_tree`)."""
        check_tree(self)

    # -- JSON --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON document as Python objects (see :meth:`to_json`)."""
        written: set[int] = set()

        def node(n: Node | Leaf) -> dict[str, Any]:
            if id(n) in written:
                return {"ref": n.id}
            written.add(id(n))
            if isinstance(n, Leaf):
                return {"id": n.id, "tricks": n.tricks}
            moves = [{"cards": [str(c) for c in m.cards], "next": node(m.next)} for m in n.moves]
            return {"id": n.id, "seat": n.seat.name, "moves": moves}

        return {
            "deal": self.deal.to_pbn(),
            "trump": STRAIN_LETTERS[self.trump],
            "leader": self.leader.name,
            "goodguys": self.goodguys,
            "target": self.target,
            "root": node(self.root),
        }

    def to_json(self, indent: int | None = None) -> str:
        """``{"deal", "trump", "leader", "goodguys", "target", "root"}``; a node written once, then ``{"ref": id}``.

        A node is ``{"id", "seat", "moves": [{"cards": [...], "next": ...}]}``
        or a leaf ``{"id", "tricks"}`` (the good guys' tricks in the ending).
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, doc: Any) -> ProofTree:
        """Read :meth:`to_dict`'s shape; ``FormatError`` names what is wrong.  Not checked: use :func:`check_tree`."""
        if not isinstance(doc, dict):
            raise FormatError("a proof tree is a JSON object")
        missing = {"deal", "trump", "leader", "goodguys", "target", "root"} - doc.keys()
        if missing:
            raise FormatError(f"missing key(s): {', '.join(sorted(missing))}")
        try:
            deal = Deal.from_pbn(_typed(doc["deal"], str, "deal"))
            trump = Strain.parse(_typed(doc["trump"], str, "trump"))
            leader = Seat.parse(_typed(doc["leader"], str, "leader"))
            side = _parse_side(_typed(doc["goodguys"], str, "goodguys"), leader)
        except DDSError as exc:
            raise FormatError(str(exc)) from None
        target = _typed(doc["target"], int, "target")
        by_id: dict[int, Node | Leaf] = {}

        def node(d: Any, where: str) -> Node | Leaf:
            if not isinstance(d, dict):
                raise FormatError(f"{where}: a node is an object")
            if "ref" in d:
                ref = _typed(d["ref"], int, f"{where}.ref")
                if ref not in by_id:
                    raise FormatError(f"{where}: ref {ref} is not an id written before it")
                return by_id[ref]
            nid = _typed(d.get("id"), int, f"{where}.id")
            if nid in by_id:
                raise FormatError(f"{where}: id {nid} used twice")
            if "tricks" in d:
                leaf = Leaf(nid, _typed(d["tricks"], int, f"{where}.tricks"))
                by_id[nid] = leaf
                return leaf
            try:
                seat = Seat.parse(_typed(d.get("seat"), str, f"{where}.seat"))
            except DDSError as exc:
                raise FormatError(f"{where}: {exc}") from None
            n = Node(nid, seat)
            by_id[nid] = n
            moves = _typed(d.get("moves"), list, f"{where}.moves")
            for k, m in enumerate(moves):
                here = f"{where}.moves[{k}]"
                if not isinstance(m, dict):
                    raise FormatError(f"{here}: a move is an object")
                cards = _typed(m.get("cards"), list, f"{here}.cards")
                try:
                    parsed = tuple(Card.parse(_typed(c, str, f"{here}.cards")) for c in cards)
                except DDSError as exc:
                    raise FormatError(f"{here}: {exc}") from None
                n.moves.append(Move(parsed, node(m.get("next"), f"{here}.next")))
            return n

        try:
            root = node(doc["root"], "root")
        except RecursionError:
            raise FormatError("nodes nested deeper than any ending of 13 tricks") from None
        return cls(deal, trump, leader, Side(side).name, target, root)

    @classmethod
    def from_json(cls, text: str | bytes) -> ProofTree:
        """Read :meth:`to_json`'s output; ``FormatError`` for anything else."""
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise FormatError(f"not JSON: {exc}") from None
        return cls.from_dict(doc)

    # -- text --------------------------------------------------------------

    def _repr_html_(self) -> str:
        """The proof for notebooks: the deal's diagram, then the tree a trick a line, as collapsible lists.

        Each line is one trick from one position (``data-trick`` its label,
        as :meth:`to_text` numbers them: ``12b.13``): the four cards in play
        order (the good guys' in bold, a class of equivalent cards after its
        card played), who wins, then the tricks after it, folded below the
        first two levels; a position met before says which trick it follows
        (``data-ref``), the last trick the good guys' tricks.
        """
        from html import escape

        from ddsbind import _html

        def move_html(seat: Seat, move: Move) -> str:
            card = _html.short_card(str(move.cards[0]))
            if len(move.cards) > 1:
                card += f"<small>(={''.join(_html.short_card(str(c)) for c in move.cards[1:])})</small>"
            text = f"{escape(seat.name)}&nbsp;{card}"
            return f"<b>{text}</b>" if seat.side == self.side else text

        out: list[str] = []
        labels: dict[int, str] = {}
        depths: list[int] = []
        for cell in cells(self.root, self.deal, self.trump, self.leader, self.side):
            while depths and depths[-1] >= cell.depth:
                out.append("</ul></details></li>")
                depths.pop()
            line = (
                f"{escape(cell.label)}: "
                + ", ".join(move_html(s, m) for s, m in zip(cell.seats, cell.moves, strict=True))
                + f"; {escape(cell.winner.name)} wins"
            )
            label = escape(cell.label)
            if cell.after is not None and not cell.duplicate:
                labels[id(cell.after)] = cell.label
                opened = " open" if cell.depth < 1 else ""
                out.append(f'<li><details data-trick="{label}"{opened}><summary>{line}</summary><ul class="t">')
                depths.append(cell.depth)
            elif cell.after is not None:
                ref = escape(labels[id(cell.after)])
                out.append(f'<li data-trick="{label}">{line}; <span data-ref="{ref}">as after {ref}</span></li>')
            else:
                leaf = cell.moves[-1].next
                assert isinstance(leaf, Leaf)
                out.append(f'<li data-trick="{label}">{line}; {escape(self.goodguys)} take {leaf.tricks}</li>')
        out.extend("</ul></details></li>" for _ in depths)
        hands = _html.hands_of_pbn(self.deal.to_pbn("N"))
        caption = (
            f"{self.goodguys} to take {self.target} of {max(self.deal.hand_lengths)} tricks against any defence; "
            f"trump {self.trump.symbol}, {self.leader.name} leads"
        )
        # One style rule for every nested list (scoped to this tree's div): inline styles would repeat per trick.
        style = f"<style>.ddsbind-proof ul.t{{{_LIST_STYLE}}}</style>"
        tricks = f'<ul class="t ddsbind-proof-tricks">{"".join(out)}</ul>'
        return f'<div class="ddsbind-proof">{style}{_html.diagram(hands, caption)}{tricks}</div>'

    def to_text(self) -> str:
        """The proof for people: a line a trick, indented by trick, defences labelled, "as after ..." for repeats."""
        hands = "  ".join(f"{s.name}: {self.deal.hand_text(s, void='-')}" for s in Seat)
        lines = [
            f"{self.goodguys} to take {self.target} of {max(self.deal.hand_lengths)} tricks against any defence; "
            f"trump {self.trump.symbol}, {self.leader.name} leads",
            hands,
        ]
        labels: dict[int, str] = {}
        for cell in cells(self.root, self.deal, self.trump, self.leader, self.side):
            indent = "  " * (cell.depth + 1)
            label = cell.label
            cards = ", ".join(f"{s.name} {_class_text(m.cards)}" for s, m in zip(cell.seats, cell.moves, strict=True))
            line = f"{indent}{label}: {cards}; {cell.winner.name} wins"
            if cell.after is not None and cell.duplicate:
                line += f"; as after {labels[id(cell.after)]}"
            elif cell.after is not None:
                labels[id(cell.after)] = label
            else:
                leaf = cell.moves[-1].next
                assert isinstance(leaf, Leaf)
                line += f"; {self.goodguys} take {leaf.tricks}"
            lines.append(line)
        return "\n".join(lines) + "\n"

    # -- binary ------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The tree file (spec in :mod:`ddsbind.formats.prooftree`); :meth:`from_bytes` reads it back equal.

        Raises ``ProofError`` for a tree the format cannot hold: a reference
        inside a trick, or a class whose cards are not in the format's order.
        """
        return prooftree.encode_tree(
            prooftree.TreeFile(self.deal, self.trump, self.leader, self.side, self.target, self.root)
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> ProofTree:
        """Read a tree file; ``FormatError`` gives the byte offset of the first bad word.

        The tree is read, not checked: use :func:`check_tree`.
        """
        f = prooftree.decode_tree(bytes(data))
        return cls(f.deal, f.trump, f.leader, Side(f.side).name, f.target, f.root)


def _typed(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise FormatError(f"{where}: expected {kind.__name__}, got {value!r}")
    return value


def _class_text(cards: tuple[Card, ...]) -> str:
    return str(cards[0]) + (f"(={','.join(str(c) for c in cards[1:])})" if len(cards) > 1 else "")


# -- the good guys' card ---------------------------------------------------------


def _lowest(cards: tuple[Card, ...]) -> Card:
    # best_line's order: rank, then clubs < diamonds < hearts < spades
    return min(cards, key=lambda c: (c.rank, -c.suit))


# -- building -----------------------------------------------------------------


class _Prover:
    target: int  #: tricks the good guys must take; set once the root's value is known

    def __init__(self, deal: Deal, trump: Strain, side: int, max_nodes: int, progress: Progress | None = None) -> None:
        self.trump = trump
        self.side = side
        self.max_nodes = max_nodes
        self.progress = progress
        self.count = 0
        self.dds_calls = 0
        self.deepest = 14 - max(deal.hand_lengths)
        self.nodes: dict[tuple[Deal | None, Seat, tuple[Card, ...], int], Node] = {}
        self.scores: dict[tuple[Deal | None, Seat, tuple[Card, ...]], dict[Card, int]] = {}

    def score(self, pos: Pos, play: Play) -> dict[Card, int]:
        """DDS's score of every legal card (tricks for the side to play from this trick on)."""
        key = (pos.start, pos.leader, pos.trick)
        if key not in self.scores:
            from ddsbind.solver import solve_board

            sol = solve_board(play.deal(), self.trump, pos.leader, solutions=3, current_trick=pos.trick)
            self.dds_calls += 1
            self.scores[key] = {c: sc.score for sc in sol for c in sc.cards}
        return self.scores[key]

    def new_id(self, pos: Pos) -> int:
        if self.count >= self.max_nodes:
            where = pos.play(self.trump).where() if pos.start is not None else "the end of play"
            raise ProofTooLargeError(
                f"the proof tree passes max_nodes={self.max_nodes}: stopped after {self.count} nodes "
                f"({len(self.nodes)} distinct positions, {self.dds_calls} DDS calls), "
                f"at {where}; the deepest trick reached was {self.deepest} (of 13)"
            )
        self.count += 1
        if self.progress is not None and self.count % _PROGRESS_STEP == 0:
            self.progress(_PROGRESS_STEP)
        if pos.start is not None:
            self.deepest = max(self.deepest, 14 - max(pos.start.hand_lengths))
        return self.count - 1

    def build(self, pos: Pos) -> Node | Leaf:
        if pos.start is None:
            return Leaf(self.new_id(pos), pos.taken)
        key = (pos.start, pos.leader, pos.trick, self.target - pos.taken)
        known = self.nodes.get(key)
        if known is not None:
            return known
        play = pos.play(self.trump)
        seat = play.to_play
        node = Node(self.new_id(pos), seat)
        self.nodes[key] = node
        classes = rank_classes(pos.start, seat, play.legal_cards())
        if seat.side == self.side:
            if len(classes) > 1:
                scores = self.score(pos, play)
                best = max(scores[k[0]] for k in classes)
                need = self.target - pos.taken
                if best < need:
                    raise RuntimeError(f"internal: {play.where()} scores {best}, the good guys need {need}")
                chosen = _lowest(tuple(c for k in classes if scores[k[0]] == best for c in k))
                klass = next(k for k in classes if chosen in k)
            else:
                klass = classes[0]
                chosen = _lowest(klass)
            moves = [class_order(chosen, klass)]
        else:
            moves = [class_order(k[0], k) for k in classes]
        for cards in moves:
            node.moves.append(Move(cards, self.build(next_pos(pos, cards[0], self.trump, self.side))))
        return node


_PROGRESS_STEP = 1000
#: A tree whose estimated size (:func:`estimate_size`) passes this many times ``max_nodes`` is refused before
#: it is built: on endings of 3 to 9 cards the estimate was 1 to 35 times the tree's real size.
ESTIMATE_FACTOR = 30


def estimate_size(
    deal: Deal | str,
    trump: Strain | int | str,
    first: Seat | int | str,
    goodguys: Side | str | None = None,
    probes: int = 64,
) -> float:
    """Knuth's estimate of a proof tree's size from ``probes`` random lines of play; no DDS call, well under a second.

    Each line plays a random class of equivalent cards at every turn and
    adds up the products of the defenders' branching (the good guys play
    one card), as :func:`prove`'s tree branches; positions reached twice
    are counted twice, so the estimate is above the tree's size (on endings
    of 3 to 9 cards, 1 to 35 times).  The lines are the same for the same
    position (a fixed seed).

    Examples
    --------
    >>> estimate_size("N:A... K... Q... J...", "NT", "N")
    5.0
    """
    import random

    d = Deal.from_pbn(deal) if isinstance(deal, str) else deal
    t, leader = Strain.parse(trump), Seat.parse(first, "first")
    side = _parse_side(goodguys, leader)
    rng = random.Random(0)
    total = 0.0
    for _ in range(probes):
        play = Play(d, t, leader)
        start = d
        weight = size = 1.0
        while not play.finished:
            if not play.current:
                start = play.deal()
            seat = play.to_play
            classes = rank_classes(start, seat, play.legal_cards())
            weight *= 1 if seat.side == side else len(classes)
            size += weight
            play.play(rng.choice(classes)[0])
        total += size
    return total / probes


def prove(
    deal: Deal | str,
    trump: Strain | int | str,
    first: Seat | int | str,
    *,
    target: int | None = None,
    goodguys: Side | str | None = None,
    max_nodes: int = 1_000_000,
    progress: Progress | None = None,
) -> ProofTree:
    """Prove that a side takes ``target`` tricks in an ending against any defence.

    Parameters
    ----------
    deal : Deal or PBN string
        The ending: every hand the same number of cards (1..13), before the
        first card of a trick.
    trump : Strain, 0..4 or name (S=0 H=1 D=2 C=3 NT=4)
    first : Seat, 0..3 or name (N=0 E=1 S=2 W=3)
        The hand on lead.
    target : int, optional
        Tricks the good guys must take; default their double-dummy tricks.
    goodguys : {"NS", "EW"}, optional
        The side that must take them; default the side on lead (as composed
        problems are set: "South to play and make three tricks").
    max_nodes : int
        Refuse a tree with more nodes (leaves included).  A position whose
        :func:`estimate_size` passes :data:`ESTIMATE_FACTOR` times
        ``max_nodes`` (a full deal, say) is refused at once, before any search.
    progress : callable, optional
        Called with the number of nodes built since the last call (every 1,000 nodes).

    Returns
    -------
    ProofTree
        At each good-guy turn one card: the lowest card of the best-scoring
        class (DDS ``SolveBoard``, solutions=3, once per position with a
        choice); at each defender turn every legal class of rank-equivalent
        cards (Hirschberg's, judged at the trick's start); to the end of play.
        Equal positions are one node.

    Raises
    ------
    TargetTooHighError
        The good guys cannot take ``target`` tricks; the message gives their
        double-dummy value.
    InvalidArgumentError
        ``goodguys`` is not NS or EW, ``target`` not 0..cards a hand, or
        ``max_nodes`` < 1.
    ProofTooLargeError
        The tree would pass ``max_nodes``; the message says how far it got
        (or, refused before the search, the estimated size).
    DDSError
        An invalid position (hands of different lengths, a card twice, ...).

    Examples
    --------
    >>> tree = prove("N:A... K... Q... J...", "NT", "N")
    >>> tree.goodguys, tree.target
    ('NS', 1)
    """
    d = Deal.from_pbn(deal) if isinstance(deal, str) else deal
    t, leader = Strain.parse(trump), Seat.parse(first, "first")
    side = _parse_side(goodguys, leader)
    Play(d, t, leader)  # the position's checks: equal hands, every card once
    n = max(d.hand_lengths)
    if n == 0:
        raise InvalidArgumentError("the ending holds no cards", field="remainCards")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise InvalidArgumentError(f"max_nodes {max_nodes!r} is not a positive int", field="max_nodes")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= n):
        raise InvalidArgumentError(f"target {target!r} is not 0..{n} (the tricks in the ending)", field="target")
    estimate = estimate_size(d, t, leader, Side(side).name)
    if estimate > ESTIMATE_FACTOR * max_nodes:
        raise ProofTooLargeError(
            f"the proof tree of this {n}-card ending would pass max_nodes={max_nodes}: its estimated size is "
            f"{estimate:.2g} nodes (more than {ESTIMATE_FACTOR} times max_nodes); prove a smaller ending, or "
            "raise max_nodes"
        )
    prover = _Prover(d, t, side, max_nodes, progress)
    root = Pos(d, leader, (), 0)
    scores = prover.score(root, root.play(t))
    best = max(scores.values())
    value = best if leader.side == side else n - best
    if target is None:
        target = value
    elif target > value:
        raise TargetTooHighError(
            f"{Side(side).name} cannot take {target} tricks: their double-dummy value is {value}", field="target"
        )
    prover.target = target
    tree = prover.build(root)
    return ProofTree(d, t, leader, Side(side).name, target, tree, prover.dds_calls)


# -- checking -------------------------------------------------------------------


def check_tree(tree: ProofTree) -> None:
    """Verify that ``tree`` proves its claim, from its deal alone (no DDS).

    Checks: every node's seat is the seat to play; every card is legal when
    replayed; each move is exactly one rank-equivalence class (Hirschberg's,
    at the trick's start) and the card played is in it; a good guys' node
    has exactly one move; a defender's node has one move per legal class,
    every legal card covered once; play ends in a leaf, and only there, with
    the good guys' tricks counted right and at least ``target``; a node
    reached by several paths is the same position each time (cards held,
    hand to play, cards on the trick, tricks still needed); ids are unique.

    Raises
    ------
    ProofError
        The first fault found, naming the node's id.
    """
    side = tree.side
    seen: dict[int, tuple[int, tuple[Deal | None, Seat, tuple[Card, ...], int]]] = {}
    ids: dict[int, int] = {}

    def visit(n: Node | Leaf, pos: Pos) -> None:
        key = (pos.start, pos.leader, pos.trick, tree.target - pos.taken)
        if id(n) in seen:
            if seen[id(n)][1] != key:
                raise ProofError(n.id, "referenced from a position that is not the node's own")
            return
        if ids.setdefault(n.id, id(n)) != id(n):
            raise ProofError(n.id, "two nodes have this id")
        seen[id(n)] = (n.id, key)
        if isinstance(n, Leaf):
            if pos.start is not None:
                raise ProofError(n.id, f"a leaf before the end of play ({pos.play(tree.trump).where()})")
            if n.tricks != pos.taken:
                raise ProofError(n.id, f"the leaf says {n.tricks} tricks, the play gives {tree.goodguys} {pos.taken}")
            if pos.taken < tree.target:
                raise ProofError(n.id, f"{tree.goodguys} take {pos.taken} tricks, short of the target {tree.target}")
            return
        if pos.start is None:
            raise ProofError(n.id, "a turn to play after every card has been played")
        play = pos.play(tree.trump)
        seat = play.to_play
        if n.seat != seat:
            raise ProofError(n.id, f"says {n.seat.name} plays, but it is {seat.name}'s turn ({play.where()})")
        legal = play.legal_cards()
        classes = rank_classes(pos.start, seat, legal)
        covered: list[tuple[Card, ...]] = []
        for m in n.moves:
            if not m.cards:
                raise ProofError(n.id, "a move without cards")
            klass = next((k for k in classes if m.cards[0] in k), None)
            if klass is None:
                raise ProofError(n.id, f"{m.cards[0]} is not a legal card for {seat.name} ({play.where()})")
            if sorted(m.cards) != sorted(klass) or len(set(m.cards)) != len(m.cards):
                names = " ".join(str(c) for c in m.cards)
                raise ProofError(n.id, f"{names} is not a class of equivalent cards (it is {_class_text(klass)})")
            if klass in covered:
                raise ProofError(n.id, f"the class of {m.cards[0]} is played twice")
            covered.append(klass)
        if seat.side == side:
            if len(n.moves) != 1:
                raise ProofError(n.id, f"the good guys ({seat.name}) play {len(n.moves)} classes, not one")
        elif len(covered) != len(classes):
            missing = [_class_text(k) for k in classes if k not in covered]
            raise ProofError(n.id, f"the defence {seat.name} may also play {', '.join(missing)}")
        for m in n.moves:
            visit(m.next, next_pos(pos, m.cards[0], tree.trump, side))

    try:
        Play(tree.deal, tree.trump, tree.leader)
    except DDSError as exc:
        raise ProofError(tree.root.id, f"the deal is not an ending to prove: {exc}") from None
    visit(tree.root, Pos(tree.deal, tree.leader, (), 0))
