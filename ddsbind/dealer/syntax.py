"""The dealer language's syntax: the lark parser of ``dealer.lark``, its one-line errors, script parameters.

:func:`parse_tree` reads a script into lark's tree (or raises
:class:`~ddsbind.dealer.dealing.DealerError` as ``source:line:column: what
was found, what was expected``); :mod:`ddsbind.dealer.compiler` turns the
tree into numpy functions.  :func:`substitute_parameters` is DealerV2's
textual ``$1`` .. ``$9``, applied before parsing.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

import lark

from ddsbind.dealer.dealing import DealerError

__all__ = ["parse_tree", "substitute_parameters", "unknown_call"]


@functools.lru_cache(maxsize=1)
def _grammar() -> str:
    # Beside this module: the package holds compiled modules, so it is never imported from a zip file (and
    # importlib.resources would cost every start-up its readers, zipfile among them).
    with open(os.path.join(os.path.dirname(__file__), "dealer.lark"), encoding="utf-8") as handle:
        return handle.read()


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = _grammar()
    # lark keeps the analysed grammar in a cache file, and a fresh process loads it instead of building
    # the LALR tables again (most of a small script's start-up otherwise).  The file is in the user's
    # own cache folder, not the shared temporary one: lark unpickles it.  lark checks the grammar's
    # hash stored in it and rebuilds (and rewrites) on any mismatch or damage.
    return lark.Lark(
        grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=_grammar_cache() or False
    )


def _grammar_cache() -> str | None:
    """``$XDG_CACHE_HOME/ddsbind/dealer-grammar.lark`` (default ``~/.cache``), or None when it cannot be made."""
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


def parse_tree(text: str, source: str = "<script>") -> lark.Tree[Any]:
    """lark's tree of a script (``text`` without a byte-order mark); :class:`DealerError` on a syntax error.

    A script parsed before is read from the tree cache (:func:`_cached_tree`).
    """
    path = _tree_path(text)
    tree = _cached_tree(path)
    if tree is not None:
        return tree
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(text, exc, source) from None
    _store_tree(path, tree)
    return tree


#: Trees kept in the cache; past it, the oldest file goes when a new one is written.
TREES_KEPT = 256


def _tree_path(text: str) -> str | None:
    """The tree cache's file for ``text``: named by a hash of lark's and Python's versions, the grammar and the text.

    Loading lark's analysed grammar and compiling its lexer's expressions is
    most of a small script's start-up after numpy (measured 35-45 ms of
    0.23 s); a script run again (a simulation repeated, a benchmark) reads
    its tree instead, in under a millisecond.  The folder is the grammar
    cache's, in the user's own cache (the files are unpickled).  None when
    there is no such folder.
    """
    import hashlib
    import sys

    folder = _grammar_cache()
    if folder is None:
        return None
    key = hashlib.sha256()
    for part in (lark.__version__, "{}.{}".format(*sys.version_info[:2]), _grammar(), text):
        key.update(part.encode("utf-8", errors="surrogatepass") + b"\0")
    return os.path.join(os.path.dirname(folder), "dealer-trees", key.hexdigest() + ".pickle")


def _cached_tree(path: str | None) -> lark.Tree[Any] | None:
    """The tree stored at ``path``, or None when there is none (or it cannot be read: it is parsed again)."""
    import pickle

    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            tree = pickle.load(handle)
    except Exception:  # missing, damaged or from an incompatible lark: parsed again
        return None
    return tree if isinstance(tree, lark.Tree) else None


def _store_tree(path: str | None, tree: lark.Tree[Any]) -> None:
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
