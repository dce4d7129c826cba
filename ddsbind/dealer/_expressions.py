"""The dealer language's expressions, compiled: each rule's value range beside a maker of its numpy function.

:class:`ExpressionCompiler` holds one method per expression rule (and what
the planner reads of an expression tree); :class:`~ddsbind.dealer.compiler.Compiler`
builds on it with the statements and actions.  Each expression rule returns a
:class:`Term`: the least and greatest value the expression can take on any
deal (exact integers, checked against 64 bits where the rule is, so overflow
is refused with the line) beside a maker of its
:data:`~ddsbind.dealer.frame.Expr`.  ``expr(frame, rows)`` evaluates on the
deals ``rows`` of a :class:`~ddsbind.dealer.frame.Frame` as an int64 array
(true is 1, false 0), with C's integer rules (``/`` and ``%`` truncate toward
zero).  Dividing by zero is refused naming the line: by a constant zero when
compiling, by a value that is zero on a deal when that deal is evaluated
(Debian's ``dealer`` dies of the signal; there is no value to give).
``&&``, ``||`` and ``?:`` evaluate their right-hand side only on the rows
that need it, so ``tricks()`` behind a cheap test is solved only for the
deals that pass it; a ``tricks()`` compared with a constant is a threshold
(a target search), and :meth:`ExpressionCompiler.exact_tricks` lists the
exact results the actions read, for the planner.

The language's seat words (``north``) become :class:`~ddsbind.deal.Seat`
(:data:`COMPASS`) and its strain words (``spades``, ``notrump``) DDS's strain
numbers (:data:`STRAINS`) here.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Card, Seat, Vulnerability
from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS, DealerError
from ddsbind.dealer.frame import Array, Expr, Frame
from ddsbind.dealer.syntax import Node, Token

__all__ = ["COMPASS", "STRAINS", "ExpressionCompiler", "Term", "singular"]

#: The language's seat words: ``"north"`` .. ``"west"`` -> :class:`~ddsbind.deal.Seat`.
COMPASS = {seat.full_name.lower(): seat for seat in Seat}
#: The language's strain words (singular, :func:`singular`) -> DDS's strain numbers (0 spades .. 4 notrump).
STRAINS = {"spade": 0, "heart": 1, "diamond": 2, "club": 3, "notrump": 4}
_ALIASES = {"ten": 0, "jack": 1, "queen": 2, "king": 3, "ace": 4, "top2": 5, "top3": 6, "top4": 7, "top5": 8, "c13": 9}
_INT64_MAX = (1 << 63) - 1


@dataclasses.dataclass
class Term:
    """A compiled expression: its value range on any deal, and a maker of its function (called once)."""

    low: int
    high: int
    make: Callable[[], Expr]


def _constant(value: int) -> Expr:
    return lambda f, rows: np.full(rows.size, value, dtype=np.int64)


def _c_div(a: Array, b: Array) -> Array:
    """C's ``a / b`` (toward zero); ``b`` is never 0 here (the compiler refuses it) and ``a / b`` fits 64 bits."""
    return np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)


def _c_mod(a: Array, b: Array) -> Array:
    return a - _c_div(a, b) * b


_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": _c_div,
    "%": _c_mod,
    "==": lambda a, b: (a == b).astype(np.int64),
    "!=": lambda a, b: (a != b).astype(np.int64),
    "<": lambda a, b: (a < b).astype(np.int64),
    "<=": lambda a, b: (a <= b).astype(np.int64),
    ">": lambda a, b: (a > b).astype(np.int64),
    ">=": lambda a, b: (a >= b).astype(np.int64),
}


_DIVIDE = {"/": "division", "%": "remainder"}


def singular(word: str) -> str:
    """A dealer word without its plural ``s`` (``"spades"`` -> ``"spade"``, ``"hcps"`` -> ``"hcp"``)."""
    return word[:-1] if word.endswith("s") and word not in ("hcps",) else word.removesuffix("s")


