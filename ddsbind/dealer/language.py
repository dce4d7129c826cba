"""Dealer's input language: :func:`parse` a script into a :class:`Script` of numpy functions over a batch.

The language lives in three modules: :mod:`~ddsbind.dealer.syntax` (the
lark grammar ``dealer.lark``, syntax errors, DealerV2's ``$1`` parameters),
:mod:`~ddsbind.dealer.compiler` (one method per grammar rule: its 64-bit
range check and its numpy code together) and :mod:`~ddsbind.dealer.frame`
(the batch being evaluated and the question planner, with its
:class:`~ddsbind.dealer.frame.Solver` passed in).  This module is their
entry point.
"""

from __future__ import annotations

from ddsbind.dealer.compiler import MAX_FREQUENCY_ROWS, MAX_WEIGHT, Action, Compiler, Script
from ddsbind.dealer.dealing import DealerError
from ddsbind.dealer.frame import Expr, Frame, Solver
from ddsbind.dealer.syntax import parse_tree, substitute_parameters

__all__ = [
    "MAX_FREQUENCY_ROWS",
    "MAX_WEIGHT",
    "Action",
    "Expr",
    "Frame",
    "Script",
    "Solver",
    "parse",
    "substitute_parameters",
]


def parse(text: str, source: str = "<script>") -> Script:
    """Parse dealer's input language into a :class:`Script`.

    Raises
    ------
    DealerError
        One line: ``source:line:column: what was found, what was expected``
        (or what is wrong: unknown name or function, bad predeal...).
    ContractError
        A contract of ``score()`` or ``evalcontract()`` that is no contract.

    Examples
    --------
    >>> script = parse("produce 3\\ncondition hcp(north) >= 15\\naction printoneline")
    >>> script.produce, [a.kind for a in script.actions]
    (3, ['printoneline'])
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, as editors on Windows write one
    tree = parse_tree(text, source)
    compiler = Compiler(source, text)
    try:
        return compiler.compile(tree)
    except RecursionError:
        raise DealerError(f"{source}:{compiler.line}: expression nested too deeply") from None
