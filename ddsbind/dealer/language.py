"""Dealer's input language, parsed with lark and compiled to numpy functions over a batch.

The grammar is ``dealer.lark`` beside this module.  :func:`parse` returns a
:class:`Script`; its condition and each action's expressions are
:class:`Expr` objects: ``expr(frame, rows)`` evaluates the expression on the
deals ``rows`` of a :class:`Frame` as an int64 array (true is 1, false 0),
with C's integer rules (``/`` and ``%`` truncate toward zero; dividing by zero
gives 0).  ``&&``, ``||`` and ``?:`` evaluate their right-hand side only on
the rows that need it, so ``tricks()`` behind a cheap test is solved only
for the deals that pass it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import itertools
import re
from collections.abc import Callable
from typing import Any

import lark
import numpy as np
from numpy.typing import NDArray

from ddsbind.dealer.dealing import SUITS, DealerError, Hands, Predeal, cards_of
from ddsbind.dealer.scoring import imps, parse_contract, score

__all__ = ["Action", "Expr", "Frame", "Script", "parse", "substitute_parameters"]

Array = NDArray[np.int64]
Expr = Callable[["Frame", NDArray[np.intp]], Array]

_COMPASS = {"north": 0, "east": 1, "south": 2, "west": 3}
_SUITS = {"spade": 0, "heart": 1, "diamond": 2, "club": 3, "notrump": 4}
_ALIASES = {"ten": 0, "jack": 1, "queen": 2, "king": 3, "ace": 4, "top2": 5, "top3": 6, "top4": 7, "top5": 8, "c13": 9}
_VULN = {"none": 0, "ns": 1, "ew": 2, "all": 3, "both": 3}
_RANKS = "AKQJT98765432"
_INT64_MAX = (1 << 63) - 1
#: Largest ``pointcount``/``altcount`` weight: 52 cards of it still fit in 64 bits.
MAX_WEIGHT = 1 << 56
#: Most values one ``frequency`` table counts (dealer allocates a row per value too).
MAX_FREQUENCY_ROWS = 1_000_000


class Frame:
    """One batch being evaluated: its :class:`~ddsbind.dealer.dealing.Hands` and, on demand, DD tables.

    Parameters
    ----------
    hands : Hands
        The deals.
    solve : callable, optional
        ``solve(owners (k, 52) int8) -> (k, 5, 4) int8`` tables ``[strain S H D C NT][declarer N E S W]``;
        needed only by scripts calling ``tricks()``.
    pointcount, altcounts
        The script's weights per rank (ace first) for ``hcp`` and ``pt0``..``pt9``.
    """

    def __init__(
        self,
        hands: Hands,
        solve: Callable[[NDArray[np.int8]], NDArray[np.int8]] | None = None,
        pointcount: tuple[int, ...] = (4, 3, 2, 1),
        altcounts: tuple[tuple[int, ...], ...] | None = None,
        seed: int = 0,
        first: int = 0,
    ) -> None:
        from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS

        self.seed = seed
        self.first = first
        self._random: dict[int, NDArray[np.uint64]] = {}
        self._evaluations: dict[str, Array] = {}
        self.hands = hands
        self.solve = solve
        self.pointcount = pointcount
        self.altcounts = altcounts or DEFAULT_ALTCOUNTS

    # The per-deal solving state is made on first use: a batch no tricks() reaches (most of them,
    # and every library chunk, whose results are stored) never allocates it.

    @functools.cached_property
    def tables(self) -> NDArray[np.int8]:
        """``(n, 5, 4)`` DD tables of the batch, valid where :attr:`solved`."""
        return np.zeros((self.hands.n, 5, 4), dtype=np.int8)

    @functools.cached_property
    def solved(self) -> NDArray[np.bool_]:
        """``(n,)`` whether each deal's whole table is in :attr:`tables`."""
        return np.zeros(self.hands.n, dtype=bool)

    @functools.cached_property
    def low(self) -> NDArray[np.int8]:
        """What is known of each result ``[deal, strain, declarer]``: ``low <= tricks <= high`` (equal: exact)."""
        return np.zeros((self.hands.n, 5, 4), dtype=np.int8)

    @functools.cached_property
    def high(self) -> NDArray[np.int8]:
        """The upper bound beside :attr:`low`."""
        return np.full((self.hands.n, 5, 4), 13, dtype=np.int8)

    def column(self, array: NDArray[Any], rows: NDArray[np.intp], seat: int) -> NDArray[Any]:
        """``array[rows, seat]`` for an ``(n, 4, ...)`` array; a view, not a copy, when ``rows`` is every deal."""
        if rows.size == self.hands.n:
            return array[:, seat]
        return array[rows, seat]

    def random(self, site: int, rows: NDArray[np.intp], limit: Array) -> Array:
        """``rnd(limit)`` of call ``site`` on ``rows``: uniform in ``0 .. limit - 1`` (0 where ``limit <= 0``).

        Deal ``first + row`` of the run draws word ``first + row`` of its own
        Philox stream (key: the seed; counters from ``2**193 + site * 2**64``),
        so the values depend on the seed and the deal only, not on threads.
        """
        if site not in self._random:
            counter = (1 << 193) + site * (1 << 64) + self.first // 4
            words = np.random.Philox(key=self.seed, counter=counter).random_raw(self.hands.n + 4)
            self._random[site] = words[self.first % 4 : self.first % 4 + self.hands.n]
        words = self._random[site][rows]
        positive = limit > 0
        bound = np.where(positive, limit, 1).astype(np.uint64)
        return np.where(positive, (words % bound).astype(np.int64), 0)

    def evaluation(self, name: str) -> Array:
        """``cccc`` ``(n, 4)`` or ``quality`` ``(n, 4, 4)`` of the batch (:mod:`ddsbind.dealer.evaluation`), once."""
        if name not in self._evaluations:
            from ddsbind.dealer import evaluation

            function = evaluation.cccc if name == "cccc" else evaluation.quality
            self._evaluations[name] = function(self.hands.holding)
        return self._evaluations[name]

    def tables_for(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """DD tables ``(len(rows), 5, 4)`` of the deals ``rows``, each distinct deal solved once per batch."""
        todo = rows[~self.solved[rows]]
        if todo.size:
            if self.solve is None:
                raise DealerError("tricks() needs a solver")
            self.tables[todo] = self.solve(self.hands.owners[todo])  # the solver solves each distinct deal once
            self.solved[todo] = True
            self.low[todo] = self.high[todo] = self.tables[todo]
        return self.tables[rows]

    # The question planner.  With a ``solve`` that has ``answers(owners, questions)`` and
    # ``table_from`` (ddsbind.dealer.run.QuestionSolver), each call below solves only what it
    # asks of the deals it is given: a threshold is one target search, an exact result one
    # search, and a deal needing ``table_from`` results or more gets its whole table.  With a
    # plain ``solve`` (owners -> tables), every deal asked anything gets its whole table.

    def tricks(self, rows: NDArray[np.intp], strain: int, seat: int) -> Array:
        """``tricks(seat, strain)`` of the deals ``rows``: exact double-dummy tricks."""
        self.need(rows, [(strain, seat)])
        return self.low[rows, strain, seat].astype(np.int64)

    def at_least(self, rows: NDArray[np.intp], strain: int, seat: int, need: int) -> Array:
        """``tricks(seat, strain) >= need`` of the deals ``rows`` (1 or 0): a target search where not yet known."""
        if need <= 0 or need > 13:
            return np.full(rows.size, int(need <= 0), dtype=np.int64)
        answers = getattr(self.solve, "answers", None)
        if answers is None:
            return (self.tables_for(rows)[:, strain, seat] >= need).astype(np.int64)
        low, high = self.low[rows, strain, seat], self.high[rows, strain, seat]
        todo = rows[(low < need) & (high >= need)]
        if todo.size:
            made = answers(self.hands.owners[todo], [(strain, seat, need)])[:, 0] != 0
            self.low[todo[made], strain, seat] = np.maximum(self.low[todo[made], strain, seat], need)
            self.high[todo[~made], strain, seat] = np.minimum(self.high[todo[~made], strain, seat], need - 1)
        return (self.low[rows, strain, seat] >= need).astype(np.int64)

    def need(self, rows: NDArray[np.intp], pairs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
        """Make the exact results ``pairs`` ((strain, seat) each) known for the deals ``rows``, the cheapest way."""
        if not pairs or rows.size == 0:
            return
        answers = getattr(self.solve, "answers", None)
        if answers is None:
            self.tables_for(rows)
            return
        strains = [p[0] for p in pairs]
        seats = [p[1] for p in pairs]
        todo = rows[(self.low[rows][:, strains, seats] != self.high[rows][:, strains, seats]).any(axis=1)]
        if todo.size == 0:
            return
        if len(pairs) >= self.solve.table_from:  # type: ignore[union-attr]
            self.tables_for(todo)
            return
        exact = answers(self.hands.owners[todo], [(strain, seat, -1) for strain, seat in pairs])
        self.low[todo[:, None], strains, seats] = exact
        self.high[todo[:, None], strains, seats] = exact

    def known(self, rows: NDArray[np.intp]) -> NDArray[np.int8]:
        """``(len(rows), 5, 4)`` exact results known so far for the deals ``rows``; -1 where not solved exactly."""
        low, high = self.low[rows], self.high[rows]
        return np.where(low == high, low, -1).astype(np.int8)


@dataclasses.dataclass
class Action:
    """One action of the ``action`` list: its name, optional label and expressions, bounds."""

    kind: str  # the grammar's rule name: printall, print_hands (``print(...)``), average, ...
    label: str | None = None
    exprs: list[Expr] = dataclasses.field(default_factory=list)
    bounds: list[int] = dataclasses.field(default_factory=list)
    items: list[str | Expr] = dataclasses.field(default_factory=list)
    seats: list[int] = dataclasses.field(default_factory=list)  # print(seats): DDS seats, in the script's order
    #: ``evalcontract``: the contract (a :class:`ddsbind.scoring.Contract`, declarer set) and its vulnerability.
    contract: Any = None
    vulnerable: bool = False
    #: ``csvrpt``/``printrpt``: ``("text", quoted)``, ``("expr", Expr)``, ``("hands", seats)``, ``("trix", seats)``.
    report: list[tuple[str, Any]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Script:
    """A parsed dealer script.

    ``dealer`` and ``vulnerable`` are ``None`` when the script leaves them out
    (PBN output then rotates them with the board number, as dealer does).
    """

    generate: int | None = None
    produce: int | None = None
    dealer: int | None = None
    vulnerable: int | None = None
    predeal: Predeal = dataclasses.field(default_factory=Predeal)
    condition: Expr | None = None
    actions: list[Action] = dataclasses.field(default_factory=list)
    uses_tricks: bool = False
    #: The exact ``tricks()`` results ``(strain, seat)`` the actions read on every accepted deal,
    #: solved together by the question planner (a threshold such as ``tricks(...) >= 9`` is not
    #: among them: it is a target search).
    action_tricks: tuple[tuple[int, int], ...] = ()
    pointcount: tuple[int, ...] = (4, 3, 2, 1)
    altcounts: tuple[tuple[int, ...], ...] | None = None

    @property
    def prints(self) -> bool:
        """True when an action prints each deal (DealerV2's ``csvrpt`` and ``export`` included)."""
        return any(a.kind.startswith("print") or a.kind in ("csvrpt", "export") for a in self.actions)

    @property
    def collects(self) -> bool:
        """True when an action prints the deals at the end of the run (``print(seats)``)."""
        return any(a.kind == "print_hands" for a in self.actions)


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = importlib.resources.files("ddsbind.dealer").joinpath("dealer.lark").read_text(encoding="utf-8")
    # lark keeps the analysed grammar in a cache file, and a fresh process loads it instead of building
    # the LALR tables again (most of a small script's start-up otherwise).  The file is in the user's
    # own cache folder, not the shared temporary one: lark unpickles it.  lark checks the grammar's
    # hash stored in it and rebuilds (and rewrites) on any mismatch or damage.
    return lark.Lark(
        grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=_grammar_cache() or False
    )


def _grammar_cache() -> str | None:
    """``$XDG_CACHE_HOME/ddsbind/dealer-grammar.lark`` (default ``~/.cache``), or None when it cannot be made."""
    import os
    import sys

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "ddsbind")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    python = "{}{}".format(*sys.version_info[:2])
    return os.path.join(folder, f"dealer-grammar-lark{lark.__version__}-py{python}.lark")


_NAMES = {
    "INT": "a number",
    "NAME": "a name",
    "COMPASS": "a seat (north, east, south, west)",
    "SUIT": "a suit (spades, hearts, diamonds, clubs)",
    "STRAIN": "a strain (spades .. clubs, notrump)",
    "HOLDING": "a holding (suit letter and ranks, e.g. SAQ2)",
    "CARD": "a card (rank and suit, e.g. TC)",
    "SHAPE": "a shape (4 digits or x, e.g. 54xx)",
    "CONTRACT": "a contract (x3N, x4S...)",
    "ZCONTRACT": "a DealerV2 contract (z3N, z4Hx, z6Sxx...)",
    "SIDE": "a side (NS, EW)",
    "DOTNUM": "a number with a point (5.5, .25)",
    "SCORE_VUL": "vul or nv",
    "VULN": "none, NS, EW or all",
    "RPAR": "')'",
    "LPAR": "'('",
    "COMMA": "','",
    "$END": "end of input",
    "BANG": "'!'",
    "MINUS": "'-'",
    "COUNT_FN": "a function (hcp, controls, losers, pt0..pt9...)",
    "STRING": "a quoted string",
}


def _expected(expected: set[str] | frozenset[str]) -> str:
    names = sorted({_NAMES.get(e, e.lower().strip('"')) for e in expected if not e.startswith("__")})
    if len(names) > 6:
        names = [*names[:6], "..."]
    return ", ".join(names)


# Words that may stand before "(": the language's functions and keywords.
_CALLABLE = re.compile(
    r"(hcps?|pt[0-9]|tens?|jacks?|queens?|kings?|aces?|top[2-5]|c13|controls?|losers?|spades?|hearts?|diamonds?"
    r"|clubs?|shape|hascard|tricks?|score|imps?|rnd|cccc|quality|par|print|printcompact|printoneline|printes|frequency|average"
    r"|condition|action|generate|produce|dealer|vulnerable|predeal|pointcount|altcount|and|or|not"
    r"|ltc|evalcontract|csvrpt|printrpt|trix|export)"
)
_BLANKED = re.compile(r'"[^"]*"|/\*.*?\*/|//[^\n]*|#[^\n]*', re.DOTALL)


def _unknown_call(text: str, end: int, source: str) -> DealerError | None:
    """The first ``name(`` before offset ``end`` whose name is no function of the language, as an error."""
    blanked = _BLANKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text[:end])
    for match in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", blanked):
        if not _CALLABLE.fullmatch(match.group(1)):
            line = blanked.count("\n", 0, match.start()) + 1
            column = match.start() - (blanked.rfind("\n", 0, match.start()) + 1) + 1
            return DealerError(f"{source}:{line}:{column}: unknown function {match.group(1)!r}")
    return None


def _syntax_error(text: str, exc: lark.exceptions.UnexpectedInput, source: str) -> DealerError:
    line, column = exc.line or 1, exc.column or 1
    where = f"{source}:{line}:{column}"
    offset = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    unknown = _unknown_call(text, min(len(text), offset + 1), source)
    if unknown is not None:
        return unknown
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        token = exc.token
        got = "end of input" if token.type == "$END" else repr(str(token))
        if str(token) == "(":
            before = text.splitlines()[line - 1][: column - 1].rstrip() if line >= 1 else ""
            name = re.search(r"([A-Za-z_][A-Za-z0-9_]*)$", before)
            if name:
                return DealerError(f"{where}: unknown function {name.group(1)!r}")
        return DealerError(f"{where}: unexpected {got}, expected {_expected(exc.expected)}")
    if isinstance(exc, lark.exceptions.UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else ""
        return DealerError(f"{where}: unexpected {char!r}, expected {_expected(exc.allowed)}")
    return DealerError(f"{where}: unexpected end of input")


def parse(text: str, source: str = "<script>") -> Script:
    """Parse dealer's input language into a :class:`Script`.

    Raises
    ------
    DealerError
        One line: ``source:line:column: what was found, what was expected``
        (or what is wrong: unknown name or function, bad predeal...).

    Examples
    --------
    >>> script = parse("produce 3\\ncondition hcp(north) >= 15\\naction printoneline")
    >>> script.produce, [a.kind for a in script.actions]
    (3, ['printoneline'])
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, as editors on Windows write one
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(text, exc, source) from None
    compiler = _Compiler(source)
    try:
        return compiler.script(tree, text)
    except RecursionError:
        raise DealerError(f"{source}:{compiler.line}: expression nested too deeply") from None


_PARAMETER = re.compile(r"\$([0-9])")
#: A comment (left alone), a quoted string (parameters replaced inside), or a parameter.
_PARAMETER_SCAN = re.compile(r'(?P<comment>#[^\n]*|//[^\n]*|/\*.*?\*/)|(?P<string>"[^"]*")|\$(?P<number>[0-9])', re.S)


def substitute_parameters(text: str, parameters: dict[int, str] | None = None, source: str = "<script>") -> str:
    """DealerV2's script parameters: each ``$0``..``$9`` in ``text`` replaced by ``parameters[N]``, as text.

    The replacement is textual, before parsing, in the script and its
    quoted strings (comments are left alone, so they can mention ``$1``);
    the replaced text is not scanned again.  ``$`` followed by anything but
    a digit is left alone (the parser refuses it).

    Raises
    ------
    DealerError
        ``source:line: $N is used but not given`` for a parameter the
        script uses and ``parameters`` lacks.

    Examples
    --------
    >>> substitute_parameters("condition hcp(north) >= $1  # at least $1", {1: "15"})
    'condition hcp(north) >= 15  # at least $1'
    """
    given = parameters or {}

    def value(number: int, at: int) -> str:
        if number not in given:
            line = text.count("\n", 0, at) + 1
            raise DealerError(f"{source}:{line}: ${number} is used but not given (give it with -P {number}=VALUE)")
        return given[number]

    def replace(match: re.Match[str]) -> str:
        if match.group("comment") is not None:
            return match.group(0)
        if match.group("string") is not None:
            start = match.start()
            return _PARAMETER.sub(lambda m: value(int(m.group(1)), start + m.start()), match.group(0))
        return value(int(match.group("number")), match.start())

    return _PARAMETER_SCAN.sub(replace, text)


def _c_div(a: Array, b: Array) -> Array:
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
    return np.where(b == 0, 0, q)


def _c_mod(a: Array, b: Array) -> Array:
    return np.where(b == 0, 0, a - _c_div(a, b) * b)


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


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and word not in ("hcps",) else word.removesuffix("s")


class _Compiler:
    def __init__(self, source: str) -> None:
        self.source = source
        self.defines: dict[str, lark.Tree[Any]] = {}
        self.compiled: dict[str, Expr] = {}
        self.busy: set[str] = set()
        self.spans: dict[str, tuple[int, int]] = {}
        self.line: int | str = "?"
        self.uses_tricks = False
        self.rnd_sites = 0
        self.dealer = 0  # par(): dealer's defaults, north and nobody vulnerable, unless the script says
        self.vulnerable = 0
        self.pointcount: tuple[int, ...] = (4, 3, 2, 1)
        self.altcounts: list[tuple[int, ...]] | None = None

    def fail(self, node: lark.Tree[Any] | lark.Token, message: str) -> DealerError:
        meta = node if isinstance(node, lark.Token) else node.meta
        line = getattr(meta, "line", "?")
        column = getattr(meta, "column", "?")
        return DealerError(f"{self.source}:{line}:{column}: {message}")

    def script(self, tree: lark.Tree[Any], text: str) -> Script:
        script = Script()
        action_trees: list[lark.Tree[Any]] = []
        has_action = False
        conditions: list[lark.Tree[Any]] = []
        lengths: list[Expr] = []
        for statement in tree.children:
            kind = statement.data
            args: list[Any] = list(statement.children)
            if kind == "generate":  # dealer keeps the first generate and the first produce
                if script.generate is None:
                    script.generate = int(args[0])
            elif kind == "produce":
                if script.produce is None:
                    script.produce = int(args[0])
            elif kind == "dealer":
                script.dealer = self.dealer = _COMPASS[str(args[0])]
            elif kind == "vulnerable":
                script.vulnerable = self.vulnerable = _VULN[str(args[0]).lower()]
            elif kind == "predeal":
                seat = -1
                for token in args:
                    if isinstance(token, lark.Tree):  # suit(seat) == n: a length the deals must have
                        lengths.append(self.suit_length(token))
                    elif token.type == "COMPASS":
                        seat = _COMPASS[str(token)]
                    else:
                        try:
                            cards = cards_of(str(token))
                        except DealerError as exc:
                            raise self.fail(token, str(exc)) from None
                        try:
                            script.predeal = script.predeal.add(seat, cards)
                        except DealerError as exc:
                            raise self.fail(token, str(exc)) from None
            elif kind == "pointcount":
                self.pointcount = self.weights(args)
                if len(self.pointcount) > 13:
                    raise self.fail(statement, "pointcount takes at most 13 numbers (ace down to two)")
            elif kind == "altcount":
                number = int(args[0])
                if not 0 <= number <= 9:
                    raise self.fail(args[0], "altcount numbers are 0 .. 9")
                if len(args) - 1 > 13:
                    raise self.fail(statement, "altcount takes at most 13 weights (ace down to two)")
                from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS

                counts = list(self.altcounts or DEFAULT_ALTCOUNTS)
                counts[number] = self.weights(args[1:])
                self.altcounts = counts
            elif kind in ("condition", "bare_condition"):
                if kind == "bare_condition":
                    self.check_call(text, statement)
                conditions.append(args[0])
            elif kind == "action":  # a later action list replaces an earlier one, as in dealer
                action_trees = [a for a in args if a is not None]
                has_action = True
            elif kind == "define":
                self.defines[str(args[0])] = args[1]
        script.pointcount = self.pointcount
        script.altcounts = tuple(self.altcounts) if self.altcounts else None
        compiled = [self.checked(c) for c in conditions]  # every condition is checked; the last one counts
        script.condition = compiled[-1] if compiled else None
        if lengths:
            script.condition = _all_of([*lengths, *([script.condition] if script.condition else [])])
        script.actions = [self.action(a) for a in action_trees] if has_action else [Action("printall")]
        script.uses_tricks = self.uses_tricks
        pairs: set[tuple[int, int]] = set()
        for a in action_trees:
            pairs |= self.exact_tricks(a)
        for action in script.actions:
            if action.kind == "evalcontract":
                pairs.add((int(action.contract.strain), int(action.contract.declarer)))
            for what, seats in action.report:
                if what == "trix":
                    pairs |= {(strain, seat) for seat in seats for strain in range(5)}
        script.action_tricks = tuple(sorted(pairs))
        return script

    def weights(self, tokens: list[lark.Token]) -> tuple[int, ...]:
        """``pointcount``/``altcount`` weights; each at most :data:`MAX_WEIGHT` so sums stay in 64 bits."""
        for token in tokens:
            if int(token) > MAX_WEIGHT:
                raise self.fail(token, f"weight {int(token)} is too large (at most {MAX_WEIGHT})")
        return tuple(int(t) for t in tokens)

    def suit_length(self, tree: lark.Tree[Any]) -> Expr:
        """``spades(north) == 1`` in a predeal: the condition that seat holds that many cards of the suit."""
        suit_token, seat_token, number = list[Any](tree.children)
        count = int(number)
        if not 0 <= count <= 13:
            raise self.fail(number, f"a suit length is 0 .. 13, not {count}")
        suit = _SUITS[_singular(str(suit_token))]
        seat = _COMPASS[str(seat_token)]
        return lambda f, rows: (f.column(f.hands.lengths[:, :, suit], rows, seat) == count).astype(np.int64)

    def check_call(self, text: str, statement: lark.Tree[Any]) -> None:
        """A condition without ``condition`` starting with ``(`` right after a name: a call of an unknown function."""
        start = statement.meta.start_pos
        if text[start] == "(":
            unknown = _unknown_call(text, start + 1, self.source)
            if unknown is not None:
                raise unknown

    def action(self, tree: lark.Tree[Any]) -> Action:
        kind = str(tree.data)
        args: list[Any] = list(tree.children)
        if kind in ("printall", "printew", "printpbn"):
            return Action(kind)
        if kind == "print_hands":
            return Action(kind, seats=[_COMPASS[str(t)] for t in args])
        if kind in ("printcompact", "printoneline"):
            return Action(kind, exprs=[self.checked(args[0])] if args and args[0] is not None else [])
        if kind == "average":
            label = str(args[0])[1:-1] if args[0] is not None else None
            return Action(kind, label, [self.checked(args[1])])
        if kind == "evalcontract":
            side, text, vul = (str(a) for a in args)
            level, strain, doubled = _z_contract(text)
            seat = 2 if side.lower() == "ns" else 3  # DealerV2 asks DDS for south (NS) or west (EW)
            from ddsbind.game import Seat, Strain
            from ddsbind.scoring import Contract

            contract = Contract(level, Strain(strain), doubled, Seat(seat))
            self.uses_tricks = True
            tricks: Expr = lambda f, rows: f.tricks(rows, strain, seat)  # noqa: E731
            return Action(kind, side.upper(), [tricks], contract=contract, vulnerable=vul == "vul")
        if kind == "export":
            return Action(kind, seats=_report_seats(args[0]))
        if kind in ("csvrpt", "printrpt"):
            report: list[tuple[str, Any]] = []
            for item in args:
                if isinstance(item, lark.Token) and item.type == "STRING":
                    report.append(("text", "'" + str(item)[1:-1].replace("'", "''") + "'"))
                elif isinstance(item, lark.Tree) and item.data in ("report_hands", "report_trix"):
                    seats = _report_seats(item.children[0] if item.children else None)
                    if item.data == "report_trix":
                        self.uses_tricks = True
                    report.append(("hands" if item.data == "report_hands" else "trix", seats))
                else:
                    report.append(("expr", self.checked(item)))
            return Action(kind, report=report)
        if kind == "frequency":
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
            return Action(kind, label, exprs, bounds)
        items: list[str | Expr] = []
        for item in args:
            if isinstance(item, lark.Token) and item.type == "STRING":
                items.append(str(item)[1:-1])
            elif isinstance(item, lark.Token) and item.type == "NEWLINE_ESC":
                items.append("\n")
            else:
                items.append(self.checked(item))
        return Action("printes", items=items)

    def span(self, node: lark.Tree[Any] | lark.Token) -> tuple[int, int]:
        """The least and greatest value ``node`` can take on any deal (exact integers), to refuse overflow.

        Raises :class:`DealerError` naming the line when a number or an
        intermediate value does not fit in 64 bits.
        """
        if isinstance(node, lark.Token):
            return (0, 0)
        kind = node.data
        c: list[Any] = list(node.children)
        if kind == "number":
            value = int(c[0])
            if value > _INT64_MAX:
                raise self.fail(c[0], f"number {value} is too large (at most {_INT64_MAX})")
            return value, value
        if kind == "dotnum":
            value = _dotnum(str(c[0]))
            return value, value
        if kind == "variable":
            name = str(c[0])
            if name not in self.spans:
                if name in self.busy or name not in self.defines:
                    return (0, 0)  # reported by expr()
                self.busy.add(name)
                self.spans[name] = self.span(self.defines[name])
                self.busy.discard(name)
            return self.spans[name]
        if kind == "binary":
            chain = _left_chain(node, ("binary",))
            low, high = self.span(chain[0].children[0])
            for link in chain:
                op = str(link.children[1])
                r_low, r_high = self.span(link.children[2])
                if op in ("+", "-", "*"):
                    pairs = [(a, b) for a in (low, high) for b in (r_low, r_high)]
                    values = [a + b if op == "+" else a - b if op == "-" else a * b for a, b in pairs]
                    low, high = min(values), max(values)
                elif op in ("/", "%"):
                    top = max(abs(low), abs(high))
                    low, high = -top, top
                else:
                    low, high = 0, 1
                if low < -_INT64_MAX - 1 or high > _INT64_MAX:
                    raise self.fail(
                        link, f"values can reach {high if high > _INT64_MAX else low}, beyond 64-bit integers"
                    )
            return low, high
        if kind == "sign":
            low, high = self.span(c[1])
            return (low, high) if str(c[0]) == "+" else (-high, -low)
        if kind == "select":
            yes, no = self.span(c[1]), self.span(c[2])
            self.span(c[0])
            return min(yes[0], no[0]), max(yes[1], no[1])
        if kind in ("and_", "or_"):
            for link in _left_chain(node, (kind,)):
                self.span(link.children[1])
            self.span(_left_chain(node, (kind,))[0].children[0])
            return 0, 1
        if kind == "not_":
            self.span(c[0])
            return 0, 1
        if kind == "count_call":
            word = str(c[0])
            if word.startswith(("hcp",)):
                weights: tuple[int, ...] = self.pointcount
            elif word.startswith(("control", "loser")):
                weights = (3,)
            elif word == "ltc":
                weights = (300,)
            else:
                from ddsbind.dealer.dealing import DEFAULT_ALTCOUNTS

                number = (
                    int(word[2])
                    if word.startswith("pt")
                    else _ALIASES[_singular(word) if not word.startswith(("top", "c13")) else word]
                )
                weights = (self.altcounts or DEFAULT_ALTCOUNTS)[number]
            return 0, 4 * sum(weights)
        if kind == "score_call":
            low, high = self.span(c[2])
            top = 200 * max(abs(low), abs(high)) + 10_000
            return -top, top
        if kind == "imps_call":
            self.span(c[0])
            return -24, 24
        if kind == "rnd_call":
            return 0, max(self.span(c[0])[1] - 1, 0)
        if kind == "cccc_call":
            return -2_000, 20_000
        if kind == "quality_call":
            return 0, 4_000
        if kind == "par_call":
            return -8_000, 8_000
        return 0, 13  # suit lengths, tricks, shape() and hascard() (0 or 1)

    def checked(self, node: lark.Tree[Any]) -> Expr:
        """:meth:`expr` of a whole expression, after :meth:`span` proved its values fit in 64 bits."""
        self.line = getattr(node.meta, "line", self.line)
        self.span(node)
        return self.expr(node)

    def expr(self, node: lark.Tree[Any] | lark.Token) -> Expr:
        if isinstance(node, lark.Token):
            raise self.fail(node, f"unexpected {str(node)!r}")
        kind = node.data
        c: list[Any] = list(node.children)
        if kind in ("number", "dotnum"):
            value = int(c[0]) if kind == "number" else _dotnum(str(c[0]))
            return lambda f, rows: np.full(rows.size, value, dtype=np.int64)
        if kind == "variable":
            name = str(c[0])
            if name not in self.defines:
                raise self.fail(c[0], f"unknown name {name!r}")
            if name not in self.compiled:
                if name in self.busy:
                    raise self.fail(c[0], f"{name!r} is defined in terms of itself")
                self.busy.add(name)
                self.compiled[name] = self.expr(self.defines[name])
                self.busy.discard(name)
            return self.compiled[name]
        if kind == "binary" and (threshold := self.threshold(node)) is not None:
            strain, seat, need, negate = threshold
            self.uses_tricks = True
            if negate:
                return lambda f, rows: 1 - f.at_least(rows, strain, seat, need)
            return lambda f, rows: f.at_least(rows, strain, seat, need)
        if kind == "binary":  # a left-leaning chain (a + b - c ...) compiled as a loop: no recursion per term
            chain = _left_chain(node, ("binary",))
            first = self.expr(chain[0].children[0])
            steps = [(_BINARY[str(link.children[1])], self.expr(link.children[2])) for link in chain]

            def binary(f: Frame, rows: NDArray[np.intp]) -> Array:
                value = first(f, rows)
                for op, right in steps:
                    value = op(value, right(f, rows))
                return value

            return binary
        if kind == "sign":
            inner = self.expr(c[1])
            if str(c[0]) == "+":
                return inner
            return lambda f, rows: -inner(f, rows)
        if kind == "not_":
            inner = self.expr(c[0])
            return lambda f, rows: (inner(f, rows) == 0).astype(np.int64)
        if kind in ("and_", "or_"):  # a chain a && b && c ... evaluated term by term on the rows still undecided
            links = _left_chain(node, (kind,))
            terms = [self.expr(links[0].children[0]), *(self.expr(link.children[1]) for link in links)]
            want = kind == "and_"

            def logic(f: Frame, rows: NDArray[np.intp]) -> Array:
                out = np.full(rows.size, 1 if want else 0, dtype=np.int64)
                open_ = np.arange(rows.size)
                for term in terms:
                    value = term(f, rows[open_]) != 0
                    decided = ~value if want else value
                    out[open_[decided]] = 0 if want else 1
                    open_ = open_[~decided]
                    if open_.size == 0:
                        break
                return out

            return logic
        if kind == "select":
            test, yes, no = self.expr(c[0]), self.expr(c[1]), self.expr(c[2])

            def select(f: Frame, rows: NDArray[np.intp]) -> Array:
                t = test(f, rows) != 0
                out = np.empty(rows.size, dtype=np.int64)
                if t.any():
                    out[t] = yes(f, rows[t])
                if (~t).any():
                    out[~t] = no(f, rows[~t])
                return out

            return select
        if kind == "count_call":
            return self.count_call(c)
        if kind == "suit_call":
            suit = _SUITS[_singular(str(c[0]))]
            seat = _COMPASS[str(c[1])]
            return lambda f, rows: f.column(f.hands.lengths[:, :, suit], rows, seat).astype(np.int64)
        if kind == "shape_call":
            return self.shape_call(c)
        if kind == "hascard_call":
            seat = _COMPASS[str(c[0])]
            card_text = str(c[1])
            card = 13 * SUITS.index(card_text[1]) + _RANKS.index(card_text[0])
            return lambda f, rows: (f.hands.owners[rows, card] == seat).astype(np.int64)
        if kind == "tricks_call":
            seat = _COMPASS[str(c[0])]
            strain = _SUITS[_singular(str(c[1]))]
            self.uses_tricks = True
            return lambda f, rows: f.tricks(rows, strain, seat)
        if kind == "score_call":
            vul = str(c[0]) == "vul"
            if c[1].type == "ZCONTRACT":
                level, strain, doubled = _z_contract(str(c[1]))
            else:
                (level, strain), doubled = parse_contract(str(c[1])), 0
            tricks = self.expr(c[2])
            return lambda f, rows: score(vul, level, strain, tricks(f, rows), doubled)
        if kind == "imps_call":
            inner = self.expr(c[0])
            return lambda f, rows: imps(inner(f, rows))
        if kind == "rnd_call":
            limit = self.expr(c[0])
            site = self.rnd_sites
            self.rnd_sites += 1
            return lambda f, rows: f.random(site, rows, limit(f, rows))
        if kind == "cccc_call":
            seat = _COMPASS[str(c[0])]
            return lambda f, rows: f.column(f.evaluation("cccc"), rows, seat)
        if kind == "quality_call":
            seat, suit = _COMPASS[str(c[0])], _SUITS[_singular(str(c[1]))]
            return lambda f, rows: f.column(f.evaluation("quality")[:, :, suit], rows, seat)
        if kind == "par_call":
            sign = 1 if str(c[0]).lower() == "ns" else -1
            dealer, vulnerable = self.dealer, self.vulnerable
            self.uses_tricks = True
            return lambda f, rows: sign * _par_scores(f.tables_for(rows), dealer, vulnerable)
        raise self.fail(node, f"unsupported {kind}")  # pragma: no cover - the grammar has no other rule

    def resolve(self, node: Any) -> Any:
        """``node``, or the definition a name stands for (followed through names, stopping at a cycle)."""
        seen: set[str] = set()
        while isinstance(node, lark.Tree) and node.data == "variable" and str(node.children[0]) in self.defines:
            name = str(node.children[0])
            if name in seen:
                break
            seen.add(name)
            node = self.defines[name]
        return node

    def tricks_pair(self, node: Any) -> tuple[int, int] | None:
        """``(strain, seat)`` when ``node`` is a ``tricks()`` call (directly or through names)."""
        node = self.resolve(node)
        if isinstance(node, lark.Tree) and node.data == "tricks_call":
            return _SUITS[_singular(str(node.children[1]))], _COMPASS[str(node.children[0])]
        return None

    def constant(self, node: Any) -> int | None:
        """The value of a number literal (``9``, ``-1``, through names), else None."""
        node = self.resolve(node)
        if isinstance(node, lark.Tree) and node.data == "number":
            return int(str(node.children[0]))
        if isinstance(node, lark.Tree) and node.data == "sign":
            inner = self.constant(node.children[1])
            return None if inner is None else (inner if str(node.children[0]) == "+" else -inner)
        return None

    def threshold(self, node: lark.Tree[Any]) -> tuple[int, int, int, bool] | None:
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
            if not isinstance(item, lark.Tree):
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

    def count_call(self, c: list[Any]) -> Expr:
        name = str(c[0])
        seat = _COMPASS[str(c[1])]
        suit = _SUITS[_singular(str(c[2]))] if c[2] is not None else None
        word = _singular(name) if not name.startswith(("pt", "top", "c13")) else name
        getter: Callable[[Frame], NDArray[Any]]
        totals: Callable[[Frame], tuple[int, ...]] | None = None
        if word in ("hcp", "hcps"):
            totals = lambda f: f.pointcount  # noqa: E731
        elif word == "control":
            totals = lambda f: (2, 1)  # noqa: E731
        elif word == "loser":
            getter = lambda f: f.hands.losers  # noqa: E731
        elif word == "ltc":
            getter = lambda f: f.hands.ltc  # noqa: E731
        else:
            number = int(word[2]) if word.startswith("pt") else _ALIASES[word]
            totals = lambda f: f.altcounts[number]  # noqa: E731
        if totals is not None:
            weights = totals
            getter = lambda f: f.hands.count(weights(f))  # noqa: E731
        if suit is None:
            if totals is not None:
                return lambda f, rows: f.column(f.hands.totals(totals(f)), rows, seat).astype(np.int64)
            return lambda f, rows: f.column(getter(f), rows, seat).sum(axis=1, dtype=np.int64)
        return lambda f, rows: f.column(getter(f)[:, :, suit], rows, seat).astype(np.int64)

    def shape_call(self, c: list[Any]) -> Expr:
        seat = _COMPASS[str(c[0])]
        allowed = np.zeros(14**3, dtype=bool)
        for item in c[1:]:
            separator, term = item.children
            codes = self.shape_codes(term)
            allowed[codes] = separator is None or str(separator.children[0]) != "-"
        return lambda f, rows: allowed[f.column(f.hands.shape_codes, rows, seat)].astype(np.int64)

    def shape_codes(self, term: lark.Tree[Any]) -> list[int]:
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


def _par_scores(tables: NDArray[np.int8], dealer: int, vulnerable: int) -> Array:
    """Par scores from NS's view (DDS's ``DealerPar``, ``dealer`` bidding first) of DD tables ``(k, 5, 4)``.

    ``vulnerable`` is the script's 0 none, 1 NS, 2 EW, 3 all.
    """
    from ddsbind.solver import dealer_par

    vul = ("none", "ns", "ew", "both")[vulnerable]
    return np.array([dealer_par(table, dealer, vul).score for table in tables], dtype=np.int64)


def _report_seats(token: Any) -> list[int]:
    """The DDS seats of a report's ``north`` .. ``west``, ``NS``/``EW``, or ``deal`` (``None``: all four)."""
    if token is None or str(token) == "deal":
        return [0, 1, 2, 3]
    text = str(token).lower()
    if text in ("ns", "ew"):
        return [0, 2] if text == "ns" else [1, 3]
    return [_COMPASS[text]]


def _z_contract(text: str) -> tuple[int, int, int]:
    """DealerV2's ``z6Hx``: ``(level, strain 0..4 = S H D C NT, doubled 0/1/2)``."""
    return int(text[1]), "SHDCN".index(text[2]), len(text) - 3


def _dotnum(text: str) -> int:
    """DealerV2's dotnum (``5.5``, ``.25``, ``13.``) as 100 times its value: ``550``, ``25``, ``1300``."""
    whole, _, fraction = text.partition(".")
    return int(whole or 0) * 100 + int((fraction + "00")[:2])


def _left_chain(node: lark.Tree[Any], kinds: tuple[str, ...]) -> list[lark.Tree[Any]]:
    """The nodes of ``kinds`` down the left spine of ``node``, innermost (first evaluated) first."""
    chain = []
    while isinstance(node, lark.Tree) and node.data in kinds:
        chain.append(node)
        node = node.children[0]
    return chain[::-1]


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


def _signed(node: lark.Tree[Any]) -> int:
    sign, number = node.children
    assert isinstance(number, lark.Token)
    return -int(number) if sign is not None and str(sign) == "-" else int(number)


#: Every hand shape (spades, hearts, diamonds, clubs), 560 of them.
_ALL_SHAPES = tuple((s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h))