class ExpressionCompiler:
    """The expression rules of one script's compiler, and what the planner reads of an expression tree.

    Holds what expressions read of the script: its names (``define``), the
    ``pointcount``/``altcount`` weights, ``par()``'s dealer and vulnerability,
    whether ``tricks()`` or ``rnd()`` appear.  :meth:`visit` calls the method
    named after a rule; :class:`~ddsbind.dealer.compiler.Compiler` adds the
    statements' and actions'.
    """

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text
        self.defines: dict[str, Node] = {}
        self.terms: dict[str, Term] = {}
        self.compiled: dict[str, Expr] = {}
        self.busy: set[str] = set()
        self.making: set[str] = set()
        self.line: int | str = "?"
        self.uses_tricks = False
        self.rnd_sites = 0
        self.par_dealer = Seat.N  # par(): dealer's defaults, north and nobody vulnerable, unless the script says
        self.par_vulnerable = Vulnerability.NONE
        self.points: tuple[int, ...] = (4, 3, 2, 1)
        self.alts: list[tuple[int, ...]] | None = None

    def fail(self, node: Node | Token, message: str) -> DealerError:
        line = "?" if node.line is None else node.line
        column = "?" if node.column is None else node.column
        return DealerError(f"{self.source}:{line}:{column}: {message}")

    def visit(self, node: Node) -> Any:
        """What the method named after ``node``'s rule makes of it (a statement's none, an action, a :class:`Term`)."""
        return getattr(self, node.data)(node)

    # -- expressions: each rule's value range (refusing overflow) beside its code -----------

    def checked(self, node: Node) -> Expr:
        """The function of a whole expression, after its range was proved to fit in 64 bits."""
        self.line = self.line if node.line is None else node.line
        return self.term(node).make()

    def term(self, node: Node | Token) -> Term:
        if isinstance(node, Token):

            def unexpected() -> Expr:
                raise self.fail(node, f"unexpected {str(node)!r}")

            return Term(0, 0, unexpected)
        return self.visit(node)

    def number(self, tree: Node) -> Term:
        token: Any = tree.children[0]
        value = int(token)
        if value > _INT64_MAX:
            raise self.fail(token, f"number {value} is too large (at most {_INT64_MAX})")
        return Term(value, value, lambda: _constant(value))

    def dotnum(self, tree: Node) -> Term:
        value = _dotnum(str(tree.children[0]))
        return Term(value, value, lambda: _constant(value))

    def variable(self, tree: Node) -> Term:
        token: Any = tree.children[0]
        name = str(token)
        if name not in self.terms:
            if name in self.busy or name not in self.defines:

                def refused() -> Expr:
                    if name in self.defines:
                        raise self.fail(token, f"{name!r} is defined in terms of itself")
                    raise self.fail(token, f"unknown name {name!r}")

                return Term(0, 0, refused)
            self.busy.add(name)
            self.terms[name] = self.term(self.defines[name])
            self.busy.discard(name)
        term = self.terms[name]
        return Term(term.low, term.high, lambda: self.named(token, name))

    def named(self, token: Token, name: str) -> Expr:
        """The function a defined name stands for, made once."""
        if name not in self.compiled:
            if name in self.making:
                raise self.fail(token, f"{name!r} is defined in terms of itself")
            self.making.add(name)
            self.compiled[name] = self.terms[name].make()
            self.making.discard(name)
        return self.compiled[name]

    def binary(self, tree: Node) -> Term:
        # A left-leaning chain (a + b - c ...) walked as a loop: no recursion per term.
        chain = _left_chain(tree, ("binary",))
        first = self.term(chain[0].children[0])
        low, high = first.low, first.high
        steps: list[tuple[str, Term, Node]] = []
        for link in chain:
            op = str(link.children[1])
            right = self.term(link.children[2])
            steps.append((op, right, link))
            if op in _DIVIDE and right.low == right.high == 0:
                raise self.fail(link, f"{_DIVIDE[op]} by zero")
            if op in ("+", "-", "*"):
                pairs = [(a, b) for a in (low, high) for b in (right.low, right.high)]
                values = [a + b if op == "+" else a - b if op == "-" else a * b for a, b in pairs]
                low, high = min(values), max(values)
            elif op in ("/", "%"):
                top = max(abs(low), abs(high))
                low, high = -top, top
            else:
                low, high = 0, 1
            if low < -_INT64_MAX - 1 or high > _INT64_MAX:
                raise self.fail(link, f"values can reach {high if high > _INT64_MAX else low}, beyond 64-bit integers")
        threshold = self.threshold(tree)
        if threshold is not None:
            self.uses_tricks = True

        def make() -> Expr:
            if threshold is not None:
                strain, seat, need, negate = threshold
                if negate:
                    return lambda f, rows: 1 - f.at_least(rows, strain, seat, need)
                return lambda f, rows: f.at_least(rows, strain, seat, need)
            head = first.make()
            ops = [(self._operator(op, link), right.make()) for op, right, link in steps]

            def binary(f: Frame, rows: NDArray[np.intp]) -> Array:
                value = head(f, rows)
                for function, right in ops:
                    value = function(value, right(f, rows))
                return value

            return binary

        return Term(low, high, make)

    def _operator(self, op: str, link: Node) -> Callable[[Array, Array], Array]:
        """The array function of a binary operator; ``/`` and ``%`` refuse a zero divisor naming ``link``'s line."""
        function = _BINARY[op]

        def divide(a: Array, b: Array) -> Array:
            if (b == 0).any():
                raise self.fail(link, f"{_DIVIDE[op]} by zero on a deal (its divisor is 0 there)")
            return function(a, b)

        return divide if op in _DIVIDE else function

    def sign(self, tree: Node) -> Term:
        inner = self.term(tree.children[1])
        if str(tree.children[0]) == "+":
            return inner
        if -inner.low > _INT64_MAX:
            raise self.fail(tree, f"values can reach {-inner.low}, beyond 64-bit integers")

        def make() -> Expr:
            function = inner.make()
            return lambda f, rows: -function(f, rows)

        return Term(-inner.high, -inner.low, make)

    def not_(self, tree: Node) -> Term:
        inner = self.term(tree.children[0])

        def make() -> Expr:
            function = inner.make()
            return lambda f, rows: (function(f, rows) == 0).astype(np.int64)

        return Term(0, 1, make)

    def and_(self, tree: Node) -> Term:
        return self._logic(tree, True)

    def or_(self, tree: Node) -> Term:
        return self._logic(tree, False)

    def _logic(self, tree: Node, want: bool) -> Term:
        # A chain a && b && c ... evaluated term by term on the rows still undecided.
        links = _left_chain(tree, (tree.data,))
        rest = [self.term(link.children[1]) for link in links]
        parts = [self.term(links[0].children[0]), *rest]

        def make() -> Expr:
            terms = [part.make() for part in parts]

            def logic(f: Frame, rows: NDArray[np.intp]) -> Array:
                # The positions still open (None: all of them, the first term reading ``rows`` as given).
                open_: NDArray[np.intp] | None = None
                for term in terms:
                    value = term(f, rows if open_ is None else rows[open_]) != 0
                    undecided = value if want else ~value
                    open_ = np.flatnonzero(undecided) if open_ is None else open_[undecided]
                    if open_.size == 0:
                        break
                assert open_ is not None  # terms is never empty
                # Rows still open passed every term of a && chain, or failed every term of a || chain.
                out = np.full(rows.size, 0 if want else 1, dtype=np.int64)
                out[open_] = 1 if want else 0
                return out

            return logic

        return Term(0, 1, make)

    def select(self, tree: Node) -> Term:
        yes, no = self.term(tree.children[1]), self.term(tree.children[2])
        test = self.term(tree.children[0])

        def make() -> Expr:
            when, then, other = test.make(), yes.make(), no.make()

            def select(f: Frame, rows: NDArray[np.intp]) -> Array:
                t = when(f, rows) != 0
                out = np.empty(rows.size, dtype=np.int64)
                if t.any():
                    out[t] = then(f, rows[t])
                if (~t).any():
                    out[~t] = other(f, rows[~t])
                return out

            return select

        return Term(min(yes.low, no.low), max(yes.high, no.high), make)

    def count_call(self, tree: Node) -> Term:
        name = str(tree.children[0])
        seat = int(COMPASS[str(tree.children[1])])
        suit = STRAINS[singular(str(tree.children[2]))] if tree.children[2] is not None else None
        word = singular(name) if not name.startswith(("pt", "top", "c13")) else name
        expr: Expr
        if word in ("loser", "ltc"):  # Hands.losers / ltc per hand, or their *_by_suit column
            column = ("losers" if word == "loser" else "ltc") + ("" if suit is None else "_by_suit")

            def counted(f: Frame, rows: NDArray[np.intp]) -> Array:
                values = getattr(f.hands, column)
                return f.column(values if suit is None else values[:, :, suit], rows, seat).astype(np.int64)

            return Term(0, 4 * (3 if word == "loser" else 300), lambda: counted)
        weights: Callable[[Frame], tuple[int, ...]]
        if word in ("hcp", "hcps"):
            weights, most = (lambda f: f.pointcount), sum(self.points)
        elif word == "control":
            weights, most = (lambda f: (2, 1)), 3
        else:
            number = int(word[2]) if word.startswith("pt") else _ALIASES[word]
            weights, most = (lambda f: f.altcounts[number]), sum((self.alts or DEFAULT_ALTCOUNTS)[number])
        if suit is None:
            expr = lambda f, rows: f.hands.count_at(rows, weights(f))[:, seat].astype(np.int64)  # noqa: E731
        else:
            expr = lambda f, rows: f.hands.count_at(rows, weights(f), by_suit=True)[:, seat, suit].astype(  # noqa: E731
                np.int64
            )
        return Term(0, 4 * most, lambda: expr)

    def suit_call(self, tree: Node) -> Term:
        suit = STRAINS[singular(str(tree.children[0]))]
        seat = int(COMPASS[str(tree.children[1])])
        expr: Expr = lambda f, rows: f.column(f.hands.lengths_in(suit), rows, seat).astype(np.int64)  # noqa: E731
        return Term(0, 13, lambda: expr)

    def shape_call(self, tree: Node) -> Term:
        def make() -> Expr:
            seat = int(COMPASS[str(tree.children[0])])
            allowed = np.zeros(14**3, dtype=bool)
            for item in tree.children[1:]:
                separator, term = item.children
                allowed[self._shape_codes(term)] = separator is None or str(separator.children[0]) != "-"
            return lambda f, rows: allowed[f.column(f.hands.shape_codes, rows, seat)].astype(np.int64)

        return Term(0, 13, make)

    def hascard_call(self, tree: Node) -> Term:
        seat = int(COMPASS[str(tree.children[0])])
        card_text = str(tree.children[1])
        card = Card.parse(card_text[1] + card_text[0]).index
        expr: Expr = lambda f, rows: (f.hands.owners[rows, card] == seat).astype(np.int64)  # noqa: E731
        return Term(0, 13, lambda: expr)

    def tricks_call(self, tree: Node) -> Term:
        seat = int(COMPASS[str(tree.children[0])])
        strain = STRAINS[singular(str(tree.children[1]))]
        self.uses_tricks = True
        expr: Expr = lambda f, rows: f.tricks(rows, strain, seat)  # noqa: E731
        return Term(0, 13, lambda: expr)

    def score_call(self, tree: Node) -> Term:
        from ddsbind.scoring import Contract

        vul = str(tree.children[0]) == "vul"
        contract = Contract.parse(str(tree.children[1]))  # the language's x3N and DealerV2's z4Hx
        tricks = self.term(tree.children[2])
        # Tricks beyond 0..13 are scored by the same rules, as Debian's dealer does; at most 600 a trick
        # (redoubled vulnerable undertricks) and 3,000 of bonuses.
        top = 600 * (max(abs(tricks.low), abs(tricks.high)) + 13) + 3_000
        if top > _INT64_MAX:
            reach = tricks.high if tricks.high > -tricks.low else tricks.low
            raise self.fail(tree, f"score() of tricks that can reach {reach}, beyond 64-bit integers")

        def make() -> Expr:
            function = tricks.make()
            return lambda f, rows: contract.scores(function(f, rows), declarer_vulnerable=vul, extrapolate=True)

        return Term(-top, top, make)

    def imps_call(self, tree: Node) -> Term:
        inner = self.term(tree.children[0])
        if -inner.low > _INT64_MAX:  # its size, |-2**63|, is beyond 64 bits (ddsbind.scoring.imps refuses it)
            raise self.fail(tree, f"imps() of a value that can reach {inner.low}, beyond 64-bit integers")

        def make() -> Expr:
            from ddsbind.scoring import imps

            function = inner.make()
            return lambda f, rows: imps(function(f, rows))

        return Term(-24, 24, make)

    def rnd_call(self, tree: Node) -> Term:
        limit = self.term(tree.children[0])

        def make() -> Expr:
            function = limit.make()
            site = self.rnd_sites
            self.rnd_sites += 1
            return lambda f, rows: f.random(site, rows, function(f, rows))

        return Term(0, max(limit.high - 1, 0), make)

    def cccc_call(self, tree: Node) -> Term:
        seat = int(COMPASS[str(tree.children[0])])
        expr: Expr = lambda f, rows: f.column(f.hands.cccc, rows, seat)  # noqa: E731
        return Term(-2_000, 20_000, lambda: expr)

    def quality_call(self, tree: Node) -> Term:
        seat, suit = int(COMPASS[str(tree.children[0])]), STRAINS[singular(str(tree.children[1]))]
        expr: Expr = lambda f, rows: f.column(f.hands.quality_by_suit[:, :, suit], rows, seat)  # noqa: E731
        return Term(0, 4_000, lambda: expr)

    def par_call(self, tree: Node) -> Term:
        sign = 1 if str(tree.children[0]).lower() == "ns" else -1
        dealer, vulnerable = self.par_dealer, self.par_vulnerable
        self.uses_tricks = True
        expr: Expr = lambda f, rows: sign * f.par(rows, dealer, vulnerable)  # noqa: E731
        return Term(-8_000, 8_000, lambda: expr)

    # -- what the planner needs to know of the tree ----------------------------------------

    def resolve(self, node: Any) -> Any:
        """``node``, or the definition a name stands for (followed through names, stopping at a cycle)."""
        seen: set[str] = set()
        while isinstance(node, Node) and node.data == "variable" and str(node.children[0]) in self.defines:
            name = str(node.children[0])
            if name in seen:
                break
            seen.add(name)
            node = self.defines[name]
        return node

    def tricks_pair(self, node: Any) -> tuple[int, int] | None:
        """``(strain, seat)`` when ``node`` is a ``tricks()`` call (directly or through names)."""
        node = self.resolve(node)
        if isinstance(node, Node) and node.data == "tricks_call":
            return STRAINS[singular(str(node.children[1]))], int(COMPASS[str(node.children[0])])
        return None

    def constant(self, node: Any) -> int | None:
        """The value of a number literal (``9``, ``-1``, through names), else None."""
        node = self.resolve(node)
        if isinstance(node, Node) and node.data == "number":
            return int(str(node.children[0]))
        if isinstance(node, Node) and node.data == "sign":
            inner = self.constant(node.children[1])
            return None if inner is None else (inner if str(node.children[0]) == "+" else -inner)
        return None

    def threshold(self, node: Node) -> tuple[int, int, int, bool] | None:
        """``tricks(seat, strain) >= 9`` and the like as ``(strain, seat, need, negate)``: ``at_least(need)``,
        negated for ``<``/``<=``; None for anything else (``==`` and ``!=`` read the exact count)."""
        left, op_token, right = node.children
        op = str(op_token)
        if op not in ("<", "<=", ">", ">="):
            return None
        pair, value = self.tricks_pair(left), self.constant(right)
        if pair is None or value is None:
            pair, value = self.tricks_pair(right), self.constant(left)
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]  # k < t is t > k
        if pair is None or value is None:
            return None
        need, negate = {">=": (value, False), ">": (value + 1, False), "<": (value, True), "<=": (value + 1, True)}[op]
        return pair[0], pair[1], need, negate

    def exact_tricks(self, node: Any) -> set[tuple[int, int]]:
        """The ``(strain, seat)`` of every ``tricks()`` call under ``node`` read as an exact count.

        A walk with a stack of its own (no recursion: a 1,000-term expression is fine); each
        name's definition is walked once.
        """
        out: set[tuple[int, int]] = set()
        seen: set[str] = set()
        stack = [node]
        while stack:
            item = stack.pop()
            if not isinstance(item, Node):
                continue
            if item.data == "tricks_call":
                pair = self.tricks_pair(item)
                if pair is not None:
                    out.add(pair)
            elif item.data == "binary" and self.threshold(item) is not None:
                continue
            elif item.data == "variable":
                name = str(item.children[0])
                if name not in seen and name in self.defines:
                    seen.add(name)
                    stack.append(self.defines[name])
            else:
                stack.extend(item.children)
        return out

    def _shape_codes(self, term: Node) -> list[int]:
        any_order = term.children[0] is not None
        pattern = str(term.children[1])
        fixed = [int(ch) for ch in pattern if ch != "x"]
        if sum(fixed) > 13 or (("x" not in pattern) and sum(fixed) != 13):
            raise self.fail(term.children[1], f"shape {pattern} does not add up to 13 cards")
        wanted = tuple(-1 if ch == "x" else int(ch) for ch in pattern)
        shapes: set[tuple[int, ...]] = {
            lengths for lengths in _ALL_SHAPES if all(w < 0 or w == n for w, n in zip(wanted, lengths, strict=True))
        }
        if any_order:
            shapes = {perm for lengths in shapes for perm in itertools.permutations(lengths)}
        return sorted((s * 14 + h) * 14 + d for s, h, d, _ in shapes)


def _dotnum(text: str) -> int:
    """DealerV2's dotnum (``5.5``, ``.25``, ``13.``) as 100 times its value: ``550``, ``25``, ``1300``."""
    whole, _, fraction = text.partition(".")
    return int(whole or 0) * 100 + int((fraction + "00")[:2])


def _left_chain(node: Node, kinds: tuple[str, ...]) -> list[Node]:
    """The nodes of ``kinds`` down the left spine of ``node``, innermost (first evaluated) first."""
    chain = []
    while isinstance(node, Node) and node.data in kinds:
        chain.append(node)
        node = node.children[0]
    return chain[::-1]


#: Every hand shape (spades, hearts, diamonds, clubs), 560 of them.
_ALL_SHAPES = tuple((s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h))
