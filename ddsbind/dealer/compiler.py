"""The dealer language's compiler: the parse tree of a script to a :class:`Script` of numpy functions.

One method per grammar rule, called by :meth:`Compiler.visit` with the rule's
:class:`~ddsbind.dealer.syntax.Node` (the parse tree, lark's copied into classes of our own).
The statements fill the :class:`Script`; each action rule makes its
:class:`Action`; each expression rule returns a :class:`Term` (its value
range beside a maker of its :data:`~ddsbind.dealer.frame.Expr`): the
expression rules, with C's integer rules and the thresholds the planner
reads, are :class:`Compiler`'s base, ``ddsbind.dealer._expressions``.

The language's seats, strains and vulnerability become :class:`~ddsbind.deal.Seat`,
strain numbers and :class:`~ddsbind.deal.Vulnerability` here, and its
contracts (``x3N``, ``z4Hx``) :class:`ddsbind.scoring.Contract`: the only
place the language's spellings are read.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.dealer._expressions import COMPASS, STRAINS, ExpressionCompiler, Term, singular
from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS, DealerError, cards_of
from ddsbind.dealer.frame import Action, Array, Expr, Frame, Script
from ddsbind.dealer.syntax import Node, Token, unknown_call

__all__ = ["MAX_FREQUENCY_ROWS", "MAX_WEIGHT", "Action", "Compiler", "Script", "Term"]

#: Largest ``pointcount``/``altcount`` weight: 52 cards of it still fit in 64 bits.
MAX_WEIGHT = 1 << 56
#: Most values one ``frequency`` table counts (dealer allocates a row per value too).
MAX_FREQUENCY_ROWS = 1_000_000


class Compiler(ExpressionCompiler):
    """Compiles one script: :meth:`compile` of its tree (:func:`~ddsbind.dealer.syntax.parse_tree`) gives its Script.

    The statements and actions are here; the expression rules are
    :class:`~ddsbind.dealer._expressions.ExpressionCompiler`'s.
    """

    def __init__(self, source: str, text: str) -> None:
        super().__init__(source, text)
        self.out = Script()
        self.action_trees: list[Node] = []
        self.has_action = False
        self.conditions: list[Node] = []
        self.lengths: list[Expr] = []

    def compile(self, tree: Node) -> Script:
        """The :class:`Script` of a whole parsed script."""
        script = self.out
        for statement in tree.children:
            self.visit(statement)
        script.pointcount = self.points
        script.altcounts = tuple(self.alts) if self.alts else None
        compiled = [self.checked(c) for c in self.conditions]  # every condition is checked; the last one counts
        script.condition = compiled[-1] if compiled else None
        if self.lengths:
            script.condition = _all_of([*self.lengths, *([script.condition] if script.condition else [])])
        script.actions = [self.visit(a) for a in self.action_trees] if self.has_action else [Action("printall")]
        script.uses_tricks = self.uses_tricks
        script.uses_rnd = self.rnd_sites > 0
        pairs: set[tuple[int, int]] = set()
        for a in self.action_trees:
            pairs |= self.exact_tricks(a)
        for action in script.actions:
            if action.contract is not None and action.contract.declarer is not None:
                pairs.add((int(action.contract.strain), int(action.contract.declarer)))
            for what, seats in action.report:
                if what == "trix":
                    pairs |= {(strain, seat) for seat in seats for strain in range(5)}
        script.action_tricks = tuple(sorted(pairs))
        return script

    # -- statements ------------------------------------------------------------------------

    def generate(self, tree: Node) -> None:  # dealer keeps the first generate and the first produce
        if self.out.generate is None:
            self.out.generate = int(str(tree.children[0]))

    def produce(self, tree: Node) -> None:
        if self.out.produce is None:
            self.out.produce = int(str(tree.children[0]))

    def dealer(self, tree: Node) -> None:
        self.out.dealer = self.par_dealer = COMPASS[str(tree.children[0])]

    def vulnerable(self, tree: Node) -> None:
        self.out.vulnerable = self.par_vulnerable = Vulnerability.parse(str(tree.children[0]))

    def predeal(self, tree: Node) -> None:
        seat = -1
        for token in tree.children:
            if isinstance(token, Node):  # suit(seat) == n: a length the deals must have
                self.lengths.append(self.visit(token))
            elif token.type == "COMPASS":
                seat = int(COMPASS[str(token)])
            else:
                try:
                    self.out.predeal = self.out.predeal.add(seat, cards_of(str(token)))
                except DealerError as exc:
                    raise self.fail(token, str(exc)) from None

    def suit_length(self, tree: Node) -> Expr:
        """``spades(north) == 1`` in a predeal: the condition that seat holds that many cards of the suit."""
        suit_token, seat_token, number = list[Any](tree.children)
        count = int(number)
        if not 0 <= count <= 13:
            raise self.fail(number, f"a suit length is 0 .. 13, not {count}")
        suit = STRAINS[singular(str(suit_token))]
        seat = int(COMPASS[str(seat_token)])
        return lambda f, rows: (f.column(f.hands.lengths_in(suit), rows, seat) == count).astype(np.int64)

    def pointcount(self, tree: Node) -> None:
        self.points = self.weights(list[Any](tree.children))
        if len(self.points) > 13:
            raise self.fail(tree, "pointcount takes at most 13 numbers (ace down to two)")

    def altcount(self, tree: Node) -> None:
        args: list[Any] = list(tree.children)
        number = int(args[0])
        if not 0 <= number <= 9:
            raise self.fail(args[0], "altcount numbers are 0 .. 9")
        if len(args) - 1 > 13:
            raise self.fail(tree, "altcount takes at most 13 weights (ace down to two)")
        counts = list(self.alts or DEFAULT_ALTCOUNTS)
        counts[number] = self.weights(args[1:])
        self.alts = counts

    def weights(self, tokens: list[Token]) -> tuple[int, ...]:
        """``pointcount``/``altcount`` weights; each at most :data:`MAX_WEIGHT` so sums stay in 64 bits."""
        for token in tokens:
            if int(token) > MAX_WEIGHT:
                raise self.fail(token, f"weight {int(token)} is too large (at most {MAX_WEIGHT})")
        return tuple(int(t) for t in tokens)

    def condition(self, tree: Node) -> None:
        self.conditions.append(tree.children[0])

    def bare_condition(self, tree: Node) -> None:
        """A condition without ``condition``; one starting with ``(`` right after a name calls an unknown function."""
        start = tree.start_pos or 0
        if self.text[start] == "(":
            unknown = unknown_call(self.text, start + 1, self.source)
            if unknown is not None:
                raise unknown
        self.conditions.append(tree.children[0])

    def action(self, tree: Node) -> None:  # a later action list replaces an earlier one, as in dealer
        self.action_trees = [a for a in tree.children if a is not None]
        self.has_action = True

    def define(self, tree: Node) -> None:
        self.defines[str(tree.children[0])] = tree.children[1]

    # -- actions ---------------------------------------------------------------------------

    def _plain(self, tree: Node) -> Action:
        """``printall``, ``printew``, ``printpbn``: an action without arguments."""
        return Action(str(tree.data))

    printall = printew = printpbn = _plain

    def print_hands(self, tree: Node) -> Action:
        return Action("print_hands", seats=[int(COMPASS[str(t)]) for t in tree.children])

    def _one_line(self, tree: Node) -> Action:
        """``printcompact``, ``printoneline``: the deal, then the value of an optional expression."""
        args = tree.children
        return Action(str(tree.data), exprs=[self.checked(args[0])] if args and args[0] is not None else [])

    printcompact = printoneline = _one_line

    def average(self, tree: Node) -> Action:
        label, expr = tree.children
        return Action("average", str(label)[1:-1] if label is not None else None, [self.checked(expr)])

    def frequency(self, tree: Node) -> Action:
        args: list[Any] = list(tree.children)
        label = str(args[0])[1:-1] if args[0] is not None else None
        exprs = [self.checked(args[1])]
        bounds = [_signed(args[2]), _signed(args[3])]
        if args[4] is not None:
            exprs.append(self.checked(args[4]))
            bounds += [_signed(args[5]), _signed(args[6])]
        for low, high, node in zip(bounds[::2], bounds[1::2], (args[2], args[5]), strict=False):
            if low > high:
                raise self.fail(node, f"frequency bounds {low} > {high}")
            if high - low >= MAX_FREQUENCY_ROWS:
                raise self.fail(node, f"frequency bounds {low} .. {high}: at most {MAX_FREQUENCY_ROWS} rows")
        return Action("frequency", label, exprs, bounds)

    def printes(self, tree: Node) -> Action:
        items: list[str | Expr] = []
        for item in tree.children:
            if isinstance(item, Token) and item.type == "STRING":
                items.append(str(item)[1:-1])
            elif isinstance(item, Token) and item.type == "NEWLINE_ESC":
                items.append("\n")
            else:
                items.append(self.checked(item))
        return Action("printes", items=items)

    def evalcontract(self, tree: Node) -> Action:
        from ddsbind.scoring import Contract  # imported by the scripts that score, only

        side, text, vul = (str(a) for a in tree.children)
        seat = Seat.S if side.lower() == "ns" else Seat.W  # DealerV2 asks DDS for south (NS) or west (EW)
        contract = dataclasses.replace(Contract.parse(text), declarer=seat)
        strain = int(contract.strain)
        self.uses_tricks = True
        tricks: Expr = lambda f, rows: f.tricks(rows, strain, seat)  # noqa: E731
        return Action("evalcontract", side.upper(), [tricks], contract=contract, declarer_vulnerable=vul == "vul")

    def export(self, tree: Node) -> Action:
        return Action("export", seats=_report_seats(tree.children[0]))

    def _report(self, tree: Node) -> Action:
        """``csvrpt``, ``printrpt``: DealerV2's report fields."""
        report: list[tuple[str, Any]] = []
        for item in tree.children:
            if isinstance(item, Token) and item.type == "STRING":
                report.append(("text", "'" + str(item)[1:-1].replace("'", "''") + "'"))
            elif isinstance(item, Node) and item.data in ("report_hands", "report_trix"):
                seats = _report_seats(item.children[0] if item.children else None)
                if item.data == "report_trix":
                    self.uses_tricks = True
                report.append(("hands" if item.data == "report_hands" else "trix", seats))
            else:
                report.append(("expr", self.checked(item)))
        return Action(str(tree.data), report=report)

    csvrpt = printrpt = _report


def _report_seats(token: Any) -> list[int]:
    """The DDS seats of a report's ``north`` .. ``west``, ``NS``/``EW``, or ``deal`` (``None``: all four)."""
    if token is None or str(token) == "deal":
        return [0, 1, 2, 3]
    text = str(token).lower()
    if text in ("ns", "ew"):
        return [0, 2] if text == "ns" else [1, 3]
    return [int(COMPASS[text])]


def _all_of(tests: list[Expr]) -> Expr:
    """The conjunction of ``tests``, each evaluated only on the rows the earlier ones pass."""

    def both(f: Frame, rows: NDArray[np.intp]) -> Array:
        out = np.ones(rows.size, dtype=np.int64)
        alive = np.arange(rows.size)
        for test in tests:
            passed = test(f, rows[alive]) != 0
            out[alive[~passed]] = 0
            alive = alive[passed]
            if alive.size == 0:
                break
        return out

    return both


def _signed(node: Node) -> int:
    sign, number = node.children
    assert isinstance(number, Token)
    return -int(number) if sign is not None and str(sign) == "-" else int(number)
