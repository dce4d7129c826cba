"""The dealer language's syntax: the lark parser of ``dealer.lark``, its one-line errors, script parameters.

:func:`parse_tree` reads a script into a tree of :class:`Node` and
:class:`Token` (or raises :class:`~ddsbind.dealer.dealing.DealerError` as
``source:line:column: what was found, what was expected``);
:mod:`ddsbind.dealer.compiler` turns the tree into numpy functions.  The
tree is lark's, copied into these two small classes of our own, so that a
script parsed before is read back from the tree cache without importing
lark at all (a fifth of a small script's start-up).
:func:`substitute_parameters` is DealerV2's textual ``$1`` .. ``$9``,
applied before parsing.
"""

from __future__ import annotations

import functools
import os
import re
from typing import TYPE_CHECKING, Any

from ddsbind.dealer.dealing import DealerError

if TYPE_CHECKING:
    import lark

__all__ = ["Node", "Token", "parse_tree", "substitute_parameters", "unknown_call"]


class Token(str):
    """A terminal of a parsed script: its text, with ``type`` (the terminal's name in ``dealer.lark``), ``line`` and
    ``column`` (1-based, None when unknown)."""

    type: str
    line: int | None
    column: int | None

    def __new__(cls, type_: str, value: str, line: int | None = None, column: int | None = None) -> Token:
        token = super().__new__(cls, value)
        token.type, token.line, token.column = type_, line, column
        return token

    def __reduce__(self) -> tuple[Any, tuple[str, str, int | None, int | None]]:
        return Token, (self.type, str(self), self.line, self.column)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


class Node:
    """A rule's node of a parsed script (lark's tree, without lark).

    ``data`` is the rule's name in ``dealer.lark`` (an alias such as
    ``binary`` where the grammar gives one); ``children`` are nodes, tokens
    and None (an optional part absent); ``line``, ``column`` (1-based) and
    ``start_pos`` (0-based offset in the text) say where the rule's text
    starts, None for a rule that matched no text.  Equal nodes have equal
    rules, positions and children.
    """

    __slots__ = ("children", "column", "data", "line", "start_pos")

    def __init__(
        self,
        data: str,
        children: list[Any],
        line: int | None = None,
        column: int | None = None,
        start_pos: int | None = None,
    ) -> None:
        self.data = data
        self.children = children
        self.line = line
        self.column = column
        self.start_pos = start_pos

    def __reduce__(self) -> tuple[type[Node], tuple[Any, ...]]:
        return Node, (self.data, self.children, self.line, self.column, self.start_pos)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        return (self.data, self.line, self.column, self.start_pos) == (
            other.data,
            other.line,
            other.column,
            other.start_pos,
        ) and self.children == other.children

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Node({self.data!r}, {self.children!r})"


def _from_lark(tree: lark.Tree[Any]) -> Node:
    """lark's ``tree`` as :class:`Node` and :class:`Token`, walked with a stack of its own (5,000 deep is fine)."""
    import lark

    def node(item: lark.Tree[Any]) -> Node:
        meta = item.meta
        return Node(
            str(item.data),
            list(item.children),
            getattr(meta, "line", None),
            getattr(meta, "column", None),
            getattr(meta, "start_pos", None),
        )

    root = node(tree)
    stack = [root]
    while stack:
        parent = stack.pop()
        children = parent.children
        for i, child in enumerate(children):
            if isinstance(child, lark.Tree):
                children[i] = node(child)
                stack.append(children[i])
            elif isinstance(child, lark.Token):
                children[i] = Token(child.type, str(child), child.line, child.column)
    return root


@functools.lru_cache(maxsize=1)
def _grammar() -> str:
    # Beside this module: the package holds compiled modules, so it is never imported from a zip file (and
    # importlib.resources would cost every start-up its readers, zipfile among them).
    with open(os.path.join(os.path.dirname(__file__), "dealer.lark"), encoding="utf-8") as handle:
        return handle.read()


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    import lark

    grammar = _grammar()
    # lark keeps the analysed grammar in a cache file, and a fresh process loads it instead of building
    # the LALR tables again (most of a small script's start-up otherwise).  The file is in the user's
    # own cache folder, not the shared temporary one: lark unpickles it.  lark checks the grammar's
    # hash stored in it and rebuilds (and rewrites) on any mismatch or damage.
    folder = _cache_folder()
    cache = os.path.join(folder, _grammar_cache_name(lark.__version__)) if folder is not None else False
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=cache)


def _cache_folder() -> str | None:
    """``$XDG_CACHE_HOME/ddsbind`` (default ``~/.cache``), made if missing; None when it cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "ddsbind")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder


def _grammar_cache_name(lark_version: str) -> str:
    """The name of lark's cache of the analysed grammar, in :func:`_cache_folder`, for this lark and Python."""
    import sys

    return "dealer-grammar-lark{}-py{}{}.lark".format(lark_version, *sys.version_info[:2])


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


def unknown_call(text: str, end: int, source: str) -> DealerError | None:
    """The first ``name(`` before offset ``end`` whose name is no function of the language, as an error."""
    blanked = _BLANKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text[:end])
    for match in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", blanked):
        if not _CALLABLE.fullmatch(match.group(1)):
            line = blanked.count("\n", 0, match.start()) + 1
            column = match.start() - (blanked.rfind("\n", 0, match.start()) + 1) + 1
            return DealerError(f"{source}:{line}:{column}: unknown function {match.group(1)!r}")
    return None


def _syntax_error(text: str, exc: lark.exceptions.UnexpectedInput, source: str) -> DealerError:
    import lark

    line, column = exc.line or 1, exc.column or 1
    where = f"{source}:{line}:{column}"
    offset = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    unknown = unknown_call(text, min(len(text), offset + 1), source)
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


def parse_tree(text: str, source: str = "<script>") -> Node:
    """The tree of a script (``text`` without a byte-order mark); :class:`DealerError` on a syntax error.

    A script parsed before is read from the tree cache (:func:`_cached_tree`), without lark.
    """
    path = _tree_path(text)
    tree = _cached_tree(path)
    if tree is not None:
        return tree
    import lark

    try:
        parsed = _parser().parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(text, exc, source) from None
    tree = _from_lark(parsed)
    _store_tree(path, tree)
    return tree


#: Trees kept in the cache; past it, the oldest file goes when a new one is written.
TREES_KEPT = 256
#: The cache's layout: part of every key, so that another release's files are never read as this one's.
_TREE_FORMAT = "ddsbind-dealer-tree-1"


def _tree_path(text: str) -> str | None:
    """The tree cache's file for ``text``: named by a hash of lark's and Python's versions, the grammar and the text.

    Loading lark and its analysed grammar and compiling its lexer's
    expressions is most of a small script's start-up after numpy; a script
    run again (a simulation repeated, a benchmark) reads its tree instead,
    in under a millisecond, without importing lark.  lark's version is read
    from its ``__init__.py`` (whose text names it) rather than by importing
    lark.  The folder is the user's own cache (the files are unpickled).
    None when there is no such folder or no lark.
    """
    import sys
    from importlib.machinery import PathFinder

    try:  # hashlib's BLAKE2 itself, as the standard library's random takes its SHA-512: without loading OpenSSL
        from _blake2 import blake2b  # (importing hashlib costs a small script's start-up a few ms)
    except ImportError:  # an interpreter built without it
        from hashlib import blake2b

    folder = _cache_folder()
    spec = PathFinder.find_spec("lark")
    if folder is None or spec is None or spec.origin is None:
        return None
    try:
        with open(spec.origin, "rb") as handle:
            lark_init = handle.read()
    except OSError:
        return None
    key = blake2b(digest_size=32)
    for part in (_TREE_FORMAT, "{}.{}".format(*sys.version_info[:2]), _grammar(), text):
        key.update(part.encode("utf-8", errors="surrogatepass") + b"\0")
    key.update(lark_init)
    return os.path.join(folder, "dealer-trees", key.hexdigest() + ".pickle")


def _cached_tree(path: str | None) -> Node | None:
    """The tree stored at ``path``, or None when there is none (or it cannot be read: it is parsed again)."""
    import pickle

    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            tree = pickle.load(handle)
    except Exception:  # missing, damaged or from an incompatible release: parsed again
        return None
    return tree if isinstance(tree, Node) else None


def _store_tree(path: str | None, tree: Node) -> None:
    """Write ``tree`` to ``path`` (atomically), dropping the oldest trees past :data:`TREES_KEPT`; errors ignored."""
    import pickle
    import tempfile

    if path is None:
        return
    try:
        data = pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:  # a tree nested deeper than pickle goes (a thousand-term expression): not kept
        return
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as handle:
            handle.write(data)
        os.replace(handle.name, path)
        names = [os.path.join(folder, name) for name in os.listdir(folder)]
        if len(names) > TREES_KEPT:
            names.sort(key=os.path.getmtime)
            for name in names[: len(names) - TREES_KEPT]:
                os.remove(name)
    except OSError:
        return


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
